// Pass rates by directory, the results file, and `compare A B`.

import Foundation
import Test262Support

/// Counts per verdict.
struct Tally {
    var counts: [Verdict: Int] = [:]
    var pass: Int { counts[.pass, default: 0] }
    var skip: Int { counts[.skip, default: 0] }
    /// Everything that ran and did not pass (fail, crash, timeout).
    var failed: Int { counts[.fail, default: 0] + counts[.crash, default: 0] + counts[.timeout, default: 0] }
    var total: Int { pass + failed + skip }
    var rate: String { percent(pass, pass + failed) }
    mutating func add(_ v: Verdict) { counts[v, default: 0] += 1 }
}

/// Prints the table of pass rates: per top-level directory and per two-level directory.
func printReport(tests: [String], results: [TestResult]) {
    var overall = Tally()
    var top: [String: Tally] = [:]
    var second: [String: Tally] = [:]
    for (rel, r) in zip(tests, results) {
        overall.add(r.verdict)
        top[directory(rel, depth: 1), default: Tally()].add(r.verdict)
        second[directory(rel, depth: 2), default: Tally()].add(r.verdict)
    }
    let width = max(28, second.keys.map(\.count).max() ?? 0)
    func row(_ name: String, _ t: Tally) -> String {
        "  " + name.padding(toLength: width, withPad: " ", startingAt: 0)
            + pad(t.pass, 8) + pad(t.failed, 8) + pad(t.skip, 7)
            + pad(t.counts[.crash, default: 0], 7) + pad(t.counts[.timeout, default: 0], 8) + pad(t.rate, 10)
    }
    let header = "  " + "directory".padding(toLength: width, withPad: " ", startingAt: 0)
        + "    pass    fail   skip  crash timeout      rate"
    print("\nby directory:")
    print(header)
    for d in second.keys.sorted() { print(row(d, second[d]!)) }
    print("\nby top-level directory:")
    print(header)
    for d in top.keys.sorted() { print(row(d, top[d]!)) }
    print(row("total", overall))
    print("\n(fail counts crashes and timeouts too; rate = pass / (pass + fail), skips excluded)")
}

/// One line per test: `path<TAB>verdict<TAB>reason`, sorted by path.
func writeResults(_ file: String, root: String, tests: [String], results: [TestResult]) {
    var text = "# test262 results: \(root)\n# path\tverdict\treason\n"
    for (rel, r) in zip(tests, results) {
        text += "\(rel)\t\(r.verdict.rawValue)\t\(r.reason)\n"
    }
    writeFile(file, text)
}

/// Reads a results file: path -> (verdict, reason).
func readResults(_ file: String) -> [String: (verdict: String, reason: String)] {
    guard let data = FileManager.default.contents(atPath: file) else { fail("cannot read results file \(file)") }
    var out: [String: (verdict: String, reason: String)] = [:]
    for line in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
        let f = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
        guard f.count >= 2 else { continue }
        out[String(f[0])] = (String(f[1]), f.count > 2 ? String(f[2]) : "")
    }
    return out
}

/// `test262 compare A B`: the tests whose verdict changed from results file A to B.
func compareMain(_ args: [String]) -> Never {
    guard args.count == 2 else { fail("usage: test262 compare A B (two results files)") }
    let a = readResults(args[0]), b = readResults(args[1])
    func tally(_ r: [String: (verdict: String, reason: String)]) -> Tally {
        var t = Tally()
        for (_, v) in r { t.add(Verdict(rawValue: v.verdict) ?? .fail) }
        return t
    }
    let ta = tally(a), tb = tally(b)
    print("A: \(args[0]): \(ta.pass) pass, \(ta.failed) fail, \(ta.skip) skip (\(ta.rate))")
    print("B: \(args[1]): \(tb.pass) pass, \(tb.failed) fail, \(tb.skip) skip (\(tb.rate))")
    var fixed: [String] = [], broken: [String] = [], changed: [String] = []
    for path in Set(a.keys).union(b.keys).sorted() {
        let va = a[path]?.verdict ?? "absent", vb = b[path]?.verdict ?? "absent"
        if va == vb { continue }
        let reason = b[path]?.reason ?? ""
        let line = "  \(path)  (\(va) -> \(vb))" + (vb == "pass" || reason.isEmpty ? "" : ": \(reason)")
        if vb == "pass" { fixed.append(line) } else if va == "pass" { broken.append(line) } else { changed.append(line) }
    }
    if !fixed.isEmpty { print("\n\(fixed.count) newly passing:"); fixed.forEach { print($0) } }
    if !broken.isEmpty { print("\n\(broken.count) newly failing:"); broken.forEach { print($0) } }
    if !changed.isEmpty { print("\n\(changed.count) other verdict changes:"); changed.forEach { print($0) } }
    print("\n\(fixed.count) newly passing, \(broken.count) newly failing, \(changed.count) other changes"
          + " (pass: \(tb.pass - ta.pass >= 0 ? "+" : "")\(tb.pass - ta.pass))")
    exit(0)
}
