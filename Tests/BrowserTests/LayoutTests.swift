import Testing
import DisplayList
import HTML
import Layout
import WebContentCore

@Suite struct LayoutTests {
    func layout(_ html: String, width: Float = 400) throws -> DisplayList {
        try LayoutEngine(viewportWidth: width, viewportHeight: 300).layout(HTMLParser.parseDocument(html), measurer: FixedMeasurer()).list
    }

    func texts(_ list: DisplayList) -> [TextRun] {
        list.items.compactMap { if case .text(let run) = $0 { return run } else { return nil } }
    }

    @Test func headIsHiddenAndTitleIsRead() throws {
        let html = "<title> A  title </title><style>p{}</style><script>x()</script><p>Body"
        #expect(texts(try layout(html)).map(\.text) == ["Body"])
        #expect(LayoutEngine.title(of: HTMLParser.parseDocument(html)) == "A title")
    }

    @Test func linesBreakAtSpacesWithinTheWidth() throws {
        // 8 px a character at 16 px: "aaaa " is 40 px; body margins leave 84 px of 100.
        let runs = texts(try layout("<p>aaaa bbbb cccc dddd", width: 100))
        #expect(runs.map(\.text) == ["aaaa bbbb", "cccc dddd"])
        #expect(runs[1].baseline > runs[0].baseline)
        #expect(runs.allSatisfy { $0.x == 8 })
    }

    @Test func blocksStackAndStylesApply() throws {
        let list = try layout("<h1>Big</h1><p>x <b>bold</b> <a href=y>link</a></p><div style='background-color:#00ff00'>box</div>")
        let runs = texts(list)
        #expect(runs[0].text == "Big" && runs[0].font.bold && runs[0].font.size == 32)
        #expect(runs.contains { $0.text == "bold" && $0.font.bold })
        #expect(runs.contains { $0.text == "link" && $0.color == .link })
        #expect(list.items.contains { if case .fill(_, let c) = $0 { return c == Color(red: 0, green: 255, blue: 0) } else { return false } })
        let ys = runs.map(\.baseline)
        #expect(ys == ys.sorted())
    }

    @Test func nestedListsHaveNoVerticalMargins() throws {
        let runs = texts(try layout("<ul><li>a<ul><li>b</ul></ul>"))
        #expect(runs.map(\.text) == ["• ", "a", "• ", "b"])
        // One line height (16 * 1.2) between the items' baselines.
        #expect(runs[3].baseline - runs[1].baseline == 19)
    }

    @Test func preKeepsLinesAndLiGetsAMarker() throws {
        let runs = texts(try layout("<pre>a  b\nc</pre><ul><li>item</ul><ol><li>one<li>two</ol>"))
        #expect(runs.map(\.text) == ["a  b", "c", "• ", "item", "1. ", "one", "2. ", "two"])
    }
}
