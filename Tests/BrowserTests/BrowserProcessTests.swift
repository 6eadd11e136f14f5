import Testing
#if canImport(Glibc)
import Glibc
#endif
import CLockdown
import EngineIPC
import HostCore
import Lockdown

/// The sable binary next to the test bundle (`swift test` builds every product).
let sablePath: String = {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    var dir = n > 0 ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    while let last = dir.last, last != "/" { dir.removeLast() }
    return dir + "sable"
}()

func makeBrowser() throws -> Browser {
    var options = Browser.Options(executable: sablePath)
    options.viewportWidth = 400
    options.viewportHeight = 300
    return try Browser(options: options)
}

let redBox = "<title>Red</title><body style='background-color:#ffffff'><div style='background-color:#ff0000'>box</div><p>text"

/// Pumps until `condition` holds (at most `seconds`).
func pump(_ browser: Browser, seconds: Double = 20, until condition: () -> Bool) -> Bool {
    let end = Clock.monotonicNanoseconds() + UInt64(seconds * 1e9)
    while Clock.monotonicNanoseconds() < end {
        if condition() { return true }
        browser.pump(timeoutMilliseconds: 50)
    }
    return condition()
}

/// Loads the red-box page in `tab` and checks its pixels.
func expectRedBox(_ browser: Browser, _ tab: Tab) {
    browser.load(tab, .html(redBox, baseURL: "about:blank"))
    #expect(browser.waitForPage(tab, timeout: 30))
    #expect(tab.state == .loaded)
    #expect(tab.title == "Red")
    if let layer = tab.layer {
        #expect(layer.pixel(x: 20, y: 12) == (255, 0, 0, 255))
        #expect(layer.pixel(x: 2, y: 2) == (255, 255, 255, 255))
    } else {
        Issue.record("no layer")
    }
}

/// The error page's accent bar is at the top of the tab's layer.
func showsErrorPage(_ tab: Tab) -> Bool {
    tab.layer.map { $0.pixel(x: 10, y: 3) == (176, 0, 32, 255) } ?? false
}

/// A frame header announcing `length` bytes of kind `kind`, and then `body`.
func rawFrame(length: UInt32, kind: UInt16, body: [UInt8] = []) -> [UInt8] {
    var w = ByteWriter()
    w.u32(length); w.u16(Frame.protocolVersion); w.u16(kind)
    return w.bytes + body
}

func writeBytes(_ fd: Int32, _ bytes: [UInt8]) {
    _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
}

/// Whether the peer closed `fd` within `seconds` (a read returns end of file or an error).
func peerCloses(_ fd: Int32, seconds: Int32 = 10) -> Bool {
    var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    guard poll(&p, 1, seconds * 1000) == 1 else { return false }
    var buffer = [UInt8](repeating: 0, count: 64)
    while true {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n <= 0 { return true }
    }
}

@Suite(.serialized) struct BrowserProcessTests {
    @Test func launchSequenceLocksTheContentProcessAndRendersAPage() throws {
        let browser = try makeBrowser()
        let tab = try browser.openTab()
        #expect(tab.state == .ready)
        let inspection = try #require(ProcessInspection.inspect(pid: tab.pid))
        #expect(inspection.seccompMode == 2)
        #expect(inspection.noNewPrivs == 1)
        #expect(inspection.writableExecutableMappings.isEmpty)
        #expect(ProcessInspection.inspect(pid: browser.rendering.pid)?.seccompMode == 0)
        expectRedBox(browser, tab)
        // A data: URL goes through the networking process.
        browser.load(tab, .url("data:text/html,<title>D</title><p>data"))
        #expect(browser.waitForPage(tab, timeout: 30))
        #expect(tab.state == .loaded && tab.title == "D")
    }

    @Test func inlineScriptsRunWithTheJITInTheLockedProcess() throws {
        let browser = try makeBrowser()
        let tab = try browser.openTab()
        let page = "<title>JS</title><script>let s = 0; for (let i = 0; i < 100000; i++) s += i;</script>"
            + "<script>throw new Error('an uncaught exception does not end the page')</script><p>after"
        browser.load(tab, .html(page, baseURL: "about:blank"))
        #expect(browser.waitForPage(tab, timeout: 60))
        #expect(tab.state == .loaded && tab.title == "JS")
        let inspection = try #require(ProcessInspection.inspect(pid: tab.pid))
        #expect(inspection.seccompMode == 2)
        #expect(inspection.writableExecutableMappings.isEmpty)
        // The loop was compiled: JIT code lives in an anonymous read-execute mapping.
        #expect(!inspection.anonymousExecutableMappings.filter { !$0.hasSuffix("[vdso]") }.isEmpty)
    }

    @Test func aScriptThatNeverEndsMakesTheTabAnErrorAndOtherTabsWork() throws {
        var options = Browser.Options(executable: sablePath)
        options.viewportWidth = 400
        options.viewportHeight = 300
        options.loadTimeoutNanoseconds = 2_000_000_000
        let browser = try Browser(options: options)
        let tab = try browser.openTab()
        let other = try browser.openTab()
        browser.load(tab, .html("<title>Loop</title><script>while (true) {}</script>", baseURL: "about:blank"))
        #expect(browser.waitForPage(tab, timeout: 30))
        #expect(tab.state == .crashed)
        #expect(tab.error?.contains("did not finish loading in time") == true)
        #expect(showsErrorPage(tab))
        expectRedBox(browser, other)
    }

    @Test func aNetworkErrorIsShownInTheTab() throws {
        let browser = try makeBrowser()
        let tab = try browser.openTab()
        browser.load(tab, .url("http://127.0.0.1:1/"))
        #expect(browser.waitForPage(tab, timeout: 30))
        #expect(tab.state == .failed)
        #expect(tab.errorPage?.detail.hasPrefix("Connection refused") == true)
        // The error page's accent bar.
        #expect(showsErrorPage(tab))
    }

    @Test func aKilledContentProcessBecomesATabError() throws {
        let browser = try makeBrowser()
        let tab = try browser.openTab()
        let other = try browser.openTab()
        kill(tab.pid, SIGKILL)
        #expect(pump(browser) { tab.state == .crashed })
        #expect(tab.error?.contains("SIGKILL") == true)
        #expect(pump(browser) { showsErrorPage(tab) })
        // The host and the other tab go on.
        expectRedBox(browser, other)
        // The next navigation gives the tab a new content process.
        let dead = tab.pid
        browser.load(tab, .html("<title>Again</title><p>x", baseURL: "about:blank"))
        #expect(browser.waitForPage(tab, timeout: 30))
        #expect(tab.state == .loaded && tab.title == "Again")
        #expect(tab.pid != dead && tab.relaunches == 1)
    }

    @Test(arguments: ["rendering", "networking"])
    func aKilledServiceIsRelaunched(role: String) throws {
        let browser = try makeBrowser()
        let tab = try browser.openTab()
        let service = role == "rendering" ? browser.rendering! : browser.networking!
        let old = service.pid
        kill(old, SIGKILL)
        #expect(pump(browser) { service.relaunches == 1 })
        #expect(service.pid != old)
        _ = pump(browser, seconds: 2) { false }  // the tab takes its new endpoints meanwhile
        #expect(tab.state == .ready)
        browser.load(tab, .url("data:text/html,<title>After</title><div style='background-color:red'>x</div>"))
        #expect(browser.waitForPage(tab, timeout: 30))
        #expect(tab.state == .loaded && tab.title == "After")
    }

    @Test(arguments: ["rendering", "networking"], [false, true])
    func garbageIntoAServiceClosesThatConnectionOnly(role: String, oversized: Bool) throws {
        let browser = try makeBrowser()
        let tab = try browser.openTab()
        let service = role == "rendering" ? browser.rendering! : browser.networking!
        let fd = try browser.newEndpoint(of: service, peer: "test peer")
        defer { close(fd) }
        writeBytes(fd, oversized ? rawFrame(length: 0x7FFF_FFF0, kind: 1) : rawFrame(length: 4, kind: 0x7777, body: [1, 2, 3, 4]))
        #expect(peerCloses(fd))
        #expect(pump(browser) { browser.misbehaved.contains { $0.peer == "test peer" } })
        #expect(service.relaunches == 0)
        expectRedBox(browser, tab)
    }

    @Test(arguments: [false, true])
    func garbageIntoTheContentProcessEndsOnlyThatTab(oversized: Bool) throws {
        let browser = try makeBrowser()
        let tab = try browser.openTab()
        let other = try browser.openTab()
        writeBytes(tab.connectionFD, oversized ? rawFrame(length: 0x7FFF_FFF0, kind: 6) : rawFrame(length: 1, kind: 0x7777, body: [0]))
        #expect(pump(browser) { tab.state == .crashed })
        #expect(tab.error?.contains("exited with status 71") == true)
        expectRedBox(browser, other)
    }

    @Test(arguments: [false, true])
    func garbageFromAContentProcessIsReported(oversized: Bool) throws {
        let browser = try makeBrowser()
        let tab = try browser.openTab()
        // The content process's own end of its socket (descriptor 3), as a compromised
        // content process would write to it.
        let pidfd = Int32(sable_raw_syscall(434, Int(tab.pid), 0, 0, 0, 0, 0))
        try #require(pidfd >= 0)
        defer { close(pidfd) }
        let fd = Int32(sable_raw_syscall(438, Int(pidfd), 3, 0, 0, 0, 0))
        try #require(fd >= 0)
        defer { close(fd) }
        writeBytes(fd, oversized ? rawFrame(length: 0x7FFF_FFF0, kind: 7) : rawFrame(length: 2, kind: 0x7777, body: [0, 0]))
        #expect(pump(browser) { tab.state == .crashed })
        #expect(browser.misbehaved.contains { $0.peer.contains("tab \(tab.id)") })
        #expect(tab.error?.contains("bad message") == true)
        let other = try browser.openTab()
        expectRedBox(browser, other)
    }
}
