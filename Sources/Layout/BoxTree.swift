import DOM
import DisplayList

/// The computed style of a box, from the built-in user-agent rules and `style=""`.
struct BoxStyle {
    var font = Font(family: .serif, size: 16)
    var color = Color.black
    var background: Color?
    var underline = false
    var preformatted = false
    var marginTop: Float = 0, marginBottom: Float = 0
    var marginLeft: Float = 0, marginRight: Float = 0
    var paddingLeft: Float = 0
    var paddingTop: Float = 0, paddingRight: Float = 0, paddingBottom: Float = 0
    /// Border widths (top, right, bottom, left) and color.
    var borderWidths: [Float] = [0, 0, 0, 0]
    var borderColor = Color.black
    /// CSS `width` (content box) in pixels or percent of the containing block; nil: auto.
    var width: Float?
    var widthPercent: Float?
    /// `margin-left`/`margin-right: auto` (both with a width: the block is centered).
    var autoLeft = false, autoRight = false
    /// The cascaded `display` (nil: the user-agent's).
    var display: String?
    /// A horizontal rule: a 2 px border of this color.
    var rule: Color?
    /// `• ` or `3. ` before the first line of a list item.
    var marker: String?
    var centered = false
    /// `text-align: right` (or `end`).
    var alignRight = false
    /// The `href` of the link this text is in (inherited): where a click on it goes.
    var link: String?
    /// The element this box or text belongs to (the innermost one): what a click there hits.
    var element: Element?
}

/// A piece of inline content.
enum InlineItem {
    /// A word (no spaces; for `pre`, a whole line), preceded by collapsible white space or not.
    case word(String, WordStyle, spaceBefore: Bool)
    /// `<br>` or a newline in `pre`.
    case lineBreak
}

/// What a word needs of its element's style, shared by the words of a text (a page has
/// millions of words: a `BoxStyle` each was most of a long page's layout memory and time).
final class WordStyle {
    let font: Font
    let color: Color
    let underline: Bool
    let preformatted: Bool
    let link: String?
    let element: Element?

    init(_ s: BoxStyle) {
        font = s.font
        color = s.color
        underline = s.underline
        preformatted = s.preformatted
        link = s.link
        element = s.element
    }
}

/// A block box: either block children or inline content (an anonymous block wraps inline
/// content that sits between blocks).
///
/// The tree is built as layout walks it, and let go behind it: a block element's box gets
/// its children when it is reached (`BoxBuilder.expand`) and drops them once it is laid out
/// (`release`), so a long page never has all of its boxes at once (a 50 MB page's whole box
/// tree was ~900 MB). The words are measured first in one walk of the same kind.
final class BlockBox {
    var style: BoxStyle
    var children: [BlockBox] = []
    var inlines: [InlineItem] = []
    /// The element whose children this box's children and inlines come from (nil: an
    /// anonymous box, built whole), and the list counter they start at.
    let source: Element?
    let listCounter: Int?
    /// Whether `children` and `inlines` are built.
    var expanded: Bool

    init(style: BoxStyle, source: Element? = nil, listCounter: Int? = nil) {
        self.style = style
        self.source = source
        self.listCounter = listCounter
        expanded = source == nil
    }

    /// Lets the children and inlines go (`expand` builds them again).
    func release() {
        guard source != nil else { return }
        children = []
        inlines = []
        expanded = false
    }

    /// White space alone makes no line: a box with nothing to show is skipped.
    var isEmpty: Bool {
        children.isEmpty && inlines.isEmpty && style.marker == nil && style.rule == nil
            && style.marginTop == 0 && style.marginBottom == 0 && style.background == nil
            && style.borderWidths == [0, 0, 0, 0] && style.paddingTop == 0 && style.paddingBottom == 0
    }
}

/// DOM -> box tree, with the user-agent style sheet's rules built in.
struct BoxBuilder {
    /// Elements hidden by a user style sheet with `!important` (content blockers).
    var userHidden: Set<ObjectIdentifier> = []
    /// The document's `<style>` sheets and `style=""` (empty until `build`).
    var cascade = Cascade()
    var viewportWidth: Float = 800
    /// The fetched text of a `<link rel=stylesheet>` (nil: not available).
    var linked: ((Element) -> String?)?

    static let hidden: Set<String> = ["head", "script", "style", "title", "meta", "link", "template", "base",
                                      "datalist", "param", "noscript", "area", "map", "track", "source"]
    static let blocks: Set<String> = [
        "html", "body", "address", "blockquote", "center", "dialog", "div", "figure", "figcaption", "footer",
        "form", "header", "hr", "legend", "listing", "main", "p", "plaintext", "pre", "search", "xmp", "article",
        "aside", "h1", "h2", "h3", "h4", "h5", "h6", "hgroup", "nav", "section", "dir", "dd", "dl", "dt", "menu",
        "ol", "ul", "li", "fieldset", "details", "summary", "table", "caption", "thead", "tbody", "tfoot", "tr",
        "td", "th",
    ]

    /// The root box (its children are built by `expand`).
    mutating func build(_ document: Document) -> BlockBox {
        cascade = Cascade(document: document, linked: linked)
        guard let html = document.documentElement else { return BlockBox(style: BoxStyle()) }
        return BlockBox(style: BoxStyle(), source: html)
    }

    /// Builds `box`'s children and inlines if they are not (block children are left to
    /// build: each is expanded when layout reaches it).
    func expand(_ box: BlockBox) {
        guard !box.expanded, let source = box.source else { return }
        box.expanded = true
        buildChildren(of: source, into: box, inherited: box.style, listCounter: box.listCounter)
    }

    /// Every (font, word) the tree shows, in order (the words to measure). The boxes built
    /// for it stay for layout up to `keep` inline items (an ordinary page is built once);
    /// past that they are let go box by box (a long page is built again as it is laid out,
    /// rather than held whole).
    func forEachWord(_ box: BlockBox, keep: inout Int, _ body: (Font, String) -> Void) {
        let built = box.expanded
        expand(box)
        for item in box.inlines {
            if case .word(let text, let style, _) = item { body(style.font, text) }
        }
        if let marker = box.style.marker { body(box.style.font, marker) }
        for child in box.children { forEachWord(child, keep: &keep, body) }
        keep -= box.inlines.count + 1
        if !built && keep < 0 { box.release() }
    }

    /// How many inline items the word pass keeps built for layout (~100 bytes each).
    static let keptInlineItems = 300_000

    /// The root's or else the body's background (`bgcolor`, `<style>`, `style=""`), which
    /// paints the whole canvas.
    func canvasBackground(_ html: Element) -> Color? {
        var s = BoxStyle()
        s.apply(cascade.declarations(for: html), parent: BoxStyle(), viewportWidth: viewportWidth)
        if let bg = s.background { return bg }
        var child = html.firstChild
        while let c = child {
            if let e = c as? Element, e.isHTML("body") {
                var b = BoxStyle()
                b.background = e.attribute("bgcolor").flatMap(CSSColor.parse)
                b.apply(cascade.declarations(for: e), parent: BoxStyle(), viewportWidth: viewportWidth)
                return b.background
            }
            child = c.nextSibling
        }
        return nil
    }

    /// The style of element `e` given its parent's (inherited properties only carry over).
    func style(of e: Element, inherited parent: BoxStyle, index: Int?) -> BoxStyle {
        var s = BoxStyle()
        s.font = parent.font
        s.color = parent.color
        s.underline = parent.underline
        s.preformatted = parent.preformatted
        s.centered = parent.centered
        s.alignRight = parent.alignRight
        s.link = parent.link
        s.element = e
        let em = s.font.size
        switch e.localName {
        case "body":
            s.marginTop = 8; s.marginBottom = 8; s.marginLeft = 8; s.marginRight = 8
        case "p", "dl", "figure":
            s.marginTop = em; s.marginBottom = em
        case "blockquote":
            s.marginTop = em; s.marginBottom = em; s.marginLeft = 40; s.marginRight = 40
        case "ul", "ol", "menu", "dir":
            s.paddingLeft = 40
            // A list inside a list has no vertical margins (the UA sheet's nested-list rules).
            var nested = false
            var up = e.parent
            while let p = up as? Element {
                if ["ul", "ol", "menu", "dir"].contains(p.localName) { nested = true; break }
                up = p.parent
            }
            if !nested { s.marginTop = em; s.marginBottom = em }
        case "dd":
            s.marginLeft = 40
        case "pre", "listing", "xmp", "plaintext":
            s.marginTop = em; s.marginBottom = em
            s.preformatted = true
            s.font.family = .monospace
            s.font.size = 13
        case "h1", "h2", "h3", "h4", "h5", "h6":
            let (size, margin): (Float, Float) = switch e.localName {
            case "h1": (2, 0.67)
            case "h2": (1.5, 0.83)
            case "h3": (1.17, 1)
            case "h4": (1, 1.33)
            case "h5": (0.83, 1.67)
            default: (0.67, 2.33)
            }
            s.font.size = em * size
            s.font.bold = true
            s.marginTop = s.font.size * margin; s.marginBottom = s.marginTop
        case "hr":
            s.marginTop = em / 2; s.marginBottom = em / 2
            s.rule = Color(red: 128, green: 128, blue: 128)
        case "li":
            if let index { s.marker = "\(index). " } else { s.marker = "• " }
        case "b", "strong", "th", "dt":
            s.font.bold = true
        case "i", "em", "cite", "var", "dfn", "address":
            s.font.italic = true
        case "code", "tt", "kbd", "samp":
            s.font.family = .monospace
            s.font.size = em * 13 / 16
        case "a":
            if let href = e.attribute("href") { s.color = .link; s.underline = true; s.link = href }
        case "u", "ins":
            s.underline = true
        case "small":
            s.font.size = em * 5 / 6
        case "big":
            s.font.size = em * 1.2
        case "center":
            s.centered = true
        default:
            break
        }
        switch e.attribute("align")?.lowercased() {
        case "center": s.centered = true; s.alignRight = false
        case "right": s.alignRight = true; s.centered = false
        case "left": s.alignRight = false; s.centered = false
        default: break
        }
        if e.localName == "font", let c = e.attribute("color").flatMap(CSSColor.parse) { s.color = c }
        if e.localName == "body", let bg = e.attribute("bgcolor").flatMap(CSSColor.parse) { s.background = bg }
        s.apply(cascade.declarations(for: e), parent: parent, viewportWidth: viewportWidth)
        // The root's and the body's backgrounds paint the canvas (`canvasBackground`).
        if e.localName == "body" || e.localName == "html" { s.background = nil }
        return s
    }

    func display(of e: Element) -> (hidden: Bool, block: Bool) {
        guard e.namespace == .html else { return (true, false) }
        if !userHidden.isEmpty && userHidden.contains(ObjectIdentifier(e)) { return (true, false) }
        if e.attribute("hidden") != nil { return (true, false) }
        var declared: String?
        for d in cascade.declarations(for: e) where d.name == "display" { declared = d.value.lowercased() }
        switch declared {
        case "none": return (true, false)
        case "block", "list-item", "flex", "grid", "table", "flow-root", "table-row", "table-cell", "table-row-group":
            return (false, true)
        case "inline", "inline-block", "inline-flex", "inline-grid", "inline-table", "contents": return (false, false)
        default: break
        }
        if BoxBuilder.hidden.contains(e.localName) { return (true, false) }
        return (false, BoxBuilder.blocks.contains(e.localName))
    }

    /// Adds `parent`'s children to `box`: block children as boxes, runs of inline content
    /// as anonymous boxes.
    func buildChildren(of parent: Node, into box: BlockBox, inherited: BoxStyle, listCounter: Int?) {
        var anonymous: BlockBox?
        var counter = listCounter
        var child = parent.firstChild
        while let c = child {
            defer { child = c.nextSibling }
            if let e = c as? Element {
                let (hidden, block) = display(of: e)
                if hidden { continue }
                if block {
                    anonymous = nil
                    let index: Int? = e.isHTML("li") ? counter : nil
                    if e.isHTML("li"), let n = counter { counter = n + 1 }
                    let s = style(of: e, inherited: inherited, index: index)
                    let childCounter: Int? = e.isHTML("ol") ? Int(e.attribute("start") ?? "1") ?? 1 : nil
                    box.children.append(BlockBox(style: s, source: e, listCounter: childCounter))
                    continue
                }
            }
            if anonymous == nil {
                var s = BoxStyle()
                s.font = inherited.font
                s.color = inherited.color
                s.centered = inherited.centered
                s.alignRight = inherited.alignRight
                s.preformatted = inherited.preformatted
                s.element = inherited.element
                let a = BlockBox(style: s)
                box.children.append(a)
                anonymous = a
            }
            addInline(c, to: anonymous!, style: inherited)
        }
        // White space alone makes no line (a block child is checked once built: `isEmpty`).
        box.children.removeAll { $0.expanded && $0.isEmpty }
    }

    func addInline(_ node: Node, to box: BlockBox, style: BoxStyle) {
        if let text = node as? Text {
            addText(text.data, to: box, style: style)
            return
        }
        guard let e = node as? Element else { return }
        let (hidden, block) = display(of: e)
        if hidden { return }
        if e.isHTML("br") { box.inlines.append(.lineBreak); return }
        if e.isHTML("img") {
            if let alt = e.attribute("alt"), !alt.isEmpty { addText(alt, to: box, style: style) }
            return
        }
        let s = self.style(of: e, inherited: style, index: nil)
        if block {
            // A block inside inline content (after display: block in style=""): its own lines.
            box.inlines.append(.lineBreak)
        }
        var child = e.firstChild
        while let c = child {
            addInline(c, to: box, style: s)
            child = c.nextSibling
        }
        if block { box.inlines.append(.lineBreak) }
    }

    func addText(_ data: String, to box: BlockBox, style boxStyle: BoxStyle) {
        let style = WordStyle(boxStyle)
        if style.preformatted {
            var first = true
            for line in data.split(separator: "\n", omittingEmptySubsequences: false) {
                if !first { box.inlines.append(.lineBreak) }
                first = false
                let text = String(line).replacingTabs()
                if !text.isEmpty { box.inlines.append(.word(text, style, spaceBefore: false)) }
            }
            return
        }
        // Words are cut at ASCII white space on the UTF-8 bytes (a scalar boundary) and
        // copied once each (appending scalar by scalar cost most of a long page's box building).
        var space = false
        let utf8 = data.utf8
        var i = utf8.startIndex
        var wordStart: String.Index?
        while i != utf8.endIndex {
            let b = utf8[i]
            if b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D || b == 0x0C {
                if let start = wordStart {
                    box.inlines.append(.word(String(data[start..<i]), style, spaceBefore: space))
                    wordStart = nil
                }
                space = true
            } else if wordStart == nil {
                wordStart = i
            }
            i = utf8.index(after: i)
        }
        if let start = wordStart { box.inlines.append(.word(String(data[start..<i]), style, spaceBefore: space)) }
        else if space { box.inlines.append(.word("", style, spaceBefore: true)) }
    }
}

extension String {
    func replacingTabs() -> String {
        var out = ""
        var column = 0
        for ch in self {
            if ch == "\t" {
                let n = 8 - column % 8
                out += String(repeating: " ", count: n)
                column += n
            } else {
                out.append(ch)
                column += 1
            }
        }
        return out
    }
}
