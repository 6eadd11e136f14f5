import DisplayList

/// CSS colors: `#rgb`, `#rrggbb`, `rgb(r, g, b)` and the basic named colors.
enum CSSColor {
    static let named: [String: Color] = [
        "black": Color(red: 0, green: 0, blue: 0), "white": Color(red: 255, green: 255, blue: 255),
        "red": Color(red: 255, green: 0, blue: 0), "green": Color(red: 0, green: 128, blue: 0),
        "blue": Color(red: 0, green: 0, blue: 255), "yellow": Color(red: 255, green: 255, blue: 0),
        "gray": Color(red: 128, green: 128, blue: 128), "grey": Color(red: 128, green: 128, blue: 128),
        "silver": Color(red: 192, green: 192, blue: 192), "maroon": Color(red: 128, green: 0, blue: 0),
        "purple": Color(red: 128, green: 0, blue: 128), "navy": Color(red: 0, green: 0, blue: 128),
        "teal": Color(red: 0, green: 128, blue: 128), "orange": Color(red: 255, green: 165, blue: 0),
        "lime": Color(red: 0, green: 255, blue: 0), "aqua": Color(red: 0, green: 255, blue: 255),
        "fuchsia": Color(red: 255, green: 0, blue: 255), "olive": Color(red: 128, green: 128, blue: 0),
    ]

    static func parse(_ raw: String) -> Color? {
        let text = raw.trimmed().lowercased()
        if let c = named[text] { return c }
        if text.hasPrefix("#") {
            let hex = Array(text.utf8.dropFirst())
            func digit(_ c: UInt8) -> UInt8? {
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
                default: return nil
                }
            }
            let ds = hex.compactMap(digit)
            guard ds.count == hex.count else { return nil }
            if ds.count == 3 { return Color(red: ds[0] * 17, green: ds[1] * 17, blue: ds[2] * 17) }
            if ds.count == 6 { return Color(red: ds[0] * 16 + ds[1], green: ds[2] * 16 + ds[3], blue: ds[4] * 16 + ds[5]) }
            return nil
        }
        if text.hasPrefix("rgb(") && text.hasSuffix(")") {
            let inner = text.dropFirst(4).dropLast()
            let parts = inner.split(separator: ",").compactMap { Int($0.trimmed()) }
            guard parts.count == 3, parts.allSatisfy({ (0...255).contains($0) }) else { return nil }
            return Color(red: UInt8(parts[0]), green: UInt8(parts[1]), blue: UInt8(parts[2]))
        }
        return nil
    }
}

extension StringProtocol {
    func trimmed() -> String {
        let scalars = unicodeScalars
        var start = scalars.startIndex, end = scalars.endIndex
        func space(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0C}" }
        while start < end && space(scalars[start]) { start = scalars.index(after: start) }
        while end > start && space(scalars[scalars.index(before: end)]) { end = scalars.index(before: end) }
        return String(String.UnicodeScalarView(scalars[start..<end]))
    }
}
