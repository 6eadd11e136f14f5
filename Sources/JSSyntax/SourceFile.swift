/// Source text with a table of line starts, for turning byte offsets into positions.
public final class SourceFile: @unchecked Sendable {
    /// A name for messages (a path, `<eval>`, `<stdin>`).
    public let name: String
    /// The UTF-8 bytes of the source.
    public let bytes: [UInt8]
    private var lineStartsCache: [Int]? = nil

    public init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }

    public convenience init(name: String, text: String) {
        self.init(name: name, bytes: Array(text.utf8))
    }

    /// Byte offsets at which each line starts (line terminators: LF, CR, CRLF, U+2028, U+2029).
    public var lineStarts: [Int] {
        if let cached = lineStartsCache { return cached }
        var starts = [0]
        let count = bytes.count
        bytes.withUnsafeBufferPointer { p in
            var i = 0
            while i < count {
                let b = p[i]
                if b == 0x0A {
                    starts.append(i + 1)
                } else if b == 0x0D {
                    if i + 1 < count && p[i + 1] == 0x0A { i += 1 }
                    starts.append(i + 1)
                } else if b == 0xE2 && i + 2 < count && p[i + 1] == 0x80 && (p[i + 2] == 0xA8 || p[i + 2] == 0xA9) {
                    i += 2
                    starts.append(i + 1)
                }
                i += 1
            }
        }
        lineStartsCache = starts
        return starts
    }

    /// The 1-based line and column of a byte offset. Columns count Unicode code points.
    public func position(of offset: Int) -> (line: Int, column: Int) {
        let starts = lineStarts
        var lo = 0, hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        let lineStart = starts[lo]
        var column = 1
        var i = lineStart
        let end = min(offset, bytes.count)
        while i < end {
            // Count code points: skip UTF-8 continuation bytes.
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return (lo + 1, column)
    }

    /// The text of the 1-based line `line`, without its terminator.
    public func lineText(_ line: Int) -> String {
        let starts = lineStarts
        guard line >= 1 && line <= starts.count else { return "" }
        let start = starts[line - 1]
        var end = line < starts.count ? starts[line] : bytes.count
        while end > start {
            let b = bytes[end - 1]
            if b == 0x0A || b == 0x0D { end -= 1; continue }
            if end - start >= 3 && bytes[end - 3] == 0xE2 && bytes[end - 2] == 0x80
                && (bytes[end - 1] == 0xA8 || bytes[end - 1] == 0xA9) { end -= 3; continue }
            break
        }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}

/// An error found while parsing: a `SyntaxError` or, for nesting that is too deep, a `RangeError`.
public struct ParseError: Error, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable { case syntaxError = "SyntaxError", rangeError = "RangeError" }
    public var kind: Kind
    public var message: String
    /// Byte offset of the error in the source.
    public var offset: Int
    public var line: Int
    public var column: Int
    public var fileName: String

    public init(kind: Kind = .syntaxError, message: String, offset: Int, line: Int, column: Int, fileName: String) {
        self.kind = kind; self.message = message; self.offset = offset
        self.line = line; self.column = column; self.fileName = fileName
    }

    /// `file:line:column: SyntaxError: message`
    public var description: String { "\(fileName):\(line):\(column): \(kind.rawValue): \(message)" }
}

/// Options for `parseScript`.
public struct ParseOptions: Sendable {
    /// Parse as strict-mode code from the start (as if the script began with "use strict").
    public var strict: Bool = false
    /// Allow a `return` statement at top level (function bodies built by `Function(...)`).
    public var allowReturnOutsideFunction: Bool = false
    /// Allow `new.target` at top level (`eval` inside functions).
    public var allowNewTarget: Bool = false
    /// Allow `super.x` at top level (`eval` inside methods).
    public var allowSuperProperty: Bool = false
    /// Allow `super()` at top level (`eval` inside derived constructors).
    public var allowSuperCall: Bool = false
    /// Private names visible from an enclosing class (`eval` inside a class body).
    public var privateNames: Set<String> = []
    public init(strict: Bool = false) { self.strict = strict }
}
