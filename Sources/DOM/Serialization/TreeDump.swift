/// The html5lib-tests tree format (`| <html>`, two spaces per level; attributes sorted, one
/// level deeper; template contents under `content`). Iterative.
public enum TreeDump {
    /// The children of `node`, one line each, at depth 0 (a document's or fragment's tree).
    public static func dump(childrenOf node: Node) -> String {
        var out = ""
        var stack: [(Node, Int)] = node.children.reversed().map { ($0, 0) }
        while let (n, depth) = stack.popLast() {
            line(&out, depth)
            switch n {
            case let e as Element:
                out += "<" + prefix(e.namespace) + e.localName + ">\n"
                let attrs = e.attributes.map { (attributeName($0), $0.value) }.sorted { $0.0.utf16.lexicographicallyPrecedes($1.0.utf16) }
                for (name, value) in attrs {
                    line(&out, depth + 1)
                    out += name + "=\"" + value + "\"\n"
                }
                var kids: [(Node, Int)] = []
                if let contents = e.templateContents {
                    // `content` is printed as a pseudo-node; its children one level below it.
                    kids.append((ContentMarker(contents), depth + 1))
                }
                for c in e.children { kids.append((c, depth + 1)) }
                stack += kids.reversed()
            case let m as ContentMarker:
                out += "content\n"
                stack += m.contents.children.reversed().map { ($0, depth + 1) }
            case let t as Text:
                out += "\"" + t.data + "\"\n"
            case let c as Comment:
                out += "<!-- " + c.data + " -->\n"
            case let d as DocumentType:
                if d.publicId.isEmpty && d.systemId.isEmpty {
                    out += "<!DOCTYPE " + d.name + ">\n"
                } else {
                    out += "<!DOCTYPE " + d.name + " \"" + d.publicId + "\" \"" + d.systemId + "\">\n"
                }
            default:
                out += "?\n"
            }
        }
        return out
    }

    private final class ContentMarker: Node {
        let contents: DocumentFragment
        init(_ contents: DocumentFragment) {
            self.contents = contents
            super.init(kind: .documentFragment, ownerDocument: nil)
        }
    }

    private static func line(_ out: inout String, _ depth: Int) {
        out += "| "
        out += String(repeating: "  ", count: depth)
    }

    private static func prefix(_ ns: Namespace) -> String {
        switch ns {
        case .svg: return "svg "
        case .mathML: return "math "
        default: return ""
        }
    }

    private static func attributeName(_ a: Attribute) -> String {
        switch a.namespace {
        case .xlink: return "xlink " + a.localName
        case .xml: return "xml " + a.localName
        case .xmlns: return "xmlns " + a.localName
        default: return a.localName
        }
    }
}
