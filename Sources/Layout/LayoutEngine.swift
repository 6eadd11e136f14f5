import DOM
import DisplayList

/// Text sizes as layout needs them. The content process implements this over IPC (the
/// rendering process measures with Pango), tests with a fixed-width double.
public protocol TextMeasurer {
    /// The size of each `(font, text)`, in order. One call per layout pass: implementations
    /// may make one round trip for the whole batch.
    func measure(_ texts: [(Font, String)]) throws -> [TextSize]
}

/// The advance width of a text and its font's ascent and descent, in pixels.
public struct TextSize: Equatable, Sendable {
    public var width: Float
    public var ascent: Float
    public var descent: Float

    public init(width: Float, ascent: Float, descent: Float) {
        self.width = width
        self.ascent = ascent
        self.descent = descent
    }
}

/// Block and inline layout of a document into a display list: the user-agent style sheet's
/// common rules (display none/block/inline, margins, headings, lists, `pre`, links), the
/// `style` attribute's `color` and `background-color`, and greedy line breaking at spaces.
///
/// A first cut of DESIGN.md §8's `Layout` layer; the cascade (`CSS`) replaces `BoxStyle`'s
/// built-in rules when it lands.
public struct LayoutEngine {
    public var viewportWidth: Float
    public var viewportHeight: Float
    /// Elements a user style sheet sets to `display: none !important` (the content blockers'
    /// css-display-none): not rendered, whatever the page's style says.
    public var hiddenElements: Set<ObjectIdentifier> = []
    /// The text of a `<link rel=stylesheet>` element's sheet, fetched by the caller (nil:
    /// none; `Cascade.isStyleSheetLink` says which links are sheets).
    public var linkedStyleSheet: ((Element) -> String?)?

    /// Called at each step of `layoutPage` (the content process's memory log).
    nonisolated(unsafe) public static var trace: ((String) -> Void)?

    public init(viewportWidth: Float, viewportHeight: Float) {
        self.viewportWidth = viewportWidth
        self.viewportHeight = viewportHeight
    }

    /// Lays `document` out and paints it. The list is the viewport's size; `contentHeight`
    /// is how tall the document is.
    public func layout(_ document: Document, measurer: TextMeasurer) throws -> (list: DisplayList, contentHeight: Float) {
        let (list, height, _) = try layoutWithLinks(document, measurer: measurer)
        return (list, height)
    }

    /// `layout`, and where the page's links are (CSS pixels): what a click at a point hits.
    public func layoutWithLinks(_ document: Document, measurer: TextMeasurer) throws
        -> (list: DisplayList, contentHeight: Float, links: [LinkArea]) {
        let page = try layoutPage(document, measurer: measurer)
        return (page.list, page.contentHeight, page.links)
    }

    /// `layout`, with where the page's links are and where each element was laid out (CSS
    /// pixels): what a click at a point hits (`PageLayout.element(atX:y:)`).
    public func layoutPage(_ document: Document, measurer: TextMeasurer) throws -> PageLayout {
        var builder = BoxBuilder()
        builder.userHidden = hiddenElements
        builder.viewportWidth = viewportWidth
        builder.linked = linkedStyleSheet
        let root = builder.build(document)
        LayoutEngine.trace?("boxes built")
        // One batch of measurements for every word and every font's space.
        var keys: [MeasureKey: Int] = [:]
        var batch: [(Font, String)] = []
        func want(_ font: Font, _ text: String) {
            let key = MeasureKey(font: font, text: text)
            if keys[key] == nil {
                keys[key] = batch.count
                batch.append((font, text))
            }
        }
        var keep = BoxBuilder.keptInlineItems
        var spaced: Font?  // (a font's space is wanted once: neighbours mostly share a font)
        builder.forEachWord(root, keep: &keep) { font, text in
            want(font, text)
            if font != spaced {
                want(font, " ")
                spaced = font
            }
        }
        let sizes = batch.isEmpty ? [] : try measurer.measure(batch)
        guard sizes.count == batch.count else { throw LayoutError.measurementCount }
        var table: [MeasureKey: TextSize] = [:]
        for (key, index) in keys { table[key] = sizes[index] }
        LayoutEngine.trace?("measured \(batch.count) words")

        var painter = Painter(sizes: table, builder: builder)
        let background = root.style.background ?? document.documentElement.flatMap { builder.canvasBackground($0) } ?? .white
        painter.layoutBlock(root, x: 0, width: viewportWidth)
        let height = painter.y + painter.pendingMargin
        LayoutEngine.trace?("painted")
        let list = DisplayList(width: viewportWidth, height: viewportHeight, background: background, items: painter.items)
        return PageLayout(list: list, contentHeight: height, contentWidth: max(painter.maxX, viewportWidth), links: painter.links,
                          hits: painter.hits)
    }

    /// The document's title (the `title` element's text, whitespace collapsed).
    public static func title(of document: Document) -> String {
        var found: Element?
        document.forEachDescendant { node in
            if found == nil, let e = node as? Element, e.isHTML("title") { found = e }
        }
        guard let text = found?.textContent else { return "" }
        return text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" || $0 == "\u{0C}" })
            .joined(separator: " ")
    }
}

/// A piece of a link's text on a line, and the link's `href` (as written).
public struct LinkArea: Equatable, Sendable {
    public var rect: Rect
    public var href: String

    public func contains(x: Float, y: Float) -> Bool {
        x >= rect.x && x < rect.x + rect.width && y >= rect.y && y < rect.y + rect.height
    }
}

/// Where an element's box, or a piece of its text on a line, was laid out.
public struct HitArea {
    public var rect: Rect
    public var element: Element

    public func contains(x: Float, y: Float) -> Bool {
        x >= rect.x && x < rect.x + rect.width && y >= rect.y && y < rect.y + rect.height
    }
}

/// A laid-out page: its display list (items at page coordinates: the list's size is the
/// viewport's, items below it are further down the page), how tall it is, and what a point
/// of it hits.
public struct PageLayout {
    public var list: DisplayList
    public var contentHeight: Float
    /// How wide the page is (at least the viewport; CSS pixels).
    public var contentWidth: Float
    public var links: [LinkArea]
    /// In painting order: the last area at a point is the element on top there.
    public var hits: [HitArea]

    /// The element at (x, y) in CSS pixels of the page (nil: only the canvas is there).
    public func element(atX x: Float, y: Float) -> Element? {
        hits.last(where: { $0.contains(x: x, y: y) })?.element
    }
}

public enum LayoutError: Error {
    case measurementCount
}

struct MeasureKey: Hashable {
    var font: Font
    var text: String
}
