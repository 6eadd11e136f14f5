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
            // WHATWG: a special URL's host that ends in a number is an IPv4 address.
            if special, RequestURL.endsInANumber(Array(host.utf8)) {
                guard let address = RequestURL.parseIPv4(Array(host.utf8)) else { return nil }
                host = address
            }
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

    // MARK: - IPv4 hosts (WHATWG URL, "ends in a number" and the IPv4 parser)

    static func labels(_ host: [UInt8]) -> [ArraySlice<UInt8>] {
        var parts = host.split(separator: 0x2E, omittingEmptySubsequences: false)
        if parts.count > 1, parts.last?.isEmpty == true { parts.removeLast() }
        return parts
    }

    static func endsInANumber(_ host: [UInt8]) -> Bool {
        guard let last = labels(host).last, !last.isEmpty else { return false }
        if last.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { return true }
        return ipv4Number(last) != nil
    }

    /// A part: decimal, octal after "0", hexadecimal after "0x"; nil when it is not a number.
    static func ipv4Number(_ part: ArraySlice<UInt8>) -> UInt64? {
        var digits = part
        var radix: UInt64 = 10
        if digits.count >= 2, digits.first == 0x30, digits.dropFirst().first.map({ $0 | 0x20 }) == 0x78 {
            digits = digits.dropFirst(2); radix = 16
        } else if digits.count >= 2, digits.first == 0x30 {
            digits = digits.dropFirst(); radix = 8
        }
        var value: UInt64 = 0
        for c in digits {
            let d: UInt64
            switch c {
            case 0x30...0x39: d = UInt64(c - 0x30)
            case 0x61...0x66, 0x41...0x46: d = UInt64((c | 0x20) - 0x61 + 10)
            default: return nil
            }
            guard d < radix else { return nil }
            value = value * radix + d
            if value > 0xFFFF_FFFF_FF { return nil }
        }
        return value
    }

    /// The dotted-decimal address, or nil (an invalid URL).
    static func parseIPv4(_ host: [UInt8]) -> String? {
        let parts = labels(host)
        guard !parts.isEmpty, parts.count <= 4 else { return nil }
        var numbers: [UInt64] = []
        for p in parts {
            guard !p.isEmpty, let n = ipv4Number(p) else { return nil }
            numbers.append(n)
        }
        for n in numbers.dropLast() where n > 255 { return nil }
        guard numbers.last! < (UInt64(1) << (8 * UInt64(5 - numbers.count))) else { return nil }
        var address = numbers.last!
        for (i, n) in numbers.dropLast().enumerated() { address += n << (8 * UInt64(3 - i)) }
        return "\(address >> 24).\((address >> 16) & 255).\((address >> 8) & 255).\(address & 255)"
    }

    // MARK: - Canonical bytes without a String

    /// Where a canonicalized URL was written: its length, the host's range, and whether it is
    /// a data: URL (which WebKit decides nothing for).
    public struct Canonical: Sendable {
        public var length: Int
        public var hostStart: Int
        public var hostEnd: Int
        public var isData: Bool
    }

    /// 1 for the bytes the fast path leaves to `RequestURL` (controls, space, non-ASCII, `"`,
    /// `<`, `>`, backquote, backslash).
    static let needsEncoding: [UInt8] = (0..<256).map { c in
        c <= 0x20 || c >= 0x7F || c == 0x22 || c == 0x3C || c == 0x3E || c == 0x60 || c == 0x5C ? 1 : 0
    }

    /// The byte a host character of the fast path becomes (letters lowercased, digits, "-",
    /// ".", "_"), 0 for any other byte.
    static let hostByte: [UInt8] = (0..<256).map { (c: Int) -> UInt8 in
        let b = UInt8(c)
        let l = b | 0x20
        if l >= 0x61 && l <= 0x7A { return l }
        return (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x2E || b == 0x5F ? b : 0
    }

    @inline(__always) static func lower(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c | 0x20 : c }

    /// Writes `string`'s bytes for the common URL that is already canonical but for the case of
    /// its scheme and host: http(s) or ws(s), exactly "//", a host of letters, digits, "-",
    /// "." and "_", no user info, no port, printable ASCII that needs no percent-encoding.
    /// Nil for anything else (then `canonicalizeSlowly`), so the two agree byte for byte.
    @inline(__always)
    public static func canonicalize(_ s: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>) -> Canonical? {
        let n = s.count
        guard n + 1 <= out.count, n >= 6 else { return nil }
        // The scheme: http, https, ws or wss, in any case.
        var i = 0
        while i < 6 && i < n && s[i] != 0x3A { out[i] = lower(s[i]); i += 1 }
        guard i < n, s[i] == 0x3A else { return nil }
        switch i {
        case 2: guard out[0] == 0x77, out[1] == 0x73 else { return nil }  // ws
        case 3: guard out[0] == 0x77, out[1] == 0x73, out[2] == 0x73 else { return nil }  // wss
        case 4: guard out[0] == 0x68, out[1] == 0x74, out[2] == 0x74, out[3] == 0x70 else { return nil }  // http
        case 5: guard out[0] == 0x68, out[1] == 0x74, out[2] == 0x74, out[3] == 0x70, out[4] == 0x73 else { return nil }
        default: return nil
        }
        guard i + 3 < n, s[i + 1] == 0x2F, s[i + 2] == 0x2F, s[i + 3] != 0x2F, s[i + 3] != 0x5C else { return nil }
        out[i] = 0x3A; out[i + 1] = 0x2F; out[i + 2] = 0x2F
        let hostStart = i + 3
        var j = hostStart
        let hostByte = RequestURL.hostByte
        while j < n {
            let c = s[j]
            let h = hostByte[Int(c)]
            if h == 0 {
                if c == 0x2F || c == 0x3F || c == 0x23 { break }
                return nil
            }
            out[j] = h
            j &+= 1
        }
        let hostEnd = j
        guard hostEnd > hostStart else { return nil }
        // A host whose last label begins with a digit may be an IPv4 address: the parser.
        var last = hostEnd - 1
        if out[last] == 0x2E && last > hostStart { last -= 1 }
        while last > hostStart && out[last - 1] != 0x2E { last -= 1 }
        if out[last] >= 0x30 && out[last] <= 0x39 { return nil }
        var o = j
        // An empty path is "/".
        if j == n || s[j] != 0x2F { out[o] = 0x2F; o += 1 }
        // The rest as it is, when no byte needs percent-encoding (or is a backslash).
        let rest = n - j
        guard o + rest <= out.count else { return nil }
        var bad: UInt8 = 0
        s.baseAddress.map { from in
            // Copied and checked in one pass (no call to memmove for a few dozen bytes).
            let to = out.baseAddress! + (o &- j)
            RequestURL.needsEncoding.withUnsafeBufferPointer { table in
                for k in j..<n {
                    let c = from[k]
                    to[k] = c
                    bad |= table[Int(c)]
                }
            }
        }
        guard bad == 0 else { return nil }
        return Canonical(length: o + rest, hostStart: hostStart, hostEnd: hostEnd, isData: false)
    }

    /// Any URL, through the parser: its serialization and host range; nil when it does not
    /// parse.
    public static func canonicalizeSlowly(_ text: String) -> (string: String, canonical: Canonical)? {
        guard let url = RequestURL(text) else { return nil }
        let string = url.string
        var hostStart = 0, hostEnd = 0
        if url.hasAuthority {
            hostStart = url.scheme.utf8.count + 3
            if !url.username.isEmpty || !url.password.isEmpty {
                hostStart += url.username.utf8.count + (url.password.isEmpty ? 0 : 1 + url.password.utf8.count) + 1
            }
            hostEnd = hostStart + url.host.utf8.count
        }
        return (string, Canonical(length: string.utf8.count, hostStart: hostStart, hostEnd: hostEnd, isData: url.scheme == "data"))
    }
}
