import DOM

extension TreeBuilder {
    /// https://html.spec.whatwg.org/#parsing-main-inbody
    func inBodyMode(_ token: inout TreeToken) -> Bool {
        switch token {
        case .characters(let s):
            var hasNUL = false
            for b in s where b == 0 { hasNUL = true; parseError() }
            let text = hasNUL ? s.filter { $0 != 0 }[...] : s
            if text.isEmpty { return false }
            reconstructActiveFormatting()
            insertCharacters(text)
            if framesetOK && text.contains(where: { !isSpaceByte($0) }) { framesetOK = false }
            return false
        case .comment(let c): insertComment(c); return false
        case .doctype: parseError(); return false
        case .startTag(let t): return inBodyStartTag(&token, t)
        case .endTag(let t): return inBodyEndTag(t)
        case .endOfFile:
            if !templateModes.isEmpty { return inTemplateMode(&token) }
            return false
        }
    }

    func inBodyStartTag(_ token: inout TreeToken, _ t: Tag) -> Bool {
        if !TagSets.inBodyStartTags.contains(t.name) {
            // Any other start tag (the common case: span, label, ...).
            reconstructActiveFormatting()
            insertElement(t)
            return false
        }
        switch t.name {
        case "html":
            parseError()
            if hasTemplateOnStack() { return false }
            addMissingAttributes(t, to: openElements[0])
        case "base", "basefont", "bgsound", "link", "meta", "noframes", "script", "style", "template", "title":
            return inHeadMode(&token)
        case "body":
            parseError()
            if openElements.count == 1 || !openElements[1].isHTML("body") || hasTemplateOnStack() { return false }
            framesetOK = false
            addMissingAttributes(t, to: openElements[1])
        case "frameset":
            parseError()
            if openElements.count == 1 || !openElements[1].isHTML("body") { return false }
            if !framesetOK { return false }
            openElements[1].remove()
            while openElements.count > 1 { pop() }
            insertElement(t)
            mode = .inFrameset
        case "address", "article", "aside", "blockquote", "center", "details", "dialog", "dir", "div", "dl",
             "fieldset", "figcaption", "figure", "footer", "header", "hgroup", "main", "menu", "nav", "ol", "p",
             "search", "section", "summary", "ul":
            closePIfInButtonScope()
            insertElement(t)
        case "h1", "h2", "h3", "h4", "h5", "h6":
            closePIfInButtonScope()
            if let c = currentNode, c.namespace == .html, TagSets.headings.contains(c.localName) {
                parseError()
                pop()
            }
            insertElement(t)
        case "pre", "listing":
            closePIfInButtonScope()
            insertElement(t)
            skipNextNewline = true
            framesetOK = false
        case "form":
            let template = hasTemplateOnStack()
            if formElement != nil && !template { parseError(); return false }
            closePIfInButtonScope()
            let e = insertElement(t)
            if !template { formElement = e }
        case "li", "dd", "dt":
            framesetOK = false
            var i = openElements.count - 1
            while i >= 0 {
                let node = openElements[i]
                let matches = t.name == "li" ? node.isHTML("li") : (node.isHTML("dd") || node.isHTML("dt"))
                if matches {
                    let name = node.localName
                    generateImpliedEndTags(except: name)
                    if !(currentNode?.isHTML(name) ?? false) { parseError() }
                    popUntil(name)
                    break
                }
                if isSpecial(node) && !(node.isHTML("address") || node.isHTML("div") || node.isHTML("p")) { break }
                i -= 1
            }
            closePIfInButtonScope()
            insertElement(t)
        case "plaintext":
            closePIfInButtonScope()
            insertElement(t)
            tokenizer.state = .plaintext
        case "button":
            if hasInScope("button") {
                parseError()
                generateImpliedEndTags()
                popUntil("button")
            }
            reconstructActiveFormatting()
            insertElement(t)
            framesetOK = false
        case "a":
            if let a = lastFormattingElement(named: "a") {
                parseError()
                if adoptionAgency("a") { anyOtherEndTag("a") }
                if let i = formattingIndex(of: a) { activeFormatting.remove(at: i) }
                removeFromStack(a)
            }
            reconstructActiveFormatting()
            pushFormatting(insertElement(t))
        case "b", "big", "code", "em", "font", "i", "s", "small", "strike", "strong", "tt", "u":
            reconstructActiveFormatting()
            pushFormatting(insertElement(t))
        case "nobr":
            reconstructActiveFormatting()
            if hasInScope("nobr") {
                parseError()
                if adoptionAgency("nobr") { anyOtherEndTag("nobr") }
                reconstructActiveFormatting()
            }
            pushFormatting(insertElement(t))
        case "applet", "marquee", "object":
            reconstructActiveFormatting()
            insertElement(t)
            activeFormatting.append(.marker)
            framesetOK = false
        case "table":
            if document.mode != .quirks { closePIfInButtonScope() }
            insertElement(t)
            framesetOK = false
            mode = .inTable
        case "area", "br", "embed", "img", "keygen", "wbr":
            reconstructActiveFormatting()
            insertElement(t)
            pop()
            framesetOK = false
        case "input":
            if closeSelectIfInScope() { return false }
            reconstructActiveFormatting()
            insertElement(t)
            pop()
            if !(t.attribute("type").map { asciiLowercased($0) == "hidden" } ?? false) { framesetOK = false }
        case "param", "source", "track":
            insertElement(t)
            pop()
        case "hr":
            closePIfInButtonScope()
            if hasInScope("select") {
                generateImpliedEndTags()
                if hasInScope("option") || hasInScope("optgroup") { parseError() }
            }
            insertElement(t)
            pop()
            framesetOK = false
        case "image":
            parseError()
            var img = t
            img.name = "img"
            token = .startTag(img)
            return true
        case "textarea":
            insertElement(t)
            skipNextNewline = true
            tokenizer.state = .rcdata
            originalMode = mode
            framesetOK = false
            mode = .text
        case "xmp":
            closePIfInButtonScope()
            reconstructActiveFormatting()
            framesetOK = false
            genericText(t, rcdata: false)
        case "iframe":
            framesetOK = false
            genericText(t, rcdata: false)
        case "noembed":
            genericText(t, rcdata: false)
        case "noscript" where scripting:
            genericText(t, rcdata: false)
        case "select":
            if let context, context.isHTML("select") { parseError(); return false }
            if hasInScope("select") {
                parseError()
                popUntil("select")
                return false
            }
            reconstructActiveFormatting()
            insertElement(t)
            framesetOK = false
        case "option":
            if hasInScope("select") {
                generateImpliedEndTags(except: "optgroup")
                if hasInScope("option") { parseError() }
            } else if currentNode?.isHTML("option") ?? false {
                pop()
            }
            reconstructActiveFormatting()
            insertElement(t)
        case "optgroup":
            if hasInScope("select") {
                generateImpliedEndTags()
                if hasInScope("option") || hasInScope("optgroup") { parseError() }
            } else if currentNode?.isHTML("option") ?? false {
                pop()
            }
            reconstructActiveFormatting()
            insertElement(t)
        case "rb", "rtc":
            if hasInScope("ruby") {
                generateImpliedEndTags()
                if !(currentNode?.isHTML("ruby") ?? false) { parseError() }
            }
            insertElement(t)
        case "rp", "rt":
            if hasInScope("ruby") {
                generateImpliedEndTags(except: "rtc")
                if !(currentNode.map { $0.isHTML("ruby") || $0.isHTML("rtc") } ?? false) { parseError() }
            }
            insertElement(t)
        case "math", "svg":
            reconstructActiveFormatting()
            var f = t
            if t.name == "math" { adjustMathMLAttributes(&f) } else { adjustSVGAttributes(&f) }
            adjustForeignAttributes(&f)
            insertElement(f, namespace: t.name == "math" ? .mathML : .svg)
            if t.selfClosing { pop() }
        case "caption", "col", "colgroup", "frame", "head", "tbody", "td", "tfoot", "th", "thead", "tr":
            parseError()
        default:
            reconstructActiveFormatting()
            insertElement(t)
        }
        return false
    }

    /// The `select` rule for `input`: it closes an open select; in a
    /// fragment parsed for a select they are ignored (true).
    func closeSelectIfInScope() -> Bool {
        if context?.isHTML("select") ?? false { parseError(); return true }
        if hasInScope("select") {
            parseError()
            popUntil("select")
        }
        return false
    }

    func addMissingAttributes(_ t: Tag, to e: Element) {
        for a in t.attributes where !e.attributes.contains(where: { $0.localName == a.localName && $0.namespace == a.namespace }) {
            e.attributes.append(a)
        }
    }

    func lastFormattingElement(named name: String) -> Element? {
        var i = activeFormatting.count - 1
        while i >= 0 {
            guard case .element(let e) = activeFormatting[i] else { return nil }
            if e.isHTML(name) { return e }
            i -= 1
        }
        return nil
    }

    func inBodyEndTag(_ t: Tag) -> Bool {
        if !TagSets.inBodyEndTags.contains(t.name) {
            anyOtherEndTag(t.name)
            return false
        }
        switch t.name {
        case "template":
            var tok = TreeToken.endTag(t)
            return inHeadMode(&tok)
        case "body", "html":
            if !hasInScope("body") { parseError(); return false }
            mode = .afterBody
            return t.name == "html"
        case "address", "article", "aside", "blockquote", "button", "center", "details", "dialog", "dir", "div",
             "dl", "fieldset", "figcaption", "figure", "footer", "header", "hgroup", "listing", "main", "menu",
             "nav", "ol", "pre", "search", "section", "select", "summary", "ul":
            if !hasInScope(t.name) { parseError(); return false }
            generateImpliedEndTags()
            if !(currentNode?.isHTML(t.name) ?? false) { parseError() }
            popUntil(t.name)
        case "form":
            if !hasTemplateOnStack() {
                let node = formElement
                formElement = nil
                guard let node, hasElementInScope(node) else { parseError(); return false }
                generateImpliedEndTags()
                if currentNode !== node { parseError() }
                removeFromStack(node)
            } else {
                if !hasInScope("form") { parseError(); return false }
                generateImpliedEndTags()
                if !(currentNode?.isHTML("form") ?? false) { parseError() }
                popUntil("form")
            }
        case "p":
            if !hasInScope("p", .button) {
                parseError()
                insertHTMLElement(named: "p")
            }
            closePElement()
        case "li":
            if !hasInScope("li", .listItem) { parseError(); return false }
            generateImpliedEndTags(except: "li")
            if !(currentNode?.isHTML("li") ?? false) { parseError() }
            popUntil("li")
        case "dd", "dt":
            if !hasInScope(t.name) { parseError(); return false }
            generateImpliedEndTags(except: t.name)
            if !(currentNode?.isHTML(t.name) ?? false) { parseError() }
            popUntil(t.name)
        case "h1", "h2", "h3", "h4", "h5", "h6":
            let isHeading: (Element) -> Bool = { $0.namespace == .html && TagSets.headings.contains($0.localName) }
            if !hasInScope(where: isHeading) { parseError(); return false }
            generateImpliedEndTags()
            if !(currentNode?.isHTML(t.name) ?? false) { parseError() }
            popUntil(where: isHeading)
        case "a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike", "strong", "tt", "u":
            if adoptionAgency(t.name) { anyOtherEndTag(t.name) }
        case "applet", "marquee", "object":
            if !hasInScope(t.name) { parseError(); return false }
            generateImpliedEndTags()
            if !(currentNode?.isHTML(t.name) ?? false) { parseError() }
            popUntil(t.name)
            clearFormattingToLastMarker()
        case "br":
            parseError()
            reconstructActiveFormatting()
            insertHTMLElement(named: "br")
            pop()
            framesetOK = false
        default:
            anyOtherEndTag(t.name)
        }
        return false
    }

    /// "Any other end tag" of "in body".
    func anyOtherEndTag(_ name: String) {
        // Without such an element open the walk can only end at a special element: an error.
        guard openElements.containsHTML(name) else { parseError(); return }
        var i = openElements.count - 1
        while i >= 0 {
            let node = openElements[i]
            if node.isHTML(name) {
                generateImpliedEndTags(except: name)
                if node !== currentNode { parseError() }
                popUntilElement(node)
                return
            }
            if isSpecial(node) { parseError(); return }
            i -= 1
        }
    }

    /// https://html.spec.whatwg.org/#adoption-agency-algorithm. Returns true when the caller
    /// must act as for "any other end tag".
    func adoptionAgency(_ subject: String) -> Bool {
        if let c = currentNode, c.isHTML(subject), formattingIndex(of: c) == nil {
            pop()
            return false
        }
        for _ in 0..<8 {
            // The formatting element: the last in the list (after the last marker) named `subject`.
            guard let formatting = lastFormattingElement(named: subject) else { return true }
            guard openElements.contains(formatting), let stackIndex = openElements.lastIndex(where: { $0 === formatting }) else {
                parseError()
                if let i = formattingIndex(of: formatting) { activeFormatting.remove(at: i) }
                return false
            }
            if !hasElementInScope(formatting) { parseError(); return false }
            if formatting !== currentNode { parseError() }
            var furthestIndex: Int?
            for i in (stackIndex + 1)..<openElements.count where isSpecial(openElements[i]) {
                furthestIndex = i
                break
            }
            guard let fbIndex = furthestIndex else {
                while openElements.count > stackIndex { pop() }
                if let i = formattingIndex(of: formatting) { activeFormatting.remove(at: i) }
                return false
            }
            let furthestBlock = openElements[fbIndex]
            let commonAncestor = openElements[stackIndex - 1]
            var bookmark = formattingIndex(of: formatting)!
            var node = furthestBlock
            var lastNode = furthestBlock
            var nodeIndex = fbIndex
            var inner = 0
            while true {
                inner += 1
                nodeIndex -= 1
                node = openElements[nodeIndex]
                if node === formatting { break }
                var listIndex = formattingIndex(of: node)
                if inner > 3, let li = listIndex {
                    activeFormatting.remove(at: li)
                    if li < bookmark { bookmark -= 1 }
                    listIndex = nil
                }
                guard let li = listIndex else {
                    openElements.remove(at: nodeIndex)
                    continue
                }
                let replacement = Element(link: ownerLink, namespace: node.namespace, localName: node.localName, attributes: node.attributes)
                activeFormatting[li] = .element(replacement)
                openElements.replace(at: nodeIndex, with: replacement)
                node = replacement
                if lastNode === furthestBlock { bookmark = li + 1 }
                node.appendChild(lastNode)
                lastNode = node
            }
            let (parent, before) = appropriatePlace(overrideTarget: commonAncestor)
            parent.insertBefore(lastNode, before)
            let newElement = Element(link: ownerLink, namespace: formatting.namespace, localName: formatting.localName, attributes: formatting.attributes)
            furthestBlock.moveChildren(to: newElement)
            furthestBlock.appendChild(newElement)
            if let i = formattingIndex(of: formatting) {
                activeFormatting.remove(at: i)
                if i < bookmark { bookmark -= 1 }
            }
            activeFormatting.insert(.element(newElement), at: min(bookmark, activeFormatting.count))
            removeFromStack(formatting)
            let fb = openElements.lastIndex(where: { $0 === furthestBlock })!
            openElements.insert(newElement, at: fb + 1)
        }
        return false
    }
}
