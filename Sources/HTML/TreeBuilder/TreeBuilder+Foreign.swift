import DOM

extension TreeBuilder {
    /// https://html.spec.whatwg.org/#parsing-main-inforeign
    func processForeignContent(_ token: inout TreeToken) -> Bool {
        switch token {
        case .characters(let s):
            var hasNUL = false
            for b in s where b == 0 { hasNUL = true; parseError() }
            if hasNUL {
                var out: [UInt8] = []
                for b in s { if b == 0 { out += [0xEF, 0xBF, 0xBD] } else { out.append(b) } }
                insertCharacters(out[...])
            } else {
                insertCharacters(s)
            }
            if framesetOK && s.contains(where: { !isSpaceByte($0) && $0 != 0 }) { framesetOK = false }
            return false
        case .comment(let c): insertComment(c); return false
        case .doctype: parseError(); return false
        case .startTag(var t):
            let breakout = TagSets.foreignBreakout.contains(t.name)
                || (t.name == "font" && t.attributes.contains { ["color", "face", "size"].contains($0.localName) })
            if breakout {
                parseError()
                popToHTMLContent()
                return processInMode(&token)
            }
            let adjusted = adjustedCurrentNode!
            let ns = adjusted.namespace
            if ns == .mathML { adjustMathMLAttributes(&t) }
            if ns == .svg {
                if let n = TagSets.svgTagNames[t.name] { t.name = n }
                adjustSVGAttributes(&t)
            }
            adjustForeignAttributes(&t)
            insertElement(t, namespace: ns)
            if t.selfClosing { pop() }
            return false
        case .endTag(let t):
            if t.name == "br" || t.name == "p" {
                parseError()
                popToHTMLContent()
                return processInMode(&token)
            }
            if t.name == "script", let c = currentNode, c.namespace == .svg, c.localName == "script" {
                pop()
                return false
            }
            var i = openElements.count - 1
            if asciiLowercased(openElements[i].localName) != t.name { parseError() }
            if !openElements.containsForeign(t.name) {
                // No element to close: the walk below would end at an HTML element (the root
                // at the latest) without a match; skip it (deep SVG and a stream of stray end
                // tags would make it quadratic).
                return i > 0 ? processInMode(&token) : false
            }
            while i > 0 {
                let node = openElements[i]
                if asciiLowercased(node.localName) == t.name {
                    popUntilElement(node)
                    return false
                }
                i -= 1
                if openElements[i].namespace == .html {
                    return processInMode(&token)
                }
            }
            return false
        case .endOfFile:
            return processInMode(&token)
        }
    }

    /// Pops until the current node is an HTML element or an integration point.
    func popToHTMLContent() {
        while let c = currentNode, c.namespace != .html, !isMathMLTextIntegrationPoint(c), !isHTMLIntegrationPoint(c) {
            pop()
        }
    }

    func adjustMathMLAttributes(_ t: inout Tag) {
        for i in t.attributes.indices where t.attributes[i].localName == "definitionurl" {
            t.attributes[i].localName = "definitionURL"
        }
    }

    func adjustSVGAttributes(_ t: inout Tag) {
        for i in t.attributes.indices {
            if let n = TagSets.svgAttributeNames[t.attributes[i].localName] { t.attributes[i].localName = n }
        }
    }

    func adjustForeignAttributes(_ t: inout Tag) {
        for i in t.attributes.indices {
            if let (ns, prefix, local) = TagSets.foreignAttributes[t.attributes[i].localName] {
                t.attributes[i].namespace = ns
                t.attributes[i].prefix = prefix
                t.attributes[i].localName = local
            }
        }
    }
}
