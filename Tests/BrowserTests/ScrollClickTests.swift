import Testing
import DisplayList
import DOM
import HTML
import HostCore
import Layout
import WebContentCore

/// The window's scrolling, clicks and swipe slide, without a display: hit testing of a laid
/// out page, the viewport's view of a long list, the keys' scroll steps and the slide.
@Suite struct ScrollClickTests {
    func page(_ html: String, width: Float = 400) throws -> PageLayout {
        try LayoutEngine(viewportWidth: width, viewportHeight: 300).layoutPage(HTMLParser.parseDocument(html), measurer: FixedMeasurer())
    }

    @Test func aPointHitsTheInnermostElementThere() throws {
        let p = try page("<body style='margin:0'><div id=outer style='padding:10px'><p id=para style='margin:0'>aaaa <b id=bold>bbbb</b></p></div>"
                         + "<div id=low style='padding-bottom:500px'></div><p id=far>far")
        // 8 px a character: "aaaa " then "bbbb" at x 40...72, the line at y 10...29.
        #expect(p.element(atX: 12, y: 15)?.attribute("id") == "para")
        #expect(p.element(atX: 50, y: 15)?.attribute("id") == "bold")
        #expect(p.element(atX: 300, y: 15)?.attribute("id") == "para")   // the p's box, right of its text
        #expect(p.element(atX: 5, y: 5)?.attribute("id") == "outer")     // the div's padding
        #expect(p.element(atX: 5, y: 200)?.attribute("id") == "low")
        #expect(p.contentHeight > 500)
        let far = try #require(p.hits.last { $0.element.attribute("id") == "far" })
        #expect(far.rect.y > 500)
    }

    @Test func theViewportShowsThePageFromTheScrollPosition() throws {
        let p = try page("<body style='margin:0'><p style='margin:0'>top</p><div style='padding-bottom:1000px'></div><p style='margin:0'>bottom")
        func texts(_ l: DisplayList) -> [(String, Float)] {
            l.items.compactMap { if case .text(let r) = $0 { return (r.text, r.baseline) } else { return nil } }
        }
        #expect(texts(p.list.scrolled(to: 0)).map(\.0) == ["top"])
        let bottom = texts(p.list.scrolled(to: p.contentHeight - 300))
        #expect(bottom.map(\.0) == ["bottom"])
        #expect(bottom[0].1 > 250 && bottom[0].1 < 300)
        #expect(p.list.scrolled(to: 40).height == 300)
    }

    @Test func keysScrollByLinesAndPages() {
        #expect(WindowCommand.forKey(0x20, control: false, alt: false, shift: false) == .scroll(.pageDown))
        #expect(WindowCommand.forKey(0x20, control: false, alt: false, shift: true) == .scroll(.pageUp))
        #expect(WindowCommand.forKey(0xff56, control: false, alt: false, shift: false) == .scroll(.pageDown))
        #expect(WindowCommand.forKey(0xff56, control: true, alt: false, shift: false) == .nextTab)
        #expect(WindowCommand.forKey(0xff54, control: false, alt: false, shift: false) == .scroll(.lineDown))
        #expect(WindowCommand.forKey(0xff50, control: false, alt: false, shift: false) == .scroll(.top))
        #expect(WindowCommand.ScrollStep.pageDown.position(from: 100, viewportHeight: 400) == 450)
        #expect(WindowCommand.ScrollStep.lineUp.position(from: 10, viewportHeight: 400) == 0)
        #expect(WindowCommand.ScrollStep.bottom.position(from: 0, viewportHeight: 400) > 1e6)
    }

    @Test func aSwipeThatNavigatesSlidesThePageOutAndTheNextIn() {
        // Released 300 px to the right: back. The page goes on to the right edge, eased out;
        // the page before it comes in from the left, a width behind.
        let a = SwipeAnimation(offset: 300, navigation: .back, width: 800, time: 1000)
        #expect(a.offset(at: 1000) == 300 && a.incomingOffset(at: 1000) == -500)
        #expect(a.duration < SwipeAnimation.fullDuration && a.duration >= 60)
        let mid = a.offset(at: 1000 + a.duration / 2)
        #expect(mid > 300 + 0.5 * 500)   // eased out: past halfway at half time
        #expect(a.offset(at: 1000 + a.duration) == 800 && a.incomingOffset(at: 1000 + a.duration) == 0)
        #expect(a.isFinished(at: 1000 + a.duration) && !a.isFinished(at: 1001))
        let f = SwipeAnimation(offset: -400, navigation: .forward, width: 800, time: 0)
        #expect(f.offset(at: 1000) == -800 && f.incomingOffset(at: 1000) == 0 && f.incomingOffset(at: 0) == 400)
    }

    @Test func aSwipeThatDoesNotNavigateSlidesBack() {
        let a = SwipeAnimation(offset: 100, navigation: nil, width: 800, time: 0)
        #expect(a.offset(at: 0) == 100 && a.offset(at: 1000) == 0 && a.incomingOffset(at: 10) == nil)
        // The events of a touchpad swipe, then the slide from where the fingers left it.
        var t = SwipeTracker(width: 800)
        for i in 0..<20 { _ = t.scroll(dx: -20, dy: 0, time: Double(i * 10), canGoBack: true, canGoForward: true) }
        let offset = t.offset
        let navigation = t.end()
        let slide = SwipeAnimation(offset: offset, navigation: navigation, width: 800, time: 0)
        #expect(navigation == .back && slide.from == 400 && slide.to == 800)
    }
}

/// The same through the processes: a window's click, scroll and resize on a real tab.
@Suite(.serialized) struct WindowPageTests {
    let page = """
        <title>P</title><body style='margin:0'>
        <div id=hit style='background-color:#0000ff;width:100px'>hit</div>
        <div style='background-color:#ffff00'><a id=stay href='http://x.example/next'>stay</a></div>
        <div id=flag style='background-color:#ff00ff;width:50px'>flag</div>
        <div style='padding-bottom:1000px'></div><div style='background-color:#008080'>far</div>
        <script>
        var flag = document.getElementById('flag'), seen = [];
        document.getElementById('hit').addEventListener('click', function (e) { seen.push(e.type + ' ' + e.clientX); flag.style.backgroundColor = 'rgb(0, 255, 0)'; });
        document.getElementById('hit').addEventListener('mousedown', function (e) { seen.push(e.type); });
        document.getElementById('stay').onclick = function (e) { e.preventDefault(); flag.style.backgroundColor = 'rgb(255, 128, 0)'; };
        </script>
        """

    func rgb(_ tab: Tab, _ x: Int, _ y: Int) -> [UInt8] {
        guard let p = tab.layer?.pixel(x: x, y: y) else { return [] }
        return [p.red, p.green, p.blue]
    }

    @Test func clicksGoThroughTheDOMAndScrollAndResizeRelayout() throws {
        let browser = try makeBrowser()
        let tab = try browser.openTab()
        browser.navigate(tab, .html(page, baseURL: "http://p.example/"))
        #expect(browser.waitForPage(tab, timeout: 30))
        // The listener's div (first line), then the link whose onclick cancels it (second line).
        browser.click(tab, x: 20, y: 8)
        #expect(browser.command(tab, "execute", ["return seen.join()", "[]"])?.json == #"{"value":"mousedown,click 20"}"#)
        #expect(rgb(tab, 45, 45) == [0, 255, 0])
        browser.click(tab, x: 10, y: 27)
        #expect(rgb(tab, 45, 45) == [255, 128, 0])
        #expect(tab.history.count == 1 && tab.url == "http://p.example/")
        // Scrolled: the page moves up, clamped at its bottom; the entry keeps the position.
        #expect(browser.setScroll(tab, y: 38) == 38)
        #expect(rgb(tab, 45, 8) == [255, 128, 0])   // the flag's line, now at the top
        let bottom = browser.setScroll(tab, y: 1e7)
        #expect(bottom > 700 && bottom < 1200 && tab.history[0].scrollY == bottom)
        #expect(rgb(tab, 200, 290) == [0, 128, 128])
        #expect(browser.command(tab, "execute", ["return scrollY", "[]"])?.json == "{\"value\":\(Int(bottom))}")
        // Resized: laid out again at the new width (the full-width band follows).
        browser.setScroll(tab, y: 0)
        browser.resize(width: 200, height: 150)
        #expect(tab.layer?.width == 200 && tab.layer?.height == 150)
        #expect(browser.command(tab, "execute", ["return innerWidth", "[]"])?.json == #"{"value":200}"#)
        #expect(rgb(tab, 190, 27) == [255, 255, 0])
    }
}

@Suite(.serialized) struct ScriptScrollTests {
    @Test func scrollToFromAScriptScrollsThePageAndTheEntryKeepsIt() throws {
        let browser = try makeBrowser()
        let tab = try browser.openTab()
        let page = "<title>S</title><body style='margin:0'><div style='background-color:#ff0000'>top</div>"
            + "<div style='padding-bottom:2000px'></div><div style='background-color:#0000ff'>bottom</div>"
        browser.navigate(tab, .html(page, baseURL: "http://s.example/"))
        #expect(browser.waitForPage(tab, timeout: 30))
        #expect(browser.command(tab, "execute", ["scrollTo(0, 100); return scrollY", "[]"])?.json == #"{"value":100}"#)
        #expect(pump(browser, seconds: 5) { tab.scrollY == 100 && tab.history[0].scrollY == 100 })
        #expect(browser.command(tab, "execute", ["scrollBy({top: 50}); return pageYOffset", "[]"])?.json == #"{"value":150}"#)
        #expect(pump(browser, seconds: 5) { tab.scrollY == 150 })
        // Past the bottom: clamped when shown; the bottom's blue band is at the viewport's foot.
        _ = browser.command(tab, "execute", ["scrollTo(0, 1e6)", "[]"])
        #expect(pump(browser, seconds: 5) { tab.scrollY > 1500 && tab.scrollY < 2100 })
        let p = tab.layer?.pixel(x: 300, y: 290)
        #expect(p.map { [$0.red, $0.green, $0.blue] } == [0, 0, 255])
    }
}

@Suite(.serialized) struct GeometryTests {
    @Test func boundingRectsAndElementFromPointComeFromTheLayout() throws {
        let browser = try makeBrowser()
        let tab = try browser.openTab()
        let page = "<title>G</title><body style='margin:0'><div id=a style='background-color:#ff0000;width:100px'>a</div>"
            + "<div id=b style='padding:5px'><span id=s>bb</span></div><div style='padding-bottom:1000px'></div>"
        browser.navigate(tab, .html(page, baseURL: "http://g.example/"))
        #expect(browser.waitForPage(tab, timeout: 30))
        func run(_ script: String) -> String? { browser.command(tab, "execute", [script, "[]"])?.json }
        // 16 px serif: 19 px lines; b's 5 px padding around its line.
        #expect(run("var r = document.getElementById('a').getBoundingClientRect(); return [r.x, r.y, r.width, r.height]")
                == #"{"value":[0,0,100,19]}"#)
        #expect(run("var r = document.getElementById('b').getBoundingClientRect(); return [r.top, r.height, r.right]")
                == #"{"value":[19,29,400]}"#)
        #expect(run("return document.elementFromPoint(8, 28).id") == #"{"value":"s"}"#)
        #expect(run("return document.elementFromPoint(300, 28).id") == #"{"value":"b"}"#)
        // Changed by the script, laid out again before it measures; relative to the viewport.
        #expect(run("document.getElementById('a').style.width = '50px'; return document.getElementById('a').offsetWidth")
                == #"{"value":50}"#)
        _ = run("window.addEventListener('scroll', function () { window.seen = scrollY; })")
        browser.setScroll(tab, y: 10)
        #expect(run("return document.getElementById('b').getBoundingClientRect().top") == #"{"value":9}"#)
        #expect(run("return window.seen") == #"{"value":10}"#)   // the scroll event reached the window
        #expect(run("return document.getElementById('nope') === null && document.createElement('p').getBoundingClientRect().width")
                == #"{"value":0}"#)
    }
}
