// Command-line options of the test262 runner.

import Foundation
import Test262Support

let usage = """
    usage: test262 [options] [PATHS...]
           test262 compare A B

    Runs test262 (ROOT/test/**/*.js, except *_FIXTURE*) through the interpreter, following
    INTERPRETING.md: harness/assert.js and harness/sta.js (and doneprintHandle.js for async
    tests) and the test's `includes` before the test; a sloppy and a strict run unless the
    flags say otherwise; `negative` tests must throw the named error in the named phase;
    async tests must print Test262:AsyncTestComplete. Each test runs in a fresh runtime, in
    worker processes (this binary with --worker) that are killed and replaced when one
    crashes or exceeds the per-test timeout.

    PATHS restrict the run to files or directories, given relative to ROOT/test
    (e.g. built-ins/Array), to ROOT, to the current directory, or absolute.

    `compare A B` prints what changed between two results files.

    options:
      --root DIR          test262 checkout (default ../shared/test262, relative to the
                          package root, else to the current directory)
      --filter SUBSTR     only tests whose path (relative to ROOT/test) contains SUBSTR
      -j, --jobs N        worker processes (default: number of cores)
      --timeout SECS      per-test timeout in CPU seconds, all runs of the test together
                          (default 10; a test that gets no CPU is stopped after 6x that)
      --max-heap MB       JS heap limit per test (default 512)
      --max-memory MB     address-space limit per worker process (default 4096)
      --results FILE      write one line per test: path, verdict, reason (default
                          .build/test262-results.txt under the package root)
      --expect FILE       ratchet: FILE lists the tests (relative to ROOT/test) that pass;
                          exit 1 if one of them does not (default Conformance/test262.expect
                          under the package root, if it exists)
      --no-expect         do not check an expectations file
      --update            rewrite the expectations file with the tests that pass now (tests
                          outside this run's PATHS/--filter keep their entries)
      --recycle N         replace each worker after N tests (default 500)
      --slowest N         list the N slowest tests
      --quiet             no progress lines
      --jit MODE          run with the baseline JIT: off (default), on, eager (every function
                          compiled at its first call), warm (at its second, with the caches
                          the first filled); the workers lock down for it (seccomp,
                          the executable region) as jsrun's workers do
      -v, --verbose       list every failing test with its reason, and all newly passing
      -h, --help          show this message

    exit status: 0 if the run completed and no expected test failed, 1 otherwise.
    """

struct Options {
    var root: String? = nil
    var filter: String? = nil
    var jobs = ProcessInfo.processInfo.activeProcessorCount
    var timeout: Double = 10
    var maxHeapMB = 512
    var maxMemoryMB = 4096
    var resultsFile: String? = nil
    var expectFile: String? = nil
    var noExpect = false
    var update = false
    var recycle = 500
    var slowest = 0
    var quiet = false
    var verbose = false
    /// The baseline JIT in the workers (locked down for it): off, on, eager or warm.
    var jit = "off"
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
    func positive(_ flag: String) -> Int {
        guard let n = Int(value(flag)), n > 0 else { fail("\(flag) needs a positive integer") }
        return n
    }
    while i < args.count {
        let a = args[i]
        switch a {
        case "-h", "--help": print(usage); exit(0)
        case "--root": o.root = value(a)
        case "--filter": o.filter = value(a)
        case "-j", "--jobs": o.jobs = positive(a)
        case "--timeout":
            guard let t = Double(value(a)), t > 0 else { fail("--timeout needs a positive number") }
            o.timeout = t
        case "--max-heap": o.maxHeapMB = positive(a)
        case "--max-memory": o.maxMemoryMB = positive(a)
        case "--results": o.resultsFile = value(a)
        case "--expect": o.expectFile = value(a)
        case "--no-expect": o.noExpect = true
        case "--update": o.update = true
        case "--recycle": o.recycle = positive(a)
        case "--slowest":
            guard let n = Int(value(a)), n >= 0 else { fail("--slowest needs a non-negative integer") }
            o.slowest = n
        case "--quiet", "-q": o.quiet = true
        case "--verbose", "-v": o.verbose = true
        case "--jit":
            o.jit = value(a)
            guard ["off", "on", "eager", "warm"].contains(o.jit) else { fail("--jit: expected off, on, eager or warm") }
        case "--": o.paths += args[(i + 1)...]; i = args.count; continue
        default:
            if a.hasPrefix("-") { fail("unknown option \(a) (see --help)") }
            o.paths.append(a)
        }
        i += 1
    }
    if o.noExpect && o.update { fail("--update and --no-expect contradict each other") }
    return o
}
