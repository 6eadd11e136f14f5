// The public embedding API, in the style of JavaScriptCore: a `JSContext` owns a runtime
// and its realm; `JSValue`s are rooted references to values in it.

import JSSyntax
import JSRuntime

/// A JavaScript execution context: one runtime, one realm, one global object.
///
/// Not thread-safe: use a context (and its values) from one thread at a time.
public final class JSContext {
    /// The underlying runtime (for embedders that need the lower-level API).
    public let runtime: Runtime
    let handles: HandleTable

    /// The last uncaught exception (set whenever an operation throws; clear it yourself).
    public var exception: JSValue?

    /// Called with every uncaught exception (after `exception` is set).
    public var exceptionHandler: ((JSContext, JSValue) -> Void)?

    /// Receives `console.log`/`info`/`debug` output (printed to stdout when nil).
    public var consoleOutput: ((String) -> Void)? {
        didSet { runtime.outputHook = consoleOutput }
    }

    /// Receives `console.error`/`warn` output (printed when nil).
    public var consoleErrorOutput: ((String) -> Void)? {
        didSet { runtime.errorOutputHook = consoleErrorOutput }
    }

    /// Creates a runtime with a fresh realm.
    public init() {
        runtime = Runtime()
        handles = runtime.makeHandleTable()
        do {
            try runtime.initializeRealm()
        } catch {
            fatalError("JSContext: failed to initialize the realm")
        }
    }

    /// Number of values currently held by `JSValue`s of this context.
    public var liveHandleCount: Int { handles.count }

    /// Runs a script; drains the job queue (promise reactions) afterwards. Returns the
    /// script's completion value, or nil if it threw (see `exception`).
    @discardableResult
    public func evaluateScript(_ source: String, sourceURL: String = "<eval>") -> JSValue? {
        let file = SourceFile(name: sourceURL, text: source)
        do throws(JSException) {
            let result = try runtime.evaluateScript(file)
            let value = JSValue(result, in: self)
            try runtime.runJobs()
            return value
        } catch {
            report(error)
            return nil
        }
    }

    /// Forces a full garbage collection.
    public func collectGarbage() { runtime.heap.collect() }

    /// The global object.
    public var globalObject: JSValue { JSValue(Value(cell: runtime.realm.global.cell), in: self) }

    /// A global variable (a property of the global object).
    public subscript(name: String) -> JSValue {
        get { globalObject[name] }
        set { globalObject[name] = newValue }
    }

    /// Sets a global to a Swift value (converted with `JSValue(object:in:)`).
    public func setObject(_ object: Any?, forKeyedSubscript name: String) {
        globalObject.setValue(object, forProperty: name)
    }

    /// Defines a global function whose body is a Swift closure.
    public func setFunction(_ name: String, _ body: @escaping ([JSValue]) throws -> Any?) {
        self[name] = JSValue(function: body, name: name, in: self)
    }

    // MARK: - Internals

    /// Records an uncaught exception and calls the handler.
    func report(_ error: JSException) {
        let e = JSValue(error.value, in: self)
        exception = e
        exceptionHandler?(self, e)
    }

    /// Runs `body`; on a JS exception reports it and returns nil.
    func attempt<T>(_ body: () throws(JSException) -> T) -> T? {
        do throws(JSException) {
            return try body()
        } catch {
            report(error)
            return nil
        }
    }

    /// A JS exception for a Swift error thrown by a native closure.
    func jsException(for error: any Error) -> JSException {
        if let e = error as? JSValueError { return JSException(throwing: e.value.value) }
        if let e = error as? JSException { return e }
        do throws(JSException) {
            return try runtime.makeError(.error, String(describing: error))
        } catch {
            return error
        }
    }
}

/// Throw this from a Swift closure exposed to JS to throw `value` as a JS exception.
/// Other Swift errors become `Error` objects whose message is the error's description.
public struct JSValueError: Error, @unchecked Sendable {
    public let value: JSValue
    public init(_ value: JSValue) { self.value = value }
}
