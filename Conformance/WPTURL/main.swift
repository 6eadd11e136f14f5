// wpt-url: runs the web-platform-tests URL data (../shared/wpt-url) through WebURL.
//
// Usage: wpt-url --root DIR [--expect FILE] [--update] [--verbose]
//   --expect FILE  the ratchet: one failing case id a line; the run fails on a new failure
//                  and on an unexpected pass (update the file in the same change)
//   --update       rewrite the expectation file with this run's failures
//   --verbose      print each failure with what was expected and what came out
//
// Case ids: `<file>:<index>` (index among the file's cases, comment strings not counted;
// setters: `setters_tests.json:<attribute>:<index>`).

#if canImport(Glibc)
import Glibc
#endif
import WebURL

func readFile(_ path: String) -> [UInt8]? {
    guard let f = fopen(path, "rb") else { return nil }
    defer { fclose(f) }
    var out: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&buf, 1, buf.count, f)
        if n <= 0 { break }
        out.append(contentsOf: buf[0..<n])
    }
    return out
}

var root = "../shared/wpt-url"
var expectPath: String? = nil
var update = false
var verbose = false
var args = CommandLine.arguments.dropFirst()
while let a = args.popFirst() {
    switch a {
    case "--root": root = args.popFirst() ?? root
    case "--expect": expectPath = args.popFirst()
    case "--update": update = true
    case "--verbose", "-v": verbose = true
    default:
        print("usage: wpt-url --root DIR [--expect FILE] [--update] [--verbose]")
        exit(2)
    }
}

struct Tally { var pass = 0, total = 0 }
var tallies: [(String, Tally)] = []
var failures: [String] = []

@MainActor func load(_ name: String) -> JSON? {
    guard let bytes = readFile(root + "/" + name) else {
        print("\(name): not found under \(root), skipped")
        return nil
    }
    do { return try JSON.parse(bytes) } catch {
        print("\(name): JSON error \(error)")
        exit(2)
    }
}

@MainActor func record(_ file: String, _ id: String, _ ok: Bool, _ detail: @autoclosure () -> String) {
    if let i = tallies.firstIndex(where: { $0.0 == file }) {
        tallies[i].1.total += 1
        if ok { tallies[i].1.pass += 1 }
    } else {
        tallies.append((file, Tally(pass: ok ? 1 : 0, total: 1)))
    }
    if !ok {
        failures.append(id)
        if verbose { print("FAIL \(id): \(detail())") }
    }
}

func escaped(_ s: String) -> String {
    var out = ""
    for u in s.unicodeScalars {
        if u.value < 0x20 || (u.value >= 0x7F && u.value < 0xA0) { out += "\\u{\(String(u.value, radix: 16))}" } else { out.unicodeScalars.append(u) }
    }
    return out
}

func getter(_ url: WebURL, _ name: String) -> String? {
    switch name {
    case "href": return url.href
    case "origin": return url.origin
    case "protocol": return url.protocol
    case "username": return url.username
    case "password": return url.password
    case "host": return url.hostString
    case "hostname": return url.hostname
    case "port": return url.portString
    case "pathname": return url.pathname
    case "search": return url.search
    case "hash": return url.hash
    case "searchParams": return url.searchParams.serialized
    default: return nil
    }
}

/// Compares every expected getter; returns a description of the mismatches.
func compare(_ url: WebURL, _ expected: JSON, keys: [String]) -> String? {
    var diffs: [String] = []
    for k in keys {
        guard let want = expected[k]?.string else { continue }
        let got = getter(url, k) ?? "?"
        if got != want { diffs.append("\(k): got \"\(escaped(got))\" want \"\(escaped(want))\"") }
    }
    return diffs.isEmpty ? nil : diffs.joined(separator: "; ")
}

let getterNames = ["href", "origin", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash", "searchParams"]

// MARK: - urltestdata.json

if let data = load("urltestdata.json")?.array {
    var index = 0
    for item in data {
        guard case .object = item, let input = item["input"]?.string else { continue }
        defer { index += 1 }
        let id = "urltestdata.json:\(index)"
        let baseString = item["base"]?.string
        var base: WebURL? = nil
        if let baseString {
            base = WebURL(baseString)
            if base == nil { record("urltestdata.json", id, false, "base \(escaped(baseString)) failed to parse"); continue }
        }
        let url = WebURL(input, base: base)
        let what = "\"\(escaped(input))\" against \(baseString.map { "\"\(escaped($0))\"" } ?? "null")"
        if item["failure"] != nil {
            var ok = url == nil
            // wpt failure.html: a failing input with no base also fails as a base.
            if ok && baseString == nil && WebURL("about:blank", baseString: input) != nil { ok = false }
            record("urltestdata.json", id, ok, "\(what): expected failure, got \(url.map { escaped($0.href) } ?? "failure (as a base: parsed)")")
        } else if let url {
            let diff = compare(url, item, keys: getterNames)
            record("urltestdata.json", id, diff == nil, "\(what): \(diff ?? "")")
        } else {
            record("urltestdata.json", id, false, "\(what): failed to parse, expected \(escaped(item["href"]?.string ?? ""))")
        }
    }
}

// MARK: - setters_tests.json

if case .object(let attributes)? = load("setters_tests.json") {
    for (attribute, cases) in attributes where attribute != "comment" {
        for (index, item) in (cases.array ?? []).enumerated() {
            let id = "setters_tests.json:\(attribute):\(index)"
            guard let href = item["href"]?.string, let value = item["new_value"]?.string,
                  let expected = item["expected"], var url = WebURL(href) else {
                record("setters_tests.json", id, false, "href does not parse")
                continue
            }
            url.set(attribute, to: value)
            let diff = compare(url, expected, keys: getterNames)
            record("setters_tests.json", id, diff == nil,
                   "\"\(escaped(href))\".\(attribute) = \"\(escaped(value))\": \(diff ?? "")")
        }
    }
}

// MARK: - toascii.json and IdnaTestV2.json (through the URL parser, as wpt runs them)

for file in ["toascii.json", "IdnaTestV2.json"] {
    guard let data = load(file)?.array else { continue }
    var index = 0
    for item in data {
        guard case .object = item, let input = item["input"]?.string, let output = item["output"] else { continue }
        defer { index += 1 }
        let id = "\(file):\(index)"
        var hostInput = input
        if file == "IdnaTestV2.json" {
            // As wpt's IdnaTestV2.window.js: the empty input cannot go through the URL parser,
            // and code points that end a host are percent-encoded so they reach the host parser.
            if input.isEmpty { continue }
            hostInput = ""
            for c in input.unicodeScalars {
                switch c {
                case ":": hostInput += "%3A"
                case "/": hostInput += "%2F"
                case "?": hostInput += "%3F"
                case "#": hostInput += "%23"
                case "\\": hostInput += "%5C"
                default: hostInput.unicodeScalars.append(c)
                }
            }
        }
        let url = WebURL("https://" + hostInput + "/x")
        if let want = output.string {
            var problems: [String] = []
            if let url {
                if url.hostString != want { problems.append("host \"\(escaped(url.hostString))\"") }
                if url.hostname != want { problems.append("hostname") }
                if url.pathname != "/x" { problems.append("pathname \(url.pathname)") }
                if url.href != "https://" + want + "/x" { problems.append("href") }
            } else {
                problems.append("failed to parse")
            }
            if file == "toascii.json" {
                // The host and hostname setters.
                var h = WebURL("https://x/x")!
                h.setHost(input)
                if h.hostString != want { problems.append("host setter gave \"\(escaped(h.hostString))\"") }
                var n = WebURL("https://x/x")!
                n.setHostname(input)
                if n.hostname != want { problems.append("hostname setter gave \"\(escaped(n.hostname))\"") }
            }
            record(file, id, problems.isEmpty, "\"\(escaped(input))\" want \"\(want)\": \(problems.joined(separator: ", "))")
        } else {
            var ok = url == nil
            if file == "toascii.json" {
                var h = WebURL("https://x/x")!
                h.setHost(input)
                var n = WebURL("https://x/x")!
                n.setHostname(input)
                ok = ok && h.hostString == "x" && n.hostname == "x"
            }
            record(file, id, ok, "\"\(escaped(input))\": expected failure, got \(url.map { escaped($0.hostString) } ?? "failure (a setter changed the host)")")
        }
    }
}

// MARK: - percent-encoding.json (UTF-8 only)

if let data = load("percent-encoding.json")?.array {
    var index = 0
    for item in data {
        guard case .object = item, let input = item["input"]?.string, let want = item["output"]?["utf-8"]?.string else { continue }
        defer { index += 1 }
        let url = WebURL("https://doesnotmatter.invalid/?" + input + "#" + input)
        let ok = url?.search == "?" + want
        record("percent-encoding.json", "percent-encoding.json:\(index)", ok,
               "\"\(escaped(input))\": got \(url.map { escaped($0.search) } ?? "failure") want ?\(want)")
    }
}

// MARK: - Report and ratchet

var totalPass = 0, totalCount = 0
for (file, t) in tallies {
    let pct = t.total == 0 ? 100.0 : Double(t.pass) * 100 / Double(t.total)
    print("\(file): \(t.pass)/\(t.total) passed (\(Double(Int(pct * 100)) / 100) %)")
    totalPass += t.pass
    totalCount += t.total
}
print("total: \(totalPass)/\(totalCount) passed")

guard let expectPath else { exit(0) }
if update {
    guard let f = fopen(expectPath, "w") else { print("cannot write \(expectPath)"); exit(2) }
    fputs("# wpt-url expected failures (the ratchet): one case id a line; regenerate with --update.\n", f)
    for id in failures { fputs(id + "\n", f) }
    fclose(f)
    print("wrote \(expectPath) (\(failures.count) expected failures)")
    exit(0)
}
let expectedText = readFile(expectPath).map { String(decoding: $0, as: UTF8.self) } ?? ""
let expected = Set(expectedText.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }.map(String.init))
let failed = Set(failures)
let newFailures = failures.filter { !expected.contains($0) }
let fixed = expected.subtracting(failed).sorted()
for id in newFailures { print("NEW FAILURE: \(id)") }
for id in fixed { print("UNEXPECTED PASS: \(id) (remove it from \(expectPath))") }
if newFailures.isEmpty && fixed.isEmpty {
    print("ratchet: as expected (\(failures.count) known failures)")
    exit(0)
}
exit(1)
