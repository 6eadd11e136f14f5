// An open-addressing hash table from property keys (atom or symbol cell pointers) to
// property entries. Keys are pointers, so hashing is one multiply; Swift's `Dictionary`
// (SipHash per lookup) cost more than the rest of an uncached property access.

/// Key -> (slot, attributes). Linear probing, power-of-two capacity, tombstones on removal.
final class PropertyTable {
    private static let emptyKey: UInt64 = 0
    private static let deletedKey: UInt64 = 1

    private(set) var count = 0
    private var used = 0          // live + tombstones
    private var mask = 0
    private var keys: UnsafeMutablePointer<UInt64>
    private var slots: UnsafeMutablePointer<Int32>
    private var attrs: UnsafeMutablePointer<UInt8>

    init(minimumCapacity: Int = 8) {
        var cap = 8
        while cap < minimumCapacity * 2 { cap <<= 1 }
        mask = cap - 1
        keys = .allocate(capacity: cap)
        keys.initialize(repeating: PropertyTable.emptyKey, count: cap)
        slots = .allocate(capacity: cap)
        attrs = .allocate(capacity: cap)
    }

    deinit {
        keys.deallocate()
        slots.deallocate()
        attrs.deallocate()
    }

    /// The bytes of its three arrays (and the object), for the heap's external count.
    var byteSize: Int { (mask + 1) * 13 + 64 }
    /// Whether adding a new key makes the table twice as big.
    var growsOnNextInsert: Bool { (used + 1) * 4 >= (mask + 1) * 3 }

    func copy() -> PropertyTable {
        let t = PropertyTable(minimumCapacity: count)
        forEach { k, e in t[k] = e }
        return t
    }

    @inline(__always) private func hashIndex(_ bits: UInt64) -> Int {
        Int(truncatingIfNeeded: ((bits >> 3) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    subscript(key: PropertyKey) -> PropertyEntry? {
        get {
            var i = hashIndex(key.bits)
            while true {
                let k = keys[i]
                if k == key.bits { return PropertyEntry(slot: Int(slots[i]), attributes: PropertyAttributes(rawValue: attrs[i])) }
                if k == PropertyTable.emptyKey { return nil }
                i = (i + 1) & mask
            }
        }
        set {
            guard let e = newValue else { removeValue(forKey: key); return }
            var i = hashIndex(key.bits)
            var tomb = -1
            while true {
                let k = keys[i]
                if k == key.bits {
                    slots[i] = Int32(e.slot); attrs[i] = e.attributes.rawValue
                    return
                }
                if k == PropertyTable.emptyKey { break }
                if k == PropertyTable.deletedKey && tomb < 0 { tomb = i }
                i = (i + 1) & mask
            }
            if tomb >= 0 { i = tomb } else { used += 1 }
            keys[i] = key.bits; slots[i] = Int32(e.slot); attrs[i] = e.attributes.rawValue
            count += 1
            if used * 4 >= (mask + 1) * 3 { rehash() }
        }
    }

    func removeValue(forKey key: PropertyKey) {
        var i = hashIndex(key.bits)
        while true {
            let k = keys[i]
            if k == key.bits { keys[i] = PropertyTable.deletedKey; count -= 1; return }
            if k == PropertyTable.emptyKey { return }
            i = (i + 1) & mask
        }
    }

    func forEach(_ body: (PropertyKey, PropertyEntry) -> Void) {
        for i in 0...mask where keys[i] > PropertyTable.deletedKey {
            body(PropertyKey(cell: UnsafeMutableRawPointer(bitPattern: UInt(keys[i]))!),
                 PropertyEntry(slot: Int(slots[i]), attributes: PropertyAttributes(rawValue: attrs[i])))
        }
    }

    private func rehash() {
        let oldKeys = keys, oldSlots = slots, oldAttrs = attrs, oldCap = mask + 1
        var cap = oldCap
        while count * 2 >= cap { cap <<= 1 }
        mask = cap - 1
        keys = .allocate(capacity: cap)
        keys.initialize(repeating: PropertyTable.emptyKey, count: cap)
        slots = .allocate(capacity: cap)
        attrs = .allocate(capacity: cap)
        count = 0
        used = 0
        for i in 0..<oldCap where oldKeys[i] > PropertyTable.deletedKey {
            var j = hashIndex(oldKeys[i])
            while keys[j] != PropertyTable.emptyKey { j = (j + 1) & mask }
            keys[j] = oldKeys[i]; slots[j] = oldSlots[i]; attrs[j] = oldAttrs[i]
            count += 1
            used += 1
        }
        oldKeys.deallocate(); oldSlots.deallocate(); oldAttrs.deallocate()
    }
}

/// An open-addressing map between two 64-bit words (cell pointers), for the runtime's
/// side tables (e.g. prototype -> initial shape). Zero is not a valid key.
struct WordMap {
    private var keys: UnsafeMutablePointer<UInt64>
    private var values: UnsafeMutablePointer<UInt64>
    private var mask: Int
    private(set) var count = 0

    init() {
        mask = 15
        keys = .allocate(capacity: 16)
        keys.initialize(repeating: 0, count: 16)
        values = .allocate(capacity: 16)
    }

    @inline(__always) private func index(_ k: UInt64) -> Int {
        Int(truncatingIfNeeded: ((k >> 3) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    func get(_ k: UInt64) -> UInt64? {
        var i = index(k)
        while true {
            let x = keys[i]
            if x == k { return values[i] }
            if x == 0 { return nil }
            i = (i + 1) & mask
        }
    }

    mutating func set(_ k: UInt64, _ v: UInt64) {
        var i = index(k)
        while keys[i] != 0 && keys[i] != k { i = (i + 1) & mask }
        if keys[i] == 0 { count += 1 }
        keys[i] = k
        values[i] = v
        if count * 2 > mask { rebuild(capacity: (mask + 1) * 2, keep: { _, _ in true }) }
    }

    /// Removes `k` (backward-shift deletion keeps every probe chain intact).
    mutating func remove(_ k: UInt64) {
        var i = index(k)
        while keys[i] != k {
            if keys[i] == 0 { return }
            i = (i + 1) & mask
        }
        var j = i
        while true {
            j = (j + 1) & mask
            if keys[j] == 0 { break }
            let h = index(keys[j])
            // Entry j may stay if its home slot h lies cyclically in (i, j].
            let stays = i <= j ? (i < h && h <= j) : (i < h || h <= j)
            if stays { continue }
            keys[i] = keys[j]
            values[i] = values[j]
            i = j
        }
        keys[i] = 0
        count -= 1
    }

    /// Frees the storage (a struct has no deinit; owners call this once).
    func deallocate() {
        keys.deallocate()
        values.deallocate()
    }

    /// Drops every entry for which `keep` is false (backward-shift free: rebuilds).
    mutating func filter(_ keep: (UInt64, UInt64) -> Bool) {
        var cap = 16
        while cap < count * 2 { cap <<= 1 }
        rebuild(capacity: max(cap, 16), keep: keep)
    }

    private mutating func rebuild(capacity: Int, keep: (UInt64, UInt64) -> Bool) {
        let oldKeys = keys, oldValues = values, oldCap = mask + 1
        mask = capacity - 1
        keys = .allocate(capacity: capacity)
        keys.initialize(repeating: 0, count: capacity)
        values = .allocate(capacity: capacity)
        count = 0
        for i in 0..<oldCap where oldKeys[i] != 0 && keep(oldKeys[i], oldValues[i]) {
            var j = index(oldKeys[i])
            while keys[j] != 0 { j = (j + 1) & mask }
            keys[j] = oldKeys[i]
            values[j] = oldValues[i]
            count += 1
        }
        oldKeys.deallocate()
        oldValues.deallocate()
    }
}
