// Module tests (`flags: [module]`): the harness runs as a script, then the test file is
// the entry of a module graph whose imports (the `_FIXTURE.js` files next to it, or the
// test itself) are read from disk relative to the importing file.

import JSSyntax
import JSRuntime
import Test262Support

extension TestExecutor {
    /// Imports resolve against the importing file's directory (a referrer that is no
    /// absolute path, such as a script's own name, stands for the test file).
    func installModuleLoader(_ rt: Runtime, testPath: String) {
        rt.moduleLoader = { specifier, referrer in
            guard ModulePath.isPath(specifier) else { return .failure(ModuleLoadFailure("Cannot resolve module specifier '\(specifier)'")) }
            let from = referrer.flatMap { $0.hasPrefix("/") ? $0 : nil } ?? testPath
            let key = ModulePath.resolve(specifier, from: ModulePath.directory(of: from))
            guard let bytes = readFile(key) else { return .failure(ModuleLoadFailure("Cannot find module '\(key)'")) }
            return .success(ModuleSource(key: key, bytes: bytes))
        }
    }

    /// Runs the module at `path` (absolute) after `harness`. Phases: `parse` for the test
    /// file's own syntax and early errors, `resolution` for loading and linking the graph
    /// (an imported file's syntax errors, missing or ambiguous exports), `runtime` after.
    func executeModule(path: String, harness: [UInt8]) -> Ending {
        guard let rt = freshRuntime() else { return .threw(phase: "setup", type: "Error", message: "runtime setup failed") }
        let log = currentLog
        if !harness.isEmpty {
            do {
                _ = try rt.evaluateScript(SourceFile(name: "harness", bytes: harness))
            } catch {
                let (type, message) = describeThrown(rt, error.value)
                return .threw(phase: "setup", type: type, message: "harness: " + message)
            }
        }
        installModuleLoader(rt, testPath: path)
        guard let bytes = readFile(path) else { return .threw(phase: "setup", type: "Error", message: "cannot read \(path)") }
        do {
            _ = try parseModule(SourceFile(name: path, bytes: bytes))
        } catch {
            return .threw(phase: "parse", type: error.kind.rawValue, message: error.message)
        }
        let module: ModuleRecord
        do {
            module = try rt.loadModule(path, referrer: nil)
            try rt.linkModule(module)
        } catch {
            let (type, message) = describeThrown(rt, error.value)
            return .threw(phase: "resolution", type: type, message: message)
        }
        do {
            _ = try rt.evaluateModule(module)
            try rt.runJobs()
        } catch {
            let (type, message) = describeThrown(rt, error.value)
            return .threw(phase: "runtime", type: type, message: message)
        }
        if let failure = rt.moduleEvaluationError(module) {
            let (type, message) = describeThrown(rt, failure)
            return .threw(phase: "runtime", type: type, message: message)
        }
        return .completed(printed: log.lines)
    }
}
