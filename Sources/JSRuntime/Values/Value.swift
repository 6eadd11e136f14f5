// The one value representation shared by the interpreter, the runtime and the JIT.
//
// NaN-boxing in the layout JavaScriptCore uses on 64-bit targets ("pointers are pure"):
//
//   pointer  { 0x0000:PPPP:PPPP:PPPP }   heap cell, 8-byte aligned, nonzero
//   double   { 0x0002:****:****:**** ... 0xFFFC:****:****:**** }  stored as bits + 2^49
//   int32    { 0xFFFE:0000:IIII:IIII }
//   special  { 0x0000:0000:0000:000X }   empty 0x0, null 0x2, false 0x6, true 0x7, undefined 0xA
//
// So: `bits >= numberTag` is an int32; `bits & numberTag != 0` is a number; a value
// with none of the top 15 bits and none of the `otherTag` bit set is a cell pointer.
// `empty` (all zero bits) marks holes and uninitialized (TDZ) bindings; it never
// escapes to JavaScript.

public struct Value: Equatable, @unchecked Sendable {
    public var bits: UInt64

    @inlinable @inline(__always) public init(bits: UInt64) { self.bits = bits }

    public static let numberTag: UInt64 = 0xFFFE_0000_0000_0000
    public static let doubleEncodeOffset: UInt64 = 1 << 49
    public static let otherTag: UInt64 = 0x2
    public static let boolTag: UInt64 = 0x4
    public static let undefinedTag: UInt64 = 0x8
    /// Bits that are zero in every cell pointer.
    public static let notCellMask: UInt64 = numberTag | otherTag

    public static let empty = Value(bits: 0)
    public static let null = Value(bits: otherTag)
    public static let undefined = Value(bits: otherTag | undefinedTag)
    public static let `false` = Value(bits: otherTag | boolTag)
    public static let `true` = Value(bits: otherTag | boolTag | 1)

    // MARK: - Construction

    @inlinable @inline(__always) public init(int32 i: Int32) {
        bits = Value.numberTag | UInt64(UInt32(bitPattern: i))
    }

    /// A number; stored as an int32 when it is one (and not -0).
    @inlinable @inline(__always) public init(_ d: Double) {
        if d >= -2147483648.0 && d <= 2147483647.0 {
            let i = Int32(d)
            if Double(i) == d && (i != 0 || d.sign == .plus) {
                bits = Value.numberTag | UInt64(UInt32(bitPattern: i))
                return
            }
        }
        bits = d.bitPattern &+ Value.doubleEncodeOffset
    }

    /// A number stored as a double even when it is integral (rarely needed).
    @inlinable @inline(__always) public init(rawDouble d: Double) {
        bits = d.bitPattern &+ Value.doubleEncodeOffset
    }

    @inlinable @inline(__always) public init(_ b: Bool) { bits = b ? Value.true.bits : Value.false.bits }

    @inlinable @inline(__always) public init(cell: UnsafeMutableRawPointer) {
        bits = UInt64(UInt(bitPattern: cell))
    }

    @inlinable @inline(__always) public init(_ i: Int) {
        if i >= Int(Int32.min) && i <= Int(Int32.max) { self.init(int32: Int32(i)) } else { self.init(Double(i)) }
    }

    // MARK: - Tests

    @inlinable @inline(__always) public var isInt32: Bool { bits >= Value.numberTag }
    @inlinable @inline(__always) public var isNumber: Bool { bits & Value.numberTag != 0 }
    @inlinable @inline(__always) public var isDouble: Bool { isNumber && !isInt32 }
    @inlinable @inline(__always) public var isCell: Bool { bits & Value.notCellMask == 0 && bits != 0 }
    @inlinable @inline(__always) public var isEmpty: Bool { bits == 0 }
    @inlinable @inline(__always) public var isUndefined: Bool { bits == Value.undefined.bits }
    @inlinable @inline(__always) public var isNull: Bool { bits == Value.null.bits }
    @inlinable @inline(__always) public var isNullish: Bool { bits & ~Value.undefinedTag == Value.otherTag }
    @inlinable @inline(__always) public var isBool: Bool { bits & ~1 == Value.false.bits }

    // MARK: - Extraction

    @inlinable @inline(__always) public var asInt32: Int32 { Int32(truncatingIfNeeded: bits) }
    @inlinable @inline(__always) public var asDouble: Double { Double(bitPattern: bits &- Value.doubleEncodeOffset) }
    /// The numeric value of a number (int32 or double).
    @inlinable @inline(__always) public var asNumber: Double { isInt32 ? Double(asInt32) : asDouble }
    @inlinable @inline(__always) public var asBool: Bool { bits & 1 != 0 }
    @inlinable @inline(__always) public var asCell: UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(bitPattern: UInt(bits))!
    }
}
