// parse-bench: parser throughput. Parses each file N times and reports MB/s, where
// MB/s = bytes parsed / CPU time (of the calling thread) spent inside `parseScript`.
// Reading the files and freeing the ASTs are outside the timed region.

import Foundation
import JSSyntax

let usage = """
    usage: parse-bench [options] FILE...

    Parses each FILE (as a classic script) N times with JSSyntax.parseScript and reports
    the parse speed in MB/s (1 MB = 10^6 bytes of UTF-8 source), computed as bytes parsed
    divided by the thread CPU time of the parse calls. Build with -c release.

    options:
      --iterations N   parses per file (default 10)
      --warmup N       untimed parses per file before timing (default 1)
      --strict         parse as strict-mode code
      --allow-errors   time parses that throw too (default: a parse error ends the run,
                       exit 1, since the timing of a rejected file means little)
      --quiet          print only the overall MB/s number
      -h, --help       show this message
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("parse-bench: \(message)\n".utf8))
    exit(1)
}

var iterations = 10, warmup = 1
var strict = false, allowErrors = false, quiet = false
var files: [String] = []
var args = Array(CommandLine.arguments.dropFirst())[...]
while let a = args.popFirst() {
    func number() -> Int {
        guard let v = args.popFirst(), let n = Int(v), n >= 0 else { fail("\(a) needs a non-negative integer") }
        return n
    }
    switch a {
    case "-h", "--help": print(usage); exit(0)
    case "--iterations", "-n": iterations = number()
    case "--warmup": warmup = number()
    case "--strict": strict = true
    case "--allow-errors": allowErrors = true
    case "--quiet", "-q": quiet = true
    case "--": files += args; args = []
    default:
        if a.hasPrefix("-") { fail("unknown option \(a) (see --help)") }
        files.append(a)
    }
}
if files.isEmpty { fail("no input files (see --help)") }
if iterations < 1 { fail("--iterations must be at least 1") }

/// CPU time of the calling thread, in seconds.
@inline(__always) func threadCPU() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

func fmt(_ v: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", v) }
func pad(_ s: String, _ width: Int, left: Bool = false) -> String {
    let fill = String(repeating: " ", count: max(0, width - s.count))
    return left ? s + fill : fill + s
}

let options = ParseOptions(strict: strict)
var totalBytes = 0.0, totalCPU = 0.0, bestCPU = 0.0  // bestCPU: sum over files of the fastest parse
var errors = 0
let nameWidth = min(48, max(8, files.map { ($0 as NSString).lastPathComponent.count }.max() ?? 0))
if !quiet {
    print(pad("file", nameWidth, left: true) + pad("bytes", 12) + pad("parses", 8)
          + pad("best ms", 10) + pad("median ms", 11) + pad("MB/s", 10))
}
for path in files {
    guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
    let bytes = [UInt8](data)
    var times: [Double] = []
    times.reserveCapacity(iterations)
    var lastError: ParseError? = nil
    for i in 0..<(warmup + iterations) {
        // A fresh SourceFile each time: the parser may cache things (line starts) in it.
        let source = SourceFile(name: path, bytes: bytes)
        var program: Program? = nil
        let t0 = threadCPU()
        do throws(ParseError) {
            program = try parseScript(source, options: options)
        } catch {
            lastError = error
        }
        let t1 = threadCPU()
        withExtendedLifetime(program) {}  // the AST is freed outside the timed region
        program = nil
        if let e = lastError, !allowErrors { fail("\(e)") }
        if i >= warmup { times.append(t1 - t0) }
    }
    if lastError != nil { errors += 1 }
    let sum = times.reduce(0, +)
    totalBytes += Double(bytes.count * iterations)
    totalCPU += sum
    bestCPU += times.min()! * Double(iterations)
    if !quiet {
        let sorted = times.sorted()
        let name = (path as NSString).lastPathComponent
        print(pad(String(name.prefix(nameWidth)), nameWidth, left: true) + pad("\(bytes.count)", 12)
              + pad("\(iterations)", 8) + pad(fmt(sorted[0] * 1e3, 2), 10)
              + pad(fmt(sorted[sorted.count / 2] * 1e3, 2), 11)
              + pad(sum > 0 ? fmt(Double(bytes.count * iterations) / sum / 1e6) : "inf", 10)
              + (lastError != nil ? "  (threw: \(lastError!.kind.rawValue): \(lastError!.message))" : ""))
    }
}
let mbps = totalCPU > 0 ? totalBytes / totalCPU / 1e6 : .infinity
if quiet {
    print(fmt(mbps, 2))
} else {
    var ru = rusage()
    getrusage(RUSAGE_SELF.rawValue, &ru)
    print("total: \(fmt(totalBytes / 1e6, 2)) MB parsed in \(fmt(totalCPU, 3)) s CPU: \(fmt(mbps, 2)) MB/s"
          + " (best parses: \(fmt(bestCPU > 0 ? totalBytes / bestCPU / 1e6 : .infinity, 2)) MB/s)\n"
          + "       \(strict ? "strict" : "sloppy"), peak RSS \(ru.ru_maxrss / 1024) MiB"
          + (errors > 0 ? ", \(errors) files threw" : ""))
}
