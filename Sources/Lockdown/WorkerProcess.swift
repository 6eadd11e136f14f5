#if canImport(Glibc)
import Glibc
#endif
import CLockdown

/// A worker process started by a supervisor: the same (or another) executable in
/// worker mode, with the message socket on descriptor 3 and the write end of the
/// violation-report pipe on descriptor 4 (`WorkerDescriptors`).
///
/// Started with `posix_spawn` of an absolute path (no shell, no PATH lookup), or by
/// `fork` without exec (the same image; jsrun's own, single-threaded case); stdin
/// is /dev/null, stdout and stderr are inherited. The worker is killed when it is
/// dropped without `wait`, so it never outlives its supervisor object.
public final class WorkerProcess {
    public struct Failure: Error, CustomStringConvertible { public var description: String }

    /// How a worker ended.
    public enum Termination: Equatable, Sendable {
        case exited(Int32)
        case signaled(Int32)
    }

    public let pid: pid_t
    /// The supervisor's end of the message socket.
    public let socketFD: Int32
    /// The read end of the violation-report pipe.
    let reportFD: Int32
    public private(set) var termination: Termination?

    /// The arguments a worker is started with: `[argv0, "--lockdown-worker", supervisor pid]`.
    public static let workerFlag = "--lockdown-worker"

    /// The message socket pair and the violation-report pipe: the supervisor's ends, and
    /// the worker's ends moved above 10 so that moving them to 3 and 4 cannot collide.
    struct Channels {
        var socket: Int32, report: Int32, childSocket: Int32, childReport: Int32
    }

    static func makeChannels() throws(Failure) -> Channels {
        var sv: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &sv) == 0 else {
            throw Failure(description: "socketpair: \(String(cString: strerror(errno)))")
        }
        var pipeFDs: [Int32] = [-1, -1]
        guard sable_pipe_cloexec_nonblock(&pipeFDs) == 0 else {
            close(sv[0]); close(sv[1])
            throw Failure(description: "pipe2: \(String(cString: strerror(errno)))")
        }
        let childSocket = fcntl(sv[1], F_DUPFD_CLOEXEC, 10)
        let childReport = fcntl(pipeFDs[1], F_DUPFD_CLOEXEC, 10)
        close(sv[1]); close(pipeFDs[1])
        return Channels(socket: sv[0], report: pipeFDs[0], childSocket: childSocket, childReport: childReport)
    }

    /// Whether this process has a single thread (the condition for `fork(worker:)`).
    public static var isSingleThreaded: Bool { sable_thread_count() == 1 }

    /// Starts a worker by fork() without exec: the child continues in this (already
    /// loaded) image and runs `worker`, then exits with its status. Only for a
    /// single-threaded process (`isSingleThreaded`): the child of a multi-threaded one
    /// could find locks held by threads that do not exist in it.
    ///
    /// The child gets what a spawned worker gets: the socket on 3, the report pipe on
    /// 4, /dev/null as stdin, stdout and stderr inherited, no other descriptor, every
    /// signal handler back to the default (the Swift crash backtracer's as well) and
    /// an empty signal mask.
    public static func fork(worker: () -> Int32) throws(Failure) -> WorkerProcess {
        let c = try makeChannels()
        // Output buffered in stdio now would be written twice.
        fflush(nil)
        sable_worker_cpus_save()
        let pid = Glibc.fork()
        if pid == 0 {
            let rc = sable_forked_worker_setup(c.childSocket, c.childReport)
            if rc != 0 { _exit(71) }
            exit(worker())
        }
        // Off this CPU, where the supervisor now compiles the policy (see CLockdown.h).
        if pid > 0 { _ = sable_worker_place(pid) }
        close(c.childSocket); close(c.childReport)
        if pid < 0 {
            let e = errno
            close(c.socket); close(c.report)
            throw Failure(description: "fork: \(String(cString: strerror(e)))")
        }
        return WorkerProcess(pid: pid, socketFD: c.socket, reportFD: c.report)
    }

    /// Starts `executable` (default: this process's own binary) in worker mode.
    public static func spawn(executable: String = "/proc/self/exe", extraArguments: [String] = []) throws(Failure) -> WorkerProcess {
        let c = try makeChannels()
        let childSocket = c.childSocket, childReport = c.childReport
        defer { close(childSocket); close(childReport) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, childSocket, WorkerDescriptors.socket)
        posix_spawn_file_actions_adddup2(&actions, childReport, WorkerDescriptors.report)

        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attr, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGSYS] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigdefault(&attr, &defaults)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let args = [CommandLine.arguments.first ?? "jsrun", workerFlag, String(getpid())] + extraArguments
        let argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        // The Swift runtime's crash backtracer would spawn a helper process after a
        // crash: under lockdown that is a forbidden call masking the real signal.
        var env: [UnsafeMutablePointer<CChar>?] = []
        var p = environ
        while let e = p.pointee {
            if !String(cString: e).hasPrefix("SWIFT_BACKTRACE=") { env.append(strdup(e)) }
            p += 1
        }
        env.append(strdup("SWIFT_BACKTRACE=enable=no"))
        env.append(nil)
        defer { for p in env { free(p) } }

        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, &actions, &attr, argv, env)
        if rc != 0 {
            close(c.socket); close(c.report)
            throw Failure(description: "posix_spawn \(executable): \(String(cString: strerror(rc)))")
        }
        return WorkerProcess(pid: pid, socketFD: c.socket, reportFD: c.report)
    }

    init(pid: pid_t, socketFD: Int32, reportFD: Int32) {
        self.pid = pid
        self.socketFD = socketFD
        self.reportFD = reportFD
    }

    deinit {
        if termination == nil { kill(SIGKILL); _ = wait() }
        close(socketFD)
        close(reportFD)
    }

    /// Sends `signal` to the worker (if it has not been reaped).
    public func kill(_ signal: Int32) {
        if termination == nil { _ = Glibc.kill(pid, signal) }
    }

    /// Reaps the worker without waiting; nil while it runs.
    public func poll() -> Termination? {
        if let termination { return termination }
        var status: Int32 = 0
        let rc = waitpid(pid, &status, WNOHANG)
        if rc == pid { termination = Self.decode(status) }
        else if rc < 0 && errno == ECHILD { termination = .exited(-1) }
        return termination
    }

    /// Waits until the worker ends, at most `timeout` seconds (nil: forever); then
    /// kills it with SIGKILL and reaps it. Never leaves a zombie.
    @discardableResult
    public func wait(timeout: Double? = nil) -> Termination {
        if let termination { return termination }
        if let timeout {
            let end = monotonicNanoseconds() + UInt64(max(timeout, 0) * 1e9)
            // Woken when the worker ends (pidfd); without pidfd_open (Linux < 5.3), polled.
            let ms = Int32(min(max(timeout, 0) * 1000, 1e9).rounded(.up))
            if sable_wait_child_exit(pid, ms) < 0 || poll() == nil {
                while poll() == nil && monotonicNanoseconds() < end { usleep(1000) }
            }
            if let termination { return termination }
            _ = Glibc.kill(pid, SIGKILL)
        }
        var status: Int32 = 0
        while true {
            let rc = waitpid(pid, &status, 0)
            if rc == pid { termination = Self.decode(status); break }
            if rc < 0 && errno != EINTR { termination = .exited(-1); break }
        }
        return termination!
    }

    /// Kills the worker (SIGKILL) and reaps it.
    @discardableResult
    public func terminate() -> Termination {
        kill(SIGKILL)
        return wait()
    }

    /// The forbidden call the worker's SIGSYS handler reported: number and AUDIT_ARCH.
    /// Read after the worker ended (the pipe then has no writer and never blocks).
    public func violationReport() -> (number: Int32, arch: UInt32)? {
        var report: [Int32] = [0, 0]
        let n = report.withUnsafeMutableBytes { read(reportFD, $0.baseAddress, 8) }
        guard n == 8 else { return nil }
        return (report[0], UInt32(bitPattern: report[1]))
    }

    static func decode(_ status: Int32) -> Termination {
        let sig = status & 0x7F
        if sig == 0 { return .exited((status >> 8) & 0xFF) }
        return .signaled(sig)
    }
}

func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Signal names for reports.
public func signalName(_ s: Int32) -> String {
    let names: [Int32: String] = [SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL",
                                  SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE",
                                  SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV", SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM",
                                  SIGTERM: "SIGTERM", SIGSYS: "SIGSYS", SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ"]
    return names[s] ?? "signal \(s)"
}
