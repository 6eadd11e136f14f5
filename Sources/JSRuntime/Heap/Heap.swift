// The engine-managed heap: cells in raw memory, a non-moving mark-sweep collector.
//
// Cells are allocated from 256 KiB blocks, one size class per block, with a free list
// per size class (fed a page at a time from a new block's zero pages); cells larger than the biggest class get their own allocation. Every
// cell starts with an 8-byte `CellHeader` (kind, mark bit, flags, an auxiliary word).
//
// Roots: the interpreter's register file and the runtime's root slots are precise;
// the native stack is scanned conservatively (after spilling callee-saved registers),
// as JavaScriptCore does, so native code may hold cell pointers in locals. Values held
// in Swift heap memory (arrays, dictionaries) are NOT roots: such code must use
// `Heap.pushRoot`/`RootedValues`.
//
// `gcStress` collects before every allocation (the GC bug finder).

import CSableSupport
import JSSyntax
#if canImport(Glibc)
import Glibc
#endif

public enum CellKind: UInt8, Sendable {
    case free = 0
    case string
    case rope
    /// A BigInt (Values/BigIntConversions.swift): a primitive, before `symbol` so that
    /// "past the symbol kind" still means "has a shape word".
    case bigint
    case symbol
    case shape
    case object
    case array
    case function
    case nativeFunction
    case boundFunction
    case environment
    case arguments
    case boxedPrimitive
    case error
    case map
    case set
    case iterator
    case generator
    case promise
    case regexp
    case date
    case accessorPair
    /// WeakRef and FinalizationRegistry objects (Builtins/WeakRefs.swift).
    case weakRef
    case finalizationRegistry
    /// A Proxy exotic object (Builtins/Proxy.swift).
    case proxy
    case arrayBuffer
    case typedArray
    case dataView
    /// An embedder's opaque object (Embedding/HostObjects.swift): a brand and two payload
    /// words no script can read or forge (the FFI's pointers and callbacks).
    case hostObject
}

/// The 8 bytes at the start of every cell.
public struct CellHeader {
    public var kind: CellKind
    public var marked: UInt8
    public var flags: UInt16
    /// Kind-specific (string length, inline slot capacity, ...).
    public var aux: UInt32
}

@inline(__always) func header(_ cell: UnsafeMutableRawPointer) -> UnsafeMutablePointer<CellHeader> {
    cell.assumingMemoryBound(to: CellHeader.self)
}

/// Is `cell` past the string and symbol kinds (an object, shape, environment, ...: a
/// cell with a shape word)? One byte compare (`CellKind.rawValue` is not always inlined).
@inline(__always) func isPastSymbolKind(_ cell: UnsafeMutableRawPointer) -> Bool {
    cell.load(as: UInt8.self) > unsafeBitCast(CellKind.symbol, to: UInt8.self)
}

/// Fatal condition in the heap: out of memory (the interpreter turns it into a JS error).
public struct OutOfMemory: Error {}

public final class Heap {
    static let blockSize = 256 * 1024
    static let sizeClasses: [Int] = [16, 32, 48, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384, 448, 512,
                                     640, 768, 1024, 1280, 1536, 2048, 3072, 4096]
    /// Size class index for sizes up to 4096, in 16-byte steps.
    static let classForSize: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 4096 / 16 + 1)
        var c = 0
        for i in 0...(4096 / 16) {
            let size = i * 16
            while sizeClasses[c] < size { c += 1 }
            table[i] = UInt8(c)
        }
        return table
    }()

    struct Block {
        var base: UnsafeMutableRawPointer
        var cellSize: Int
        /// 0 once the block is released (unmapped; its entry stays so indices hold).
        var cellCount: Int
    }
    /// Empty blocks a sweep keeps mapped at least; further empty blocks are unmapped, so
    /// memory freed by a collection leaves the process and no longer counts toward
    /// `maxHeapBytes`. See `emptyBlocksToKeep`.
    static let keptEmptyBlocks = 8

    var freeLists: [UnsafeMutableRawPointer?] = Array(repeating: nil, count: Heap.sizeClasses.count)
    var blocks: [Block] = []
    /// Per size class: the newest block's untouched tail (block index, first untouched
    /// cell), or nil. A block's pages are zero until touched (kind 0 is `free`); `refill`
    /// threads cells onto the free list a page at a time, so a page is faulted in only
    /// when it is needed (start-up allocates from a dozen blocks, a few pages of each).
    var untouched: [(block: Int, cell: Int)?] = Array(repeating: nil, count: Heap.sizeClasses.count)
    /// Block base -> index in `blocks`; large cell -> its size (not Dictionaries: see
    /// AddressTable).
    let blockIndex = AddressTable()
    let largeCells = AddressTable()

    /// Bytes handed out since the last collection, and the budget that triggers one.
    var allocatedSinceGC = 0
    var gcThreshold = Heap.minimumGCBudget
    /// The allocation budget between collections follows what survived the last one:
    /// four times the live cells plus half the live external storage, at least
    /// `minimumGCBudget` and at most `smallHeapBudgetCap`, or what was retained (the live
    /// cells plus half the external storage) once that is larger. Marking costs about
    /// the live cells, so while they are few the collector's share of the time stays small
    /// (a quarter of a cell's marking per byte allocated at most), and a script that keeps
    /// little alive (Bounce: ~100 KiB) runs in a heap of ~1 MiB instead of 4: -2.7 MB of
    /// peak RSS. External storage counts once, not four times: raytrace keeps ~180 KiB of
    /// cells and ~0.9 MiB of arrays alive, and four times both cost it 1.3 MB of RSS.
    static let minimumGCBudget = 1 << 20
    static let smallHeapBudgetCap = 4 << 20
    static func budget(liveCells: Int, liveExternal: Int) -> Int {
        let retained = liveCells &+ liveExternal / 2
        let small = max(minimumGCBudget, liveCells &* 4 &+ liveExternal / 2)
        return max(retained, min(smallHeapBudgetCap, small))
    }
    /// Bytes in use after the last collection (cells only).
    public private(set) var liveBytes = 0
    /// Bytes of all blocks and large cells currently held.
    public private(set) var committedBytes = 0
    /// Bytes of storage malloc'd outside the cells on behalf of JS: elements, out-of-line
    /// slots, Map/Set indexes, dictionary property tables, shape side data, bound-function
    /// argument buffers. Every allocation of such storage goes through `reserveExternal`
    /// and every free through `releaseExternal`, so this is what those buffers hold now.
    public private(set) var externalBytes = 0
    /// External bytes reserved since the last collection: they count toward the next
    /// collection like cells do, so garbage arrays free their storage promptly.
    var externalBytesSinceGC = 0
    /// Upper bound on everything the engine holds for JS, committed cells plus external
    /// storage (`--max-heap`); 0 = unlimited.
    public var maxHeapBytes = 0
    /// The most bytes held at once (committed + external), for `--gc-stats`.
    public private(set) var peakBytes = 0
    /// Cells and external storage currently held.
    @inline(__always) public var usedBytes: Int { committedBytes &+ externalBytes }
    public var gcStress = false
    public private(set) var collections = 0
    /// Wall time spent in collections, in nanoseconds (`--stats`).
    public private(set) var gcNanoseconds: UInt64 = 0

    /// Functions that mark the runtime's precise roots (register file, realms, handles).
    var rootMarkers: [(inout Marker) -> Void] = []
    /// The runtime that owns this heap, unretained (it owns the heap): it traces live cells
    /// (`Runtime.trace`), finalizes dead ones (`Runtime.finalize`: frees out-of-line
    /// storage) and marks code data named by words of the native stack that are not cells
    /// (`Runtime.markCodeData`). Called directly, not through closures: a closure call per
    /// cell costs a retain and release of its context (~15 % of a sweep).
    var owner: Unmanaged<Runtime>?
    /// Kinds (bit `1 << rawValue`) whose dead cells always go to `Runtime.finalize`.
    var finalizeAlways: UInt64 = 0
    /// Object kinds whose dead cells go to `Runtime.finalize` when they hold out-of-line slots or
    /// elements (`ObjectLayout`); most dead objects hold neither, and skip the call.
    var finalizeIfStorage: UInt64 = 0
    /// Called after marking, before sweeping (weak tables drop dead entries).
    var weakProcessors: [() -> Void] = []
    /// Called after the first drain, again and again until none marks anything more
    /// (ephemerons: a WeakMap value is live when its map and its key are); each returns
    /// whether it marked something.
    var ephemeronProcessors: [(inout Marker) -> Bool] = []

    /// Temporary roots pushed by native code (values kept in Swift heap memory).
    /// A plain growable stack: pushing and popping must not go through Array's generic paths.
    var extraRoots = UnsafeMutablePointer<Value>.allocate(capacity: 256)
    var extraRootCount = 0
    var extraRootCapacity = 256

    var stackHigh: UnsafeMutableRawPointer?
    var collecting = false

    public init() {
        Heap.fixMallocThreshold
        // Shared with the parser's stack guard (one /proc/self/maps read per thread).
        if let (_, high) = currentThreadStack() { stackHigh = UnsafeMutableRawPointer(bitPattern: high) }
    }

    /// Finalizes every cell (the owner is going away: nothing is reachable). A sweep with
    /// nothing marked; marks are clear between collections.
    func releaseAll() {
        if collecting { return }
        sweep()
    }

    deinit {
        for b in blocks where b.cellCount > 0 { munmap(b.base, Heap.blockSize) }
        extraRoots.deallocate()
        largeCells.forEach { addr, _ in free(UnsafeMutableRawPointer(bitPattern: addr)) }
    }

    /// Big buffers (elements, tables) are mmap'd by malloc and unmapped when freed, so the
    /// process's memory follows `usedBytes`. glibc raises its mmap threshold after each such
    /// free (up to 32 MiB), after which big buffers come from the brk heap and freed ones
    /// stay resident; fixing the threshold turns that off. Once per process.
    static let fixMallocThreshold: Void = {
        _ = sable_fix_mmap_threshold(256 * 1024)
    }()

    // MARK: - Allocation

    /// Allocates a zeroed cell of `size` bytes (including the header) and sets its kind.
    @inline(__always)
    public func allocate(_ kind: CellKind, size: Int) throws(OutOfMemory) -> UnsafeMutableRawPointer {
        if gcStress || allocatedSinceGC &+ externalBytesSinceGC >= gcThreshold { try collectIfNeeded() }
        let cell: UnsafeMutableRawPointer
        if size <= 4096 {
            let c = Int(Heap.classForSize[(size + 15) >> 4])
            if let head = freeLists[c] {
                freeLists[c] = head.load(fromByteOffset: 8, as: UnsafeMutableRawPointer?.self)
                cell = head
            } else {
                cell = try refill(sizeClass: c)
            }
            let cellSize = Heap.sizeClasses[c]
            cell.initializeMemory(as: UInt8.self, repeating: 0, count: cellSize)
            allocatedSinceGC += cellSize
        } else {
            let total = (size + 15) & ~15
            if maxHeapBytes > 0 && usedBytes &+ total > maxHeapBytes { try collectForLimit(total) }
            guard let p = calloc(1, total) else { throw OutOfMemory() }
            largeCells.set(UInt(bitPattern: p), total)
            committedBytes += total
            notePeak()
            allocatedSinceGC += total
            cell = p
        }
        header(cell).pointee.kind = kind
        return cell
    }

    func refill(sizeClass c: Int) throws(OutOfMemory) -> UnsafeMutableRawPointer {
        if untouched[c] == nil && maxHeapBytes > 0 && usedBytes &+ Heap.blockSize > maxHeapBytes {
            // A collection may refill this class's free list; else a new block must fit.
            if let head = try collectForLimit(Heap.blockSize, sizeClass: c) { return head }
        }
        if untouched[c] == nil {
            guard let base = Heap.mapBlock() else { throw OutOfMemory() }
            let cellSize = Heap.sizeClasses[c]
            blockIndex.set(UInt(bitPattern: base), blocks.count)
            blocks.append(Block(base: base, cellSize: cellSize, cellCount: Heap.blockSize / cellSize))
            committedBytes += Heap.blockSize
            notePeak()
            untouched[c] = (blocks.count - 1, 0)
        }
        // Thread the untouched cells that start in the next page onto the free list (the
        // free list is empty here); hand out the first.
        let (bi, first) = untouched[c]!
        let b = blocks[bi]
        var end = first + 1
        while end < b.cellCount && (end * b.cellSize) & ~4095 == (first * b.cellSize) & ~4095 { end += 1 }
        untouched[c] = end < b.cellCount ? (bi, end) : nil
        var next: UnsafeMutableRawPointer? = freeLists[c]
        var i = end - 1
        while i > first {
            let cell = b.base + i * b.cellSize
            cell.storeBytes(of: next, toByteOffset: 8, as: UnsafeMutableRawPointer?.self)
            next = cell
            i -= 1
        }
        freeLists[c] = next
        return b.base + first * b.cellSize
    }

    // MARK: - The limit

    /// Makes room for `bytes` more under `maxHeapBytes` (the caller found it over): collects
    /// once; throws when the request still does not fit with some headroom, so a heap whose
    /// live data fills the limit fails at once instead of collecting at every block.
    /// With `sizeClass`, a free cell of that class after the collection is taken and
    /// returned instead (no new block needed).
    /// After an out-of-memory error, the 1/32 headroom is the `catch` block's to use (what
    /// it needs to recover, even when what filled the heap stays alive, such as compiled
    /// code); it is restored once a collection brings usage below the limit by 1/16.
    var headroomSpent = false
    var collectingForLimit = false

    @inline(never) @discardableResult
    func collectForLimit(_ bytes: Int, sizeClass: Int? = nil) throws(OutOfMemory) -> UnsafeMutableRawPointer? {
        if !collecting {
            // Every empty block goes back: one of another size class is no use here.
            collectingForLimit = true
            collect()
            collectingForLimit = false
        }
        if headroomSpent && usedBytes < maxHeapBytes - maxHeapBytes / 16 { headroomSpent = false }
        if let c = sizeClass, let head = freeLists[c] {
            freeLists[c] = head.load(fromByteOffset: 8, as: UnsafeMutableRawPointer?.self)
            return head
        }
        let headroom = headroomSpent ? 0 : maxHeapBytes / 32
        if usedBytes &+ bytes &+ headroom > maxHeapBytes {
            headroomSpent = true
            throw OutOfMemory()
        }
        return nil
    }

    /// Accounts for `bytes` of external storage about to be malloc'd on behalf of JS:
    /// over `maxHeapBytes` it collects once and throws if the request still does not fit
    /// (nothing is then reserved). Pair with `releaseExternal` when the storage is freed.
    @inline(__always)
    public func reserveExternal(_ bytes: Int) throws(OutOfMemory) {
        if maxHeapBytes > 0 && usedBytes &+ bytes > maxHeapBytes { try collectForLimit(bytes) }
        externalBytes &+= bytes
        externalBytesSinceGC &+= bytes
        notePeak()
    }

    /// Accounts for external storage that has already changed size by `delta` (a Swift
    /// collection that grew or shrank by itself); never throws.
    @inline(__always)
    public func adjustExternal(_ delta: Int) {
        externalBytes &+= delta
        if delta > 0 { externalBytesSinceGC &+= delta; notePeak() }
    }

    /// Accounts for `bytes` of external storage freed.
    @inline(__always)
    public func releaseExternal(_ bytes: Int) { externalBytes &-= bytes }

    @inline(__always) func notePeak() {
        let used = usedBytes
        if used > peakBytes { peakBytes = used }
    }

    /// A zero-filled block aligned to its size (fresh anonymous pages: untouched pages
    /// cost nothing), or nil.
    static func mapBlock() -> UnsafeMutableRawPointer? {
        let size = Heap.blockSize
        guard let raw = mmap(nil, 2 * size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              raw != MAP_FAILED else { return nil }
        let address = UInt(bitPattern: raw)
        let aligned = (address + UInt(size - 1)) & ~UInt(size - 1)
        let head = Int(aligned - address)
        if head > 0 { munmap(raw, head) }
        munmap(UnsafeMutableRawPointer(bitPattern: aligned + UInt(size)), size - head)
        return UnsafeMutableRawPointer(bitPattern: aligned)
    }

    // MARK: - Roots

    /// Keeps `value` alive until the matching `popRoots`.
    @inline(__always) public func pushRoot(_ value: Value) {
        if extraRootCount == extraRootCapacity { growExtraRoots() }
        extraRoots[extraRootCount] = value
        extraRootCount += 1
    }
    @inline(__always) public func popRoots(_ count: Int) {
        precondition(count <= extraRootCount)
        extraRootCount -= count
    }
    public var rootDepth: Int { extraRootCount }
    public func popRoots(to depth: Int) {
        precondition(depth <= extraRootCount)
        extraRootCount = depth
    }
    @inline(never) func growExtraRoots() {
        let bigger = UnsafeMutablePointer<Value>.allocate(capacity: extraRootCapacity * 2)
        bigger.moveInitialize(from: extraRoots, count: extraRootCount)
        extraRoots.deallocate()
        extraRoots = bigger
        extraRootCapacity *= 2
    }

    public func addRootMarker(_ marker: @escaping (inout Marker) -> Void) { rootMarkers.append(marker) }

    /// Is `address` the start of a live cell (for conservative scanning)?
    @inline(__always)
    func isCellStart(_ address: UInt) -> Bool {
        if address & 7 != 0 || address == 0 { return false }
        let base = address & ~UInt(Heap.blockSize - 1)
        if let i = blockIndex.value(base) {
            let b = blocks[i]
            let offset = Int(address - base)
            if offset % b.cellSize != 0 { return false }
            return UnsafeMutableRawPointer(bitPattern: address)!.load(as: UInt8.self) != CellKind.free.rawValue
        }
        return largeCells.contains(address)
    }

    // MARK: - Collection

    public struct Marker {
        var stack: [UnsafeMutableRawPointer] = []

        @inline(__always)
        public mutating func mark(_ v: Value) {
            if v.isCell { mark(cell: v.asCell) }
        }

        @inline(__always)
        public mutating func mark(cell: UnsafeMutableRawPointer?) {
            guard let cell else { return }
            let h = header(cell)
            if h.pointee.marked != 0 { return }
            h.pointee.marked = 1
            stack.append(cell)
        }

        public mutating func mark(_ values: UnsafePointer<Value>, count: Int) {
            for i in 0..<count { mark(values[i]) }
        }
    }

    public func collectIfNeeded(force: Bool = false) throws(OutOfMemory) {
        if collecting { return }
        collect()
        if maxHeapBytes > 0 && liveBytes &+ externalBytes > maxHeapBytes { throw OutOfMemory() }
    }

    /// A full mark-sweep collection.
    public func collect() {
        if collecting { return }
        collecting = true
        let start = Heap.monotonicNanoseconds()
        defer {
            collecting = false
            gcNanoseconds &+= Heap.monotonicNanoseconds() &- start
        }
        collections += 1
        var marker = Marker()
        marker.stack.reserveCapacity(1024)
        for m in rootMarkers { m(&marker) }
        marker.mark(extraRoots, count: extraRootCount)
        scanNativeStack(&marker)
        drain(&marker)
        while !ephemeronProcessors.isEmpty {
            var more = false
            for e in ephemeronProcessors { if e(&marker) { more = true } }
            if !more { break }
            drain(&marker)
        }
        for w in weakProcessors { w() }
        sweep()
        allocatedSinceGC = 0
        externalBytesSinceGC = 0
        // See `budget`. Only half the external storage counts: a heap of big arrays is
        // not traced every few MiB (quadratic), yet a heap of many small objects does not
        // grow more than before (splay: +10 % peak RSS when all external bytes counted).
        gcThreshold = Heap.budget(liveCells: liveBytes, liveExternal: externalBytes)
    }

    /// CLOCK_MONOTONIC in nanoseconds (the vDSO: no system call).
    static func monotonicNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    func drain(_ marker: inout Marker) {
        guard let owner else { return }
        while let cell = marker.stack.popLast() {
            owner._withUnsafeGuaranteedRef { $0.trace(cell, &marker) }
        }
    }

    final class ScanContext {
        var heap: Heap
        var marker: Marker
        init(heap: Heap, marker: Marker) { self.heap = heap; self.marker = marker }
    }

    func scanNativeStack(_ marker: inout Marker) {
        guard let high = stackHigh else { return }
        let ctx = ScanContext(heap: self, marker: marker)
        _ = high
        let unmanaged = Unmanaged.passRetained(ctx)
        sable_with_spilled_registers({ low, context in
            let ctx = Unmanaged<ScanContext>.fromOpaque(context!).takeUnretainedValue()
            guard let low, let high = ctx.heap.stackHigh else { return }
            var p = UInt(bitPattern: low) & ~UInt(7)
            let end = UInt(bitPattern: high)
            while p + 8 <= end {
                let word = UInt(sable_load_stack_word(p))
                if ctx.heap.isCellStart(word) {
                    ctx.marker.mark(cell: UnsafeMutableRawPointer(bitPattern: word))
                } else if word & 7 == 0 && word != 0, let owner = ctx.heap.owner {
                    owner._withUnsafeGuaranteedRef { $0.markCodeData(atAddress: word, &ctx.marker) }
                }
                p += 8
            }
        }, unmanaged.toOpaque())
        unmanaged.release()
        marker = ctx.marker
    }

    /// How many empty blocks a sweep keeps: enough for the allocation budget until the
    /// next collection (unmapping them only to fault fresh pages in again costs system
    /// time), but only a few when a heap limit is set and over half used, and none in a
    /// collection at the limit.
    var emptyBlocksToKeep: Int {
        if collectingForLimit { return 0 }
        if maxHeapBytes > 0 && usedBytes > maxHeapBytes / 2 { return Heap.keptEmptyBlocks }
        return max(Heap.keptEmptyBlocks, gcThreshold / Heap.blockSize)
    }

    /// Does the dead `cell` of `kind` need the finalizer?
    @inline(__always)
    func needsFinalizer(_ cell: UnsafeMutableRawPointer, _ kind: CellKind) -> Bool {
        let bit = UInt64(1) << UInt64(unsafeBitCast(kind, to: UInt8.self) & 63)
        if finalizeAlways & bit != 0 { return true }
        return finalizeIfStorage & bit != 0
            && (cell.load(fromByteOffset: ObjectLayout.outOfLineSlots, as: UInt.self)
                | cell.load(fromByteOffset: ObjectLayout.elements, as: UInt.self)) != 0
    }

    func sweep() {
        var live = 0
        let owner = self.owner
        for c in 0..<freeLists.count { freeLists[c] = nil }
        var emptyBlocks = 0
        let keep = emptyBlocksToKeep
        for (bi, b) in blocks.enumerated() where b.cellCount > 0 {
            let c = Int(Heap.classForSize[b.cellSize >> 4])
            let headBefore = freeLists[c]
            var head = headBefore
            var liveHere = 0
            // The untouched tail stays untouched (refill threads it later).
            let tail = untouched[c].flatMap { $0.block == bi ? $0.cell : nil }
            var i = (tail ?? b.cellCount) - 1
            while i >= 0 {
                let cell = b.base + i * b.cellSize
                let h = header(cell)
                if h.pointee.kind != .free {
                    if h.pointee.marked != 0 {
                        h.pointee.marked = 0
                        liveHere += 1
                        i -= 1
                        continue
                    }
                    if needsFinalizer(cell, h.pointee.kind) { owner?._withUnsafeGuaranteedRef { $0.finalize(cell) } }
                    h.pointee = CellHeader(kind: .free, marked: 0, flags: 0, aux: 0)
                }
                cell.storeBytes(of: head, toByteOffset: 8, as: UnsafeMutableRawPointer?.self)
                head = cell
                i -= 1
            }
            live += liveHere * b.cellSize
            if liveHere == 0 && tail == nil {
                emptyBlocks += 1
                if emptyBlocks > keep {
                    // Nothing in it is reachable: give its pages back.
                    freeLists[c] = headBefore
                    blockIndex.remove(UInt(bitPattern: b.base))
                    munmap(b.base, Heap.blockSize)
                    blocks[bi].cellCount = 0
                    committedBytes -= Heap.blockSize
                    continue
                }
            }
            freeLists[c] = head
        }
        var dead: [UInt] = []
        largeCells.forEach { addr, size in
            let cell = UnsafeMutableRawPointer(bitPattern: addr)!
            if header(cell).pointee.marked != 0 {
                header(cell).pointee.marked = 0
                live += size
            } else {
                dead.append(addr)
            }
        }
        for addr in dead {
            let cell = UnsafeMutableRawPointer(bitPattern: addr)!
            if needsFinalizer(cell, header(cell).pointee.kind) { owner?._withUnsafeGuaranteedRef { $0.finalize(cell) } }
            committedBytes -= largeCells.remove(addr)!
            free(cell)
        }
        liveBytes = live
    }
}
