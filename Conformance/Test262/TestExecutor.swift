// Running one test in a worker: the runs its flags ask for, each in a fresh runtime.

import JSSyntax
import JSBytecode
import JSBytecompiler
import JSRuntime
import Test262Support

/// Runs tests one after another; caches the harness files.
final class TestExecutor {
    let root: String
    let maxHeapBytes: Int
    private var harnessCache: [String: [UInt8]] = [:]
    /// The print log of the runtime `freshRuntime` made last.
    var currentLog = PrintLog()
    /// The agents of the runtime `freshRuntime` made last (`$262.agent`), shut down at
    /// the end of its run.
    var currentHub: AgentHub?
    /// Applied to every fresh runtime (the JIT, in a worker run with `--jit`).
    var configureRuntime: (Runtime) -> Void = { _ in }

    init(root: String, maxHeapBytes: Int) {
        self.root = root
        self.maxHeapBytes = maxHeapBytes
    }

    /// How one run ended.
    enum Ending {
        case completed(printed: [String])
        /// `phase`: parse (parser and early errors), compile (the bytecompiler does not
        /// support something yet: never an expected error), runtime.
        case threw(phase: String, type: String, message: String)
    }

    /// Runs the test at `rel` (relative to ROOT/test); returns its verdict and a reason.
    func run(_ rel: String) -> (Verdict, String) {
        guard let bytes = readFile(root + "/test/" + rel) else { return (.fail, "cannot read the test file") }
        let meta = parseMetadata(bytes)
        // This host's agent can block ([[CanBlock]] true, like a shell's main thread).
        if meta.flags.contains("CanBlockIsFalse") { return (.skip, "CanBlockIsFalse") }
        let raw = meta.flags.contains("raw")
        let async = meta.flags.contains("async")
        var strictModes: [Bool] = []
        if raw {
            strictModes = [false]
        } else {
            if !meta.flags.contains("onlyStrict") { strictModes.append(false) }
            if !meta.flags.contains("noStrict") { strictModes.append(true) }
        }

        var prelude: [UInt8] = []
        if !raw {
            var names = ["assert.js", "sta.js"]
            if async { names.append("doneprintHandle.js") }
            names += meta.includes
            for name in names {
                guard let h = harness(name) else { return (.fail, "cannot read harness/\(name)") }
                prelude += h
                prelude.append(0x0A)
            }
        }

        if meta.flags.contains("module") {
            // Module code is strict by itself: one run, the harness as a script first.
            let ending = executeModule(path: root + "/test/" + rel, harness: prelude)
            if let problem = check(ending, meta: meta, async: async) { return (.fail, problem) }
            return (.pass, "")
        }
        for strict in strictModes {
            var script: [UInt8] = []
            if strict { script += Array("\"use strict\";\n".utf8) }
            script += prelude
            script += bytes
            let ending = execute(SourceFile(name: rel, bytes: script), testPath: root + "/test/" + rel)
            if let problem = check(ending, meta: meta, async: async) {
                return (.fail, (strictModes.count > 1 ? (strict ? "strict: " : "sloppy: ") : "") + problem)
            }
        }
        return (.pass, "")
    }

    /// Nil if the run passed, else why not.
    func check(_ ending: Ending, meta: Metadata, async: Bool) -> String? {
        if let phase = meta.negativePhase {
            let type = meta.negativeType ?? "?"
            switch ending {
            case .completed:
                return "expected \(type) (\(phase)), completed normally"
            case .threw(let p, let t, let m):
                if p == phase && t == type { return nil }
                return "expected \(type) (\(phase)), got \(t) (\(p)): \(m)"
            }
        }
        switch ending {
        case .threw(let p, let t, let m):
            return p == "runtime" ? "\(t): \(m)" : "\(t) (\(p)): \(m)"
        case .completed(let printed):
            guard async else { return nil }
            if let failure = printed.first(where: { $0.hasPrefix("Test262:AsyncTestFailure:") }) {
                return String(failure.dropFirst("Test262:AsyncTestFailure:".count))
            }
            if !printed.contains("Test262:AsyncTestComplete") {
                return "async test did not print Test262:AsyncTestComplete"
            }
            return nil
        }
    }

    /// Evaluates one script in a fresh runtime.
    func execute(_ source: SourceFile, testPath: String) -> Ending {
        guard let rt = freshRuntime() else { return .threw(phase: "setup", type: "Error", message: "runtime setup failed") }
        defer { shutDownAgents() }
        installModuleLoader(rt, testPath: testPath)
        let log = currentLog

        let program: Program
        do {
            program = try parseScript(source)
        } catch {
            return .threw(phase: "parse", type: error.kind.rawValue, message: error.message)
        }
        let code: CodeBlock
        do {
            code = try Compiler.compileScript(program)
        } catch {
            return .threw(phase: "compile", type: "SyntaxError", message: error.message)
        }
        do {
            _ = try rt.runScript(compiled: code)
        } catch {
            let (type, message) = describeThrown(rt, error.value)
            return .threw(phase: "runtime", type: type, message: message)
        }
        // Drain the promise job queue (async tests report through promise reactions).
        // Then settle Atomics.waitAsync waiters (notified by agents, or timing out).
        do {
            try rt.runJobs()
            while rt.hasPendingAsyncWaiters {
                try rt.settleAsyncWaiters(maxWait: 0.05)
                try rt.runJobs()
            }
        } catch {
            let (type, message) = describeThrown(rt, error.value)
            return .threw(phase: "runtime", type: type, message: "(in a promise job) " + message)
        }
        return .completed(printed: log.lines)
    }

    /// A fresh runtime with the test host installed (its print log in `currentLog`).
    func freshRuntime() -> Runtime? {
        let rt = Runtime()
        do {
            try rt.initializeRealm()
        } catch {
            return nil
        }
        rt.outputHook = { _ in }
        rt.errorOutputHook = { _ in }
        let log = PrintLog()
        let hub = AgentHub(root: root, maxHeapBytes: maxHeapBytes)
        do {
            let host = try installHost(rt, log: log)
            try installAgentMain(rt, host: host, hub: hub)
        } catch {
            return nil
        }
        shutDownAgents()
        currentHub = hub
        rt.heap.maxHeapBytes = maxHeapBytes
        configureRuntime(rt)
        currentLog = log
        return rt
    }

    /// Ends the agents of the last runtime (before the runtime goes).
    func shutDownAgents() {
        currentHub?.shutDown()
        currentHub = nil
    }

    /// The thrown value's constructor name (what `negative.type` names) and its message.
    func describeThrown(_ rt: Runtime, _ v: Value) -> (String, String) {
        guard rt.isObject(v) else {
            let s = (try? rt.flatten(try rt.toString(v)).swiftString) ?? "?"
            return ("(thrown primitive)", s)
        }
        let o = JSObject(v)
        var type = "(object)"
        if let ctor = try? rt.get(o, "constructor"), rt.isObject(ctor),
           let name = try? rt.get(JSObject(ctor), "name"), rt.isString(name),
           let s = try? rt.flatten(name).swiftString {
            type = s
        }
        var message = ""
        if let m = try? rt.get(o, "message"), rt.isString(m), let s = try? rt.flatten(m).swiftString {
            message = s
        }
        return (type, message)
    }

    func harness(_ name: String) -> [UInt8]? {
        if let h = harnessCache[name] { return h }
        let h = readFile(root + "/harness/" + name)
        harnessCache[name] = h
        return h
    }
}
