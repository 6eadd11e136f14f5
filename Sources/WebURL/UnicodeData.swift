// The Unicode properties IDNA processing needs, parsed on first use from the generated text
// tables in `UnicodeData+Tables.swift` (tools/weburl/generate-unicode-data.py).

/// A UTS #46 IDNA mapping status (with UseSTD3ASCIIRules=false already applied).
enum IDNAStatus: UInt8 {
    case valid, mapped, deviation, ignored, disallowed
}

/// Sorted, non-overlapping code point ranges with a value each; lookup by binary search.
struct RangeTable<Value: Sendable>: Sendable {
    var starts: [UInt32] = []
    var ends: [UInt32] = []
    var values: [Value] = []

    func lookup(_ c: UInt32) -> Value? {
        var lo = 0, hi = starts.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if starts[mid] <= c { lo = mid + 1 } else { hi = mid }
        }
        guard lo > 0, c <= ends[lo - 1] else { return nil }
        return values[lo - 1]
    }

    /// Reads "start end value" lines (hex, hex, text).
    init(text: String, _ parse: (Substring) -> Value) {
        for line in text.split(separator: "\n") {
            let f = line.split(separator: " ")
            starts.append(UInt32(f[0], radix: 16)!)
            ends.append(UInt32(f[1], radix: 16)!)
            values.append(parse(f[2]))
        }
    }
    init() {}
}

/// The IDNA mapping table: for each range, a status and (for mapped ranges) the replacement.
struct IDNAMappingTable: Sendable {
    var starts: [UInt32] = []
    var statuses: [IDNAStatus] = []
    /// For each range, the slice of `mappings` it maps to.
    var mapStart: [Int32] = []
    var mapCount: [UInt8] = []
    var mappings: [Unicode.Scalar] = []

    static let shared = IDNAMappingTable(text: UnicodeTables.idnaMappingText)

    init(text: String) {
        for line in text.split(separator: "\n") {
            let f = line.split(separator: " ")
            starts.append(UInt32(f[0], radix: 16)!)
            let status: IDNAStatus
            switch f[1] {
            case "V": status = .valid
            case "M": status = .mapped
            case "D": status = .deviation
            case "I": status = .ignored
            default: status = .disallowed
            }
            statuses.append(status)
            mapStart.append(Int32(mappings.count))
            mapCount.append(UInt8(f.count - 2))
            for h in f.dropFirst(2) { mappings.append(Unicode.Scalar(UInt32(h, radix: 16)!)!) }
        }
    }

    /// The index of the range holding `c`.
    func index(_ c: UInt32) -> Int {
        var lo = 0, hi = starts.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if starts[mid] <= c { lo = mid + 1 } else { hi = mid }
        }
        return lo - 1
    }

    func status(_ c: Unicode.Scalar) -> IDNAStatus { statuses[index(c.value)] }

    func mapping(at i: Int) -> ArraySlice<Unicode.Scalar> {
        let s = Int(mapStart[i])
        return mappings[s..<s + Int(mapCount[i])]
    }
}

/// Unicode properties beside the mapping table.
struct UnicodeProperties: Sendable {
    let combiningClass: RangeTable<UInt8>
    let mark: RangeTable<Bool>
    let bidiClass: RangeTable<String>
    let joiningType: RangeTable<UInt8>
    /// Canonical decompositions (one level), and primary composites by their pair.
    let decomposition: [UInt32: [UInt32]]
    let composition: [UInt64: UInt32]

    static let shared = UnicodeProperties()

    init() {
        combiningClass = RangeTable(text: UnicodeTables.combiningClassText) { UInt8($0)! }
        mark = RangeTable(text: UnicodeTables.markText) { _ in true }
        bidiClass = RangeTable(text: UnicodeTables.bidiClassText) { String($0) }
        joiningType = RangeTable(text: UnicodeTables.joiningTypeText) { $0.utf8.first! }
        var d: [UInt32: [UInt32]] = [:], c: [UInt64: UInt32] = [:]
        for line in UnicodeTables.canonicalDecompositionText.split(separator: "\n") {
            let f = line.split(separator: " ")
            let cp = UInt32(f[0], radix: 16)!
            let parts = f.dropFirst(2).map { UInt32($0, radix: 16)! }
            d[cp] = parts
            if f[1] == "C" { c[UInt64(parts[0]) << 32 | UInt64(parts[1])] = cp }
        }
        decomposition = d
        composition = c
    }

    func ccc(_ c: UInt32) -> UInt8 { c < 0x300 ? 0 : combiningClass.lookup(c) ?? 0 }
    func isMark(_ c: UInt32) -> Bool { c >= 0x300 && mark.lookup(c) != nil }
    /// Bidi_Class, "L" by default.
    func bidi(_ c: UInt32) -> String { bidiClass.lookup(c) ?? "L" }
    /// Joining_Type as its letter (U, D, L, R, C, T).
    func joining(_ c: UInt32) -> UInt8 { joiningType.lookup(c) ?? UInt8(ascii: "U") }
}

// MARK: - NFC

private let sBase: UInt32 = 0xAC00, lBase: UInt32 = 0x1100, vBase: UInt32 = 0x1161, tBase: UInt32 = 0x11A7
private let lCount: UInt32 = 19, vCount: UInt32 = 21, tCount: UInt32 = 28
private let nCount = vCount * tCount, sCount = lCount * nCount

extension UnicodeProperties {
    private func decompose(_ c: UInt32, into out: inout [UInt32]) {
        if c >= sBase && c < sBase + sCount {
            let s = c - sBase
            out.append(lBase + s / nCount)
            out.append(vBase + (s % nCount) / tCount)
            if s % tCount != 0 { out.append(tBase + s % tCount) }
            return
        }
        if let d = decomposition[c] {
            for x in d { decompose(x, into: &out) }
        } else {
            out.append(c)
        }
    }

    /// Unicode Normalization Form C.
    func nfc(_ input: [Unicode.Scalar]) -> [Unicode.Scalar] {
        // Fast path: ASCII and Latin-1 below U+0300 with nothing to compose are already NFC.
        if input.allSatisfy({ $0.value < 0x300 && decomposition[$0.value] == nil }) { return input }
        var d: [UInt32] = []
        d.reserveCapacity(input.count)
        for s in input { decompose(s.value, into: &d) }
        // Canonical ordering: a stable sort of each run of non-starters by combining class.
        var i = 0
        while i < d.count {
            if ccc(d[i]) == 0 { i += 1; continue }
            var j = i
            while j < d.count && ccc(d[j]) != 0 { j += 1 }
            if j - i > 1 {
                let run = d[i..<j].enumerated().sorted { (ccc($0.element), $0.offset) < (ccc($1.element), $1.offset) }
                for (k, e) in run.enumerated() { d[i + k] = e.element }
            }
            i = j
        }
        // Canonical composition.
        var out: [UInt32] = []
        out.reserveCapacity(d.count)
        var starter = -1
        var lastClass: Int = -1
        for c in d {
            let cc = Int(ccc(c))
            if starter >= 0 {
                let s = out[starter]
                let blocked = lastClass != -1 && (lastClass >= cc || lastClass == 0)
                if !blocked || (lastClass == -1) {
                    // Hangul LV and LVT.
                    if s >= lBase && s < lBase + lCount && c >= vBase && c < vBase + vCount && lastClass == -1 {
                        out[starter] = sBase + ((s - lBase) * vCount + (c - vBase)) * tCount
                        continue
                    }
                    if s >= sBase && s < sBase + sCount && (s - sBase) % tCount == 0
                        && c > tBase && c < tBase + tCount && lastClass == -1 {
                        out[starter] = s + (c - tBase)
                        continue
                    }
                    if let comp = composition[UInt64(s) << 32 | UInt64(c)] {
                        out[starter] = comp
                        continue
                    }
                }
            }
            if cc == 0 {
                starter = out.count
                lastClass = -1
            } else {
                lastClass = cc
            }
            out.append(c)
        }
        return out.map { Unicode.Scalar($0)! }
    }
}
