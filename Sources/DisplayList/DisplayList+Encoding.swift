// The display list's binary encoding (see DisplayList.swift for the layout).

extension DisplayList {
    static let magic: [UInt8] = Array("SDL1".utf8)

    enum Tag: UInt8 {
        case fill = 1, border, text
    }

    /// The list as bytes.
    public func encoded() -> [UInt8] {
        var w = Writer()
        w.bytes.append(contentsOf: DisplayList.magic)
        w.u16(DisplayList.version)
        w.f32(width)
        w.f32(height)
        w.color(background)
        w.u32(UInt32(items.count))
        for item in items {
            switch item {
            case .fill(let r, let c):
                w.u8(Tag.fill.rawValue); w.rect(r); w.color(c)
            case .border(let r, let widths, let c):
                w.u8(Tag.border.rawValue); w.rect(r)
                for i in 0..<4 { w.f32(i < widths.count ? widths[i] : 0) }
                w.color(c)
            case .text(let run):
                w.u8(Tag.text.rawValue); w.f32(run.x); w.f32(run.baseline)
                w.font(run.font); w.color(run.color); w.string(run.text)
            }
        }
        return w.bytes
    }

    /// Decodes and validates what `encoded()` wrote.
    public init(decoding bytes: [UInt8]) throws(DecodeError) {
        var r = Reader(bytes: bytes)
        guard try r.take(4) == DisplayList.magic[...] else { throw .malformed("bad magic") }
        let version = try r.u16()
        guard version == DisplayList.version else { throw .malformed("version \(version)") }
        let width = try r.coordinate(), height = try r.coordinate()
        guard width >= 0, height >= 0 else { throw .malformed("negative size") }
        let background = try r.color()
        let count = Int(try r.u32())
        guard count <= DisplayList.maxItems else { throw .malformed("\(count) items") }
        var items: [DisplayItem] = []
        items.reserveCapacity(min(count, bytes.count / 8))
        for _ in 0..<count {
            guard let tag = Tag(rawValue: try r.u8()) else { throw .malformed("unknown item tag") }
            switch tag {
            case .fill:
                items.append(.fill(try r.rect(), try r.color()))
            case .border:
                let rect = try r.rect()
                var widths: [Float] = []
                for _ in 0..<4 {
                    let w = try r.coordinate()
                    guard w >= 0 else { throw .malformed("negative border width") }
                    widths.append(w)
                }
                items.append(.border(rect, widths: widths, try r.color()))
            case .text:
                let x = try r.coordinate(), baseline = try r.coordinate()
                let font = try r.font(), color = try r.color()
                let text = try r.string()
                items.append(.text(TextRun(x: x, baseline: baseline, text: text, font: font, color: color)))
            }
        }
        guard r.offset == bytes.count else { throw .malformed("trailing bytes") }
        self.init(width: width, height: height, background: background, items: items)
    }
}

struct Writer {
    var bytes: [UInt8] = []
    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u16(_ v: UInt16) { bytes.append(UInt8(v & 0xFF)); bytes.append(UInt8(v >> 8)) }
    mutating func u32(_ v: UInt32) { for i in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(i)))) } }
    mutating func f32(_ v: Float) { u32(v.bitPattern) }
    mutating func color(_ c: Color) { bytes += [c.red, c.green, c.blue, c.alpha] }
    mutating func rect(_ r: Rect) { f32(r.x); f32(r.y); f32(r.width); f32(r.height) }
    mutating func font(_ f: Font) { u8(f.family.rawValue); f32(f.size); u8((f.bold ? 1 : 0) | (f.italic ? 2 : 0)) }
    mutating func string(_ s: String) { u32(UInt32(s.utf8.count)); bytes.append(contentsOf: s.utf8) }
}

struct Reader {
    let bytes: [UInt8]
    var offset = 0

    mutating func take(_ n: Int) throws(DisplayList.DecodeError) -> ArraySlice<UInt8> {
        guard n >= 0, bytes.count - offset >= n else { throw .malformed("truncated") }
        defer { offset += n }
        return bytes[offset..<offset + n]
    }
    mutating func u8() throws(DisplayList.DecodeError) -> UInt8 { try take(1).first! }
    mutating func u16() throws(DisplayList.DecodeError) -> UInt16 {
        let b = try take(2)
        return UInt16(b[b.startIndex]) | UInt16(b[b.startIndex + 1]) << 8
    }
    mutating func u32() throws(DisplayList.DecodeError) -> UInt32 {
        var v: UInt32 = 0
        for (i, b) in try take(4).enumerated() { v |= UInt32(b) << (8 * UInt32(i)) }
        return v
    }
    /// A finite float within ±`DisplayList.maxCoordinate`.
    mutating func coordinate() throws(DisplayList.DecodeError) -> Float {
        let v = Float(bitPattern: try u32())
        guard v.isFinite, abs(v) <= DisplayList.maxCoordinate else { throw .malformed("coordinate out of range") }
        return v
    }
    mutating func color() throws(DisplayList.DecodeError) -> Color {
        let b = try take(4)
        return Color(red: b[b.startIndex], green: b[b.startIndex + 1], blue: b[b.startIndex + 2], alpha: b[b.startIndex + 3])
    }
    mutating func rect() throws(DisplayList.DecodeError) -> Rect {
        let r = Rect(x: try coordinate(), y: try coordinate(), width: try coordinate(), height: try coordinate())
        guard r.width >= 0, r.height >= 0 else { throw .malformed("negative rectangle") }
        return r
    }
    mutating func font() throws(DisplayList.DecodeError) -> Font {
        guard let family = Font.Family(rawValue: try u8()) else { throw .malformed("unknown font family") }
        let size = try coordinate()
        guard size > 0, size <= 1000 else { throw .malformed("font size \(size)") }
        let style = try u8()
        guard style <= 3 else { throw .malformed("bad font style") }
        return Font(family: family, size: size, bold: style & 1 != 0, italic: style & 2 != 0)
    }
    mutating func string() throws(DisplayList.DecodeError) -> String {
        let n = Int(try u32())
        guard n <= DisplayList.maxTextBytes else { throw .malformed("text of \(n) bytes") }
        guard let s = String(validating: try take(n), as: UTF8.self) else { throw .malformed("invalid UTF-8") }
        return s
    }
}
