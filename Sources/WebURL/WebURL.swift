/// A URL record of the WHATWG URL Standard (https://url.spec.whatwg.org/#concept-url), with
/// the `URL` interface's getters and setters.
///
///     let url = WebURL("../b?x#y", base: WebURL("https://example.com/a/c")!)!
///     url.href   // "https://example.com/b?x#y"
public struct WebURL: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// A URL's path: a list of segments, or one opaque string (`mailto:x@y`).
    public enum Path: Equatable, Hashable, Sendable {
        case segments([String])
        case opaque(String)
    }

    /// The scheme, ASCII lowercase, without ":".
    public internal(set) var scheme: String = ""
    public internal(set) var username: String = ""
    public internal(set) var password: String = ""
    public internal(set) var host: Host?
    /// The port; nil when absent or the scheme's default.
    public internal(set) var port: UInt16?
    public internal(set) var path: Path = .segments([])
    public internal(set) var query: String?
    public internal(set) var fragment: String?

    init() {}

    /// Parses `input` against an optional base (the API URL parser); nil on failure.
    public init?(_ input: String, base: WebURL? = nil) {
        guard let url = URLParser.parse(input, base: base) else { return nil }
        self = url
    }

    /// Parses `input` against a base string; nil when either fails.
    public init?(_ input: String, baseString: String?) {
        var base: WebURL? = nil
        if let baseString {
            guard let b = WebURL(baseString) else { return nil }
            base = b
        }
        self.init(input, base: base)
    }

    // MARK: - Properties of the record

    /// https://url.spec.whatwg.org/#is-special
    public var isSpecial: Bool { WebURL.defaultPort(scheme) != nil || scheme == "file" }

    public var hasOpaquePath: Bool { if case .opaque = path { return true } else { return false } }

    public var includesCredentials: Bool { !username.isEmpty || !password.isEmpty }

    /// The special schemes and their default ports (file has none).
    static func defaultPort(_ scheme: String) -> UInt16? {
        switch scheme {
        case "http", "ws": return 80
        case "https", "wss": return 443
        case "ftp": return 21
        default: return nil
        }
    }

    static func isSpecialScheme(_ scheme: String) -> Bool { defaultPort(scheme) != nil || scheme == "file" }

    /// https://url.spec.whatwg.org/#cannot-have-a-username-password-port
    var cannotHaveUsernamePasswordPort: Bool {
        host == nil || host == .empty || scheme == "file"
    }

    // MARK: - Serialization

    /// The URL serializer (https://url.spec.whatwg.org/#concept-url-serializer).
    public func serialized(excludeFragment: Bool = false) -> String {
        var out = scheme + ":"
        if let host {
            out += "//"
            if includesCredentials {
                out += username
                if !password.isEmpty { out += ":" + password }
                out += "@"
            }
            out += host.serialized
            if let port { out += ":" + String(port) }
        }
        if host == nil, case .segments(let s) = path, s.count > 1, s[0].isEmpty { out += "/." }
        out += pathname
        if let query { out += "?" + query }
        if !excludeFragment, let fragment { out += "#" + fragment }
        return out
    }

    public var description: String { href }

    // MARK: - The URL interface's getters

    public var href: String { serialized() }

    /// https://url.spec.whatwg.org/#concept-url-origin, serialized.
    public var origin: String {
        switch scheme {
        case "blob":
            if let inner = WebURL(pathname), inner.scheme == "http" || inner.scheme == "https" { return inner.origin }
            return "null"
        case "ftp", "http", "https", "ws", "wss":
            var o = scheme + "://" + (host?.serialized ?? "")
            if let port { o += ":" + String(port) }
            return o
        default:
            return "null"
        }
    }

    public var `protocol`: String { scheme + ":" }

    public var hostString: String {
        guard let host else { return "" }
        return port.map { host.serialized + ":" + String($0) } ?? host.serialized
    }

    public var hostname: String { host?.serialized ?? "" }

    public var portString: String { port.map { String($0) } ?? "" }

    public var pathname: String {
        switch path {
        case .opaque(let s): return s
        case .segments(let segments):
            var out = ""
            for s in segments { out += "/" + s }
            return out
        }
    }

    public var search: String {
        guard let query, !query.isEmpty else { return "" }
        return "?" + query
    }

    public var hash: String {
        guard let fragment, !fragment.isEmpty else { return "" }
        return "#" + fragment
    }

    /// The query as name-value pairs (`url.searchParams`).
    public var searchParams: URLSearchParams { URLSearchParams(query ?? "") }

    // MARK: - Helpers for the parser

    /// https://url.spec.whatwg.org/#shorten-a-urls-path
    mutating func shortenPath() {
        guard case .segments(var s) = path else { return }
        if scheme == "file" && s.count == 1 && URLParser.isNormalizedWindowsDriveLetter(s[0]) { return }
        if !s.isEmpty { s.removeLast() }
        path = .segments(s)
    }

    mutating func appendSegment(_ segment: String) {
        if case .segments(var s) = path {
            path = .segments([])  // keep the array uniquely referenced
            s.append(segment)
            path = .segments(s)
        }
    }

    var pathSegments: [String] { if case .segments(let s) = path { return s } else { return [] } }
}
