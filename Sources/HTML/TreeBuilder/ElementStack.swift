import DOM

/// The stack of open elements (https://html.spec.whatwg.org/#stack-of-open-elements), with a
/// count of the HTML elements of each name on it, so that "has a `p` in button scope" on a
/// stack 100,000 deep without a `p` answers at once instead of walking the stack.
struct ElementStack: RandomAccessCollection {
    private(set) var elements: [Element] = []
    private var htmlCounts: [String: Int] = [:]

    var startIndex: Int { 0 }
    var endIndex: Int { elements.count }
    subscript(i: Int) -> Element { elements[i] }

    /// Whether an HTML element named `name` is on the stack.
    func containsHTML(_ name: String) -> Bool { (htmlCounts[name] ?? 0) > 0 }

    private mutating func added(_ e: Element) {
        if e.namespace == .html { htmlCounts[e.localName, default: 0] += 1 }
    }

    private mutating func removed(_ e: Element) {
        if e.namespace == .html { htmlCounts[e.localName, default: 1] -= 1 }
    }

    mutating func append(_ e: Element) {
        elements.append(e)
        added(e)
    }

    @discardableResult
    mutating func removeLast() -> Element {
        let e = elements.removeLast()
        removed(e)
        return e
    }

    mutating func popLast() -> Element? {
        guard !elements.isEmpty else { return nil }
        return removeLast()
    }

    mutating func remove(at i: Int) {
        removed(elements.remove(at: i))
    }

    mutating func insert(_ e: Element, at i: Int) {
        elements.insert(e, at: i)
        added(e)
    }

    mutating func replace(at i: Int, with e: Element) {
        removed(elements[i])
        elements[i] = e
        added(e)
    }
}
