import DOM

/// The tree-construction stage (https://html.spec.whatwg.org/multipage/parsing.html#tree-construction).
///
/// Iterative throughout: the stack of open elements is an array, reprocessing is a loop,
/// and nothing recurses with the depth of the document.
final class TreeBuilder {
    enum Mode {
        case initial, beforeHTML, beforeHead, inHead, inHeadNoscript, afterHead, inBody, text
        case inTable, inTableText, inCaption, inColumnGroup, inTableBody, inRow, inCell
        case inTemplate, afterBody, inFrameset, afterFrameset, afterAfterBody, afterAfterFrameset
    }

    /// A tag token with its name and attributes as the DOM will hold them.
    struct Tag {
        var name: String
        var attributes: [Attribute]
        var selfClosing: Bool

        init(_ t: TagToken) {
            name = String(decoding: t.name, as: UTF8.self)
            attributes = t.attributes.map {
                Attribute(localName: String(decoding: $0.name, as: UTF8.self), value: String(decoding: $0.value, as: UTF8.self))
            }
            selfClosing = t.selfClosing
        }

        init(name: String) {
            self.name = name
            attributes = []
            selfClosing = false
        }

        func attribute(_ name: String) -> String? {
            for a in attributes where a.localName == name { return a.value }
            return nil
        }
    }

    enum TreeToken {
        case doctype(DoctypeToken)
        case startTag(Tag)
        case endTag(Tag)
        case comment([UInt8])
        case characters(ArraySlice<UInt8>)
        case endOfFile
    }

    enum FormattingEntry {
        case marker
        case element(Element)
    }

    var tokenizer: Tokenizer
    /// The tree's root: the document, or in the fragment case a document of the parser's own.
    let document: Document
    /// The document the new nodes belong to: the document, or the context element's.
    var owner: Document? {
        didSet { ownerLink = owner?.link }
    }
    /// Its link, which new nodes take (see `DOM.DocumentLink`).
    var ownerLink: DocumentLink?
    let scripting: Bool
    var mode: Mode = .initial
    var originalMode: Mode = .initial
    var templateModes: [Mode] = []
    var openElements = ElementStack()
    var activeFormatting: [FormattingEntry] = []
    var headElement: Element?
    var formElement: Element?
    var framesetOK = true
    var fosterParenting = false
    var pendingTableText: [UInt8] = []
    var pendingTableTextHasNonSpace = false
    var skipNextNewline = false
    /// The context element of the fragment case.
    var context: Element?
    var errorCount = 0

    init(tokenizer: Tokenizer, document: Document, scripting: Bool) {
        self.tokenizer = tokenizer
        self.document = document
        self.owner = document
        self.ownerLink = document.link
        self.scripting = scripting
    }

    // MARK: - Driving

    func run() {
        while true {
            let token = tokenizer.next()
            var done = false
            if case .endOfFile = token { done = true }
            var t: TreeToken
            switch token {
            case .doctype(let d): t = .doctype(d)
            case .startTag(let tag): t = .startTag(Tag(tag))
            case .endTag(let tag): t = .endTag(Tag(tag))
            case .comment(let c): t = .comment(c)
            case .characters(let c):
                if skipNextNewline {
                    skipNextNewline = false
                    if c.first == 0x0A {
                        if c.count == 1 { continue }
                        t = .characters(c[1...])
                        break
                    }
                }
                t = .characters(c[...])
            case .endOfFile: t = .endOfFile
            }
            skipNextNewline = false
            process(&t)
            if done { break }
            tokenizer.allowCDATA = adjustedCurrentNode.map { $0.namespace != .html } ?? false
        }
        // Options still open at the end are popped too (selectedcontent cloning).
        while let e = openElements.popLast() { if e.isHTML("option") { maybeCloneOption(e) } }
    }

    @inline(__always) func parseError() { errorCount += 1 }

    /// The tree construction dispatcher: insertion mode or foreign content, until done.
    func process(_ token: inout TreeToken) {
        while true {
            let again = useForeignContent(token) ? processForeignContent(&token) : processInMode(&token)
            if !again { return }
        }
    }

    func useForeignContent(_ token: TreeToken) -> Bool {
        guard let node = adjustedCurrentNode, node.namespace != .html else { return false }
        switch token {
        case .endOfFile: return false
        case .startTag(let t):
            if isMathMLTextIntegrationPoint(node) && t.name != "mglyph" && t.name != "malignmark" { return false }
            if node.namespace == .mathML && node.localName == "annotation-xml" && t.name == "svg" { return false }
            if isHTMLIntegrationPoint(node) { return false }
            return true
        case .characters:
            return !(isMathMLTextIntegrationPoint(node) || isHTMLIntegrationPoint(node))
        default:
            return true
        }
    }

    /// Processes the token by the rules of the current insertion mode; true to reprocess.
    func processInMode(_ token: inout TreeToken) -> Bool { process(&token, in: mode) }

    func process(_ token: inout TreeToken, in m: Mode) -> Bool {
        switch m {
        case .initial: return initialMode(&token)
        case .beforeHTML: return beforeHTMLMode(&token)
        case .beforeHead: return beforeHeadMode(&token)
        case .inHead: return inHeadMode(&token)
        case .inHeadNoscript: return inHeadNoscriptMode(&token)
        case .afterHead: return afterHeadMode(&token)
        case .inBody: return inBodyMode(&token)
        case .text: return textMode(&token)
        case .inTable: return inTableMode(&token)
        case .inTableText: return inTableTextMode(&token)
        case .inCaption: return inCaptionMode(&token)
        case .inColumnGroup: return inColumnGroupMode(&token)
        case .inTableBody: return inTableBodyMode(&token)
        case .inRow: return inRowMode(&token)
        case .inCell: return inCellMode(&token)
        case .inTemplate: return inTemplateMode(&token)
        case .afterBody: return afterBodyMode(&token)
        case .inFrameset: return inFramesetMode(&token)
        case .afterFrameset: return afterFramesetMode(&token)
        case .afterAfterBody: return afterAfterBodyMode(&token)
        case .afterAfterFrameset: return afterAfterFramesetMode(&token)
        }
    }

    // MARK: - The stack of open elements

    var currentNode: Element? { openElements.last }

    /// https://html.spec.whatwg.org/#adjusted-current-node
    var adjustedCurrentNode: Element? {
        if let context, openElements.count == 1 { return context }
        return openElements.last
    }

    func isMathMLTextIntegrationPoint(_ e: Element) -> Bool {
        guard e.namespace == .mathML else { return false }
        switch e.localName {
        case "mi", "mo", "mn", "ms", "mtext": return true
        default: return false
        }
    }

    func isHTMLIntegrationPoint(_ e: Element) -> Bool {
        if e.namespace == .mathML && e.localName == "annotation-xml" {
            guard let enc = e.attribute("encoding") else { return false }
            let l = asciiLowercased(enc)
            return l == "text/html" || l == "application/xhtml+xml"
        }
        if e.namespace == .svg {
            switch e.localName {
            case "foreignObject", "desc", "title": return true
            default: return false
            }
        }
        return false
    }

    func isSpecial(_ e: Element) -> Bool {
        switch e.namespace {
        case .html: return TagSets.special.contains(e.localName)
        case .mathML:
            switch e.localName {
            case "mi", "mo", "mn", "ms", "mtext", "annotation-xml": return true
            default: return false
            }
        case .svg:
            switch e.localName {
            case "foreignObject", "desc", "title": return true
            default: return false
            }
        default: return false
        }
    }

    enum Scope { case normal, listItem, button, table, select }

    func isScopeBoundary(_ e: Element, _ scope: Scope) -> Bool {
        switch scope {
        case .select:
            return !(e.isHTML("optgroup") || e.isHTML("option"))
        case .table:
            return e.namespace == .html && (e.localName == "html" || e.localName == "table" || e.localName == "template")
        case .normal, .listItem, .button:
            switch e.namespace {
            case .html:
                if TagSets.defaultScopeHTML.contains(e.localName) { return true }
                if scope == .listItem && (e.localName == "ol" || e.localName == "ul") { return true }
                if scope == .button && e.localName == "button" { return true }
                return false
            case .mathML, .svg: return isSpecial(e)
            default: return false
            }
        }
    }

    /// https://html.spec.whatwg.org/#has-an-element-in-scope (HTML elements named `name`).
    func hasInScope(_ name: String, _ scope: Scope = .normal) -> Bool {
        guard openElements.containsHTML(name) else { return false }
        var i = openElements.count - 1
        while i >= 0 {
            let e = openElements[i]
            if e.isHTML(name) { return true }
            if isScopeBoundary(e, scope) { return false }
            i -= 1
        }
        return false
    }

    func hasInScope(where match: (Element) -> Bool, _ scope: Scope = .normal) -> Bool {
        var i = openElements.count - 1
        while i >= 0 {
            let e = openElements[i]
            if match(e) { return true }
            if isScopeBoundary(e, scope) { return false }
            i -= 1
        }
        return false
    }

    func hasElementInScope(_ target: Element, _ scope: Scope = .normal) -> Bool {
        guard openElements.contains(target) else { return false }
        return hasInScope(where: { $0 === target }, scope)
    }

    func stackContains(_ e: Element) -> Bool {
        openElements.contains(e)
    }

    func hasTemplateOnStack() -> Bool {
        openElements.containsHTML("template")
    }

    /// Pops the current node (every pop goes through here: options clone into selectedcontent).
    @discardableResult
    func pop() -> Element {
        let e = openElements.removeLast()
        if e.namespace == .html && e.localName == "option" { maybeCloneOption(e) }
        return e
    }

    func popUntil(_ name: String) {
        while let e = openElements.last {
            pop()
            if e.isHTML(name) { return }
        }
    }

    func popUntil(where match: (Element) -> Bool) {
        while let e = openElements.last {
            pop()
            if match(e) { return }
        }
    }

    func popUntilElement(_ target: Element) {
        while let e = openElements.last {
            pop()
            if e === target { return }
        }
    }

    func removeFromStack(_ e: Element) {
        guard openElements.contains(e) else { return }
        if let i = openElements.lastIndex(where: { $0 === e }) { openElements.remove(at: i) }
    }

    /// https://html.spec.whatwg.org/#generate-implied-end-tags
    func generateImpliedEndTags(except: String? = nil) {
        while let e = openElements.last, e.namespace == .html, TagSets.impliedEndTags.contains(e.localName),
              e.localName != except {
            pop()
        }
    }

    func generateImpliedEndTagsThoroughly() {
        while let e = openElements.last, e.namespace == .html, TagSets.impliedEndTagsThoroughly.contains(e.localName) {
            pop()
        }
    }

    /// https://html.spec.whatwg.org/#close-a-p-element
    func closePElement() {
        generateImpliedEndTags(except: "p")
        if !(currentNode?.isHTML("p") ?? false) { parseError() }
        popUntil("p")
    }

    func closePIfInButtonScope() {
        if hasInScope("p", .button) { closePElement() }
    }

    // MARK: - Inserting nodes

    /// https://html.spec.whatwg.org/#appropriate-place-for-inserting-a-node: (parent, before).
    func appropriatePlace(overrideTarget: Element? = nil) -> (Node, Node?) {
        let target = overrideTarget ?? currentNode!
        if !fosterParenting {
            // The common case: the target itself (or a template's contents).
            if let contents = target.templateContents, target.namespace == .html { return (contents, nil) }
            return (target, nil)
        }
        var parent: Node = target
        var before: Node? = nil
        if fosterParenting && target.namespace == .html,
           ["table", "tbody", "tfoot", "thead", "tr"].contains(target.localName) {
            let lastTemplate = openElements.templateIndices.last
            let lastTable = openElements.tableIndices.last
            if let lt = lastTemplate, lastTable == nil || lt > lastTable! {
                parent = openElements[lt]
            } else if let tb = lastTable {
                let table = openElements[tb]
                if let p = table.parent {
                    parent = p
                    before = table
                } else {
                    parent = openElements[tb - 1]
                }
            } else {
                parent = openElements[0]
            }
        }
        if let t = parent as? Element, t.namespace == .html, t.localName == "template", let contents = t.templateContents {
            parent = contents
        }
        return (parent, before)
    }

    func createElement(for tag: Tag, namespace: Namespace) -> Element {
        Element(link: ownerLink, namespace: namespace, localName: tag.name, attributes: tag.attributes)
    }

    /// https://html.spec.whatwg.org/#insert-a-foreign-element
    @discardableResult
    func insertElement(_ tag: Tag, namespace: Namespace = .html) -> Element {
        let (parent, before) = appropriatePlace()
        let e = createElement(for: tag, namespace: namespace)
        parent.insertBefore(e, before)
        openElements.append(e)
        return e
    }

    @discardableResult
    func insertHTMLElement(named name: String) -> Element {
        insertElement(Tag(name: name))
    }

    func insertComment(_ data: [UInt8], into parent: Node? = nil) {
        let c = Comment(link: ownerLink, data: String(decoding: data, as: UTF8.self))
        if let parent {
            parent.appendChild(c)
        } else {
            let (p, before) = appropriatePlace()
            p.insertBefore(c, before)
        }
    }

    /// https://html.spec.whatwg.org/#insert-a-character (a run of them).
    func insertCharacters(_ s: ArraySlice<UInt8>) {
        guard !s.isEmpty else { return }
        let (parent, before) = appropriatePlace()
        if parent.kind == .document { return }
        let prev = before == nil ? parent.lastChild : before!.previousSibling
        if let prev, prev.kind == .text {
            unsafeDowncast(prev, to: Text.self).data += String(decoding: s, as: UTF8.self)
        } else {
            parent.insertBefore(Text(link: ownerLink, data: String(decoding: s, as: UTF8.self)), before)
        }
    }

    // MARK: - The list of active formatting elements

    /// https://html.spec.whatwg.org/#push-onto-the-list-of-active-formatting-elements
    func pushFormatting(_ e: Element) {
        var count = 0
        var earliest = -1
        var i = activeFormatting.count - 1
        while i >= 0 {
            guard case .element(let f) = activeFormatting[i] else { break }
            if f.attributes.count == e.attributes.count && f.localName == e.localName && f.namespace == e.namespace && sameAttributes(f, e) {
                count += 1
                earliest = i
            }
            i -= 1
        }
        if count >= 3 { activeFormatting.remove(at: earliest) }
        activeFormatting.append(.element(e))
        // Not in the standard: a bound on the list, so that hostile input (100,000 `<b id=N>`)
        // is not quadratic here and in the walks of reconstruction and the adoption agency.
        // Past it the oldest entry goes, as Noah's Ark drops the oldest duplicate.
        if activeFormatting.count > Self.maxActiveFormattingElements {
            if let first = activeFormatting.firstIndex(where: { if case .element = $0 { return true } else { return false } }) {
                activeFormatting.remove(at: first)
            }
        }
    }

    static let maxActiveFormattingElements = 256

    func sameAttributes(_ a: Element, _ b: Element) -> Bool {
        guard a.attributes.count == b.attributes.count else { return false }
        for x in a.attributes {
            guard b.attributes.contains(where: { $0.localName == x.localName && $0.namespace == x.namespace && $0.value == x.value }) else { return false }
        }
        return true
    }

    func formattingIndex(of e: Element) -> Int? {
        activeFormatting.lastIndex { if case .element(let f) = $0 { return f === e } else { return false } }
    }

    /// https://html.spec.whatwg.org/#reconstruct-the-active-formatting-elements
    func reconstructActiveFormatting() {
        guard let last = activeFormatting.last else { return }
        guard case .element(let le) = last, !stackContains(le) else { return }
        var i = activeFormatting.count - 1
        while i > 0 {
            i -= 1
            switch activeFormatting[i] {
            case .marker: i += 1
            case .element(let e) where stackContains(e): i += 1
            default: continue
            }
            break
        }
        while i < activeFormatting.count {
            guard case .element(let old) = activeFormatting[i] else { i += 1; continue }
            var tag = Tag(name: old.localName)
            tag.attributes = old.attributes
            let e = insertElement(tag)
            activeFormatting[i] = .element(e)
            i += 1
        }
    }

    func clearFormattingToLastMarker() {
        while let last = activeFormatting.popLast() {
            if case .marker = last { return }
        }
    }

    // MARK: - Resetting the insertion mode

    /// https://html.spec.whatwg.org/#reset-the-insertion-mode-appropriately
    func resetInsertionMode() {
        var i = openElements.count - 1
        while i >= 0 {
            var node = openElements[i]
            let last = i == 0
            if last, let context { node = context }
            if node.namespace == .html {
                switch node.localName {
                case "td" where !last, "th" where !last: mode = .inCell; return
                case "tr": mode = .inRow; return
                case "tbody", "thead", "tfoot": mode = .inTableBody; return
                case "caption": mode = .inCaption; return
                case "colgroup": mode = .inColumnGroup; return
                case "table": mode = .inTable; return
                case "template": mode = templateModes.last ?? .inTemplate; return
                case "head" where !last: mode = .inHead; return
                case "body": mode = .inBody; return
                case "frameset": mode = .inFrameset; return
                case "html": mode = headElement == nil ? .beforeHead : .afterHead; return
                default: break
                }
            }
            if last { mode = .inBody; return }
            i -= 1
        }
        mode = .inBody
    }

    // MARK: - selectedcontent

    /// https://html.spec.whatwg.org/#maybe-clone-an-option-into-selectedcontent
    func maybeCloneOption(_ option: Element) {
        var p = option.parent
        var select: Element?
        while let n = p {
            if let e = n as? Element, e.isHTML("select") { select = e; break }
            p = n.parent
        }
        guard let select, select.attribute("multiple") == nil else { return }
        var selectedContent: Element?
        var firstOption: Element?
        select.forEachDescendant { n in
            guard let e = n as? Element, e.namespace == .html else { return }
            if selectedContent == nil && e.localName == "selectedcontent" { selectedContent = e }
            if firstOption == nil && e.localName == "option" { firstOption = e }
        }
        guard let selectedContent else { return }
        guard option.attribute("selected") != nil || firstOption === option else { return }
        while let c = selectedContent.firstChild { c.remove() }
        for c in option.children { selectedContent.appendChild(deepClone(c)) }
    }

    /// A deep copy of `node` (iterative).
    func deepClone(_ node: Node) -> Node {
        func shallow(_ n: Node) -> Node {
            switch n {
            case let e as Element:
                return Element(link: ownerLink, namespace: e.namespace, prefix: e.prefix, localName: e.localName, attributes: e.attributes)
            case let t as Text: return Text(link: ownerLink, data: t.data)
            case let c as Comment: return Comment(link: ownerLink, data: c.data)
            default: return DocumentFragment(document: owner)
            }
        }
        let root = shallow(node)
        var work: [(Node, Node)] = [(node, root)]
        while let (src, dst) = work.popLast() {
            var c = src.firstChild
            while let n = c {
                let copy = shallow(n)
                dst.appendChild(copy)
                work.append((n, copy))
                c = n.nextSibling
            }
        }
        return root
    }
}
