/// The Fetch Standard's `data:` URL processor (https://fetch.spec.whatwg.org/#data-url-processor):
/// a `data:` URL's MIME type and body, without any network.
public struct DataURL: Equatable, Sendable {
    /// The MIME type as written, whitespace-trimmed, with `;base64` removed
    /// ("text/plain;charset=US-ASCII" when none is given). Not parsed further.
    public var mimeType: String
    public var body: [UInt8]

    /// Processes a `data:` URL; nil when it is not one or its base64 body does not decode.
    public init?(_ url: WebURL) {
        // 1. Assert: dataURL's scheme is "data".
        guard url.scheme == "data" else { return nil }
        // 2-3. input = the URL serialized without its fragment, "data:" removed.
        let input = Array(url.serialized(excludeFragment: true).utf8.dropFirst(5))
        // 4-7. mimeType = the code points up to the first ","; failure without one.
        guard let comma = input.firstIndex(of: UInt8(ascii: ",")) else { return nil }
        var mime = Array(input[..<comma])
        DataURL.trimASCIIWhitespace(&mime)
        // 8-10. body = the percent-decoding of the rest.
        var body = percentDecode(input[(comma + 1)...])
        // 11. ";" then spaces then "base64" (any case) at the end: forgiving-base64 decode.
        if let base64Start = DataURL.base64Suffix(mime) {
            guard let decoded = DataURL.forgivingBase64Decode(body) else { return nil }
            body = decoded
            mime.removeSubrange(base64Start...)
        }
        // 12. A MIME type that starts with ";" is text/plain's parameters.
        if mime.first == UInt8(ascii: ";") { mime.insert(contentsOf: Array("text/plain".utf8), at: 0) }
        // 14. None (or no "/" in its essence): text/plain;charset=US-ASCII.
        let essence = mime.prefix { $0 != UInt8(ascii: ";") }
        mimeType = essence.contains(UInt8(ascii: "/")) ? String(decoding: mime, as: UTF8.self)
                                                       : "text/plain;charset=US-ASCII"
        self.body = body
    }

    static func isASCIIWhitespace(_ b: UInt8) -> Bool { b == 0x09 || b == 0x0A || b == 0x0C || b == 0x0D || b == 0x20 }

    static func trimASCIIWhitespace(_ a: inout [UInt8]) {
        while let l = a.last, isASCIIWhitespace(l) { a.removeLast() }
        while let f = a.first, isASCIIWhitespace(f) { a.removeFirst() }
    }

    /// Where ";" [spaces] "base64" starts when the MIME type ends with it.
    static func base64Suffix(_ mime: [UInt8]) -> Int? {
        guard mime.count >= 7 else { return nil }
        let tail = mime.suffix(6).map { $0 | 0x20 }
        guard tail == Array("base64".utf8) else { return nil }
        var i = mime.count - 7
        while i >= 0 && mime[i] == 0x20 { i -= 1 }
        return i >= 0 && mime[i] == UInt8(ascii: ";") ? i : nil
    }

    /// https://infra.spec.whatwg.org/#forgiving-base64-decode
    public static func forgivingBase64Decode(_ input: [UInt8]) -> [UInt8]? {
        var data = input.filter { !isASCIIWhitespace($0) }
        if data.count % 4 == 0 {
            if data.last == UInt8(ascii: "=") { data.removeLast() }
            if data.last == UInt8(ascii: "=") { data.removeLast() }
        }
        if data.count % 4 == 1 { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(data.count * 3 / 4)
        var buffer: UInt32 = 0, bits = 0
        for c in data {
            let v: UInt32
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = UInt32(c - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): v = UInt32(c - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = UInt32(c - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"): v = 62
            case UInt8(ascii: "/"): v = 63
            default: return nil
            }
            buffer = buffer << 6 | v
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        return out
    }
}
