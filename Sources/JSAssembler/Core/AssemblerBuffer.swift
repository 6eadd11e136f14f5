/// A growable buffer of machine-code bytes: what an assembler writes into before the
/// code is copied into executable memory.
///
/// Raw memory, not `[UInt8]`: emitting a byte is a bounds check against the capacity and
/// a store, with no copy-on-write check per byte.
public final class AssemblerBuffer {
    public private(set) var bytes: UnsafeMutablePointer<UInt8>
    /// The number of bytes written (the offset of the next byte).
    public private(set) var count = 0
    public private(set) var capacity: Int

    public init(capacity: Int = 1024) {
        self.capacity = max(capacity, 16)
        bytes = .allocate(capacity: self.capacity)
    }

    deinit { bytes.deallocate() }

    /// Makes room for at least `n` more bytes (an instruction is at most 15).
    @inline(__always) public func reserve(_ n: Int) {
        if count + n > capacity { grow(count + n) }
    }

    private func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBytes.update(from: bytes, count: count)
        bytes.deallocate()
        bytes = newBytes
        capacity = newCapacity
    }

    @inline(__always) public func emit8(_ v: UInt8) {
        reserve(1)
        bytes[count] = v
        count += 1
    }

    @inline(__always) public func emit16(_ v: UInt16) {
        reserve(2)
        UnsafeMutableRawPointer(bytes + count).storeBytes(of: v.littleEndian, as: UInt16.self)
        count += 2
    }

    @inline(__always) public func emit32(_ v: UInt32) {
        reserve(4)
        UnsafeMutableRawPointer(bytes + count).storeBytes(of: v.littleEndian, as: UInt32.self)
        count += 4
    }

    @inline(__always) public func emit64(_ v: UInt64) {
        reserve(8)
        UnsafeMutableRawPointer(bytes + count).storeBytes(of: v.littleEndian, as: UInt64.self)
        count += 8
    }

    /// Overwrites 4 bytes at `offset` (a jump displacement or a patched constant).
    public func patch32(at offset: Int, _ v: UInt32) {
        precondition(offset >= 0 && offset + 4 <= count)
        UnsafeMutableRawPointer(bytes + offset).storeBytes(of: v.littleEndian, as: UInt32.self)
    }

    /// Overwrites 1 byte at `offset`.
    public func patch8(at offset: Int, _ v: UInt8) {
        precondition(offset >= 0 && offset < count)
        bytes[offset] = v
    }

    public func read32(at offset: Int) -> UInt32 {
        UnsafeRawPointer(bytes + offset).loadUnaligned(as: UInt32.self)
    }

    /// A copy of the bytes written so far (tests, disassembly).
    public var array: [UInt8] { Array(UnsafeBufferPointer(start: bytes, count: count)) }

    /// Forgets everything written (the memory is kept).
    public func reset() { count = 0 }
}

/// A position in the code, once it is known (`MacroAssembler.label()`).
public struct Label: Hashable, Sendable {
    public let offset: Int
    public init(offset: Int) { self.offset = offset }
}

/// A jump or call whose target is set later (`link(to:)`): where its displacement is.
public struct Jump: Sendable {
    /// The offset just after the instruction (displacements count from there).
    public let end: Int
    /// 1 (rel8) or 4 (rel32) bytes of displacement, just before `end`.
    public let width: Int

    public init(end: Int, width: Int) {
        self.end = end
        self.width = width
    }
}
