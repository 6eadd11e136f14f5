// The host and the networking process (the networking process's control connection).
//
//   host -> networking   newEndpoint(id, peer)     a connection for a client (a content process)
//   networking -> host   endpoint(id)              then the client's end, by SCM_RIGHTS
//                                                  (`Connection.sendDescriptor`)
//   networking -> host   peerMisbehaved(peer, why) a client's connection was closed for a bad message
//   host -> networking   shutdown                  the networking process exits 0
//
// The host passes the endpoint on to the content process in `bootstrap`; the content process
// then talks to the networking process directly with `NetworkingMessage`s.

public enum NetworkingControlMessage: Equatable, Sendable, MessageSet {
    /// `peer` names the client in logs and reports ("content 4121 (tab 3)").
    case newEndpoint(id: UInt32, peer: String)
    case endpoint(id: UInt32)
    case peerMisbehaved(peer: String, reason: String)
    case shutdown

    /// Control messages are small.
    public static let maxPayload = 64 << 10

    enum Kind: UInt16 {
        case newEndpoint = 1, endpoint, peerMisbehaved, shutdown
    }

    public var frame: Frame {
        var w = ByteWriter()
        let kind: Kind
        switch self {
        case .newEndpoint(let id, let peer): kind = .newEndpoint; w.u32(id); w.string(peer)
        case .endpoint(let id): kind = .endpoint; w.u32(id)
        case .peerMisbehaved(let peer, let reason): kind = .peerMisbehaved; w.string(peer); w.string(reason)
        case .shutdown: kind = .shutdown
        }
        return Frame(kind: kind.rawValue, payload: w.bytes)
    }

    public init(_ frame: Frame) throws(IPCError) {
        guard let kind = Kind(rawValue: frame.kind) else { throw .malformed("unknown networking control kind \(frame.kind)") }
        var r = ByteReader(frame.payload)
        switch kind {
        case .newEndpoint: self = .newEndpoint(id: try r.u32(), peer: try r.string())
        case .endpoint: self = .endpoint(id: try r.u32())
        case .peerMisbehaved: self = .peerMisbehaved(peer: try r.string(), reason: try r.string())
        case .shutdown: self = .shutdown
        }
        try r.finish()
    }
}
