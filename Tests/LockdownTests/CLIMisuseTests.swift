// Misuse of jsrun and of LockedWorker: bad option values, closed standard descriptors,
// endless and oversized inputs, hostile values to print, calls out of order. Every case
// ends in a clear error (or the right output), never a signal.
import Testing
#if canImport(Glibc)
import Glibc
#endif
import EngineIPC
import JSRunCLI

/// What a jsrun run left behind.
struct Run {
    var status: Int32
    /// Killed by a signal (status is then 128 + the signal).
    var signaled: Bool
    var stdout: String
    var stderr: String
}

/// Runs jsrun with `args`; descriptors in `closed` are closed in the child (the others
/// of 1 and 2 are pipes read here); `stdin` is a path opened as descriptor 0 (else
/// /dev/null, unless 0 is closed).
func runJSRun(_ args: [String], closed: Set<Int32> = [], stdin: String = "/dev/null") -> Run {
    var out: [Int32] = [-1, -1], err: [Int32] = [-1, -1]
    pipe(&out)
    pipe(&err)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if closed.contains(0) { posix_spawn_file_actions_addclose(&actions, 0) } else {
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
    }
    if closed.contains(1) { posix_spawn_file_actions_addclose(&actions, 1) } else { posix_spawn_file_actions_adddup2(&actions, out[1], 1) }
    if closed.contains(2) { posix_spawn_file_actions_addclose(&actions, 2) } else { posix_spawn_file_actions_adddup2(&actions, err[1], 2) }
    for fd in [out[0], out[1], err[0], err[1]] { posix_spawn_file_actions_addclose(&actions, fd) }
    let argv: [UnsafeMutablePointer<CChar>?] = ([jsrunPath] + args).map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, jsrunPath, &actions, nil, argv, environ)
    close(out[1]); close(err[1])
    guard rc == 0 else { close(out[0]); close(err[0]); return Run(status: -1, signaled: false, stdout: "", stderr: "spawn failed") }
    // Both pipes at once (either may fill while the other is read).
    var bytes: [[UInt8]] = [[], []]
    var open = [true, true]
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while open[0] || open[1] {
        var fds = [pollfd(fd: open[0] ? out[0] : -1, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: open[1] ? err[0] : -1, events: Int16(POLLIN), revents: 0)]
        if poll(&fds, 2, 60_000) <= 0 { break }
        for i in 0..<2 where fds[i].revents != 0 {
            let n = read(fds[i].fd, &buffer, buffer.count)
            if n <= 0 { open[i] = false } else { bytes[i] += buffer[0..<n] }
        }
    }
    close(out[0]); close(err[0])
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    let signaled = (status & 0x7F) != 0
    return Run(status: signaled ? 128 + (status & 0x7F) : (status >> 8) & 0xFF, signaled: signaled,
               stdout: String(decoding: bytes[0], as: UTF8.self), stderr: String(decoding: bytes[1], as: UTF8.self))
}

@Suite struct CLIMisuseTests {
    // MARK: - Option values

    static let badOptions: [(args: [String], says: String)] = [
        (["--max-heap=99999999999G"], "too large"),
        (["--max-heap=99999999999999999999"], "too large"),
        (["--max-heap=9223372036854775807"], "too large"),
        (["--max-heap=-1"], "positive"),
        (["--max-heap=-64M"], "positive"),
        (["--max-heap=0"], "positive"),
        (["--max-heap=inf"], "not a size"),
        (["--max-heap=nan"], "not a size"),
        (["--max-heap=1.5G"], "not a size"),
        (["--max-heap=64X"], "not a size"),
        (["--max-heap="], "empty"),
        (["--max-heap"], "needs a value"),
        (["--timeout=inf"], "not a number"),
        (["--timeout=-inf"], "not a number"),
        (["--timeout=nan"], "not a number"),
        (["--timeout=1e999"], "not a number"),
        (["--timeout=0x10"], "not a number"),
        (["--timeout=abc"], "not a number"),
        (["--timeout="], "not a number"),
        (["--timeout=-1"], "at least"),
        (["--timeout=0"], "at least"),
        (["--timeout=1e-300"], "at least"),
        (["--timeout=1e300"], "too long"),
        (["--timeout=99999999999"], "too long"),
        (["--timeout"], "needs a value"),
        (["--no-such-option"], "unknown option"),
        (["-e"], "needs an argument"),
        (["-p"], "needs an argument"),
        (["--check"], "needs at least one file"),
    ]

    @Test(arguments: badOptions)
    func badOptionValue(_ c: (args: [String], says: String)) {
        // A script to run after the options, unless the last option is missing its own.
        let r = runJSRun(["-e", "-p", "--check"].contains(c.args.last ?? "") ? c.args : c.args + ["-e", "1"])
        #expect(r.status == 2, "\(c.args): \(r.stderr)")
        #expect(!r.signaled)
        #expect(r.stderr.hasPrefix("jsrun: "), "\(c.args): \(r.stderr)")
        #expect(r.stderr.contains(c.says), "\(c.args): \(r.stderr)")
    }

    @Test func goodOptionValues() {
        for args in [["--max-heap=64M"], ["--max-heap=1"], ["--max-heap=1024G"], ["--timeout=30"], ["--timeout=0.5e2"]] {
            let r = runJSRun(args + ["-e", "console.log(6 * 7)"])
            #expect(r.status == 0 && r.stdout == "42\n", "\(args): \(r.stderr)")
        }
    }

    /// scriptArgs: a frozen array of the arguments, defined natively (the locked worker gets
    /// them in the evaluate request), non-enumerable and writable.
    @Test func scriptArgsAreDefined() {
        let script = "const d = Object.getOwnPropertyDescriptor(globalThis, 'scriptArgs');"
            + "console.log(JSON.stringify(scriptArgs), Object.isFrozen(scriptArgs), d.enumerable, d.writable, d.configurable)"
        for extra in [[String](), ["--no-lockdown"]] {
            let r = runJSRun(extra + ["-e", script, "a", "b \"c\"", ""])
            #expect(r.status == 0 && r.stdout == "[\"a\",\"b \\\"c\\\"\",\"\"] true false true true\n", "\(extra): \(r.stdout) \(r.stderr)")
        }
    }

    /// --stats (and --gc-stats): heap, collector and regexp figures, and the peak RSS of both
    /// processes, on stderr after the script's output.
    @Test func statsAreReported() {
        let script = "let n = 0; for (let i = 0; i < 2000; i++) { if (/b+/.test('abbc' + i)) n++; } console.log(n)"
        for option in ["--stats", "--gc-stats"] {
            let r = runJSRun([option, "-e", script])
            #expect(r.status == 0 && r.stdout == "2000\n", "\(option): \(r.stderr)")
            #expect(r.stderr.contains("heap peak") && r.stderr.contains("collections"), "\(option): \(r.stderr)")
            #expect(r.stderr.contains("regexp matcher") && r.stderr.contains("(2000 matches run)"), "\(option): \(r.stderr)")
            #expect(r.stderr.contains("peak RSS") && r.stderr.contains("KiB worker"), "\(option): \(r.stderr)")
        }
    }

    // MARK: - Closed standard descriptors

    static let closedSets: [Set<Int32>] = [[0], [1], [2], [0, 1], [1, 2], [0, 2], [0, 1, 2]]

    @Test(arguments: closedSets)
    func closedStandardDescriptors(_ closed: Set<Int32>) {
        let script = "console.log('out'); console.error('err'); console.log(scriptArgs.length)"
        for extra in [[String](), ["--no-lockdown"]] {
            let r = runJSRun(extra + ["-e", script], closed: closed)
            #expect(r.status == 0 && !r.signaled, "closed \(closed) \(extra): \(r.status) \(r.stderr)")
            if !closed.contains(1) { #expect(r.stdout == "out\n0\n", "closed \(closed) \(extra)") }
            if !closed.contains(2) { #expect(r.stderr == "err\n", "closed \(closed) \(extra)") }
        }
        // An uncaught exception still exits 1 (its report goes to a closed stderr).
        let thrown = runJSRun(["-e", "throw new Error('x')"], closed: closed)
        #expect(thrown.status == 1, "closed \(closed): \(thrown.stderr)")
        // The script from a closed stdin: an empty script.
        if closed.contains(0) {
            #expect(runJSRun(["-"], closed: closed).status == 0)
        }
    }

    // MARK: - Endless and oversized input

    @Test func endlessInputIsBounded() {
        let limit = String(Frame.defaultMaxPayload >> 20) + " MiB"
        for args in [["/dev/zero"], ["--no-lockdown", "/dev/zero"], ["--check", "/dev/zero"]] {
            let r = runJSRun(args)
            #expect(r.status == 2 || (args[0] == "--check" && r.status == 1), "\(args): \(r.status)")
            #expect(!r.signaled)
            #expect(r.stderr.contains("larger than") && r.stderr.contains(limit), "\(args): \(r.stderr)")
        }
        for args in [["-"], ["--no-lockdown", "-"], []] {
            let r = runJSRun(args, stdin: "/dev/zero")
            #expect(r.status == 2 && r.stderr.contains(limit), "stdin \(args): \(r.stderr)")
        }
    }

    @Test func oversizedScriptFile() throws {
        // A sparse file of 1 TiB (no disk used): refused from its size.
        let path = "/tmp/sable-oversized-\(getpid()).js"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(fd >= 0)
        defer { unlink(path) }
        #expect(ftruncate(fd, 1 << 40) == 0)
        close(fd)
        let r = runJSRun([path])
        #expect(r.status == 2 && !r.signaled)
        #expect(r.stderr.contains("larger than"), "\(r.stderr)")
    }

    @Test func unreadableInputs() {
        for (args, says) in [(["/nonexistent/x.js"], "No such file"), (["/tmp"], "Is a directory")] {
            let r = runJSRun(args)
            #expect(r.status == 2 && r.stderr.contains(says), "\(args): \(r.stderr)")
        }
    }

    // MARK: - Printing hostile values

    static let printing: [(script: String, output: String)] = [
        ("var m = new Map([[1, 2]]); Object.defineProperty(m, 'size', { get() { return NaN } }); console.log(m)", "Map(1) { 1 => 2 }\n"),
        ("var m = new Map([[1, 2]]); Object.defineProperty(m, 'size', { value: Infinity }); console.log(m)", "Map(1) { 1 => 2 }\n"),
        ("var s = new Set([1]); Object.defineProperty(s, 'size', { value: 2 ** 64 }); console.log(s)", "Set(1) { 1 }\n"),
        ("var s = new Set([1]); Object.defineProperty(s, 'size', { value: -1 }); console.log(s)", "Set(1) { 1 }\n"),
        ("class M extends Map { get size() { return 1e300 } }; console.log(new M([[1, 2]]))", "M(1) [Map] { 1 => 2 }\n"),
        ("Set.prototype[Symbol.iterator] = function () { return { next() { return { done: false, value: 1 } } } }; console.log(new Set([1, 2]))",
         "Set(2) { 1, 2 }\n"),
        ("Map.prototype.entries = Map.prototype[Symbol.iterator] = function* () { for (;;) yield [0, 0] }; console.log(new Map([['a', 1]]))",
         "Map(1) { 'a' => 1 }\n"),
        ("var s = new Set(); s.add(s); console.log(s)", "<ref *1> Set(1) { [Circular *1] }\n"),
        ("console.log(new WeakMap(), new WeakSet())", "WeakMap { <items unknown> } WeakSet { <items unknown> }\n"),
        ("var s = new Set([1]); Object.defineProperty(s, 'size', { get() { throw new Error('boom') } }); console.log(s)", "Set(1) { 1 }\n"),
        ("var a = []; a.length = 2 ** 32 - 1; console.log(a)", "[ <100 empty items>, ... 4294967195 more items ]\n"),
        ("var o = {}; for (var i = 0; i < 100000; i++) o = { o }; console.log(o)", "{ o: { o: { o: [Object] } } }\n"),
        ("var o = { get x() { return { get y() { return {} } } } }; console.log(o)", "{ x: [Getter] }\n"),
        ("var o = {}; Object.defineProperty(o, Symbol.toStringTag, { get() { console.log(o); return 'x' } }); try { console.log(o) } catch (e) { console.log(e.name) }",
         "RangeError\n"),
        ("var f = function () {}; Object.defineProperty(f, 'name', { value: Symbol('s') }); console.log(f)", "[Function (anonymous)]\n"),
        ("console.log('%d %i %f', 2 ** 64, -Infinity, NaN)", "18446744073709552000 -Infinity NaN\n"),
    ]

    @Test(arguments: printing)
    func printingNeverTraps(_ c: (script: String, output: String)) {
        let r = runJSRun(["-e", c.script])
        #expect(!r.signaled, "\(c.script): \(r.stderr)")
        #expect(r.status == 0, "\(c.script): \(r.stderr)")
        #expect(r.stdout == c.output, "\(c.script)")
    }

    @Test func uncaughtValueThatCannotBePrinted() {
        let r = runJSRun(["-e", "var e = new Error('x'); Object.defineProperty(e, 'stack', { get() { throw 2 } }); throw e"])
        #expect(r.status == 1 && !r.signaled)
        #expect(r.stderr.hasPrefix("Uncaught exception: an object that could not be printed"), "\(r.stderr)")
    }

    @Test func bigCollectionsShowTheFirst100() {
        let r = runJSRun(["-e", "var s = new Set(); for (var i = 0; i < 150; i++) s.add(i); console.log(s)"])
        #expect(r.status == 0 && r.stdout.hasPrefix("Set(150) {") && r.stdout.contains("... 50 more items"), "\(r.stdout)")
    }

    @Test func printedValueOfHostileCompletion() {
        let r = runJSRun(["-p", "var m = new Map([[1, {}]]); Object.defineProperty(m, 'size', { value: NaN }); m"])
        #expect(r.status == 0 && r.stdout == "Map(1) { 1 => {} }\n", "\(r.stderr)")
    }
}

@Suite struct LockedWorkerMisuseTests {
    @Test func callsAfterClose() throws {
        let w = try makeWorker()
        #expect(try w.evaluate("1").value == "1")
        w.close()
        w.close()  // a second close does nothing
        #expect(throws: LockedWorker.Failure.self) { try w.evaluate("1") }
        do {
            _ = try w.evaluate("1")
        } catch {
            guard case .invalidUse(let why) = error else { Issue.record("\(error)"); return }
            #expect(why.contains("close"))
        }
        #expect(throws: LockedWorker.Failure.self) { try w.submit("1") }
        #expect(throws: LockedWorker.Failure.self) { try w.awaitResult() }
    }

    @Test func callsOutOfOrder() throws {
        let w = try makeWorker()
        defer { w.close() }
        #expect(throws: LockedWorker.Failure.invalidUse("awaitResult with nothing submitted")) { try w.awaitResult() }
        try w.submit("2 + 2")
        #expect(throws: LockedWorker.Failure.self) { try w.submit("3") }
        #expect(throws: LockedWorker.Failure.self) { try w.evaluate("3") }
        // The submitted evaluation is intact.
        #expect(try w.awaitResult().value == "4")
        #expect(try w.evaluate("5").value == "5")
    }

    @Test func closeWhileBusy() throws {
        let w = try makeWorker()
        try w.submit("for (;;) {}")
        let start = Clock.monotonicNanoseconds()
        w.close()
        #expect(Clock.monotonicNanoseconds() - start < 1_500_000_000)
        #expect(throws: LockedWorker.Failure.self) { try w.awaitResult() }
    }

    @Test func invalidOptionsAndInputs() throws {
        for t in [Double.infinity, -.infinity, .nan, 0, -1] {
            #expect(throws: LockedWorker.Failure.self) { _ = try makeWorker { $0.timeout = t } }
        }
        let w = try makeWorker()
        defer { w.close() }
        let huge = String(decoding: [UInt8](repeating: 32, count: LockedWorker.maxSourceBytes + 1), as: UTF8.self)
        #expect(throws: LockedWorker.Failure.self) { try w.evaluate(huge) }
        // The worker is unchanged.
        #expect(try w.evaluate("6 * 7").value == "42")
    }

    @Test func outputOverTheMessageLimit() throws {
        let w = try makeWorker()
        defer { w.close() }
        // Output beyond the message limit is truncated, not a protocol error.
        let r = try w.evaluate("console.log('small'); console.log('x'.repeat(33 << 20)); 1")
        #expect(r.value == "1")
        #expect(r.output.hasPrefix("small\n") && r.output.contains("[output truncated"))
    }
}

@Suite struct ReplMisuseTests {
    @Test func replPrintsHostileValues() {
        let input = """
            var m = new Map([[1, 2]]); Object.defineProperty(m, 'size', { get() { return NaN } }); m
            var a = []; a.length = 2 ** 32 - 1; a
            var o = {}; Object.defineProperty(o, Symbol.toStringTag, { get() { throw new Error('tag') } }); o
            6 * 7
            .exit

            """
        let (output, status) = runWithTerminal([], input: input)
        #expect(status == 0, "\(output)")
        #expect(output.contains("Map(1) { 1 => 2 }"), "\(output)")
        #expect(output.contains("[ <100 empty items>, ... 4294967195 more items ]"), "\(output)")
        #expect(output.contains("Uncaught Error: tag"), "\(output)")
        #expect(output.contains("42"), "\(output)")
    }
}
