import DOM

// The insertion modes other than "in body" (https://html.spec.whatwg.org/#tree-construction).
// Each returns true when the token (perhaps shortened, for a character run) must be reprocessed.

@inline(__always) func isSpaceByte(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0C || b == 0x0D }

/// The number of leading whitespace bytes.
func leadingSpaceCount(_ s: ArraySlice<UInt8>) -> Int {
    var n = 0
    for b in s { if isSpaceByte(b) { n += 1 } else { break } }
    return n
}

/// The length in bytes of the UTF-8 character at the start of `s`.
func firstCharacterLength(_ s: ArraySlice<UInt8>) -> Int {
    guard let b = s.first else { return 0 }
    let len = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4
    return min(len, s.count)
}

extension TreeBuilder {
    // MARK: - initial, before html, before head

    func initialMode(_ token: inout TreeToken) -> Bool {
        switch token {
        case .characters(let s):
            let n = leadingSpaceCount(s)
            if n == s.count { return false }
            token = .characters(s.dropFirst(n))
        case .comment(let c): insertComment(c, into: document); return false
        case .doctype(let d):
            let name = d.name.map { String(decoding: $0, as: UTF8.self) } ?? ""
            let publicId = d.publicId.map { String(decoding: $0, as: UTF8.self) }
            let systemId = d.systemId.map { String(decoding: $0, as: UTF8.self) }
            if name != "html" || publicId != nil || (systemId != nil && systemId != "about:legacy-compat") { parseError() }
            document.appendChild(DocumentType(document: document, name: name, publicId: publicId ?? "", systemId: systemId ?? ""))
            document.mode = Quirks.mode(name: name, publicId: publicId, systemId: systemId, forceQuirks: d.forceQuirks)
            mode = .beforeHTML
            return false
        default: break
        }
        parseError()
        document.mode = .quirks
        mode = .beforeHTML
        return true
    }

    func beforeHTMLMode(_ token: inout TreeToken) -> Bool {
        switch token {
        case .doctype: parseError(); return false
        case .comment(let c): insertComment(c, into: document); return false
        case .characters(let s):
            let n = leadingSpaceCount(s)
            if n == s.count { return false }
            token = .characters(s.dropFirst(n))
        case .startTag(let t) where t.name == "html":
            let e = createElement(for: t, namespace: .html)
            document.appendChild(e)
            openElements.append(e)
            mode = .beforeHead
            return false
        case .endTag(let t) where !["head", "body", "html", "br"].contains(t.name):
            parseError()
            return false
        default: break
        }
        let e = Element(document: document, namespace: .html, localName: "html")
        document.appendChild(e)
        openElements.append(e)
        mode = .beforeHead
        return true
    }

    func beforeHeadMode(_ token: inout TreeToken) -> Bool {
        switch token {
        case .characters(let s):
            let n = leadingSpaceCount(s)
            if n == s.count { return false }
            token = .characters(s.dropFirst(n))
        case .comment(let c): insertComment(c); return false
        case .doctype: parseError(); return false
        case .startTag(let t) where t.name == "html": return inBodyMode(&token)
        case .startTag(let t) where t.name == "head":
            headElement = insertElement(t)
            mode = .inHead
            return false
        case .endTag(let t) where !["head", "body", "html", "br"].contains(t.name):
            parseError()
            return false
        default: break
        }
        headElement = insertHTMLElement(named: "head")
        mode = .inHead
        return true
    }

    // MARK: - in head

    func inHeadMode(_ token: inout TreeToken) -> Bool {
        switch token {
        case .characters(let s):
            let n = leadingSpaceCount(s)
            insertCharacters(s.prefix(n))
            if n == s.count { return false }
            token = .characters(s.dropFirst(n))
        case .comment(let c): insertComment(c); return false
        case .doctype: parseError(); return false
        case .startTag(let t):
            switch t.name {
            case "html": return inBodyMode(&token)
            case "base", "basefont", "bgsound", "link", "meta":
                insertElement(t)
                pop()
                return false
            case "title": genericText(t, rcdata: true); return false
            case "noscript" where scripting: genericText(t, rcdata: false); return false
            case "noframes", "style": genericText(t, rcdata: false); return false
            case "noscript":
                insertElement(t)
                mode = .inHeadNoscript
                return false
            case "script":
                insertElement(t)
                tokenizer.state = .scriptData
                originalMode = mode
                mode = .text
                return false
            case "template":
                insertElement(t)
                activeFormatting.append(.marker)
                framesetOK = false
                mode = .inTemplate
                templateModes.append(.inTemplate)
                return false
            case "head": parseError(); return false
            default: break
            }
        case .endTag(let t):
            switch t.name {
            case "head":
                pop()
                mode = .afterHead
                return false
            case "body", "html", "br": break
            case "template":
                if !hasTemplateOnStack() { parseError(); return false }
                generateImpliedEndTagsThoroughly()
                if !(currentNode?.isHTML("template") ?? false) { parseError() }
                popUntil("template")
                clearFormattingToLastMarker()
                templateModes.removeLast()
                resetInsertionMode()
                return false
            default: parseError(); return false
            }
        case .endOfFile: break
        }
        pop()
        mode = .afterHead
        return true
    }

    /// https://html.spec.whatwg.org/#generic-raw-text-element-parsing-algorithm (and RCDATA).
    func genericText(_ t: Tag, rcdata: Bool) {
        insertElement(t)
        tokenizer.state = rcdata ? .rcdata : .rawtext
        originalMode = mode
        mode = .text
    }

    func inHeadNoscriptMode(_ token: inout TreeToken) -> Bool {
        switch token {
        case .doctype: parseError(); return false
        case .startTag(let t) where t.name == "html": return inBodyMode(&token)
        case .endTag(let t) where t.name == "noscript":
            pop()
            mode = .inHead
            return false
        case .characters(let s):
            let n = leadingSpaceCount(s)
            insertCharacters(s.prefix(n))
            if n == s.count { return false }
            token = .characters(s.dropFirst(n))
        case .comment: return inHeadMode(&token)
        case .startTag(let t) where ["basefont", "bgsound", "link", "meta", "noframes", "style"].contains(t.name):
            return inHeadMode(&token)
        case .startTag(let t) where t.name == "head" || t.name == "noscript":
            parseError()
            return false
        case .endTag(let t) where t.name != "br":
            parseError()
            return false
        default: break
        }
        parseError()
        pop()
        mode = .inHead
        return true
    }

    // MARK: - after head

    func afterHeadMode(_ token: inout TreeToken) -> Bool {
        switch token {
        case .characters(let s):
            let n = leadingSpaceCount(s)
            insertCharacters(s.prefix(n))
            if n == s.count { return false }
            token = .characters(s.dropFirst(n))
        case .comment(let c): insertComment(c); return false
        case .doctype: parseError(); return false
        case .startTag(let t):
            switch t.name {
            case "html": return inBodyMode(&token)
            case "body":
                insertElement(t)
                framesetOK = false
                mode = .inBody
                return false
            case "frameset":
                insertElement(t)
                mode = .inFrameset
                return false
            case "base", "basefont", "bgsound", "link", "meta", "noframes", "script", "style", "template", "title":
                parseError()
                guard let head = headElement else { return false }
                openElements.append(head)
                let again = inHeadMode(&token)
                removeFromStack(head)
                return again
            case "head": parseError(); return false
            default: break
            }
        case .endTag(let t):
            switch t.name {
            case "template": return inHeadMode(&token)
            case "body", "html", "br": break
            default: parseError(); return false
            }
        case .endOfFile: break
        }
        insertHTMLElement(named: "body")
        mode = .inBody
        return true
    }

    // MARK: - text

    func textMode(_ token: inout TreeToken) -> Bool {
        switch token {
        case .characters(let s): insertCharacters(s); return false
        case .endOfFile:
            parseError()
            pop()
            mode = originalMode
            return true
        case .endTag:
            pop()
            mode = originalMode
            return false
        default: return false
        }
    }

    // MARK: - tables

    func clearStackBackTo(_ names: Set<String>) {
        while let e = currentNode, !(e.namespace == .html && names.contains(e.localName)) { pop() }
    }

    func clearStackBackToTableContext() { clearStackBackTo(TagSets.tableContext) }
    func clearStackBackToTableBodyContext() { clearStackBackTo(TagSets.tableBodyContext) }
    func clearStackBackToTableRowContext() { clearStackBackTo(TagSets.tableRowContext) }

    func inTableMode(_ token: inout TreeToken) -> Bool {
        switch token {
        case .characters:
            if let c = currentNode, c.namespace == .html, ["table", "tbody", "template", "tfoot", "thead", "tr"].contains(c.localName) {
                pendingTableText.removeAll(keepingCapacity: true)
                pendingTableTextHasNonSpace = false
                originalMode = mode
                mode = .inTableText
                return true
            }
        case .comment(let c): insertComment(c); return false
        case .doctype: parseError(); return false
        case .startTag(let t):
            switch t.name {
            case "caption":
                clearStackBackToTableContext()
                activeFormatting.append(.marker)
                insertElement(t)
                mode = .inCaption
                return false
            case "colgroup":
                clearStackBackToTableContext()
                insertElement(t)
                mode = .inColumnGroup
                return false
            case "col":
                clearStackBackToTableContext()
                insertHTMLElement(named: "colgroup")
                mode = .inColumnGroup
                return true
            case "tbody", "tfoot", "thead":
                clearStackBackToTableContext()
                insertElement(t)
                mode = .inTableBody
                return false
            case "td", "th", "tr":
                clearStackBackToTableContext()
                insertHTMLElement(named: "tbody")
                mode = .inTableBody
                return true
            case "table":
                parseError()
                if !hasInScope("table", .table) { return false }
                popUntil("table")
                resetInsertionMode()
                return true
            case "style", "script", "template": return inHeadMode(&token)
            case "input":
                if let type = t.attribute("type"), asciiLowercased(type) == "hidden" {
                    parseError()
                    insertElement(t)
                    pop()
                    return false
                }
            case "form":
                parseError()
                if hasTemplateOnStack() || formElement != nil { return false }
                formElement = insertElement(t)
                pop()
                return false
            default: break
            }
        case .endTag(let t):
            switch t.name {
            case "table":
                if !hasInScope("table", .table) { parseError(); return false }
                popUntil("table")
                resetInsertionMode()
                return false
            case "body", "caption", "col", "colgroup", "html", "tbody", "td", "tfoot", "th", "thead", "tr":
                parseError()
                return false
            case "template": return inHeadMode(&token)
            default: break
            }
        case .endOfFile: return inBodyMode(&token)
        }
        // Anything else: foster parenting.
        parseError()
        fosterParenting = true
        let again = inBodyMode(&token)
        fosterParenting = false
        return again
    }

    func inTableTextMode(_ token: inout TreeToken) -> Bool {
        if case .characters(let s) = token {
            for b in s {
                if b == 0 { parseError(); continue }
                if !isSpaceByte(b) { pendingTableTextHasNonSpace = true }
                pendingTableText.append(b)
            }
            return false
        }
        if pendingTableTextHasNonSpace {
            // Non-whitespace: as "anything else" in the table, foster parented.
            parseError()
            var t = TreeToken.characters(pendingTableText[...])
            fosterParenting = true
            _ = inBodyMode(&t)
            fosterParenting = false
        } else {
            insertCharacters(pendingTableText[...])
        }
        pendingTableText.removeAll(keepingCapacity: true)
        mode = originalMode
        return true
    }

    func inCaptionMode(_ token: inout TreeToken) -> Bool {
        switch token {
        case .endTag(let t) where t.name == "caption":
            _ = closeCaption()
            return false
        case .startTag(let t) where ["caption", "col", "colgroup", "tbody", "td", "tfoot", "th", "thead", "tr"].contains(t.name):
            return closeCaption()
        case .endTag(let t) where t.name == "table":
            return closeCaption()
        case .endTag(let t) where ["body", "col", "colgroup", "html", "tbody", "td", "tfoot", "th", "thead", "tr"].contains(t.name):
            parseError()
            return false
        default:
            return inBodyMode(&token)
        }
    }

    /// Closes the caption; true when it was there (so the token is reprocessed).
    func closeCaption() -> Bool {
        if !hasInScope("caption", .table) { parseError(); return false }
        generateImpliedEndTags()
        if !(currentNode?.isHTML("caption") ?? false) { parseError() }
        popUntil("caption")
        clearFormattingToLastMarker()
        mode = .inTable
        return true
    }

    func inColumnGroupMode(_ token: inout TreeToken) -> Bool {
        switch token {
        case .characters(let s):
            let n = leadingSpaceCount(s)
            insertCharacters(s.prefix(n))
            if n == s.count { return false }
            token = .characters(s.dropFirst(n))
        case .comment(let c): insertComment(c); return false
        case .doctype: parseError(); return false
        case .startTag(let t) where t.name == "html": return inBodyMode(&token)
        case .startTag(let t) where t.name == "col":
            insertElement(t)
            pop()
            return false
        case .endTag(let t) where t.name == "colgroup":
            if !(currentNode?.isHTML("colgroup") ?? false) { parseError(); return false }
            pop()
            mode = .inTable
            return false
        case .endTag(let t) where t.name == "col": parseError(); return false
        case .startTag(let t) where t.name == "template": return inHeadMode(&token)
        case .endTag(let t) where t.name == "template": return inHeadMode(&token)
        case .endOfFile: return inBodyMode(&token)
        default: break
        }
        if !(currentNode?.isHTML("colgroup") ?? false) {
            parseError()
            if case .characters(let s) = token {
                // One character is ignored; the rest (perhaps whitespace) is reprocessed.
                let rest = s.dropFirst(firstCharacterLength(s))
                token = .characters(rest)
                return !rest.isEmpty
            }
            return false
        }
        pop()
        mode = .inTable
        return true
    }

    func inTableBodyMode(_ token: inout TreeToken) -> Bool {
        switch token {
        case .startTag(let t) where t.name == "tr":
            clearStackBackToTableBodyContext()
            insertElement(t)
            mode = .inRow
            return false
        case .startTag(let t) where t.name == "th" || t.name == "td":
            parseError()
            clearStackBackToTableBodyContext()
            insertHTMLElement(named: "tr")
            mode = .inRow
            return true
        case .endTag(let t) where TagSets.tableSections.contains(t.name):
            if !hasInScope(t.name, .table) { parseError(); return false }
            clearStackBackToTableBodyContext()
            pop()
            mode = .inTable
            return false
        case .startTag(let t) where ["caption", "col", "colgroup", "tbody", "tfoot", "thead"].contains(t.name):
            return leaveTableBody()
        case .endTag(let t) where t.name == "table":
            return leaveTableBody()
        case .endTag(let t) where ["body", "caption", "col", "colgroup", "html", "td", "th", "tr"].contains(t.name):
            parseError()
            return false
        default:
            return inTableMode(&token)
        }
    }

    func leaveTableBody() -> Bool {
        if !hasInScope(where: { $0.namespace == .html && TagSets.tableSections.contains($0.localName) }, .table) {
            parseError()
            return false
        }
        clearStackBackToTableBodyContext()
        pop()
        mode = .inTable
        return true
    }

    func inRowMode(_ token: inout TreeToken) -> Bool {
        switch token {
        case .startTag(let t) where t.name == "th" || t.name == "td":
            clearStackBackToTableRowContext()
            insertElement(t)
            mode = .inCell
            activeFormatting.append(.marker)
            return false
        case .endTag(let t) where t.name == "tr":
            _ = closeRow()
            return false
        case .startTag(let t) where ["caption", "col", "colgroup", "tbody", "tfoot", "thead", "tr"].contains(t.name):
            return closeRow()
        case .endTag(let t) where t.name == "table":
            return closeRow()
        case .endTag(let t) where TagSets.tableSections.contains(t.name):
            if !hasInScope(t.name, .table) { parseError(); return false }
            if !hasInScope("tr", .table) { return false }
            return closeRow()
        case .endTag(let t) where ["body", "caption", "col", "colgroup", "html", "td", "th"].contains(t.name):
            parseError()
            return false
        default:
            return inTableMode(&token)
        }
    }

    func closeRow() -> Bool {
        if !hasInScope("tr", .table) { parseError(); return false }
        clearStackBackToTableRowContext()
        pop()
        mode = .inTableBody
        return true
    }

    func inCellMode(_ token: inout TreeToken) -> Bool {
        switch token {
        case .endTag(let t) where t.name == "td" || t.name == "th":
            if !hasInScope(t.name, .table) { parseError(); return false }
            generateImpliedEndTags()
            if !(currentNode?.isHTML(t.name) ?? false) { parseError() }
            popUntil(t.name)
            clearFormattingToLastMarker()
            mode = .inRow
            return false
        case .startTag(let t) where ["caption", "col", "colgroup", "tbody", "td", "tfoot", "th", "thead", "tr"].contains(t.name):
            if !hasInScope("td", .table) && !hasInScope("th", .table) { parseError(); return false }
            closeCell()
            return true
        case .endTag(let t) where ["body", "caption", "col", "colgroup", "html"].contains(t.name):
            parseError()
            return false
        case .endTag(let t) where ["table", "tbody", "tfoot", "thead", "tr"].contains(t.name):
            if !hasInScope(t.name, .table) { parseError(); return false }
            closeCell()
            return true
        default:
            return inBodyMode(&token)
        }
    }

    func closeCell() {
        generateImpliedEndTags()
        if !(currentNode.map { $0.isHTML("td") || $0.isHTML("th") } ?? false) { parseError() }
        popUntil { $0.isHTML("td") || $0.isHTML("th") }
        clearFormattingToLastMarker()
        mode = .inRow
    }

    // MARK: - in template

    func inTemplateMode(_ token: inout TreeToken) -> Bool {
        switch token {
        case .characters, .comment, .doctype: return inBodyMode(&token)
        case .startTag(let t):
            let newMode: Mode
            switch t.name {
            case "base", "basefont", "bgsound", "link", "meta", "noframes", "script", "style", "template", "title":
                return inHeadMode(&token)
            case "caption", "colgroup", "tbody", "tfoot", "thead": newMode = .inTable
            case "col": newMode = .inColumnGroup
            case "tr": newMode = .inTableBody
            case "td", "th": newMode = .inRow
            default: newMode = .inBody
            }
            templateModes.removeLast()
            templateModes.append(newMode)
            mode = newMode
            return true
        case .endTag(let t):
            if t.name == "template" { return inHeadMode(&token) }
            parseError()
            return false
        case .endOfFile:
            if !hasTemplateOnStack() { return false }
            parseError()
            popUntil("template")
            clearFormattingToLastMarker()
            templateModes.removeLast()
            resetInsertionMode()
            return true
        }
    }

    // MARK: - after body, framesets

    func afterBodyMode(_ token: inout TreeToken) -> Bool {
        switch token {
        case .characters(let s):
            let n = leadingSpaceCount(s)
            if n > 0 {
                var ws = TreeToken.characters(s.prefix(n))
                _ = inBodyMode(&ws)
            }
            if n == s.count { return false }
            token = .characters(s.dropFirst(n))
        case .comment(let c): insertComment(c, into: openElements[0]); return false
        case .doctype: parseError(); return false
        case .startTag(let t) where t.name == "html": return inBodyMode(&token)
        case .endTag(let t) where t.name == "html":
            if context != nil { parseError(); return false }
            mode = .afterAfterBody
            return false
        case .endOfFile: return false
        default: break
        }
        parseError()
        mode = .inBody
        return true
    }

    func inFramesetMode(_ token: inout TreeToken) -> Bool {
        switch token {
        case .characters(let s): return framesetCharacters(&token, s)
        case .comment(let c): insertComment(c); return false
        case .doctype: parseError(); return false
        case .startTag(let t):
            switch t.name {
            case "html": return inBodyMode(&token)
            case "frameset": insertElement(t); return false
            case "frame": insertElement(t); pop(); return false
            case "noframes": return inHeadMode(&token)
            default: parseError(); return false
            }
        case .endTag(let t) where t.name == "frameset":
            if openElements.count == 1 && currentNode!.isHTML("html") { parseError(); return false }
            pop()
            if context == nil && !(currentNode?.isHTML("frameset") ?? false) { mode = .afterFrameset }
            return false
        case .endTag: parseError(); return false
        case .endOfFile:
            if openElements.count > 1 || !(currentNode?.isHTML("html") ?? true) { parseError() }
            return false
        }
    }

    /// Whitespace is inserted, anything else is a parse error and ignored (one character at a time).
    func framesetCharacters(_ token: inout TreeToken, _ s: ArraySlice<UInt8>) -> Bool {
        var spaces: [UInt8] = []
        for b in s {
            if isSpaceByte(b) { spaces.append(b) } else if b < 0x80 || b >= 0xC0 { parseError() }
        }
        insertCharacters(spaces[...])
        return false
    }

    func afterFramesetMode(_ token: inout TreeToken) -> Bool {
        switch token {
        case .characters(let s): return framesetCharacters(&token, s)
        case .comment(let c): insertComment(c); return false
        case .doctype: parseError(); return false
        case .startTag(let t) where t.name == "html": return inBodyMode(&token)
        case .endTag(let t) where t.name == "html": mode = .afterAfterFrameset; return false
        case .startTag(let t) where t.name == "noframes": return inHeadMode(&token)
        case .endOfFile: return false
        default: parseError(); return false
        }
    }

    func afterAfterBodyMode(_ token: inout TreeToken) -> Bool {
        switch token {
        case .comment(let c): insertComment(c, into: document); return false
        case .doctype: return inBodyMode(&token)
        case .characters(let s):
            let n = leadingSpaceCount(s)
            if n > 0 {
                var ws = TreeToken.characters(s.prefix(n))
                _ = inBodyMode(&ws)
            }
            if n == s.count { return false }
            token = .characters(s.dropFirst(n))
        case .startTag(let t) where t.name == "html": return inBodyMode(&token)
        case .endOfFile: return false
        default: break
        }
        parseError()
        mode = .inBody
        return true
    }

    func afterAfterFramesetMode(_ token: inout TreeToken) -> Bool {
        switch token {
        case .comment(let c): insertComment(c, into: document); return false
        case .doctype: return inBodyMode(&token)
        case .characters(let s):
            let n = leadingSpaceCount(s)
            if n > 0 {
                var ws = TreeToken.characters(s.prefix(n))
                _ = inBodyMode(&ws)
            }
            for b in s.dropFirst(n) where !isSpaceByte(b) && (b < 0x80 || b >= 0xC0) { parseError() }
            let rest = s.dropFirst(n).filter(isSpaceByte)
            if !rest.isEmpty {
                var ws = TreeToken.characters(rest[...])
                _ = inBodyMode(&ws)
            }
            return false
        case .startTag(let t) where t.name == "html": return inBodyMode(&token)
        case .startTag(let t) where t.name == "noframes": return inHeadMode(&token)
        case .endOfFile: return false
        default: parseError(); return false
        }
    }
}
