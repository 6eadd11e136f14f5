import DOM
import HTML
import JSEngine
import Layout

/// The native half of the DOM bindings: Swift functions over node numbers, which the
/// JavaScript half (`DOMPrelude.source`) wraps into `Node`/`Element`/`Document` objects,
/// one wrapper per node (cached by number there, so identity holds: `a.firstChild ===
/// a.firstChild`). A node gets its number the first time script sees it and keeps it (and
/// is kept alive) for the page's life. Every mutation marks the page dirty: the content
/// process lays out and renders again after the script task.
final class DOMBridge {
    let document: Document
    private var nodes: [Node] = []
    private var numbers: [ObjectIdentifier: Int] = [:]
    /// A script changed the tree, an attribute or text since the last layout.
    var dirty = false { didSet { if dirty { changes &+= 1 } } }
    /// Counts the changes (a layout made for geometry is good until the next one).
    private(set) var changes = 0
    /// Script elements that were run or must never run (parsed by `innerHTML`): a script
    /// element runs once, when it first becomes connected.
    var startedScripts: Set<ObjectIdentifier> = []
    /// The layout engine `getComputedStyle` asks (the content process sets its viewport and
    /// linked sheets).
    var layoutEngine: (() -> LayoutEngine)?
    /// The page laid out as it is now (laid out again first if a script changed it), for
    /// geometry: `getBoundingClientRect`, `elementFromPoint`.
    var pageLayout: (() -> PageLayout?)?
    /// Called for a script element a script connected to the document (not started yet).
    var onScriptConnected: ((Element) -> Void)?
    /// The document's URL (for `document.URL`, `location.href` and resolving `src`).
    let url: String

    init(document: Document, url: String) {
        self.document = document
        self.url = url
        _ = number(document)
    }

    func number(_ node: Node) -> Int {
        if let n = numbers[ObjectIdentifier(node)] { return n }
        nodes.append(node)
        numbers[ObjectIdentifier(node)] = nodes.count - 1
        return nodes.count - 1
    }

    func number(_ node: Node?) -> Int { node.map { number($0) } ?? -1 }

    func node(_ v: JSValue?) throws -> Node {
        guard let v, v.isNumber else { throw DOMError.type("not a node") }
        let n = Int(v.toInt32())
        guard n >= 0, n < nodes.count else { throw DOMError.type("not a node") }
        return nodes[n]
    }

    func element(_ v: JSValue?) throws -> Element {
        guard let e = try node(v) as? Element else { throw DOMError.type("not an element") }
        return e
    }

    /// The element of node number `n`, if it is one (WebDriver's element references).
    func element(number n: Int) -> Element? {
        guard n >= 0, n < nodes.count else { return nil }
        return nodes[n] as? Element
    }

    enum DOMError: Error, CustomStringConvertible {
        case type(String), hierarchy(String), notFound(String), syntax(String), invalidCharacter(String)
        var description: String {
            switch self {
            case .type(let m): return "TypeError: " + m
            case .hierarchy(let m): return "HierarchyRequestError: " + m
            case .notFound(let m): return "NotFoundError: " + m
            case .syntax(let m): return "SyntaxError: " + m
            case .invalidCharacter(let m): return "InvalidCharacterError: " + m
            }
        }
    }

    /// The native functions, as properties of one object the prelude takes and hides.
    func install(in context: JSContext) -> JSValue {
        let o = JSValue(newObjectIn: context)
        func def(_ name: String, _ body: @escaping ([JSValue]) throws -> Any?) {
            o.setValue(JSValue(function: body, name: name, in: context), forProperty: name)
        }
        def("document") { [unowned self] _ in number(document) }
        def("type") { [unowned self] a in try node(a.first).kind.rawValue }
        def("nodeName") { [unowned self] a in try node(a.first).nodeName }
        def("localName") { [unowned self] a in (try node(a.first) as? Element)?.localName }
        def("namespaceURI") { [unowned self] a in (try node(a.first) as? Element)?.namespace.uri }
        def("prefix") { [unowned self] a in (try node(a.first) as? Element)?.prefix }
        def("parent") { [unowned self] a in number(try node(a.first).parent) }
        def("firstChild") { [unowned self] a in number(try node(a.first).firstChild) }
        def("lastChild") { [unowned self] a in number(try node(a.first).lastChild) }
        def("next") { [unowned self] a in number(try node(a.first).nextSibling) }
        def("previous") { [unowned self] a in number(try node(a.first).previousSibling) }
        def("children") { [unowned self] a in try node(a.first).children.map { number($0) } }
        def("data") { [unowned self] a in (try node(a.first) as? CharacterData)?.data }
        def("setData") { [unowned self] a in
            guard let c = try node(a.first) as? CharacterData else { return nil }
            c.data = a.count > 1 ? a[1].toString() : ""
            dirty = true
            return nil
        }
        def("textContent") { [unowned self] a in try node(a.first).textContent }
        def("setTextContent") { [unowned self] a in
            let n = try node(a.first)
            let text = a.count > 1 && !a[1].isNull && !a[1].isUndefined ? a[1].toString() : ""
            switch n {
            case let c as CharacterData: c.data = text
            case is Element, is DocumentFragment:
                while let c = n.firstChild { c.remove() }
                if !text.isEmpty { n.appendChild(Text(link: document.link, data: text)) }
            default: return nil
            }
            dirty = true
            return nil
        }
        def("doctype") { [unowned self] a in
            guard let d = try node(a.first) as? DocumentType else { return nil }
            return [d.name, d.publicId, d.systemId]
        }
        def("attributes") { [unowned self] a in
            try element(a.first).attributes.map { [$0.namespace.uri, $0.prefix, $0.localName, $0.value] as [Any?] }
        }
        def("getAttribute") { [unowned self] a in
            let e = try element(a.first)
            let name = a.count > 1 ? a[1].toString() : ""
            let lookup = e.namespace == .html ? name.lowercased() : name
            return e.attributes.first { $0.qualifiedName == lookup }?.value
        }
        def("setAttribute") { [unowned self] a in
            let e = try element(a.first)
            var name = a.count > 1 ? a[1].toString() : ""
            guard DOMBridge.isValidName(name) else { throw DOMError.invalidCharacter("'\(name)' is not a valid attribute name") }
            if e.namespace == .html { name = name.lowercased() }
            let value = a.count > 2 ? a[2].toString() : "undefined"
            if let i = e.attributes.firstIndex(where: { $0.qualifiedName == name }) {
                e.attributes[i].value = value
            } else {
                e.attributes.append(Attribute(localName: name, value: value))
            }
            dirty = true
            return nil
        }
        def("removeAttribute") { [unowned self] a in
            let e = try element(a.first)
            let name = a.count > 1 ? a[1].toString() : ""
            let lookup = e.namespace == .html ? name.lowercased() : name
            if let i = e.attributes.firstIndex(where: { $0.qualifiedName == lookup }) {
                e.attributes.remove(at: i)
                dirty = true
            }
            return nil
        }
        def("createElement") { [unowned self] a in
            let name = a.first?.toString() ?? "undefined"
            guard DOMBridge.isValidName(name) else { throw DOMError.invalidCharacter("'\(name)' is not a valid element name") }
            return number(Element(document: document, namespace: .html, localName: name.lowercased()))
        }
        def("createElementNS") { [unowned self] a in
            let ns = a.first.flatMap { $0.isNull || $0.isUndefined ? nil : $0.toString() }
            let qualified = a.count > 1 ? a[1].toString() : "undefined"
            guard DOMBridge.isValidName(qualified) else { throw DOMError.invalidCharacter("'\(qualified)' is not a valid element name") }
            let parts = qualified.split(separator: ":", maxSplits: 1)
            let prefix = parts.count == 2 ? String(parts[0]) : nil
            return number(Element(document: document, namespace: Namespace(uri: ns), prefix: prefix, localName: String(parts.last!)))
        }
        def("createTextNode") { [unowned self] a in number(Text(document: document, data: a.first?.toString() ?? "undefined")) }
        def("createComment") { [unowned self] a in number(Comment(document: document, data: a.first?.toString() ?? "undefined")) }
        def("createDocumentFragment") { [unowned self] _ in number(DocumentFragment(document: document)) }
        def("insert") { [unowned self] a in
            // insert(parent, node, child or -1): the DOM's pre-insert, with its validity checks.
            let parent = try node(a.first)
            let child = try node(a.count > 1 ? a[1] : nil)
            let reference: Node? = a.count > 2 && a[2].toInt32() >= 0 ? try node(a[2]) : nil
            try preInsert(child, into: parent, before: reference)
            return nil
        }
        def("remove") { [unowned self] a in
            let parent = try node(a.first)
            let child = try node(a.count > 1 ? a[1] : nil)
            guard child.parent === parent else { throw DOMError.notFound("the node to be removed is not a child of this node") }
            child.remove()
            dirty = true
            return nil
        }
        def("detach") { [unowned self] a in
            let n = try node(a.first)
            if n.parent != nil { n.remove(); dirty = true }
            return nil
        }
        def("innerHTML") { [unowned self] a in HTMLSerializer.innerHTML(try node(a.first), scripting: true) }
        def("outerHTML") { [unowned self] a in HTMLSerializer.outerHTML(try node(a.first), scripting: true) }
        def("setInnerHTML") { [unowned self] a in
            let target = try node(a.first)
            let context: Element
            if let e = target as? Element { context = e } else { context = Element(document: document, namespace: .html, localName: "body") }
            let markup = a.count > 1 ? a[1].toString() : ""
            let fragment = HTMLParser.parseFragment(Array(markup.utf8), context: context, scripting: true).fragment
            fragment.forEachDescendant { n in
                if let e = n as? Element, e.isHTML("script") { startedScripts.insert(ObjectIdentifier(e)) }
            }
            let parent: Node = (target as? Element)?.templateContents ?? target
            while let c = parent.firstChild { c.remove() }
            adopt(fragment)
            fragment.moveChildren(to: parent)
            dirty = true
            return nil
        }
        def("templateContent") { [unowned self] a in number((try element(a.first)).templateContents) }
        def("querySelectorAll") { [unowned self] a in
            let root = try node(a.first)
            let list = try selectors(a.count > 1 ? a[1].toString() : "")
            let limit = a.count > 2 && a[2].toBool() ? 1 : Int.max
            return list.all(in: root, limit: limit).map { number($0) }
        }
        def("matches") { [unowned self] a in
            let e = try element(a.first)
            return try selectors(a.count > 1 ? a[1].toString() : "").matches(e)
        }
        def("getElementById") { [unowned self] a in
            let root = try node(a.first)
            let id = a.count > 1 ? a[1].toString() : ""
            var found: Element?
            root.forEachDescendant { n in
                if found == nil, let e = n as? Element, e.attribute("id") == id { found = e }
            }
            return number(found)
        }
        def("getElementsByTagName") { [unowned self] a in
            let root = try node(a.first)
            let name = a.count > 1 ? a[1].toString() : ""
            var out: [Int] = []
            root.forEachDescendant { n in
                if let e = n as? Element, name == "*" || e.localName == name.lowercased() || e.localName == name { out.append(number(e)) }
            }
            return out
        }
        def("contains") { [unowned self] a in
            let n = try node(a.first)
            var other: Node? = try node(a.count > 1 ? a[1] : nil)
            while let o = other { if o === n { return true }; other = o.parent }
            return false
        }
        def("cloneNode") { [unowned self] a in
            let n = try node(a.first)
            return number(clone(n, deep: a.count > 1 && a[1].toBool()))
        }
        def("url") { [unowned self] _ in url }
        def("rect") { [unowned self] a in
            // The union of where the element's boxes and text (and its descendants') were laid
            // out, in CSS pixels of the page; nil when it has none (display: none, detached).
            let e = try element(a.first)
            guard let page = pageLayout?() else { return nil }
            var box: (x0: Float, y0: Float, x1: Float, y1: Float)?
            for hit in page.hits where e.isInclusiveAncestor(of: hit.element) {
                let r = hit.rect
                box = box.map { (min($0.x0, r.x), min($0.y0, r.y), max($0.x1, r.x + r.width), max($0.y1, r.y + r.height)) }
                    ?? (r.x, r.y, r.x + r.width, r.y + r.height)
            }
            guard let box else { return nil }
            return [Double(box.x0), Double(box.y0), Double(box.x1 - box.x0), Double(box.y1 - box.y0)]
        }
        def("elementAt") { [unowned self] a in
            // The element laid out at (x, y) of the page (CSS pixels), -1: none.
            guard a.count == 2, let page = pageLayout?() else { return -1 }
            let x = Float(a[0].toDouble()), y = Float(a[1].toDouble())
            guard x.isFinite, y.isFinite, let e = page.element(atX: x, y: y) else { return -1 }
            return number(e)
        }
        def("computedStyle") { [unowned self] a in
            let e = try element(a.first)
            let engine = layoutEngine?() ?? LayoutEngine(viewportWidth: 800, viewportHeight: 600)
            return engine.computedStyle(of: e, in: document).sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }
        }
        return o
    }

    func selectors(_ text: String) throws -> SelectorList {
        do {
            return try SelectorList.parse(text)
        } catch {
            throw DOMError.syntax(error.description)
        }
    }

    /// Nodes made by the fragment parser join this document.
    func adopt(_ root: Node) {
        root.documentLink = document.link
        root.forEachDescendant { $0.documentLink = document.link }
    }

    func clone(_ n: Node, deep: Bool) -> Node {
        let copy: Node
        switch n {
        case let e as Element:
            let c = Element(document: document, namespace: e.namespace, prefix: e.prefix, localName: e.localName, attributes: e.attributes)
            if deep, let t = e.templateContents, let ct = c.templateContents {
                for child in t.children { ct.appendChild(clone(child, deep: true)) }
            }
            copy = c
        case let t as Text: copy = Text(document: document, data: t.data)
        case let t as Comment: copy = Comment(document: document, data: t.data)
        case let d as DocumentType: copy = DocumentType(document: document, name: d.name, publicId: d.publicId, systemId: d.systemId)
        case is DocumentFragment: copy = DocumentFragment(document: document)
        default: copy = DocumentFragment(document: document)
        }
        if deep { for child in n.children { copy.appendChild(clone(child, deep: true)) } }
        return copy
    }

    /// https://dom.spec.whatwg.org/#concept-node-pre-insert (the checks, then the insertion).
    func preInsert(_ node: Node, into parent: Node, before child: Node?) throws {
        guard parent is Document || parent is Element || parent is DocumentFragment else {
            throw DOMError.hierarchy("this node cannot have children")
        }
        var up: Node? = parent
        while let u = up {
            if u === node { throw DOMError.hierarchy("the new child is an ancestor of the parent") }
            up = u.parent
        }
        if let child, child.parent !== parent { throw DOMError.notFound("the reference node is not a child of this node") }
        if node is Document { throw DOMError.hierarchy("a document cannot be inserted") }
        if parent is Document && (node is Text) { throw DOMError.hierarchy("a document cannot have text children") }
        if parent is Document, node is Element, (parent as! Document).documentElement != nil {
            throw DOMError.hierarchy("a document has only one element child")
        }
        var reference = child
        if reference === node { reference = node.nextSibling }
        let inserted = (node as? DocumentFragment)?.children ?? [node]
        for c in inserted { parent.insertBefore(c, reference) }
        dirty = true
        // Script elements that became connected run now (https://html.spec.whatwg.org/#prepare-the-script-element).
        guard onScriptConnected != nil, document.isInclusiveAncestor(of: parent) else { return }
        var scripts: [Element] = []
        for c in inserted {
            if let e = c as? Element, e.isHTML("script") { scripts.append(e) }
            c.forEachDescendant { n in if let e = n as? Element, e.isHTML("script") { scripts.append(e) } }
        }
        for script in scripts where !startedScripts.contains(ObjectIdentifier(script)) {
            onScriptConnected?(script)
        }
    }

    /// A valid XML name, roughly: not empty, no white space, `<`, `>`, `"`, `'`, `=`, `/`.
    static func isValidName(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, !("0"..."9").contains(first), first != "-", first != "." else { return false }
        return !s.unicodeScalars.contains { " \t\n\r\u{0C}<>\"'=/`".unicodeScalars.contains($0) }
    }
}
