#if canImport(Glibc)
import Glibc
#endif
import JSSyntax
import JSRuntime
import EngineIPC

/// The interactive loop (`jsrun` with no file and a terminal on stdin).
///
/// `ReplSession` is the line logic (commands, multi-line input); it hands each complete
/// input to an evaluator that prints the value or `Uncaught ...` itself (`Execute.run`
/// with `printResult`, in the locked worker or in this process).
public final class ReplSession {
    public enum Action: Equatable {
        /// Show this prompt and read the next line.
        case prompt(String)
        /// Leave the REPL with this status.
        case exit(Int32)
    }

    public static let prompt = "> "
    public static let continuation = "... "

    let evaluate: (_ source: String, _ name: String) -> Int32?
    let write: (String) -> Void
    let helpText: String
    var buffer = ""
    var count = 0

    /// `evaluate` runs one complete input (printing its value or exception) and returns
    /// nil to go on, or a status to leave with (the worker died).
    public init(helpText: String = "", write: @escaping (String) -> Void,
                evaluate: @escaping (_ source: String, _ name: String) -> Int32?) {
        self.helpText = helpText
        self.write = write
        self.evaluate = evaluate
    }

    /// True while a multi-line input is being collected.
    public var isContinuing: Bool { !buffer.isEmpty }

    /// Feeds one line (without its newline); returns what to do next.
    public func feed(_ line: String) -> Action {
        if buffer.isEmpty {
            switch line.trimmingSpaces {
            case ".exit": return .exit(0)
            case ".help": write(helpText); return .prompt(Self.prompt)
            case "": return .prompt(Self.prompt)
            default: break
            }
        } else if line.trimmingSpaces == ".break" {
            buffer = ""
            return .prompt(Self.prompt)
        }
        buffer += buffer.isEmpty ? line : "\n" + line
        if Self.isIncomplete(buffer) { return .prompt(Self.continuation) }
        let source = buffer
        buffer = ""
        count += 1
        if let status = evaluate(source, "REPL\(count)") { return .exit(status) }
        return .prompt(Self.prompt)
    }

    /// End of input (Ctrl-D).
    public func endOfInput() -> Int32 {
        write("\n")
        return 0
    }

    /// Whether the parser stops at the end of `source` wanting more (an open block,
    /// call, template literal or comment): then the REPL reads another line.
    public static func isIncomplete(_ source: String) -> Bool {
        do {
            _ = try parseScript(SourceFile(name: "[repl]", text: source))
            return false
        } catch {
            switch error.message {
            case "Unexpected end of input", "Unterminated template literal", "Unterminated comment":
                return true
            default:
                return false
            }
        }
    }

    /// Runs the loop over a line source until `.exit`, end of input, or a dead worker.
    func run(readLine: () -> String?) -> Int32 {
        write(Self.prompt)
        while true {
            guard let line = readLine() else { return endOfInput() }
            switch feed(line) {
            case .prompt(let p): write(p)
            case .exit(let status): return status
            }
        }
    }
}

extension String {
    fileprivate var trimmingSpaces: Substring {
        var s = self[...]
        while let c = s.first, c == " " || c == "\t" || c == "\r" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\r" { s.removeLast() }
        return s
    }
}

/// Reads stdin a line at a time (no line editing).
struct LineReader {
    var pending: [UInt8] = []
    var atEnd = false

    mutating func readLine() -> String? {
        while true {
            if let nl = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<nl], as: UTF8.self)
                pending.removeSubrange(...nl)
                return line
            }
            if atEnd {
                if pending.isEmpty { return nil }
                defer { pending.removeAll() }
                return String(decoding: pending, as: UTF8.self)
            }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { atEnd = true; continue }
            pending.append(contentsOf: buffer[0..<n])
        }
    }
}

extension JSRun {
    static func replHelp(lockdown: Bool) -> String {
        """
        jsrun \(version) REPL. Each input runs \(lockdown ? "in a seccomp-locked worker process" : "in this process (--no-lockdown)");
        globals persist between inputs. An input the parser finds unfinished continues on the next line (... prompt).
          .break    discard an unfinished multi-line input
          .exit     leave (as does Ctrl-D)
          .help     print this help

        """
    }

    /// The REPL, in a locked worker (default) or in this process.
    static func runRepl(options: Execute.Options, settings: LockdownSettings) -> Int32 {
        var reader = LineReader()
        let help = replHelp(lockdown: settings.enabled)
        FileIO.out("Welcome to jsrun \(version) (\(settings.enabled ? "locked-down worker" : "in-process")). Type \".help\" for more information.\n")
        if !settings.enabled {
            guard let rt = Execute.makeRuntime() else { return 70 }
            defineScriptArgs([], in: rt)
            let session = ReplSession(helpText: help, write: { FileIO.out($0) }) { source, name in
                _ = Execute.run(SourceFile(name: name, text: source), in: rt, options: options, printResult: true,
                                interactive: true)
                return nil
            }
            return session.run { reader.readLine() }
        }
        var s = Supervisor.Settings.forked
        s.timeout = settings.timeout
        s.addressSpaceLimit = Supervisor.addressSpaceLimit(forHeap: UInt64(clamping: options.maxHeapBytes))
        settings.apply(to: &s)
        let supervisor: Supervisor
        do {
            supervisor = try Supervisor(s)
            try supervisor.awaitLockedDown()
        } catch {
            return finish(error, s)
        }
        var nextID: UInt32 = 1
        func send(_ source: String, _ name: String, printResult: Bool, scriptArgs: [String]? = nil) -> Int32? {
            if source.utf8.count > FileIO.maxScriptBytes {
                FileIO.err("jsrun: \(FileIO.tooLarge("input").message)\n")
                return nil
            }
            var request = EvaluateRequest(id: nextID, name: name, source: source)
            nextID += 1
            request.printResult = printResult
            request.interactive = true
            request.dumpBytecode = options.dumpBytecode
            request.gcStress = options.gcStress
            request.maxHeapBytes = UInt64(clamping: options.maxHeapBytes)
            request.jitMode = WorkerJIT.wire(options.jitMode)
            request.jitStats = options.jitStats
            request.printCode = options.printCode
            request.scriptArgs = scriptArgs
            supervisor.restartClock()
            do {
                _ = try supervisor.request(.evaluate(request))
                return nil
            } catch {
                return finish(error, s)
            }
        }
        if let status = send("", "[scriptArgs]", printResult: false, scriptArgs: []) { return status }
        let session = ReplSession(helpText: help, write: { FileIO.out($0) }) { source, name in
            send(source, name, printResult: true)
        }
        let status = session.run { reader.readLine() }
        _ = supervisor.finish()
        return status
    }

    /// Reads all of stdin (a script piped in), at most `FileIO.maxScriptBytes`.
    static func readStdin() throws(FileIO.Failure) -> [UInt8] {
        try FileIO.readAll(0, name: "stdin")
    }

    // MARK: - scriptArgs

    /// Defines `scriptArgs` in an in-process runtime.
    static func defineScriptArgs(_ args: [String], in rt: Runtime) {
        try? rt.defineScriptArgs(args)
    }
}
