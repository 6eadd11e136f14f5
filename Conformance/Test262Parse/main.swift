// test262-parse: parse-phase verdicts of test262 against `JSSyntax.parseScript`.
//
// For every test under ROOT/test it reads the YAML frontmatter, parses the file in the
// modes the test runs in (sloppy unless `onlyStrict`; strict unless `noStrict`/`raw`)
// and checks the verdict: a `negative: {phase: parse, type: SyntaxError}` test must be
// rejected with a SyntaxError, every other test must parse. Nothing is executed.
//
// Files are read and parsed on worker threads (one per core, large stacks). A watchdog
// on the main thread reports a test that hangs, and a crash handler names the tests that
// were being parsed when the process died, so a parser bug never goes unattributed.

import Foundation
import JSSyntax
import Synchronization

let usage = """
    usage: test262-parse [options] [PATHS...]

    Parses every test262 test (ROOT/test/**/*.js, except *_FIXTURE*) with JSSyntax and
    checks the parse verdict: tests with `negative: {phase: parse, type: SyntaxError}`
    must be rejected with a SyntaxError, all others must parse. Runs each test sloppy
    (unless flags has onlyStrict) and strict (unless noStrict or raw); skips modules.

    PATHS restrict the run to files or directories, given relative to ROOT/test
    (e.g. language/expressions/class), to ROOT, to the current directory, or absolute.

    options:
      --root DIR          test262 checkout (default ../shared/test262, relative to the
                          package root, else to the current directory)
      --filter SUBSTR     only tests whose path (relative to ROOT/test) contains SUBSTR
      --failures FILE     write every failing run (path, mode, expected, actual) to FILE
      --expect FILE       ratchet: FILE lists tests (relative to ROOT/test, sorted, one
                          per line, # comments allowed) that must pass; exit 1 if any fails
      --update-expect     rewrite the --expect FILE with the tests that pass now (tests
                          outside this run's PATHS/--filter keep their entries)
      --timeout SECS      give up (exit 1) if one parse takes longer (default 20)
      --threads N         worker threads (default: number of cores)
      --slowest N         list the N tests that took the most parse CPU time
      --verbose           print every failing run, and every newly passing test
      -h, --help          show this message

    exit status: 0 if the run completed and no --expect test failed, 1 otherwise.
    """

// MARK: - Options

struct Options {
    var root: String? = nil
    var filter: String? = nil
    var failuresFile: String? = nil
    var expectFile: String? = nil
    var updateExpect = false
    var verbose = false
    var timeout: Double = 20
    var threads = ProcessInfo.processInfo.activeProcessorCount
    var slowest = 0
    var paths: [String] = []
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("test262-parse: \(message)\n".utf8))
    exit(1)
}

func parseArguments(_ args: [String]) -> Options {
    var o = Options()
    var i = 0
    func value(_ flag: String) -> String {
        i += 1
        guard i < args.count else { fail("\(flag) needs a value (see --help)") }
        return args[i]
    }
    while i < args.count {
        let a = args[i]
        switch a {
        case "-h", "--help": print(usage); exit(0)
        case "--root": o.root = value(a)
        case "--filter": o.filter = value(a)
        case "--failures": o.failuresFile = value(a)
        case "--expect": o.expectFile = value(a)
        case "--update-expect": o.updateExpect = true
        case "--verbose", "-v": o.verbose = true
        case "--timeout":
            guard let t = Double(value(a)), t > 0 else { fail("--timeout needs a positive number") }
            o.timeout = t
        case "--threads":
            guard let n = Int(value(a)), n > 0 else { fail("--threads needs a positive integer") }
            o.threads = n
        case "--slowest":
            guard let n = Int(value(a)), n >= 0 else { fail("--slowest needs a non-negative integer") }
            o.slowest = n
        case "--": o.paths += args[(i + 1)...]; i = args.count; continue
        default:
            if a.hasPrefix("-") { fail("unknown option \(a) (see --help)") }
            o.paths.append(a)
        }
        i += 1
    }
    if o.updateExpect && o.expectFile == nil { fail("--update-expect needs --expect FILE") }
    return o
}

// MARK: - Paths

func isDirectory(_ path: String) -> Bool {
    var isDir: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue
}

func absolute(_ path: String) -> String {
    let p = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    return URL(fileURLWithPath: p).standardizedFileURL.resolvingSymlinksInPath().path
}

/// The package root: the nearest directory holding Package.swift above this source file,
/// else above the executable.
func packageRoot() -> String? {
    var starts = [URL(fileURLWithPath: #filePath).deletingLastPathComponent()]
    if let exe = Bundle.main.executableURL { starts.append(exe.deletingLastPathComponent()) }
    for start in starts {
        var dir = start.standardizedFileURL
        while dir.path != "/" {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
                return dir.path
            }
            dir = dir.deletingLastPathComponent()
        }
    }
    return nil
}

func resolveRoot(_ given: String?) -> String {
    let rel = given ?? "../shared/test262"
    var candidates: [String] = []
    if rel.hasPrefix("/") {
        candidates = [rel]
    } else {
        let cwd = FileManager.default.currentDirectoryPath + "/" + rel
        let pkg = packageRoot().map { $0 + "/" + rel }
        // An explicit relative --root means the current directory first; the default
        // means the package root first.
        candidates = given != nil ? [cwd] + (pkg.map { [$0] } ?? []) : (pkg.map { [$0] } ?? []) + [cwd]
    }
    for c in candidates where isDirectory(c + "/test") { return absolute(c) }
    fail("no test262 checkout (a directory with test/) at \(candidates.joined(separator: " or "))")
}

/// Turns a PATHS argument into a prefix of paths relative to ROOT/test.
func relativePrefix(_ arg: String, root: String) -> String {
    let testDir = root + "/test"
    var p = arg
    if p.hasPrefix("/") || FileManager.default.fileExists(atPath: p) {
        let abs = absolute(p)
        if abs == testDir { return "" }
        if abs.hasPrefix(testDir + "/") { return String(abs.dropFirst(testDir.count + 1)) }
        if abs == root { return "" }
        if !p.hasPrefix("/") && !FileManager.default.fileExists(atPath: testDir + "/" + p)
            && !FileManager.default.fileExists(atPath: root + "/" + p) {
            fail("\(arg) is not inside \(testDir)")
        }
    }
    while p.hasPrefix("./") { p.removeFirst(2) }
    while p.hasSuffix("/") { p.removeLast() }
    if p == "test" { return "" }
    if p.hasPrefix("test/") && !FileManager.default.fileExists(atPath: testDir + "/" + p) {
        p.removeFirst(5)
    }
    return p
}

/// All test files under ROOT/test, relative to it, sorted. (readdir: FileManager's
/// enumerator takes half a second for the 30,000 files.)
func enumerateTests(testDir: String) -> [String] {
    var out: [String] = []
    func walk(_ rel: String) {
        let path = rel.isEmpty ? testDir : testDir + "/" + rel
        guard let dir = opendir(path) else {
            if rel.isEmpty { fail("cannot list \(testDir)") }
            return
        }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name.hasPrefix(".") { continue }
            let child = rel.isEmpty ? name : rel + "/" + name
            var type = Int32(entry.pointee.d_type)
            if type == Int32(DT_UNKNOWN) || type == Int32(DT_LNK) {
                var st = stat()
                if stat(testDir + "/" + child, &st) != 0 { continue }
                type = (st.st_mode & S_IFMT) == S_IFDIR ? Int32(DT_DIR) : Int32(DT_REG)
            }
            if type == Int32(DT_DIR) {
                walk(child)
            } else if name.hasSuffix(".js") && !name.contains("_FIXTURE") {
                out.append(child)
            }
        }
    }
    walk("")
    out.sort()
    return out
}

// MARK: - Frontmatter

struct Metadata {
    var flags: Set<String> = []
    var negativePhase: String? = nil
    var negativeType: String? = nil
    var hasFrontmatter = false
}

/// Reads the keys that matter (`flags`, `negative`) from the YAML between `/*---` and `---*/`.
/// Understands inline lists (`flags: [a, b]`) and block lists (`flags:` then `  - a`).
/// Works on bytes and only makes Strings of the lines it needs: the `info` blocks are long.
func parseMetadata(_ array: [UInt8]) -> Metadata {
    array.withUnsafeBufferPointer { parseMetadata($0) }
}

func parseMetadata(_ bytes: UnsafeBufferPointer<UInt8>) -> Metadata {
    var meta = Metadata()
    let open = openMarker, close = closeMarker
    guard let start = find(open, in: bytes, from: 0),
          let end = find(close, in: bytes, from: start + open.count) else { return meta }
    meta.hasFrontmatter = true
    var section = 0  // 0: other, 1: flags, 2: negative (the top-level key whose block we are in)
    var i = start + open.count
    while i < end {
        var j = i
        while j < end && bytes[j] != 0x0A && bytes[j] != 0x0D { j += 1 }
        let lineStart = i
        i = j + 1
        if j == lineStart { continue }
        let first = bytes[lineStart]
        if first == 0x20 || first == 0x09 {  // indented: part of the current key's block
            if section == 0 { continue }
            let trimmed = stripComment(String(decoding: bytes[lineStart..<j], as: UTF8.self))
                .trimmingCharacters(in: .whitespaces)
            if section == 1 {
                if trimmed.hasPrefix("-") {
                    meta.flags.insert(unquote(trimmed.dropFirst().trimmingCharacters(in: .whitespaces)))
                }
            } else {
                applyNegative(trimmed, &meta)
            }
            continue
        }
        section = 0
        if startsWith(bytes, lineStart, j, "flags:") { section = 1 } else if startsWith(bytes, lineStart, j, "negative:") { section = 2 } else { continue }
        let line = stripComment(String(decoding: bytes[lineStart..<j], as: UTF8.self))
        guard let colon = line.firstIndex(of: ":") else { continue }
        let rest = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        if section == 1 && !rest.isEmpty { meta.flags.formUnion(parseInlineList(rest)) }
        if section == 2 && rest.hasPrefix("{") {
            // Flow mapping: negative: {phase: parse, type: SyntaxError}
            for item in parseInlineList(rest) { applyNegative(item, &meta) }
        }
    }
    return meta
}

let openMarker: [UInt8] = Array("/*---".utf8), closeMarker: [UInt8] = Array("---*/".utf8)

func startsWith(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int, _ prefix: StaticString) -> Bool {
    let n = prefix.utf8CodeUnitCount
    guard to - from >= n else { return false }
    let p = prefix.utf8Start
    for k in 0..<n where bytes[from + k] != p[k] { return false }
    return true
}

func applyNegative(_ entry: String, _ meta: inout Metadata) {
    guard let colon = entry.firstIndex(of: ":") else { return }
    let key = entry[..<colon].trimmingCharacters(in: .whitespaces)
    let value = unquote(entry[entry.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    if key == "phase" { meta.negativePhase = value }
    if key == "type" { meta.negativeType = value }
}

func parseInlineList(_ s: String) -> [String] {
    var body = Substring(s)
    if body.first == "[" || body.first == "{" { body = body.dropFirst() }
    if body.last == "]" || body.last == "}" { body = body.dropLast() }
    return body.split(separator: ",").map { unquote($0.trimmingCharacters(in: .whitespaces)) }.filter { !$0.isEmpty }
}

func unquote(_ s: String) -> String {
    if s.count >= 2, let f = s.first, f == "'" || f == "\"", s.last == f { return String(s.dropFirst().dropLast()) }
    return s
}

func stripComment(_ line: String) -> String {
    // YAML comments: `#` at the start or after whitespace. Good enough for test262 metadata.
    guard line.contains("#") else { return line }
    guard let hash = line.range(of: " #") ?? (line.hasPrefix("#") ? line.range(of: "#") : nil) else { return line }
    return String(line[..<hash.lowerBound])
}

func find(_ needle: [UInt8], in hay: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
    needle.withUnsafeBufferPointer { needle in
        let n = needle.count
        guard n > 0, hay.count >= n else { return nil }
        var i = from
        let first = needle[0]
        while i <= hay.count - n {
            if hay[i] == first {
                var j = 1
                while j < n && hay[i + j] == needle[j] { j += 1 }
                if j == n { return i }
            }
            i += 1
        }
        return nil
    }
}

// MARK: - Running one test

enum Mode: Int { case sloppy = 0, strict = 1
    var name: String { self == .sloppy ? "sloppy" : "strict" }
}

struct RunFailure {
    var mode: Mode
    var expected: String
    var actual: String
}

enum Status { case pass, fail, skip }

struct Outcome {
    var status: Status
    var failures: [RunFailure] = []
    var bytes = 0
    var note: String? = nil
    /// Thread CPU time spent in parseScript, all runs together.
    var parseSeconds = 0.0
}

func readFile(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0 else { return nil }
    let size = Int(st.st_size)
    var buf = [UInt8](repeating: 0, count: size)
    var got = 0
    while got < size {
        let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, size - got) }
        if n < 0 { if errno == EINTR { continue }; return nil }
        if n == 0 { break }
        got += n
    }
    buf.removeSubrange(got...)
    return buf
}

/// CPU time of the calling thread, in seconds.
func threadCPU() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

func describe(_ e: ParseError) -> String {
    "\(e.kind.rawValue): \(e.message) (\(e.line):\(e.column))"
}

func runTest(index: Int, path: String, slot: UnsafeMutablePointer<Int>) -> Outcome {
    guard let bytes = readFile(path) else {
        return Outcome(status: .fail, failures: [RunFailure(mode: .sloppy, expected: "readable file", actual: "cannot read \(path): \(String(cString: strerror(errno)))")])
    }
    let meta = parseMetadata(bytes)
    if meta.flags.contains("module") { return Outcome(status: .skip, bytes: bytes.count, note: "module") }
    var modes: [Mode] = []
    if !meta.flags.contains("onlyStrict") { modes.append(.sloppy) }
    if !meta.flags.contains("noStrict") && !meta.flags.contains("raw") { modes.append(.strict) }
    let phase = meta.negativePhase
    let expectError = phase == "parse" || phase == "early"
    let negType = meta.negativeType ?? "SyntaxError"
    let source = SourceFile(name: path, bytes: bytes)
    var failures: [RunFailure] = []
    var parseSeconds = 0.0
    for mode in modes {
        slot.pointee = index * 2 + mode.rawValue
        let t0 = threadCPU()
        let result: Result<Program, ParseError>
        do throws(ParseError) {
            result = .success(try parseScript(source, options: ParseOptions(strict: mode == .strict)))
        } catch {
            result = .failure(error)
        }
        parseSeconds += threadCPU() - t0
        slot.pointee = -1
        switch (result, expectError) {
        case (.success, false): break
        case (.failure(let e), true) where e.kind == .syntaxError && negType == "SyntaxError": break
        case (.success, true):
            failures.append(RunFailure(mode: mode, expected: "\(negType) (parse)", actual: "parsed"))
        case (.failure(let e), true):
            failures.append(RunFailure(mode: mode, expected: "\(negType) (parse)", actual: describe(e)))
        case (.failure(let e), false):
            failures.append(RunFailure(mode: mode, expected: phase == nil ? "parses" : "parses (\(phase!)-phase \(negType))", actual: describe(e)))
        }
    }
    return Outcome(status: failures.isEmpty ? .pass : .fail, failures: failures, bytes: bytes.count,
                   parseSeconds: parseSeconds)
}

// MARK: - Crash attribution

// Read by the signal handler, so plain C memory: one slot per worker holding
// `testIndex * 2 + mode` while that worker is parsing, else -1.
nonisolated(unsafe) var inFlight: UnsafeMutablePointer<Int> = .allocate(capacity: 1)
nonisolated(unsafe) var inFlightCount = 0
nonisolated(unsafe) var crashPaths: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = .allocate(capacity: 1)

func writeStderr(_ s: UnsafePointer<CChar>) { _ = write(2, s, strlen(s)) }

func installCrashHandler() {
    let handler: @convention(c) (Int32) -> Void = { sig in
        writeStderr("\ntest262-parse: crashed (signal ")
        var digits: (CChar, CChar, CChar, CChar) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { d in
            let s = Int(sig)
            d[0] = UInt8(48 + (s / 10) % 10); d[1] = UInt8(48 + s % 10); d[2] = 0
            if s < 10 { d[0] = d[1]; d[1] = 0 }
            writeStderr(d.baseAddress!.assumingMemoryBound(to: CChar.self))
        }
        writeStderr(") while parsing:\n")
        for w in 0..<inFlightCount {
            let v = inFlight[w]
            if v >= 0, let p = crashPaths[v / 2] {
                writeStderr("  ")
                writeStderr(p)
                writeStderr(v % 2 == 0 ? " (sloppy)\n" : " (strict)\n")
            }
        }
        signal(sig, SIG_DFL)
        raise(sig)
    }
    for sig in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT] {
        var sa = sigaction()
        sa.__sigaction_handler.sa_handler = handler
        sa.sa_flags = Int32(SA_ONSTACK) | Int32(bitPattern: UInt32(SA_RESETHAND))
        sigemptyset(&sa.sa_mask)
        sigaction(sig, &sa, nil)
    }
}

/// An alternate signal stack for the calling thread, so a stack overflow can be reported.
func installAltStack() {
    let size = 256 * 1024
    var ss = stack_t()
    ss.ss_sp = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
    ss.ss_size = size
    ss.ss_flags = 0
    sigaltstack(&ss, nil)
}

// MARK: - Parallel driver

/// Shared between the workers; each writes only the outcome slots of the indices it claimed.
final class Work: @unchecked Sendable {
    let paths: [String]
    let outcomes: UnsafeMutableBufferPointer<Outcome?>
    let next = Atomic<Int>(0)
    let finishedWorkers = Atomic<Int>(0)
    init(paths: [String]) {
        self.paths = paths
        outcomes = .allocate(capacity: paths.count)
        outcomes.initialize(repeating: nil)
    }
}

func runAll(_ work: Work, threads: Int, timeout: Double, relPaths: [String]) {
    inFlightCount = threads
    inFlight = .allocate(capacity: threads)
    inFlight.initialize(repeating: -1, count: threads)
    crashPaths = .allocate(capacity: max(1, relPaths.count))
    for (i, p) in relPaths.enumerated() { crashPaths[i] = strdup(p) }
    installCrashHandler()

    for w in 0..<threads {
        let slot = inFlight + w
        nonisolated(unsafe) let unsafeSlot = slot
        let t = Thread {
            installAltStack()
            while true {
                let i = work.next.wrappingAdd(1, ordering: .relaxed).oldValue
                if i >= work.paths.count { break }
                work.outcomes[i] = runTest(index: i, path: work.paths[i], slot: unsafeSlot)
            }
            work.finishedWorkers.add(1, ordering: .releasing)
        }
        t.stackSize = 256 << 20  // Deeply nested tests must hit the parser's limit, not ours.
        t.start()
    }

    // Watchdog: a parse that does not finish within `timeout` seconds ends the run.
    var seen = [Int](repeating: -1, count: threads)
    var since = [Date](repeating: Date(), count: threads)
    while work.finishedWorkers.load(ordering: .acquiring) < threads {
        usleep(50_000)
        let now = Date()
        for w in 0..<threads {
            let v = inFlight[w]
            if v != seen[w] { seen[w] = v; since[w] = now; continue }
            if v >= 0 && now.timeIntervalSince(since[w]) > timeout {
                fail("timeout: \(relPaths[v / 2]) (\(v % 2 == 0 ? "sloppy" : "strict")) still parsing after \(Int(timeout)) s")
            }
        }
    }
}

func cpuSeconds() -> Double {
    var ru = rusage()
    getrusage(RUSAGE_SELF.rawValue, &ru)
    return Double(ru.ru_utime.tv_sec) + Double(ru.ru_utime.tv_usec) / 1e6
        + Double(ru.ru_stime.tv_sec) + Double(ru.ru_stime.tv_usec) / 1e6
}

// MARK: - Expectations

func readExpect(_ path: String) -> [String]? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
        .map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty && !$0.hasPrefix("#") }
}

func writeFile(_ path: String, _ text: String) {
    do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch {
        fail("cannot write \(path): \(error)")
    }
}

func pad(_ v: some CustomStringConvertible, _ width: Int) -> String {
    let s = v.description
    return String(repeating: " ", count: max(0, width - s.count)) + s
}

func percent(_ a: Int, _ b: Int) -> String { b == 0 ? "-" : String(format: "%.2f%%", 100 * Double(a) / Double(b)) }

/// The first two components of a test path: `language/expressions`, `built-ins/RegExp`.
func topDirectory(_ rel: String) -> String {
    let u = rel.utf8
    guard let a = u.firstIndex(of: UInt8(ascii: "/")) else { return rel }
    guard let b = u[u.index(after: a)...].firstIndex(of: UInt8(ascii: "/")) else { return String(rel[..<a]) }
    return String(rel[..<b])
}

// MARK: - Main

let startWall = Date()
let startCPU = cpuSeconds()
let opts = parseArguments(Array(CommandLine.arguments.dropFirst()))
let root = resolveRoot(opts.root)
let testDir = root + "/test"

let allTests = enumerateTests(testDir: testDir)
if allTests.isEmpty { fail("no tests under \(testDir)") }
let prefixes = opts.paths.map { relativePrefix($0, root: root) }
var selected = allTests
if !prefixes.isEmpty {
    for (arg, p) in zip(opts.paths, prefixes) where !allTests.contains(where: { p.isEmpty || $0 == p || $0.hasPrefix(p + "/") }) {
        fail("no tests match \(arg) (as \(p.isEmpty ? "test/" : p) under \(testDir))")
    }
    selected = allTests.filter { t in prefixes.contains { p in p.isEmpty || t == p || t.hasPrefix(p + "/") } }
}
if let f = opts.filter { selected = selected.filter { $0.contains(f) } }
if selected.isEmpty { fail("no tests selected") }

let work = Work(paths: selected.map { testDir + "/" + $0 })
let parseStart = Date()
runAll(work, threads: min(opts.threads, selected.count), timeout: opts.timeout, relPaths: selected)
let parseWall = Date().timeIntervalSince(parseStart)

// Tally.
var pass = 0, failCount = 0, skip = 0, failedRuns = 0, bytes = 0, parseCPU = 0.0
struct DirStats { var pass = 0, fail = 0, skip = 0 }
var dirs: [String: DirStats] = [:]
var passing: [String] = []
var failureLines: [String] = []
for (i, rel) in selected.enumerated() {
    let o = work.outcomes[i]!
    bytes += o.bytes
    parseCPU += o.parseSeconds
    let dir = topDirectory(rel)
    switch o.status {
    case .pass: pass += 1; dirs[dir, default: DirStats()].pass += 1; passing.append(rel)
    case .skip: skip += 1; dirs[dir, default: DirStats()].skip += 1
    case .fail:
        failCount += 1; dirs[dir, default: DirStats()].fail += 1
        for f in o.failures {
            failedRuns += 1
            failureLines.append("\(rel)\t\(f.mode.name)\texpected: \(f.expected)\tactual: \(f.actual)")
        }
    }
}

print("test262-parse: \(root)")
if opts.verbose && !failureLines.isEmpty {
    print("\nfailures (path, mode, expected, actual):")
    for l in failureLines { print("  " + l.replacingOccurrences(of: "\t", with: "  ")) }
}
print("\nby directory (sorted by failures):")
let dirWidth = max(24, dirs.keys.map(\.count).max() ?? 0)
print("  " + "directory".padding(toLength: dirWidth, withPad: " ", startingAt: 0)
      + "    pass    fail    skip   correct")
for (d, s) in dirs.sorted(by: { $0.value.fail != $1.value.fail ? $0.value.fail > $1.value.fail : $0.key < $1.key }) {
    print("  " + d.padding(toLength: dirWidth, withPad: " ", startingAt: 0)
          + pad(s.pass, 8) + pad(s.fail, 8) + pad(s.skip, 8) + pad(percent(s.pass, s.pass + s.fail), 10))
}

let slowestCount = opts.slowest > 0 ? opts.slowest : (opts.verbose ? 10 : 0)
if slowestCount > 0 {
    print("\nslowest tests (parse CPU, all runs):")
    let order = (0..<selected.count).sorted { work.outcomes[$0]!.parseSeconds > work.outcomes[$1]!.parseSeconds }
    for i in order.prefix(slowestCount) {
        print("  " + pad(String(format: "%.1f ms", work.outcomes[i]!.parseSeconds * 1e3), 10) + "  " + selected[i])
    }
}

let wall = Date().timeIntervalSince(startWall)
let cpu = cpuSeconds() - startCPU
print("""

    total: \(selected.count) tests, \(pass) pass, \(failCount) fail (\(failedRuns) runs), \(skip) skip; \
    \(percent(pass, pass + failCount)) correct
    time: \(String(format: "%.2f", wall)) s wall (\(String(format: "%.2f", parseWall)) s reading+parsing \
    \(String(format: "%.2f", Double(bytes) / 1e6)) MB on \(min(opts.threads, selected.count)) threads), \
    \(String(format: "%.2f", cpu)) s CPU (\(String(format: "%.2f", parseCPU)) s in parseScript)
    """)

if let ff = opts.failuresFile {
    var text = "# test262-parse failures: \(failCount) tests, \(failedRuns) runs\n"
    text += "# path\tmode\texpected\tactual\n"
    for l in failureLines { text += l + "\n" }
    writeFile(ff, text)
    print("failures written to \(ff)")
}

var exitStatus: Int32 = 0
if let ef = opts.expectFile {
    let listed = readExpect(ef)
    if listed == nil && !opts.updateExpect { fail("cannot read expectations \(ef) (create it with --update-expect)") }
    let expected = Set(listed ?? [])
    let ranSet = Set(selected)
    let passSet = Set(passing)
    let allSet = Set(allTests)
    let regressions = expected.filter { ranSet.contains($0) && !passSet.contains($0) }.sorted()
    let newlyPassing = passing.filter { !expected.contains($0) }
    let missing = expected.filter { !allSet.contains($0) }.sorted()
    if !missing.isEmpty {
        print("\n\(missing.count) expected tests no longer exist:")
        for m in missing.prefix(opts.verbose ? missing.count : 20) { print("  \(m)") }
        if !opts.verbose && missing.count > 20 { print("  ... (--verbose lists all)") }
    }
    if !regressions.isEmpty {
        print("\n\(regressions.count) tests in \(ef) FAIL now:")
        for r in regressions { print("  \(r)") }
    }
    if !newlyPassing.isEmpty {
        print("\n\(newlyPassing.count) tests pass that are not in \(ef):")
        for n in newlyPassing.prefix(opts.verbose ? newlyPassing.count : 20) { print("  \(n)") }
        if !opts.verbose && newlyPassing.count > 20 { print("  ... (--verbose lists all)") }
        if !opts.updateExpect { print("run with --update-expect to add them") }
    }
    if opts.updateExpect {
        // Keep entries outside this run (other PATHS/--filter); replace the ones inside it.
        let updated = Set(expected.filter { !ranSet.contains($0) && allSet.contains($0) }).union(passSet).sorted()
        writeFile(ef, updated.map { $0 + "\n" }.joined())
        print("\nwrote \(updated.count) passing tests to \(ef)"
              + (regressions.isEmpty ? "" : " (dropped \(regressions.count) that fail now)"))
    } else if !regressions.isEmpty {
        print("\nexpectations: \(regressions.count) REGRESSIONS")
        exitStatus = 1
    } else {
        print("\nexpectations: ok (\(expected.intersection(ranSet).count) expected tests pass)")
    }
}
exit(exitStatus)
