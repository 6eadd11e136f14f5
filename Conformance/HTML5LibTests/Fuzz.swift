import DOM
import HTML

/// `--fuzz N`: N inputs made by splicing and mutating the tree-construction tests' inputs,
/// each parsed as a document and as a fragment (random context), then serialized and the
/// serialization parsed again. A crash or a hang is the failure; prints the throughput.
func runFuzz(root: String, iterations: Int, seed: UInt64) {
    var corpus: [[UInt8]] = []
    let dir = root + "/tree-construction"
    for f in ((try? listDirectory(dir)) ?? []).filter({ $0.hasSuffix(".dat") }).sorted() {
        guard let bytes = readBytes(dir + "/" + f) else { continue }
        corpus += parseDat(bytes).map(\.data)
    }
    guard !corpus.isEmpty else { say("no corpus under \(dir)"); return }
    var state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed
    func next() -> Int {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return Int(truncatingIfNeeded: state & 0x7FFF_FFFF)
    }
    let contexts: [(Namespace, String)] = [(.html, "body"), (.html, "td"), (.html, "table"), (.html, "select"),
        (.html, "template"), (.html, "textarea"), (.html, "script"), (.svg, "svg"), (.mathML, "mi"), (.html, "tr")]
    let t0 = now()
    var bytesParsed = 0
    for i in 0..<iterations {
        var input = corpus[next() % corpus.count]
        for _ in 0..<(next() % 4) {
            let other = corpus[next() % corpus.count]
            switch next() % 4 {
            case 0: input += other
            case 1 where !input.isEmpty: input.insert(contentsOf: other, at: next() % input.count)
            case 2 where !input.isEmpty: input[next() % input.count] = UInt8(truncatingIfNeeded: next())
            default: if input.count > 2 { input.removeSubrange((next() % input.count)...) }
            }
        }
        bytesParsed += input.count
        let doc = HTMLParser.parseDocument(input).document
        let html = HTMLSerializer.innerHTML(doc)
        _ = HTMLParser.parseDocument(Array(html.utf8))
        _ = TreeDump.dump(childrenOf: doc)
        let (ns, name) = contexts[next() % contexts.count]
        let context = Document().createElement(name, namespace: ns)
        let (fragment, _) = HTMLParser.parseFragment(input, context: context)
        _ = HTMLSerializer.innerHTML(fragment)
        if (i + 1) % 10_000 == 0 { say("\(i + 1) inputs") }
    }
    say(String(format: "fuzz: %d inputs (%.1f MB) parsed, serialized and reparsed without a crash in %.1f s",
               iterations, Double(bytesParsed) / 1e6, now() - t0))
}
