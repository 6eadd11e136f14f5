/// The html5lib-tests tree format (`| <html>`, two spaces per level; attributes sorted, one
/// level deeper; template contents under `content`). Iterative.
public enum TreeDump {
    /// The children of `node`, one line each, at depth 0 (a document's or fragment's tree).
    public static func dump(childrenOf node: Node) -> String {
        var out = ""
        var stack: [Work] = node.children.reversed().map { .node($0, 0) }
        while let work = stack.popLast() {
            switch work {
            case .content(let contents, let depth):
                // A template's contents: a `content` line, its children one level below.
                line(&out, depth)
                out += "content\n"
                stack += contents.children.reversed().map { .node($0, depth + 1) }
            case .node(let n, let depth):
                line(&out, depth)
                switch n {
                case let e as Element:
                    out += "<" + prefix(e.namespace) + e.localName + ">\n"
                    let attrs = e.attributes.map { (attributeName($0), $0.value) }
                        .sorted { $0.0.utf16.lexicographicallyPrecedes($1.0.utf16) }
                    for (name, value) in attrs {
                        line(&out, depth + 1)
                        out += name + "=\"" + value + "\"\n"
                    }
                    stack += e.children.reversed().map { .node($0, depth + 1) }
                    if let contents = e.templateContents { stack.append(.content(contents, depth + 1)) }
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
                    out += n.nodeName + "\n"
                }
            }
        }
        return out
    }

    private enum Work {
        case node(Node, Int)
        case content(DocumentFragment, Int)
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
