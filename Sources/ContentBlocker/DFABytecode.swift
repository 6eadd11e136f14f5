/// The serialized form of one DFA and its interpreter (WebKit's `DFABytecodeCompiler` and
/// `DFABytecodeInterpreter`, in our own encoding): an array of 32-bit words.
///
///     word 0: number of states   word 1: number of words
///     then each state, the root first:
///       header: bits 0-7 = n (sparse ranges), bit 8 = dense, bit 9 = has actions
///       [actions: word offset of a list `count, rule ids…`]  when bit 9
///       dense:  128 words, the target of each byte 0...127
///       sparse: the default target, then n pairs (lo | hi << 8, target)
///
/// Targets are word offsets of states inside the DFA; `dead` (all ones) ends the walk. A state
/// is dense when more than `sparseLimit` byte ranges leave it for a target other than its most
/// common one: a few compares for most states, one load for the busy ones.
enum DFABytecode {
    static let dead: UInt32 = 0xFFFF_FFFF
    static let headerWords = 2
    static let sparseLimit = 6

    static func encode(_ dfa: DFA) -> [UInt32] {
        let n = dfa.stateCount
        let c = dfa.classCount
        // Per state: targets per byte, then its ranges.
        struct Shape { var dense: Bool; var defaultTarget: Int32; var ranges: [(UInt8, UInt8, Int32)] }
        var shapes: [Shape] = []
        shapes.reserveCapacity(n)
        var offsets = [UInt32](repeating: 0, count: n)
        var position = UInt32(headerWords)
        var counts: [Int32: Int] = [:]
        for s in 0..<n {
            var perByte = [Int32](repeating: -1, count: 128)
            for b in 0..<128 { perByte[b] = dfa.transitions[s * c + Int(dfa.classOf[b])] }
            counts.removeAll(keepingCapacity: true)
            for t in perByte { counts[t, default: 0] += 1 }
            let defaultTarget = counts.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key ?? -1
            var ranges: [(UInt8, UInt8, Int32)] = []
            var b = 0
            while b < 128 {
                let t = perByte[b]
                var e = b
                while e + 1 < 128 && perByte[e + 1] == t { e += 1 }
                if t != defaultTarget { ranges.append((UInt8(b), UInt8(e), t)) }
                b = e + 1
            }
            let dense = ranges.count > sparseLimit
            shapes.append(Shape(dense: dense, defaultTarget: defaultTarget, ranges: dense ? [] : ranges))
            offsets[s] = position
            position += 1 + (dfa.actions[s].isEmpty ? 0 : 1) + (dense ? 128 : UInt32(1 + 2 * ranges.count))
        }
        // Action lists, shared when equal.
        var listOffsets: [[UInt32]: UInt32] = [:]
        var lists: [UInt32] = []
        let listBase = position
        for s in 0..<n where !dfa.actions[s].isEmpty {
            if listOffsets[dfa.actions[s]] == nil {
                listOffsets[dfa.actions[s]] = listBase + UInt32(lists.count)
                lists.append(UInt32(dfa.actions[s].count))
                lists.append(contentsOf: dfa.actions[s])
            }
        }
        var code: [UInt32] = []
        code.reserveCapacity(Int(position) + lists.count)
        code.append(UInt32(n))
        code.append(0)
        func target(_ t: Int32) -> UInt32 { t < 0 ? dead : offsets[Int(t)] }
        for s in 0..<n {
            let shape = shapes[s]
            let hasActions = !dfa.actions[s].isEmpty
            code.append(UInt32(shape.ranges.count) | (shape.dense ? 0x100 : 0) | (hasActions ? 0x200 : 0))
            if hasActions { code.append(listOffsets[dfa.actions[s]] ?? 0) }
            if shape.dense {
                for b in 0..<128 { code.append(target(dfa.transitions[s * c + Int(dfa.classOf[b])])) }
            } else {
                code.append(target(shape.defaultTarget))
                for r in shape.ranges {
                    code.append(UInt32(r.0) | UInt32(r.1) << 8)
                    code.append(target(r.2))
                }
            }
        }
        code.append(contentsOf: lists)
        code[1] = UInt32(code.count)
        return code
    }

    /// Checks that a DFA read from a file is well formed: every target and list inside it, so
    /// the interpreter, which does not check, cannot be led outside the buffer.
    static func validate(_ code: UnsafeBufferPointer<UInt32>, ruleCount: Int) -> Bool {
        guard code.count >= headerWords + 2, Int(code[1]) == code.count else { return false }
        let n = Int(code[0])
        var starts = Set<UInt32>()
        var p = headerWords
        for _ in 0..<n {
            guard p < code.count else { return false }
            starts.insert(UInt32(p))
            let h = code[p]
            guard h >> 10 == 0 else { return false }
            p += 1 + (h & 0x200 != 0 ? 1 : 0) + (h & 0x100 != 0 ? 128 : 1 + 2 * Int(h & 0xFF))
            guard p <= code.count else { return false }
        }
        let listStart = p
        p = headerWords
        for _ in 0..<n {
            let h = code[p]
            p += 1
            if h & 0x200 != 0 {
                let l = Int(code[p])
                guard l >= listStart, l < code.count else { return false }
                let count = Int(code[l])
                guard count > 0, l + count < code.count else { return false }
                for i in 1...count where Int(code[l + i]) >= ruleCount { return false }
                p += 1
            }
            let targets = h & 0x100 != 0 ? 128 : 1 + Int(h & 0xFF)
            for i in 0..<targets {
                let index = h & 0x100 != 0 ? p + i : (i == 0 ? p : p + 2 * i)
                let t = code[index]
                guard t == dead || starts.contains(t) else { return false }
            }
            p += h & 0x100 != 0 ? 128 : 1 + 2 * Int(h & 0xFF)
        }
        return true
    }

    /// Runs the DFA over `url` then the end marker (NUL), calling `found` with the rule ids of
    /// every accepting state reached.
    @inline(__always)
    static func run(_ code: UnsafePointer<UInt32>, _ url: UnsafeBufferPointer<UInt8>, _ found: (UInt32) -> Void) {
        var s = UInt32(headerWords)
        var i = 0
        let count = url.count
        while true {
            let h = code[Int(s)]
            var p = Int(s) + 1
            if h & 0x200 != 0 {
                let l = Int(code[p])
                let n = Int(code[l])
                for k in 1...n { found(code[l + k]) }
                p += 1
            }
            if i > count { return }
            let b = i < count ? url[i] : 0
            i += 1
            if b >= 128 { return }
            if h & 0x100 != 0 {
                s = code[p + Int(b)]
            } else {
                s = code[p]
                let n = Int(h & 0xFF)
                var r = p + 1
                let end = r + 2 * n
                while r < end {
                    let range = code[r]
                    if UInt32(b) >= range & 0xFF && UInt32(b) <= (range >> 8) & 0xFF { s = code[r + 1]; break }
                    r += 2
                }
            }
            if s == dead { return }
        }
    }
}
