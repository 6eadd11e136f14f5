// Bounds-checked little-endian encoding for message payloads.

/// Appends little-endian integers and length-prefixed strings.
public struct ByteWriter: Sendable {
    public var bytes: [UInt8] = []

    public init() {}

    public mutating func u8(_ v: UInt8) { bytes.append(v) }
    public mutating func u16(_ v: UInt16) { for i in 0..<2 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * i))) } }
    public mutating func u32(_ v: UInt32) { for i in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * i))) } }
    public mutating func u64(_ v: UInt64) { for i in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * i))) } }
    public mutating func i32(_ v: Int32) { u32(UInt32(bitPattern: v)) }
    public mutating func i64(_ v: Int64) { u64(UInt64(bitPattern: v)) }
    /// u32 byte count, then UTF-8.
    public mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { b in
            u32(UInt32(b.count))
            bytes.append(contentsOf: b)
        }
    }
    /// u32 byte count, then the bytes.
    public mutating func blob(_ b: [UInt8]) {
        u32(UInt32(b.count))
        bytes.append(contentsOf: b)
    }
}

/// Reads what `ByteWriter` wrote; every read checks the remaining length and throws
/// `IPCError.malformed` instead of trapping.
public struct ByteReader {
    let bytes: [UInt8]
    var offset = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public var isAtEnd: Bool { offset == bytes.count }
    /// Bytes not read yet.
    public var remaining: Int { bytes.count - offset }

    mutating func take(_ n: Int) throws(IPCError) -> ArraySlice<UInt8> {
        guard n >= 0, bytes.count - offset >= n else { throw .malformed("truncated payload") }
        defer { offset += n }
        return bytes[offset..<offset + n]
    }

    mutating func little(_ n: Int) throws(IPCError) -> UInt64 {
        var v: UInt64 = 0
        for (i, b) in try take(n).enumerated() { v |= UInt64(b) << (8 * UInt64(i)) }
        return v
    }

    public mutating func u8() throws(IPCError) -> UInt8 { UInt8(try little(1)) }
    public mutating func u16() throws(IPCError) -> UInt16 { UInt16(try little(2)) }
    public mutating func u32() throws(IPCError) -> UInt32 { UInt32(try little(4)) }
    public mutating func u64() throws(IPCError) -> UInt64 { try little(8) }
    public mutating func i32() throws(IPCError) -> Int32 { Int32(bitPattern: try u32()) }
    public mutating func i64() throws(IPCError) -> Int64 { Int64(bitPattern: try u64()) }

    /// A u32-prefixed string that must be valid UTF-8.
    public mutating func string() throws(IPCError) -> String {
        let n = Int(try u32())
        let slice = try take(n)
        guard let s = String(validating: slice, as: UTF8.self) else { throw .malformed("invalid UTF-8") }
        return s
    }

    /// A u32-prefixed run of bytes.
    public mutating func blob() throws(IPCError) -> [UInt8] {
        Array(try take(Int(try u32())))
    }

    /// Throws unless every byte was consumed (trailing garbage is malformed too).
    public func finish() throws(IPCError) {
        if !isAtEnd { throw .malformed("\(bytes.count - offset) trailing bytes") }
    }
}
