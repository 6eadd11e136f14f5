import Testing
@testable import JSRuntime

/// The collector's address index (blocks, large cells, code data) against a Dictionary.
@Suite struct AddressTableTests {
    /// A conservative stack scan looks up small words: `base = word & ~(block - 1)` is 0
    /// for any word below one block, and 0 marks an empty slot. Such a lookup must miss
    /// (it once returned an empty slot's value, and the scan read an unmapped block).
    @Test func zeroAndAbsentKeysMiss() {
        let t = AddressTable()
        #expect(t.value(0) == nil)
        t.set(1 << 18, 7)
        #expect(t.value(0) == nil && !t.contains(0) && t.remove(0) == nil)
        #expect(t.value(2 << 18) == nil)
        #expect(t.value(1 << 18) == 7)
    }

    /// Block-aligned keys (as the heap's are), random sets and removes through several
    /// growths, checked against a Dictionary after every step (backward-shift deletion
    /// keeps every probe run intact).
    @Test func agreesWithDictionary() {
        var rng = SplitMix(seed: 0x5AB1E)
        let t = AddressTable()
        var d: [UInt: Int] = [:]
        for step in 0..<20_000 {
            let key = UInt(rng.next() % 600 + 1) << 18
            if rng.next() % 3 != 0 {
                t.set(key, step)
                d[key] = step
            } else {
                #expect(t.remove(key) == d.removeValue(forKey: key))
            }
            #expect(t.count == d.count)
            if step % 500 == 0 {
                for (k, v) in d { #expect(t.value(k) == v) }
                var seen = 0
                t.forEach { k, v in
                    seen += 1
                    #expect(d[k] == v)
                }
                #expect(seen == d.count && Set(t.allKeys()) == Set(d.keys))
            }
        }
    }
}

private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
