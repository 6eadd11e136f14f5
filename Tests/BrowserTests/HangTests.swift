import Foundation
import Testing
import EngineIPC
import HostCore
import Lockdown

/// A page that hangs, as the window sees it (`Browser.interactive`: nothing waits for a
/// page): the other tabs load and answer meanwhile, the hung tab becomes `notResponding`
/// after `hangNanoseconds`, `keepWaiting` asks again later, `stop` ends its process and shows
/// why, a navigation of the hung tab starts a new process, closing it is immediate; a page
/// waiting for a slow server is not hung. Also the title a script changes after the load.
@Suite(.serialized) struct HangTests {
    func interactiveBrowser(hangSeconds: Double = 1) throws -> Browser {
        var options = Browser.Options(executable: sablePath)
        options.viewportWidth = 400
        options.viewportHeight = 300
        options.loadTimeoutNanoseconds = 0
        options.hangNanoseconds = UInt64(hangSeconds * 1e9)
        let browser = try Browser(options: options)
        browser.interactive = true
        return browser
    }

    static let loop = "<title>Loop</title><p>never ends<script>for (;;) {}</script>"

    @Test func aHungPageDoesNotBlockTheOtherTabsAndCanBeStopped() throws {
        let browser = try interactiveBrowser()
        let hung = try browser.openTab()
        let other = try browser.openTab()
        browser.go(hung, .to(.html("<title>First</title><p>first", baseURL: "about:blank")))
        #expect(browser.waitForPage(hung, timeout: 30))
        let started = Clock.monotonicNanoseconds()
        browser.go(hung, .to(.html(Self.loop, baseURL: "about:blank")))
        #expect(Clock.monotonicNanoseconds() - started < 500_000_000)  // go() does not wait for the page
        #expect(hung.isBusy && !hung.notResponding)

        // The other tab loads, scrolls and zooms while the first one hangs.
        browser.interactive = false
        expectRedBox(browser, other)
        #expect(browser.command(other, "execute", ["return document.title", "[]"])?.json == #"{"value":"Red"}"#)
        browser.interactive = true
        #expect(hung.isBusy)

        // After the hang time without a sign of life: not responding.
        #expect(pump(browser, seconds: 10) { hung.notResponding })
        #expect(!other.notResponding)
        browser.keepWaiting(hung)
        #expect(!hung.notResponding)
        #expect(pump(browser, seconds: 10) { hung.notResponding })

        // Back from the hung page: a new content process takes the navigation.
        let oldPID = hung.pid
        #expect(browser.go(hung, .back))
        #expect(hung.pid != oldPID)
        #expect(browser.waitForPage(hung, timeout: 30))
        #expect(hung.state == .loaded && hung.title == "First" && !hung.notResponding)
        #expect(hung.canGoForward)

        // Forward into the hang again, then stop it: the tab shows why, the other tab works.
        #expect(browser.go(hung, .forward))
        #expect(pump(browser, seconds: 10) { hung.notResponding })
        let hungPID = hung.pid
        browser.stop(hung)
        #expect(hung.state == .crashed && !hung.notResponding)
        #expect(hung.error?.contains("stopped") == true)
        #expect(kill(hungPID, 0) != 0)  // gone (and reaped)
        #expect(pump(browser, seconds: 10) { showsErrorPage(hung) })
        browser.interactive = false
        expectRedBox(browser, other)

        // Reload after a stop starts a new process; closing a hung tab is immediate.
        browser.interactive = true
        browser.go(hung, .reload)
        #expect(hung.isBusy && hung.pid != hungPID)
        let closing = Clock.monotonicNanoseconds()
        browser.closeTab(hung)
        #expect(Clock.monotonicNanoseconds() - closing < 1_000_000_000)
        #expect(browser.tabs.count == 1)
    }

    @Test func aCommandToAHungPageDoesNotWaitAndEndsWithTheProcess() throws {
        let browser = try interactiveBrowser()
        let tab = try browser.openTab()
        let page = "<title>Busy</title><body style='margin:0'><div id=go style='background-color:#00ff00'>go</div>"
            + "<div style='padding-bottom:3000px'></div><script>document.getElementById('go').onclick = function () { for (;;) {} }</script>"
        browser.go(tab, .to(.html(page, baseURL: "about:blank")))
        #expect(browser.waitForPage(tab, timeout: 30))
        var start = Clock.monotonicNanoseconds()
        browser.click(tab, x: 20, y: 8)  // the handler never returns
        #expect(browser.setScroll(tab, y: 100) == 100)
        #expect(browser.setScroll(tab, y: 200) == 200)
        #expect(tab.targetScrollY == 200)
        browser.zoomIn(tab)
        #expect(Clock.monotonicNanoseconds() - start < 500_000_000)
        #expect(pump(browser, seconds: 10) { tab.notResponding })
        #expect(tab.scrollY == 0)  // never answered
        start = Clock.monotonicNanoseconds()
        browser.stop(tab)
        #expect(Clock.monotonicNanoseconds() - start < 1_000_000_000)
        #expect(tab.state == .crashed && tab.targetScrollY == tab.scrollY)
    }

    @Test func aScrollAnsweredAfterANavigationDoesNotMoveTheNewEntry() throws {
        let browser = try interactiveBrowser(hangSeconds: 5)
        let tab = try browser.openTab()
        let tall = "<title>Tall</title><div style='padding-bottom:5000px'>tall</div>"
        browser.go(tab, .to(.html(tall, baseURL: "about:blank")))
        #expect(browser.waitForPage(tab, timeout: 30))
        _ = browser.setScroll(tab, y: 700)  // on its way...
        browser.go(tab, .to(.html("<title>Next</title>" + tall, baseURL: "about:blank")))  // ...when the navigation starts
        #expect(browser.waitForPage(tab, timeout: 30))
        #expect(pump(browser, seconds: 1) { false } == false)
        #expect(tab.title == "Next" && tab.scrollY == 0 && tab.currentEntry?.scrollY == 0)
        #expect(tab.history[0].scrollY == 0 || tab.history[0].scrollY == 700)
    }

    @Test func aPageWaitingForASlowServerIsNotHung() throws {
        // A server that answers after 2.5 s: the content process answers pings meanwhile.
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        server.arguments = ["-u", "-c", """
            import socket, time
            s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(4)
            print(s.getsockname()[1], flush=True)
            while True:
                c, _ = s.accept(); c.recv(65536); time.sleep(2.5)
                body = b'<title>Slow</title><p>slow'
                c.sendall(b'HTTP/1.1 200 OK\\r\\nContent-Type: text/html\\r\\nContent-Length: ' + str(len(body)).encode() + b'\\r\\nConnection: close\\r\\n\\r\\n' + body)
                c.close()
            """]
        let out = Pipe()
        server.standardOutput = out
        try server.run()
        defer { kill(server.processIdentifier, SIGKILL); server.waitUntilExit() }
        let line = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
        let port = try #require(Int(line.trimmingCharacters(in: .whitespacesAndNewlines)))

        let browser = try interactiveBrowser(hangSeconds: 1.5)
        let tab = try browser.openTab()
        browser.go(tab, .to(.url("http://127.0.0.1:\(port)/slow")))
        var flagged = false
        let end = Clock.monotonicNanoseconds() + 20_000_000_000
        while tab.isLoading && Clock.monotonicNanoseconds() < end {
            browser.pump(timeoutMilliseconds: 50)
            if tab.notResponding { flagged = true }
        }
        #expect(!flagged)
        #expect(tab.state == .loaded && tab.title == "Slow")
    }

    @Test func theTitleFollowsAScriptsChangeAfterTheLoad() throws {
        let browser = try makeBrowser()
        let tab = try browser.openTab()
        browser.go(tab, .to(.html("<title>Before</title><script>setTimeout(function () { document.title = 'After'; }, 50)</script>",
                                  baseURL: "about:blank")))
        #expect(browser.waitForPage(tab, timeout: 30))
        #expect(pump(browser) { tab.title == "After" })
        #expect(tab.currentEntry?.title == "After")
        // Set during the load: the load's title already.
        browser.go(tab, .to(.html("<title>x</title><script>document.title = 'During'</script>", baseURL: "about:blank")))
        #expect(browser.waitForPage(tab, timeout: 30))
        #expect(tab.title == "During")
    }

    @Test func aScriptsScrollFiresTheScrollEvent() throws {
        let browser = try makeBrowser()
        let tab = try browser.openTab()
        let page = "<title>S</title><div style='padding-bottom:5000px'>tall</div><script>var seen = [];"
            + "addEventListener('scroll', function () { seen.push(scrollY); });</script>"
        browser.go(tab, .to(.html(page, baseURL: "about:blank")))
        #expect(browser.waitForPage(tab, timeout: 30))
        _ = browser.command(tab, "execute", ["scrollTo(0, 300); return 1", "[]"])
        _ = browser.command(tab, "execute", ["scrollBy(0, 100); return 1", "[]"])
        _ = browser.command(tab, "execute", ["scrollTo(0, 400); return 1", "[]"])  // no move: no event
        let seen = browser.command(tab, "execute", ["return seen.join(',')", "[]"])?.json
        #expect(seen == #"{"value":"300,400"}"#)
        #expect(pump(browser) { tab.scrollY == 400 })
    }
}
