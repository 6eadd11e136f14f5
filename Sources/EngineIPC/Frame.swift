// Framed messages over a stream socket.
//
// Wire format (little-endian):
//   u32 payload length | u16 protocol version | u16 message kind | payload
// A frame whose version differs, whose kind is unknown to the receiver, whose length
// exceeds the connection's limit, or whose payload does not decode is malformed: the
// receiver closes the connection; it never traps on peer input.

/// One message on the wire: a kind and its encoded payload.
public struct Frame: Equatable, Sendable {
    /// Bumped whenever any message layout changes.
    public static let protocolVersion: UInt16 = 1
    /// Header bytes before the payload.
    public static let headerSize = 8
    /// The default payload limit (a script, or a result with captured output).
    public static let defaultMaxPayload = 64 << 20

    public var kind: UInt16
    public var payload: [UInt8]

    public init(kind: UInt16, payload: [UInt8]) {
        self.kind = kind
        self.payload = payload
    }

    /// The header and payload as bytes.
    public func encoded(version: UInt16 = Frame.protocolVersion) -> [UInt8] {
        var w = ByteWriter()
        w.u32(UInt32(payload.count))
        w.u16(version)
        w.u16(kind)
        w.bytes.append(contentsOf: payload)
        return w.bytes
    }
}

/// Why a connection stopped.
public enum IPCError: Error, Equatable, Sendable {
    /// The peer closed its end (end of file between frames).
    case closed
    /// The bytes on the wire are not a valid frame or message.
    case malformed(String)
    /// A frame announced more payload than the connection accepts.
    case oversized(Int)
    /// A frame of another protocol version.
    case versionMismatch(UInt16)
    /// The deadline passed before a whole frame arrived.
    case timedOut
    /// The watched descriptor (a signal self-pipe) became readable.
    case interrupted
    /// A system call failed with this errno.
    case system(Int32)
}
