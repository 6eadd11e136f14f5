// The committed expectations file: the tests that pass today. A listed test that fails
// is a regression (the run fails); a passing test that is not listed is reported so the
// file is updated in the same change (QuickJS's `test262_errors.txt`, inverted).

import Foundation

/// Reads an expectations file: test paths relative to ROOT/test, one per line, `#` comments.
public func readExpect(_ path: String) -> [String]? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
        .map { trim(String($0)) }
        .filter { !$0.isEmpty && !$0.hasPrefix("#") }
}

/// Checks a run against the expectations file `file` (and rewrites it when `update`).
/// Returns the exit status: 1 if a listed test that ran did not pass (and not updating).
///
/// - `ran`: the tests this run selected; `passing`: those that passed; `all`: every test
///   in the checkout (entries for tests that no longer exist are reported and dropped).
/// - `updateFlag`: the option that rewrites the file, for the hint.
public func checkExpectations(file: String, ran: [String], passing: [String], all: [String],
                              update: Bool, verbose: Bool, updateFlag: String,
                              header: String = "") -> Int32 {
    let listed = readExpect(file)
    if listed == nil && !update { fail("cannot read expectations \(file) (create it with \(updateFlag))") }
    let expected = Set(listed ?? [])
    let ranSet = Set(ran)
    let passSet = Set(passing)
    let allSet = Set(all)
    let regressions = expected.filter { ranSet.contains($0) && !passSet.contains($0) }.sorted()
    let newlyPassing = passing.filter { !expected.contains($0) }
    let missing = expected.filter { !allSet.contains($0) }.sorted()
    if !missing.isEmpty {
        print("\n\(missing.count) expected tests no longer exist:")
        for m in missing.prefix(verbose ? missing.count : 20) { print("  \(m)") }
        if !verbose && missing.count > 20 { print("  ... (--verbose lists all)") }
    }
    if !regressions.isEmpty {
        print("\n\(regressions.count) tests in \(file) FAIL now:")
        for r in regressions { print("  \(r)") }
    }
    if !newlyPassing.isEmpty {
        print("\n\(newlyPassing.count) tests pass that are not in \(file):")
        for n in newlyPassing.prefix(verbose ? newlyPassing.count : 20) { print("  \(n)") }
        if !verbose && newlyPassing.count > 20 { print("  ... (--verbose lists all)") }
        if !update { print("run with \(updateFlag) to add them (and commit the file with the change)") }
    }
    if update {
        // Keep entries outside this run (other PATHS/--filter); replace the ones inside it.
        let updated = Set(expected.filter { !ranSet.contains($0) && allSet.contains($0) }).union(passSet).sorted()
        writeFile(file, header + updated.map { $0 + "\n" }.joined())
        print("\nwrote \(updated.count) passing tests to \(file)"
              + (regressions.isEmpty ? "" : " (dropped \(regressions.count) that fail now)"))
        return 0
    }
    if !regressions.isEmpty {
        print("\nexpectations: \(regressions.count) REGRESSIONS")
        return 1
    }
    print("\nexpectations: ok (\(expected.intersection(ranSet).count) expected tests pass"
          + (newlyPassing.isEmpty ? ")" : ", \(newlyPassing.count) more pass that are not listed)"))
    return 0
}

// MARK: - Formatting

public func pad(_ v: some CustomStringConvertible, _ width: Int) -> String {
    let s = v.description
    return String(repeating: " ", count: max(0, width - s.count)) + s
}

public func percent(_ a: Int, _ b: Int) -> String { b == 0 ? "-" : String(format: "%.2f%%", 100 * Double(a) / Double(b)) }

/// The first two components of a test path: `language/expressions`, `built-ins/RegExp`.
public func topDirectory(_ rel: String) -> String { directory(rel, depth: 2) }

/// The first `depth` directory components of a test path (fewer if the path is shallower).
public func directory(_ rel: String, depth: Int) -> String {
    let u = rel.utf8
    var end = u.startIndex
    var seen = 0
    var i = u.startIndex
    while i != u.endIndex {
        if u[i] == UInt8(ascii: "/") {
            end = i
            seen += 1
            if seen == depth { break }
        }
        i = u.index(after: i)
    }
    return seen == 0 ? rel : String(rel[..<end])
}

/// CPU time of the whole process (user + system), in seconds.
public func cpuSeconds(_ who: Int32 = RUSAGE_SELF.rawValue) -> Double {
    var ru = rusage()
    getrusage(__rusage_who_t(who), &ru)
    return Double(ru.ru_utime.tv_sec) + Double(ru.ru_utime.tv_usec) / 1e6
        + Double(ru.ru_stime.tv_sec) + Double(ru.ru_stime.tv_usec) / 1e6
}
