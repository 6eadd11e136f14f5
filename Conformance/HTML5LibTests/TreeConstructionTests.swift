import DOM
import HTML

struct TreeTest {
    var data: [UInt8] = []
    var fragmentContext: String?
    var scripting: Bool?
    var expected: String = ""
    var errors = 0
}

/// Splits a .dat file into its tests (byte-exact data; LF line endings).
func parseDat(_ bytes: [UInt8]) -> [TreeTest] {
    let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) }
    var tests: [TreeTest] = []
    var i = 0
    func isHeader(_ l: [UInt8]) -> Bool { l.first == UInt8(ascii: "#") }
    while i < lines.count {
        guard lines[i] == Array("#data".utf8) else { i += 1; continue }
        var t = TreeTest()
        i += 1
        var dataLines: [[UInt8]] = []
        while i < lines.count && !isHeader(lines[i]) { dataLines.append(lines[i]); i += 1 }
        t.data = Array(dataLines.joined(separator: [0x0A]))
        while i < lines.count {
            let h = String(decoding: lines[i], as: UTF8.self)
            i += 1
            switch h {
            case "#errors", "#new-errors":
                while i < lines.count && !isHeader(lines[i]) && !lines[i].isEmpty { t.errors += 1; i += 1 }
            case "#document-fragment":
                t.fragmentContext = String(decoding: lines[i], as: UTF8.self)
                i += 1
            case "#script-on": t.scripting = true
            case "#script-off": t.scripting = false
            case "#document":
                var doc: [[UInt8]] = []
                while i < lines.count && lines[i] != Array("#data".utf8) { doc.append(lines[i]); i += 1 }
                while let last = doc.last, last.isEmpty { doc.removeLast() }
                t.expected = String(decoding: Array(doc.joined(separator: [0x0A])), as: UTF8.self)
                tests.append(t)
            default:
                while i < lines.count && !isHeader(lines[i]) { i += 1 }
            }
            if h == "#document" { break }
        }
    }
    return tests
}

/// Runs the tests of one .dat file: (test id, passed, detail). Those marked `#script-on`
/// run with the scripting flag on (ids end in `@script-on`; reported apart), all others off.
func runTreeFile(_ bytes: [UInt8], name: String) -> [(String, Bool, String)] {
    var results: [(String, Bool, String)] = []
    for (index, t) in parseDat(bytes).enumerated() {
        let scripting = t.scripting == true
        let (actual, errors) = treeDump(t, scripting: scripting)
        if !scripting { errorStats.record(errors == t.errors, tokenizer: false) }
        let pass = actual == t.expected
        let detail = pass ? "" : "data: \(String(decoding: t.data, as: UTF8.self))\n" + (t.fragmentContext.map { "context: \($0)\n" } ?? "") + "expected:\n\(t.expected)\nactual:\n\(actual)"
        results.append(("tree-construction/\(name)#\(index)" + (scripting ? "@script-on" : ""), pass, detail))
    }
    return results
}

func treeDump(_ t: TreeTest, scripting: Bool) -> (String, Int) {
    var out: String
    var errors = 0
    if let ctx = t.fragmentContext {
        let (ns, name): (Namespace, String) = ctx.hasPrefix("svg ") ? (.svg, String(ctx.dropFirst(4)))
            : ctx.hasPrefix("math ") ? (.mathML, String(ctx.dropFirst(5))) : (.html, ctx)
        let doc = Document()
        let context = doc.createElement(name, namespace: ns)
        let (fragment, e) = HTMLParser.parseFragment(t.data, context: context, scripting: scripting)
        out = TreeDump.dump(childrenOf: fragment)
        errors = e
    } else {
        let result = HTMLParser.parseDocument(t.data, scripting: scripting)
        out = TreeDump.dump(childrenOf: result.document)
        errors = result.errorCount
    }
    while out.hasSuffix("\n") { out.removeLast() }
    return (out, errors)
}
