/// The tokens of the HTML tokenizer (https://html.spec.whatwg.org/#tokenization). Names and
/// text are UTF-8 bytes; adjacent characters come as one run.
public enum Token: Equatable {
    case doctype(DoctypeToken)
    case startTag(TagToken)
    case endTag(TagToken)
    case comment([UInt8])
    /// A run of character tokens.
    case characters([UInt8])
    case endOfFile
}

public struct DoctypeToken: Equatable {
    public var name: [UInt8]?
    public var publicId: [UInt8]?
    public var systemId: [UInt8]?
    public var forceQuirks = false
}

public struct TagToken: Equatable {
    public struct Attribute: Equatable {
        public var name: [UInt8]
        public var value: [UInt8]
    }
    public var name: [UInt8] = []
    public var attributes: [Attribute] = []
    public var selfClosing = false

    /// The value of the attribute `name` (lower case), if the tag has it.
    public func attribute(_ name: String) -> [UInt8]? {
        for a in attributes where a.name.elementsEqual(name.utf8) { return a.value }
        return nil
    }
}
