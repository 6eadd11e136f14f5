/// A document (https://dom.spec.whatwg.org/#interface-document).
public final class Document: Node {
    /// https://dom.spec.whatwg.org/#concept-document-mode
    public enum Mode: Sendable { case noQuirks, quirks, limitedQuirks }

    public var mode: Mode = .noQuirks

    /// The link the document's nodes share (`Node.documentLink`).
    public let link = DocumentLink()

    public init() {
        super.init(kind: .document, link: nil)
        link.document = self
    }

    public override var nodeName: String { "#document" }

    /// The doctype child, if any.
    public var doctype: DocumentType? {
        var c = firstChild
        while let n = c { if let d = n as? DocumentType { return d }; c = n.nextSibling }
        return nil
    }

    /// The root element.
    public var documentElement: Element? {
        var c = firstChild
        while let n = c { if let e = n as? Element { return e }; c = n.nextSibling }
        return nil
    }

    public func createElement(_ localName: String, namespace: Namespace = .html,
                              attributes: [Attribute] = []) -> Element {
        Element(document: self, namespace: namespace, localName: localName, attributes: attributes)
    }

    public func createTextNode(_ data: String) -> Text { Text(document: self, data: data) }
    public func createComment(_ data: String) -> Comment { Comment(document: self, data: data) }
    public func createDocumentFragment() -> DocumentFragment { DocumentFragment(document: self) }
}
