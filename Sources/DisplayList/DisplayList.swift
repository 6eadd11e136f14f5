// A display list: what a page looks like, as plain values the content process computes and
// the rendering process rasterizes. Coordinates are CSS pixels from the page's top left.
//
// Binary encoding (little-endian), versioned on its own (the IPC frame only carries bytes):
//   "SDL1" magic | u16 version | f32 width | f32 height | color background | u32 count | items
//   item: u8 tag (1 fill, 2 border, 3 text) then its fields
// Decoding validates everything: finite coordinates within bounds, known tags, UTF-8 text,
// bounded counts; anything else is `DisplayList.DecodeError`.

/// An sRGB color with alpha, 8 bits a channel.
public struct Color: Equatable, Hashable, Sendable {
    public var red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let white = Color(red: 255, green: 255, blue: 255)
    /// The default link color of the user-agent style sheet.
    public static let link = Color(red: 0, green: 0, blue: 238)
}

/// A rectangle in CSS pixels.
public struct Rect: Equatable, Sendable {
    public var x: Float, y: Float, width: Float, height: Float

    public init(x: Float, y: Float, width: Float, height: Float) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// A font as layout and rendering agree on it (the rendering process maps it to a Pango
/// font description).
public struct Font: Equatable, Hashable, Sendable {
    public enum Family: UInt8, Sendable, CaseIterable {
        case sansSerif = 0, serif, monospace
    }
    public var family: Family
    /// Pixels (CSS `font-size`).
    public var size: Float
    public var bold: Bool
    public var italic: Bool

    public init(family: Family = .serif, size: Float = 16, bold: Bool = false, italic: Bool = false) {
        self.family = family
        self.size = size
        self.bold = bold
        self.italic = italic
    }
}

/// One run of text on one line, drawn with its baseline at `baseline`.
public struct TextRun: Equatable, Sendable {
    public var x: Float
    public var baseline: Float
    public var text: String
    public var font: Font
    public var color: Color

    public init(x: Float, baseline: Float, text: String, font: Font, color: Color) {
        self.x = x
        self.baseline = baseline
        self.text = text
        self.font = font
        self.color = color
    }
}

/// One drawing command.
public enum DisplayItem: Equatable, Sendable {
    /// A filled rectangle (backgrounds, underlines, bullets).
    case fill(Rect, Color)
    /// A border drawn inside `rect`, with per-side widths (top, right, bottom, left).
    case border(Rect, widths: [Float], Color)
    case text(TextRun)
}

/// A whole page's drawing.
public struct DisplayList: Equatable, Sendable {
    /// The encoding's version (bumped with any layout change of the encoding).
    public static let version: UInt16 = 1
    /// Limits that a decoded list must respect.
    public static let maxItems = 1 << 20
    public static let maxCoordinate: Float = 16_777_216
    public static let maxTextBytes = 1 << 20

    /// The size of the drawing (the viewport's width; the document's height).
    public var width: Float
    public var height: Float
    public var background: Color
    public var items: [DisplayItem]

    public init(width: Float, height: Float, background: Color = .white, items: [DisplayItem] = []) {
        self.width = width
        self.height = height
        self.background = background
        self.items = items
    }

    public enum DecodeError: Error, Equatable, CustomStringConvertible {
        case malformed(String)
        public var description: String {
            switch self { case .malformed(let why): return "malformed display list: " + why }
        }
    }
}
