/// An element (https://dom.spec.whatwg.org/#interface-element).
public final class Element: Node {
    public let namespace: Namespace
    public let prefix: String?
    public let localName: String
    /// The attributes in order (at most one per namespace and local name).
    public var attributes: [Attribute]
    /// A `template`'s contents (https://html.spec.whatwg.org/#template-contents): set for
    /// HTML `template` elements, whose children the parser puts here.
    public internal(set) var templateContents: DocumentFragment?

    public convenience init(document: Document?, namespace: Namespace, prefix: String? = nil,
                            localName: String, attributes: [Attribute] = []) {
        self.init(link: document?.link, namespace: namespace, prefix: prefix, localName: localName, attributes: attributes)
    }

    /// For parsers: an element of the document behind `link` (no access to the document
    /// itself, whose weakly referenced object is slower to retain).
    public init(link: DocumentLink?, namespace: Namespace, prefix: String? = nil,
                localName: String, attributes: [Attribute] = []) {
        self.namespace = namespace
        self.prefix = prefix
        self.localName = localName
        self.attributes = attributes
        super.init(kind: .element, link: link)
        if namespace == .html && localName == "template" {
            templateContents = DocumentFragment(link: link)
        }
    }

    /// `tagName` of the DOM: the qualified name, upper-cased for HTML elements.
    public var tagName: String {
        let q = prefix.map { $0 + ":" + localName } ?? localName
        return namespace == .html ? asciiUppercased(q) : q
    }

    public override var nodeName: String { tagName }

    /// True when the element is the HTML element `name`.
    @inlinable
    public func isHTML(_ name: String) -> Bool { namespace == .html && localName == name }

    /// The value of the attribute with no namespace named `name`.
    public func attribute(_ name: String) -> String? {
        for a in attributes where a.namespace == .none && a.localName == name { return a.value }
        return nil
    }

    /// Sets (or adds) the attribute with no namespace named `name`.
    public func setAttribute(_ name: String, _ value: String) {
        if let i = attributes.firstIndex(where: { $0.namespace == .none && $0.localName == name }) {
            attributes[i].value = value
        } else {
            attributes.append(Attribute(localName: name, value: value))
        }
    }
}

func asciiUppercased(_ s: String) -> String {
    var bytes = Array(s.utf8)
    for i in bytes.indices where bytes[i] >= 0x61 && bytes[i] <= 0x7A { bytes[i] -= 0x20 }
    return String(decoding: bytes, as: UTF8.self)
}
