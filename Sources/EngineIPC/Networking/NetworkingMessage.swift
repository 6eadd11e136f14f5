// The networking message set: a web-content process (or the host) and the networking process.
//
//   client -> networking   ping(n)                     after bootstrap, and as a liveness check
//   networking -> client   pong(n)
//   client -> networking   fetch(FetchRequest)         one per resource
//   networking -> client   response(FetchResponse)     the final response (redirects followed),
//                          | failure(id, FetchError)   or why there is none
//
// Requests come from the least trusted process, so everything a request carries is validated
// on receipt: the method and header names are HTTP tokens, header values hold no CR, LF or
// NUL (no header injection), counts and sizes are bounded.

/// An HTTP header field.
public struct HTTPHeader: Equatable, Hashable, Sendable {
    public var name: String
    public var value: String
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// The name is an HTTP token and the value holds no CR, LF or NUL: what the networking
    /// message set accepts (and what cannot smuggle another header into a request).
    public var isValid: Bool {
        NetworkingMessage.isToken(name) && value.utf8.allSatisfy { $0 != 0 && $0 != 0x0A && $0 != 0x0D }
    }
}

/// What a request loads, as the content blocker's `resource-type` sees it.
public enum ResourceType: UInt8, Sendable, CaseIterable {
    case document = 0, script, styleSheet, image, font, media, fetch, other
}

/// A request to the networking process.
public struct FetchRequest: Equatable, Sendable {
    public var id: UInt32
    /// An absolute http(s) URL (parsed again by the networking process).
    public var url: String
    public var method: String = "GET"
    public var headers: [HTTPHeader] = []
    public var body: [UInt8] = []
    public var resourceType: ResourceType = .document
    /// The URL of the page that makes the request (nil for a top-level navigation).
    public var firstPartyURL: String?
    /// Milliseconds for the whole fetch, redirects included (0: the session's default).
    public var timeoutMilliseconds: UInt32 = 0
    /// Follow redirects (false: a 3xx response is returned as it is).
    public var followRedirects = true

    public init(id: UInt32, url: String) {
        self.id = id
        self.url = url
    }
}

/// A response; HTTP error statuses (404, 500) are responses too.
public struct FetchResponse: Equatable, Sendable {
    public var id: UInt32
    /// The URL of the final response, after redirects.
    public var url: String
    public var status: UInt16
    public var statusText: String
    public var headers: [HTTPHeader]
    /// The body, decompressed.
    public var body: [UInt8]
    /// How many redirects were followed to get here.
    public var redirectCount: UInt16
    /// For a document: the content blockers' style sheet for it (css-display-none rules the
    /// content process applies to the page); empty for none.
    public var contentBlockerStyleSheet = ""

    public init(id: UInt32, url: String, status: UInt16, statusText: String = "", headers: [HTTPHeader] = [],
                body: [UInt8] = [], redirectCount: UInt16 = 0) {
        self.id = id
        self.url = url
        self.status = status
        self.statusText = statusText
        self.headers = headers
        self.body = body
        self.redirectCount = redirectCount
    }

    /// The first value of a header (names compare ASCII case-insensitively).
    public func header(_ name: String) -> String? {
        let n = name.lowercased()
        return headers.first { $0.name.lowercased() == n }?.value
    }
}

/// Why a fetch produced no response. Each case carries a human-readable detail.
public enum FetchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The URL does not parse, or is not http(s).
    case invalidURL(String)
    /// The host name did not resolve.
    case dnsFailure(String)
    /// Nothing listens on the port (ECONNREFUSED).
    case connectionRefused(String)
    /// The connection failed otherwise (unreachable network, reset, ...).
    case connectionFailed(String)
    /// The TLS handshake or certificate verification failed.
    case tlsFailure(String)
    /// The request's or the session's time limit passed.
    case timedOut(String)
    /// More redirects than the session allows, or a redirect to a URL that cannot be fetched.
    case redirectFailure(String)
    /// The content blocker blocked the request (detail: the URL).
    case blocked(String)
    /// The body exceeded the session's limit.
    case tooLarge(String)
    /// Anything else libcurl reports.
    case other(String)

    var code: UInt8 {
        switch self {
        case .invalidURL: 0
        case .dnsFailure: 1
        case .connectionRefused: 2
        case .connectionFailed: 3
        case .tlsFailure: 4
        case .timedOut: 5
        case .redirectFailure: 6
        case .blocked: 7
        case .tooLarge: 8
        case .other: 9
        }
    }

    public var detail: String {
        switch self {
        case .invalidURL(let s), .dnsFailure(let s), .connectionRefused(let s), .connectionFailed(let s),
             .tlsFailure(let s), .timedOut(let s), .redirectFailure(let s), .blocked(let s), .tooLarge(let s),
             .other(let s):
            return s
        }
    }

    /// What the host shows in place of the page.
    public var description: String {
        let what: String
        switch self {
        case .invalidURL: what = "Invalid URL"
        case .dnsFailure: what = "Server not found"
        case .connectionRefused: what = "Connection refused"
        case .connectionFailed: what = "Connection failed"
        case .tlsFailure: what = "Secure connection failed"
        case .timedOut: what = "Timed out"
        case .redirectFailure: what = "Redirect failed"
        case .blocked: what = "Blocked by the content blocker"
        case .tooLarge: what = "Response too large"
        case .other: what = "Network error"
        }
        return detail.isEmpty ? what : what + ": " + detail
    }

    init?(code: UInt8, detail: String) {
        switch code {
        case 0: self = .invalidURL(detail)
        case 1: self = .dnsFailure(detail)
        case 2: self = .connectionRefused(detail)
        case 3: self = .connectionFailed(detail)
        case 4: self = .tlsFailure(detail)
        case 5: self = .timedOut(detail)
        case 6: self = .redirectFailure(detail)
        case 7: self = .blocked(detail)
        case 8: self = .tooLarge(detail)
        case 9: self = .other(detail)
        default: return nil
        }
    }
}

public enum NetworkingMessage: Equatable, Sendable, MessageSet {
    case ping(UInt32)
    case pong(UInt32)
    case fetch(FetchRequest)
    case response(FetchResponse)
    case failure(id: UInt32, FetchError)

    /// The payload limit for what a client sends (requests carry at most an upload body).
    public static let maxRequestPayload = 16 << 20
    /// The payload limit for what the networking process sends (a response body).
    public static let maxResponsePayload = Frame.defaultMaxPayload
    /// The most header fields a request or response may carry.
    public static let maxHeaders = 256
    static let maxURLBytes = 1 << 20

    enum Kind: UInt16 {
        case ping = 1, pong, fetch, response, failure
    }

    public var frame: Frame {
        var w = ByteWriter()
        let kind: Kind
        switch self {
        case .ping(let n): kind = .ping; w.u32(n)
        case .pong(let n): kind = .pong; w.u32(n)
        case .fetch(let r):
            kind = .fetch
            w.u32(r.id)
            w.string(r.url)
            w.string(r.method)
            NetworkingMessage.write(r.headers, &w)
            w.blob(r.body)
            w.u8(r.resourceType.rawValue)
            w.u8(r.firstPartyURL == nil ? 0 : 1)
            w.string(r.firstPartyURL ?? "")
            w.u32(r.timeoutMilliseconds)
            w.u8(r.followRedirects ? 1 : 0)
        case .response(let r):
            kind = .response
            w.u32(r.id)
            w.string(r.url)
            w.u16(r.status)
            w.string(r.statusText)
            NetworkingMessage.write(r.headers, &w)
            w.blob(r.body)
            w.u16(r.redirectCount)
            w.string(r.contentBlockerStyleSheet)
        case .failure(let id, let error):
            kind = .failure
            w.u32(id)
            w.u8(error.code)
            w.string(error.detail)
        }
        return Frame(kind: kind.rawValue, payload: w.bytes)
    }

    static func write(_ headers: [HTTPHeader], _ w: inout ByteWriter) {
        w.u32(UInt32(headers.count))
        for h in headers {
            w.string(h.name)
            w.string(h.value)
        }
    }

    static func readHeaders(_ r: inout ByteReader) throws(IPCError) -> [HTTPHeader] {
        let n = Int(try r.u32())
        guard n <= maxHeaders else { throw .malformed("\(n) headers") }
        var headers: [HTTPHeader] = []
        for _ in 0..<n {
            let name = try r.string()
            let value = try r.string()
            let header = HTTPHeader(name, value)
            guard header.isValid else { throw .malformed("bad header") }
            headers.append(header)
        }
        return headers
    }

    /// An HTTP token (RFC 9110 §5.6.2): one or more tchar.
    static func isToken(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.allSatisfy { c in
            switch c {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return true
            default:
                return "!#$%&'*+-.^_`|~".utf8.contains(c)
            }
        }
    }

    static func readURL(_ r: inout ByteReader) throws(IPCError) -> String {
        let url = try r.string()
        guard url.utf8.count <= maxURLBytes else { throw .malformed("URL too long") }
        return url
    }

    public init(_ frame: Frame) throws(IPCError) {
        guard let kind = Kind(rawValue: frame.kind) else { throw .malformed("unknown networking message kind \(frame.kind)") }
        var r = ByteReader(frame.payload)
        switch kind {
        case .ping: self = .ping(try r.u32())
        case .pong: self = .pong(try r.u32())
        case .fetch:
            var req = FetchRequest(id: try r.u32(), url: try NetworkingMessage.readURL(&r))
            req.method = try r.string()
            guard NetworkingMessage.isToken(req.method), req.method.utf8.count <= 32 else { throw .malformed("bad method") }
            req.headers = try NetworkingMessage.readHeaders(&r)
            req.body = try r.blob()
            guard let type = ResourceType(rawValue: try r.u8()) else { throw .malformed("bad resource type") }
            req.resourceType = type
            let hasFirstParty = try r.u8()
            guard hasFirstParty <= 1 else { throw .malformed("bad first-party flag") }
            let firstParty = try NetworkingMessage.readURL(&r)
            req.firstPartyURL = hasFirstParty == 1 ? firstParty : nil
            req.timeoutMilliseconds = try r.u32()
            let follow = try r.u8()
            guard follow <= 1 else { throw .malformed("bad redirect flag") }
            req.followRedirects = follow == 1
            self = .fetch(req)
        case .response:
            let id = try r.u32()
            let url = try NetworkingMessage.readURL(&r)
            let status = try r.u16()
            let statusText = try r.string()
            let headers = try NetworkingMessage.readHeaders(&r)
            let body = try r.blob()
            let redirects = try r.u16()
            var response = FetchResponse(id: id, url: url, status: status, statusText: statusText, headers: headers,
                                         body: body, redirectCount: redirects)
            response.contentBlockerStyleSheet = try r.string()
            self = .response(response)
        case .failure:
            let id = try r.u32()
            let code = try r.u8()
            guard let error = FetchError(code: code, detail: try r.string()) else { throw .malformed("bad error code \(code)") }
            self = .failure(id: id, error)
        }
        try r.finish()
    }
}
