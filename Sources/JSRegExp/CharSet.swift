// Sets of code points as sorted, disjoint, non-adjacent inclusive ranges.

/// A set of characters (code units or code points), kept as sorted inclusive ranges.
public struct CharSet: Sendable, Equatable {
    /// Flattened pairs: `ranges[2k] ... ranges[2k+1]` inclusive, sorted, disjoint, non-adjacent.
    public private(set) var ranges: [UInt32] = []

    public init() {}

    public init(ranges: [UInt32]) {
        var s = CharSet()
        var i = 0
        while i + 1 < ranges.count { s.add(ranges[i], ranges[i + 1]); i += 2 }
        self = s
    }

    public static let maxCodePoint: UInt32 = 0x10FFFF

    public var isEmpty: Bool { ranges.isEmpty }

    /// Adds `lo...hi`.
    public mutating func add(_ lo: UInt32, _ hi: UInt32) {
        precondition(lo <= hi)
        // Fast path: appending in order.
        let n = ranges.count
        if n == 0 || lo > ranges[n - 1] &+ 1 {
            ranges.append(lo); ranges.append(hi); return
        }
        if lo >= ranges[n - 2] {
            if hi > ranges[n - 1] { ranges[n - 1] = hi }
            return
        }
        var out: [UInt32] = []
        out.reserveCapacity(n + 2)
        var i = 0
        var nlo = lo, nhi = hi
        // Ranges entirely before.
        while i < n && ranges[i + 1] &+ 1 < nlo { out.append(ranges[i]); out.append(ranges[i + 1]); i += 2 }
        // Overlapping or adjacent.
        while i < n && ranges[i] <= nhi &+ 1 {
            nlo = min(nlo, ranges[i]); nhi = max(nhi, ranges[i + 1]); i += 2
        }
        out.append(nlo); out.append(nhi)
        while i < n { out.append(ranges[i]); out.append(ranges[i + 1]); i += 2 }
        ranges = out
    }

    public mutating func add(_ c: UInt32) { add(c, c) }

    /// Adds flattened pairs given in ascending order (the fast append path of `add`).
    mutating func appendSortedRanges(_ pairs: [UInt32]) {
        ranges.reserveCapacity(ranges.count + pairs.count)
        var i = 0
        while i + 1 < pairs.count { add(pairs[i], pairs[i + 1]); i += 2 }
    }

    public mutating func formUnion(_ other: CharSet) {
        if other.ranges.isEmpty { return }
        if ranges.isEmpty { ranges = other.ranges; return }
        var i = 0
        while i < other.ranges.count { add(other.ranges[i], other.ranges[i + 1]); i += 2 }
    }

    public func union(_ other: CharSet) -> CharSet { var s = self; s.formUnion(other); return s }

    /// The complement within `0...maxChar`.
    public func inverted(maxChar: UInt32 = CharSet.maxCodePoint) -> CharSet {
        var out = CharSet()
        var next: UInt32 = 0
        var i = 0
        while i < ranges.count {
            let lo = ranges[i], hi = ranges[i + 1]
            if lo > maxChar { break }
            if lo > next { out.ranges.append(next); out.ranges.append(lo - 1) }
            if hi >= maxChar { return out }
            next = hi + 1
            i += 2
        }
        if next <= maxChar { out.ranges.append(next); out.ranges.append(maxChar) }
        return out
    }

    public func intersection(_ other: CharSet) -> CharSet {
        var out = CharSet()
        var i = 0, j = 0
        let a = ranges, b = other.ranges
        while i < a.count && j < b.count {
            let lo = max(a[i], b[j]), hi = min(a[i + 1], b[j + 1])
            if lo <= hi { out.ranges.append(lo); out.ranges.append(hi) }
            if a[i + 1] < b[j + 1] { i += 2 } else { j += 2 }
        }
        return out
    }

    public func subtracting(_ other: CharSet) -> CharSet {
        intersection(other.inverted())
    }

    public func contains(_ c: UInt32) -> Bool {
        var lo = 0, hi = ranges.count / 2
        while lo < hi {
            let mid = (lo + hi) >> 1
            if c < ranges[2 * mid] { hi = mid } else if c > ranges[2 * mid + 1] { lo = mid + 1 } else { return true }
        }
        return false
    }

    /// Calls `body` for each range.
    @inline(__always) public func forEachRange(_ body: (UInt32, UInt32) -> Void) {
        var i = 0
        while i < ranges.count { body(ranges[i], ranges[i + 1]); i += 2 }
    }

    /// Builds a set from a predicate over `0...maxChar` (skipping surrogates if asked).
    static func from(maxChar: UInt32 = CharSet.maxCodePoint, _ predicate: (UInt32) -> Bool) -> CharSet {
        var s = CharSet()
        var start: UInt32 = 0
        var inRun = false
        var c: UInt32 = 0
        while c <= maxChar {
            let m = predicate(c)
            if m && !inRun { start = c; inRun = true } else if !m && inRun { s.ranges.append(start); s.ranges.append(c - 1); inRun = false }
            c += 1
        }
        if inRun { s.ranges.append(start); s.ranges.append(maxChar) }
        return s
    }
}

/// A compiled character class as the matcher uses it: a bitmap of the answers for units
/// below 256 (case folding already applied), then a binary search of the ranges. A plain
/// struct over raw memory the program owns (`RegExpProgram.deinit` frees `ranges`), so a
/// test costs no reference counting.
struct ClassEntry {
    /// Answers for `0..<256`, 4 words.
    let bits: (UInt64, UInt64, UInt64, UInt64)
    /// Flattened inclusive pairs of the (case-closed) set.
    let ranges: UnsafeMutablePointer<UInt32>
    let pairCount: Int
    let ignoreCase: Bool
    let unicode: Bool

    /// `set` is already closed over case when `ignoreCase`.
    init(set: CharSet, ignoreCase: Bool, unicode: Bool) {
        let r = set.ranges
        ranges = .allocate(capacity: max(r.count, 1))
        ranges.initialize(from: r, count: r.count)
        pairCount = r.count / 2
        var words: [UInt64] = [0, 0, 0, 0]
        for c: UInt32 in 0..<256 {
            let k = ignoreCase ? CaseFolding.canonicalize(c, unicode: unicode) : c
            if set.contains(k) { words[Int(c >> 6)] |= 1 << UInt64(c & 63) }
        }
        bits = (words[0], words[1], words[2], words[3])
        self.ignoreCase = ignoreCase
        self.unicode = unicode
    }

    @inline(__always) func matches(_ c0: UInt32) -> Bool {
        if c0 < 256 {
            let bit: UInt64 = 1 << UInt64(c0 & 63)
            switch c0 >> 6 {
            case 0: return bits.0 & bit != 0
            case 1: return bits.1 & bit != 0
            case 2: return bits.2 & bit != 0
            default: return bits.3 & bit != 0
            }
        }
        return matchesHigh(c0)
    }

    func matchesHigh(_ c0: UInt32) -> Bool {
        let c = ignoreCase ? CaseFolding.canonicalize(c0, unicode: unicode) : c0
        var lo = 0, hi = pairCount
        while lo < hi {
            let mid = (lo + hi) >> 1
            if c < ranges[2 * mid] { hi = mid } else if c > ranges[2 * mid + 1] { lo = mid + 1 } else { return true }
        }
        return false
    }
}
