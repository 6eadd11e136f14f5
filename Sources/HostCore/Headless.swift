#if canImport(Glibc)
import Glibc
#endif
import EngineIPC
import WebURL

/// `sable --headless --screenshot out.png TARGET`: one page, one PNG of its layer.
public enum Headless {
    /// What a command-line target means: an http(s)/data URL is fetched by the networking
    /// process; anything else is a local file, read by the host.
    public static func destination(for target: String) -> Result<LoadDestination, Browser.Failure> {
        if let url = WebURL(target), ["http", "https", "data"].contains(url.scheme) {
            return .success(.url(url.href))
        }
        var path = target
        if target.hasPrefix("file://") { path = String(target.dropFirst(7)) }
        guard let bytes = readFile(path) else { return .failure(Browser.Failure(description: "cannot read \(path)")) }
        return .success(.file(path: absolute(path), contents: bytes))
    }

    /// Loads `target` in a new tab and writes the tab's layer to `output`. `linger`: seconds
    /// to keep the processes running afterwards (tests inspect the process tree then).
    public static func screenshot(target: String, output: String, options: Browser.Options, linger: Double = 0) -> Int32 {
        let destination: LoadDestination
        switch Self.destination(for: target) {
        case .success(let d): destination = d
        case .failure(let f): return fail(f.description)
        }
        let browser: Browser
        do {
            browser = try Browser(options: options)
        } catch {
            return fail(error.description)
        }
        let tab: Tab
        do {
            tab = try browser.openTab()
        } catch {
            return fail(error.description)
        }
        browser.load(tab, destination)
        guard browser.waitForPage(tab), let layer = tab.layer else { return fail("the page did not render in time") }
        if let error = layer.writePNG(to: output) { return fail("cannot write \(output): \(error)") }
        let what = tab.state == .loaded ? "title: \(tab.title)" : "error page: \(tab.errorPage?.detail ?? "")"
        say("screenshot \(output) (\(layer.width)x\(layer.height)) of \(tab.url.isEmpty ? target : tab.url); \(what)")
        say("processes: host \(getpid()) networking \(browser.networking.pid) rendering \(browser.rendering.pid) content \(tab.pid)")
        if linger > 0 {
            let end = Clock.monotonicNanoseconds() + UInt64(linger * 1e9)
            while Clock.monotonicNanoseconds() < end { browser.pump(timeoutMilliseconds: 50) }
        }
        return tab.state == .loaded ? 0 : 1
    }

    static func say(_ line: String) {
        let text = line + "\n"
        _ = text.withCString { write(1, $0, strlen($0)) }
    }

    static func fail(_ line: String) -> Int32 {
        let text = "sable: " + line + "\n"
        _ = text.withCString { write(2, $0, strlen($0)) }
        return 2
    }

    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/" + path
    }

    /// The whole file (at most 64 MiB), or nil.
    public static func readFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return nil }
            if n == 0 { break }
            bytes += buffer[0..<n]
            if bytes.count > ContentMessage.maxPayload - 4096 { return nil }
        }
        return bytes
    }
}
