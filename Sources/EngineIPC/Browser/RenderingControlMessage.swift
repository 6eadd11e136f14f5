// The host and the rendering process (the rendering process's control connection).
//
//   host -> rendering   newEndpoint(id, peer)     a connection for tab `id`'s content process
//   rendering -> host   endpoint(id)              then the client's end, by SCM_RIGHTS
//   rendering -> host   layer(Layer)              then the layer's memfd, by SCM_RIGHTS: a new
//                                                 frame of tab `id` (BGRA premultiplied, stride bytes a row)
//   host -> rendering   render(id, frame, list)   the host's own pages (errors, a crashed tab):
//                                                 an encoded display list, answered with `layer`
//   rendering -> host   peerMisbehaved(peer, why) a client's connection was closed for a bad message
//   host -> rendering   shutdown                  the rendering process exits 0

/// A rasterized frame of a tab, in a memfd that follows the message.
public struct LayerInfo: Equatable, Sendable {
    public var id: UInt32
    public var frame: UInt32
    public var width: UInt32
    public var height: UInt32
    public var stride: UInt32

    public init(id: UInt32, frame: UInt32, width: UInt32, height: UInt32, stride: UInt32) {
        self.id = id
        self.frame = frame
        self.width = width
        self.height = height
        self.stride = stride
    }

    /// Layers are at most 16384 pixels a side and 1 GiB.
    public var isValid: Bool {
        width >= 1 && height >= 1 && width <= 16384 && height <= 16384 && stride >= width * 4
            && UInt64(stride) * UInt64(height) <= 1 << 30
    }
}

public enum RenderingControlMessage: Equatable, Sendable, MessageSet {
    case newEndpoint(id: UInt32, peer: String)
    case endpoint(id: UInt32)
    case layer(LayerInfo)
    case render(id: UInt32, frame: UInt32, displayList: [UInt8])
    case peerMisbehaved(peer: String, reason: String)
    case shutdown

    /// Control messages carry at most a host page's display list.
    public static let maxPayload = 16 << 20

    enum Kind: UInt16 {
        case newEndpoint = 1, endpoint, layer, render, peerMisbehaved, shutdown
    }

    public var frame: Frame {
        var w = ByteWriter()
        let kind: Kind
        switch self {
        case .newEndpoint(let id, let peer): kind = .newEndpoint; w.u32(id); w.string(peer)
        case .endpoint(let id): kind = .endpoint; w.u32(id)
        case .layer(let l): kind = .layer; w.u32(l.id); w.u32(l.frame); w.u32(l.width); w.u32(l.height); w.u32(l.stride)
        case .render(let id, let frame, let list): kind = .render; w.u32(id); w.u32(frame); w.blob(list)
        case .peerMisbehaved(let peer, let reason): kind = .peerMisbehaved; w.string(peer); w.string(reason)
        case .shutdown: kind = .shutdown
        }
        return Frame(kind: kind.rawValue, payload: w.bytes)
    }

    public init(_ frame: Frame) throws(IPCError) {
        guard let kind = Kind(rawValue: frame.kind) else { throw .malformed("unknown rendering control kind \(frame.kind)") }
        var r = ByteReader(frame.payload)
        switch kind {
        case .newEndpoint: self = .newEndpoint(id: try r.u32(), peer: try r.string())
        case .endpoint: self = .endpoint(id: try r.u32())
        case .layer:
            let l = LayerInfo(id: try r.u32(), frame: try r.u32(), width: try r.u32(), height: try r.u32(), stride: try r.u32())
            guard l.isValid else { throw .malformed("bad layer geometry") }
            self = .layer(l)
        case .render: self = .render(id: try r.u32(), frame: try r.u32(), displayList: try r.blob())
        case .peerMisbehaved: self = .peerMisbehaved(peer: try r.string(), reason: try r.string())
        case .shutdown: self = .shutdown
        }
        try r.finish()
    }
}
