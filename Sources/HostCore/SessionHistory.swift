import EngineIPC
import WebURL

/// One entry of a tab's back-forward list: what was shown, under which title, and where the
/// page was scrolled when the user left it (CSS pixels from the top).
public struct HistoryEntry: Equatable, Sendable {
    /// The entry's URL (the final one once the page loaded: after redirects).
    public var url: String
    public var title: String
    public var scrollY: Double
    /// And from the left (a page wider than the window).
    public var scrollX: Double = 0
    /// An inline document (`LoadDestination.html`), kept in memory only: the profile stores
    /// the URL, which is its base URL.
    var html: String?

    public init(url: String, title: String = "", scrollY: Double = 0) {
        self.url = url
        self.title = title
        self.scrollY = scrollY
    }

    init(_ destination: LoadDestination) {
        switch destination {
        case .url(let url): self.init(url: url)
        case .file(let path, _): self.init(url: "file://" + path)
        case .html(let html, let base):
            self.init(url: base)
            self.html = html
        }
    }

    /// How the entry is loaded again (back, forward, reload, a restored session): a file is
    /// read again, as browsers do; `about:blank` is the empty document.
    var destination: LoadDestination {
        if let html { return .html(html, baseURL: url) }
        if url == "about:blank" { return .html("", baseURL: url) }
        if url.hasPrefix("file:") {
            switch Headless.destination(for: url) {
            case .success(let d): return d
            case .failure: return .url(url)  // the networking process reports the error value
            }
        }
        return .url(url)
    }
}

/// What moves a tab in its session history. Every way of navigating (toolbar buttons,
/// keyboard shortcuts, mouse buttons 8 and 9, the swipe gesture, WebDriver, a link or a
/// script) goes through `Browser.go(_:_:)` with one of these.
public enum Navigation: Equatable, Sendable {
    /// A new entry after the current one (the forward entries are dropped).
    case to(LoadDestination)
    case back
    case forward
    /// `delta` entries back (negative) or forward.
    case traverse(Int)
    /// The current entry again.
    case reload
}

/// The site of a URL, the key of its zoom level: its registrable domain (the Public Suffix
/// List bundled with WebURL: `www.example.co.uk` → `example.co.uk`), its host when it has
/// none (an IP address, `localhost`), `file:` for files; nil for URLs without a host
/// (`about:blank`, `data:`), which are always shown at 100 %.
public func siteOf(_ url: String) -> String? {
    guard let u = WebURL(url) else { return nil }
    if u.scheme == "file" { return "file:" }
    guard let host = u.host, host != .empty else { return nil }
    return host.registrableDomain ?? host.serialized
}

/// Page zoom levels: the usual browser steps (Chromium's and Firefox's), 30 % to 300 %.
public enum ZoomLevels {
    public static let steps: [Double] = [0.3, 0.5, 0.67, 0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0]
    public static let range: ClosedRange<Double> = 0.3...3.0

    /// The next step above `level` (`level` itself at the top).
    public static func step(up level: Double) -> Double {
        steps.first { $0 > level + 0.001 } ?? steps.last!
    }

    /// The next step below `level`.
    public static func step(down level: Double) -> Double {
        steps.last { $0 < level - 0.001 } ?? steps.first!
    }
}
