/// The interpreter's frame stack in raw memory: no copy-on-write or exclusivity checks
/// on the hot path (`Frame` holds only trivial values, so raw storage is safe).
struct FrameStack: Sequence {
    static let capacity = 100_001
    let storage: UnsafeMutablePointer<Frame>
    /// The number of frames, in a cell of its own: machine code pops the frames its
    /// compiled returns leave (JITHooks.swift, `frameCountAddress`).
    let countCell: UnsafeMutablePointer<Int>
    var count: Int { @inline(__always) get { countCell.pointee } }

    init() {
        storage = .allocate(capacity: FrameStack.capacity)
        countCell = .allocate(capacity: 1)
        countCell.initialize(to: 0)
    }

    func deallocate() {
        storage.deallocate()
        countCell.deallocate()
    }

    @inline(__always) subscript(i: Int) -> Frame {
        get { storage[i] }
        nonmutating set { storage[i] = newValue }
    }

    @inline(__always) func pointer(_ i: Int) -> UnsafeMutablePointer<Frame> { storage + i }

    var last: Frame? { count == 0 ? nil : storage[count - 1] }

    @inline(__always) func append(_ f: Frame) {
        let n = countCell.pointee
        precondition(n < FrameStack.capacity, "frame stack overflow")
        (storage + n).initialize(to: f)
        countCell.pointee = n + 1
    }

    @inline(__always) func removeLast() {
        countCell.pointee -= 1
    }

    func makeIterator() -> UnsafeBufferPointer<Frame>.Iterator {
        UnsafeBufferPointer(start: storage, count: count).makeIterator()
    }

    func reversed() -> [Frame] { Array(UnsafeBufferPointer(start: storage, count: count).reversed()) }
}
