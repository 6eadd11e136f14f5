/// Text and comments (https://dom.spec.whatwg.org/#interface-characterdata).
public class CharacterData: Node {
    public final var data: String

    init(kind: Kind, link: DocumentLink?, data: String) {
        self.data = data
        super.init(kind: kind, link: link)
    }
}

/// A text node.
public final class Text: CharacterData {
    public init(document: Document?, data: String) { super.init(kind: .text, link: document?.link, data: data) }
    /// For parsers (see `Element.init(link:...)`).
    public init(link: DocumentLink?, data: String) { super.init(kind: .text, link: link, data: data) }
    public override var nodeName: String { "#text" }
}

/// A comment node.
public final class Comment: CharacterData {
    public init(document: Document?, data: String) { super.init(kind: .comment, link: document?.link, data: data) }
    public init(link: DocumentLink?, data: String) { super.init(kind: .comment, link: link, data: data) }
    public override var nodeName: String { "#comment" }
}
