#if canImport(Glibc)
import Glibc
#endif
import JSSyntax
import JSRuntime
import EngineIPC
import Lockdown
import CLockdown

/// Worker mode: `jsrun --lockdown-worker SUPERVISOR_PID`, started by a supervisor with
/// the message socket on descriptor 3 (see `WorkerProcess`).
///
/// Order matters: everything that needs the system (runtime, heap and stack bounds,
/// hash seeds, signal handlers, the policy's name table) is set up first; then the
/// worker locks down as the supervisor's `lockdown` message says; only then does it
/// read scripts. After lockdown it makes only the calls `SystemCallPolicy.worker` allows.
public enum WorkerMain {
    /// Runs worker mode if `arguments` ask for it; returns the exit status, or nil.
    public static func runIfRequested(_ arguments: [String]) -> Int32? {
        guard arguments.count >= 3, arguments[1] == WorkerProcess.workerFlag, let parent = Int32(arguments[2]) else { return nil }
        return run(supervisor: parent)
    }

    /// `region`: the executable region a forking supervisor reserved for this worker
    /// (nil: the worker reserves its own).
    static func run(supervisor: Int32, region reserved: ExecutableRegion? = nil) -> Int32 {
        // Die with the supervisor; it may already be gone (then the pid differs).
        _ = sable_set_parent_death_signal(SIGKILL)
        if getppid() != supervisor { return 71 }
        // Room for deep programs before the stack bounds are cached (issue 15).
        StackGuard.reserveMainThreadStack()
        var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
        setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore)
        let connection = Connection(fd: WorkerDescriptors.socket)

        guard let rt = Execute.makeRuntime() else { return 70 }
        Execute.keepUntilExit(rt)
        // A crash says what the script was doing (the supervisor reports the signal too).
        crashRuntime = rt
        _ = sable_crash_reporter_install(describeCrash)
        // Warm-up: the thread's stack bounds are cached (pthread_getattr_np reads
        // /proc/self/maps), and the first evaluation initializes lazy runtime state.
        _ = try? rt.evaluateScript(SourceFile(name: "[warm-up]", text: ""))
        if let hook = WorkerExtensions.beforeLockdown, let status = hook(rt) { return status }
        // The JIT's code pool: the only range the policy lets become executable.
        guard let region = reserved ?? ExecutableRegion.reserve() else {
            FileIO.err("jsrun worker: cannot reserve the executable region\n")
            return 71
        }
        let policy = { SystemCallPolicy.worker(pid: getpid(), executable: region) }
        do {
            try connection.send(.hello(pid: getpid()))
            guard case .lockdown(let version, let addressSpace, let mode, let filter) = try connection.receiveMessage() else {
                FileIO.err("jsrun worker: expected a lockdown message\n")
                return 71
            }
            guard version == SystemCallPolicy.version else {
                FileIO.err("jsrun worker: policy version \(version) requested, this worker has \(SystemCallPolicy.version)\n")
                return 71
            }
            // The CPU mask the supervisor narrowed after fork (it did so before sending
            // this message) is the user's again.
            _ = sable_worker_cpus_restore()
            if addressSpace > 0 {
                var limit = rlimit(rlim_cur: rlim_t(addressSpace), rlim_max: rlim_t(addressSpace))
                setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit)
            }
            let dropped = sable_drop_capabilities()
            guard dropped == 0, sable_capabilities_cleared() == 1 else {
                FileIO.err("jsrun worker: cannot drop capabilities: errno \(-dropped)\n")
                return 71
            }
            // The sweep (record mode only) compares with the policy: built while system
            // calls are still allowed.
            let sweepPolicy = mode == .record ? policy() : nil
            do {
                // Compiled by the supervisor (for this pid and region) while this process
                // created its runtime, or else here.
                if getenv(dumpFilterVariable) != nil {
                    dumpFilter(filter.isEmpty ? try Lockdown.compile(policy(), mode: mode) : filter, region: region)
                }
                if filter.isEmpty {
                    try Lockdown.install(policy(), mode: mode, reportFD: WorkerDescriptors.report)
                } else {
                    try Lockdown.install(compiled: filter, mode: mode, reportFD: WorkerDescriptors.report)
                }
            } catch {
                FileIO.err("jsrun worker: lockdown failed: \(error)\n")
                return 71
            }
            try connection.send(.lockedDown)
            WorkerJIT.install(region: region)
            if let hook = WorkerExtensions.afterLockdown { hook(rt, WorkerJIT.codeMemory(region: region)) }
            // MARK: - Locked down from here on.
            while true {
                switch try connection.receiveMessage() {
                case .evaluate(let request):
                    // The diagnostic record mode makes forbidden calls return -ENOSYS
                    // instead of killing: never a mode to run scripts in.
                    if mode == .record {
                        FileIO.err("jsrun worker: refusing to run a script in the diagnostic record mode\n")
                        try connection.send(.result(EvaluateResult(id: request.id, status: 71,
                            exception: "refused: the worker is locked down in the diagnostic record mode")))
                        return 71
                    }
                    try connection.send(.result(evaluate(request, in: rt, connection: connection)))
                case .probe(let name):
                    let rc: Int
                    if name.hasPrefix("syscall:"), let nr = Int32(name.dropFirst(8)) {
                        rc = Sweep.call(nr)
                    } else if let probe = Probe(rawValue: name) {
                        rc = probe.perform(region: region)
                    } else {
                        return 71
                    }
                    try connection.send(.result(EvaluateResult(id: 0, status: 0, value: String(rc))))
                case .sweep:
                    let lines = Sweep.run(policy: sweepPolicy ?? policy())
                    try connection.send(.result(EvaluateResult(id: 0, status: 0, value: lines.joined(separator: "\n"))))
                case .shutdown:
                    return 0
                default:
                    FileIO.err("jsrun worker: unexpected message\n")
                    return 71
                }
            }
        } catch .closed {
            return 0
        } catch {
            FileIO.err("jsrun worker: \(error)\n")
            return 71
        }
    }

    /// With this environment variable set, the worker prints the seccomp filter it is about
    /// to install (BPF, hex) with its pid and executable region to stderr: the FFI tests
    /// compare the filters of workers with and without --ffi this way.
    static let dumpFilterVariable = "SABLE_DUMP_SECCOMP_FILTER"

    static func dumpFilter(_ bpf: [UInt8], region: ExecutableRegion) {
        let digits = Array("0123456789abcdef".utf8)
        var hex = [UInt8]()
        hex.reserveCapacity(bpf.count * 2)
        for b in bpf { hex.append(digits[Int(b >> 4)]); hex.append(digits[Int(b & 15)]) }
        FileIO.err("jsrun worker: seccomp filter pid \(getpid()) region 0x\(String(region.base, radix: 16)) span 0x\(String(region.span, radix: 16)) bpf \(String(decoding: hex, as: UTF8.self))\n")
    }

    /// Runs one request in the worker's runtime (globals persist between requests).
    static func evaluate(_ request: EvaluateRequest, in rt: Runtime, connection: Connection) -> EvaluateResult {
        if let args = request.scriptArgs { try? rt.defineScriptArgs(args) }
        let source = SourceFile(name: request.name, bytes: request.source)
        // Module sources come from the supervisor: this process opens no files.
        Execute.installModuleLoader(rt, entry: source) { specifier, referrer in
            do {
                try connection.send(.loadModule(specifier: specifier, referrer: referrer))
                guard case .moduleSource(let reply) = try connection.receiveMessage() else {
                    return ModuleSourceReply(key: "", source: [], error: "Cannot load module '\(specifier)': unexpected reply from the supervisor")
                }
                return reply
            } catch {
                return ModuleSourceReply(key: "", source: [], error: "Cannot load module '\(specifier)': \(error)")
            }
        }
        var options = Execute.Options()
        options.gcStress = request.gcStress
        options.gcStats = request.gcStats
        options.maxHeapBytes = Int(clamping: request.maxHeapBytes)
        options.dumpBytecode = request.dumpBytecode
        options.jitMode = WorkerJIT.mode(request.jitMode)
        options.jitStats = request.jitStats
        options.printCode = request.printCode
        if request.isModule && !request.captureOutput {
            return EvaluateResult(id: request.id, status: Execute.runModule(source, in: rt, options: options))
        }
        if !request.captureOutput {
            let status = Execute.run(source, in: rt, options: options, printResult: request.printResult,
                                     interactive: request.interactive)
            return EvaluateResult(id: request.id, status: status)
        }
        // Embedding API: output, value and exception come back as strings.
        let output = OutputBuffer()
        rt.outputHook = { output.append($0) }
        rt.errorOutputHook = { output.append($0) }
        defer {
            rt.outputHook = { FileIO.out($0) }
            rt.errorOutputHook = { FileIO.err($0) }
        }
        rt.heap.maxHeapBytes = options.maxHeapBytes
        WorkerJIT.configure(rt, mode: options.jitMode, printCode: options.printCode)
        rt.heap.gcStress = options.gcStress
        defer { rt.heap.gcStress = false }
        do {
            let value = try rt.evaluateScript(source)
            rt.heap.pushRoot(value)
            defer { rt.heap.popRoots(1) }
            // Promise reactions and timers run before the result goes back, as in jsrun; a
            // promise rejected with no handler is the request's exception.
            var rejection: String?
            if let host = Execute.host(of: rt) {
                _ = try host.runEventLoop { reason in rejection = "Uncaught (in promise) " + Execute.describe(rt, reason) }
            } else {
                try rt.runJobs()
            }
            if let rejection {
                return EvaluateResult(id: request.id, status: 1, exception: OutputBuffer.clip(rejection), output: output.text)
            }
            let text = (try? rt.inspect(value, depth: 0, top: false)) ?? "?"
            return EvaluateResult(id: request.id, status: 0, value: OutputBuffer.clip(text), output: output.text)
        } catch {
            rt.heap.gcStress = false
            return EvaluateResult(id: request.id, status: 1, exception: OutputBuffer.clip(Execute.describe(rt, error.value)), output: output.text)
        }
    }

    /// Captured console output, bounded so that a result always fits in one message
    /// (`Frame.defaultMaxPayload`): output beyond `limit` bytes is dropped and noted.
    final class OutputBuffer {
        static let limit = Frame.defaultMaxPayload / 2
        /// The most of the value or the exception text sent back.
        static let textLimit = Frame.defaultMaxPayload / 8
        var text = ""
        var bytes = 0
        var truncated = false

        func append(_ s: String) {
            if truncated { return }
            let n = s.utf8.count
            if bytes + n <= Self.limit {
                text += s
                bytes += n
            } else {
                truncated = true
                text += "\n[output truncated: more than \(Self.limit) bytes]\n"
            }
        }

        static func clip(_ s: String) -> String {
            if s.utf8.count <= textLimit { return s }
            return String(decoding: s.utf8.prefix(textLimit), as: UTF8.self) + "... [truncated]"
        }
    }
}

/// The worker's runtime, for the crash reporter (`describeCrash`).
nonisolated(unsafe) var crashRuntime: Runtime?

/// Called by the fatal-signal handler (on its alternate stack): appends the runtime's
/// script location and native function to the report line.
private func describeCrash(_ signal: Int32) {
    guard let rt = crashRuntime else { return }
    let text = rt.crashContext()
    _ = text.withCString { write(2, $0, strlen($0)) }
}
