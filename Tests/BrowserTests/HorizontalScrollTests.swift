import Testing
import DisplayList
import EngineIPC
import HTML
import HostCore
import Layout
import WebContentCore

/// A page wider than the viewport scrolls horizontally: layout reports its width, the
/// viewport's list is moved left, the window's (and WebDriver's) scroll takes x and y, a
/// script's `scrollTo`/`scrollBy` move it (and fire `scroll`), and back and forward bring the
/// entry's horizontal position back as they do the vertical one.
/// The tab's layer's pixel at (x, y) as [r, g, b, a] (empty: no layer).
func pixel(_ tab: Tab, _ x: Int, _ y: Int) -> [UInt8] {
    guard let p = tab.layer?.pixel(x: x, y: y) else { return [] }
    return [p.0, p.1, p.2, p.3]
}

@Suite(.serialized) struct HorizontalScrollTests {
    static let wide = "<title>Wide</title><body style='margin:0;background-color:#ffffff'><div style='width:1200px'>"
        + "<div style='margin-left:500px;width:100px;background-color:#ff0000'>x</div></div><div style='padding-bottom:2000px'></div>"
        + "<script>var seen = []; addEventListener('scroll', function () { seen.push(scrollX + ':' + scrollY); });</script>"

    @Test func layoutReportsHowWideThePageIs() throws {
        let engine = LayoutEngine(viewportWidth: 400, viewportHeight: 300)
        let wide = try engine.layoutPage(HTMLParser.parseDocument("<body style='margin:8px'><div style='width:2000px'>w</div>"),
                                         measurer: FixedMeasurer())
        #expect(wide.contentWidth == 2008)  // the body's margin and the box
        let narrow = try engine.layoutPage(HTMLParser.parseDocument("<p>narrow"), measurer: FixedMeasurer())
        #expect(narrow.contentWidth == 400)
        let pre = try engine.layoutPage(HTMLParser.parseDocument("<pre>" + String(repeating: "x", count: 200) + "</pre>"),
                                        measurer: FixedMeasurer())
        #expect(pre.contentWidth > 1000)  // a long preformatted line (13 px monospace, 6.5 px a character)
    }

    @Test func theViewportsListMovesLeft() {
        let list = DisplayList(width: 400, height: 300, items: [
            .fill(Rect(x: 500, y: 10, width: 100, height: 20), .black),
            .text(TextRun(x: 600, baseline: 50, text: "t", font: Font(family: .serif, size: 16), color: .black)),
        ])
        let moved = list.scrolled(toX: 300, y: 5)
        #expect(moved.items == [
            .fill(Rect(x: 200, y: 5, width: 100, height: 20), .black),
            .text(TextRun(x: 300, baseline: 45, text: "t", font: Font(family: .serif, size: 16), color: .black)),
        ])
        #expect(list.scrolled(to: 5) == list.scrolled(toX: 0, y: 5))
    }

    @Test func aWidePageScrollsSidewaysAndBackAndForwardRestoreIt() throws {
        let browser = try makeBrowser()
        let tab = try browser.openTab()
        browser.go(tab, .to(.html(Self.wide, baseURL: "about:blank")))
        #expect(browser.waitForPage(tab, timeout: 30))
        #expect(pixel(tab, 250, 5) == [255, 255, 255, 255])
        #expect(pump(browser, seconds: 5) { tab.pageWidth == 1200 && tab.pageHeight > 2000 })  // (the window's scrollbar)
        let shown = browser.setScroll(tab, to: ScrollPosition(x: 300, y: 0))
        #expect(shown == ScrollPosition(x: 300, y: 0))
        #expect(tab.scrollX == 300 && tab.currentEntry?.scrollX == 300)
        #expect(pixel(tab, 250, 5) == [255, 0, 0, 255])  // the red box, 300 px further left
        // Clamped to the page's width (1200 - 400).
        #expect(browser.setScroll(tab, to: ScrollPosition(x: 5000, y: 0)).x == 800)
        #expect(browser.command(tab, "execute", ["return [scrollX, pageXOffset, document.querySelector('div div').getBoundingClientRect().left]", "[]"])?.json
                == #"{"value":[800,800,-300]}"#)
        _ = browser.setScroll(tab, to: ScrollPosition(x: 300, y: 0))

        // Another page, then back: the wide page at its horizontal position again.
        browser.go(tab, .to(.html("<title>Other</title><p>other", baseURL: "about:blank")))
        #expect(browser.waitForPage(tab, timeout: 30))
        #expect(tab.scrollX == 0)
        #expect(browser.go(tab, .back))
        #expect(browser.waitForPage(tab, timeout: 30))
        #expect(tab.scrollX == 300)
        #expect(pixel(tab, 250, 5) == [255, 0, 0, 255])
        #expect(browser.command(tab, "execute", ["return scrollX", "[]"])?.json == #"{"value":300}"#)

        // A script's scrollTo and scrollBy, with (x, y) and with options: shown, kept, `scroll` fired.
        _ = browser.command(tab, "execute", ["scrollTo(100, 50); return 1", "[]"])
        _ = browser.command(tab, "execute", ["scrollBy({left: 20}); return 1", "[]"])
        _ = browser.command(tab, "execute", ["scrollTo({top: 60}); return 1", "[]"])
        #expect(browser.command(tab, "execute", ["return seen.join(' ')", "[]"])?.json == #"{"value":"100:50 120:50 120:60"}"#)
        #expect(pump(browser, seconds: 5) { tab.scrollX == 120 && tab.scrollY == 60 && tab.currentEntry?.scrollX == 120 })
    }

    @Test func aTouchpadGestureScrollsAWidePageUntilItsEdge() {
        #expect(SwipeTracker.pageTakesSideways(dx: 5, dy: 1, scrollX: 0, maxScrollX: 800))
        #expect(!SwipeTracker.pageTakesSideways(dx: -5, dy: 1, scrollX: 0, maxScrollX: 800))  // at the left edge: a swipe back
        #expect(SwipeTracker.pageTakesSideways(dx: -5, dy: 0, scrollX: 100, maxScrollX: 800))
        #expect(!SwipeTracker.pageTakesSideways(dx: 5, dy: 0, scrollX: 800, maxScrollX: 800))  // at the right edge: forward
        #expect(!SwipeTracker.pageTakesSideways(dx: 5, dy: 0, scrollX: 0, maxScrollX: 0))  // not wide: a swipe
        #expect(!SwipeTracker.pageTakesSideways(dx: 1, dy: 5, scrollX: 100, maxScrollX: 800))  // mostly down
    }

    @Test func theWindowsScrollRequestsCarryXAndCoalesce() throws {
        let browser = try makeBrowser()
        browser.interactive = true
        let tab = try browser.openTab()
        browser.go(tab, .to(.html(Self.wide, baseURL: "about:blank")))
        #expect(browser.waitForPage(tab, timeout: 30))
        _ = browser.setScroll(tab, to: ScrollPosition(x: 48, y: 0))
        _ = browser.setScroll(tab, to: ScrollPosition(x: 96, y: 0))
        _ = browser.setScroll(tab, to: ScrollPosition(x: 144, y: 10))
        #expect(tab.targetScroll == ScrollPosition(x: 144, y: 10))
        #expect(pump(browser, seconds: 10) { tab.scrollX == 144 && tab.scrollY == 10 })
        #expect(WindowCommand.forKey(0xff53, control: false, alt: false, shift: false) == .scroll(.lineRight))
        #expect(WindowCommand.ScrollStep.lineRight.positionX(from: 144) == 184)
        #expect(WindowCommand.ScrollStep.lineLeft.positionX(from: 20) == 0)
    }
}
