import DOM

/// Parses HTML documents and fragments by the WHATWG parsing algorithm
/// (https://html.spec.whatwg.org/multipage/parsing.html).
///
/// Input is bytes (UTF-8; invalid sequences become U+FFFD). Scripts are not run: with
/// `scripting` true the parser treats `<noscript>` as raw text, as a browser with scripts on.
public enum HTMLParser {
    public struct Result {
        public let document: Document
        /// Parse errors of the tokenizer and the tree builder.
        public let errorCount: Int
    }

    /// Parses a whole document.
    public static func parseDocument(_ bytes: [UInt8], scripting: Bool = false) -> Result {
        let document = Document()
        let builder = TreeBuilder(tokenizer: Tokenizer(input: InputStream.preprocess(bytes)), document: document, scripting: scripting)
        builder.run()
        return Result(document: document, errorCount: builder.errorCount + builder.tokenizer.errorCount)
    }

    public static func parseDocument(_ string: String, scripting: Bool = false) -> Document {
        parseDocument(Array(string.utf8), scripting: scripting).document
    }

    /// The HTML fragment parsing algorithm (https://html.spec.whatwg.org/#html-fragment-parsing-algorithm):
    /// the nodes `bytes` parse to as the contents of `context`, in a new fragment.
    public static func parseFragment(_ bytes: [UInt8], context: Element, scripting: Bool = false) -> (fragment: DocumentFragment, errorCount: Int) {
        let document = Document()
        if let mode = context.ownerDocument?.mode { document.mode = mode }
        var tokenizer = Tokenizer(input: InputStream.preprocess(bytes))
        if context.namespace == .html {
            switch context.localName {
            case "title", "textarea": tokenizer.state = .rcdata
            case "style", "xmp", "iframe", "noembed", "noframes": tokenizer.state = .rawtext
            case "script": tokenizer.state = .scriptData
            case "noscript" where scripting: tokenizer.state = .rawtext
            case "plaintext": tokenizer.state = .plaintext
            default: break
            }
        }
        let builder = TreeBuilder(tokenizer: tokenizer, document: document, scripting: scripting)
        builder.context = context
        builder.owner = context.ownerDocument
        let root = Element(document: document, namespace: .html, localName: "html")
        document.appendChild(root)
        builder.openElements.append(root)
        if context.isHTML("template") { builder.templateModes.append(.inTemplate) }
        builder.resetInsertionMode()
        var node: Node? = context
        while let n = node {
            if let e = n as? Element, e.isHTML("form") { builder.formElement = e; break }
            node = n.parent
        }
        builder.tokenizer.allowCDATA = context.namespace != .html
        builder.run()
        let fragment = DocumentFragment(document: context.ownerDocument)
        root.moveChildren(to: fragment)
        return (fragment, builder.errorCount + builder.tokenizer.errorCount)
    }
}
