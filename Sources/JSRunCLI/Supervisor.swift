#if canImport(Glibc)
import Glibc
#endif
import EngineIPC
import Lockdown
import CLockdown

/// The supervisor side of one worker: starts it, locks it down, sends requests and
/// watches it. Every way a worker can end (forbidden system call, crash, timeout,
/// interrupt, protocol error) comes back as an `End`, with the worker reaped.
final class Supervisor {
    struct Settings {
        var executable = "/proc/self/exe"
        /// Start the worker by fork() without exec (this image in worker mode: no second
        /// process start) when this process is single-threaded; else spawn `executable`.
        /// jsrun's own; an embedder's process is not this binary or not single-threaded.
        var fork = false
        /// Seconds until the worker is ended (nil: none); `restartClock` starts a new period.
        var timeout: Double?
        /// RLIMIT_AS for the worker in bytes (0: none).
        var addressSpaceLimit: UInt64 = 0
        var mode: ViolationMode = .reportAndKill
        /// Arguments for a spawned worker after `--lockdown-worker PID` (`--ffi=...`).
        var extraArguments: [String] = []
        /// Turn SIGINT/SIGTERM/SIGHUP into an `.interrupted` end (jsrun; not for embedders).
        var handleSignals = false

        /// jsrun's settings: the worker forked from this process.
        static var forked: Settings {
            var s = Settings()
            s.fork = true
            return s
        }
    }

    /// How a session ended abnormally.
    enum End: Error, Equatable {
        /// The worker died; `violation` is the call its SIGSYS handler reported.
        case died(WorkerProcess.Termination, violation: String?)
        case timedOut(Double)
        case interrupted(signal: Int32)
        case protocolError(String)
        case couldNotStart(String)
    }

    let worker: WorkerProcess
    let connection: Connection
    let settings: Settings
    var deadline: UInt64?
    let interruptFD: Int32?
    var ended: End?

    /// Starts a worker and asks it to lock down (the request is queued on the socket
    /// while the worker initializes its runtime).
    init(_ settings: Settings) throws(End) {
        self.settings = settings
        // A closed 0, 1 or 2 would be reused by the pipes and the socket below, and the
        // worker, which inherits 1 and 2, would write into them.
        guard StandardDescriptors.ensureOpen() else { throw .couldNotStart("cannot open /dev/null") }
        var interruptFD: Int32? = nil
        if settings.handleSignals {
            let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
            let fd = signals.withUnsafeBufferPointer { sable_signal_pipe_install($0.baseAddress, Int32($0.count)) }
            if fd >= 0 { interruptFD = fd }
        }
        self.interruptFD = interruptFD
        // A forked worker gets its executable region from here, so that this process knows
        // the region and the pid and compiles the policy while the worker starts its
        // runtime (libseccomp takes ~0.3 ms: off the worker's path). A spawned worker
        // reserves its region and compiles its policy itself.
        var region: ExecutableRegion? = nil
        do {
            if settings.fork && WorkerProcess.isSingleThreaded, let reserved = ExecutableRegion.reserve() {
                let supervisor = getpid()
                region = reserved
                worker = try WorkerProcess.fork { WorkerMain.run(supervisor: supervisor, region: reserved) }
                munmap(reserved.pool, Int(2 * reserved.span))
            } else {
                worker = try WorkerProcess.spawn(executable: settings.executable, extraArguments: settings.extraArguments)
            }
        } catch {
            if let region { munmap(region.pool, Int(2 * region.span)) }
            throw .couldNotStart(error.description)
        }
        // A worker that dies while we write must not kill the supervisor with SIGPIPE.
        connection = Connection(fd: worker.socketFD, noSignal: true)
        deadline = Self.deadline(after: settings.timeout)
        var filter: [UInt8] = []
        if let region {
            filter = (try? Lockdown.compile(SystemCallPolicy.worker(pid: worker.pid, executable: region), mode: settings.mode)) ?? []
        }
        try send(.lockdown(policyVersion: SystemCallPolicy.version, addressSpaceLimit: settings.addressSpaceLimit,
                           mode: settings.mode, filter: filter))
    }

    var pid: Int32 { worker.pid }

    /// Starts a new timeout period (per evaluation, for embedders).
    func restartClock() {
        deadline = Self.deadline(after: settings.timeout)
    }

    /// The CLOCK_MONOTONIC time `seconds` from now (nil: no deadline). Any Double is
    /// safe here: not above 0 (or NaN) is now, beyond ~100 years is no deadline.
    static func deadline(after seconds: Double?) -> UInt64? {
        guard let seconds else { return nil }
        let now = Clock.monotonicNanoseconds()
        guard seconds > 0 else { return now }
        guard seconds < 3e9 else { return nil }
        return now + UInt64(seconds * 1e9)
    }

    /// RLIMIT_AS for a worker whose JS heap is limited to `maxHeapBytes`: the Swift
    /// runtime and malloc reserve address space beyond the JS heap (4 x the heap + 2 GiB,
    /// saturating instead of overflowing; 0 for no heap limit).
    static func addressSpaceLimit(forHeap maxHeapBytes: UInt64) -> UInt64 {
        guard maxHeapBytes > 0 else { return 0 }
        let (times4, o1) = maxHeapBytes.multipliedReportingOverflow(by: 4)
        let (limit, o2) = times4.addingReportingOverflow(2 << 30)
        return o1 || o2 ? UInt64.max : limit
    }

    /// Waits for `hello` and `lockedDown`.
    func awaitLockedDown() throws(End) {
        guard case .hello = try receive(), case .lockedDown = try receive() else {
            throw fail(.protocolError("unexpected message during start-up"))
        }
    }

    func send(_ message: WorkerMessage) throws(End) {
        if let ended { throw ended }
        do {
            try connection.send(message)
        } catch {
            // The worker is gone or broken: find out how it ended.
            throw fail(error)
        }
    }

    func receive() throws(End) -> WorkerMessage {
        if let ended { throw ended }
        do {
            return try connection.receiveMessage(deadline: deadline, watching: interruptFD)
        } catch {
            throw fail(error)
        }
    }

    /// Sends a request and waits for its result.
    func request(_ message: WorkerMessage) throws(End) -> EvaluateResult {
        try send(message)
        guard case .result(let r) = try receive() else { throw fail(.protocolError("expected a result")) }
        return r
    }

    /// Ends the session politely (`shutdown`, then a bounded wait).
    func finish() -> WorkerProcess.Termination {
        if ended == nil {
            try? connection.send(.shutdown)
            ended = .died(worker.wait(timeout: 2), violation: nil)
        }
        return worker.wait(timeout: 2)
    }

    func fail(_ error: IPCError) -> End {
        switch error {
        case .timedOut:
            worker.terminate()
            return fail(.timedOut(settings.timeout ?? 0))
        case .interrupted:
            var b: UInt8 = 0
            if let fd = interruptFD { _ = read(fd, &b, 1) }
            let sig = b == 0 ? SIGINT : Int32(b)
            // Forward the signal, then make sure: the worker never outlives the supervisor.
            worker.kill(sig)
            worker.wait(timeout: 1)
            return fail(.interrupted(signal: sig))
        case .closed, .system:
            return fail(died())
        case .malformed(let what):
            worker.terminate()
            return fail(.protocolError("malformed message: \(what)"))
        case .oversized(let n):
            worker.terminate()
            return fail(.protocolError("oversized message (\(n) bytes)"))
        case .versionMismatch(let v):
            worker.terminate()
            return fail(.protocolError("protocol version \(v), expected \(Frame.protocolVersion)"))
        }
    }

    func fail(_ end: End) -> End {
        if ended == nil { ended = end }
        return ended!
    }

    /// The worker closed the socket: reap it (bounded) and read its violation report.
    func died() -> End {
        let termination = worker.wait(timeout: 2)
        var violation: String? = nil
        if let (nr, arch) = worker.violationReport() {
            let x32 = nr & 0x4000_0000 != 0
            let name = Lockdown.name(of: nr & 0x3FFF_FFFF, arch: arch) ?? "#\(nr)"
            let abi = x32 ? "x32" : Lockdown.archName(arch)
            violation = abi == Lockdown.archName(Lockdown.nativeArch) ? name : "\(name) (\(abi) ABI)"
        }
        return .died(termination, violation: violation)
    }

    // MARK: - Reporting

    /// jsrun's exit statuses for ends other than the script's own.
    enum Status {
        static let forbiddenSystemCall: Int32 = 159 // 128 + SIGSYS
        static let timedOut: Int32 = 124            // as timeout(1)
        static let protocolError: Int32 = 72
        static let couldNotStart: Int32 = 71
    }

    /// A one-line report for stderr (nil: nothing to say) and jsrun's exit status.
    static func report(_ end: End, addressSpaceLimit: UInt64 = 0) -> (message: String?, status: Int32) {
        switch end {
        case .died(.exited(let code), _):
            return (nil, code)
        case .died(.signaled(SIGSYS), let violation):
            return ("jsrun: worker killed: forbidden system call \(violation ?? "(unknown: killed by the kernel)")",
                    Status.forbiddenSystemCall)
        case .died(.signaled(let sig), _) where sig == SIGINT || sig == SIGTERM || sig == SIGHUP || sig == SIGPIPE:
            return (nil, 128 + sig)
        case .died(.signaled(let sig), _):
            var hint = ""
            if addressSpaceLimit > 0 && (sig == SIGSEGV || sig == SIGILL || sig == SIGTRAP || sig == SIGABRT) {
                hint = " (the address-space limit of \(addressSpaceLimit >> 20) MiB may have been reached)"
            }
            return ("jsrun: worker crashed: \(signalName(sig))\(hint)", 128 + sig)
        case .timedOut(let seconds):
            return ("jsrun: worker timed out after \(seconds) s", Status.timedOut)
        case .interrupted(let sig):
            return (nil, 128 + sig)
        case .protocolError(let what):
            return ("jsrun: worker protocol error: \(what)", Status.protocolError)
        case .couldNotStart(let what):
            return ("jsrun: cannot start the worker: \(what)", Status.couldNotStart)
        }
    }
}
