/// The parts of a URL that content blocking needs, parsed and serialized the way WebKit's
/// `URL` does for ordinary http(s)/ws(s) URLs: scheme and host lowercased, default port
/// dropped, an empty path of a special scheme written as "/", non-ASCII and spaces in path,
/// query and fragment percent-encoded. The rules' url-filters run over `string`.
///
/// Not a full WHATWG URL parser (no IDNA, no IPv6 normalization, no dot-segment removal);
/// the browser's `WebURL` target will provide that and can hand its serialization in.
public struct RequestURL: Sendable, Equatable {
    public var scheme: String
    public var username: String = ""
    public var password: String = ""
    public var host: String = ""
    public var port: String?
    public var path: String = ""
    public var query: String?
    public var fragment: String?
    var hasAuthority = false

    static let specialSchemes: Set<String> = ["http", "https", "ws", "wss", "ftp", "file"]

    public static func defaultPort(_ scheme: String) -> String? {
        switch scheme {
        case "http", "ws": return "80"
        case "https", "wss": return "443"
        case "ftp": return "21"
        default: return nil
        }
    }

    static func isValidScheme(_ s: String) -> Bool {
        guard let first = s.utf8.first, isAlpha(first) else { return false }
        return s.utf8.allSatisfy { isAlpha($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E }
    }

    @inline(__always) static func isAlpha(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }

    /// Parses an absolute URL; nil when it is not one.
    public init?(_ text: String) {
        var bytes = Array(text.utf8)
        // Leading and trailing C0 controls and spaces are stripped; tabs and newlines removed.
        while let f = bytes.first, f <= 0x20 { bytes.removeFirst() }
        while let l = bytes.last, l <= 0x20 { bytes.removeLast() }
        bytes.removeAll { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard let colon = bytes.firstIndex(of: 0x3A), colon > 0 else { return nil }
        let schemeText = asciiLowercased(String(decoding: bytes[..<colon], as: UTF8.self))
        guard RequestURL.isValidScheme(schemeText) else { return nil }
        scheme = schemeText
        var rest = Array(bytes[(colon + 1)...])
        for i in rest.indices where rest[i] == 0x5C && RequestURL.specialSchemes.contains(scheme) { rest[i] = 0x2F }
        // Fragment and query.
        if let hash = rest.firstIndex(of: 0x23) {
            fragment = RequestURL.encode(rest[(hash + 1)...])
            rest = Array(rest[..<hash])
        }
        if let q = rest.firstIndex(of: 0x3F) {
            query = RequestURL.encode(rest[(q + 1)...])
            rest = Array(rest[..<q])
        }
        let special = RequestURL.specialSchemes.contains(scheme)
        if rest.starts(with: [0x2F, 0x2F]) || (special && scheme != "file") {
            var i = 0
            // Special schemes other than file take any number of slashes; others exactly two.
            if special && scheme != "file" { while i < rest.count, rest[i] == 0x2F { i += 1 } } else { i = min(2, rest.count) }
            let authorityEnd = rest[i...].firstIndex(of: 0x2F) ?? rest.count
            var authority = Array(rest[i..<authorityEnd])
            path = RequestURL.encode(rest[authorityEnd...])
            if let at = authority.lastIndex(of: 0x40) {
                let userinfo = authority[..<at]
                if let c = userinfo.firstIndex(of: 0x3A) {
                    username = RequestURL.encode(userinfo[..<c])
                    password = RequestURL.encode(userinfo[(c + 1)...])
                } else { username = RequestURL.encode(userinfo) }
                authority = Array(authority[(at + 1)...])
            }
            var hostBytes = authority[...]
            if let c = authority.lastIndex(of: 0x3A), !authority[c...].contains(0x5D) {
                let portBytes = authority[(c + 1)...]
                guard portBytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
                hostBytes = authority[..<c]
                if !portBytes.isEmpty {
                    guard portBytes.count <= 5, let n = Int(String(decoding: portBytes, as: UTF8.self)), n <= 65535 else { return nil }
                    let p = String(n)
                    port = p == RequestURL.defaultPort(scheme) ? nil : p
                }
            }
            for c in hostBytes {
                // Forbidden host code points (WHATWG URL), and no IDNA: non-ASCII is refused.
                if c >= 0x80 || c <= 0x20 || c == 0x23 || c == 0x25 || c == 0x2F || c == 0x3C || c == 0x3E
                    || c == 0x3F || c == 0x40 || c == 0x5C || c == 0x5E || c == 0x7C { return nil }
            }
            host = asciiLowercased(String(decoding: hostBytes, as: UTF8.self))
            if host.isEmpty && special && scheme != "file" { return nil }
            hasAuthority = true
            if path.isEmpty && special { path = "/" }
        } else {
            path = RequestURL.encode(rest[...])
        }
    }

    static func encode(_ bytes: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        let hex: [UInt8] = Array("0123456789ABCDEF".utf8)
        for c in bytes {
            if c <= 0x20 || c >= 0x7F || c == 0x22 || c == 0x3C || c == 0x3E || c == 0x60 {
                out.append(0x25); out.append(hex[Int(c >> 4)]); out.append(hex[Int(c & 15)])
            } else { out.append(c) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The serialized URL.
    public var string: String {
        var s = scheme + ":"
        if hasAuthority {
            s += "//"
            if !username.isEmpty || !password.isEmpty {
                s += username
                if !password.isEmpty { s += ":" + password }
                s += "@"
            }
            s += host
            if let port { s += ":" + port }
        }
        s += path
        if let query { s += "?" + query }
        if let fragment { s += "#" + fragment }
        return s
    }
}
