// html5lib-tests: runs ../shared/html5lib-tests (tokenizer *.test, tree-construction *.dat
// without a scripting flag or with #script-off) through the HTML library, prints pass counts
// per file and in total, and checks them against a ratchet of known failures.
//
//   html5lib-tests --root DIR [--expect FILE] [--update] [--verbose] [--filter STR]
//   html5lib-tests --bench [--size MB] [--repeat N]   parse throughput of a synthetic page
//   html5lib-tests --bench-file FILE [--repeat N]      parse throughput of FILE
//   html5lib-tests --parse FILE                        parse one file, print the tree
//   html5lib-tests --fuzz N [--seed S]                 N mutated inputs: parse, serialize, reparse

import DOM
import Foundation
import HTML

struct Options {
    var root = "../shared/html5lib-tests"
    var expect: String?
    var update = false
    var verbose = false
    var filter: String?
    var bench = false
    var sizeMB = 50
    var repeatCount = 3
    var parseFile: String?
    var benchFile: String?
    var fuzz = 0
    var seed: UInt64 = 0
}

func usage() -> Never {
    print("""
    usage: html5lib-tests [--root DIR] [--expect FILE [--update]] [--verbose] [--filter STR]
           html5lib-tests --bench [--size MB] [--repeat N]
           html5lib-tests --parse FILE
    """)
    exit(2)
}

var options = Options()
var args = CommandLine.arguments.dropFirst()
@MainActor func value() -> String {
    guard let v = args.popFirst() else { usage() }
    return v
}
@MainActor func number() -> Int {
    guard let n = Int(value()) else { usage() }
    return n
}
while let a = args.popFirst() {
    switch a {
    case "--root": options.root = value()
    case "--expect": options.expect = value()
    case "--update": options.update = true
    case "--verbose", "-v": options.verbose = true
    case "--filter": options.filter = value()
    case "--bench": options.bench = true
    case "--size": options.sizeMB = number()
    case "--repeat": options.repeatCount = number()
    case "--parse": options.parseFile = value()
    case "--bench-file": options.benchFile = value()
    case "--fuzz": options.fuzz = number()
    case "--seed": options.seed = UInt64(number())
    default: usage()
    }
}

func listDirectory(_ path: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path)
}

func readBytes(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { [UInt8]($0) }
}

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

if let file = options.parseFile {
    guard let bytes = readBytes(file) else { print("cannot read \(file)"); exit(2) }
    let r = HTMLParser.parseDocument(bytes)
    print(TreeDump.dump(childrenOf: r.document), terminator: "")
    print("(\(r.errorCount) parse errors)")
    exit(0)
}

if let file = options.benchFile {
    guard let bytes = readBytes(file) else { print("cannot read \(file)"); exit(2) }
    benchmarkParse(bytes, repeatCount: options.repeatCount)
    exit(0)
}

if options.fuzz > 0 {
    runFuzz(root: options.root, iterations: options.fuzz, seed: options.seed)
    exit(0)
}

if options.bench {
    runBenchmark(sizeMB: options.sizeMB, repeatCount: options.repeatCount)
    exit(0)
}

let root = options.root
guard FileManager.default.fileExists(atPath: root + "/tree-construction") else {
    print("html5lib-tests not found at \(root)")
    exit(2)
}

var all: [(String, Bool, String)] = []
var perFile: [(String, Int, Int)] = []
@MainActor func runDir(_ dir: String, ext: String, _ run: ([UInt8], String) -> [(String, Bool, String)]) {
    let files = ((try? FileManager.default.contentsOfDirectory(atPath: root + "/" + dir)) ?? []).filter { $0.hasSuffix(ext) }.sorted()
    for f in files {
        if let filter = options.filter, !(dir + "/" + f).contains(filter) && !filter.hasPrefix(dir + "/" + f) { continue }
        if options.verbose { print("running \(dir)/\(f)") }
        guard let bytes = readBytes(root + "/" + dir + "/" + f) else { continue }
        var results = run(bytes, f)
        if let filter = options.filter { results = results.filter { $0.0.contains(filter) } }
        if results.isEmpty { continue }
        perFile.append((dir + "/" + f, results.filter(\.1).count, results.count))
        all += results
    }
}

let start = now()
runDir("tokenizer", ext: ".test", runTokenizerFile)
runDir("tree-construction", ext: ".dat", runTreeFile)
let elapsed = now() - start

func pct(_ a: Int, _ b: Int) -> String { b == 0 ? "-" : String(format: "%.2f%%", 100 * Double(a) / Double(b)) }
for (f, p, n) in perFile { print("\(f.padding(toLength: 48, withPad: " ", startingAt: 0)) \(p)/\(n)") }
let tok = all.filter { $0.0.hasPrefix("tokenizer/") }
let tree = all.filter { $0.0.hasPrefix("tree-construction/") && !$0.0.hasSuffix("@script-on") }
let scripted = all.filter { $0.0.hasSuffix("@script-on") }
let scriptedPass = scripted.filter(\.1).count
let tokPass = tok.filter(\.1).count, treePass = tree.filter(\.1).count
print("tokenizer:         \(tokPass)/\(tok.count) (\(pct(tokPass, tok.count)))")
print("tree construction: \(treePass)/\(tree.count) (\(pct(treePass, tree.count)))")
print("  and #script-on tests with scripting on: \(scriptedPass)/\(scripted.count)")
print("parse-error counts as listed: tokenizer \(errorStats.tokenizerMatch)/\(errorStats.tokenizerTotal), tree construction \(errorStats.treeMatch)/\(errorStats.treeTotal) (informational)")
print(String(format: "(%.2f s)", elapsed))

let failures = all.filter { !$0.1 }
if options.verbose {
    for (id, _, detail) in failures { print("\n== FAIL \(id)\n\(detail)") }
}

// The ratchet: the expectations file lists the tests that fail today.
guard let expectPath = options.expect else { exit(failures.isEmpty ? 0 : 1) }
let header = "# html5lib-tests that fail today (one id per line). Generated by `html5lib-tests --update`;\n# a test failing that is not listed, or a listed test that passes, fails the run.\n"
let ranIDs = Set(all.map(\.0))
let failing = Set(failures.map(\.0))
let listed = Set((try? String(contentsOfFile: expectPath, encoding: .utf8))?
    .split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty } ?? [])
if options.update {
    let kept = listed.filter { !ranIDs.contains($0) }
    let lines = kept.union(failing).sorted()
    try? (header + lines.map { $0 + "\n" }.joined()).write(toFile: expectPath, atomically: true, encoding: .utf8)
    print("wrote \(lines.count) known failures to \(expectPath)")
    exit(0)
}
let regressions = failing.subtracting(listed).sorted()
let fixed = listed.intersection(ranIDs).subtracting(failing).sorted()
for r in regressions { print("REGRESSION \(r)") }
for f in fixed { print("NOW PASSES (remove from \(expectPath)) \(f)") }
if regressions.isEmpty && fixed.isEmpty {
    print("expectations: ok (\(listed.intersection(ranIDs).count) known failures)")
    exit(0)
}
print("expectations: \(regressions.count) regressions, \(fixed.count) fixed; run with --update to accept")
exit(1)
