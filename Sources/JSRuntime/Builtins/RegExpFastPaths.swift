// Fast paths of the RegExp builtins.
//
// A RegExp is *pristine* when it is a RegExp of this realm with only its own `lastIndex`
// (its shape is the realm's instance shape) and RegExp.prototype still holds the original
// `exec`, `flags` and flag getters. For such an object every property read and getter call
// the spec makes on the way to a match is unobservable, so the builtins may match on the
// compiled program directly: no flags string, no result array, no substrings nobody reads
// (as V8 does for unmodified RegExps). The prototype check costs one comparison per name,
// redone in full (by lookup) only when `protoEpoch` says some prototype changed shape.
//
// Matching itself goes through `rxRun`, which reuses the realm's `RegExpScratch`: a match
// allocates nothing.

import JSRegExp
#if canImport(Glibc)
import Glibc
#endif

/// Builds a string from slices of flat strings and single units: one byte per unit while
/// every unit fits Latin-1, two from the first one that does not. Slices are copied in bulk.
struct RxStringBuilder {
    var narrow: [UInt8] = []
    var wide: [UInt16] = []
    var isWide = false

    init(capacity: Int) { narrow.reserveCapacity(capacity) }

    mutating func widen() {
        if isWide { return }
        isWide = true
        wide.reserveCapacity(narrow.capacity)
        for b in narrow { wide.append(UInt16(b)) }
        narrow = []
    }

    /// Appends `s[from..<to]`.
    mutating func append(_ s: StringCell, _ from: Int, _ to: Int) {
        if to <= from { return }
        if s.is16Bit {
            widen()
            wide.append(contentsOf: UnsafeBufferPointer(start: s.utf16 + from, count: to - from))
        } else if isWide {
            let p = s.latin1
            for i in from..<to { wide.append(UInt16(p[i])) }
        } else {
            narrow.append(contentsOf: UnsafeBufferPointer(start: s.latin1 + from, count: to - from))
        }
    }

    mutating func append(_ u: UInt16) {
        if u > 0xFF { widen() }
        if isWide { wide.append(u) } else { narrow.append(UInt8(truncatingIfNeeded: u)) }
    }

    mutating func append<C: Collection>(contentsOf units: C) where C.Element == UInt16 {
        for u in units { append(u) }
    }

    func finish(_ rt: Runtime) throws(JSException) -> Value {
        if isWide { return try rt.makeString(wide) }
        let out = try rt.allocateLatin1(length: narrow.count)
        narrow.withUnsafeBufferPointer { b in
            if let base = b.baseAddress { out.latin1.update(from: base, count: b.count) }
        }
        return Value(cell: out.cell)
    }
}

extension Runtime {
    /// The names on RegExp.prototype whose original values the fast paths rely on.
    static let rxPristineNames: [StaticString] = ["exec", "flags", "global", "ignoreCase", "multiline", "dotAll",
                                                 "unicode", "unicodeSets", "sticky", "hasIndices", "constructor"]

    /// The keys of `rxPristineNames`, then @@match (read by IsRegExp).
    func rxPristineKeys() -> [PropertyKey] {
        Runtime.rxPristineNames.map { PropertyKey(cell: atom(static: $0)) } + [PropertyKey(cell: wellKnown.match.asCell)]
    }

    /// Records RegExp.prototype's original values (at the end of `installRegExp`), and the
    /// original @@species getter of RegExp.
    func rxRecordPristine() {
        let proto = realm.regexpPrototype!
        var values: [Value] = [], getters: [Value] = [], slots: [Int] = []
        for k in rxPristineKeys() {
            guard let e = ShapeCell(proto.shape).lookup(k) else { return }
            let v = proto.slot(e.slot)
            values.append(v)
            getters.append(e.attributes.contains(.accessor) ? AccessorPair(v.asCell).getter : .undefined)
            slots.append(e.slot)
        }
        let ctor = realm.regexpConstructor!
        if let e = ShapeCell(ctor.shape).lookup(PropertyKey(cell: wellKnown.species.asCell)), e.attributes.contains(.accessor) {
            realm.regexpSpeciesGetter = AccessorPair(ctor.slot(e.slot).asCell).getter
        }
        realm.regexpPristineValues = values
        realm.regexpPristineGetters = getters
        realm.regexpPristineSlots = slots
        realm.regexpPristineEpoch = protoEpoch
    }

    /// Finds the recorded keys' slots again after some prototype changed shape; false if
    /// one of them is gone or holds another value.
    func rxRecheckPrototype() -> Bool {
        let proto = realm.regexpPrototype!
        let values = realm.regexpPristineValues
        let keys = rxPristineKeys()
        if values.count != keys.count { return false }
        var slots: [Int] = []
        for (i, k) in keys.enumerated() {
            guard let e = ShapeCell(proto.shape).lookup(k), proto.slot(e.slot).bits == values[i].bits else { return false }
            slots.append(e.slot)
        }
        realm.regexpPristineSlots = slots
        realm.regexpPristineEpoch = protoEpoch
        return true
    }

    /// Whether RegExp[@@species] is still the original getter (so SpeciesConstructor of a
    /// pristine RegExp is %RegExp%).
    func rxSpeciesIsPristine() -> Bool {
        let ctor = realm.regexpConstructor!
        guard let e = ShapeCell(ctor.shape).lookup(PropertyKey(cell: wellKnown.species.asCell)),
              e.attributes.contains(.accessor) else { return false }
        return AccessorPair(ctor.slot(e.slot).asCell).getter.bits == realm.regexpSpeciesGetter.bits
    }

    /// Whether `o` is a pristine RegExp (see the top of this file).
    func rxIsPristine(_ o: JSObject) -> Bool {
        guard o.shape == realm.regexpInstanceShape, o.kind == .regexp, o.word(0) != 0 else { return false }
        if realm.regexpPristineEpoch != protoEpoch && !rxRecheckPrototype() { return false }
        let proto = realm.regexpPrototype!
        let slots = realm.regexpPristineSlots, values = realm.regexpPristineValues, getters = realm.regexpPristineGetters
        for i in 0..<slots.count {
            let v = proto.slot(slots[i])
            if v.bits != values[i].bits { return false }
            if !getters[i].isUndefined && AccessorPair(v.asCell).getter.bits != getters[i].bits { return false }
        }
        return true
    }

    /// Notes the shape of a fresh RegExp of this realm (from `rxAlloc`).
    func rxNoteInstanceShape(_ o: JSObject) {
        if o.shape == realm.regexpInstanceShape { return }
        guard let e = ShapeCell(o.shape).lookup(PropertyKey(cell: realm.regexpAtoms[RXAtom.lastIndex.rawValue])) else { return }
        realm.regexpInstanceShape = o.shape
        realm.regexpLastIndexSlot = e.slot
    }

    // MARK: - Matching

    /// Runs `program` over `s` from `from`; on a match the captures are in
    /// `realm.regexpScratch.captures` until the next match.
    /// With `base`/`count`, the subject is the `count` units of `s` from `base` (a slice;
    /// Latin-1) and the captures are relative to it.
    @inline(__always)
    func rxRun(_ program: RegExpProgram, _ s: StringCell, _ from: Int, base: Int = 0, count: Int? = nil) throws(JSException) -> Bool {
        if measureRegExpTime { return try rxRunTimed(program, s, from, base: base, count: count) }
        if stepBudgetArmed { return try rxRunBudgeted(program, s, from, base: base, count: count) }
        do {
            if s.is16Bit {
                return try program.exec(UnsafeBufferPointer(start: s.utf16, count: s.length), from: from, scratch: realm.regexpScratch)
            }
            return try program.exec(latin1: UnsafeBufferPointer(start: s.latin1 + base, count: count ?? s.length), from: from,
                                    scratch: realm.regexpScratch)
        } catch {
            throw try regexpMatchError(error)
        }
    }

    @inline(never)
    func regexpMatchError(_ error: RegExpMatchError) throws(JSException) -> JSException {
        switch error {
        case .backtrackLimitExceeded: try rangeError("Maximum regular expression backtracking depth exceeded")
        case .stepLimitExceeded: try rangeError("step budget exhausted (in a regular expression)")
        }
    }

    /// `rxRun` under a step budget: the search's backtracks are its steps (64 to a step of
    /// the budget), so catastrophic backtracking ends in the budget's RangeError.
    @inline(never)
    func rxRunBudgeted(_ program: RegExpProgram, _ s: StringCell, _ from: Int, base: Int, count: Int?) throws(JSException) -> Bool {
        let scratch = realm.regexpScratch
        let budget = stepsLeft > Int.max / 64 ? Int.max : stepsLeft * 64
        scratch.backtrackBudget = budget
        stepBudgetArmed = false
        defer {
            stepBudgetArmed = true
            stepsLeft -= max(0, budget - scratch.backtracksLeft) / 64
            scratch.backtrackBudget = .max
        }
        return try rxRun(program, s, from, base: base, count: count)
    }

    /// `rxRun`, timed into `regexpNanoseconds` (`--stats`).
    @inline(never)
    func rxRunTimed(_ program: RegExpProgram, _ s: StringCell, _ from: Int, base: Int, count: Int?) throws(JSException) -> Bool {
        measureRegExpTime = false
        let start = Heap.monotonicNanoseconds()
        defer {
            regexpNanoseconds &+= Heap.monotonicNanoseconds() &- start
            regexpMatches &+= 1
            measureRegExpTime = true
        }
        return try rxRun(program, s, from, base: base, count: count)
    }

    /// ToLength(lastIndex) of `r`, read from its slot when `r` has the instance shape.
    @inline(__always)
    func rxReadLastIndex(_ r: JSObject) throws(JSException) -> Int {
        let v = r.shape == realm.regexpInstanceShape ? r.slot(realm.regexpLastIndexSlot)
            : try get(r, rxKey(.lastIndex), receiver: Value(cell: r.cell))
        if v.isInt32 { return max(0, Int(v.asInt32)) }
        return try toLength(v)
    }

    /// Set(r, "lastIndex", n, true), straight to the slot when `r` has the instance shape
    /// (whose `lastIndex` is a writable data property).
    @inline(__always)
    func rxWriteLastIndex(_ r: JSObject, _ n: Int) throws(JSException) {
        if r.shape == realm.regexpInstanceShape {
            r.setSlot(realm.regexpLastIndexSlot, Value(n))
        } else {
            try rxSetLastIndex(r, Value(n))
        }
    }

    /// RegExpBuiltinExec(R, S) up to the match: reads and updates `lastIndex` as the spec
    /// does; on a match the captures are in `realm.regexpScratch.captures`.
    func rxBuiltinMatch(_ r: JSObject, _ program: RegExpProgram, _ s: StringCell, base: Int = 0, count: Int? = nil) throws(JSException) -> Bool {
        let length = count ?? s.length
        // 4. Let lastIndex be ℝ(? ToLength(? Get(R, "lastIndex"))).
        var lastIndex = try rxReadLastIndex(r)
        let flags = program.flags
        let globalOrSticky = flags.global || flags.sticky
        // 7. If global is false and sticky is false, set lastIndex to 0.
        if !globalOrSticky { lastIndex = 0 }
        // 13.a. If lastIndex > length, then fail.
        if lastIndex > length {
            if globalOrSticky { try rxWriteLastIndex(r, 0) }
            return false
        }
        guard try rxRun(program, s, lastIndex, base: base, count: length) else {
            if globalOrSticky { try rxWriteLastIndex(r, 0) }
            return false
        }
        // 15. If global is true or sticky is true, Set(R, "lastIndex", e, true).
        if globalOrSticky { try rxWriteLastIndex(r, realm.regexpScratch.captures[1]) }
        return true
    }

    // MARK: - @@replace

    /// RegExp.prototype[@@replace] for a pristine RegExp, or nil when `rx` is not one or its
    /// `lastIndex` is not a number (then the spec's steps run).
    func rxReplaceFast(_ rx: JSObject, _ sv: Value, _ replaceValue: Value, _ functional: Bool,
                       _ template: [UInt16]) throws(JSException) -> Value? {
        guard rxIsPristine(rx), let program = rxProgram(rx) else { return nil }
        if !program.flags.global && !rx.slot(realm.regexpLastIndexSlot).isNumber { return nil }
        let s = try flatten(sv)
        let length = s.length
        let slotsPerMatch = program.groupCount * 2
        // The captures of every match, collected first as the spec does (so the
        // replacement functions run after the last exec).
        var found: [Int] = []
        if program.flags.global {
            let fullUnicode = program.flags.unicodeMode
            var lastIndex = 0
            while lastIndex <= length, try rxRun(program, s, lastIndex) {
                let caps = realm.regexpScratch.captures
                found.append(contentsOf: UnsafeBufferPointer(start: caps, count: slotsPerMatch))
                lastIndex = caps[1]
                if caps[0] == caps[1] { lastIndex = rxAdvance(s, lastIndex, fullUnicode) }
            }
            rx.setSlot(realm.regexpLastIndexSlot, Value(int32: 0))
        } else if try rxBuiltinMatch(rx, program, s) {
            found.append(contentsOf: UnsafeBufferPointer(start: realm.regexpScratch.captures, count: slotsPerMatch))
        }
        if found.isEmpty { return sv }
        var out = RxStringBuilder(capacity: length)
        var nextSourcePosition = 0
        var m = 0
        while m < found.count {
            let position = found[m], matchEnd = found[m + 1]
            if position >= nextSourcePosition { out.append(s, nextSourcePosition, position) }
            if functional {
                let replacement = try found.withUnsafeBufferPointer { b throws(JSException) in
                    try rxCallReplacer(program, s, sv, replaceValue, b.baseAddress! + m)
                }
                if position >= nextSourcePosition { out.append(contentsOf: replacement) }
            } else if position >= nextSourcePosition {
                found.withUnsafeBufferPointer { b in
                    rxSubstitute(program, s, b.baseAddress! + m, template, &out)
                }
            }
            if position >= nextSourcePosition { nextSourcePosition = matchEnd }
            m += slotsPerMatch
        }
        out.append(s, nextSourcePosition, length)
        return try out.finish(self)
    }

    /// Calls a replacement function with (matched, p1…pn, position, string[, groups]).
    private func rxCallReplacer(_ program: RegExpProgram, _ s: StringCell, _ sv: Value, _ fn: Value,
                                _ caps: UnsafePointer<Int>) throws(JSException) -> [UInt16] {
        let n = program.groupCount
        var args: [Value] = []
        args.reserveCapacity(n + 3)
        var rooted = 0
        defer { heap.popRoots(rooted) }
        for i in 0..<n {
            let v: Value = caps[2 * i] >= 0 ? try rxSubstring(s, caps[2 * i], caps[2 * i + 1]) : .undefined
            heap.pushRoot(v); rooted += 1
            args.append(v)
        }
        args.append(Value(caps[0]))
        args.append(sv)
        if !program.groupNames.isEmpty {
            let g = try newObject(prototypeValue: .null)
            let gv = Value(cell: g.cell)
            heap.pushRoot(gv); rooted += 1
            for entry in program.groupNames {
                let k = key(entry.name)
                let v = args[entry.index]
                let existing = try getOwnProperty(g, k)
                if !v.isUndefined || existing == nil { try createDataProperty(g, k, v) }
            }
            args.append(gv)
        }
        let r = try args.withUnsafeBufferPointer { b throws(JSException) in try call(fn, this: .undefined, b) }
        return try flatten(try toString(r)).codeUnits
    }

    /// GetSubstitution for one match, straight from the capture positions.
    private func rxSubstitute(_ program: RegExpProgram, _ s: StringCell, _ caps: UnsafePointer<Int>,
                              _ template: [UInt16], _ out: inout RxStringBuilder) {
        rxSubstitute(groupCount: program.groupCount, groupNames: program.groupNames, s, caps, template, &out)
    }

    /// GetSubstitution(matched, str, position, captures, namedCaptures, template) where the
    /// match and its `groupCount - 1` captures are the slices `caps` of `s` (-1: undefined) and
    /// namedCaptures is undefined when `groupNames` is empty.
    func rxSubstitute(groupCount: Int, groupNames: [(name: String, index: Int)], _ s: StringCell,
                      _ caps: UnsafePointer<Int>, _ template: [UInt16], _ out: inout RxStringBuilder) {
        let dollar: UInt16 = 0x24
        let length = s.length
        let m = groupCount - 1
        let position = caps[0], matchEnd = caps[1]
        var i = 0
        let n = template.count
        while i < n {
            let c = template[i]
            if c != dollar || i + 1 >= n { out.append(c); i += 1; continue }
            let d = template[i + 1]
            switch d {
            case dollar: out.append(dollar); i += 2
            case 0x60: out.append(s, 0, position); i += 2          // $`
            case 0x26: out.append(s, position, matchEnd); i += 2   // $&
            case 0x27: out.append(s, min(matchEnd, length), length); i += 2  // $'
            case 0x30...0x39:
                var digitCount = (i + 2 < n && template[i + 2] >= 0x30 && template[i + 2] <= 0x39) ? 2 : 1
                var index = Int(d - 0x30)
                if digitCount == 2 { index = index * 10 + Int(template[i + 2] - 0x30) }
                if index > m && digitCount == 2 { digitCount = 1; index = Int(d - 0x30) }
                if index >= 1 && index <= m {
                    if caps[2 * index] >= 0 { out.append(s, caps[2 * index], caps[2 * index + 1]) }
                } else {
                    out.append(contentsOf: template[i..<(i + 1 + digitCount)])
                }
                i += 1 + digitCount
            case 0x3C: // $<
                var gt = -1
                var j = i + 2
                while j < n { if template[j] == 0x3E { gt = j; break }; j += 1 }
                if gt < 0 || groupNames.isEmpty {
                    out.append(dollar); out.append(0x3C); i += 2
                } else {
                    let name = String(decoding: template[(i + 2)..<gt], as: UTF16.self)
                    // groups[name]: the last participating group of that name.
                    var from = -1, to = -1
                    for entry in groupNames where entry.name == name && caps[2 * entry.index] >= 0 {
                        from = caps[2 * entry.index]; to = caps[2 * entry.index + 1]
                    }
                    if from >= 0 { out.append(s, from, to) }
                    i = gt + 1
                }
            default:
                out.append(dollar); i += 1
            }
        }
    }

    // MARK: - String searches

    /// StringIndexOf(s, t, from) over flat strings (`memchr` for the first unit over Latin-1).
    func rxIndexOf(_ s: StringCell, _ t: StringCell, _ from: Int) -> Int {
        let n = s.length, m = t.length
        if m == 0 { return from <= n ? from : -1 }
        if m > n { return -1 }
        let t0 = t[0]
        let last = n - m
        var i = from
        while i <= last {
            if s.is16Bit {
                let p = s.utf16
                while i <= last && p[i] != t0 { i += 1 }
                if i > last { return -1 }
            } else {
                if t0 > 0xFF { return -1 }
                guard let hit = memchr(s.latin1 + i, Int32(t0), last - i + 1) else { return -1 }
                i = UnsafeRawPointer(hit) - UnsafeRawPointer(s.latin1)
            }
            var j = 1
            while j < m && s[i + j] == t[j] { j += 1 }
            if j == m { return i }
            i += 1
        }
        return -1
    }

    /// String.prototype.replace / replaceAll with a string pattern (the steps after the
    /// conversions): `positions` of the matches of `search` in `s`.
    func rxReplaceString(_ sv: Value, _ s: StringCell, _ searchString: Value, _ search: StringCell,
                         _ replaceValue: Value, _ functional: Bool, all: Bool) throws(JSException) -> Value {
        var positions: [Int] = []
        let searchLength = search.length
        var position = rxIndexOf(s, search, 0)
        while position >= 0 {
            positions.append(position)
            if !all { break }
            position = rxIndexOf(s, search, position + max(1, searchLength))
        }
        if positions.isEmpty { return sv }
        let template = functional ? [] : try flatten(replaceValue).codeUnits
        var out = RxStringBuilder(capacity: s.length)
        var endOfLastMatch = 0
        for p in positions {
            out.append(s, endOfLastMatch, p)
            if functional {
                let r = try call(replaceValue, this: .undefined, searchString, Value(p), sv)
                let rs = try flatten(try toString(r))
                out.append(rs, 0, rs.length)
            } else {
                let caps = [p, p + searchLength]
                caps.withUnsafeBufferPointer { b in
                    rxSubstitute(groupCount: 1, groupNames: [], s, b.baseAddress!, template, &out)
                }
            }
            endOfLastMatch = p + searchLength
        }
        out.append(s, endOfLastMatch, s.length)
        return try out.finish(self)
    }

    // MARK: - @@split

    /// RegExp.prototype[@@split] for a pristine RegExp while RegExp[@@species] is the
    /// original (then the splitter the spec constructs, a copy with the `y` flag, is never
    /// seen): searches with a non-sticky program instead of trying every position. nil when
    /// the spec's steps must run.
    func rxSplitFast(_ rx: JSObject, _ sv: Value, _ limit: Value) throws(JSException) -> Value? {
        guard rxIsPristine(rx), let program = rxProgram(rx), rxSpeciesIsPristine() else { return nil }
        let search = rxUnstickyVariant(program)
        let unicodeMatching = program.flags.unicodeMode
        let a = try newArray()
        let av = Value(cell: a.cell)
        heap.pushRoot(av)
        defer { heap.popRoots(1) }
        // 13. If limit is undefined, let lim be 2³² - 1; else let lim be ℝ(? ToUint32(limit)).
        let lim: UInt32 = limit.isUndefined ? UInt32.max : try toUint32(limit)
        if lim == 0 { return av }
        let s = try flatten(sv)
        let size = s.length
        if size == 0 {
            if try rxRun(search, s, 0) { return av }
            try createDataProperty(a, .index(0), sv)
            return av
        }
        var lengthA: UInt32 = 0
        var p = 0, q = 0
        while q < size {
            guard try rxRun(search, s, q) else { break }
            let caps = realm.regexpScratch.captures
            if caps[0] >= size { break }
            q = caps[0]
            let e = min(caps[1], size)
            if e == p { q = rxAdvance(s, q, unicodeMatching); continue }
            // The captures, before the substrings below allocate (and may collect).
            let groups = search.groupCount > 1 ? Array(UnsafeBufferPointer(start: caps, count: search.groupCount * 2)) : []
            try createDataProperty(a, .index(lengthA), try rxSubstring(s, p, q))
            lengthA += 1
            if lengthA == lim { return av }
            p = e
            var i = 1
            while i < search.groupCount {
                let v: Value = groups[2 * i] >= 0 ? try rxSubstring(s, groups[2 * i], groups[2 * i + 1]) : .undefined
                try createDataProperty(a, .index(lengthA), v)
                lengthA += 1
                if lengthA == lim { return av }
                i += 1
            }
            q = p
        }
        try createDataProperty(a, .index(lengthA), try rxSubstring(s, p, size))
        return av
    }

    /// `program` without the global and sticky flags (compiled once, kept on the program).
    func rxUnstickyVariant(_ program: RegExpProgram) -> RegExpProgram {
        if !program.flags.sticky && !program.flags.global { return program }
        if let v = program.unstickyVariant { return v }
        var f = program.flags
        f.sticky = false
        f.global = false
        let v = RegExpProgram.compile(program.pattern, flags: f)
        program.unstickyVariant = v
        return v
    }

    // MARK: - @@match

    /// RegExp.prototype[@@match] of a pristine global RegExp, or nil.
    func rxMatchAllFast(_ rx: JSObject, _ sv: Value) throws(JSException) -> Value? {
        guard rxIsPristine(rx), let program = rxProgram(rx), program.flags.global else { return nil }
        let s = try flatten(sv)
        let length = s.length
        let fullUnicode = program.flags.unicodeMode
        let a = try newArray()
        let av = Value(cell: a.cell)
        heap.pushRoot(av)
        defer { heap.popRoots(1) }
        var n: UInt32 = 0
        var lastIndex = 0
        while lastIndex <= length, try rxRun(program, s, lastIndex) {
            let caps = realm.regexpScratch.captures
            let from = caps[0], to = caps[1]
            try createDataProperty(a, .index(n), try rxSubstring(s, from, to))
            n += 1
            lastIndex = from == to ? rxAdvance(s, to, fullUnicode) : to
        }
        rx.setSlot(realm.regexpLastIndexSlot, Value(int32: 0))
        return n == 0 ? .null : av
    }
}
