import Testing
#if canImport(Glibc)
import Glibc
#endif
import EngineIPC
import Lockdown
import JSRunCLI

/// The jsrun binary next to the test bundle (`swift test` builds every product).
let jsrunPath: String = {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    var dir = n > 0 ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    while let last = dir.last, last != "/" { dir.removeLast() }
    // The test bundle is <bin>/SablePackageTests.xctest (a file on Linux).
    return dir + "jsrun"
}()

func makeWorker(_ configure: (inout LockedWorker.Options) -> Void = { _ in }) throws -> LockedWorker {
    var options = LockedWorker.Options(executable: jsrunPath)
    options.timeout = 60
    configure(&options)
    return try LockedWorker(options: options)
}

@Suite struct LockedWorkerTests {
    @Test func valuesExceptionsAndOutput() throws {
        let w = try makeWorker()
        defer { w.close() }
        #expect(try w.evaluate("1 + 2").value == "3")
        #expect(try w.evaluate("var g = 'kept'; g.length").value == "4")
        #expect(try w.evaluate("g").value == "'kept'" || (try w.evaluate("g").value) == "kept")
        let r = try w.evaluate("console.log('hello', 42); [1, 2].map(x => x * 2)")
        #expect(r.output == "hello 42\n")
        #expect(r.value?.contains("2") == true && r.value?.contains("4") == true)
        let e = try w.evaluate("throw new TypeError('nope')", name: "t.js")
        #expect(e.value == nil)
        #expect(e.exception?.hasPrefix("TypeError: nope") == true)
    }

    @Test func promiseJobsRunBeforeTheResult() throws {
        let w = try makeWorker()
        defer { w.close() }
        // The array is inspected after the job queue drained: the reaction has run.
        let r = try w.evaluate("var seen = []; Promise.resolve(7).then(v => seen.push(v)); seen")
        #expect(r.value?.contains("7") == true, "\(String(describing: r.value))")
    }

    @Test func runtimeWorksAfterLockdown() throws {
        let w = try makeWorker()
        defer { w.close() }
        // Deep recursion ends in a RangeError, not a crash.
        #expect(try w.evaluate("function f() { return f() + 1 } try { f() } catch (e) { e.name }").value?.contains("RangeError") == true)
        // Big allocations and GC.
        #expect(try w.evaluate("var a = []; for (var i = 0; i < 100000; i++) a.push({ i }); a.length").value == "100000")
        #expect(try w.evaluate("var s = 'x'; for (var i = 0; i < 22; i++) s = s + s; s.length").value == "4194304")
        #expect(try w.evaluate("typeof Math.random()").value?.contains("number") == true)
    }

    @Test func lockedDownWhileAScriptRuns() throws {
        // The script spins until the timeout ends the worker; /proc is read meanwhile.
        let w = try makeWorker { $0.timeout = 3 }
        defer { w.close() }
        try w.submit("var t = 0; for (;;) t = (t + 1) | 0")
        usleep(200_000)
        let info = ProcessInspection.inspect(pid: w.pid)
        #expect(throws: LockedWorker.Failure.timedOut) { try w.awaitResult() }
        let i = try #require(info)
        #expect(i.seccompMode == 2)
        #expect(i.noNewPrivs == 1)
        #expect(i.mappingCount > 0)
        #expect(i.writableExecutableMappings.isEmpty, "\(i.writableExecutableMappings)")
    }

    @Test func timeoutEndsTheWorker() throws {
        let w = try makeWorker { $0.timeout = 0.5 }
        let pid = w.pid
        #expect(throws: LockedWorker.Failure.timedOut) { try w.evaluate("for (;;) {}") }
        // Reaped: no zombie, no process.
        #expect(kill(pid, 0) == -1 && errno == ESRCH)
        #expect(throws: LockedWorker.Failure.timedOut) { try w.evaluate("1") }
    }

    @Test func startFailures() {
        #expect(throws: LockedWorker.Failure.self) { try LockedWorker(options: .init(executable: "/nonexistent/jsrun")) }
        // A program that is not a worker: it exits, the supervisor reports how.
        #expect(throws: LockedWorker.Failure.exited(0)) { try LockedWorker(options: .init(executable: "/bin/true")) }
    }

    @Test func memoryLimit() throws {
        let w = try makeWorker { $0.maxHeapBytes = 32 << 20; $0.addressSpaceLimit = (32 << 20) * 4 + (2 << 30) }
        defer { w.close() }
        let r = try w.evaluate("var a = []; for (;;) a.push({ x: 1, y: 2 })")
        #expect(r.exception != nil)
        // The worker survives an out-of-memory error.
        #expect(try w.evaluate("a = null; 7").value == "7")
    }
}

@Suite struct SupervisorCommandTests {
    /// Runs jsrun with `args`; returns (status, stdout + stderr).
    func jsrun(_ args: [String], executable: String = jsrunPath) -> (Int32, String) {
        let jsrunPath = executable
        var fds: [Int32] = [0, 0]
        pipe(&fds)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 2)
        let argv: [UnsafeMutablePointer<CChar>?] = ([jsrunPath] + args).map { strdup($0) } + [nil]
        var pid: pid_t = 0
        posix_spawn(&pid, jsrunPath, &actions, nil, argv, environ)
        close(fds[1])
        var out: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fds[0], &buf, buf.count)
            if n <= 0 { break }
            out += buf[0..<n]
        }
        close(fds[0])
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        for p in argv { free(p) }
        return ((status >> 8) & 0xFF, String(decoding: out, as: UTF8.self))
    }

    @Test func selfTestPasses() {
        let (status, out) = jsrun(["--lockdown-selftest"])
        #expect(status == 0, "\(out)")
    }

    @Test func sweepPasses() {
        let (status, out) = jsrun(["--lockdown-sweep"])
        #expect(status == 0, "\(out)")
    }

    @Test func sameOutputWithAndWithoutLockdown() {
        let script = "console.log('a', 1 + 1); function f() { return f() } try { f() } catch (e) { console.log(e.name) } throw new Error('x')"
        let locked = jsrun(["-e", script])
        let plain = jsrun(["--no-lockdown", "-e", script])
        #expect(locked.0 == 1)
        #expect(locked == plain)
        #expect(jsrun(["-p", "6 * 7"]) == (0, "42\n"))
    }

    @Test func timeoutStatus() {
        let (status, out) = jsrun(["--timeout=0.3", "-e", "for (;;) {}"])
        #expect(status == 124)
        #expect(out.contains("timed out"))
    }
}

@Suite struct PolicyTests {
    @Test func workerPolicyModel() {
        let p = SystemCallPolicy.worker(pid: 1234)
        let rwx = UInt64(PROT_READ | PROT_WRITE | PROT_EXEC)
        let anon = UInt64(MAP_PRIVATE | MAP_ANONYMOUS)
        #expect(p.decision(for: "mmap", arguments: [0, 4096, UInt64(PROT_READ | PROT_WRITE), anon]) == .allow)
        #expect(p.decision(for: "mmap", arguments: [0, 4096, UInt64(PROT_READ | PROT_EXEC), anon]) == .kill)
        // Without an executable region (no JIT pool), nothing may become executable.
        #expect(p.decision(for: "mprotect", arguments: [0, 4096, UInt64(PROT_READ | PROT_EXEC)]) == .kill)
        #expect(p.decision(for: "mprotect", arguments: [0, 4096, rwx]) == .kill)
        #expect(p.decision(for: "tgkill", arguments: [1234, 1234, 6]) == .allow)
        #expect(p.decision(for: "tgkill", arguments: [1, 1, 9]) == .kill)
        #expect(p.decision(for: "write", arguments: [9]) == .kill)
        #expect(p.decision(for: "openat", arguments: []) == .kill)
        #expect(p.decision(for: "newfstatat", arguments: []) == .fail(errno: EPERM))
        #expect(p.decision(for: "rt_sigaction", arguments: []) == .kill)
        for rule in p.rules { #expect(Lockdown.number(of: rule.name) != nil, "\(rule.name)") }
        #expect(Lockdown.name(of: 257) == "openat")
    }
}
