#if canImport(Glibc)
import Glibc
#endif
import DisplayList
import DOM
import EngineIPC
import Layout
import WebURL

/// The viewport over the laid-out page: scrolling, a new viewport size, and a click at a
/// point of it (the window's), which the page's scripts see as a click on the element there.
extension ContentProcess {
    /// How far the page can scroll down (CSS pixels).
    var maxScrollY: Float {
        guard let page = laidOut else { return 0 }
        return max(0, (page.contentHeight - viewport.1).rounded(.up))
    }

    /// How far the page can scroll right (CSS pixels): a page wider than the viewport.
    var maxScrollX: Float {
        guard let page = laidOut else { return 0 }
        // (Less than a pixel wider, from a zoomed viewport's fraction: not wider.)
        let over = page.contentWidth - viewport.0
        return over < 1 ? 0 : over.rounded(.up)
    }

    /// Sends what shows in the viewport at the scroll position (clamped to the page) to the
    /// rendering process and waits until it has handed the layer to the host.
    func present() throws {
        guard let r = rendering else { throw IPCError.malformed("the rendering process is not available") }
        guard let page = laidOut else { return }
        scrollY = min(max(scrollY, 0), maxScrollY)
        scrollX = min(max(scrollX, 0), maxScrollX)
        scripts?.scrollY = Double(scrollY)
        scripts?.scrollX = Double(scrollX)
        // Only what shows goes to the rendering process (a long page's list is far larger).
        let list = page.contentHeight * zoom <= page.list.height && scrollX == 0 ? page.list
            : page.list.scrolled(toX: (scrollX * zoom).rounded(), y: (scrollY * zoom).rounded())
        do {
            frame &+= 1
            if frame == 0 || frame >= 0x8000_0000 { frame = 1 }
            let deadline = Clock.monotonicNanoseconds() + peerTimeoutNanoseconds
            try r.send(message: RenderingMessage.render(frame: frame, displayList: list.encoded()))
            guard try r.receive(RenderingMessage.self, deadline: deadline) == .rendered(frame: frame) else {
                throw IPCError.malformed("unexpected answer to render")
            }
        } catch {
            ContentProcess.log("rendering failed: \(error)")
            // A frame too large was never sent: the connection is still good.
            if case .oversized = error as? IPCError {} else { dropRendering() }
            throw error
        }
    }

    /// The page's layout as it is now, for scripts' geometry: laid out again (not rendered:
    /// the frame after the script's task does that) when a script changed the page since.
    func currentLayout(_ document: Document) -> PageLayout? {
        let changes = scripts?.bridge?.changes ?? 0
        guard laidOut == nil || laidOutAtChange != changes, let r = rendering else { return laidOut }
        fetchStyleSheets(of: document)
        guard var page = try? layoutEngine().layoutPage(document, measurer: RenderingMeasurer(connection: r, process: self)) else {
            return laidOut
        }
        linkAreas = page.links
        if zoom != 1 { page.list.scale(by: zoom) }
        laidOut = page
        laidOutAtChange = changes
        announceSize(page)
        return page
    }

    /// The `scroll` command [y] or [x, y]: the page shown from there (CSS pixels, clamped to
    /// the page). Answers the position (y, or [x, y]) and the frame rendered (0: none).
    func scroll(_ arguments: [String]) -> (json: String, frame: UInt32) {
        let values = arguments.compactMap { Float($0) }.filter(\.isFinite)
        guard (1...2).contains(arguments.count), values.count == arguments.count else {
            return (#"{"error":"invalid argument","message":"scroll takes a position: y, or x and y"}"#, 0)
        }
        let before = (scrollX, scrollY)
        if values.count == 2 { scrollX = min(max(values[0], 0), maxScrollX) }
        scrollY = min(max(values[values.count - 1], 0), maxScrollY)
        let answer = values.count == 2 ? "{\"value\":[\(scrollX),\(scrollY)]}" : "{\"value\":\(scrollY)}"
        guard laidOut != nil, scrollX != before.0 || scrollY != before.1 else { return (answer, 0) }
        do {
            try present()
        } catch {
            return (#"{"error":"unknown error","message":"rendering failed"}"#, 0)
        }
        return (answer, frame)
    }

    /// The `resize` command [width, height] (device pixels): the page laid out again in the
    /// new viewport (the document and its scripts' state kept). Answers the scroll position
    /// (clamped to the page's new height).
    func resize(_ arguments: [String]) -> String {
        guard arguments.count == 2, let w = UInt16(arguments[0]), let h = UInt16(arguments[1]),
              (1...16384).contains(w), (1...16384).contains(h) else {
            return #"{"error":"invalid argument","message":"resize takes a width and a height in 1...16384"}"#
        }
        deviceViewport = (Float(w), Float(h))
        viewport = (deviceViewport.0 / zoom, deviceViewport.1 / zoom)
        scripts?.viewport = (Int(viewport.0.rounded()), Int(viewport.1.rounded()))
        guard let document else { return #"{"value":null}"# }
        do {
            try render(document)
        } catch {
            return #"{"error":"unknown error","message":"rendering failed"}"#
        }
        return "{\"value\":\(scrollY)}"
    }

    /// The `clickAt` command (x, y in device pixels of the viewport, as the window's page
    /// area shows it): the element laid out there gets `mousedown`, `mouseup` and `click`
    /// (the page's listeners run, as for WebDriver's element click); unless a listener
    /// canceled the click, a link there is followed (its `href` resolved against the page).
    func click(at arguments: [String]) -> (json: String, navigation: String) {
        guard arguments.count == 2, let x = Float(arguments[0]), let y = Float(arguments[1]), x.isFinite, y.isFinite else {
            return (#"{"error":"invalid argument","message":"clickAt takes x and y"}"#, "")
        }
        // CSS pixels of the viewport (the event's clientX/Y), then of the page.
        let cx = x / zoom, cy = y / zoom
        let px = cx + scrollX, py = cy + scrollY
        if let scripts, scripts.hasPage {
            // Below the content (or on the canvas): the root element gets it, as in browsers.
            guard let element = laidOut?.element(atX: px, y: py) ?? document?.documentElement else { return (#"{"value":null}"#, "") }
            let json = scripts.click(element, clientX: Double(cx), clientY: Double(cy))
            let navigation = scripts.pendingNavigation ?? ""
            scripts.pendingNavigation = nil
            return (json, navigation)
        }
        // No scripting in this process: links only.
        guard let link = linkAreas.last(where: { $0.contains(x: px, y: py) }) else { return (#"{"value":null}"#, "") }
        guard let url = WebURL(link.href, base: WebURL(pageURL)), ["http", "https", "data", "file"].contains(url.scheme) else {
            return (#"{"value":null}"#, "")
        }
        return (#"{"value":"link"}"#, url.href)
    }
}
