// A web-content process and the rendering process (over the endpoint from `bootstrap`).
//
//   content -> rendering   ping(n)                          after bootstrap
//   rendering -> content   pong(n)
//   content -> rendering   measure(id, [TextMeasurement])   text widths for layout, in one batch
//   rendering -> content   measured(id, [TextMetrics])      one per measurement, in order
//   content -> rendering   render(frame, displayList)       an encoded `DisplayList`
//   rendering -> content   rendered(frame)                  the layer went to the host
//
// The locked content process opens no font file: the rendering process measures for it.

/// A piece of text in a font, as layout asks for it. The font is the display list's
/// (family 0-2, pixel size, bold/italic bits), kept as plain numbers here.
public struct TextMeasurement: Equatable, Hashable, Sendable {
    public var family: UInt8
    public var size: Float
    public var style: UInt8
    public var text: String

    public init(family: UInt8, size: Float, style: UInt8, text: String) {
        self.family = family
        self.size = size
        self.style = style
        self.text = text
    }
}

/// The advance width of a measured text and its font's ascent and descent (pixels).
public struct TextMetrics: Equatable, Sendable {
    public var width: Float
    public var ascent: Float
    public var descent: Float

    public init(width: Float, ascent: Float, descent: Float) {
        self.width = width
        self.ascent = ascent
        self.descent = descent
    }
}

public enum RenderingMessage: Equatable, Sendable, MessageSet {
    case ping(UInt32)
    case pong(UInt32)
    case measure(id: UInt32, [TextMeasurement])
    case measured(id: UInt32, [TextMetrics])
    case render(frame: UInt32, displayList: [UInt8])
    case rendered(frame: UInt32)

    /// A display list of a long page fits; anything bigger is refused.
    public static let maxPayload = 32 << 20
    /// The most texts one `measure` asks for.
    public static let maxMeasurements = 1 << 18

    enum Kind: UInt16 {
        case ping = 1, pong, measure, measured, render, rendered
    }

    public var frame: Frame {
        var w = ByteWriter()
        let kind: Kind
        switch self {
        case .ping(let n): kind = .ping; w.u32(n)
        case .pong(let n): kind = .pong; w.u32(n)
        case .measure(let id, let items):
            kind = .measure
            w.u32(id)
            w.u32(UInt32(items.count))
            for m in items { w.u8(m.family); w.u32(m.size.bitPattern); w.u8(m.style); w.string(m.text) }
        case .measured(let id, let items):
            kind = .measured
            w.u32(id)
            w.u32(UInt32(items.count))
            for m in items { w.u32(m.width.bitPattern); w.u32(m.ascent.bitPattern); w.u32(m.descent.bitPattern) }
        case .render(let frame, let list): kind = .render; w.u32(frame); w.blob(list)
        case .rendered(let frame): kind = .rendered; w.u32(frame)
        }
        return Frame(kind: kind.rawValue, payload: w.bytes)
    }

    static func float(_ r: inout ByteReader, max: Float) throws(IPCError) -> Float {
        let v = Float(bitPattern: try r.u32())
        guard v.isFinite, v >= 0, v <= max else { throw .malformed("number out of range") }
        return v
    }

    public init(_ frame: Frame) throws(IPCError) {
        guard let kind = Kind(rawValue: frame.kind) else { throw .malformed("unknown rendering message kind \(frame.kind)") }
        var r = ByteReader(frame.payload)
        switch kind {
        case .ping: self = .ping(try r.u32())
        case .pong: self = .pong(try r.u32())
        case .measure:
            let id = try r.u32()
            let n = Int(try r.u32())
            guard n <= RenderingMessage.maxMeasurements else { throw .malformed("\(n) measurements") }
            var items: [TextMeasurement] = []
            for _ in 0..<n {
                let family = try r.u8()
                let size = try RenderingMessage.float(&r, max: 1000)
                let style = try r.u8()
                guard family <= 2, style <= 3, size > 0 else { throw .malformed("bad font") }
                items.append(TextMeasurement(family: family, size: size, style: style, text: try r.string()))
            }
            self = .measure(id: id, items)
        case .measured:
            let id = try r.u32()
            let n = Int(try r.u32())
            guard n <= RenderingMessage.maxMeasurements else { throw .malformed("\(n) metrics") }
            var items: [TextMetrics] = []
            for _ in 0..<n {
                items.append(TextMetrics(width: try RenderingMessage.float(&r, max: 16_777_216),
                                         ascent: try RenderingMessage.float(&r, max: 65_536),
                                         descent: try RenderingMessage.float(&r, max: 65_536)))
            }
            self = .measured(id: id, items)
        case .render: self = .render(frame: try r.u32(), displayList: try r.blob())
        case .rendered: self = .rendered(frame: try r.u32())
        }
        try r.finish()
    }
}
