import Testing
import DOM
import HTML
import WebContentCore

/// The content blockers' css-display-none sheet matched against a document.
@Suite struct HidingStyleSheetTests {
    static let html = """
        <html><body>
        <div id="top" class="ad banner"><span class="x">1</span></div>
        <ul><li>a</li><li class="sponsored">b</li><li>c</li></ul>
        <a href="https://ads.example/click?id=1">link</a>
        <p data-ad="yes">p</p><section><p>in section</p></section>
        <div class="Ad"></div>
        </body></html>
        """

    func hidden(_ sheet: String) -> [String] {
        let document = HTMLParser.parseDocument(Array(Self.html.utf8), scripting: false).document
        let set = HidingStyleSheet(sheet).hiddenElements(of: document)
        var out: [String] = []
        var stack: [Node] = document.documentElement.map { [$0] } ?? []
        while let n = stack.popLast() {
            if let e = n as? Element, set.contains(ObjectIdentifier(e)) {
                out.append(e.localName + (e.attribute("id").map { "#" + $0 } ?? "") + (e.attribute("class").map { "." + $0 } ?? ""))
            }
            stack.append(contentsOf: n.children.reversed())
        }
        return out
    }

    @Test func simpleSelectors() {
        #expect(hidden("#top{display:none !important;}") == ["div#top.ad banner"])
        #expect(hidden(".ad{display:none !important;}") == ["div#top.ad banner"])
        #expect(hidden(".sponsored,.x{display:none !important;}") == ["span.x", "li.sponsored"])
        #expect(hidden("a[href^=\"https://ads.\"]{display:none !important;}") == ["a"])
        #expect(hidden("a[href*=\"click\"]{display:none !important;}") == ["a"])
        #expect(hidden("[data-ad]{display:none !important;}") == ["p"])
        #expect(hidden("[class=\"ad\" i]{display:none !important;}") == ["div.Ad"])
    }

    @Test func combinatorsAndPseudoClasses() {
        #expect(hidden("section > p{display:none !important;}") == ["p"])
        #expect(hidden("body p{display:none !important;}").count == 2)
        #expect(hidden("li + li.sponsored{display:none !important;}") == ["li.sponsored"])
        #expect(hidden("ul > li:first-child{display:none !important;}") == ["li"])
        #expect(hidden("ul > li:nth-child(2n+1){display:none !important;}").count == 2)
        #expect(hidden("li:not(.sponsored){display:none !important;}").count == 2)
        #expect(hidden("div:empty{display:none !important;}") == ["div.Ad"])
    }

    /// A selector that is not understood matches nothing; its neighbours still apply.
    @Test func unsupportedSelectorsMatchNothing() {
        let sheet = HidingStyleSheet("div:has(> span),#top{display:none !important;}")
        #expect(sheet.unsupported == 1 && sheet.selectorCount == 1)
        #expect(hidden("div:has(> span),#top{display:none !important;}") == ["div#top.ad banner"])
        #expect(hidden("{display:none}").isEmpty)
        #expect(hidden("[[[{display:none !important;}").isEmpty)
    }
}
