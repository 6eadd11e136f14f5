import Testing
#if canImport(Glibc)
import Glibc
#endif
import HostCore

/// The content process runs page scripts on its main thread with the same 64 MiB stack
/// as jsrun's worker: deep but legitimate programs run in a page as they do in jsrun (a
/// 10,000-term chain, 5,000 nested array literals), and runaway recursion is a RangeError
/// the page catches, never a dead content process.
@Suite(.serialized) struct ContentStackTests {
    /// The release sable when it is built (as `tools/test.sh` does first): the depths are
    /// about the product's frames; a debug build's are several times larger.
    static let executable: String = {
        let root = String(#filePath).split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/")
        let release = root + "/.build/release/sable"
        return access(release, X_OK) == 0 ? release : sablePath
    }()

    @Test func deepButLegitimateProgramsRunInAPage() throws {
        var options = Browser.Options(executable: Self.executable)
        options.viewportWidth = 400
        options.viewportHeight = 300
        let browser = try Browser(options: options)
        let tab = try browser.openTab()
        let script = """
            try {
              var a = eval('['.repeat(5000) + ']'.repeat(5000)), d = 0; while (a.length) { a = a[0]; d++ }
            var r = 'none'; try { (function f(n) { return f(n + 1) + 1 })(0) } catch (e) { r = e.name }
            var n = eval('(function () { return '.repeat(2000) + '7' + '})()'.repeat(2000));
            document.title = d + ' ' + r + ' ' + eval('1' + ' + 1'.repeat(9999)) + ' ' + n;
            } catch (e) { document.title = 'failed: ' + e }
            """
        browser.load(tab, .html("<title>-</title><script>\(script)</script><p>deep", baseURL: "about:blank"))
        #expect(browser.waitForPage(tab, timeout: 60))
        #expect(tab.state == .loaded)
        #expect(tab.title == "4999 RangeError 10000 7")
    }
}
