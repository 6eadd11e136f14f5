import Foundation
import Testing
import CPangoCairo
import EngineIPC
import HostCore

/// Content blockers in the browser, end to end: `sable --content-blocker add` compiles a list
/// into a profile; a browser on that profile blocks requests in its networking process before
/// they are sent (the page gets a network error; the server never sees the request) and hides
/// the css-display-none elements of the pages it renders (`sable --headless --screenshot`).
@Suite(.serialized) struct ContentBlockerEndToEndTests {
    static let list = #"""
        [
          {"trigger": {"url-filter": "/ads/"}, "action": {"type": "block"}},
          {"trigger": {"url-filter": "tracker\\.js", "resource-type": ["script"]}, "action": {"type": "block"}},
          {"trigger": {"url-filter": ".*"}, "action": {"type": "css-display-none", "selector": ".ad-banner"}},
          {"trigger": {"url-filter": "page\\.html"}, "action": {"type": "css-display-none", "selector": "div[data-sponsored]"}}
        ]
        """#
    static let page = """
        <!doctype html><html><head><title>Blocked</title></head>
        <body style="background-color: #ffffff">
        <div class="ad-banner" style="background-color: #ff0000">an ad (red)</div>
        <div data-sponsored="1" style="background-color: #0000ff; color: #ffffff">sponsored (blue)</div>
        <div style="background-color: #00ff00">content (green)</div>
        <p>text</p>
        </body></html>
        """

    final class Server {
        let process = Process()
        let log: String
        var port = 0
        init(root: String) throws {
            log = root + "/server.log"
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", root]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
            try process.run()
            var text = ""
            while !text.contains("\n") {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            let words = text.split(separator: " ")
            port = try #require(words.firstIndex(of: "port").flatMap { Int(words[$0 + 1]) })
        }
        deinit { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        /// The paths the server was asked for.
        var requested: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
    }

    /// Runs `sable ARGS`: exit status and what it printed (both streams).
    func sable(_ args: [String]) throws -> (Int32, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: sablePath)
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func makeDirectory() throws -> String {
        let dir = NSTemporaryDirectory() + "sable-cb-e2e-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir + "/site/ads", withIntermediateDirectories: true)
        try Self.page.write(toFile: dir + "/site/page.html", atomically: true, encoding: .utf8)
        try "image".write(toFile: dir + "/site/ads/banner.png", atomically: true, encoding: .utf8)
        try "image".write(toFile: dir + "/site/logo.png", atomically: true, encoding: .utf8)
        try "var x = 1;".write(toFile: dir + "/site/tracker.js", atomically: true, encoding: .utf8)
        try Self.list.write(toFile: dir + "/list.json", atomically: true, encoding: .utf8)
        try "[{\"trigger\":".write(toFile: dir + "/bad.json", atomically: true, encoding: .utf8)
        return dir
    }

    @Test func addListRemoveFromTheCommandLine() throws {
        let dir = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let profile = dir + "/profile"
        var (status, out) = try sable(["--content-blocker", "add", "test", dir + "/list.json", "--profile", profile])
        #expect(status == 0, "\(out)")
        #expect(out.contains("added test: 4 rules"))
        (status, out) = try sable(["--content-blocker", "list", "--profile=" + profile])
        #expect(status == 0 && out.hasPrefix("test\t4 rules"), "\(out)")
        // A list that does not compile: WebKit's error, and the profile keeps what it had.
        (status, out) = try sable(["--content-blocker", "add", "test", dir + "/bad.json", "--profile", profile])
        #expect(status == 1 && out.contains("JSONInvalid"), "\(out)")
        (status, out) = try sable(["--content-blocker", "list", "--profile", profile])
        #expect(out.hasPrefix("test\t4 rules"), "\(out)")
        (status, out) = try sable(["--content-blocker", "remove", "test", "--profile", profile])
        #expect(status == 0)
        (status, out) = try sable(["--content-blocker", "list", "--profile", profile])
        #expect(status == 0 && out.isEmpty, "\(out)")
    }

    /// The networking process of a browser on the profile: blocked requests end in a network
    /// error and never reach the server; the others load.
    @Test func theNetworkingProcessBlocksBeforeSending() throws {
        let dir = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let profile = dir + "/profile"
        let (status, out) = try sable(["--content-blocker", "add", "test", dir + "/list.json", "--profile", profile])
        try #require(status == 0, "\(out)")
        let server = try Server(root: dir + "/site")
        var options = Browser.Options(executable: sablePath, profileDirectory: profile)
        options.viewportWidth = 400
        options.viewportHeight = 300
        let browser = try Browser(options: options)
        let fd = try browser.newEndpoint(of: browser.networking, peer: "content-blocker test")
        var connection = Connection(fd: fd, noSignal: true)
        connection.maxPayload = NetworkingMessage.maxResponsePayload
        defer { connection.close() }
        let base = "http://127.0.0.1:\(server.port)/"
        func fetch(_ path: String, _ type: ResourceType) throws -> NetworkingMessage {
            var request = FetchRequest(id: 1, url: base + path)
            request.resourceType = type
            request.firstPartyURL = base + "page.html"
            try connection.send(message: NetworkingMessage.fetch(request))
            return try connection.receive(NetworkingMessage.self, deadline: Clock.monotonicNanoseconds() + 20_000_000_000)
        }
        #expect(try fetch("ads/banner.png", .image) == .failure(id: 1, .blocked(base + "ads/banner.png")))
        #expect(try fetch("tracker.js", .script) == .failure(id: 1, .blocked(base + "tracker.js")))
        guard case .response(let logo) = try fetch("logo.png", .image) else { Issue.record("logo.png not loaded"); return }
        #expect(logo.status == 200 && logo.body == Array("image".utf8))
        // tracker.js as something other than a script is not blocked (resource-type).
        guard case .response(let asFetch) = try fetch("tracker.js", .fetch) else { Issue.record("tracker.js as fetch"); return }
        #expect(asFetch.status == 200)
        let log = server.requested
        #expect(log.contains("GET /logo.png"))
        #expect(!log.contains("/ads/banner.png"), "\(log)")
        #expect(log.components(separatedBy: "GET /tracker.js").count == 2, "\(log)")
    }

    /// The page rendered with the profile: the css-display-none elements (the list's global
    /// style sheet and a selector for this URL) are not drawn; without the profile they are.
    @Test func screenshotHidesTheBlockedElements() throws {
        let dir = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let profile = dir + "/profile"
        let (status, out) = try sable(["--content-blocker", "add", "test", dir + "/list.json", "--profile", profile])
        try #require(status == 0, "\(out)")
        let server = try Server(root: dir + "/site")
        let url = "http://127.0.0.1:\(server.port)/page.html"
        func colours(_ args: [String]) throws -> (red: Int, blue: Int, green: Int) {
            let png = dir + "/shot.png"
            unlink(png)
            let (status, out) = try sable(["--headless", "--screenshot", png, url] + args)
            try #require(status == 0, "\(out)")
            let surface = cairo_image_surface_create_from_png(png)
            defer { cairo_surface_destroy(surface) }
            try #require(cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS)
            let data = try #require(cairo_image_surface_get_data(surface))
            let stride = Int(cairo_image_surface_get_stride(surface))
            var red = 0, blue = 0, green = 0
            for y in 0..<Int(cairo_image_surface_get_height(surface)) {
                let p = UnsafeRawPointer(data).load(fromByteOffset: y * stride + 400 * 4, as: UInt32.self) & 0xFF_FF_FF
                if p == 0xFF_00_00 { red += 1 }
                if p == 0x00_00_FF { blue += 1 }
                if p == 0x00_FF_00 { green += 1 }
            }
            return (red, blue, green)
        }
        let plain = try colours([])
        #expect(plain.red > 5 && plain.blue > 5 && plain.green > 5, "\(plain)")
        let blocked = try colours(["--profile", profile])
        #expect(blocked.red == 0 && blocked.blue == 0 && blocked.green > 5, "\(blocked)")
    }
}
