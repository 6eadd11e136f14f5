/// A document fragment (https://dom.spec.whatwg.org/#interface-documentfragment): the
/// result of fragment parsing and the contents of a `template`.
public final class DocumentFragment: Node {
    public init(document: Document?) { super.init(kind: .documentFragment, link: document?.link) }
    public init(link: DocumentLink?) { super.init(kind: .documentFragment, link: link) }
    public override var nodeName: String { "#document-fragment" }
}
