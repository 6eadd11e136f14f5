import DOM

/// The stack of open elements (https://html.spec.whatwg.org/#stack-of-open-elements), with a
/// count of the HTML elements of each name on it, the set of its elements and the positions
/// of its tables and templates, so that the questions the tree builder asks for most tokens
/// ("a `p` in button scope?", "is this element open?", "the last table?") are answered at
/// once instead of by walking a stack that hostile input makes 100,000 deep.
struct ElementStack: RandomAccessCollection {
    private(set) var elements: [Element] = []
    private var htmlCounts: [String: Int] = [:]
    /// Non-HTML elements by ASCII-lowercased local name (foreign end tags match that way).
    private var foreignCounts: [String: Int] = [:]
    private var members: Set<ObjectIdentifier> = []
    /// Indices of the HTML `table` and `template` elements on the stack, in order.
    private(set) var tableIndices: [Int] = []
    private(set) var templateIndices: [Int] = []

    var startIndex: Int { 0 }
    var endIndex: Int { elements.count }
    subscript(i: Int) -> Element { elements[i] }

    /// Whether an HTML element named `name` is on the stack.
    func containsHTML(_ name: String) -> Bool { (htmlCounts[name] ?? 0) > 0 }

    /// Whether `e` is on the stack.
    func contains(_ e: Element) -> Bool { members.contains(ObjectIdentifier(e)) }

    /// Whether a non-HTML element whose lowercased local name is `name` is on the stack.
    func containsForeign(_ name: String) -> Bool { (foreignCounts[name] ?? 0) > 0 }

    private mutating func added(_ e: Element) {
        members.insert(ObjectIdentifier(e))
        if e.namespace == .html {
            htmlCounts[e.localName, default: 0] += 1
        } else {
            foreignCounts[asciiLowercased(e.localName), default: 0] += 1
        }
    }

    private mutating func removed(_ e: Element) {
        members.remove(ObjectIdentifier(e))
        if e.namespace == .html {
            htmlCounts[e.localName, default: 1] -= 1
        } else {
            foreignCounts[asciiLowercased(e.localName), default: 1] -= 1
        }
    }

    /// Rebuilds the table and template positions (after a change in the middle of the stack).
    private mutating func reindex() {
        tableIndices.removeAll()
        templateIndices.removeAll()
        for (i, e) in elements.enumerated() where e.namespace == .html {
            if e.localName == "table" { tableIndices.append(i) } else if e.localName == "template" { templateIndices.append(i) }
        }
    }

    mutating func append(_ e: Element) {
        if e.namespace == .html {
            if e.localName == "table" { tableIndices.append(elements.count) } else if e.localName == "template" { templateIndices.append(elements.count) }
        }
        elements.append(e)
        added(e)
    }

    @discardableResult
    mutating func removeLast() -> Element {
        let e = elements.removeLast()
        removed(e)
        if tableIndices.last == elements.count { tableIndices.removeLast() }
        if templateIndices.last == elements.count { templateIndices.removeLast() }
        return e
    }

    mutating func popLast() -> Element? {
        guard !elements.isEmpty else { return nil }
        return removeLast()
    }

    private static func isTableOrTemplate(_ e: Element) -> Bool {
        e.namespace == .html && (e.localName == "table" || e.localName == "template")
    }

    mutating func remove(at i: Int) {
        let e = elements.remove(at: i)
        removed(e)
        if Self.isTableOrTemplate(e) { reindex(); return }
        for k in tableIndices.indices where tableIndices[k] > i { tableIndices[k] -= 1 }
        for k in templateIndices.indices where templateIndices[k] > i { templateIndices[k] -= 1 }
    }

    mutating func insert(_ e: Element, at i: Int) {
        elements.insert(e, at: i)
        added(e)
        if Self.isTableOrTemplate(e) { reindex(); return }
        for k in tableIndices.indices where tableIndices[k] >= i { tableIndices[k] += 1 }
        for k in templateIndices.indices where templateIndices[k] >= i { templateIndices[k] += 1 }
    }

    mutating func replace(at i: Int, with e: Element) {
        let old = elements[i]
        removed(old)
        elements[i] = e
        added(e)
        if Self.isTableOrTemplate(old) || Self.isTableOrTemplate(e) { reindex() }
    }
}
