// Modules through the embedding API: the embedder supplies module sources with a Swift
// loader; `evaluateModule` loads, links and evaluates a graph (and `import()` in any
// script of the context uses the same loader).

import JSRuntime

/// A module source an embedder's loader returns: a canonical key (the same key means the
/// same module; relative imports in it resolve against it) and the source text.
public struct JSModuleSource: Sendable {
    public var key: String
    public var source: String
    public init(key: String, source: String) { self.key = key; self.source = source }
}

/// A loader's refusal; the message becomes the `TypeError` the import fails with.
public struct JSModuleLoadError: Error, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

extension JSContext {
    /// Installs the loader that resolves `specifier` imported from `referrer`: the
    /// importing module's key, a script's `sourceURL` for `import()` in a script, nil for
    /// `evaluateModule`'s entry.
    public func setModuleLoader(_ loader: @escaping (_ specifier: String, _ referrer: String?) throws(JSModuleLoadError) -> JSModuleSource) {
        runtime.moduleLoader = { specifier, referrer in
            do throws(JSModuleLoadError) {
                let m = try loader(specifier, referrer)
                return .success(ModuleSource(key: m.key, bytes: Array(m.source.utf8)))
            } catch {
                return .failure(ModuleLoadFailure(error.message))
            }
        }
    }

    /// Loads the module `specifier` (through the loader, with no referrer) and its imports,
    /// links and evaluates them, and drains the job queue (top-level `await` included).
    /// Returns the module's namespace object, or nil if loading, linking or evaluation
    /// failed (see `exception`).
    @discardableResult
    public func evaluateModule(_ specifier: String) -> JSValue? {
        do throws(JSException) {
            let (module, promise) = try entering { () throws(JSException) -> (ModuleRecord, Value) in
                let m = try runtime.loadModule(specifier, referrer: nil)
                try runtime.linkModule(m)
                return (m, try runtime.evaluateModule(m))
            }
            let held = JSValue(unchecked: promise, in: self)
            try drainJobsIfOutermost()
            let namespace = try runtime.moduleEvaluationResult(module, promise: held.value)
            return JSValue(unchecked: namespace, in: self)
        } catch {
            report(error)
            return nil
        }
    }
}
