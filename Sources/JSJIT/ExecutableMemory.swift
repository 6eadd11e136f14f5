#if canImport(Glibc)
import Glibc
#endif
import JSAssembler
import CSableSupport

/// The JIT's code memory: a pool of pages that are never writable and executable at once.
///
/// In a locked worker the pool is the executable region reserved before lockdown (the
/// seccomp policy lets only its pages become executable). Code is installed in batches:
/// the pages a batch touches are flipped RW once, every block of the batch is copied in,
/// then they are flipped RX once (a flip costs about 5 µs here). Published code is never
/// rewritten; inline-cache state lives in data. Freed blocks return to a free list and
/// their pages are reused by later batches.
///
/// Single-threaded, like the runtime that owns it.
public final class ExecutableMemory {
    /// A piece of installed machine code.
    public struct Block: Hashable, Sendable {
        public let address: UInt
        public let size: Int
        public var pointer: UnsafeRawPointer { UnsafeRawPointer(bitPattern: address)! }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// What `--jit-stats` reports about code memory.
    public struct Statistics: Sendable {
        public var blocksInstalled = 0
        public var bytesInUse = 0
        public var peakBytesInUse = 0
        /// mprotect calls made (each RW and each RX flip counts).
        public var pageFlips = 0
    }

    public let base: UnsafeMutableRawPointer
    public let capacity: Int
    public private(set) var statistics = Statistics()
    static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
    /// Blocks start 16-byte aligned (call targets, loop heads).
    static let alignment = 16

    /// The bump pointer (offset of the first never-used byte) and free ranges (offset, size).
    var top = 0
    var free: [(offset: Int, size: Int)] = []

    /// `base` must be page-aligned memory of `capacity` bytes that this object may mprotect
    /// (the worker's executable region, or a test's own reservation).
    public init(base: UnsafeMutableRawPointer, capacity: Int) {
        precondition(Int(bitPattern: base) % Self.pageSize == 0 && capacity % Self.pageSize == 0)
        self.base = base
        self.capacity = capacity
    }

    /// Reserves `capacity` bytes of fresh PROT_NONE memory (tests; processes that are not
    /// locked down never run JIT code in production).
    public static func reserve(capacity: Int) throws(Failure) -> ExecutableMemory {
        guard let p = mmap(nil, capacity, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0), p != MAP_FAILED else {
            throw Failure(description: "mmap: \(String(cString: strerror(errno)))")
        }
        return ExecutableMemory(base: p, capacity: capacity)
    }

    /// Installs the code of `buffers` in one batch: one RW flip and one RX flip over the
    /// pages the batch touches. Returns one block per buffer, in order.
    public func install(_ buffers: [AssemblerBuffer]) throws(Failure) -> [Block] {
        var placed: [(offset: Int, buffer: AssemblerBuffer)] = []
        for b in buffers {
            guard let offset = allocate(max(b.count, 1)) else {
                for (o, buf) in placed { release(offset: o, size: Self.rounded(buf.count)) }
                throw Failure(description: "out of executable memory (\(capacity >> 20) MiB pool)")
            }
            placed.append((offset, b))
        }
        guard let first = placed.map(\.offset).min(),
              let last = placed.map({ $0.offset + Self.rounded($0.buffer.count) }).max() else { return [] }
        let pageStart = first / Self.pageSize * Self.pageSize
        let pageEnd = (last + Self.pageSize - 1) / Self.pageSize * Self.pageSize
        try protect(pageStart, pageEnd - pageStart, PROT_READ | PROT_WRITE)
        for (offset, buffer) in placed {
            (base + offset).copyMemory(from: buffer.bytes, byteCount: buffer.count)
        }
        try protect(pageStart, pageEnd - pageStart, PROT_READ | PROT_EXEC)
        sable_flush_instruction_cache(base + pageStart, UInt(pageEnd - pageStart))
        statistics.blocksInstalled += placed.count
        let blocks = placed.map { Block(address: UInt(bitPattern: base + $0.offset), size: Self.rounded($0.buffer.count)) }
        statistics.bytesInUse += blocks.reduce(0) { $0 + $1.size }
        statistics.peakBytesInUse = max(statistics.peakBytesInUse, statistics.bytesInUse)
        return blocks
    }

    /// Returns a block's memory to the pool. The code must not be running or referenced
    /// (the runtime frees code only when nothing refers to it).
    public func free(_ block: Block) {
        let offset = Int(block.address) - Int(UInt(bitPattern: base))
        precondition(offset >= 0 && offset + block.size <= top, "not a block of this pool")
        release(offset: offset, size: block.size)
        statistics.bytesInUse -= block.size
    }

    /// Whether `address` lies in installed or free code memory of this pool.
    public func contains(_ address: UnsafeRawPointer) -> Bool {
        let a = UInt(bitPattern: address), b = UInt(bitPattern: base)
        return a >= b && a < b + UInt(top)
    }

    static func rounded(_ n: Int) -> Int { (n + alignment - 1) / alignment * alignment }

    /// First fit from the free list, else from the untouched top.
    func allocate(_ bytes: Int) -> Int? {
        let size = Self.rounded(bytes)
        if let i = free.firstIndex(where: { $0.size >= size }) {
            let r = free[i]
            if r.size == size { free.remove(at: i) } else { free[i] = (r.offset + size, r.size - size) }
            return r.offset
        }
        guard top + size <= capacity else { return nil }
        defer { top += size }
        return top
    }

    /// Adds a range to the free list, merging it with its neighbours; a free range at the
    /// top moves the top down.
    func release(offset: Int, size: Int) {
        var start = offset, end = offset + size
        free.removeAll { r in
            if r.offset + r.size == start { start = r.offset; return true }
            if r.offset == end { end = r.offset + r.size; return true }
            return false
        }
        if end == top { top = start } else { free.append((start, end - start)) }
    }

    func protect(_ offset: Int, _ length: Int, _ prot: Int32) throws(Failure) {
        statistics.pageFlips += 1
        if mprotect(base + offset, length, prot) != 0 {
            throw Failure(description: "mprotect: \(String(cString: strerror(errno)))")
        }
    }
}
