/// A doctype (https://dom.spec.whatwg.org/#interface-documenttype).
public final class DocumentType: Node {
    public var name: String
    public var publicId: String
    public var systemId: String

    public init(document: Document, name: String, publicId: String = "", systemId: String = "") {
        self.name = name
        self.publicId = publicId
        self.systemId = systemId
        super.init(kind: .documentType, link: document.link)
    }

    public override var nodeName: String { name }
}
