import Testing
#if canImport(Glibc)
import Glibc
#endif
import JSRunCLI

/// Runs jsrun with a pseudo-terminal on stdin (so it starts its REPL), types `input`,
/// and returns what it wrote to stdout and stderr, and its exit status.
func runWithTerminal(_ arguments: [String], input: String) -> (output: String, status: Int32) {
    // posix_openpt/unlockpt/ptsname are not imported; the Linux ioctls do the same.
    let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
    var unlock: Int32 = 0
    var number: UInt32 = 0
    guard master >= 0,
          ioctl(master, 0x4004_5431 /* TIOCSPTLCK */, &unlock) == 0,
          ioctl(master, 0x8004_5430 /* TIOCGPTN */, &number) == 0 else { return ("no pty", -1) }
    let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
    var pipeFDs: [Int32] = [0, 0]
    guard slave >= 0, pipe(&pipeFDs) == 0 else { return ("no pipe", -1) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_adddup2(&actions, slave, 0)
    posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
    posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 2)
    posix_spawn_file_actions_addclose(&actions, master)
    posix_spawn_file_actions_addclose(&actions, pipeFDs[0])
    let argv = ([jsrunPath] + arguments).map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, jsrunPath, &actions, nil, argv, environ)
    posix_spawn_file_actions_destroy(&actions)
    close(slave)
    close(pipeFDs[1])
    guard rc == 0 else { return ("spawn failed", -1) }
    // Canonical mode: each line is delivered on its newline; ^D at a line start is end of input.
    var bytes = Array(input.utf8)
    _ = write(master, &bytes, bytes.count)
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = read(pipeFDs[0], &buffer, buffer.count)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        output.append(contentsOf: buffer[0..<n])
    }
    close(pipeFDs[0])
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    close(master)
    let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    return (String(decoding: output, as: UTF8.self), exit)
}

@Suite struct ReplTests {
    @Test func sessionLinesAndCommands() {
        var written = ""
        var evaluated: [(String, String)] = []
        let session = ReplSession(helpText: "HELP\n", write: { written += $0 }) { source, name in
            evaluated.append((source, name))
            return nil
        }
        #expect(session.feed("1 + 1") == .prompt("> "))
        #expect(session.feed("function f() {") == .prompt("... "))
        #expect(session.isContinuing)
        #expect(session.feed("  return 1") == .prompt("... "))
        #expect(session.feed("}") == .prompt("> "))
        #expect(session.feed("`a") == .prompt("... "))
        #expect(session.feed(".break") == .prompt("> "))
        #expect(session.feed("") == .prompt("> "))
        #expect(session.feed(".help") == .prompt("> "))
        #expect(written == "HELP\n")
        #expect(evaluated.map(\.0) == ["1 + 1", "function f() {\n  return 1\n}"])
        #expect(evaluated.map(\.1) == ["REPL1", "REPL2"])
        // A syntax error that is not about the end of input is evaluated (and reported).
        #expect(session.feed("1 +* 2") == .prompt("> "))
        #expect(evaluated.count == 3)
        #expect(session.feed(".exit") == .exit(0))
    }

    @Test func incompleteInput() {
        #expect(ReplSession.isIncomplete("if (x) {"))
        #expect(ReplSession.isIncomplete("f(1,"))
        #expect(ReplSession.isIncomplete("/* comment"))
        #expect(!ReplSession.isIncomplete("1 + 1"))
        #expect(!ReplSession.isIncomplete("let = ;"))
    }

    @Test(arguments: [[], ["--no-lockdown"]])
    func replThroughATerminal(_ options: [String]) {
        let input = "1+1\nlet x = 2\nx*3\nfunction f() {\n  return x + 1\n}\nf()\nthrow new TypeError('bad')\n"
            + "Promise.resolve(7).then(function (v) { console.log('job', v) })\nundefined\nx\n"
            // A timer does not hold the prompt; it runs after a later input, once due.
            + "setInterval(function () { console.log('tick') }, 1); undefined\nfor (var i = 0; i < 1e6; i++);\n.exit\n"
        let (output, status) = runWithTerminal(options, input: input)
        #expect(status == 0)
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.contains("> 2"))
        #expect(lines.contains("> undefined"))
        #expect(lines.contains("> 6"))
        #expect(lines.contains("> ... ... undefined"))
        #expect(lines.contains("> 3"))
        #expect(lines.contains("> Uncaught TypeError: bad"))
        #expect(output.contains("at REPL6:1:7"))
        #expect(output.contains("job 7"))
        #expect(lines.contains("> undefined"))
        #expect(lines.contains("> 2"))
        #expect(output.contains("tick"))
    }

    @Test func endOfInputExits() {
        let (output, status) = runWithTerminal([], input: "var q = 'kept'\nq\n\u{04}")
        #expect(status == 0)
        #expect(output.contains("'kept'"))
    }
}
