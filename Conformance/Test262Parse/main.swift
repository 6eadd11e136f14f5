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
import Test262Support

let usage = """
    usage: test262-parse [options] [PATHS...]

    Parses every test262 test (ROOT/test/**/*.js, except *_FIXTURE*) with JSSyntax and
    checks the parse verdict: tests with `negative: {phase: parse, type: SyntaxError}`
    must be rejected with a SyntaxError, all others must parse. Runs each test sloppy
    (unless flags has onlyStrict) and strict (unless noStrict or raw); module tests once, as modules.

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
    let isModule = meta.flags.contains("module")
    var modes: [Mode] = []
    if isModule {
        modes = [.strict]   // module code is strict; parsed once, as a Module
    } else {
        if !meta.flags.contains("onlyStrict") { modes.append(.sloppy) }
        if !meta.flags.contains("noStrict") && !meta.flags.contains("raw") { modes.append(.strict) }
    }
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
            result = .success(isModule ? try parseModule(source)
                                       : try parseScript(source, options: ParseOptions(strict: mode == .strict)))
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

// MARK: - Main

programName = "test262-parse"
let startWall = Date()
let startCPU = cpuSeconds()
let opts = parseArguments(Array(CommandLine.arguments.dropFirst()))
let root = resolveRoot(opts.root)
let testDir = root + "/test"

let allTests = enumerateTests(testDir: testDir)
if allTests.isEmpty { fail("no tests under \(testDir)") }
let selected = selectTests(allTests, paths: opts.paths, filter: opts.filter, root: root)
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
    exitStatus = checkExpectations(file: ef, ran: selected, passing: passing, all: allTests,
                                   update: opts.updateExpect, verbose: opts.verbose, updateFlag: "--update-expect")
}
exit(exitStatus)
