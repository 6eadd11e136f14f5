#if canImport(Glibc)
import Glibc
#endif
import EngineIPC
import HostCore
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization
import WebURL

/// `sable --headless --webdriver=PORT`: the W3C WebDriver protocol
/// (https://w3c.github.io/webdriver/) over the host's `Browser`, as `safaridriver` serves
/// Safari. HTTP is SwiftNIO's, on 127.0.0.1 only; its event-loop thread parses requests and
/// queues them; the host's thread (the only one that touches the browser) runs them between
/// `pump`s and hands the answers back to NIO.
public final class WebDriverServer {
    let browser: Browser
    let queue = RequestQueue()
    var session: Session?
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    var channel: Channel?
    public private(set) var port = 0
    /// The session ended (`DELETE /session`): the browser quits, as a user's quit (the
    /// profile keeps the tabs); `run` returns once the answer is written.
    public private(set) var quitRequested = false

    struct Session {
        var id: String
        var current: Tab?
        var timeouts = (script: 30_000.0, pageLoad: 300_000.0, implicit: 0.0)
    }

    public init(browser: Browser) {
        self.browser = browser
    }

    /// Listens on 127.0.0.1:`port` (0: any free port; `port` tells which).
    public func start(port: Int) throws {
        let queue = self.queue
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 64)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline(withErrorHandling: true).flatMap {
                    channel.pipeline.addHandler(HTTPHandler(queue: queue))
                }
            }
        let channel = try bootstrap.bind(host: "127.0.0.1", port: port).wait()
        self.channel = channel
        self.port = channel.localAddress?.port ?? port
    }

    /// Serves until `stop`, or until the session ends (`DELETE /session` quits the browser).
    public func run(until stop: () -> Bool = { false }) {
        while !stop() && !quitRequested {
            browser.pump(timeoutMilliseconds: 5)
            while let request = queue.pop() {
                let response = handle(request)
                request.respond(response)
            }
        }
        if quitRequested {
            // Let NIO write the answer to DELETE /session before the channels close.
            let end = Clock.monotonicNanoseconds() + 200_000_000
            while Clock.monotonicNanoseconds() < end { browser.pump(timeoutMilliseconds: 10) }
        }
    }

    public func shutdown() {
        try? channel?.close().wait()
        try? group.syncShutdownGracefully()
    }

    // MARK: - Routing

    struct Response {
        var status: Int
        var body: String
        static func value(_ v: JSON) -> Response { Response(status: 200, body: JSON.object([("value", v)]).serialized) }
        static func error(_ code: String, _ message: String) -> Response {
            let status: Int
            switch code {
            case "invalid argument", "invalid selector", "invalid element state", "element not interactable": status = 400
            case "invalid session id", "no such element", "no such window", "stale element reference", "unknown command",
                 "no such alert", "no such frame", "no such cookie": status = 404
            case "unknown method": status = 405
            default: status = 500
            }
            let body = JSON.object([("value", .object([("error", .string(code)), ("message", .string(message)), ("stacktrace", .string(""))]))])
            return Response(status: status, body: body.serialized)
        }
    }

    func handle(_ request: Request) -> Response {
        var path = request.path.split(separator: "/").map(String.init)
        let body: JSON
        if request.method == "POST" {
            let text = String(decoding: request.body, as: UTF8.self)
            do {
                body = text.isEmpty ? .object([]) : try JSON.parse(text)
            } catch {
                return .error("invalid argument", "the body is not JSON: \(error)")
            }
            guard case .object = body else { return .error("invalid argument", "the body is not a JSON object") }
        } else {
            body = .object([])
        }
        if path == ["status"], request.method == "GET" {
            return .value(.object([("ready", .bool(session == nil)), ("message", .string(session == nil ? "ready" : "a session exists"))]))
        }
        guard path.first == "session" else { return .error("unknown command", "\(request.method) \(request.path)") }
        path.removeFirst()
        if path.isEmpty {
            guard request.method == "POST" else { return .error("unknown method", request.path) }
            return newSession()
        }
        guard var session, session.id == path[0] else { return .error("invalid session id", "no session \(path[0])") }
        path.removeFirst()
        if path.isEmpty {
            guard request.method == "DELETE" else { return .error("unknown method", request.path) }
            self.session = nil
            quitRequested = true
            return .value(.null)
        }
        let response = route(request.method, path, body, &session)
        if self.session?.id == session.id { self.session = session }
        return response
    }

    func newSession() -> Response {
        guard session == nil else { return .error("session not created", "Sable serves one session at a time") }
        guard !quitRequested else { return .error("session not created", "the browser is quitting") }
        // The tabs of a restored session are the session's windows; the selected one is current.
        let tab: Tab
        if let selected = browser.selectedTab ?? browser.tabs.first {
            tab = selected
        } else {
            do {
                tab = try browser.openTab()
            } catch {
                return .error("session not created", error.description)
            }
        }
        var random = SystemRandomNumberGenerator()
        let id = (0..<4).map { _ in String(random.next() as UInt32, radix: 16) }.joined()
        session = Session(id: id, current: tab)
        let capabilities: JSON = .object([
            ("browserName", .string("sable")), ("browserVersion", .string("0.1")), ("platformName", .string("linux")),
            ("acceptInsecureCerts", .bool(false)), ("pageLoadStrategy", .string("normal")), ("setWindowRect", .bool(true)),
            ("strictFileInteractability", .bool(false)), ("unhandledPromptBehavior", .string("dismiss and notify")),
            ("timeouts", .object([("script", .number(30_000)), ("pageLoad", .number(300_000)), ("implicit", .number(0))])),
        ])
        return .value(.object([("sessionId", .string(id)), ("capabilities", capabilities)]))
    }

    static func handle(of tab: Tab) -> String { "tab-\(tab.id)" }

    func route(_ method: String, _ path: [String], _ body: JSON, _ session: inout Session) -> Response {
        let route = method + " /session/{id}/" + path.joined(separator: "/")
        switch (method, path) {
        case ("GET", ["timeouts"]):
            return .value(.object([("script", .number(session.timeouts.script)), ("pageLoad", .number(session.timeouts.pageLoad)),
                                   ("implicit", .number(session.timeouts.implicit))]))
        case ("POST", ["timeouts"]):
            for key in ["script", "pageLoad", "implicit"] {
                guard let v = body[key] else { continue }
                guard let n = v.number, n >= 0, n <= 9_007_199_254_740_991 else {
                    if key == "script", v == .null { continue }
                    return .error("invalid argument", "\(key) must be a non-negative integer")
                }
                switch key {
                case "script": session.timeouts.script = n
                case "pageLoad": session.timeouts.pageLoad = n
                default: session.timeouts.implicit = n
                }
            }
            return .value(.null)
        case ("GET", ["window", "handles"]):
            return .value(.array(browser.tabs.map { .string(WebDriverServer.handle(of: $0)) }))
        case ("GET", ["window"]):
            guard let tab = session.current, browser.tabs.contains(where: { $0 === tab }) else { return .error("no such window", "the window is closed") }
            return .value(.string(WebDriverServer.handle(of: tab)))
        case ("POST", ["window"]):
            guard let handle = body["handle"]?.string else { return .error("invalid argument", "handle must be a string") }
            guard let tab = browser.tabs.first(where: { WebDriverServer.handle(of: $0) == handle }) else {
                return .error("no such window", "no window \(handle)")
            }
            session.current = tab
            browser.select(tab)
            return .value(.null)
        case ("DELETE", ["window"]):
            guard let tab = session.current, browser.tabs.contains(where: { $0 === tab }) else { return .error("no such window", "the window is closed") }
            browser.closeTab(tab)
            session.current = nil
            return .value(.array(browser.tabs.map { .string(WebDriverServer.handle(of: $0)) }))
        case ("POST", ["window", "new"]):
            do {
                let tab = try browser.openTab()
                return .value(.object([("handle", .string(WebDriverServer.handle(of: tab))), ("type", .string("tab"))]))
            } catch {
                return .error("unknown error", error.description)
            }
        case ("GET", ["window", "rect"]), ("POST", ["window", "rect"]), ("POST", ["window", "maximize"]):
            if path == ["window", "rect"], method == "POST", let w = body["width"]?.number, let h = body["height"]?.number {
                // The viewport's new size: every page laid out again in it.
                guard w.isFinite, h.isFinite, (1...16384).contains(w), (1...16384).contains(h) else {
                    return .error("invalid argument", "width and height must be from 1 to 16384")
                }
                browser.resize(width: Int(w), height: Int(h))
            }
            return .value(.object([("x", .number(0)), ("y", .number(0)), ("width", .number(Double(browser.viewportWidth))),
                                   ("height", .number(Double(browser.viewportHeight)))]))
        default:
            break
        }
        // Everything else acts on the current tab.
        guard let tab = session.current, browser.tabs.contains(where: { $0 === tab }) else {
            return .error("no such window", "the current window is closed")
        }
        let pageLoad = session.timeouts.pageLoad / 1000
        switch (method, path) {
        case ("POST", ["url"]):
            guard let text = body["url"]?.string, let url = WebURL(text) else { return .error("invalid argument", "url must be an absolute URL") }
            let destination: LoadDestination
            if url.href == "about:blank" {
                destination = .html("", baseURL: "about:blank")
            } else if url.scheme == "file" {
                switch Headless.destination(for: url.href) {
                case .success(let d): destination = d
                case .failure(let f): return .error("unknown error", f.description)
                }
            } else {
                destination = .url(url.href)
            }
            browser.go(tab, .to(destination))
            return waitForLoad(tab, timeout: pageLoad)
        case ("GET", ["url"]):
            return .value(.string(tab.url))
        case ("POST", ["back"]):
            if browser.go(tab, .back) { return waitForLoad(tab, timeout: pageLoad) }
            return .value(.null)
        case ("POST", ["forward"]):
            if browser.go(tab, .forward) { return waitForLoad(tab, timeout: pageLoad) }
            return .value(.null)
        case ("POST", ["refresh"]):
            if browser.go(tab, .reload) { return waitForLoad(tab, timeout: pageLoad) }
            return .value(.null)
        case ("GET", ["sable", "zoom"]):
            return .value(.object([("level", .number(tab.zoom))]))
        case ("POST", ["sable", "zoom"]):
            guard let level = body["level"]?.number, ZoomLevels.range.contains(level) else {
                return .error("invalid argument", "level must be a number from 0.3 to 3")
            }
            guard browser.setZoom(tab, level: level) else { return .error("unknown error", tab.error ?? "the page did not lay out again") }
            return .value(.object([("level", .number(tab.zoom))]))
        case ("GET", ["sable", "history"]):
            let entries = tab.history.map { e in
                JSON.object([("url", .string(e.url)), ("title", .string(e.title)), ("scrollY", .number(e.scrollY)), ("scrollX", .number(e.scrollX))])
            }
            return .value(.object([("entries", .array(entries)), ("index", .number(Double(tab.historyIndex)))]))
        case ("GET", ["sable", "profile"]):
            // Whether the session is being saved, and how long the last write took.
            return .value(.object([("path", browser.profile.map { .string($0.path) } ?? .null),
                                   ("saving", .bool(browser.profile != nil)),
                                   ("lastWriteMilliseconds", .number(Double(browser.lastProfileWriteNanoseconds) / 1e6))]))
        case ("POST", ["sable", "scroll"]):
            guard let y = body["y"]?.number, y >= 0, y.isFinite else { return .error("invalid argument", "y must be a non-negative number") }
            if let xValue = body["x"] {
                // {"x", "y"}: both, answered as {"x", "y"} (a page wider than the window).
                guard let x = xValue.number, x >= 0, x.isFinite else { return .error("invalid argument", "x must be a non-negative number") }
                let shown = browser.setScroll(tab, to: ScrollPosition(x: x, y: y))
                return .value(.object([("x", .number(shown.x)), ("y", .number(shown.y))]))
            }
            return .value(.number(browser.setScroll(tab, y: y)))
        case ("GET", ["title"]):
            if tab.state != .loaded { return .value(.string(tab.errorPage?.title ?? tab.title)) }
            return page(tab, "execute", ["return document.title", "[]"])
        case ("GET", ["source"]):
            return page(tab, "source", [])
        case ("POST", ["execute", "sync"]):
            guard let script = body["script"]?.string else { return .error("invalid argument", "script must be a string") }
            let args = body["args"] ?? .array([])
            guard case .array = args else { return .error("invalid argument", "args must be an array") }
            return page(tab, "execute", [script, args.serialized], timeout: session.timeouts.script / 1000)
        case ("POST", ["element"]), ("POST", ["elements"]):
            return find(tab, body, from: nil, many: path[0] == "elements")
        case ("GET", ["screenshot"]):
            guard let layer = tab.layer, let png = layer.pngData() else { return .error("unable to capture screen", "no layer") }
            return .value(.string(Base64.encode(png)))
        default:
            break
        }
        if path.count >= 3, path[0] == "element" {
            let reference = path[1]
            switch (method, Array(path.dropFirst(2))) {
            case ("POST", ["element"]), ("POST", ["elements"]):
                return find(tab, body, from: reference, many: path[2] == "elements")
            case ("POST", ["click"]):
                return page(tab, "click", [reference])
            case ("GET", ["text"]):
                return page(tab, "text", [reference])
            case ("GET", ["name"]):
                return page(tab, "tagName", [reference])
            case ("GET", let rest) where rest.count == 2 && rest[0] == "attribute":
                return page(tab, "attribute", [reference, rest[1]])
            case ("GET", let rest) where rest.count == 2 && rest[0] == "property":
                return page(tab, "property", [reference, rest[1]])
            case ("GET", ["enabled"]):
                let argument = JSON.array([.object([("element-6066-11e4-a52e-4f735466cecf", .string(reference))])])
                return page(tab, "execute", ["return !arguments[0].hasAttribute('disabled')", argument.serialized])
            default:
                break
            }
        }
        return .error("unknown command", route)
    }

    /// Waits for the tab's load: the page, or the error value of a failed one.
    func waitForLoad(_ tab: Tab, timeout: Double) -> Response {
        guard browser.waitForPage(tab, timeout: min(timeout, 600)) else {
            return .error("timeout", "the page did not load in \(timeout) s")
        }
        switch tab.state {
        case .loaded:
            return .value(.null)
        case .failed:
            return .error("unknown error", "net error: " + (tab.errorPage?.detail ?? "the page failed to load"))
        case .crashed:
            return .error("unknown error", tab.error ?? "the content process crashed")
        default:
            return .value(.null)
        }
    }

    /// A page command: the content process's JSON answer as a WebDriver response.
    func page(_ tab: Tab, _ name: String, _ arguments: [String], timeout: Double = 30) -> Response {
        guard tab.state == .loaded || tab.state == .ready else {
            if tab.state == .crashed { return .error("no such window", tab.error ?? "the tab's content process is gone") }
            return .error("unknown error", "the tab shows an error page: \(tab.errorPage?.detail ?? "")")
        }
        guard let answer = browser.command(tab, name, arguments, timeout: timeout) else {
            return .error(tab.state == .crashed ? "script timeout" : "unknown error", tab.error ?? "the page did not answer")
        }
        guard let json = try? JSON.parse(answer.json) else { return .error("unknown error", "bad answer from the page") }
        if let code = json["error"]?.string { return .error(code, json["message"]?.string ?? "") }
        // (A click that navigated to an error page still succeeded: the page shows the error.)
        return .value(json["value"] ?? .null)
    }

    func find(_ tab: Tab, _ body: JSON, from: String?, many: Bool) -> Response {
        guard var using = body["using"]?.string, var value = body["value"]?.string else {
            return .error("invalid argument", "using and value must be strings")
        }
        if using == "id" { using = "css selector"; value = "[id=\"" + value.replacingQuotes + "\"]" }
        let response = page(tab, "find", [using, value] + (from.map { [$0] } ?? []))
        guard response.status == 200, let json = try? JSON.parse(response.body), let list = json["value"]?.array else { return response }
        if many { return response }
        guard let first = list.first else { return .error("no such element", "no element matches \(using) '\(value)'") }
        return .value(first)
    }
}

extension String {
    var replacingQuotes: String {
        var out = ""
        for c in self { if c == "\"" || c == "\\" { out.append("\\") }; out.append(c) }
        return out
    }
}

/// A request read by NIO, waiting for the host's thread.
final class Request: @unchecked Sendable {
    let method: String
    let path: String
    let body: [UInt8]
    let respond: (WebDriverServer.Response) -> Void

    init(method: String, path: String, body: [UInt8], respond: @escaping (WebDriverServer.Response) -> Void) {
        self.method = method
        self.path = path
        self.body = body
        self.respond = respond
    }
}

final class RequestQueue: Sendable {
    private let items = Mutex<[Request]>([])
    func push(_ r: Request) { items.withLock { $0.append(r) } }
    func pop() -> Request? { items.withLock { $0.isEmpty ? nil : $0.removeFirst() } }
}

/// One HTTP connection: collects a request (at most 64 MiB of body), queues it, writes the answer.
final class HTTPHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    static let maxBody = 64 << 20

    let queue: RequestQueue
    var head: HTTPRequestHead?
    var body: [UInt8] = []
    var tooLarge = false

    init(queue: RequestQueue) { self.queue = queue }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let h):
            head = h
            body = []
            tooLarge = false
        case .body(var buffer):
            if body.count + buffer.readableBytes > HTTPHandler.maxBody { tooLarge = true; return }
            body += buffer.readBytes(length: buffer.readableBytes) ?? []
        case .end:
            guard let head else { return }
            let channel = context.channel
            let keepAlive = head.isKeepAlive
            let version = head.version
            let respond: (WebDriverServer.Response) -> Void = { response in
                var headers = HTTPHeaders()
                headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
                headers.add(name: "Cache-Control", value: "no-cache")
                let bytes = Array(response.body.utf8)
                headers.add(name: "Content-Length", value: String(bytes.count))
                if !keepAlive { headers.add(name: "Connection", value: "close") }
                let responseHead = HTTPResponseHead(version: version, status: HTTPResponseStatus(statusCode: response.status), headers: headers)
                var buffer = channel.allocator.buffer(capacity: bytes.count)
                buffer.writeBytes(bytes)
                channel.write(HTTPServerResponsePart.head(responseHead), promise: nil)
                channel.write(HTTPServerResponsePart.body(.byteBuffer(buffer)), promise: nil)
                let done = channel.writeAndFlush(HTTPServerResponsePart.end(nil))
                if !keepAlive { done.whenComplete { _ in channel.close(promise: nil) } }
            }
            if tooLarge {
                respond(.error("invalid argument", "the request body is larger than \(HTTPHandler.maxBody) bytes"))
                return
            }
            var path = head.uri
            if let q = path.firstIndex(of: "?") { path = String(path[..<q]) }
            queue.push(Request(method: head.method.rawValue, path: path, body: body, respond: respond))
            self.head = nil
            body = []
        }
    }
}

enum Base64 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 2 < bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)], alphabet[Int(n & 63)]]
            i += 3
        }
        let rest = bytes.count - i
        if rest == 1 {
            let n = UInt32(bytes[i]) << 16
            out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)], UInt8(ascii: "="), UInt8(ascii: "=")]
        } else if rest == 2 {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
            out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)], UInt8(ascii: "=")]
        }
        return String(decoding: out, as: UTF8.self)
    }
}
