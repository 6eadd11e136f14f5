#if canImport(Glibc)
import Glibc
#endif
import CLockdown
import DisplayList
import DOM
import EngineIPC
import HTML
import Layout
import Lockdown
import WebURL

/// The web-content process, as a library (the `sable` content role is a thin `main` over
/// it). It follows the BrowserEngineKit sample's order: hello, `lockdown(version:)` (the
/// content policy, with the JIT's executable region reserved before), `bootstrap` with the
/// rendering and networking endpoints (both pinged), then `load(destination:)`: fetch
/// through networking, parse, lay out (text measured by the rendering process), and send
/// the display list to the rendering process, which hands the layer to the host.
public final class ContentProcess {
    let host: Connection
    var rendering: Connection?
    var networking: Connection?
    var frame: UInt32 = 0
    var nextRequest: UInt32 = 1
    /// The engine, made before lockdown (nil in processes that never lock down).
    var scripts: ScriptRunner?
    /// The page shown (scripts keep changing it after the load).
    var document: Document?
    /// The layout viewport in CSS pixels: the host's viewport divided by the zoom.
    var viewport: (Float, Float) = (800, 600)
    /// The host's viewport in device pixels, and the page zoom (device pixels per CSS pixel):
    /// a zoomed page is laid out at the zoomed CSS pixel size and drawn scaled (text at the
    /// zoomed font size), as browsers zoom, not a bitmap scale.
    var deviceViewport: (Float, Float) = (800, 600)
    var zoom: Float = 1
    /// Where the page's links were laid out (CSS pixels), for a click at a point.
    var linkAreas: [LinkArea] = []
    /// The last layout of the page: its list (device pixels, at page coordinates), height
    /// and hit areas (CSS pixels).
    var laidOut: PageLayout?
    /// How far the page is scrolled down (CSS pixels; clamped to the page when shown).
    var scrollY: Float = 0
    /// How far the page is scrolled right (CSS pixels; clamped to the page when shown).
    var scrollX: Float = 0
    /// The bindings' change count `laidOut` was made at.
    var laidOutAtChange = -1
    /// The page's URL (relative `href`s resolve against it).
    var pageURL = ""
    /// The page's linked style sheets by URL, fetched once each ("" when the fetch failed).
    var styleSheets: [String: String] = [:]
    /// The content blockers' css-display-none style sheet for the page (empty: none).
    var pageHiding = ""
    /// Messages of the host that arrived while a fetch waited (pings are answered at once),
    /// handled next by `run`; `hostClosed`: the host went away meanwhile.
    var deferred: [ContentMessage] = []
    var hostClosed = false
    /// The page's title the host last heard of (a script's change is sent after its task).
    var announcedTitle = ""
    var announcedSize: (Float, Float) = (0, 0)
    var titleCheckedAtChange = -1
    /// How long a peer may take to answer (a fetch has the networking session's own limits).
    public var peerTimeoutNanoseconds: UInt64 = 30_000_000_000

    public init(host: Connection) {
        var host = host
        host.maxPayload = ContentMessage.maxPayload
        self.host = host
    }

    static func log(_ line: String) {
        let text = "content \(getpid()): " + line + "\n"
        _ = text.withCString { write(2, $0, strlen($0)) }
    }

    /// The content role's whole `main`: the host's socket on `socketFD`, the violation-report
    /// pipe on `reportFD`. Returns the exit status (0 after `shutdown` or when the host left).
    public static func roleMain(socketFD: Int32, reportFD: Int32, parent: Int32) -> Int32 {
        _ = sable_set_parent_death_signal(SIGKILL)
        if getppid() != parent { return 71 }
        var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
        setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore)
        let process = ContentProcess(host: Connection(fd: socketFD, noSignal: true))
        // Warm-up before lockdown: lazy runtime state of the parser and layout (metadata,
        // tables) is made now, while making it may still need the system.
        let warm = HTMLParser.parseDocument("<!doctype html><title>t</title><p>warm <b>up</b></p>")
        _ = try? LayoutEngine(viewportWidth: 100, viewportHeight: 100).layout(warm, measurer: FixedMeasurer())
        _ = DisplayList(width: 1, height: 1).encoded()
        // Each page's realm calls tzset(); with TZ unset glibc reads /etc/localtime again
        // every time (an openat after lockdown). With TZ set, a repeated value is a no-op.
        if getenv("TZ") == nil { setenv("TZ", ":/etc/localtime", 0) }
        if MemoryLog.enabled { LayoutEngine.trace = { MemoryLog.note($0) } }
        process.scripts = ScriptRunner()
        // The JIT's code pool: the only range the policy lets become executable.
        let region = ExecutableRegion.reserve()
        do {
            try process.host.send(message: ContentMessage.hello(pid: getpid()))
            guard case .lockdown(let version) = try process.host.receive(ContentMessage.self) else {
                log("expected lockdown")
                return 71
            }
            guard version == SystemCallPolicy.contentVersion else {
                log("content policy version \(version) requested, this process has \(SystemCallPolicy.contentVersion)")
                return 71
            }
            let dropped = sable_drop_capabilities()
            guard dropped == 0, sable_capabilities_cleared() == 1 else {
                log("cannot drop capabilities: errno \(-dropped)")
                return 71
            }
            do {
                try Lockdown.install(.content(pid: getpid(), executable: region), mode: .reportAndKill, reportFD: reportFD)
            } catch {
                log("lockdown failed: \(error)")
                return 71
            }
            process.scripts?.installJIT(region: region)
            try process.host.send(message: ContentMessage.lockedDown)
            // MARK: - Locked down from here on: no file, socket or process is ever opened.
            return process.run()
        } catch .closed {
            return 0
        } catch {
            log("\(error)")
            return 71
        }
    }

    /// Serves the host until `shutdown` or until it goes away; between messages, runs the
    /// page's timers and renders again what their scripts changed.
    public func run() -> Int32 {
        while true {
            let message: ContentMessage
            if !deferred.isEmpty {
                message = deferred.removeFirst()
            } else {
                if hostClosed { return 0 }
                let next = scripts?.runTimers()
                afterScripts(announce: true)
                if hostClosed { return 0 }
                if !deferred.isEmpty { continue }
                let wait: Int32 = next.map { Int32(min(max($0.rounded(.up), 0), 60_000)) } ?? -1
                var fds = [pollfd(fd: host.fd, events: Int16(POLLIN), revents: 0)]
                let rc = poll(&fds, 1, wait)
                if rc == 0 { continue }
                if rc < 0 && errno == EINTR { continue }
                do {
                    message = try host.receive(ContentMessage.self)
                } catch .closed {
                    return 0
                } catch {
                    ContentProcess.log("bad message from the host: \(error)")
                    return 71
                }
            }
            do {
                switch message {
                case .ping(let token):
                    try host.send(message: ContentMessage.pong(token: token))
                case .bootstrap:
                    try bootstrap()
                case .load(let request):
                    try host.send(message: load(request))
                    if let target = scripts?.pendingNavigation {
                        scripts?.pendingNavigation = nil
                        try host.send(message: ContentMessage.navigate(url: target))
                    }
                case .command(let id, "zoom", let arguments):
                    let json = setZoom(arguments)
                    try host.send(message: ContentMessage.commandResult(id: id, json: json, frame: json.hasPrefix("{\"value\"") ? frame : 0,
                                                                        navigation: ""))
                case .command(let id, "clickAt", let arguments):
                    let (json, navigation) = click(at: arguments)
                    let frame = afterScripts(announce: false)
                    try host.send(message: ContentMessage.commandResult(id: id, json: json, frame: frame, navigation: navigation))
                case .command(let id, "scroll", let arguments):
                    var (json, frame) = scroll(arguments)
                    if frame != 0 {
                        // The page's scroll listeners run; what they change is in the frame answered.
                        scripts?.fireScroll()
                        let after = afterScripts(announce: false)
                        if after != 0 { frame = after }
                    }
                    try host.send(message: ContentMessage.commandResult(id: id, json: json, frame: frame, navigation: ""))
                case .command(let id, "resize", let arguments):
                    let json = resize(arguments)
                    try host.send(message: ContentMessage.commandResult(id: id, json: json, frame: json.hasPrefix("{\"value\"") ? frame : 0,
                                                                        navigation: ""))
                case .command(let id, let name, let arguments):
                    let json = scripts?.command(name, arguments) ?? #"{"error":"no such window","message":"no page"}"#
                    let frame = afterScripts(announce: false)
                    let navigation = scripts?.pendingNavigation ?? ""
                    scripts?.pendingNavigation = nil
                    try host.send(message: ContentMessage.commandResult(id: id, json: json, frame: frame, navigation: navigation))
                case .shutdown:
                    return 0
                default:
                    ContentProcess.log("unexpected message from the host")
                    return 71
                }
            } catch {
                ContentProcess.log("host connection: \(error)")
                return 71
            }
        }
    }

    /// After scripts ran: renders again if they changed the page (the new frame's number,
    /// 0 when nothing changed); `announce`: tell the host of a navigation they started.
    @discardableResult
    func afterScripts(announce: Bool) -> UInt32 {
        var rendered: UInt32 = 0
        let scrollTo = scripts?.requestedScroll
        scripts?.requestedScroll = nil
        let before = (scrollX, scrollY)
        if let to = scrollTo { (scrollX, scrollY) = (Float(to.x), Float(to.y)) }
        if let bridge = scripts?.bridge, bridge.dirty, let document {
            bridge.dirty = false
            if (try? render(document)) != nil { rendered = frame }
        } else if scrollTo != nil, laidOut != nil {
            if (try? present()) != nil { rendered = frame }
        }
        if scrollTo != nil, laidOut != nil {
            // The position shown (clamped): the host's history entry keeps it.
            try? host.send(message: ContentMessage.scrolled(x: scrollX, y: scrollY))
            if scrollX != before.0 || scrollY != before.1 {
                // A script's scroll fires `scroll` too, once the page moved (as a user's does);
                // what the listeners change is in the frame. (A listener's own scroll is
                // applied after this task, with its own event.)
                scripts?.fireScroll()
                if let bridge = scripts?.bridge, bridge.dirty, let document {
                    bridge.dirty = false
                    if (try? render(document)) != nil { rendered = frame }
                }
            }
        }
        if announce, let target = scripts?.pendingNavigation {
            scripts?.pendingNavigation = nil
            try? host.send(message: ContentMessage.navigate(url: target))
        }
        announceTitle()
        return rendered
    }

    /// Tells the host how big the page is after a layout that changed it (CSS pixels): the
    /// window's scrollbars.
    func announceSize(_ page: PageLayout) {
        let size = (page.contentWidth, page.contentHeight)
        guard size != announcedSize else { return }
        announcedSize = size
        try? host.send(message: ContentMessage.pageSize(width: size.0, height: size.1))
    }

    /// Tells the host when scripts changed the page's title (`document.title`, the `<title>`'s
    /// text): the window's title and the history entry follow it.
    func announceTitle() {
        guard let document, let bridge = scripts?.bridge, bridge.changes != titleCheckedAtChange else { return }
        titleCheckedAtChange = bridge.changes
        let title = LayoutEngine.title(of: document)
        guard title != announcedTitle else { return }
        announcedTitle = title
        try? host.send(message: ContentMessage.titleChanged(title: title))
    }

    /// Lays out `document` and has the rendering process paint what shows in the viewport
    /// at the scroll position (the layer goes to the host).
    func render(_ document: Document) throws {
        guard let r = rendering else { throw IPCError.malformed("the rendering process is not available") }
        do {
            fetchStyleSheets(of: document)
            let engine = layoutEngine()
            var page = try engine.layoutPage(document, measurer: RenderingMeasurer(connection: r, process: self))
            MemoryLog.note("laid out (\(page.list.items.count) items, \(page.hits.count) hit areas)")
            linkAreas = page.links
            if zoom != 1 { page.list.scale(by: zoom) }
            laidOut = page
            laidOutAtChange = scripts?.bridge?.changes ?? 0
            announceSize(page)
        } catch {
            ContentProcess.log("rendering failed: \(error)")
            if case .oversized = error as? IPCError {} else { dropRendering() }
            throw error
        }
        try present()
    }

    /// The `zoom` command: the page laid out again at a new zoom (the document and its
    /// scripts' state kept), the new frame rendered.
    func setZoom(_ arguments: [String]) -> String {
        guard arguments.count == 1, let level = Float(arguments[0]), level.isFinite, (0.25...5).contains(level) else {
            return #"{"error":"invalid argument","message":"zoom takes one level in 0.25...5"}"#
        }
        zoom = level
        viewport = (deviceViewport.0 / zoom, deviceViewport.1 / zoom)
        scripts?.viewport = (Int(viewport.0.rounded()), Int(viewport.1.rounded()))
        scripts?.zoom = Double(zoom)
        guard let document else { return #"{"value":null}"# }
        do {
            try render(document)
        } catch {
            return #"{"error":"unknown error","message":"rendering failed"}"#
        }
        return #"{"value":null}"#
    }

    /// Takes the two endpoints that follow `bootstrap` and pings both.
    func bootstrap() throws(IPCError) {
        let deadline = Clock.monotonicNanoseconds() + peerTimeoutNanoseconds
        let r = Connection(fd: try host.receiveDescriptor(deadline: deadline), maxPayload: RenderingMessage.maxPayload, noSignal: true)
        let n = Connection(fd: try host.receiveDescriptor(deadline: deadline), maxPayload: NetworkingMessage.maxResponsePayload, noSignal: true)
        rendering?.close()
        networking?.close()
        rendering = r
        networking = n
        let token = nextID()
        do {
            try r.send(message: RenderingMessage.ping(token))
            guard try r.receive(RenderingMessage.self, deadline: deadline) == .pong(token) else { throw IPCError.malformed("bad pong") }
        } catch {
            ContentProcess.log("the rendering process did not answer the ping: \(error)")
            dropRendering()
        }
        do {
            try n.send(message: NetworkingMessage.ping(token))
            guard try n.receive(NetworkingMessage.self, deadline: deadline) == .pong(token) else { throw IPCError.malformed("bad pong") }
        } catch {
            ContentProcess.log("the networking process did not answer the ping: \(error)")
            dropNetworking()
        }
        try host.send(message: ContentMessage.bootstrapped)
    }

    func dropRendering() {
        if let r = rendering { shutdown(r.fd, Int32(SHUT_RDWR)); r.close() }
        rendering = nil
    }

    func dropNetworking() {
        if let n = networking { shutdown(n.fd, Int32(SHUT_RDWR)); n.close() }
        networking = nil
    }

    /// Loads a destination to the end: the answer for the host.
    func load(_ request: LoadRequest) -> ContentMessage {
        // The page before goes first (its document, layout and scripts' heap): a big page
        // reloaded is not held twice.
        document = nil
        laidOut = nil
        linkAreas = []
        scripts?.endPage()
        let document: Document, url: String, hiding: String
        switch fetchAndParse(request.destination) {
        case .success(let parsed): (document, url, hiding) = parsed
        case .failure(let failure): return .loadFailed(id: request.id, url: failure.url, reason: failure.reason)
        }
        deviceViewport = (Float(request.viewportWidth), Float(request.viewportHeight))
        zoom = request.zoom
        viewport = (deviceViewport.0 / zoom, deviceViewport.1 / zoom)
        scrollY = request.scrollY
        scrollX = request.scrollX
        laidOut = nil
        self.document = document
        pageURL = url
        styleSheets = [:]
        pageHiding = hiding
        if let scripts {
            scripts.viewport = (Int(viewport.0.rounded()), Int(viewport.1.rounded()))
            scripts.zoom = Double(zoom)
            scripts.layoutEngine = { [unowned self] in
                fetchStyleSheets(of: document)
                return layoutEngine()
            }
            scripts.pageLayout = { [unowned self] in currentLayout(document) }
            scripts.startPage(document, url: url)
            scripts.runScripts(fetch: { [unowned self] in self.fetch($0) })
            scripts.bridge?.dirty = false
            MemoryLog.note("scripts ran")
            if let to = scripts.requestedScroll {
                (scrollX, scrollY) = (Float(to.x), Float(to.y))  // shown by the first frame; the host hears of it after `loaded`
            }
        }
        let title = LayoutEngine.title(of: document)
        announcedTitle = title
        titleCheckedAtChange = scripts?.bridge?.changes ?? -1
        guard rendering != nil else {
            return .loadFailed(id: request.id, url: url, reason: "The rendering process is not available")
        }
        do {
            try render(document)
        } catch {
            return .loadFailed(id: request.id, url: url, reason: "Rendering failed: \(error)")
        }
        return .loaded(id: request.id, url: url, title: title)
    }

    struct LoadFailure: Error {
        var url: String
        var reason: String
    }

    /// The destination's bytes, parsed: the document, its URL and the content blockers' style
    /// sheet for it (the bytes are gone when this returns).
    func fetchAndParse(_ destination: LoadDestination) -> Result<(Document, String, String), LoadFailure> {
        let bytes: [UInt8]
        let url: String
        var hiding = ""
        switch destination {
        case .html(let html, let base):
            bytes = Array(html.utf8)
            url = base
        case .file(let path, let contents):
            bytes = contents
            url = "file://" + path
        case .url(let target):
            switch fetch(target) {
            case .success(let response):
                bytes = response.body
                url = response.url
                hiding = response.contentBlockerStyleSheet
            case .failure(let error):
                return .failure(LoadFailure(url: target, reason: error.description))
            }
        }
        MemoryLog.note("fetched \(bytes.count >> 20) MB")
        let document = HTMLParser.parseDocument(bytes, scripting: scripts != nil).document
        MemoryLog.note("parsed")
        return .success((document, url, hiding))
    }

    /// A layout engine of the viewport with the page's linked sheets (those fetched so far).
    func layoutEngine() -> LayoutEngine {
        var engine = LayoutEngine(viewportWidth: viewport.0, viewportHeight: viewport.1)
        let base = WebURL(pageURL), sheets = styleSheets
        engine.linkedStyleSheet = { e in WebURL(e.attribute("href") ?? "", base: base).flatMap { sheets[$0.href] } }
        if !pageHiding.isEmpty, let document { engine.hiddenElements = HidingStyleSheet(pageHiding).hiddenElements(of: document) }
        return engine
    }

    /// Fetches the `<link rel=stylesheet>` sheets not fetched yet (a failure or an HTTP
    /// error is an empty sheet, as in browsers).
    func fetchStyleSheets(of document: Document) {
        let base = WebURL(pageURL)
        var wanted: [String] = []
        document.forEachDescendant { node in
            if let e = node as? Element, e.isHTML("link"), Cascade.isStyleSheetLink(e),
               let url = WebURL(e.attribute("href") ?? "", base: base), ["http", "https", "data"].contains(url.scheme),
               styleSheets[url.href] == nil {
                wanted.append(url.href)
            }
        }
        for url in wanted where styleSheets[url] == nil {
            switch fetch(url) {
            case .success(let r) where (200..<300).contains(r.status):
                styleSheets[url] = String(decoding: r.body, as: UTF8.self)
            case .success(let r):
                ContentProcess.log("style sheet \(url): HTTP \(r.status)")
                styleSheets[url] = ""
            case .failure(let error):
                ContentProcess.log("style sheet \(url): \(error)")
                styleSheets[url] = ""
            }
        }
    }

    /// One fetch through the networking process.
    func fetch(_ url: String) -> Result<FetchResponse, FetchError> {
        guard let n = networking else { return .failure(.other("the networking process is not available")) }
        let id = nextID()
        do {
            try n.send(message: NetworkingMessage.fetch(FetchRequest(id: id, url: url)))
            let deadline = Clock.monotonicNanoseconds() + 120_000_000_000
            while true {
                waitForNetworking(n, until: deadline)
                switch try n.receive(NetworkingMessage.self, deadline: deadline) {
                case .response(let r) where r.id == id: return .success(r)
                case .failure(let i, let error) where i == id: return .failure(error)
                default: continue
                }
            }
        } catch {
            dropNetworking()
            return .failure(.other("the networking process failed: \(error)"))
        }
    }

    /// Waits until the networking process's answer is there (or `deadline`), answering the
    /// host's pings meanwhile: a page waiting for a slow server is alive, not hung. Other
    /// messages of the host wait in `deferred` for the run loop.
    func waitForNetworking(_ n: Connection, until deadline: UInt64) {
        while !hostClosed {
            let now = Clock.monotonicNanoseconds()
            guard now < deadline else { return }
            var fds = [pollfd(fd: n.fd, events: Int16(POLLIN), revents: 0), pollfd(fd: host.fd, events: Int16(POLLIN), revents: 0)]
            let rc = poll(&fds, 2, Int32(min((deadline - now) / 1_000_000 + 1, 60_000)))
            if rc < 0 && errno == EINTR { continue }
            if rc <= 0 || fds[0].revents != 0 { return }
            do {
                let message = try host.receive(ContentMessage.self)
                if case .ping(let token) = message {
                    try host.send(message: ContentMessage.pong(token: token))
                } else {
                    deferred.append(message)
                }
            } catch {
                if error != .closed { ContentProcess.log("bad message from the host: \(error)") }
                hostClosed = true
            }
        }
    }

    /// A fresh id for a request or a ping.
    func nextID() -> UInt32 {
        defer { nextRequest &+= 1 }
        return nextRequest
    }
}

/// Text measured by the rendering process: one `measure` round trip per layout pass.
struct RenderingMeasurer: TextMeasurer {
    let connection: Connection
    let process: ContentProcess

    func measure(_ texts: [(Font, String)]) throws -> [TextSize] {
        var out: [TextSize] = []
        out.reserveCapacity(texts.count)
        var start = 0
        while start < texts.count {
            let chunk = texts[start..<min(start + 50_000, texts.count)]
            let id = process.nextID()
            let requests = chunk.map { f, t in
                TextMeasurement(family: f.family.rawValue, size: f.size, style: (f.bold ? 1 : 0) | (f.italic ? 2 : 0), text: t)
            }
            try connection.send(message: RenderingMessage.measure(id: id, requests))
            let deadline = Clock.monotonicNanoseconds() + process.peerTimeoutNanoseconds
            guard case .measured(id, let metrics) = try connection.receive(RenderingMessage.self, deadline: deadline),
                  metrics.count == chunk.count else { throw IPCError.malformed("unexpected answer to measure") }
            out += metrics.map { TextSize(width: $0.width, ascent: $0.ascent, descent: $0.descent) }
            start += chunk.count
        }
        return out
    }
}

/// Every character as wide as half the font size: the warm-up's measurer, and tests'.
public struct FixedMeasurer: TextMeasurer {
    public init() {}
    public func measure(_ texts: [(Font, String)]) throws -> [TextSize] {
        texts.map { f, t in TextSize(width: Float(t.count) * f.size / 2, ascent: f.size * 0.8, descent: f.size * 0.2) }
    }
}
