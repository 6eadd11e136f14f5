#if canImport(Glibc)
import Glibc
#endif
import JSSyntax
import JSRuntime
import EngineIPC

/// The `jsrun` command. `main.swift` only calls `JSRun.main`.
public enum JSRun {
    public static let version = "0.1.0"

    static let usage = """
    Usage: jsrun [options] [FILE [args...]]
           jsrun [options]            (no FILE: a REPL on a terminal, else the script from stdin)

    Options:
      -e CODE           run CODE
      -p EXPR           run EXPR and print its value
      --check, -c FILE... parse only: report syntax errors (file:line:column) and exit
      --strict          parse as strict-mode code (with --check)
      --dump-bytecode   print the compiled bytecode before running
      --jit=MODE        the baseline JIT (x86_64, only in the locked worker): on (default: hot
                        functions and loops become machine code), off (interpret), eager
                        (compile every function at its first call), warm (at its second call
                        or loop iteration, with the caches the first run filled)
      --jit-stats       print what the JIT compiled and ran to stderr when the script ends
      --print-code      print each compiled function's bytecode with its machine code (hex
                        bytes; tools/print-code.sh disassembles them) to stderr
      --gc-stress       collect garbage before every allocation (slow; finds GC bugs)
      --stats           print statistics to stderr when the script ends: peak heap, collections,
                        time in the collector and in the regexp matcher, peak RSS of the worker
                        and of jsrun (--gc-stats is the same)
      --max-heap=SIZE   limit the heap (bytes, or with k/M/G: 64M, 1G; at most 1024G); exceeding
                        it is an out-of-memory error (the locked worker also gets RLIMIT_AS =
                        4 x SIZE + 2G)
      --timeout=SECONDS end the worker after SECONDS (0.001 to 31536000; exit status 124; per
                        input in the REPL)
      --module          run FILE as an ES module (the default for .mjs, and for .js under a
                        package.json with "type": "module", as node does)
      --allow-read=DIR  let imports (and import()) read modules under DIR (default: the
                        directory of FILE, or the current directory for -e and stdin)
      --ffi=LIB[,LIB...] let scripts call C: the worker loads each library (a path or a
                        soname such as libm.so.6) with dlopen before it locks down, and
                        Sable.dlopen(LIB, symbols) opens it (Deno's shape; see README)
      --no-lockdown     run in this process, without a locked-down worker (debugging)
      --lockdown-selftest  check the seccomp policy: forbidden operations in fresh workers
      --lockdown-sweep  check that every system call off the allowlist is denied
                        (=fresh: each in a fresh worker, slower)
      --lockdown-policy print the worker's system-call policy
      --version, -v     print the version
      -h, --help        print this help

    FILE may be - (stdin). A script may be up to 64 MiB less 64 KiB (one message to the
    worker). The arguments after FILE (all positional arguments with -e/-p)
    are the global scriptArgs, a frozen array of strings (FILE itself is not included).
    An uncaught exception prints "Uncaught Name: message" and its stack, and exits 1.

    With no FILE and a terminal on stdin, jsrun starts a REPL (.help, .exit, Ctrl-D) that
    evaluates each input in the locked-down worker (in this process with --no-lockdown);
    globals persist between inputs, and the promise job queue is drained after each.

    Scripts run in a worker process locked down with seccomp. A worker killed for a
    forbidden system call exits 159; a crash by signal N exits 128+N.

    """

    public static func main(_ arguments: [String]) -> Int32 {
        // Before any pipe, socket or file is opened (nothing to report with if this fails).
        guard StandardDescriptors.ensureOpen() else { return 71 }
        if let status = WorkerMain.runIfRequested(arguments) { return status }
        // --no-lockdown runs scripts on this thread: the same stack as a worker's.
        StackGuard.reserveMainThreadStack()
        var args = Array(arguments.dropFirst())
        var lockdown = LockdownSettings()
        var check = false
        var strict = false
        var files: [String] = []
        var options = Execute.Options()
        var inline: (code: String, print: Bool)? = nil
        var forceModule = false
        var allowRead: String? = nil
        while !args.isEmpty {
            let a = args.removeFirst()
            switch a {
            case "--module": forceModule = true
            case _ where a.hasPrefix("--allow-read="):
                let dir = String(a.dropFirst("--allow-read=".count))
                guard ModuleHost(root: dir) != nil else { FileIO.err("jsrun: --allow-read: no such directory '\(dir)'\n"); return 2 }
                allowRead = dir
            case "--check", "-c": check = true
            case "--strict": strict = true
            case "--gc-stress": options.gcStress = true
            case "--stats", "--gc-stats": options.gcStats = true
            case "--dump-bytecode": options.dumpBytecode = true
            case "--jit-stats": options.jitStats = true
            case "--print-code": options.printCode = true
            case _ where a.hasPrefix("--jit="):
                guard let mode = JITMode(rawValue: String(a.dropFirst("--jit=".count))) else {
                    FileIO.err("jsrun: --jit: expected off, on, eager or warm, got '\(a.dropFirst("--jit=".count))'\n"); return 2
                }
                options.jitMode = mode
            case "-e", "-p":
                guard !args.isEmpty else { FileIO.err("jsrun: \(a) needs an argument\n"); return 2 }
                let code = args.removeFirst()
                if code.utf8.count > FileIO.maxScriptBytes { FileIO.err("jsrun: \(FileIO.tooLarge(a).message)\n"); return 2 }
                inline = (code, a == "-p")
            case _ where a.hasPrefix("--max-heap="):
                switch parseSize(String(a.dropFirst("--max-heap=".count))) {
                case .success(let n): options.maxHeapBytes = n
                case .failure(let e): FileIO.err("jsrun: \(a.prefix { $0 != "=" }): \(e.message)\n"); return 2
                }
            case "--no-lockdown": lockdown.enabled = false
            case _ where a.hasPrefix("--ffi="):
                let libs = a.dropFirst("--ffi=".count).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                guard !libs.isEmpty, !libs.contains(where: \.isEmpty) else {
                    FileIO.err("jsrun: --ffi: expected library names separated by commas, got '\(a.dropFirst("--ffi=".count))'\n"); return 2
                }
                lockdown.ffiLibraries += libs
            case "--ffi": FileIO.err("jsrun: --ffi needs libraries: --ffi=LIB[,LIB...]\n"); return 2
            case "--lockdown-selftest": return SelfTest.run()
            case "--lockdown-sweep": return SelfTest.sweep()
            case "--lockdown-sweep=fresh": return SelfTest.sweepFresh()
            case "--lockdown-policy": return SelfTest.printPolicy()
            case _ where a.hasPrefix("--timeout="):
                switch parseTimeout(String(a.dropFirst("--timeout=".count))) {
                case .success(let t): lockdown.timeout = t
                case .failure(let e): FileIO.err("jsrun: \(a.prefix { $0 != "=" }): \(e.message)\n"); return 2
                }
            case "--max-heap", "--timeout":
                FileIO.err("jsrun: \(a) needs a value: \(a)=\(a == "--timeout" ? "SECONDS" : "SIZE")\n"); return 2
            case "--version", "-v": FileIO.out("jsrun \(version)\n"); return 0
            case "--help", "-h": FileIO.out(usage); return 0
            default:
                if a.hasPrefix("-") && a != "-" {
                    FileIO.err("jsrun: unknown option '\(a)'\n\(usage)")
                    return 2
                }
                files.append(a)
                if !check { files.append(contentsOf: args); args.removeAll() }
            }
        }
        if check {
            if files.isEmpty { FileIO.err("jsrun: --check needs at least one file\n"); return 2 }
            var status: Int32 = 0
            for f in files where checkFile(f, strict: strict) != 0 { status = 1 }
            return status
        }
        if !lockdown.ffiLibraries.isEmpty {
            if !lockdown.enabled {
                FileIO.err("jsrun: --ffi runs in the locked worker (jsrun-ffi-worker): it cannot be used with --no-lockdown\n"); return 2
            }
            if access(ffiWorkerPath, X_OK) != 0 {
                FileIO.err("jsrun: --ffi needs \(ffiWorkerPath) (swift build --product jsrun-ffi-worker)\n"); return 2
            }
        }
        lockdown.moduleHost = ModuleHost(root: allowRead ?? ".")
        if let (code, printResult) = inline {
            // Under -e/-p every positional argument goes to scriptArgs.
            if lockdown.enabled {
                return runLocked(name: "[eval]", args: files, options: options, printResult: printResult, settings: lockdown) { Array(code.utf8) }
            }
            return runInProcess(SourceFile(name: "[eval]", text: code), args: files, options: options, printResult: printResult)
        }
        if files.isEmpty || files == ["-"] {
            // No file: a REPL on a terminal, else the script is read from stdin (as node does).
            if files.isEmpty && isatty(0) == 1 { return runRepl(options: options, settings: lockdown) }
            if lockdown.enabled {
                return runLocked(name: "[stdin]", args: [], options: options, printResult: false, settings: lockdown) { () throws(FileIO.Failure) in try readStdin() }
            }
            let bytes: [UInt8]
            do { bytes = try readStdin() } catch {
                FileIO.err("jsrun: cannot read \(error.message)\n")
                return 2
            }
            return runInProcess(SourceFile(name: "[stdin]", bytes: bytes), args: [], options: options)
        }
        var path = files[0]
        let scriptArgs = Array(files.dropFirst())
        if path != "-" {
            lockdown.moduleHost = ModuleHost(root: allowRead ?? ModulePath.directory(of: path))
            if forceModule || ModuleHost.isModuleFile(path) {
                // A module's name is its canonical path: the key its own imports resolve against.
                guard let real = ModuleHost.realPath(path) else { FileIO.err("jsrun: cannot read \(path): no such file\n"); return 2 }
                path = real
                lockdown.isModule = true
                if let host = lockdown.moduleHost, !(real.hasPrefix(host.root == "/" ? "/" : host.root + "/")) {
                    FileIO.err("jsrun: \(real) is outside the directory jsrun may read (\(host.root))\n"); return 2
                }
            }
        }
        if lockdown.enabled {
            return runLocked(name: path, args: scriptArgs, options: options, printResult: false, settings: lockdown) { () throws(FileIO.Failure) in
                path == "-" ? try readStdin() : try FileIO.readFile(path)
            }
        }
        let bytes: [UInt8]
        do { bytes = path == "-" ? try readStdin() : try FileIO.readFile(path) } catch {
            FileIO.err("jsrun: cannot read \(error.message)\n")
            return 2
        }
        return runInProcess(SourceFile(name: path == "-" ? "[stdin]" : path, bytes: bytes), args: scriptArgs, options: options,
                            host: lockdown.moduleHost, isModule: lockdown.isModule)
    }

    /// Runs a script in this process (--no-lockdown), with `scriptArgs` defined.
    static func runInProcess(_ source: SourceFile, args: [String], options: Execute.Options, printResult: Bool = false,
                             host: ModuleHost? = nil, isModule: Bool = false) -> Int32 {
        guard let rt = Execute.makeRuntime() else { return 70 }
        Execute.keepUntilExit(rt)
        defineScriptArgs(args, in: rt)
        Execute.installModuleLoader(rt, entry: source) { specifier, referrer in
            host?.load(specifier, referrer: referrer)
                ?? ModuleSourceReply(key: "", source: [], error: "Cannot load module '\(specifier)': no directory may be read")
        }
        if isModule { return Execute.runModule(source, in: rt, options: options) }
        return Execute.run(source, in: rt, options: options, printResult: printResult)
    }

    struct OptionError: Error { var message: String }

    /// The largest `--max-heap` (1 TiB): the worker's address-space limit is derived from it.
    static let maxHeapLimit = 1 << 40
    /// The longest `--timeout` in seconds (a year).
    static let maxTimeout = 365.0 * 24 * 3600

    /// `64M`, `1G`, `512k`, or a byte count: a whole number from 1 byte to `maxHeapLimit`.
    static func parseSize(_ s: String) -> Result<Int, OptionError> {
        let multipliers: [Character: Int] = ["k": 1 << 10, "K": 1 << 10, "m": 1 << 20, "M": 1 << 20, "g": 1 << 30, "G": 1 << 30]
        var digits = Substring(s)
        var multiplier = 1
        if let last = s.last, let m = multipliers[last] { multiplier = m; digits = digits.dropLast() }
        let expected = "expected a size such as 64M, 1G, 512k or a number of bytes"
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            if digits.first == "-" { return .failure(OptionError(message: "the size must be positive")) }
            return .failure(OptionError(message: s.isEmpty ? "empty size; \(expected)" : "'\(s)' is not a size; \(expected)"))
        }
        // Digits only: nil means more than Int holds.
        guard let n = Int(digits) else { return .failure(OptionError(message: "'\(s)' is too large (at most 1024G)")) }
        let (bytes, overflow) = n.multipliedReportingOverflow(by: multiplier)
        if overflow || bytes > maxHeapLimit { return .failure(OptionError(message: "'\(s)' is too large (at most 1024G)")) }
        if bytes == 0 { return .failure(OptionError(message: "the size must be positive (omit --max-heap for no limit)")) }
        return .success(bytes)
    }

    /// Seconds: a finite decimal number from 0.001 to `maxTimeout`.
    static func parseTimeout(_ s: String) -> Result<Double, OptionError> {
        // Decimal only: Double(_:) also takes "inf", "nan" and hexadecimal.
        guard !s.isEmpty, s.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "e" || $0 == "E" || $0 == "-" || $0 == "+") }),
              let t = Double(s), t.isFinite else {
            return .failure(OptionError(message: "'\(s)' is not a number of seconds"))
        }
        if t < 0.001 { return .failure(OptionError(message: "'\(s)': the timeout must be at least 0.001 seconds (omit --timeout for none)")) }
        if t > maxTimeout { return .failure(OptionError(message: "'\(s)' is too long (at most \(Int(maxTimeout)) seconds, a year)")) }
        return .success(t)
    }

    /// Parses one file; prints `file:line:column: SyntaxError: message`, the line and a caret.
    static func checkFile(_ path: String, strict: Bool) -> Int32 {
        let bytes: [UInt8]
        do { bytes = try FileIO.readFile(path) } catch {
            FileIO.err("jsrun: cannot read \(error.message)\n")
            return 1
        }
        let source = SourceFile(name: path, bytes: bytes)
        do {
            _ = try parseScript(source, options: ParseOptions(strict: strict))
            return 0
        } catch {
            FileIO.err(formatError(error, source: source))
            return 1
        }
    }

    /// `file:line:column: Kind: message`, then the source line and a caret under the column.
    public static func formatError(_ error: ParseError, source: SourceFile) -> String {
        var text = "\(error.description)\n"
        let line = source.lineText(error.line)
        if line.unicodeScalars.count <= 500 {
            text += line + "\n"
            var caret = ""
            var col = 1
            for u in line.unicodeScalars {
                if col >= error.column { break }
                caret += u == "\t" ? "\t" : " "
                col += 1
            }
            text += caret + "^\n"
        }
        return text
    }
}
