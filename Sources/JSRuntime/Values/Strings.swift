// String cells.
//
// A flat string cell:  header (aux = length in code units) | hash: UInt32 | pad | data
// Data starts at offset 16: Latin-1 bytes, or UTF-16 code units when `flags & is16Bit`.
// A rope cell (kind .rope): header (aux = length) | flags at 8 | left at 16 | right at 24.
// Flattening a rope stores the flat string in `left` and nil in `right`, so a rope is
// flattened once and every holder sees the result: concatenation never copies
// quadratically.
// A slice (a rope cell with `StringFlags.isSlice`): `left` is a flat Latin-1 string, the
// slice's units start at the offset stored at 8; `right` is nil. Long substrings are made
// as slices (no copy; `s = s.slice(k)` in a tokenizer loop stays linear, as V8's sliced
// strings do); flattening copies them once and clears the flag.

#if canImport(Glibc)
import Glibc
#endif

public enum StringFlags {
    public static let is16Bit: UInt16 = 1
    public static let isAtom: UInt16 = 2
    public static let hasHash: UInt16 = 4
    /// On a rope cell: a slice of the flat string in `left` (see above).
    public static let isSlice: UInt16 = 8
    /// On an atom: the global name of a lazily installed builtin group (LazyGlobals.swift).
    public static let lazyGlobal: UInt16 = 16
    /// On an atom: kept for the runtime's life (`Runtime.pinnedAtoms`).
    public static let pinned: UInt16 = 32
}

public struct StringCell {
    public static let dataOffset = StringLayout.characters
    /// The longest string (code units): longer results are a RangeError before allocation.
    public static let maxLength = 0x3FFF_FFFF
    public let cell: UnsafeMutableRawPointer

    @inline(__always) public init(_ cell: UnsafeMutableRawPointer) { self.cell = cell }

    @inline(__always) public var length: Int { Int(header(cell).pointee.aux) }
    @inline(__always) public var is16Bit: Bool { header(cell).pointee.flags & StringFlags.is16Bit != 0 }
    @inline(__always) public var isAtom: Bool { header(cell).pointee.flags & StringFlags.isAtom != 0 }
    @inline(__always) public var latin1: UnsafeMutablePointer<UInt8> {
        (cell + StringCell.dataOffset).assumingMemoryBound(to: UInt8.self)
    }
    @inline(__always) public var utf16: UnsafeMutablePointer<UInt16> {
        (cell + StringCell.dataOffset).assumingMemoryBound(to: UInt16.self)
    }

    @inline(__always) public subscript(i: Int) -> UInt16 {
        is16Bit ? utf16[i] : UInt16(latin1[i])
    }

    /// FNV-1a over code units, cached in the cell.
    public var hash: UInt32 {
        let h = header(cell)
        if h.pointee.flags & StringFlags.hasHash != 0 { return cell.load(fromByteOffset: StringLayout.hash, as: UInt32.self) }
        var x: UInt32 = 2166136261
        let n = length
        if is16Bit {
            let p = utf16
            for i in 0..<n { x = (x ^ UInt32(p[i])) &* 16777619 }
        } else {
            let p = latin1
            for i in 0..<n { x = (x ^ UInt32(p[i])) &* 16777619 }
        }
        cell.storeBytes(of: x, toByteOffset: StringLayout.hash, as: UInt32.self)
        h.pointee.flags |= StringFlags.hasHash
        return x
    }

    public var codeUnits: [UInt16] {
        let n = length
        if is16Bit { return Array(UnsafeBufferPointer(start: utf16, count: n)) }
        return (0..<n).map { UInt16(latin1[$0]) }
    }

    public var swiftString: String {
        if !is16Bit {
            // Latin-1 to Swift: every byte is a code point.
            var s = String.UnicodeScalarView()
            let p = latin1
            for i in 0..<length { s.append(Unicode.Scalar(p[i])) }
            return String(s)
        }
        return String(decoding: UnsafeBufferPointer(start: utf16, count: length), as: UTF16.self)
    }

    public func equals(_ other: StringCell) -> Bool {
        if cell == other.cell { return true }
        let n = length
        if n != other.length { return false }
        if isAtom && other.isAtom { return false }
        if !is16Bit && !other.is16Bit { return memcmp(latin1, other.latin1, n) == 0 }
        if is16Bit && other.is16Bit { return memcmp(utf16, other.utf16, n * 2) == 0 }
        for i in 0..<n where self[i] != other[i] { return false }
        return true
    }

    public func equals(_ units: UnsafeBufferPointer<UInt16>) -> Bool {
        let n = length
        if n != units.count { return false }
        for i in 0..<n where self[i] != units[i] { return false }
        return true
    }

    /// Lexicographic comparison by code units.
    public func compare(_ other: StringCell) -> Int {
        let n = min(length, other.length)
        for i in 0..<n {
            let a = self[i], b = other[i]
            if a != b { return a < b ? -1 : 1 }
        }
        return length == other.length ? 0 : (length < other.length ? -1 : 1)
    }
}

public struct RopeCell {
    public let cell: UnsafeMutableRawPointer
    @inline(__always) public init(_ cell: UnsafeMutableRawPointer) { self.cell = cell }
    @inline(__always) public var length: Int { Int(header(cell).pointee.aux) }
    @inline(__always) public var left: UnsafeMutableRawPointer? {
        get { cell.load(fromByteOffset: StringLayout.ropeLeft, as: UnsafeMutableRawPointer?.self) }
        nonmutating set { cell.storeBytes(of: newValue, toByteOffset: StringLayout.ropeLeft, as: UnsafeMutableRawPointer?.self) }
    }
    @inline(__always) public var right: UnsafeMutableRawPointer? {
        get { cell.load(fromByteOffset: StringLayout.ropeRight, as: UnsafeMutableRawPointer?.self) }
        nonmutating set { cell.storeBytes(of: newValue, toByteOffset: StringLayout.ropeRight, as: UnsafeMutableRawPointer?.self) }
    }
    @inline(__always) public var is16Bit: Bool { header(cell).pointee.flags & StringFlags.is16Bit != 0 }
    @inline(__always) public var isSlice: Bool { header(cell).pointee.flags & StringFlags.isSlice != 0 }
    /// A slice's first unit in `left`.
    @inline(__always) public var sliceOffset: Int {
        get { cell.load(fromByteOffset: 8, as: Int.self) }
        nonmutating set { cell.storeBytes(of: newValue, toByteOffset: 8, as: Int.self) }
    }
}
