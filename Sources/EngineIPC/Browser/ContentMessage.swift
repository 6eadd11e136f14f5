// The host and a web-content process (one per tab), in the BrowserEngineKit sample's order:
//
//   content -> host   hello(pid)                   the process started (nothing locked yet)
//   host -> content   lockdown(version)            install the content policy (SystemCallPolicy.content)
//   content -> host   lockedDown                   from here on the process opens nothing
//   host -> content   bootstrap                    then two descriptors (`Connection.sendDescriptor`):
//                                                  the rendering endpoint, the networking endpoint
//   content -> host   bootstrapped                 both peers answered a ping
//   host -> content   load(LoadRequest)            a URL, an HTML string or a file's bytes
//   content -> host   loaded(id, url, title)       the page was laid out and rendered
//                     | loadFailed(id, url, why)   an error value the host shows in the tab
//   host -> content   command(id, name, args)      a WebDriver operation on the page (execute a
//                                                  script, find elements, click, text, source),
//                                                  or `zoom` [level]: lay the page out again at it,
//                                                  `resize` [w, h]: the same at a new viewport size,
//                                                  `scroll` [y]: show the page from y (CSS px; the
//                                                  answer is the position, clamped to the page),
//                                                  `clickAt` [x, y]: a click at a point of the
//                                                  viewport (device px): the element there gets
//                                                  the click event, a link is followed
//   content -> host   commandResult(id, json, frame, navigation)
//                                                  its JSON answer; the frame rendered after it
//                                                  (0: none), a navigation it started ("" none)
//   content -> host   navigate(url)                a script navigated outside a command (timer)
//   content -> host   scrolled(x, y)               a script scrolled the page (`scrollTo`): the
//                                                  position shown, for the history entry
//   content -> host   titleChanged(title)          a script changed `document.title` after the load
//   content -> host   pageSize(width, height)      the page was laid out at this size (CSS px): the
//                                                  window's scrollbars
//   host -> content   ping(token)                  is the process alive? (sent while a request waits
//   content -> host   pong(token)                  for an answer: answered while the process waits
//                                                  for the network, so a slow server is not a hung page)
//   host -> content   shutdown
//
// `bootstrap` may come again (a relaunched rendering or networking process: new endpoints).

/// What a tab loads (`load(destination:)` in the sample).
public enum LoadDestination: Equatable, Sendable {
    /// An absolute URL, fetched by the networking process.
    case url(String)
    /// A document given as a string; `baseURL` resolves its relative URLs.
    case html(String, baseURL: String)
    /// A local file, read by the host (the content process opens nothing): its path for
    /// the title bar and its bytes.
    case file(path: String, contents: [UInt8])
}

public struct LoadRequest: Equatable, Sendable {
    public var id: UInt32
    public var destination: LoadDestination
    /// The viewport in CSS pixels.
    public var viewportWidth: UInt16
    public var viewportHeight: UInt16
    /// The page zoom (1: 100 %): the page is laid out in a viewport of `viewportWidth / zoom`
    /// CSS pixels and drawn at `zoom` device pixels per CSS pixel (0.25...5).
    public var zoom: Float
    /// Where the page opens scrolled to (CSS pixels from the top; a history entry's position,
    /// clamped to the page's height).
    public var scrollY: Float
    /// And from the left (a page wider than the viewport).
    public var scrollX: Float

    public init(id: UInt32, destination: LoadDestination, viewportWidth: UInt16 = 800, viewportHeight: UInt16 = 600, zoom: Float = 1,
                scrollY: Float = 0, scrollX: Float = 0) {
        self.id = id
        self.destination = destination
        self.viewportWidth = viewportWidth
        self.viewportHeight = viewportHeight
        self.zoom = zoom
        self.scrollY = scrollY
        self.scrollX = scrollX
    }
}

public enum ContentMessage: Equatable, Sendable, MessageSet {
    case hello(pid: Int32)
    case lockdown(version: UInt32)
    case lockedDown
    case bootstrap
    case bootstrapped
    case load(LoadRequest)
    case loaded(id: UInt32, url: String, title: String)
    case loadFailed(id: UInt32, url: String, reason: String)
    case shutdown
    case command(id: UInt32, name: String, arguments: [String])
    case commandResult(id: UInt32, json: String, frame: UInt32, navigation: String)
    case navigate(url: String)
    case scrolled(x: Float, y: Float)
    case titleChanged(title: String)
    case ping(token: UInt32)
    case pong(token: UInt32)
    case pageSize(width: Float, height: Float)

    /// A page or a file goes through here: the networking limit.
    public static let maxPayload = Frame.defaultMaxPayload

    enum Kind: UInt16 {
        case hello = 1, lockdown, lockedDown, bootstrap, bootstrapped, load, loaded, loadFailed, shutdown, command, commandResult, navigate, scrolled, titleChanged, ping, pong, pageSize
    }

    public var frame: Frame {
        var w = ByteWriter()
        let kind: Kind
        switch self {
        case .hello(let pid): kind = .hello; w.i32(pid)
        case .lockdown(let version): kind = .lockdown; w.u32(version)
        case .lockedDown: kind = .lockedDown
        case .bootstrap: kind = .bootstrap
        case .bootstrapped: kind = .bootstrapped
        case .load(let r):
            kind = .load
            w.u32(r.id)
            w.u16(r.viewportWidth)
            w.u16(r.viewportHeight)
            w.u32(r.zoom.bitPattern)
            w.u32(r.scrollY.bitPattern)
            w.u32(r.scrollX.bitPattern)
            switch r.destination {
            case .url(let url): w.u8(0); w.string(url)
            case .html(let html, let base): w.u8(1); w.string(html); w.string(base)
            case .file(let path, let contents): w.u8(2); w.string(path); w.blob(contents)
            }
        case .loaded(let id, let url, let title): kind = .loaded; w.u32(id); w.string(url); w.string(title)
        case .loadFailed(let id, let url, let reason): kind = .loadFailed; w.u32(id); w.string(url); w.string(reason)
        case .shutdown: kind = .shutdown
        case .command(let id, let name, let arguments):
            kind = .command; w.u32(id); w.string(name); w.u32(UInt32(arguments.count))
            for a in arguments { w.string(a) }
        case .commandResult(let id, let json, let frame, let navigation):
            kind = .commandResult; w.u32(id); w.string(json); w.u32(frame); w.string(navigation)
        case .navigate(let url): kind = .navigate; w.string(url)
        case .scrolled(let x, let y): kind = .scrolled; w.u32(x.bitPattern); w.u32(y.bitPattern)
        case .titleChanged(let title): kind = .titleChanged; w.string(title)
        case .ping(let token): kind = .ping; w.u32(token)
        case .pong(let token): kind = .pong; w.u32(token)
        case .pageSize(let width, let height): kind = .pageSize; w.u32(width.bitPattern); w.u32(height.bitPattern)
        }
        return Frame(kind: kind.rawValue, payload: w.bytes)
    }

    public init(_ frame: Frame) throws(IPCError) {
        guard let kind = Kind(rawValue: frame.kind) else { throw .malformed("unknown content message kind \(frame.kind)") }
        var r = ByteReader(frame.payload)
        switch kind {
        case .hello: self = .hello(pid: try r.i32())
        case .lockdown: self = .lockdown(version: try r.u32())
        case .lockedDown: self = .lockedDown
        case .bootstrap: self = .bootstrap
        case .bootstrapped: self = .bootstrapped
        case .load:
            let id = try r.u32()
            let width = try r.u16(), height = try r.u16()
            guard (1...16384).contains(width), (1...16384).contains(height) else { throw .malformed("bad viewport") }
            let zoom = Float(bitPattern: try r.u32())
            guard zoom.isFinite, (0.25...5).contains(zoom) else { throw .malformed("bad zoom") }
            let scrollY = Float(bitPattern: try r.u32())
            guard scrollY.isFinite, scrollY >= 0, scrollY <= 16_777_216 else { throw .malformed("bad scroll position") }
            let scrollX = Float(bitPattern: try r.u32())
            guard scrollX.isFinite, scrollX >= 0, scrollX <= 16_777_216 else { throw .malformed("bad scroll position") }
            let destination: LoadDestination
            switch try r.u8() {
            case 0: destination = .url(try r.string())
            case 1: destination = .html(try r.string(), baseURL: try r.string())
            case 2: destination = .file(path: try r.string(), contents: try r.blob())
            default: throw .malformed("bad destination")
            }
            self = .load(LoadRequest(id: id, destination: destination, viewportWidth: width, viewportHeight: height, zoom: zoom,
                                     scrollY: scrollY, scrollX: scrollX))
        case .loaded: self = .loaded(id: try r.u32(), url: try r.string(), title: try r.string())
        case .loadFailed: self = .loadFailed(id: try r.u32(), url: try r.string(), reason: try r.string())
        case .shutdown: self = .shutdown
        case .command:
            let id = try r.u32(), name = try r.string()
            let count = try r.u32()
            guard count <= 16 else { throw .malformed("too many command arguments") }
            var arguments: [String] = []
            for _ in 0..<count { arguments.append(try r.string()) }
            self = .command(id: id, name: name, arguments: arguments)
        case .commandResult: self = .commandResult(id: try r.u32(), json: try r.string(), frame: try r.u32(), navigation: try r.string())
        case .navigate: self = .navigate(url: try r.string())
        case .scrolled:
            let x = Float(bitPattern: try r.u32()), y = Float(bitPattern: try r.u32())
            guard x.isFinite, y.isFinite, x >= 0, y >= 0, x <= 16_777_216, y <= 16_777_216 else { throw .malformed("bad scroll position") }
            self = .scrolled(x: x, y: y)
        case .titleChanged: self = .titleChanged(title: try r.string())
        case .ping: self = .ping(token: try r.u32())
        case .pong: self = .pong(token: try r.u32())
        case .pageSize:
            let width = Float(bitPattern: try r.u32()), height = Float(bitPattern: try r.u32())
            guard width.isFinite, height.isFinite, width >= 0, height >= 0 else { throw .malformed("bad page size") }
            self = .pageSize(width: width, height: height)
        }
        try r.finish()
    }
}
