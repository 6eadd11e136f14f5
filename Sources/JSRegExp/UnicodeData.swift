// Case canonicalization (22.2.2.7.3 Canonicalize) and Unicode property sets, computed from
// the Swift standard library's Unicode tables.

import JSSyntax
import Synchronization

enum CaseFolding {
    /// Non-unicode Canonicalize: simple uppercase mapping of code units, except mappings to
    /// ASCII from outside ASCII. Indexed by code unit.
    static let upperTable: [UInt16] = {
        var t = [UInt16](repeating: 0, count: 0x10000)
        for c in 0..<0x10000 {
            t[c] = UInt16(c)
            guard let s = Unicode.Scalar(UInt32(c)) else { continue }
            let p = s.properties
            guard p.changesWhenUppercased else { continue }
            let m = p.uppercaseMapping.unicodeScalars
            guard m.count == 1, let u = m.first?.value, u <= 0xFFFF else { continue }
            if c >= 128 && u < 128 { continue }
            t[c] = UInt16(u)
        }
        return t
    }()

    /// Unicode Canonicalize: simple case folding (scf) of `c` ≥ 128, by binary search over the
    /// generated runs (Unicode 17.0; see `UnicodePropertyData.simpleFoldingRuns`).
    static func simpleFold(_ c: UInt32) -> UInt32 {
        let runs = UnicodePropertyData.simpleFoldingRuns
        let cc = Int32(bitPattern: c)
        var lo = 0, hi = runs.count / 4
        while lo < hi {
            let mid = (lo + hi) >> 1
            if runs[mid * 4 + 1] < cc { lo = mid + 1 } else { hi = mid }
        }
        guard lo < runs.count / 4 else { return c }
        let first = runs[lo * 4], step = runs[lo * 4 + 3]
        guard cc >= first, (cc - first) % step == 0 else { return c }
        return UInt32(bitPattern: cc + runs[lo * 4 + 2])
    }

    /// Characters whose canonical form differs from themselves.
    static let upperChanged: [UInt32] = {
        var r: [UInt32] = []
        for c in 0..<0x10000 where upperTable[c] != UInt16(c) { r.append(UInt32(c)) }
        return r
    }()

    static let foldChanged: [UInt32] = {
        var r: [UInt32] = []
        let runs = UnicodePropertyData.simpleFoldingRuns
        var i = 0
        while i < runs.count {
            var c = runs[i]
            while c <= runs[i + 1] { r.append(UInt32(c)); c += runs[i + 3] }
            i += 4
        }
        return r
    }()

    @inline(__always) static func canonicalize(_ c: UInt32, unicode: Bool) -> UInt32 {
        if c < 128 {
            if unicode { return c >= 0x41 && c <= 0x5A ? c | 0x20 : c }
            return c >= 0x61 && c <= 0x7A ? c & ~0x20 : c
        }
        if unicode { return simpleFold(c) }
        return c <= 0xFFFF ? UInt32(upperTable[Int(c)]) : c
    }

    /// `set ∪ { Canonicalize(c) | c ∈ set }`: a character `ch` then matches the class
    /// case-insensitively iff `Canonicalize(ch)` is in the result.
    static func closeOver(_ set: CharSet, unicode: Bool) -> CharSet {
        var out = set
        let changed = unicode ? foldChanged : upperChanged
        var extra = CharSet()
        for c in changed where set.contains(c) {
            extra.add(canonicalize(c, unicode: unicode))
        }
        out.formUnion(extra)
        return out
    }
}

enum UnicodeProperties {
    private static let cache = Mutex<[RegExpUnicodeProperty: CharSet]>([:])

    private static let stringsCache = Mutex<[String: [[UInt32]]]>([:])

    /// The sequences of a property of strings (`RGI_Emoji` is the union of its parts), each
    /// as code points; single code points included.
    static func sequences(of name: String) -> [[UInt32]] {
        if let s = stringsCache.withLock({ $0[name] }) { return s }
        var out: [[UInt32]] = []
        let parts = name == "RGI_Emoji" ? UnicodeEmojiData.rgiEmojiParts : [name]
        for part in parts {
            guard let data = UnicodeEmojiData.sequences(part) else { continue }
            data.withUTF8Buffer { buf in
                var seq: [UInt32] = []
                var value: UInt32 = 0
                for b in buf {
                    switch b {
                    case 0x20: seq.append(value); out.append(seq); seq = []; value = 0
                    case 0x2E: seq.append(value); value = 0
                    default: value = value << 4 | UInt32(b <= 0x39 ? b - 0x30 : b - 0x41 + 10)
                    }
                }
                if !buf.isEmpty { seq.append(value); out.append(seq) }
            }
        }
        stringsCache.withLock { $0[name] = out }
        return out
    }

    static func set(for property: RegExpUnicodeProperty) -> CharSet {
        if let s = cache.withLock({ $0[property] }) { return s }
        let s = compute(property)
        cache.withLock { $0[property] = s }
        return s
    }

    /// Decodes a generated range list (see tools/gen-unicode-properties.py): deltas in base 32,
    /// non-final digits `P`…`o`, final digits `0`…`O`.
    static func decode(_ data: StaticString) -> CharSet {
        var ranges: [UInt32] = []
        var value: UInt32 = 0
        var prev: UInt32 = 0
        data.withUTF8Buffer { buf in
            ranges.reserveCapacity(buf.count / 2)
            for b in buf {
                if b >= 0x50 {
                    value = value << 5 | UInt32(b - 0x50)
                } else {
                    value = value << 5 | UInt32(b - 0x30)
                    prev &+= value
                    ranges.append(prev)
                    value = 0
                }
            }
        }
        var s = CharSet()
        s.appendSortedRanges(ranges)
        return s
    }

    static func generalCategory(_ name: String) -> CharSet {
        if let d = UnicodePropertyData.generalCategory(name) { return decode(d) }
        var s = CharSet()
        for leaf in UnicodePropertyData.generalCategoryGroups[name] ?? [] {
            if let d = UnicodePropertyData.generalCategory(leaf) { s.formUnion(decode(d)) }
        }
        return s
    }

    static func compute(_ property: RegExpUnicodeProperty) -> CharSet {
        switch property {
        case .generalCategory(let name):
            return generalCategory(name)
        case .script(let name):
            return UnicodePropertyData.script(name).map(decode) ?? CharSet()
        case .scriptExtensions(let name):
            var s = UnicodePropertyData.script(name).map(decode) ?? CharSet()
            if let removed = UnicodePropertyData.scriptExtensionsRemoved(name) { s = s.subtracting(decode(removed)) }
            if let added = UnicodePropertyData.scriptExtensionsAdded(name) { s.formUnion(decode(added)) }
            return s
        case .binary(let name):
            switch name {
            case "Any": return CharSet(ranges: [0, CharSet.maxCodePoint])
            case "ASCII": return CharSet(ranges: [0, 0x7F])
            default: return UnicodePropertyData.binary(name).map(decode) ?? CharSet()
            }
        case .ofStrings(let name):
            var s = CharSet()
            for seq in sequences(of: name) where seq.count == 1 { s.add(seq[0]) }
            return s
        }
    }
}
