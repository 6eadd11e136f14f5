/// if-domain / unless-domain conditions without a DFA.
///
/// WebKit turns each domain into the regular expression
/// `[a-z][a-z+.-]*:\/\/` + (`([^/]*\.)*` for `*domain`) + domain + `[:/]` and matches those
/// against the top URL (`getDomainList` in ContentExtensionParser.cpp). Thousands of them in
/// one DFA make it large and slow to build, so a domain made only of characters that the
/// escaping leaves literal is matched here instead, with exactly that expression's meaning:
/// after any "://" preceded by a scheme-like run `[a-z][a-z+.-]*`, the domain must start right
/// there (or, for `*domain`, just after any "." before the next "/") and be followed by
/// ":" or "/". Each candidate is one hash lookup.
enum DomainConditionTable {
    /// Whether a domain can be matched here: no character that WebKit's escaping would leave
    /// as regular-expression syntax, no ":" or "/".
    static func isSimple(_ domain: String) -> Bool {
        domain.utf8.allSatisfy { c in
            !(c == UInt8(ascii: "+") || c == UInt8(ascii: "(") || c == UInt8(ascii: ")") || c == UInt8(ascii: "|")
              || c == UInt8(ascii: "^") || c == UInt8(ascii: "]") || c == UInt8(ascii: ":") || c == UInt8(ascii: "/"))
        }
    }

    /// The key of a domain: case-sensitivity, `*` or exact, then the domain.
    static func key(_ domain: some Collection<UInt8>, star: Bool, caseSensitive: Bool) -> [UInt8] {
        [caseSensitive ? UInt8(ascii: "C") : UInt8(ascii: "I"), star ? UInt8(ascii: "*") : UInt8(ascii: "=")] + domain
    }

    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        return h
    }

    /// Serializes `key -> rule ids` as an open-addressed table: `capacity`, then per slot
    /// (key string offset, rule list offset), 0 for an empty slot.
    static func build(_ entries: [[UInt8]: [UInt32]], into words: inout [UInt32]) -> UInt32 {
        guard !entries.isEmpty else { return 0 }
        var capacity = 4
        while capacity < entries.count * 2 { capacity <<= 1 }
        var slots = [(UInt32, UInt32)](repeating: (0, 0), count: capacity)
        for (key, rules) in entries.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            let keyOffset = UInt32(words.count)
            words.append(UInt32(key.count))
            var word: UInt32 = 0
            for (i, b) in key.enumerated() {
                word |= UInt32(b) << (8 * UInt32(i % 4))
                if i % 4 == 3 { words.append(word); word = 0 }
            }
            if key.count % 4 != 0 { words.append(word) }
            let listOffset = UInt32(words.count)
            words.append(UInt32(rules.count))
            words.append(contentsOf: rules)
            var slot = Int(key.withUnsafeBufferPointer(hash) & UInt64(capacity - 1))
            while slots[slot].0 != 0 { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = (keyOffset, listOffset)
        }
        let tableOffset = UInt32(words.count)
        words.append(UInt32(capacity))
        for s in slots { words.append(s.0); words.append(s.1) }
        return tableOffset
    }

    /// The host table's Bloom filter, right after the table: `w` (a power of 2), then `w`
    /// words; each key sets two bits of one word (`DFABytecode.bloomProbe` of its hash). Most
    /// lookups of the host index find nothing: the filter answers them with one load from a
    /// table of a few KB instead of a slot and a key string, two cache misses in tables of MBs.
    static func appendFilter(_ keys: [[UInt8]], into words: inout [UInt32]) {
        var w = 1024
        while w < keys.count && w < 1 << 18 { w <<= 1 }
        var bloom = [UInt32](repeating: 0, count: w)
        for key in keys {
            let (word, bits) = DFABytecode.bloomProbe(key.withUnsafeBufferPointer(hash), w)
            bloom[word] |= bits
        }
        words.append(UInt32(w))
        words.append(contentsOf: bloom)
    }

    static func validateFilter(_ words: UnsafeBufferPointer<UInt32>, table: Int) -> Bool {
        let at = table + 1 + 2 * Int(words[table])
        guard at < words.count else { return false }
        let w = Int(words[at])
        return w > 0 && w & (w - 1) == 0 && at + 1 + w <= words.count
    }

    /// The lists stored under the lowercased bytes of two keys (the host table's: the host
    /// after the scheme and after its first label), 0 for none; its filter first (most
    /// lookups end there, without a slot or key from a table of MBs), both filter words are loaded before either is tested, so that their misses
    /// overlap.
    @inline(__always)
    static func findFiltered(_ words: UnsafeBufferPointer<UInt32>, table: Int, lowercasing a: UnsafeBufferPointer<UInt8>,
                             and b: UnsafeBufferPointer<UInt8>?) -> (Int, Int) {
        guard let base = words.baseAddress else { return (0, 0) }
        var ha: UInt64 = 0xcbf2_9ce4_8422_2325
        for c in a { ha = (ha ^ UInt64(RequestURL.lower(c))) &* 0x0000_0100_0000_01B3 }
        var hb: UInt64 = 0xcbf2_9ce4_8422_2325
        if let b { for c in b { hb = (hb ^ UInt64(RequestURL.lower(c))) &* 0x0000_0100_0000_01B3 } }
        let capacity = Int(base[table])
        let filter = table &+ 1 &+ 2 &* capacity
        let w = Int(base[filter])
        let (wordA, bitsA) = DFABytecode.bloomProbe(ha, w)
        let (wordB, bitsB) = DFABytecode.bloomProbe(hb, w)
        let fa = base[filter &+ 1 &+ wordA], fb = base[filter &+ 1 &+ wordB]
        let la = fa & bitsA == bitsA ? slotSearch(base, table: table, capacity: capacity, hash: ha, key: a) : 0
        guard let b, fb & bitsB == bitsB else { return (la, 0) }
        return (la, slotSearch(base, table: table, capacity: capacity, hash: hb, key: b))
    }

    @inline(__always)
    static func slotSearch(_ base: UnsafePointer<UInt32>, table: Int, capacity: Int, hash h: UInt64, key: UnsafeBufferPointer<UInt8>) -> Int {
        var slot = Int(h & UInt64(capacity - 1))
        while true {
            let keyOffset = Int(base[table &+ 1 &+ 2 &* slot])
            if keyOffset == 0 { return 0 }
            if Int(base[keyOffset]) == key.count {
                let stored = UnsafeRawPointer(base + keyOffset + 1).assumingMemoryBound(to: UInt8.self)
                var same = true
                for i in 0..<key.count where stored[i] != RequestURL.lower(key[i]) { same = false; break }
                if same { return Int(base[table &+ 2 &+ 2 &* slot]) }
            }
            slot = (slot &+ 1) & (capacity &- 1)
        }
    }

    /// Checks a table read from a file.
    /// With `tailCount`, the lists are (tail, rule) pairs (the host table).
    static func validate(_ words: UnsafeBufferPointer<UInt32>, at offset: Int, ruleCount: Int, tailCount: Int? = nil) -> Bool {
        guard offset > 0, offset < words.count else { return false }
        let capacity = Int(words[offset])
        guard capacity > 0, capacity & (capacity - 1) == 0, offset + 1 + 2 * capacity <= words.count else { return false }
        for i in 0..<capacity {
            let k = Int(words[offset + 1 + 2 * i]), l = Int(words[offset + 2 + 2 * i])
            if k == 0 { continue }
            guard k < words.count, k + 1 + (Int(words[k]) + 3) / 4 <= words.count, l > 0, l < words.count else { return false }
            let n = Int(words[l])
            guard n > 0, l + n < words.count else { return false }
            if let tailCount {
                guard n % 2 == 0 else { return false }
                for j in stride(from: 1, to: n, by: 2) {
                    guard Int(words[l + j] & ~HostIndex.separatorTailBit) <= tailCount, Int(words[l + j + 1]) < ruleCount else { return false }
                }
                continue
            }
            for j in 1...n where Int(words[l + j]) >= ruleCount { return false }
        }
        return true
    }

    /// Calls `found` with the rules whose domain condition matches `url`.
    static func match(_ words: UnsafeBufferPointer<UInt32>, table: Int, url original: UnsafeBufferPointer<UInt8>,
                      scratch: inout [UInt8], key keyScratch: inout [UInt8], _ found: (UInt32) -> Void) {
        func lookup(_ domain: ArraySlice<UInt8>, star: Bool, caseSensitive: Bool) {
            keyScratch.removeAll(keepingCapacity: true)
            keyScratch.append(caseSensitive ? UInt8(ascii: "C") : UInt8(ascii: "I"))
            keyScratch.append(star ? UInt8(ascii: "*") : UInt8(ascii: "="))
            keyScratch.append(contentsOf: domain)
            keyScratch.withUnsafeBufferPointer { DomainConditionTable.lookup(words, table: table, key: $0, found) }
        }
        for caseSensitive in [false, true] {
            scratch.removeAll(keepingCapacity: true)
            scratch.append(contentsOf: original)
            if !caseSensitive {
                for i in scratch.indices where scratch[i] >= 0x41 && scratch[i] <= 0x5A { scratch[i] += 0x20 }
            }
            let t = scratch
            let n = t.count
            var q = 3
            while q <= n {
                defer { q += 1 }
                guard t[q - 3] == UInt8(ascii: ":"), t[q - 2] == UInt8(ascii: "/"), t[q - 1] == UInt8(ascii: "/") else { continue }
                // [a-z][a-z+.-]* right before "://".
                var j = q - 4
                var letter = false
                while j >= 0 {
                    let c = t[j]
                    let isLower = c >= 0x61 && c <= 0x7A
                    guard isLower || c == UInt8(ascii: "+") || c == UInt8(ascii: ".") || c == UInt8(ascii: "-") else { break }
                    if isLower { letter = true }
                    j -= 1
                }
                guard letter else { continue }
                var slash = q
                while slash < n && t[slash] != UInt8(ascii: "/") { slash += 1 }
                func candidate(_ r: Int, exactToo: Bool) {
                    var e = r
                    while e < n && t[e] != UInt8(ascii: ":") && t[e] != UInt8(ascii: "/") { e += 1 }
                    guard e < n else { return }
                    let domain = t[r..<e]
                    lookup(domain, star: true, caseSensitive: caseSensitive)
                    if exactToo { lookup(domain, star: false, caseSensitive: caseSensitive) }
                }
                candidate(q, exactToo: true)
                var k = q
                while k < slash {
                    if t[k] == UInt8(ascii: ".") { candidate(k + 1, exactToo: false) }
                    k += 1
                }
            }
        }
    }

    /// The word offset of the list stored under the lowercased bytes of `key` (count, then
    /// the rule ids), 0 when none.
    @inline(__always)
    static func find(_ words: UnsafeBufferPointer<UInt32>, table: Int, lowercasing key: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = words.baseAddress else { return 0 }
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in key { h = (h ^ UInt64(RequestURL.lower(b))) &* 0x0000_0100_0000_01B3 }
        let capacity = Int(words[table])
        var slot = Int(h & UInt64(capacity - 1))
        while true {
            let keyOffset = Int(words[table + 1 + 2 * slot])
            if keyOffset == 0 { return 0 }
            if Int(words[keyOffset]) == key.count {
                let stored = UnsafeRawPointer(base + keyOffset + 1).assumingMemoryBound(to: UInt8.self)
                var same = true
                for i in 0..<key.count where stored[i] != RequestURL.lower(key[i]) { same = false; break }
                if same { return Int(words[table + 2 + 2 * slot]) }
            }
            slot = (slot + 1) & (capacity - 1)
        }
    }

    /// Calls `found` with the rules stored under `key`.
    static func lookup(_ words: UnsafeBufferPointer<UInt32>, table: Int, key k: UnsafeBufferPointer<UInt8>, _ found: (UInt32) -> Void) {
        guard let base = words.baseAddress else { return }
        let capacity = Int(words[table])
        var slot = Int(hash(k) & UInt64(capacity - 1))
        while true {
            let keyOffset = Int(words[table + 1 + 2 * slot])
            if keyOffset == 0 { return }
            let length = Int(words[keyOffset])
            if length == k.count {
                let stored = UnsafeRawPointer(base + keyOffset + 1).assumingMemoryBound(to: UInt8.self)
                if memcmpEqual(stored, k.baseAddress, length) {
                    let l = Int(words[table + 2 + 2 * slot])
                    for j in 1...Int(words[l]) { found(words[l + j]) }
                    return
                }
            }
            slot = (slot + 1) & (capacity - 1)
        }
    }

    @inline(__always) static func memcmpEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>?, _ n: Int) -> Bool {
        guard let b else { return n == 0 }
        for i in 0..<n where a[i] != b[i] { return false }
        return true
    }
}
