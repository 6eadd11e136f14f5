/// The interpreter's frame stack in raw memory: no copy-on-write or exclusivity checks
/// on the hot path (`Frame` holds only trivial values, so raw storage is safe).
struct FrameStack: Sequence {
    static let capacity = 100_001
    let storage: UnsafeMutablePointer<Frame>
    private(set) var count = 0

    init() { storage = .allocate(capacity: FrameStack.capacity) }

    @inline(__always) subscript(i: Int) -> Frame {
        get { storage[i] }
        nonmutating set { storage[i] = newValue }
    }

    @inline(__always) func pointer(_ i: Int) -> UnsafeMutablePointer<Frame> { storage + i }

    var last: Frame? { count == 0 ? nil : storage[count - 1] }

    @inline(__always) mutating func append(_ f: Frame) {
        precondition(count < FrameStack.capacity, "frame stack overflow")
        (storage + count).initialize(to: f)
        count += 1
    }

    @inline(__always) mutating func removeLast() {
        count -= 1
    }

    func makeIterator() -> UnsafeBufferPointer<Frame>.Iterator {
        UnsafeBufferPointer(start: storage, count: count).makeIterator()
    }

    func reversed() -> [Frame] { Array(UnsafeBufferPointer(start: storage, count: count).reversed()) }
}
