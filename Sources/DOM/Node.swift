/// A node of the tree (https://dom.spec.whatwg.org/#interface-node).
///
/// Children are a doubly linked list. A parent owns its first child and each child owns
/// its next sibling; the back links (`parent`, `previousSibling`, `lastChild`) do not own.
/// They stay valid because a node is only linked while its parent is alive: removing a
/// node clears its links, and a parent that goes away unlinks its children first
/// (`deinit`). Tear-down is iterative, so a million nested elements free without recursion.
public class Node {
    /// The node type numbers of the DOM (`Node.ELEMENT_NODE` = 1, ...).
    public enum Kind: Int, Sendable {
        case element = 1, text = 3, comment = 8, document = 9, documentType = 10, documentFragment = 11
    }

    public final var kind: Kind
    public final private(set) unowned(unsafe) var parent: Node?
    public final private(set) var firstChild: Node?
    public final private(set) unowned(unsafe) var lastChild: Node?
    public final private(set) var nextSibling: Node?
    public final private(set) unowned(unsafe) var previousSibling: Node?
    /// The link to the node's document: every node of a document shares its document's one
    /// `DocumentLink`, which holds the document weakly (the document owns its tree). One weak
    /// reference per document instead of one per node: a weak reference per node cost ~14% of
    /// parsing. (The bindings will want a node to keep its document alive, as in the DOM; that
    /// needs their cycle handling, so it waits for them.)
    public final var documentLink: DocumentLink?

    /// The document the node belongs to (nil for a document itself, or once it is gone).
    public final var ownerDocument: Document? { documentLink?.document }

    init(kind: Kind, link: DocumentLink?) {
        self.kind = kind
        self.documentLink = link
    }

    deinit {
        guard firstChild != nil else { return }
        var stack: [Node] = []
        unlinkChildren(into: &stack)
        while var node = stack.popLast() {
            // Only a node nobody else holds is about to be freed; take its children (and a
            // template's contents) first so that freeing it does not recurse.
            if isKnownUniquelyReferenced(&node) {
                node.unlinkChildren(into: &stack)
                if let element = node as? Element, let contents = element.templateContents {
                    element.templateContents = nil
                    stack.append(contents)
                }
            }
        }
    }

    private final func unlinkChildren(into stack: inout [Node]) {
        var child = firstChild
        firstChild = nil
        lastChild = nil
        while let c = child {
            child = c.nextSibling
            c.nextSibling = nil
            c.previousSibling = nil
            c.parent = nil
            stack.append(c)
        }
    }

    // MARK: - Tree mutation (no validity checks: the parser only builds valid trees)

    /// Appends `child` as the last child, removing it from its old parent first.
    public final func appendChild(_ child: Node) {
        child.remove()
        child.parent = self
        if let last = lastChild {
            last.nextSibling = child
            child.previousSibling = last
        } else {
            firstChild = child
        }
        lastChild = child
    }

    /// Inserts `child` before `reference` (a child of this node), or appends when nil.
    public final func insertBefore(_ child: Node, _ reference: Node?) {
        guard let reference else { appendChild(child); return }
        if child === reference { return }
        child.remove()
        child.parent = self
        child.nextSibling = reference
        if let prev = reference.previousSibling {
            prev.nextSibling = child
            child.previousSibling = prev
        } else {
            firstChild = child
        }
        reference.previousSibling = child
    }

    /// Removes the node from its parent (nothing when it has none).
    public final func remove() {
        guard let p = parent else { return }
        let keep = self  // the parent's link may be the last strong reference
        if let prev = previousSibling { prev.nextSibling = nextSibling } else { p.firstChild = nextSibling }
        if let next = nextSibling { next.previousSibling = previousSibling } else { p.lastChild = previousSibling }
        keep.parent = nil
        keep.nextSibling = nil
        keep.previousSibling = nil
    }

    /// Moves all children of this node to the end of `newParent`'s children.
    public final func moveChildren(to newParent: Node) {
        while let c = firstChild { newParent.appendChild(c) }
    }

    /// The children, first to last.
    public final var children: [Node] {
        var out: [Node] = []
        var c = firstChild
        while let n = c { out.append(n); c = n.nextSibling }
        return out
    }

    public final var hasChildNodes: Bool { firstChild != nil }

    /// `nodeName` of the DOM.
    public var nodeName: String { "" }

    /// `textContent` of the DOM: the concatenated text of the descendants for elements and
    /// fragments, the data for text and comments, nil for documents and doctypes.
    public final var textContent: String? {
        switch kind {
        case .text, .comment: return (self as! CharacterData).data
        case .document, .documentType: return nil
        case .element, .documentFragment:
            var out = ""
            forEachDescendant { if let t = $0 as? Text { out += t.data } }
            return out
        }
    }

    /// Calls `body` for each descendant in tree order (not the node itself), iteratively.
    public final func forEachDescendant(_ body: (Node) -> Void) {
        var node = firstChild
        while let n = node {
            body(n)
            if let c = n.firstChild { node = c; continue }
            var up: Node? = n
            node = nil
            while let u = up, u !== self {
                if let s = u.nextSibling { node = s; break }
                up = u.parent
            }
        }
    }
}

/// What the nodes of a document share to find it (see `Node.documentLink`).
public final class DocumentLink {
    public internal(set) weak var document: Document?
    init() {}
}
