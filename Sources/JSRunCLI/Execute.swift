import JSSyntax
import JSBytecode
import JSBytecompiler
import JSRuntime
import JSHost
import EngineIPC

/// Running scripts with the interpreter.
enum Execute {
    struct Options {
        var gcStress = false
        /// Print the heap, GC and regexp statistics to stderr when the script ends
        /// (`--stats`, `--gc-stats`).
        var gcStats = false
        var maxHeapBytes = 0
        var dumpBytecode = false
        /// The baseline JIT (only in a locked worker): mode, `--jit-stats`, `--print-code`.
        var jitMode = JITMode.on
        var jitStats = false
        var printCode = false
    }

    /// Runs `source`; prints an uncaught exception with its stack. Returns the exit status.
    static func run(_ source: SourceFile, options: Options, printResult: Bool = false) -> Int32 {
        guard let rt = makeRuntime() else { return 70 }
        return run(source, in: rt, options: options, printResult: printResult)
    }

    /// A runtime with its realm, printing to stdout/stderr (nil after reporting a failure).
    static func makeRuntime() -> Runtime? {
        let rt = Runtime()
        rt.heap.gcStress = false
        do {
            try rt.initializeRealm()
        } catch {
            FileIO.err("jsrun: failed to initialize the runtime\n")
            return nil
        }
        rt.outputHook = { FileIO.out($0) }
        rt.errorOutputHook = { FileIO.err($0) }
        do {
            hosts.append(try JSHost(rt))
        } catch {
            FileIO.err("jsrun: failed to install the host APIs\n")
            return nil
        }
        return rt
    }

    /// The host APIs of each runtime jsrun made (one per process, the REPL's included).
    nonisolated(unsafe) static var hosts: [JSHost] = []
    static func host(of rt: Runtime) -> JSHost? { hosts.first { $0.runtime === rt } }

    /// After a script or module: the microtasks, then the timers until none is left
    /// (node's event loop). A promise rejected with no handler ends it with status 1.
    static func runEventLoop(_ rt: Runtime, waiting: Bool = true) throws(JSException) -> Int32 {
        guard let host = host(of: rt) else {
            try rt.runJobs()
            return 0
        }
        let finished = try host.runEventLoop(waiting: waiting) { reason in
            rt.heap.gcStress = false
            FileIO.err("Uncaught (in promise) " + describe(rt, reason) + "\n")
        }
        return finished ? 0 : 1
    }

    /// Leaves `rt` alive when the process exits: tearing down the heap, the shapes and
    /// the register file (~0.2 ms) only to exit is wasted (jsrun's one runtime per process).
    static func keepUntilExit(_ rt: Runtime) {
        _ = Unmanaged.passRetained(rt)
    }

    /// Runs `source` in an initialized runtime (the worker's, or a fresh one).
    static func run(_ source: SourceFile, in rt: Runtime, options: Options, printResult: Bool = false,
                    interactive: Bool = false) -> Int32 {
        rt.heap.maxHeapBytes = options.maxHeapBytes
        WorkerJIT.configure(rt, mode: options.jitMode, printCode: options.printCode)
        if options.dumpBytecode {
            if let program = try? parseScript(source), let code = try? Compiler.compileScript(program) {
                FileIO.out(Disassembler.disassemble(code))
            }
        }
        rt.heap.gcStress = options.gcStress
        rt.measureRegExpTime = options.gcStats
        defer {
            if options.jitStats { FileIO.err(jitStatistics(rt)) }
            if options.gcStats { FileIO.err(statistics(rt)) }
        }
        do {
            let result = try rt.evaluateScript(source)
            if printResult {
                try rt.runJobs()
                FileIO.out((try rt.inspect(result, depth: 0, top: false)) + "\n")
            }
            return try runEventLoop(rt, waiting: !interactive)
        } catch {
            rt.heap.gcStress = false
            FileIO.err("Uncaught " + describe(rt, error.value) + "\n")
            return 1
        }
    }

    /// Imports come from `fetch` (the supervisor, or the files under the allowed root);
    /// the entry module itself is `entry`.
    static func installModuleLoader(_ rt: Runtime, entry: SourceFile, fetch: @escaping (String, String) -> ModuleSourceReply) {
        let entryName = entry.name
        let entryBytes = entry.bytes
        rt.moduleLoader = { specifier, referrer in
            if referrer == nil && specifier == entryName { return .success(ModuleSource(key: entryName, bytes: entryBytes)) }
            let reply = fetch(specifier, referrer ?? "")
            if let error = reply.error { return .failure(ModuleLoadFailure(error)) }
            return .success(ModuleSource(key: reply.key, bytes: reply.source))
        }
    }

    /// Runs `source` as the entry module of a module graph (its name is its key).
    static func runModule(_ source: SourceFile, in rt: Runtime, options: Options) -> Int32 {
        rt.heap.maxHeapBytes = options.maxHeapBytes
        WorkerJIT.configure(rt, mode: options.jitMode, printCode: options.printCode)
        rt.heap.gcStress = options.gcStress
        rt.measureRegExpTime = options.gcStats
        defer {
            if options.jitStats { FileIO.err(jitStatistics(rt)) }
            if options.gcStats { FileIO.err(statistics(rt)) }
        }
        do {
            _ = try rt.runModule(source.name)
            return try runEventLoop(rt)
        } catch {
            rt.heap.gcStress = false
            FileIO.err("Uncaught " + describe(rt, error.value) + "\n")
            return 1
        }
    }

    /// `--jit-stats`: what the baseline JIT did (to stderr at the end).
    static func jitStatistics(_ rt: Runtime) -> String {
        let s = rt.jitStatistics
        guard let jit = WorkerJIT.shared else {
            return "jsrun: jit: off (\(WorkerJIT.whyNot))\n"
        }
        let m = jit.memory.statistics
        let ms = Double(s.compileNanoseconds / 1000) / 1000
        return "jsrun: jit: \(s.functionsCompiled) functions compiled (\(s.functionsRefused) refused), "
            + "\(s.bytecodeBytes) bytes of bytecode -> \(s.codeBytes) bytes of code in \(ms) ms; "
            + "instructions \(jit.inlineInstructions) inline, \(jit.stubInstructions) by stub, \(jit.exitInstructions) exits; "
            + "\(s.entries) entries, \(s.stubCalls) stub calls; "
            + "code memory \(m.bytesInUse) bytes in use (peak \(m.peakBytesInUse)), \(m.pageFlips) page flips\n"
            + "jsrun: jit: stub calls by opcode: " + rt.jitStubProfile(top: 10).map { "\($0.0) \($0.1)" }.joined(separator: ", ") + "\n"
    }

    /// `--stats`: the heap's peak, the collections and their time, the regexp matcher's time.
    static func statistics(_ rt: Runtime) -> String {
        let h = rt.heap
        func ms(_ ns: UInt64) -> String {
            let tenths = (ns + 50_000) / 100_000
            return "\(tenths / 10).\(tenths % 10) ms"
        }
        return "jsrun: stats: heap peak \(h.peakBytes / 1024) KiB (cells and external storage), "
            + "\(h.liveBytes / 1024) KiB live after the last collection, \(h.externalBytes / 1024) KiB external now\n"
            + "jsrun: stats: \(h.collections) collections, \(ms(h.gcNanoseconds)) in the collector; "
            + "regexp matcher \(ms(rt.regexpNanoseconds)) (\(rt.regexpMatches) matches run)\n"
    }

    static func describe(_ rt: Runtime, _ v: Value) -> String {
        if rt.isObject(v), let stack = try? rt.get(JSObject(v), "stack"), rt.isString(stack),
           let s = try? rt.flatten(stack).swiftString {
            return s
        }
        if let s = try? rt.inspect(v, depth: 0, top: false) { return s }
        // Printing ran a getter (the stack, a name, a tag) that threw.
        return "exception: an object that could not be printed (a getter threw while it was read)"
    }
}
