/// Serializing HTML fragments (https://html.spec.whatwg.org/#serialising-html-fragments):
/// the algorithm behind `innerHTML` and `outerHTML`. Iterative.
public enum HTMLSerializer {
    static let voidElements: Set<String> = [
        "area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "img", "input", "keygen",
        "link", "meta", "param", "source", "track", "wbr",
    ]
    static let rawTextParents: Set<String> = [
        "style", "script", "xmp", "iframe", "noembed", "noframes", "plaintext",
    ]

    /// `innerHTML`: the serialization of the children of `node` (a template's contents for a template).
    public static func innerHTML(_ node: Node, scripting: Bool = false) -> String {
        var out = ""
        let parent: Node = (node as? Element)?.templateContents ?? node
        serializeChildren(of: parent, into: &out, scripting: scripting)
        return out
    }

    /// `outerHTML`: the node itself and its descendants.
    public static func outerHTML(_ node: Node, scripting: Bool = false) -> String {
        var out = ""
        serialize([node], parentIsRaw: false, into: &out, scripting: scripting)
        return out
    }

    static func serializeChildren(of parent: Node, into out: inout String, scripting: Bool) {
        let raw: Bool
        if let e = parent as? Element, e.namespace == .html {
            raw = rawTextParents.contains(e.localName) || (scripting && e.localName == "noscript")
        } else {
            raw = false
        }
        serialize(parent.children, parentIsRaw: raw, into: &out, scripting: scripting)
    }

    private enum Work { case node(Node, raw: Bool), close(String) }

    static func serialize(_ nodes: [Node], parentIsRaw: Bool, into out: inout String, scripting: Bool) {
        var stack: [Work] = nodes.reversed().map { .node($0, raw: parentIsRaw) }
        while let w = stack.popLast() {
            switch w {
            case .close(let name):
                out += "</" + name + ">"
            case .node(let n, let raw):
                switch n {
                case let e as Element:
                    let name = (e.namespace == .html || e.namespace == .svg || e.namespace == .mathML) ? e.localName : e.prefix.map { $0 + ":" + e.localName } ?? e.localName
                    out += "<" + name
                    for a in e.attributes {
                        out += " " + attributeName(a) + "=\""
                        escape(a.value, attribute: true, into: &out)
                        out += "\""
                    }
                    out += ">"
                    if e.namespace == .html && voidElements.contains(e.localName) { continue }
                    stack.append(.close(name))
                    let container: Node = e.templateContents ?? e
                    let childRaw = e.namespace == .html && (rawTextParents.contains(e.localName) || (scripting && e.localName == "noscript"))
                    stack += container.children.reversed().map { .node($0, raw: childRaw) }
                case let t as Text:
                    if raw { out += t.data } else { escape(t.data, attribute: false, into: &out) }
                case let c as Comment:
                    out += "<!--" + c.data + "-->"
                case let d as DocumentType:
                    out += "<!DOCTYPE " + d.name + ">"
                default:
                    stack += n.children.reversed().map { .node($0, raw: false) }
                }
            }
        }
    }

    static func attributeName(_ a: Attribute) -> String {
        switch a.namespace {
        case .none: return a.localName
        case .xml: return "xml:" + a.localName
        case .xmlns: return a.localName == "xmlns" ? "xmlns" : "xmlns:" + a.localName
        case .xlink: return "xlink:" + a.localName
        default: return a.qualifiedName
        }
    }

    /// https://html.spec.whatwg.org/#escapingString
    static func escape(_ s: String, attribute: Bool, into out: inout String) {
        var needs = false
        for u in s.utf8 where u == 0x26 || u == 0x3C || u == 0x3E || u == 0x22 || u == 0xC2 { needs = true; break }
        if !needs { out += s; return }
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "\u{A0}": out += "&nbsp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where attribute: out += "&quot;"
            default: out.unicodeScalars.append(c)
            }
        }
    }
}
