// sable: the browser, one binary with four roles (as Chromium's): the host (this main
// without --role), and the content, networking and rendering processes the host launches
// as `sable --lockdown-worker HOST_PID --role ROLE` (socket to the host on 3, the
// violation-report pipe on 4). Each role is a thin call into its library.
//
// Usage: sable [URL|FILE] [--profile DIR] [--width N] [--height N]   (the window, GTK 4)
//        sable --headless --screenshot out.png URL|FILE [--width N] [--height N] [--profile DIR]
//              [--linger SECONDS]
//        sable --content-blocker add NAME list.json | list | remove NAME  [--profile DIR]
//              (content blockers: WebKit's JSON rule lists, compiled into the profile; the
//              networking process of a browser with that profile applies them)
//        sable --headless --webdriver=PORT [--profile=DIR] [--width N] [--height N]
//              (the profile, `$XDG_DATA_HOME/sable` or ~/.local/share/sable by default, keeps
//              the session: tabs, back-forward lists, per-site zoom; a browser started again on
//              it restores them; ending the WebDriver session quits the browser)

#if canImport(Glibc)
import Glibc
#endif
import BrowserRoles
import BrowserWindow
import ContentBlocker
import EngineIPC
import HostCore
import Lockdown
import NetworkingCore
import RenderingCore
import WebContentCore
import WebDriver

func value(_ v: String?) -> String {
    guard let v else { usage() }
    return v
}

func number<T: LosslessStringConvertible>(_ v: String?) -> T {
    guard let n = T(value(v)) else { usage() }
    return n
}

func usage() -> Never {
    let text = """
        usage: sable [URL|FILE] [--profile DIR] [--width N] [--height N]
               sable --headless --screenshot out.png URL|FILE [--width N] [--height N] [--profile DIR] [--linger SECONDS]
               sable --headless --webdriver=PORT [--profile=DIR] [--width N] [--height N]
               sable --content-blocker add NAME list.json | list | remove NAME  [--profile DIR]

        """
    _ = text.withCString { write(2, $0, strlen($0)) }
    exit(2)
}

let arguments = CommandLine.arguments
WorkerRoles.runIfWorker(arguments)

if arguments.dropFirst().contains("--content-blocker") {
    exit(ContentBlockerCommand.run(Array(arguments.dropFirst())))
}

var headless = false
var screenshot: String?
var target: String?
var options = Browser.Options()
var linger = 0.0
var webdriverPort: Int?
nonisolated(unsafe) var stopRequested: sig_atomic_t = 0
var rest = arguments.dropFirst()
while var a = rest.popFirst() {
    if a.hasPrefix("--"), let eq = a.firstIndex(of: "=") {
        rest.insert(String(a[a.index(after: eq)...]), at: rest.startIndex)
        a = String(a[..<eq])
    }
    switch a {
    case "--webdriver":
        guard let p = Int(value(rest.popFirst())), (0...65535).contains(p) else { usage() }
        webdriverPort = p
    case "--headless": headless = true
    case "--screenshot": screenshot = value(rest.popFirst())
    case "--profile": options.profileDirectory = value(rest.popFirst())
    case let a where a.hasPrefix("--profile="): options.profileDirectory = String(a.dropFirst("--profile=".count))
    case "--width": options.viewportWidth = number(rest.popFirst())
    case "--height": options.viewportHeight = number(rest.popFirst())
    case "--linger": linger = number(rest.popFirst())
    default:
        if a.hasPrefix("--") || target != nil { usage() }
        target = a
    }
}
signal(SIGPIPE, SIG_IGN)
/// A browser on the profile (`--profile`, or the default directory), its saved session
/// restored (`beforeRestore` runs first; `selectedShown` once the selected tab's page
/// arrived); nil (after the message) when it cannot start.
func openBrowser(options: Browser.Options, start: UInt64, beforeRestore: (Browser) -> Bool = { _ in true },
                 selectedShown: (() -> Void)? = nil) -> Browser? {
    var options = options
    if options.profileDirectory == nil { options.profileDirectory = ProfileDirectory.defaultPath() }
    var opened = ProfileDatabase.Opened()
    if let directory = options.profileDirectory {
        opened = ProfileDatabase.open(directory: directory)
    } else {
        opened.messages.append("no profile directory (HOME is not set): the session will not be saved")
    }
    for message in opened.messages { _ = "sable: \(message)\n".withCString { write(2, $0, strlen($0)) } }
    let browser: Browser
    do {
        browser = try Browser(options: options)
    } catch {
        _ = "sable: \(error.description)\n".withCString { write(2, $0, strlen($0)) }
        return nil
    }
    browser.attach(profile: opened.database, zoom: opened.session.zoom)
    guard beforeRestore(browser) else { return nil }
    browser.restore(opened.session, startedAt: start, selectedShown: selectedShown)
    return browser
}

/// Serves WebDriver until SIGTERM or SIGINT or the end of the session (a quit: the
/// profile keeps the session); the browser's processes end with it.
func serveWebDriver(port: Int, options: Browser.Options) -> Int32 {
    guard let browser = openBrowser(options: options, start: Clock.monotonicNanoseconds()) else { return 2 }
    let server = WebDriverServer(browser: browser)
    do {
        try server.start(port: port)
    } catch {
        _ = "sable: cannot listen on 127.0.0.1:\(port): \(error)\n".withCString { write(2, $0, strlen($0)) }
        return 2
    }
    _ = "sable: WebDriver on http://127.0.0.1:\(server.port)\n".withCString { write(2, $0, strlen($0)) }
    signal(SIGTERM) { _ in stopRequested = 1 }
    signal(SIGINT) { _ in stopRequested = 1 }
    server.run(until: { stopRequested != 0 })
    server.shutdown()
    browser.quit()
    return 0
}
if headless, let port = webdriverPort, screenshot == nil, target == nil {
    exit(serveWebDriver(port: port, options: options))
}
/// The window: `sable [URL|FILE] [--profile DIR]` (the restored session, then URL in a new tab).
func runWindow(target: String?, options: Browser.Options) -> Int32 {
    // A page that never finishes is the user's to stop (the window offers it), not a timeout's.
    var options = options
    options.loadTimeoutNanoseconds = 0
    // The window opens before the session is restored: it shows the selected tab's page
    // as soon as it arrives, while the other tabs start.
    var window: BrowserWindow?
    let opened = openBrowser(options: options, start: Clock.monotonicNanoseconds(), beforeRestore: { browser in
        switch BrowserWindow.open(browser: browser) {
        case .success(let w):
            window = w
            return true
        case .failure(let f):
            _ = "sable: \(f.description)\n".withCString { write(2, $0, strlen($0)) }
            browser.quit()
            return false
        }
    }, selectedShown: { window?.show() })
    guard let browser = opened, let window else { return 2 }
    if let target {
        guard let destination = AddressField.destination(for: target) else {
            _ = "sable: not an address: \(target)\n".withCString { write(2, $0, strlen($0)) }
            return 2
        }
        if let tab = try? browser.openTab() {
            browser.select(tab)
            browser.go(tab, .to(destination))
        }
    }
    signal(SIGTERM) { _ in stopRequested = 1 }
    signal(SIGINT) { _ in stopRequested = 1 }
    return window.run(until: { stopRequested != 0 })
}
if !headless, webdriverPort == nil, screenshot == nil {
    exit(runWindow(target: target, options: options))
}
guard headless, let screenshot, let target else { usage() }
exit(Headless.screenshot(target: target, output: screenshot, options: options, linger: linger))
