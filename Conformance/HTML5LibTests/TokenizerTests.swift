import HTML

/// Runs one tokenizer test file: (test id, passed, detail) per run.
func runTokenizerFile(_ bytes: [UInt8], name: String) -> [(String, Bool, String)] {
    guard let json = try? JSON.parse(bytes) else { return [("\(name)#parse", false, "cannot parse JSON")] }
    let tests = json["tests"]?.array ?? json["xmlViolationTests"]?.array ?? []
    // xmlViolation.test expects the output coerced into an XML infoset
    // (https://html.spec.whatwg.org/#coercing-an-html-dom-into-an-infoset).
    let infoset = json["xmlViolationTests"] != nil
    let text: ([UInt8]) -> [UInt8] = { infoset ? coerceText($0) : $0 }
    let comment: ([UInt8]) -> [UInt8] = { infoset ? coerceComment($0) : $0 }
    var results: [(String, Bool, String)] = []
    for (index, test) in tests.enumerated() {
        let double = test["doubleEscaped"] == .bool(true)
        var input = test["input"]?.stringBytes ?? []
        if double { input = unescapeDouble(input) }
        let states = test["initialStates"]?.array?.compactMap(\.string) ?? ["Data state"]
        let expected = canonical(expected: test["output"]?.array ?? [], double: double)
        for stateName in states {
            var tokenizer = Tokenizer(input: InputStream.normalizeNewlines(input))
            switch stateName {
            case "PLAINTEXT state": tokenizer.state = .plaintext
            case "RCDATA state": tokenizer.state = .rcdata
            case "RAWTEXT state": tokenizer.state = .rawtext
            case "Script data state": tokenizer.state = .scriptData
            case "CDATA section state": tokenizer.state = .cdataSection
            default: tokenizer.state = .data
            }
            if let last = test["lastStartTag"]?.stringBytes { tokenizer.lastStartTagName = last }
            var actual: [String] = []
            var chars: [UInt8] = []
            func flushText() {
                if !chars.isEmpty { actual.append("Character " + show(text(chars))); chars = [] }
            }
            loop: while true {
                switch tokenizer.next() {
                case .characters(let c): chars += c
                case .endOfFile: break loop
                case .startTag(let t):
                    flushText()
                    let attrs = t.attributes.map { show($0.name) + "=" + show(text($0.value)) }.sorted()
                    actual.append("StartTag " + show(t.name) + " {" + attrs.joined(separator: ",") + "}" + (t.selfClosing ? " /" : ""))
                case .endTag(let t):
                    flushText()
                    actual.append("EndTag " + show(t.name))
                case .comment(let c):
                    flushText()
                    actual.append("Comment " + show(comment(c)))
                case .doctype(let d):
                    flushText()
                    actual.append("DOCTYPE " + showOpt(d.name) + " " + showOpt(d.publicId) + " " + showOpt(d.systemId) + " " + (d.forceQuirks ? "quirks" : "ok"))
                }
            }
            flushText()
            let id = "tokenizer/\(name)#\(index)" + (states.count > 1 || stateName != "Data state" ? "@\(stateName)" : "")
            let pass = actual == expected
            let expectedErrors = test["errors"]?.array?.count ?? 0
            errorStats.record(expectedErrors == tokenizer.errorCount, tokenizer: true)
            results.append((id, pass, pass ? "" : "input: \(show(input))\nexpected: \(expected)\nactual:   \(actual)"))
        }
    }
    return results
}

func show(_ b: [UInt8]) -> String {
    var s = ""
    for u in String(decoding: b, as: UTF8.self).unicodeScalars {
        if u.value < 0x20 || u.value == 0xFFFD { s += "\\u{\(String(u.value, radix: 16))}" } else { s.unicodeScalars.append(u) }
    }
    // Lone surrogates (WTF-8) decode as U+FFFD; show the raw bytes so they still compare.
    if b.contains(0xED) { s += "<" + b.map { String($0, radix: 16) }.joined(separator: " ") + ">" }
    return "\"" + s + "\""
}

func showOpt(_ b: [UInt8]?) -> String { b.map(show) ?? "null" }

func canonical(expected output: [JSON], double: Bool) -> [String] {
    var out: [String] = []
    var text: [UInt8] = []
    func str(_ j: JSON) -> [UInt8] {
        let s = j.stringBytes ?? []
        return double ? unescapeDouble(s) : s
    }
    for tok in output {
        guard let a = tok.array, let kind = a.first?.string else { continue }
        if kind == "Character" { text += str(a[1]); continue }
        if !text.isEmpty { out.append("Character " + show(text)); text = [] }
        switch kind {
        case "StartTag":
            var attrs: [String] = []
            if case .object(let members) = a[2] {
                attrs = members.map { show(double ? unescapeDouble($0.0) : $0.0) + "=" + show(str($0.1)) }.sorted()
            }
            out.append("StartTag " + show(str(a[1])) + " {" + attrs.joined(separator: ",") + "}" + (a.count > 3 && a[3] == .bool(true) ? " /" : ""))
        case "EndTag": out.append("EndTag " + show(str(a[1])))
        case "Comment": out.append("Comment " + show(str(a[1])))
        case "DOCTYPE":
            func opt(_ j: JSON) -> String { j == .null ? "null" : show(str(j)) }
            out.append("DOCTYPE " + opt(a[1]) + " " + opt(a[2]) + " " + opt(a[3]) + " " + (a[4] == .bool(true) ? "ok" : "quirks"))
        default: break
        }
    }
    if !text.isEmpty { out.append("Character " + show(text)) }
    return out
}

func coerceText(_ b: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    var i = 0
    while i < b.count {
        if b[i] == 0x0C { out.append(0x20); i += 1; continue }
        if b[i] == 0xEF && i + 2 < b.count && b[i + 1] == 0xBF && (b[i + 2] == 0xBE || b[i + 2] == 0xBF) {
            out += [0xEF, 0xBF, 0xBD]
            i += 3
            continue
        }
        out.append(b[i])
        i += 1
    }
    return out
}

func coerceComment(_ b: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    for c in b {
        if c == 0x2D && out.last == 0x2D { out.append(0x20) }
        out.append(c)
    }
    return out
}

/// How often the number of parse errors matches the tests' lists (reported, not required:
/// the tests count errors in the html5lib parser's own way in places).
struct ErrorStats {
    var tokenizerMatch = 0, tokenizerTotal = 0, treeMatch = 0, treeTotal = 0
    mutating func record(_ match: Bool, tokenizer: Bool) {
        if tokenizer {
            tokenizerTotal += 1
            if match { tokenizerMatch += 1 }
        } else {
            treeTotal += 1
            if match { treeMatch += 1 }
        }
    }
}
nonisolated(unsafe) var errorStats = ErrorStats()
