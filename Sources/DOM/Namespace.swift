/// A namespace of an element or attribute (https://infra.spec.whatwg.org/#namespaces).
/// The ones the HTML parser creates are cases; any other URI is `.other`.
public enum Namespace: Hashable, Sendable {
    case none, html, svg, mathML, xlink, xml, xmlns
    case other(String)

    /// Equality with a fast path the compiler can inline across modules (`namespace == .html`
    /// is asked for nearly every node the parser touches).
    @inlinable
    public static func == (a: Namespace, b: Namespace) -> Bool {
        switch (a, b) {
        case (.none, .none), (.html, .html), (.svg, .svg), (.mathML, .mathML), (.xlink, .xlink), (.xml, .xml), (.xmlns, .xmlns):
            return true
        case (.other(let x), .other(let y)):
            return x == y
        default:
            return false
        }
    }

    /// The namespace URI; nil for no namespace.
    public var uri: String? {
        switch self {
        case .none: return nil
        case .html: return "http://www.w3.org/1999/xhtml"
        case .svg: return "http://www.w3.org/2000/svg"
        case .mathML: return "http://www.w3.org/1998/Math/MathML"
        case .xlink: return "http://www.w3.org/1999/xlink"
        case .xml: return "http://www.w3.org/XML/1998/namespace"
        case .xmlns: return "http://www.w3.org/2000/xmlns/"
        case .other(let s): return s
        }
    }

    /// The namespace for a URI (nil or empty: no namespace).
    public init(uri: String?) {
        guard let uri, !uri.isEmpty else { self = .none; return }
        for n in [Namespace.html, .svg, .mathML, .xlink, .xml, .xmlns] where n.uri == uri { self = n; return }
        self = .other(uri)
    }
}

/// An attribute of an element: namespace, prefix, local name, value
/// (https://dom.spec.whatwg.org/#concept-attribute).
public struct Attribute: Hashable, Sendable {
    public var namespace: Namespace
    public var prefix: String?
    public var localName: String
    public var value: String

    public init(namespace: Namespace = .none, prefix: String? = nil, localName: String, value: String) {
        self.namespace = namespace
        self.prefix = prefix
        self.localName = localName
        self.value = value
    }

    /// `prefix:localName`, or the local name without a prefix.
    public var qualifiedName: String {
        if let prefix { return prefix + ":" + localName }
        return localName
    }
}
