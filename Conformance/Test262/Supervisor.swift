// The supervisor: a pool of worker processes (this binary in --worker mode, started with
// posix_spawn from /proc/self/exe and talked to over pipes). Each worker runs many tests,
// one at a time; one that crashes or exceeds the per-test timeout is killed and replaced,
// and its test recorded as crash/timeout. A crash, hang or runaway allocation in one test
// never takes the run down.

import Foundation
import Test262Support

/// One test's recorded outcome.
struct TestResult {
    var verdict: Verdict
    var reason: String
    var milliseconds: Int
}

/// A worker process and the test it is running.
final class WorkerProcess {
    let slot: Int
    let logPath: String
    var pid: pid_t = 0
    var requestFD: Int32 = -1
    var responseFD: Int32 = -1
    var buffer: [UInt8] = []
    /// Index of the test in flight, if any, and when it was sent.
    var current: Int? = nil
    var startedAt = 0.0
    /// When to look at the test in flight again, and the worker's CPU time (ms) when it
    /// started (the worker reports its total with each result).
    var checkAt = 0.0
    var cpuAtStart = 0
    var served = 0

    init(slot: Int, logPath: String) {
        self.slot = slot
        self.logPath = logPath
    }
}

final class Supervisor {
    let tests: [String]
    let root: String
    let options: Options
    /// Tests that get a second chance after a crash or timeout (the expected ones: a load
    /// spike on a shared machine must not fail the ratchet).
    let retryable: Set<Int>
    private(set) var results: [TestResult?]
    private var queue: [Int]
    private var retried: Set<Int> = []
    private var finished = 0
    private var workers: [WorkerProcess] = []
    private let executable: String
    private let logDir: String
    private var lastProgress = 0.0
    private let startTime = monotonicSeconds()
    private(set) var spawned = 0

    init(tests: [String], root: String, options: Options, retryable: Set<Int>) {
        self.tests = tests
        self.root = root
        self.options = options
        self.retryable = retryable
        results = Array(repeating: nil, count: tests.count)
        queue = Array((0..<tests.count).reversed())
        executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        logDir = NSTemporaryDirectory() + "sable-test262-\(getpid())"
    }

    /// Runs every test; returns when all have a result.
    func run() {
        signal(SIGPIPE, SIG_IGN)
        mkdir(logDir, 0o755)
        defer { removeLogs() }
        let count = max(1, min(options.jobs, tests.count))
        for slot in 0..<count {
            let w = WorkerProcess(slot: slot, logPath: "\(logDir)/worker-\(slot).log")
            spawn(w)
            workers.append(w)
        }
        lastProgress = monotonicSeconds()
        while finished < tests.count {
            for w in workers where w.current == nil {
                guard let i = queue.popLast() else { break }
                assign(i, to: w)
            }
            let busy = workers.filter { $0.current != nil }
            var fds = busy.map { pollfd(fd: $0.responseFD, events: Int16(POLLIN), revents: 0) }
            let now = monotonicSeconds()
            let nearest = busy.map(\.checkAt).min() ?? now + 1
            let wait = Int32(max(0, min(1000, (nearest - now) * 1000 + 1)))
            let ready = poll(&fds, nfds_t(fds.count), wait)
            if ready < 0 && errno != EINTR { fail("poll: \(String(cString: strerror(errno)))") }
            for (k, w) in busy.enumerated() where fds[k].revents != 0 {
                readResponses(w)
            }
            let after = monotonicSeconds()
            for w in workers where w.current != nil && after >= w.checkAt { checkTimeout(w, now: after) }
            progress(after)
        }
        for w in workers { stop(w) }
    }

    // MARK: - Workers

    private func spawn(_ w: WorkerProcess) {
        var request: [Int32] = [0, 0], response: [Int32] = [0, 0]
        guard pipe(&request) == 0, pipe(&response) == 0 else { fail("pipe: \(String(cString: strerror(errno)))") }
        // Close-on-exec, so workers do not inherit each other's pipes (the supervisor is
        // single-threaded: no spawn can happen between pipe and fcntl).
        for fd in request + response { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, request[0], 0)
        posix_spawn_file_actions_adddup2(&actions, response[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, w.logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let args = [executable, "--worker", root, String(options.maxHeapMB << 20), String(options.maxMemoryMB << 20), options.jit]
        var argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid = pid_t()
        let rc = posix_spawn(&pid, "/proc/self/exe", &actions, nil, &argv, environ)
        close(request[0])
        close(response[1])
        if rc != 0 { fail("cannot start a worker: \(String(cString: strerror(rc)))") }
        w.pid = pid
        w.requestFD = request[1]
        w.responseFD = response[0]
        w.buffer.removeAll()
        w.current = nil
        w.served = 0
        w.cpuAtStart = 0
        spawned += 1
    }

    /// Kills the worker (if alive), reaps it and closes its pipes. Returns its wait status.
    @discardableResult
    private func stop(_ w: WorkerProcess, kill signal: Bool = true) -> Int32 {
        guard w.pid != 0 else { return 0 }
        if signal { kill(w.pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(w.pid, &status, 0) < 0 && errno == EINTR {}
        close(w.requestFD)
        close(w.responseFD)
        w.pid = 0
        w.current = nil
        return status
    }

    /// The timeout counts the worker's CPU time, so a loaded machine (other builds on the
    /// same cores) does not turn slow passing tests into timeouts; a test that is not
    /// getting CPU at all (blocked) gets `hangFactor` times the timeout in wall time.
    static let hangFactor = 6.0

    private func checkTimeout(_ w: WorkerProcess, now: Double) {
        guard let i = w.current else { return }
        let wall = now - w.startedAt
        let cpu = Double(processCPUMilliseconds(w.pid).map { $0 - w.cpuAtStart } ?? Int(wall * 1000)) / 1000
        let reason: String
        if cpu >= options.timeout {
            reason = "no result after \(formatSeconds(options.timeout)) s of CPU time"
        } else if wall >= options.timeout * Supervisor.hangFactor {
            reason = "no result after \(formatSeconds(wall)) s (\(String(format: "%.1f", cpu)) s of CPU time)"
        } else {
            w.checkAt = now + max(0.05, min(options.timeout - cpu, options.timeout * Supervisor.hangFactor - wall))
            return
        }
        stop(w)
        record(i, TestResult(verdict: .timeout, reason: reason, milliseconds: Int(wall * 1000)))
        spawn(w)
    }

    /// User + system CPU time of a process so far, from /proc/PID/stat.
    private func processCPUMilliseconds(_ pid: pid_t) -> Int? {
        // (/proc files report size 0: read until end of file.)
        let fd = open("/proc/\(pid)/stat", O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        let bytes = buffer[0..<n]
        // Fields after the command name (which is in parentheses and may hold spaces):
        // state is field 3, utime field 14, stime field 15.
        guard let close = bytes.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = bytes[(close + 2)...].split(separator: UInt8(ascii: " "))
        guard fields.count > 12, let utime = Int(String(decoding: fields[11], as: UTF8.self)),
              let stime = Int(String(decoding: fields[12], as: UTF8.self)) else { return nil }
        return (utime + stime) * 1000 / Supervisor.clockTicks
    }

    private static let clockTicks = max(1, sysconf(Int32(_SC_CLK_TCK)))

    private func assign(_ i: Int, to w: WorkerProcess) {
        w.current = i
        w.startedAt = monotonicSeconds()
        w.checkAt = w.startedAt + options.timeout
        // A worker that died while idle shows up as end-of-file on its responses.
        writeAll(w.requestFD, tests[i] + "\n")
    }

    private func readResponses(_ w: WorkerProcess) {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { read(w.responseFD, $0.baseAddress, $0.count) }
        if n < 0 {
            if errno == EINTR || errno == EAGAIN { return }
            fail("read from worker: \(String(cString: strerror(errno)))")
        }
        if n == 0 {
            // The worker died with a test in flight.
            let i = w.current
            let status = stop(w, kill: false)
            if let i { record(i, TestResult(verdict: .crash, reason: crashReason(status, log: w.logPath), milliseconds: 0)) }
            spawn(w)
            return
        }
        w.buffer += chunk[0..<n]
        while let nl = w.buffer.firstIndex(of: 0x0A) {
            let line = String(decoding: w.buffer[..<nl], as: UTF8.self)
            w.buffer.removeSubrange(...nl)
            guard let i = w.current else { continue }
            w.current = nil
            w.served += 1
            let fields = line.split(separator: "\t", maxSplits: 3, omittingEmptySubsequences: false)
            let verdict = fields.first.flatMap { Verdict(rawValue: String($0)) } ?? .fail
            let ms = fields.count > 1 ? Int(fields[1]) ?? 0 : 0
            if fields.count > 2, let cpu = Int(fields[2]) { w.cpuAtStart = cpu }
            let reason = fields.count > 3 ? String(fields[3]) : "malformed worker response: \(line)"
            record(i, TestResult(verdict: verdict, reason: reason, milliseconds: ms))
        }
        if w.current == nil && w.served >= options.recycle {
            stop(w)
            spawn(w)
        }
    }

    private func record(_ i: Int, _ r: TestResult) {
        if (r.verdict == .crash || r.verdict == .timeout) && retryable.contains(i) && !retried.contains(i) {
            retried.insert(i)
            queue.append(i)
            return
        }
        results[i] = r
        finished += 1
    }

    /// `signal 11 (SIGSEGV): Fatal error: ...` from the wait status and the worker's log.
    private func crashReason(_ status: Int32, log: String) -> String {
        let sig = status & 0x7F
        var reason = sig != 0 ? "signal \(sig)\(signalName(sig).map { " (\($0))" } ?? "")"
                              : "worker exited with status \((status >> 8) & 0xFF)"
        if let data = FileManager.default.contents(atPath: log) {
            reason += crashDetail(String(decoding: data.suffix(65536), as: UTF8.self))
        }
        return oneLine(reason)
    }

    /// `: <the runtime's message> in <function> at <file>:<line>` from a worker's stderr
    /// (a Swift fatal error and the backtracer's report of the crashed thread).
    private func crashDetail(_ log: String) -> String {
        let lines = log.split(whereSeparator: \.isNewline).map(String.init)
        var message = lines.first { $0.contains("Fatal error") || $0.contains("fatal error") }
        if message == nil, let l = lines.first(where: { $0.hasPrefix("*** ") && !$0.contains("Backtracing") }) {
            message = l.trimmingCharacters(in: CharacterSet(charactersIn: "* "))
        }
        // The first frame of the crashed thread that is in our code.
        var frame: String? = nil
        if let crashed = lines.firstIndex(where: { $0.hasSuffix(" crashed:") }) {
            for l in lines[(crashed + 1)...] {
                if l.hasPrefix("Thread ") { break }
                guard !l.contains("[system]"), !l.contains("<compiler-generated>"), !l.contains("[thunk]"),
                      let address = l.range(of: " 0x"), let atRange = l.range(of: " at /", options: .backwards) else { continue }
                var function = l[address.upperBound..<atRange.lowerBound].drop { $0 != " " }.dropFirst()
                if let plus = function.range(of: " + ", options: .backwards) { function = function[..<plus.lowerBound] }
                let location = l[atRange.upperBound...].split(separator: "/").last.map(String.init) ?? ""
                frame = "\(function) at \(location)"
                break
            }
        }
        if message == nil, frame == nil { message = lines.last(where: { !$0.isEmpty }) }
        return [message, frame].compactMap { $0 }.map { ": " + $0 }.joined()
    }

    private func signalName(_ s: Int32) -> String? {
        switch s {
        case SIGSEGV: "SIGSEGV"
        case SIGBUS: "SIGBUS"
        case SIGILL: "SIGILL"
        case SIGTRAP: "SIGTRAP"
        case SIGABRT: "SIGABRT"
        case SIGFPE: "SIGFPE"
        case SIGKILL: "SIGKILL"
        default: nil
        }
    }

    private func progress(_ now: Double) {
        guard !options.quiet, now - lastProgress >= 15 else { return }
        lastProgress = now
        var pass = 0
        for case let r? in results where r.verdict == .pass { pass += 1 }
        FileHandle.standardError.write(Data(
            "test262: \(finished)/\(tests.count) tests, \(pass) pass, \(Int(now - startTime)) s\n".utf8))
    }

    private func removeLogs() {
        for w in workers { unlink(w.logPath) }
        rmdir(logDir)
    }
}

func formatSeconds(_ s: Double) -> String {
    s == s.rounded() ? String(Int(s)) : String(format: "%.1f", s)
}
