// The runtime's intern table: every atom (a flat string cell marked `isAtom`), found by
// its contents. Open addressing over the cell pointers, probed by the string's cached
// hash: two words per atom at most, one malloc'd array, no Swift collection per bucket
// (a dictionary of arrays cost some 80 bytes per atom outside the heap).

struct AtomTable {
    private var cells: UnsafeMutablePointer<UInt>
    private var mask: Int
    private(set) var count = 0

    init(capacity: Int = 16) {
        var cap = 16
        while cap < capacity * 2 { cap <<= 1 }
        mask = cap - 1
        cells = .allocate(capacity: cap)
        cells.initialize(repeating: 0, count: cap)
    }

    /// Frees the storage (a struct has no deinit; the runtime calls this once).
    func deallocate() { cells.deallocate() }

    /// The bytes of the table's storage.
    var byteSize: Int { (mask + 1) * 8 }

    /// The first atom with hash `hash` for which `matches` holds, if any.
    @inline(__always)
    func find(hash: UInt32, _ matches: (UnsafeMutableRawPointer) -> Bool) -> UnsafeMutableRawPointer? {
        var i = Int(hash) & mask
        while true {
            let c = cells[i]
            if c == 0 { return nil }
            let cell = UnsafeMutableRawPointer(bitPattern: c)!
            if StringCell(cell).hash == hash && matches(cell) { return cell }
            i = (i + 1) & mask
        }
    }

    /// Whether the next `insert` doubles the storage.
    var growsOnNextInsert: Bool { (count + 1) * 2 > mask + 1 }

    /// Adds an atom (not already present).
    mutating func insert(_ cell: UnsafeMutableRawPointer) {
        if (count + 1) * 2 > mask + 1 { rebuild(capacity: (mask + 1) * 2) { _ in true } }
        place(cell)
        count += 1
    }

    private func place(_ cell: UnsafeMutableRawPointer) {
        var i = Int(StringCell(cell).hash) & mask
        while cells[i] != 0 { i = (i + 1) & mask }
        cells[i] = UInt(bitPattern: cell)
    }

    /// Drops every atom for which `keep` is false (after marking: the dead ones).
    mutating func filter(_ keep: (UnsafeMutableRawPointer) -> Bool) {
        var dead = false
        for i in 0...mask where cells[i] != 0 && !keep(UnsafeMutableRawPointer(bitPattern: cells[i])!) { dead = true; break }
        if !dead { return }
        var live = 0
        for i in 0...mask where cells[i] != 0 && keep(UnsafeMutableRawPointer(bitPattern: cells[i])!) { live += 1 }
        var cap = 16
        while cap < live * 2 + 2 { cap <<= 1 }
        rebuild(capacity: max(cap, 16), keep: keep)
    }

    private mutating func rebuild(capacity: Int, keep: (UnsafeMutableRawPointer) -> Bool) {
        let old = cells, oldCap = mask + 1
        mask = capacity - 1
        cells = .allocate(capacity: capacity)
        cells.initialize(repeating: 0, count: capacity)
        count = 0
        for i in 0..<oldCap where old[i] != 0 {
            let cell = UnsafeMutableRawPointer(bitPattern: old[i])!
            if keep(cell) { place(cell); count += 1 }
        }
        old.deallocate()
    }
}
