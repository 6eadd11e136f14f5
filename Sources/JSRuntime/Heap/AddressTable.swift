// A hash table from addresses to integers: the collector's index of its blocks and large
// cells, and the runtime's set of code data (issue 16: start-up and memory).
//
// Not a Swift Dictionary. The first use of a Dictionary type in a process makes the Swift
// runtime build its storage's metadata, and checking the key's `Hashable` conformance
// walks every protocol conformance record of the binary (~2,100 here). The walk reads
// the conformance descriptors, which are spread over the whole read-only data, so the
// kernel maps ~0.5 MB of 64 KiB windows around them into the worker, and two such walks
// were ~0.1 M instructions of each start. This table is one non-generic class over two
// malloc'd arrays: open addressing, linear probing, backward-shift deletion.

#if canImport(Glibc)
import Glibc
#endif

final class AddressTable {
    /// 0: an empty slot (no key is 0).
    private var keys: UnsafeMutablePointer<UInt>
    private var values: UnsafeMutablePointer<Int>
    private var mask: Int
    private var shift: UInt
    private(set) var count = 0

    init() {
        let capacity = 16
        keys = .allocate(capacity: capacity)
        keys.initialize(repeating: 0, count: capacity)
        values = .allocate(capacity: capacity)
        mask = capacity - 1
        shift = 64 - 4
    }

    deinit {
        keys.deallocate()
        values.deallocate()
    }

    /// Fibonacci hashing: the high bits of the product mix every bit of an aligned address.
    @inline(__always)
    private func home(_ key: UInt) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The value for `key`, or nil (always for 0).
    @inline(__always)
    func value(_ key: UInt) -> Int? {
        var i = home(key)
        while true {
            let k = keys[i]
            if k == 0 { return nil }   // first: key 0 (a small word of a stack scan) is absent
            if k == key { return values[i] }
            i = (i + 1) & mask
        }
    }

    @inline(__always)
    func contains(_ key: UInt) -> Bool { value(key) != nil }

    /// Sets the value for `key` (not 0).
    func set(_ key: UInt, _ value: Int) {
        precondition(key != 0, "AddressTable: key 0")
        var i = home(key)
        while true {
            let k = keys[i]
            if k == key { values[i] = value; return }
            if k == 0 { break }
            i = (i + 1) & mask
        }
        keys[i] = key
        values[i] = value
        count += 1
        if count * 2 > mask + 1 { grow() }
    }

    /// Removes `key`; its value, or nil if it was not there.
    @discardableResult
    func remove(_ key: UInt) -> Int? {
        var i = home(key)
        while true {
            let k = keys[i]
            if k == 0 { return nil }
            if k == key { break }
            i = (i + 1) & mask
        }
        let removed = values[i]
        // Backward shift: move up every following entry of the run that may sit at `i`.
        var j = i
        while true {
            j = (j + 1) & mask
            let k = keys[j]
            if k == 0 { break }
            let h = home(k)
            // The entry at j stays if its home lies cyclically in (i, j].
            let stays = i <= j ? (h > i && h <= j) : (h > i || h <= j)
            if !stays {
                keys[i] = k
                values[i] = values[j]
                i = j
            }
        }
        keys[i] = 0
        count -= 1
        return removed
    }

    /// Calls `body` with every key and value, in no particular order. `body` must not
    /// change the table.
    @inline(__always)
    func forEach(_ body: (UInt, Int) throws -> Void) rethrows {
        for i in 0...mask where keys[i] != 0 { try body(keys[i], values[i]) }
    }

    /// Every key, in no particular order (a copy: the table may change afterwards).
    func allKeys() -> [UInt] {
        var result: [UInt] = []
        result.reserveCapacity(count)
        for i in 0...mask where keys[i] != 0 { result.append(keys[i]) }
        return result
    }

    private func grow() {
        let oldKeys = keys, oldValues = values, oldCapacity = mask + 1
        let capacity = oldCapacity * 2
        keys = .allocate(capacity: capacity)
        keys.initialize(repeating: 0, count: capacity)
        values = .allocate(capacity: capacity)
        mask = capacity - 1
        shift -= 1
        for i in 0..<oldCapacity where oldKeys[i] != 0 {
            var j = home(oldKeys[i])
            while keys[j] != 0 { j = (j + 1) & mask }
            keys[j] = oldKeys[i]
            values[j] = oldValues[i]
        }
        oldKeys.deallocate()
        oldValues.deallocate()
    }
}
