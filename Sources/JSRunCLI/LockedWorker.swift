#if canImport(Glibc)
import Glibc
#endif
import EngineIPC
import Lockdown
@_exported import enum JSRuntime.JITMode

/// Evaluates scripts in a seccomp-locked worker process; results come back as strings.
///
///     let worker = try LockedWorker(options: .init(executable: "/path/to/jsrun"))
///     let r = try worker.evaluate("1 + 2")      // r.value == "3"
///     worker.close()
///
/// The worker is the `jsrun` binary (or any program whose `main` first calls
/// `WorkerMain.runIfRequested(CommandLine.arguments)`) started in worker mode. It
/// keeps one realm: globals persist between evaluations. If the worker dies (a
/// forbidden system call, a crash, a timeout), the call throws how it ended and every
/// later call throws the same.
///
/// Calls out of order throw `Failure.invalidUse` and leave the worker as it was:
/// `submit` while a result is pending, `awaitResult` with nothing submitted, any call
/// after `close()` (closing again is allowed and does nothing), options out of range,
/// a source over the message limit.
///
/// **Threads.** A `LockedWorker` is used from one thread at a time (it is not
/// `Sendable`; handing it to another thread between calls is fine). Its `Result` and
/// `Failure` are `Sendable`. Separate workers are independent and may be used from
/// different threads at once.
public final class LockedWorker {
    public struct Options: Sendable {
        /// The executable to start in worker mode (default: this program).
        public var executable = "/proc/self/exe"
        /// Seconds start-up and each evaluation may take (nil: no limit; otherwise a
        /// finite number greater than 0).
        public var timeout: Double?
        /// The JS heap limit per evaluation in bytes (0: none).
        public var maxHeapBytes: UInt64 = 0
        /// RLIMIT_AS of the worker in bytes (0: none).
        public var addressSpaceLimit: UInt64 = 0
        /// Report forbidden calls (TRAP + report) or let the kernel kill silently.
        public var violationMode: ViolationMode = .reportAndKill
        /// The baseline JIT in the worker: on (hot code), off, or eager (every function).
        public var jitMode: JITMode = .on
        /// Libraries the worker loads with dlopen before lockdown for `Sable.dlopen` (the
        /// executable must then be `jsrun-ffi-worker`; empty: no FFI).
        public var ffiLibraries: [String] = []

        public init(executable: String = "/proc/self/exe") { self.executable = executable }
    }

    /// One evaluation: the completion value or the exception, and console output.
    public struct Result: Equatable, Sendable {
        public var value: String?
        public var exception: String?
        public var output: String
    }

    /// How a worker ended.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case couldNotStart(String)
        case forbiddenSystemCall(String)
        case crashed(signal: Int32)
        case exited(Int32)
        case timedOut
        case interrupted(signal: Int32)
        case protocolError(String)
        /// A call out of order, or an argument out of range; the worker is unchanged.
        case invalidUse(String)

        init(_ end: Supervisor.End) {
            switch end {
            case .died(.signaled(let s), let v) where s == SIGSYS: self = .forbiddenSystemCall(v ?? "(unknown)")
            case .died(.signaled(let s), _): self = .crashed(signal: s)
            case .died(.exited(let c), _): self = .exited(c)
            case .timedOut: self = .timedOut
            case .interrupted(let s): self = .interrupted(signal: s)
            case .protocolError(let w): self = .protocolError(w)
            case .couldNotStart(let w): self = .couldNotStart(w)
            }
        }

        public var description: String {
            switch self {
            case .couldNotStart(let w): return "cannot start the worker: \(w)"
            case .forbiddenSystemCall(let n): return "worker killed: forbidden system call \(n)"
            case .crashed(let s): return "worker crashed: \(signalName(s))"
            case .exited(let c): return "worker exited with status \(c)"
            case .timedOut: return "worker timed out"
            case .interrupted(let s): return "worker interrupted by \(signalName(s))"
            case .protocolError(let w): return "worker protocol error: \(w)"
            case .invalidUse(let w): return "invalid use of LockedWorker: \(w)"
            }
        }
    }

    let supervisor: Supervisor
    let options: Options
    var nextID: UInt32 = 1
    var pending: UInt32?
    var closed = false

    /// The largest source `evaluate`/`submit` accept: what fits in one message to the worker.
    public static let maxSourceBytes = Frame.defaultMaxPayload - (64 << 10)

    /// Starts a worker and waits until it is locked down.
    public init(options: Options = Options()) throws(Failure) {
        if let t = options.timeout, !(t > 0 && t.isFinite) {
            throw .invalidUse("timeout \(t): expected a finite number of seconds greater than 0, or nil")
        }
        self.options = options
        var s = Supervisor.Settings()
        s.executable = options.executable
        s.timeout = options.timeout
        s.addressSpaceLimit = options.addressSpaceLimit
        s.mode = options.violationMode
        if !options.ffiLibraries.isEmpty { s.extraArguments = ["--ffi=" + options.ffiLibraries.joined(separator: ",")] }
        do {
            supervisor = try Supervisor(s)
            try supervisor.awaitLockedDown()
        } catch {
            throw Failure(error)
        }
    }

    deinit { close() }

    /// The worker's process id (for inspection through /proc).
    public var pid: Int32 { supervisor.pid }

    /// Evaluates `source` as a script and waits for the result.
    public func evaluate(_ source: String, name: String = "[eval]") throws(Failure) -> Result {
        try submit(source, name: name)
        return try awaitResult()
    }

    /// Sends `source` without waiting (then call `awaitResult`).
    public func submit(_ source: String, name: String = "[eval]") throws(Failure) {
        if closed { throw .invalidUse("submit after close()") }
        if pending != nil { throw .invalidUse("submit while an evaluation is pending (call awaitResult first)") }
        if source.utf8.count + name.utf8.count > Self.maxSourceBytes {
            throw .invalidUse("source of \(source.utf8.count) bytes: more than the limit of \(Self.maxSourceBytes)")
        }
        var request = EvaluateRequest(id: nextID, name: name, source: source)
        request.captureOutput = true
        request.maxHeapBytes = options.maxHeapBytes
        request.jitMode = WorkerJIT.wire(options.jitMode)
        nextID += 1
        supervisor.restartClock()
        do { try supervisor.send(.evaluate(request)) } catch { throw Failure(error) }
        pending = request.id
    }

    /// Waits for the result of the submitted evaluation.
    public func awaitResult() throws(Failure) -> Result {
        if closed { throw .invalidUse("awaitResult after close()") }
        guard let id = pending else { throw .invalidUse("awaitResult with nothing submitted") }
        pending = nil
        let r: EvaluateResult
        do { r = try supervisor.awaitResult(host: nil) } catch { throw Failure(error) }
        guard r.id == id else {
            let end = supervisor.fail(.protocolError("unexpected reply"))
            supervisor.worker.terminate()
            throw Failure(end)
        }
        return Result(value: r.value, exception: r.exception, output: r.output)
    }

    /// Shuts the worker down and reaps it (idempotent: closing again does nothing).
    /// A pending evaluation is abandoned.
    public func close() {
        if closed { return }
        closed = true
        // A worker still running a script would not read `shutdown`: end it now.
        if pending != nil { supervisor.worker.terminate() }
        pending = nil
        _ = supervisor.finish()
    }
}
