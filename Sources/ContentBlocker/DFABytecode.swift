/// The serialized form of one DFA and its interpreter (WebKit's `DFABytecodeCompiler` and
/// `DFABytecodeInterpreter`, in our own encoding): an array of 32-bit words.
///
///     word 0: number of states   word 1: number of words   word 2: number of byte classes
///     words 3-34: the class of each byte 0...127 (one byte each)
///     word 35: bit 31 = starts anywhere (see below); bits 0-30 = word offset of its
///              start filter, 0 for none; without bit 31, the offset of the gram filter of
///              a gated DFA (`runGated`), 0 for none
///     words 36, 37: the state after "http://" and after "https://" from the start (0 when a
///              state on the way has actions, `dead` when the walk dies), so that a walk from
///              the start of a web URL skips its scheme
///     then each state: the first `denseBudgetWords` of them in breadth-first order from the
///     root, the others depth first (a walk down a long filter reads consecutive words):
///       header: bits 0-7 = n (byte ranges), bit 8 = dense, bit 9 = has actions,
///               bit 10 = has a fallback state, bit 11 = sink (every byte 1...127 leads
///               back to this state: the interpreter jumps to the end marker)
///       [actions: word offset of a list `count, (rule id, rule flags)…`]   when bit 9
///       dense:  one word per byte class, the target of the class
///       sparse: [fallback state]                                  when bit 10
///               n pairs (lo | hi << 8, target)
///
/// A byte outside a sparse state's ranges goes where the fallback state sends it (looked up
/// again from there), or nowhere (`dead`) without one. The fallback of a state is the state
/// of its longest proper suffix (Aho–Corasick's failure state, found from the DFA itself), so
/// a state of a combined automaton of many filters lists only the few bytes where it differs;
/// fallbacks are always earlier in the layout, so a lookup ends. Targets are
/// word offsets of states inside the DFA.
///
/// A DFA that *starts anywhere* holds filters that may begin at any position of the URL (a
/// url-filter without `^`) without the leading `.*` loop: a prefix tree, walked from each
/// position where a match can begin (`runAnywhere`). Instead of one walk over every byte of
/// the URL through an Aho–Corasick automaton (a dependent memory load per byte, most of them
/// cache misses on a large list), the *start filter* — three bit sets over byte classes: U
/// (a match of one byte begins with this class), B (a match of two bytes, or a live path of
/// two), T (a live path of three) — rejects most positions with a few loads from 24 KB that
/// stay in the first-level cache; on easybase about 8 of 95 positions are walked, a few
/// states each. After the bits, a hash table maps each live 3-gram of classes to the state it
/// leads to (`capacity`, then pairs `3-gram + 1, state`), so a walk starts 3 bytes in: three
/// dependent loads of states fewer per walk. After the table, the *gram filter*
/// (`gramFilter`): a Bloom filter of the first ten classes of every walk that can match, so
/// that a walk that would die within ten states (most do) is not made.
enum DFABytecode {
    static let dead: UInt32 = 0xFFFF_FFFF
    static let headerWords = 38
    static let startsAnywhere: UInt32 = 1 << 31
    static let denseThreshold = 10
    /// The first states in breadth-first order (the shallow ones, where a walk over a URL
    /// spends most of its steps) are dense while their rows fit in this many words: one load
    /// a byte, no range search, no fallback hop.
    static let denseBudgetWords = 1 << 11

    static func ranges(_ row: [Int32], differingFrom base: [Int32]?) -> [(UInt8, UInt8, Int32)] {
        var out: [(UInt8, UInt8, Int32)] = []
        var b = 0
        while b < 128 {
            let t = row[b]
            let differs = base.map { $0[b] != t } ?? (t >= 0)
            if !differs { b += 1; continue }
            var e = b
            while e + 1 < 128 && row[e + 1] == t && (base.map { $0[e + 1] != t } ?? true) { e += 1 }
            out.append((UInt8(b), UInt8(e), t))
            b = e + 1
        }
        return out
    }

    /// `flagsOf` gives the word stored next to each rule id (the rule's trigger flags, so a
    /// matcher can refuse most candidates without touching the rule table).
    static func encode(_ dfa: DFA, startsAnywhere anywhere: Bool = false, gated: Bool = false,
                       flagsOf: (UInt32) -> UInt32 = { _ in 0 }) -> [UInt32] {
        let n = dfa.stateCount
        let c = dfa.classCount
        func row(_ s: Int) -> [Int32] { (0..<128).map { dfa.transitions[s * c + Int(dfa.classOf[$0])] } }
        // Breadth-first order, each state's parent and byte, and its suffix (failure) state.
        var order: [Int] = [0]
        var position = [Int](repeating: -1, count: n)
        position[0] = 0
        var suffix = [Int](repeating: 0, count: n)
        var parent = [Int](repeating: 0, count: n)
        var head = 0
        while head < order.count {
            let s = order[head]; head += 1
            for b in 0..<128 {
                let t = Int(dfa.transitions[s * c + Int(dfa.classOf[b])])
                guard t >= 0, position[t] < 0 else { continue }
                position[t] = order.count
                order.append(t)
                parent[t] = s
                if s == 0 { suffix[t] = 0 } else {
                    let f = Int(dfa.transitions[suffix[s] * c + Int(dfa.classOf[b])])
                    suffix[t] = f >= 0 && position[f] >= 0 && position[f] < position[t] ? f : 0
                }
            }
        }
        // Layout: the shallow states (the dense budget's worth) in breadth-first order, then
        // the others depth first, so that a walk down a chain of deep states (a long filter
        // past the point where it parted from the others) reads consecutive words instead
        // of one cache line per state.
        let shallow = min(order.count, denseBudgetWords / c)
        var layout = Array(order[0..<shallow])
        var placed = [Bool](repeating: false, count: n)
        for s in layout { placed[s] = true }
        if shallow < order.count {
            var visited = [Bool](repeating: false, count: n)
            var stack = [0]
            visited[0] = true
            while let s = stack.popLast() {
                if !placed[s] { placed[s] = true; layout.append(s) }
                for k in (0..<c).reversed() {
                    let t = Int(dfa.transitions[s * c + k])
                    if t >= 0 && !visited[t] { visited[t] = true; stack.append(t) }
                }
            }
        }
        var at = [Int](repeating: -1, count: n)
        for (i, s) in layout.enumerated() { at[s] = i }
        // Shapes and offsets.
        struct Shape { var dense: Bool; var fallback: Int?; var ranges: [(UInt8, UInt8, Int32)] }
        var shapes = [Shape](repeating: Shape(dense: false, fallback: nil, ranges: []), count: n)
        var offsets = [UInt32](repeating: DFABytecode.dead, count: n)
        var cursor = UInt32(headerWords)
        for s in layout {
            let r = row(s)
            let plain = ranges(r, differingFrom: nil)
            var shape = Shape(dense: false, fallback: nil, ranges: plain)
            if s != 0 && plain.count > 2 {
                // Candidates: the suffix (failure) state, which fits automata of filters that
                // start anywhere, and the parent, which fits loops such as `([a-z0-9-]+\.)?`.
                // A fallback is earlier in the layout (a lookup ends).
                for f in [suffix[s], parent[s]] where at[f] < at[s] {
                    let viaFallback = ranges(r, differingFrom: row(f))
                    if viaFallback.count + 1 < shape.ranges.count + (shape.fallback == nil ? 0 : 1) {
                        shape = Shape(dense: false, fallback: f, ranges: viaFallback)
                    }
                }
            }
            if shape.ranges.count > denseThreshold || (position[s] < denseBudgetWords / c && shape.ranges.count > 1) {
                shape = Shape(dense: true, fallback: nil, ranges: [])
            }
            shapes[s] = shape
            offsets[s] = cursor
            cursor += 1 + (dfa.actions[s].isEmpty ? 0 : 1)
                + (shape.dense ? UInt32(c) : (shape.fallback == nil ? 0 : 1) + 2 * UInt32(shape.ranges.count))
        }
        var listOffsets: [[UInt32]: UInt32] = [:]
        var lists: [UInt32] = []
        for s in layout where !dfa.actions[s].isEmpty {
            if listOffsets[dfa.actions[s]] == nil {
                listOffsets[dfa.actions[s]] = cursor + UInt32(lists.count)
                lists.append(UInt32(dfa.actions[s].count))
                for id in dfa.actions[s] { lists.append(id); lists.append(flagsOf(id)) }
            }
        }
        var code: [UInt32] = [UInt32(layout.count), 0, UInt32(c)]
        for w in 0..<32 {
            var word: UInt32 = 0
            for i in 0..<4 { word |= UInt32(dfa.classOf[4 * w + i]) << (8 * UInt32(i)) }
            code.append(word)
        }
        code.append(0)  // word 35, set below
        // Words 36 and 37: the scheme walked ahead of time.
        for scheme in ["http://", "https://"] {
            var state = 0
            var word: UInt32 = 0
            for (k, byte) in scheme.utf8.enumerated() {
                if !dfa.actions[state].isEmpty { word = 0; state = -1; break }
                let t = Int(dfa.transitions[state * c + Int(dfa.classOf[Int(byte)])])
                if t < 0 { word = dead; state = -1; break }
                state = t
                if k == scheme.utf8.count - 1 { word = offsets[state] }
            }
            code.append(word)
        }
        code.reserveCapacity(Int(cursor) + lists.count)
        func target(_ t: Int32) -> UInt32 { t < 0 ? dead : offsets[Int(t)] }
        for s in layout {
            let shape = shapes[s]
            let hasActions = !dfa.actions[s].isEmpty
            let sink = (1..<128).allSatisfy { Int(dfa.transitions[s * c + Int(dfa.classOf[$0])]) == s }
            code.append(UInt32(shape.ranges.count) | (shape.dense ? 0x100 : 0) | (hasActions ? 0x200 : 0)
                        | (shape.fallback != nil ? 0x400 : 0) | (sink ? 0x800 : 0))
            if hasActions { code.append(listOffsets[dfa.actions[s]] ?? 0) }
            if shape.dense {
                for k in 0..<c { code.append(target(dfa.transitions[s * c + k])) }
            } else {
                if let f = shape.fallback { code.append(offsets[f]) }
                for r in shape.ranges {
                    code.append(UInt32(r.0) | UInt32(r.1) << 8)
                    code.append(target(r.2))
                }
            }
        }
        code.append(contentsOf: lists)
        code[35] = 0
        if anywhere {
            code[35] = startsAnywhere
            // A start state that accepts (a filter matching the empty string) would need every
            // position: no filter then.
            if dfa.actions[0].isEmpty {
                code[35] |= UInt32(code.count)
                let (bits, grams) = startFilter(dfa)
                code.append(contentsOf: bits)
                var capacity = 16
                while capacity < 2 * grams.count { capacity <<= 1 }
                var slots = [UInt32](repeating: 0, count: 2 * capacity)
                for (gram, state) in grams {
                    var slot = jumpSlot(UInt32(gram), capacity)
                    while slots[2 * slot] != 0 { slot = (slot + 1) & (capacity - 1) }
                    slots[2 * slot] = UInt32(gram + 1)
                    slots[2 * slot + 1] = offsets[state]
                }
                code.append(UInt32(capacity))
                code.append(contentsOf: slots)
                code.append(contentsOf: gramFilter(dfa))
            }
        } else if gated && !acceptsWithinTwo(dfa) {
            // A DFA walked from given places (`runGated`): its gram filter decides, from the
            // bytes there, whether the walk can match; word 35 gives where it is.
            code[35] = UInt32(code.count)
            code.append(contentsOf: gramFilter(dfa))
        }
        code[1] = UInt32(code.count)
        return code
    }

    /// The start filter's words for a DFA of `c` classes: bit k0 (U), c + k0*c + k1 (B),
    /// c + c*c + (k0*c + k1)*c + k2 (T).
    static func startBitWords(_ c: Int) -> Int { (c + c * c + c * c * c + 31) / 32 }
    /// The bits, then a byte per pair of classes: bit 0 = U or B (walk from the start), bit
    /// 1 = some live T (look at the third class).
    static func startFilterWords(_ c: Int) -> Int { startBitWords(c) + (c * c + 3) / 4 }

    @inline(__always) static func jumpSlot(_ gram: UInt32, _ capacity: Int) -> Int {
        Int((gram &* 2_654_435_761) >> 11) & (capacity - 1)
    }

    /// How many classes from a walk's start the gram filter looks at.
    static let gramDepth = 10
    /// The most keys one 3-gram may add to the gram filter; a 3-gram with more is walked
    /// whenever it occurs (flag A).
    static let gramBudget = 4096

    @inline(__always) static func startGram(_ gram: Int) -> UInt64 { UInt64(gram) &+ 0xcbf2_9ce4_8422_2325 }
    @inline(__always) static func extendGram(_ key: UInt64, _ k: Int) -> UInt64 { (key ^ UInt64(k)) &* 0x0000_0100_0000_01B3 }
    /// The key of a path that ends in an accepting state before `gramDepth` classes.
    @inline(__always) static func terminal(_ key: UInt64) -> UInt64 { key ^ 0x6A09_E667_F3BC_C909 }
    /// Words of the gram filter's flags: two bits per 3-gram of classes.
    @inline(__always) static func gramFlagWords(_ c: Int) -> Int { (2 &* c &* c &* c &+ 31) / 32 }

    /// The gram filter (after the jump table of a DFA that starts anywhere; at word 35 of a
    /// gated one): two bits per 3-gram of classes, a value — 0: no walk through it can match
    /// (no path, or no key), 1: walk every occurrence (a match ends at three bytes, or too
    /// many paths follow), 2: probe its live keys, 3: its terminal keys too (some path of it
    /// accepts within `gramDepth` bytes) — then `w`, the number of Bloom words (a power of 2),
    /// and the words. For every 3-gram of value 2 or 3, each path of `gramDepth` classes from the
    /// start (a *live* key) and each shorter path that ends in an accepting state (a
    /// *terminal* key) sets two bits of one word (`gramProbe`). A walk can only match if its
    /// first `gramDepth` classes are a live key or begin with a terminal one, so a walk whose
    /// keys are not in the filter is not made: most walks stop within the first ten states,
    /// each a likely cache miss, and the filter is a few loads from a table of a few KB.
    static func gramFilter(_ dfa: DFA) -> [UInt32] {
        let c = dfa.classCount
        var flags = [UInt32](repeating: 0, count: gramFlagWords(c))
        var keys: [UInt64] = []
        var keyGrams: [Int] = []  // the 3-gram of each run of keys: (gram, end index)
        var keyEnds: [Int] = []
        let t = dfa.transitions
        func accepts(_ s: Int) -> Bool { !dfa.actions[s].isEmpty }
        var budgetLeft = 4_000_000
        for k0 in 0..<c {
            let s1 = Int(t[k0]); if s1 < 0 { continue }
            for k1 in 0..<c {
                let s2 = Int(t[s1 * c + k1]); if s2 < 0 { continue }
                for k2 in 0..<c {
                    let s3 = Int(t[s2 * c + k2]); if s3 < 0 { continue }
                    let gram = (k0 * c + k1) * c + k2
                    var always = accepts(s3) || budgetLeft <= 0
                    var terminals = false
                    let start = keys.count
                    var visits = 0
                    if !always {
                        // Depth-first over the next classes, up to `gramDepth` from the start.
                        func visit(_ state: Int, _ depth: Int, _ key: UInt64) -> Bool {
                            visits += 1
                            if visits > 64 * gramBudget { return false }
                            for k in 0..<c {
                                let next = Int(t[state * c + k]); if next < 0 { continue }
                                if keys.count - start >= gramBudget { return false }
                                let extended = extendGram(key, k)
                                if depth + 1 == gramDepth { keys.append(extended); continue }
                                if accepts(next) { keys.append(terminal(extended)); terminals = true }
                                if !visit(next, depth + 1, extended) { return false }
                            }
                            return true
                        }
                        always = !visit(s3, 3, startGram(gram))
                    }
                    if always {
                        keys.removeSubrange(start...)
                        flags[gram >> 4] |= 1 << UInt32((gram & 15) << 1)
                    } else if keys.count > start {
                        // 2: live keys only, 3: terminal keys too. (A 3-gram without keys
                        // cannot begin a match: 0, as a 3-gram no walk follows.)
                        flags[gram >> 4] |= (terminals ? 3 : 2) << UInt32((gram & 15) << 1)
                        budgetLeft -= keys.count - start
                        keyGrams.append(gram)
                        keyEnds.append(keys.count)
                    }
                }
            }
        }
        var w = 1024
        while w < keys.count / 2 && w < 1 << 17 { w <<= 1 }
        var bloom = [UInt32](repeating: 0, count: w)
        var from = 0
        for (gram, end) in zip(keyGrams, keyEnds) {
            let block = gramBlock(gram, w)
            for key in keys[from..<end] {
                let (word, bits) = gramProbe(key, block: block)
                bloom[word] |= bits
            }
            from = end
        }
        return flags + [UInt32(w)] + bloom
    }

    /// The 16-word block (one cache line) of a 3-gram's keys in a gram filter of `words`
    /// words: every probe made for one position loads the same line.
    @inline(__always) static func gramBlock(_ gram: Int, _ words: Int) -> Int {
        (Int(truncatingIfNeeded: (UInt64(gram) &* 0x9E37_79B9_7F4A_7C15) >> 32) & ((words >> 4) &- 1)) << 4
    }

    /// The word of a key in its 3-gram's block, and its two bits.
    @inline(__always) static func gramProbe(_ key: UInt64, block: Int) -> (Int, UInt32) {
        let h = key &* 0x9E37_79B9_7F4A_7C15
        let word = block | (Int(truncatingIfNeeded: h >> 40) & 15)
        let bits = (1 as UInt32) << UInt32((h >> 20) & 31) | (1 as UInt32) << UInt32((h >> 26) & 31)
        return (word, bits)
    }

    /// The Bloom word of a key and its two bits (the host table's filter).
    @inline(__always) static func bloomProbe(_ key: UInt64, _ words: Int) -> (Int, UInt32) {
        let h = key &* 0x9E37_79B9_7F4A_7C15
        let word = Int(truncatingIfNeeded: h >> 32) & (words &- 1)
        let bits = (1 as UInt32) << UInt32((h >> 20) & 31) | (1 as UInt32) << UInt32((h >> 26) & 31)
        return (word, bits)
    }

    /// Whether the gram filter at `filter` admits a walk whose first `gramDepth` classes are
    /// `window` (the end marker's class past the end of the URL).
    @inline(__always)
    static func gramAdmits(_ filter: UnsafePointer<UInt32>, _ c: Int, _ window: UnsafePointer<UInt8>) -> Bool {
        let gram = (Int(window[0]) &* c &+ Int(window[1])) &* c &+ Int(window[2])
        let f = (filter[gram >> 4] >> UInt32((gram & 15) << 1)) & 3
        if f < 2 { return f == 1 }
        return gramKeysAdmit(filter, c, gram, f, window)
    }

    /// The Bloom probes of `gramAdmits` for a 3-gram with keys (flag `f`: 2 or 3).
    @inline(__always)
    static func gramKeysAdmit(_ filter: UnsafePointer<UInt32>, _ c: Int, _ gram: Int, _ f: UInt32, _ window: UnsafePointer<UInt8>) -> Bool {
        let fw = gramFlagWords(c)
        let block = gramBlock(gram, Int(filter[fw]))
        let bloom = filter + fw + 1
        var key = startGram(gram)
        for d in 3..<gramDepth {
            key = extendGram(key, Int(window[d]))
            if f == 3 && d + 1 < gramDepth {
                let (w, p) = gramProbe(terminal(key), block: block)
                if bloom[w] & p == p { return true }
            }
        }
        let (w, p) = gramProbe(key, block: block)
        return bloom[w] & p == p
    }

    /// Whether the start state, or one a byte or two from it, accepts.
    static func acceptsWithinTwo(_ dfa: DFA) -> Bool {
        let c = dfa.classCount
        if !dfa.actions[0].isEmpty { return true }
        for k0 in 0..<c {
            let s1 = Int(dfa.transitions[k0]); if s1 < 0 { continue }
            if !dfa.actions[s1].isEmpty { return true }
            for k1 in 0..<c {
                let s2 = Int(dfa.transitions[s1 * c + k1])
                if s2 >= 0 && !dfa.actions[s2].isEmpty { return true }
            }
        }
        return false
    }

    /// `run` from `start`, for a DFA walked from given places (the host-prefix DFAs): first
    /// its gram filter (when it has one) over the bytes there, so most walks that could not
    /// match are not made.
    @inline(__always)
    static func runGated(_ code: UnsafePointer<UInt32>, _ url: UnsafeBufferPointer<UInt8>, from start: Int,
                         _ found: (UInt32, UInt32) -> Void) {
        let mode = code[35]
        if mode != 0 && mode & startsAnywhere == 0 && !mayMatch(code, url, from: start, filter: Int(mode)) { return }
        run(code, url, from: start, found)
    }

    /// Whether the gram filter at `filter` admits a walk from `start` (true when a byte
    /// there is not ASCII: the filter is over classes of ASCII bytes).
    @inline(__always)
    static func mayMatch(_ code: UnsafePointer<UInt32>, _ url: UnsafeBufferPointer<UInt8>, from start: Int, filter: Int) -> Bool {
        let c = Int(code[2])
        let classes = UnsafeRawPointer(code + 3).assumingMemoryBound(to: UInt8.self)
        let n = url.count
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: gramDepth) { window in
            for d in 0..<gramDepth {
                let j = start &+ d
                var k = classes[0]  // past the end: the end marker's class
                if j < n {
                    let b = url[j]
                    if b >= 128 { return true }
                    k = classes[Int(b)]
                }
                window[d] = k
            }
            return gramAdmits(code + filter, c, UnsafePointer(window.baseAddress!))
        }
    }

    /// The start filter's bits, and each live 3-gram of classes with the state it leads to.
    static func startFilter(_ dfa: DFA) -> ([UInt32], [(Int, Int)]) {
        let c = dfa.classCount
        var grams: [(Int, Int)] = []
        var bits = [UInt32](repeating: 0, count: startFilterWords(c))
        func set(_ i: Int) { bits[i >> 5] |= 1 << UInt32(i & 31) }
        func setPair(_ pair: Int, _ flag: UInt32) { bits[startBitWords(c) + pair / 4] |= flag << (8 * UInt32(pair % 4)) }
        for k0 in 0..<c {
            let s1 = Int(dfa.transitions[k0])
            if s1 < 0 { continue }
            if !dfa.actions[s1].isEmpty { set(k0) }
            for k1 in 0..<c {
                if !dfa.actions[s1].isEmpty { setPair(k0 * c + k1, 1) }
                let s2 = Int(dfa.transitions[s1 * c + k1])
                if s2 < 0 { continue }
                if !dfa.actions[s2].isEmpty { set(c + k0 * c + k1); setPair(k0 * c + k1, 1) }
                for k2 in 0..<c where dfa.transitions[s2 * c + k2] >= 0 {
                    setPair(k0 * c + k1, 2)
                    set(c + c * c + (k0 * c + k1) * c + k2)
                    grams.append(((k0 * c + k1) * c + k2, Int(dfa.transitions[s2 * c + k2])))
                }
            }
        }
        return (bits, grams)
    }

    /// Checks that a DFA read from a file is well formed: every target, fallback and list
    /// inside it, fallbacks earlier than their state, so that the interpreter, which checks
    /// nothing, can neither leave the buffer nor loop.
    static func validate(_ code: UnsafeBufferPointer<UInt32>, ruleCount: Int) -> Bool {
        guard code.count >= headerWords + 2, Int(code[1]) == code.count else { return false }
        let n = Int(code[0])
        let classes = Int(code[2])
        guard n >= 1, classes >= 1, classes <= 128 else { return false }
        let filter = Int(code[35] & ~startsAnywhere)
        var jump = 0
        var gate = 0
        if code[35] & startsAnywhere == 0 && filter != 0 {
            gate = filter
            let six = filter + gramFlagWords(classes)
            guard filter >= headerWords, six < code.count else { return false }
            let w = Int(code[six])
            guard w > 0, w & (w - 1) == 0, six + 1 + w <= code.count else { return false }
        } else if filter != 0 {
            jump = filter + startFilterWords(classes)
            guard filter >= headerWords, jump < code.count else { return false }
            let capacity = Int(code[jump])
            guard capacity > 0, capacity & (capacity - 1) == 0, jump + 1 + 2 * capacity <= code.count else { return false }
            let six = jump + 1 + 2 * capacity + gramFlagWords(classes)
            guard six < code.count else { return false }
            let w = Int(code[six])
            guard w > 0, w & (w - 1) == 0, six + 1 + w <= code.count else { return false }
        }
        for w in [36, 37] where code[w] != 0 && code[w] != dead {
            guard Int(code[w]) >= headerWords, Int(code[w]) < code.count else { return false }
        }
        for w in 3..<35 {
            for i in 0..<4 where Int((code[w] >> (8 * UInt32(i))) & 0xFF) >= classes { return false }
        }
        var isStart = [Bool](repeating: false, count: code.count)
        var p = headerWords
        for _ in 0..<n {
            guard p < code.count else { return false }
            isStart[p] = true
            let h = code[p]
            guard h >> 12 == 0, !(h & 0x100 != 0 && h & 0x4FF != 0) else { return false }
            p += 1 + (h & 0x200 != 0 ? 1 : 0) + (h & 0x100 != 0 ? classes : (h & 0x400 != 0 ? 1 : 0) + 2 * Int(h & 0xFF))
            guard p <= code.count else { return false }
        }
        let listStart = p
        guard gate == 0 || gate >= listStart else { return false }
        for w in [36, 37] where code[w] != 0 && code[w] != dead { guard isStart[Int(code[w])] else { return false } }
        if jump != 0 {
            guard jump >= listStart else { return false }
            for k in 0..<Int(code[jump]) where code[jump + 1 + 2 * k] != 0 {
                let t = Int(code[jump + 2 + 2 * k])
                guard t < code.count, isStart[t] else { return false }
            }
        }
        p = headerWords
        for _ in 0..<n {
            let state = p
            let h = code[p]
            p += 1
            if h & 0x200 != 0 {
                let l = Int(code[p])
                guard l >= listStart, l < code.count else { return false }
                let count = Int(code[l])
                guard count > 0, l + 2 * count < code.count else { return false }
                for i in 0..<count where Int(code[l + 1 + 2 * i]) >= ruleCount { return false }
                p += 1
            }
            func ok(_ t: UInt32) -> Bool { t == dead || (Int(t) < code.count && isStart[Int(t)]) }
            if h & 0x100 != 0 {
                for i in 0..<classes where !ok(code[p + i]) { return false }
                p += classes
            } else {
                if h & 0x400 != 0 {
                    let f = code[p]
                    guard f != dead, ok(f), Int(f) < state else { return false }
                    p += 1
                }
                for i in 0..<Int(h & 0xFF) where !ok(code[p + 2 * i + 1]) { return false }
                p += 2 * Int(h & 0xFF)
            }
        }
        return true
    }

    /// Runs the DFA over `url` then the end marker (NUL), calling `found` with the rule ids
    /// (and their stored flags) of every accepting state reached.
    /// With `from`, the walk begins at that position of the URL.
    @inline(__always)
    static func run(_ code: UnsafePointer<UInt32>, _ url: UnsafeBufferPointer<UInt8>, from start: Int = 0,
                    state: Int = headerWords, _ found: (UInt32, UInt32) -> Void) {
        var s = state
        var i = start
        let count = url.count
        while true {
            let h = code[s]
            if h & 0x200 != 0 {
                let l = Int(code[s &+ 1])
                let n = Int(code[l])
                for k in 0..<n { found(code[l &+ 1 &+ 2 &* k], code[l &+ 2 &+ 2 &* k]) }
            }
            if i > count { return }
            // A sink keeps the walk where it is until the end marker: skip there.
            if h & 0x800 != 0 { i = count }
            let b = i < count ? UInt32(url[i]) : 0
            i &+= 1
            if b >= 128 { return }
            var t = s
            var header = h
            var next = dead
            while true {
                var p = t &+ 1 &+ Int((header >> 9) & 1)
                if header & 0x100 != 0 {
                    let klass = UnsafeRawPointer(code + 3).load(fromByteOffset: Int(b), as: UInt8.self)
                    next = code[p &+ Int(klass)]
                    break
                }
                var fallback = dead
                if header & 0x400 != 0 { fallback = code[p]; p &+= 1 }
                let end = p &+ 2 &* Int(header & 0xFF)
                var found = false
                while p < end {
                    let range = code[p]
                    if b >= range & 0xFF && b <= (range >> 8) & 0xFF { next = code[p &+ 1]; found = true; break }
                    p &+= 2
                }
                if found || fallback == dead { break }
                t = Int(fallback)
                header = code[t]
            }
            if next == dead { return }
            s = Int(next)
        }
    }

    /// Runs a DFA over a URL: once from the start, or, for a DFA that starts anywhere, from
    /// every position its start filter admits (the end marker included).
    @inline(__always)
    static func runAnywhere(_ code: UnsafePointer<UInt32>, _ url: UnsafeBufferPointer<UInt8>, _ found: (UInt32, UInt32) -> Void) {
        let mode = code[35]
        if mode & startsAnywhere == 0 { runFromStart(code, url, found); return }
        let n = url.count
        let filter = Int(mode & ~startsAnywhere)
        if filter == 0 {
            for i in 0...n { run(code, url, from: i, found) }
            return
        }
        let c = Int(code[2])
        let classes = UnsafeRawPointer(code + 3).assumingMemoryBound(to: UInt8.self)
        let bits = code + filter
        let end = classes[0]
        @inline(__always) func test(_ i: Int) -> Bool { bits[i >> 5] & (1 << UInt32(i & 31)) != 0 }
        let pairs = UnsafeRawPointer(bits + startBitWords(c)).assumingMemoryBound(to: UInt8.self)
        let jump = bits + startFilterWords(c)
        let capacity = Int(jump[0])
        let grams = UnsafePointer(jump + 1 + 2 * capacity)
        let tOffset = c + c * c
        // The class of each byte (0xFF, below, for a byte a walk stops at: not ASCII), then the
        // end marker's class past the end; in the same pass, without a branch, the positions
        // whose pair of classes some walk follows (most positions have none).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: n + gramDepth) { ks in
          withUnsafeTemporaryAllocation(of: UInt32.self, capacity: n + 1) { cand in
            let ks = ks.baseAddress!
            let cand = cand.baseAddress!
            var high: UInt8 = 0
            var count = 0
            if let u = url.baseAddress, n > 0 {
                high = u[0]
                let k0 = classes[Int(u[0] & 0x7F)]
                ks[0] = k0
                var row = Int(k0) &* c
                var i = 1
                while i < n {
                    let b = u[i]
                    high |= b
                    let k1 = classes[Int(b & 0x7F)]
                    ks[i] = k1
                    cand[count] = UInt32(truncatingIfNeeded: i &- 1)
                    count &+= pairs[row &+ Int(k1)] != 0 ? 1 : 0
                    row = Int(k1) &* c
                    i &+= 1
                }
                cand[count] = UInt32(truncatingIfNeeded: n &- 1)
                count &+= pairs[row &+ Int(end)] != 0 ? 1 : 0
            }
            cand[count] = UInt32(truncatingIfNeeded: n)
            count &+= pairs[Int(end) &* c &+ Int(end)] != 0 ? 1 : 0
            for p in n..<(n + gramDepth) { ks[p] = end }
            if high < 128 {
                // Every byte ASCII (a canonical URL always is). The candidate positions: a
                // match within two bytes is walked from the start; else the 3-gram's flags in
                // the gram filter (0: no walk follows it, 1: walk, 2-3: the Bloom keys of its
                // first ten classes) decide, and a walk starts three bytes in, at the state
                // the jump table gives.
                let gramFlags = UnsafePointer(grams)
                for j in 0..<count {
                    let i = Int(cand[j])
                    let pair = Int(ks[i]) &* c &+ Int(ks[i &+ 1])
                    if pairs[pair] & 1 != 0 || i &+ 2 >= n {
                        if pairs[pair] & 1 == 0 && !test(tOffset &+ pair &* c &+ Int(ks[i &+ 2])) { continue }
                        run(code, url, from: i, found)
                        continue
                    }
                    let gram = pair &* c &+ Int(ks[i &+ 2])
                    let f = (gramFlags[gram >> 4] >> UInt32((gram & 15) << 1)) & 3
                    if f == 0 { continue }
                    if f != 1 && !gramKeysAdmit(gramFlags, c, gram, f, UnsafePointer(ks + i)) { continue }
                    var slot = jumpSlot(UInt32(gram), capacity)
                    while jump[1 &+ 2 &* slot] != UInt32(gram &+ 1) { slot = (slot &+ 1) & (capacity &- 1) }
                    run(code, url, from: i &+ 3, state: Int(jump[2 &+ 2 &* slot]), found)
                }
                return
            }
            for i in 0..<n where url[i] >= 128 { ks[i] = 0xFF }
            for i in 0...n {
                let k0 = ks[i]
                if k0 == 0xFF { continue }
                let k1 = ks[i &+ 1], k2 = ks[i &+ 2]
                if k1 != 0xFF && k2 != 0xFF {
                    let pair = Int(k0) &* c &+ Int(k1)
                    let flags = pairs[pair]
                    if flags == 0 { continue }
                    if flags & 1 == 0 {
                        let gram = pair &* c &+ Int(k2)
                        if !test(tOffset &+ gram) { continue }
                        if i + 2 < n {
                            // Three bytes of the URL lead to a state that the table gives.
                            var slot = jumpSlot(UInt32(gram), capacity)
                            while jump[1 + 2 * slot] != UInt32(gram + 1) { slot = (slot + 1) & (capacity - 1) }
                            run(code, url, from: i + 3, state: Int(jump[2 + 2 * slot]), found)
                            continue
                        }
                    }
                }
                run(code, url, from: i, found)
            }
          }
        }
    }

    /// `run` from the start, the scheme of an http(s) URL skipped by the walk made ahead of time.
    @inline(__always)
    static func runFromStart(_ code: UnsafePointer<UInt32>, _ url: UnsafeBufferPointer<UInt8>, _ found: (UInt32, UInt32) -> Void) {
        let n = url.count
        if n >= 7, url[0] == 0x68, url[1] == 0x74, url[2] == 0x74, url[3] == 0x70 {
            let secure = url[4] == 0x73
            let length = secure ? 8 : 7
            if n >= length, url[length - 3] == 0x3A, url[length - 2] == 0x2F, url[length - 1] == 0x2F {
                let state = code[secure ? 37 : 36]
                if state == dead { return }
                if state != 0 { run(code, url, from: length, state: Int(state), found); return }
            }
        }
        run(code, url, found)
    }
}
