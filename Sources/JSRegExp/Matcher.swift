// The backtracking matcher: an explicit backtrack stack (never the native stack), bounded in
// memory.

#if canImport(Glibc)
import Glibc
#endif

/// A match could not be completed.
public enum RegExpMatchError: Error, Sendable {
    /// The backtrack stack exceeded its limit (a catastrophic pattern, or a huge input).
    case backtrackLimitExceeded
    /// The match backtracked more times than `RegExpScratch.backtrackBudget` allows (an
    /// embedding's step budget: catastrophic backtracking stays bounded in time).
    case stepLimitExceeded
}

struct Backtrack {
    var kind: Int32
    var pc: Int32
    var a: Int
    var b: Int
}

enum BT {
    static let branch: Int32 = 0
    static let undoState: Int32 = 1
    static let marker: Int32 = 2
    static let greedyFwd: Int32 = 3
    static let greedyBack: Int32 = 4
    static let lazy: Int32 = 5
    /// A forward greedy loop followed by a literal: retried only where it occurs.
    static let greedyFwdChar: Int32 = 6
}

/// The matcher's working memory (backtrack stack, capture and register slots), reused from
/// one match to the next so that a match allocates nothing. One per runtime: a match never
/// runs JS code, so it is never re-entered. After a successful match `captures` holds 2 slots
/// per group (-1 for undefined).
public final class RegExpScratch {
    var stack: UnsafeMutablePointer<Backtrack>
    var capacity: Int
    var state: UnsafeMutablePointer<Int>
    var stateCapacity: Int
    /// How many times one search may backtrack before it throws `stepLimitExceeded`
    /// (default: no limit, as in other engines; a runtime with a step budget sets one).
    public var backtrackBudget = Int.max
    /// What was left of `backtrackBudget` when the last search ended.
    public internal(set) var backtracksLeft = Int.max

    public init() {
        capacity = 256
        stack = .allocate(capacity: capacity)
        stateCapacity = 32
        state = .allocate(capacity: stateCapacity)
    }

    deinit {
        stack.deallocate()
        state.deallocate()
    }

    /// The capture slots of the last successful match: `2 * groupCount` of them.
    public var captures: UnsafePointer<Int> { UnsafePointer(state) }

    func reserveState(_ n: Int) {
        if n <= stateCapacity { return }
        state.deallocate()
        stateCapacity = max(n, 2 * stateCapacity)
        state = .allocate(capacity: stateCapacity)
    }
}

extension RegExpProgram {
    /// Maximum backtrack stack size in bytes.
    public static let backtrackLimitBytes = 64 << 20

    /// Searches `input` from `start` (only at `start` with the sticky flag). On success, returns
    /// true; the captures are in `scratch.captures`.
    public func exec(_ input: UnsafeBufferPointer<UInt16>, from start: Int, scratch: RegExpScratch) throws(RegExpMatchError) -> Bool {
        var m = Matcher<UInt16>(program: self, input: input, scratch: scratch)
        defer { scratch.stack = m.stack; scratch.capacity = m.capacity; scratch.backtracksLeft = m.backtracksLeft }
        return try m.search(self, from: start)
    }

    public func exec(latin1 input: UnsafeBufferPointer<UInt8>, from start: Int, scratch: RegExpScratch) throws(RegExpMatchError) -> Bool {
        var m = Matcher<UInt8>(program: self, input: input, scratch: scratch)
        defer { scratch.stack = m.stack; scratch.capacity = m.capacity; scratch.backtracksLeft = m.backtracksLeft }
        return try m.search(self, from: start)
    }

    /// Searches `input` from `start`; on success fills `captures` (2 per group, -1 for undefined).
    public func match(_ input: UnsafeBufferPointer<UInt16>, from start: Int, captures: inout [Int]) throws(RegExpMatchError) -> Bool {
        let scratch = RegExpScratch()
        guard try exec(input, from: start, scratch: scratch) else { return false }
        captures = Array(UnsafeBufferPointer(start: scratch.captures, count: groupCount * 2))
        return true
    }

    public func match(latin1 input: UnsafeBufferPointer<UInt8>, from start: Int, captures: inout [Int]) throws(RegExpMatchError) -> Bool {
        let scratch = RegExpScratch()
        guard try exec(latin1: input, from: start, scratch: scratch) else { return false }
        captures = Array(UnsafeBufferPointer(start: scratch.captures, count: groupCount * 2))
        return true
    }

    /// Convenience for tests: matches a Swift string.
    public func match(_ string: String, from start: Int = 0) throws(RegExpMatchError) -> [Int]? {
        let units = Array(string.utf16)
        var caps = [Int](repeating: -1, count: groupCount * 2)
        let ok = try units.withUnsafeBufferPointer { (p: UnsafeBufferPointer<UInt16>) throws(RegExpMatchError) -> Bool in
            try match(p, from: start, captures: &caps)
        }
        return ok ? caps : nil
    }
}

@inline(__always) private func isLead(_ c: UInt32) -> Bool { c & 0xFC00 == 0xD800 }
@inline(__always) private func isTrail(_ c: UInt32) -> Bool { c & 0xFC00 == 0xDC00 }
@inline(__always) private func isLineTerminator(_ c: UInt32) -> Bool {
    c == 0x0A || c == 0x0D || c == 0x2028 || c == 0x2029
}

/// One search. It holds no class references (the program and the scratch are read once, in
/// `init`), so stepping costs no reference counting; a grown backtrack stack goes back to the
/// scratch when the search ends.
struct Matcher<Unit: FixedWidthInteger & UnsignedInteger> {
    let s: UnsafePointer<Unit>
    let end: Int
    let code: UnsafePointer<Int32>
    let classes: UnsafePointer<ClassEntry>
    let unicode: Bool
    let ignoreCase: Bool
    let regBase: Int
    var stack: UnsafeMutablePointer<Backtrack>
    var capacity: Int
    let state: UnsafeMutablePointer<Int>
    let prefix: UnsafePointer<UInt16>
    let prefixCount: Int
    let prefixShift: UnsafePointer<Int32>
    let maxEntries = RegExpProgram.backtrackLimitBytes / MemoryLayout<Backtrack>.stride
    var backtracksLeft: Int

    init(program: borrowing RegExpProgram, input: UnsafeBufferPointer<Unit>, scratch: borrowing RegExpScratch) {
        self.prefix = UnsafePointer(program.prefix)
        self.prefixCount = program.prefixCount
        self.prefixShift = UnsafePointer(program.prefixShift)
        self.s = input.baseAddress ?? UnsafePointer(bitPattern: 8)!
        self.end = input.count
        self.code = UnsafePointer(program.code)
        self.classes = UnsafePointer(program.classes)
        self.unicode = program.flags.unicodeMode
        self.ignoreCase = program.flags.ignoreCase
        self.regBase = program.groupCount * 2
        scratch.reserveState(regBase + program.registerCount)
        self.state = scratch.state
        self.stack = scratch.stack
        self.capacity = scratch.capacity
        self.backtracksLeft = scratch.backtrackBudget
    }

    @inline(__always) func unit(_ i: Int) -> UInt32 { UInt32(s[i]) }

    mutating func search(_ program: RegExpProgram, from start: Int) throws(RegExpMatchError) -> Bool {
        // A failed attempt pops every undo record, so the slots are back to -1 after it:
        // they are cleared once per search, not once per start position.
        state.update(repeating: -1, count: regBase + program.registerCount)
        if program.prefixIsRequired && findPrefix(start) < 0 { return false }
        if program.flags.sticky || program.anchored {
            return try interpret(start)
        }
        let first = program.firstUnit
        let prefixCount = program.prefixIsRequired ? 0 : self.prefixCount
        let filter = program.hasStartFilter
        var p = start
        while true {
            if prefixCount > 0 {
                p = findPrefix(p)
                if p < 0 { return false }
            } else if first >= 0 {
                p = findUnit(UInt32(first), p)
                if p < 0 { return false }
            } else if filter {
                let bits = program.startBits, high = program.startHigh
                while p < end {
                    let u = unit(p)
                    if u < 256 ? bits[Int(u >> 6)] & (1 << UInt64(u & 63)) != 0 : high { break }
                    p += 1
                }
                if p >= end { return false }
            }
            // In Unicode mode a match never starts between the halves of a surrogate pair.
            if unicode && p > start && p < end && isTrail(unit(p)) && isLead(unit(p - 1)) { p += 1; continue }
            if try interpret(p) { return true }
            if p >= end { return false }
            if unicode && p + 1 < end && isLead(unit(p)) && isTrail(unit(p + 1)) { p += 2 } else { p += 1 }
        }
    }

    /// The first position at or after `from` holding `u`, or -1 (`memchr` over Latin-1).
    @inline(__always) func findUnit(_ u: UInt32, _ from: Int) -> Int {
        if from >= end { return -1 }
        if Unit.self == UInt8.self {
            if u > 0xFF { return -1 }
            guard let hit = memchr(UnsafeRawPointer(s + from), Int32(u), end - from) else { return -1 }
            return UnsafeRawPointer(hit) - UnsafeRawPointer(s)
        }
        var p = from
        while p < end && unit(p) != u { p += 1 }
        return p < end ? p : -1
    }

    /// The first position at or after `from` where the literal prefix occurs, or -1
    /// (`memchr` for its first unit over Latin-1; Boyer-Moore-Horspool over the low byte of
    /// each unit otherwise).
    @inline(__always) func findPrefix(_ from: Int) -> Int {
        let pat = prefix, m = prefixCount, shift = prefixShift
        if Unit.self == UInt8.self {
            let first = UInt32(pat[0])
            var i = from
            while i + m <= end {
                i = findUnit(first, i)
                if i < 0 || i + m > end { return -1 }
                var j = 1
                while j < m && unit(i + j) == UInt32(pat[j]) { j += 1 }
                if j == m { return i }
                i += 1
            }
            return -1
        }
        let last = m - 1
        let lastUnit = UInt32(pat[last])
        var i = from
        while i + m <= end {
            let c = unit(i + last)
            if c == lastUnit {
                var j = last - 1
                while j >= 0 && unit(i + j) == UInt32(pat[j]) { j -= 1 }
                if j < 0 { return i }
            }
            i += Int(shift[Int(c & 0xFF)])
        }
        return -1
    }

    // MARK: Reading characters

    /// The character at `pos` going forward, and its width (0 at the end).
    @inline(__always) func readForward(_ pos: Int) -> (UInt32, Int) {
        if pos >= end { return (0, 0) }
        let c = unit(pos)
        if unicode && isLead(c) && pos + 1 < end {
            let d = unit(pos + 1)
            if isTrail(d) { return (0x10000 + ((c - 0xD800) << 10) + (d - 0xDC00), 2) }
        }
        return (c, 1)
    }

    @inline(__always) func readBackward(_ pos: Int) -> (UInt32, Int) {
        if pos <= 0 { return (0, 0) }
        let c = unit(pos - 1)
        if unicode && isTrail(c) && pos - 2 >= 0 {
            let d = unit(pos - 2)
            if isLead(d) { return (0x10000 + ((d - 0xD800) << 10) + (c - 0xDC00), 2) }
        }
        return (c, 1)
    }

    /// `ic`: Unicode mode ignoring case, where U+017F and U+212A are word characters too.
    @inline(__always) func isWord(_ c: UInt32, _ ic: Bool) -> Bool {
        if c < 128 {
            return (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x5F
        }
        return ic && (c == 0x17F || c == 0x212A)
    }

    @inline(__always) func wordAt(_ i: Int, _ ic: Bool = false) -> Bool {
        if i < 0 || i >= end { return false }
        return isWord(unit(i), ic)
    }

    /// Matches the atom at `pc` at `pos`, advancing `pos`.
    @inline(__always) func step(_ code: UnsafePointer<Int32>, _ pc: Int, _ pos: inout Int) -> Bool {
        let op = code[pc]
        let backward = code[pc + 1] != 0
        let arg = code[pc + 2]
        if op == Op.char16 {
            if backward {
                if pos > 0 && unit(pos - 1) == UInt32(arg) { pos -= 1; return true }
            } else {
                if pos < end && unit(pos) == UInt32(arg) { pos += 1; return true }
            }
            return false
        }
        let (c, w) = backward ? readBackward(pos) : readForward(pos)
        if w == 0 { return false }
        let ok: Bool
        switch op {
        case Op.charCP: ok = c == UInt32(arg)
        case Op.charIC: ok = CaseFolding.canonicalize(c, unicode: unicode) == UInt32(arg)
        case Op.any: ok = !isLineTerminator(c)
        case Op.anyAll: ok = true
        case Op.cls: ok = classes[Int(arg)].matches(c)
        case Op.clsNot: ok = !classes[Int(arg)].matches(c)
        default: ok = false
        }
        if ok { pos += backward ? -w : w }
        return ok
    }

    // MARK: The backtrack stack

    @inline(__always) mutating func push(_ kind: Int32, _ pc: Int, _ a: Int, _ b: Int, _ sp: inout Int) throws(RegExpMatchError) {
        if sp == capacity { try grow() }
        stack[sp] = Backtrack(kind: kind, pc: Int32(truncatingIfNeeded: pc), a: a, b: b)
        sp += 1
    }

    mutating func grow() throws(RegExpMatchError) {
        if capacity >= maxEntries { throw .backtrackLimitExceeded }
        let n = Swift.min(capacity * 2, maxEntries)
        let new = UnsafeMutablePointer<Backtrack>.allocate(capacity: n)
        new.moveInitialize(from: stack, count: capacity)
        stack.deallocate()
        stack = new
        capacity = n
    }

    @inline(__always) mutating func setState(_ i: Int, _ v: Int, _ sp: inout Int) throws(RegExpMatchError) {
        let old = state[i]
        if old == v { return }
        try push(BT.undoState, i, old, 0, &sp)
        state[i] = v
    }

    // MARK: The interpreter

    mutating func interpret(_ start: Int) throws(RegExpMatchError) -> Bool {
        let code = self.code
        var pc = 0
        var pos = start
        var sp = 0
        var lookTop = -1
        outer: while true {
            var failed = false
            switch code[pc] {
            case Op.match:
                return true
            case Op.char16:
                // Inline fast path for the most common atom.
                if code[pc + 1] == 0 {
                    if pos < end && unit(pos) == UInt32(code[pc + 2]) { pos += 1; pc += 3 } else { failed = true }
                } else if step(code, pc, &pos) { pc += 3 } else { failed = true }
            case Op.cls, Op.clsNot:
                // Inline fast path: forward, one unit (not a surrogate pair in Unicode mode).
                if code[pc + 1] == 0 && pos < end && (!unicode || !isLead(unit(pos))) {
                    if classes[Int(code[pc + 2])].matches(unit(pos)) == (code[pc] == Op.cls) { pos += 1; pc += 3 } else { failed = true }
                } else if step(code, pc, &pos) { pc += 3 } else { failed = true }
            case Op.charCP, Op.charIC, Op.any, Op.anyAll:
                if step(code, pc, &pos) { pc += 3 } else { failed = true }
            case Op.lineStart:
                if pos == 0 { pc += 1 } else { failed = true }
            case Op.lineStartM:
                if pos == 0 || isLineTerminator(unit(pos - 1)) { pc += 1 } else { failed = true }
            case Op.lineEnd:
                if pos == end { pc += 1 } else { failed = true }
            case Op.lineEndM:
                if pos == end || isLineTerminator(unit(pos)) { pc += 1 } else { failed = true }
            case Op.wordB, Op.notWordB:
                let b = wordAt(pos - 1) != wordAt(pos)
                if b == (code[pc] == Op.wordB) { pc += 1 } else { failed = true }
            case Op.wordBIC, Op.notWordBIC:
                let b = wordAt(pos - 1, true) != wordAt(pos, true)
                if b == (code[pc] == Op.wordBIC) { pc += 1 } else { failed = true }
            case Op.goto:
                pc = Int(code[pc + 1])
            case Op.split:
                try push(BT.branch, Int(code[pc + 1]), pos, 0, &sp)
                pc += 2
            case Op.save:
                try setState(Int(code[pc + 1]), pos, &sp)
                pc += 2
            case Op.resetCaptures:
                let first = Int(code[pc + 1]), count = Int(code[pc + 2])
                for i in (2 * first)..<(2 * (first + count)) where state[i] != -1 { try setState(i, -1, &sp) }
                pc += 3
            case Op.backref:
                let backward = code[pc + 1] != 0, ic = code[pc + 2] != 0
                let n = Int(code[pc + 3])
                var from = -1, to = -1
                for k in 0..<n {
                    let g = Int(code[pc + 4 + k])
                    if state[2 * g] >= 0 && state[2 * g + 1] >= 0 { from = state[2 * g]; to = state[2 * g + 1]; break }
                }
                pc += 4 + n
                if from < 0 { break }
                let len = to - from
                if backward {
                    if pos - len < 0 { failed = true; break }
                    if !equal(from, pos - len, len, ic) { failed = true; break }
                    pos -= len
                } else {
                    if pos + len > end { failed = true; break }
                    if !equal(from, pos, len, ic) { failed = true; break }
                    pos += len
                }
            case Op.setReg:
                try setState(regBase + Int(code[pc + 1]), Int(code[pc + 2]), &sp)
                pc += 3
            case Op.setRegPos:
                try setState(regBase + Int(code[pc + 1]), pos, &sp)
                pc += 2
            case Op.incReg:
                let r = regBase + Int(code[pc + 1])
                try setState(r, state[r] + 1, &sp)
                pc += 2
            case Op.loopCheck:
                let cnt = state[regBase + Int(code[pc + 1])]
                let min = Int(code[pc + 2]), max = Int(code[pc + 3])
                let exit = Int(code[pc + 5])
                if cnt < min { pc += 6; break }
                if max >= 0 && cnt >= max { pc = exit; break }
                if code[pc + 4] != 0 {
                    try push(BT.branch, exit, pos, 0, &sp)
                    pc += 6
                } else {
                    try push(BT.branch, pc + 6, pos, 0, &sp)
                    pc = exit
                }
            case Op.emptyCheck:
                let p0 = state[regBase + Int(code[pc + 1])]
                let cnt = state[regBase + Int(code[pc + 2])]
                if cnt >= Int(code[pc + 3]) && pos == p0 { failed = true } else { pc += 4 }
            case Op.lookStart:
                try push(BT.marker, Int(code[pc + 2]), pos, (lookTop << 1) | Int(code[pc + 1]), &sp)
                lookTop = sp - 1
                pc += 3
            case Op.lookEnd:
                let m = lookTop
                let e = stack[m]
                lookTop = e.b >> 1
                if e.b & 1 == 0 {
                    // Positive: keep only the undo records of the body.
                    var w = m
                    for i in (m + 1)..<sp where stack[i].kind == BT.undoState {
                        stack[w] = stack[i]; w += 1
                    }
                    sp = w
                    pos = e.a
                    pc = Int(e.pc)
                } else {
                    // Negative: the body matched, so the lookaround fails; undo its effects.
                    while sp > m + 1 {
                        sp -= 1
                        let u = stack[sp]
                        if u.kind == BT.undoState { state[Int(u.pc)] = u.a }
                    }
                    sp = m
                    failed = true
                }
            case Op.greedyLoop:
                let min = Int(code[pc + 1]), max = Int(code[pc + 2])
                let atom = pc + 3
                let startPos = pos
                var count = 0
                var minPos = startPos
                let op = code[atom]
                if code[atom + 1] == 0 && !unicode && (op == Op.cls || op == Op.clsNot || op == Op.char16 || op == Op.any) {
                    // Forward over single units: a tight loop per atom kind.
                    let limit = max < 0 ? end : Swift.min(end, pos + max)
                    let arg = code[atom + 2]
                    switch op {
                    case Op.cls:
                        let cls = classes + Int(arg)
                        while pos < limit && cls.pointee.matches(unit(pos)) { pos += 1 }
                    case Op.clsNot:
                        let cls = classes + Int(arg)
                        while pos < limit && !cls.pointee.matches(unit(pos)) { pos += 1 }
                    case Op.char16:
                        let u = UInt32(arg)
                        while pos < limit && unit(pos) == u { pos += 1 }
                    default:
                        while pos < limit && !isLineTerminator(unit(pos)) { pos += 1 }
                    }
                    count = pos - startPos
                    if count >= min { minPos = startPos + min }
                } else {
                    while max < 0 || count < max {
                        if !step(code, atom, &pos) { break }
                        count += 1
                        if count == min { minPos = pos }
                    }
                }
                if count < min { failed = true; break }
                pc += 6
                if pos != minPos {
                    if code[atom + 1] == 0 && !unicode {
                        // Look past captures at what must match next.
                        var next = pc
                        while code[next] == Op.save { next += 2 }
                        if code[next] == Op.lineEnd {
                            // Only the longest run can reach the end: nothing to retry.
                            if pos != end { failed = true }
                            break
                        }
                        if code[next] == Op.char16 && code[next + 1] == 0 {
                            // Retry only where the next character can match.
                            try push(BT.greedyFwdChar, pc, pos, minPos, &sp)
                            break
                        }
                    }
                    try push(code[atom + 1] == 0 ? BT.greedyFwd : BT.greedyBack, pc, pos, minPos, &sp)
                }
            case Op.lazyLoop:
                let min = Int(code[pc + 1]), max = Int(code[pc + 2])
                var count = 0
                while count < min {
                    if !step(code, pc + 3, &pos) { break }
                    count += 1
                }
                if count < min { failed = true; break }
                if max < 0 || count < max { try push(BT.lazy, pc, pos, count, &sp) }
                pc += 6
            case Op.fail:
                failed = true
            case Op.emptyFail:
                if pos == state[regBase + Int(code[pc + 1])] { failed = true } else { pc += 2 }
            default:
                fatalError("bad regexp opcode \(code[pc])")
            }
            if !failed { continue }
            // Backtrack.
            backtracksLeft &-= 1
            if backtracksLeft < 0 { throw .stepLimitExceeded }
            while true {
                if sp == 0 { return false }
                let e = stack[sp - 1]
                switch e.kind {
                case BT.branch:
                    sp -= 1
                    pos = e.a
                    pc = Int(e.pc)
                    continue outer
                case BT.undoState:
                    sp -= 1
                    state[Int(e.pc)] = e.a
                case BT.marker:
                    sp -= 1
                    lookTop = e.b >> 1
                    if e.b & 1 != 0 {
                        pos = e.a
                        pc = Int(e.pc)
                        continue outer
                    }
                case BT.greedyFwd:
                    var p = e.a - 1
                    if unicode && p > e.b && isTrail(unit(p)) && isLead(unit(p - 1)) { p -= 1 }
                    if p == e.b { sp -= 1 } else { stack[sp - 1].a = p }
                    pos = p
                    pc = Int(e.pc)
                    continue outer
                case BT.greedyFwdChar:
                    var next = Int(e.pc)
                    while code[next] == Op.save { next += 2 }
                    let c = UInt32(code[next + 2])
                    var p = e.a - 1
                    while p >= e.b && (p >= end || unit(p) != c) { p -= 1 }
                    if p < e.b { sp -= 1; continue }
                    if p == e.b { sp -= 1 } else { stack[sp - 1].a = p }
                    pos = p
                    pc = Int(e.pc)
                    continue outer
                case BT.greedyBack:
                    var p = e.a + 1
                    if unicode && p < e.b && isLead(unit(p - 1)) && isTrail(unit(p)) { p += 1 }
                    if p == e.b { sp -= 1 } else { stack[sp - 1].a = p }
                    pos = p
                    pc = Int(e.pc)
                    continue outer
                case BT.lazy:
                    let loopPC = Int(e.pc)
                    var p = e.a
                    if step(code, loopPC + 3, &p) {
                        let count = e.b + 1
                        let max = Int(code[loopPC + 2])
                        if max >= 0 && count >= max { sp -= 1 } else { stack[sp - 1].a = p; stack[sp - 1].b = count }
                        pos = p
                        pc = loopPC + 6
                        continue outer
                    }
                    sp -= 1
                default:
                    fatalError("bad backtrack entry")
                }
            }
        }
    }

    func equal(_ a: Int, _ b: Int, _ len: Int, _ ic: Bool) -> Bool {
        if !ic {
            for i in 0..<len where s[a + i] != s[b + i] { return false }
            return true
        }
        var i = 0
        while i < len {
            let (c1, w1) = readForward(a + i)
            let (c2, w2) = readForward(b + i)
            if w1 != w2 && !(a + i + w1 <= a + len) { return false }
            if CaseFolding.canonicalize(c1, unicode: unicode) != CaseFolding.canonicalize(c2, unicode: unicode) { return false }
            if w1 != w2 { return false }
            i += w1
        }
        return true
    }
}
