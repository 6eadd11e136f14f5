/// Text and comments (https://dom.spec.whatwg.org/#interface-characterdata).
public class CharacterData: Node {
    public final var data: String

    init(kind: Kind, document: Document?, data: String) {
        self.data = data
        super.init(kind: kind, ownerDocument: document)
    }
}

/// A text node.
public final class Text: CharacterData {
    public init(document: Document?, data: String) { super.init(kind: .text, document: document, data: data) }
    public override var nodeName: String { "#text" }
}

/// A comment node.
public final class Comment: CharacterData {
    public init(document: Document?, data: String) { super.init(kind: .comment, document: document, data: data) }
    public override var nodeName: String { "#comment" }
}
