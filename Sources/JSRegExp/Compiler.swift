// RegExpNode tree -> bytecode for the backtracking matcher.

import JSSyntax

/// Opcodes of the matcher. Atoms (single-character matchers) are always 3 words:
/// `[op, direction (0 forward, 1 backward), argument]`.
enum Op {
    static let match: Int32 = 0
    // Atoms.
    static let char16: Int32 = 1      // arg: code unit
    static let charCP: Int32 = 2      // arg: code point (read a whole character)
    static let charIC: Int32 = 3      // arg: canonicalized character
    static let any: Int32 = 4         // arg unused: any but line terminators
    static let anyAll: Int32 = 5
    static let cls: Int32 = 6         // arg: class index
    static let clsNot: Int32 = 7
    // Assertions: [op]
    static let lineStart: Int32 = 10
    static let lineStartM: Int32 = 11
    static let lineEnd: Int32 = 12
    static let lineEndM: Int32 = 13
    static let wordB: Int32 = 14
    static let notWordB: Int32 = 15
    static let wordBIC: Int32 = 16    // \b with `u` and `i`: U+017F and U+212A are word characters
    static let notWordBIC: Int32 = 17
    // Control.
    static let goto: Int32 = 20       // [op, target]
    static let split: Int32 = 21      // [op, alt]: try next first, alt on backtrack
    static let save: Int32 = 22       // [op, slot]
    static let resetCaptures: Int32 = 23  // [op, firstGroup, count]
    static let backref: Int32 = 24    // [op, dir, ic, n, groups...]
    static let setReg: Int32 = 25     // [op, reg, value]
    static let setRegPos: Int32 = 26  // [op, reg]
    static let incReg: Int32 = 27     // [op, reg]
    static let loopCheck: Int32 = 28  // [op, cntReg, min, max(-1), greedy, exit]
    static let emptyCheck: Int32 = 29 // [op, posReg, cntReg, min]
    static let lookStart: Int32 = 30  // [op, negated, after]
    static let lookEnd: Int32 = 31    // [op]
    static let greedyLoop: Int32 = 32 // [op, min, max(-1)] + atom (3 words)
    static let lazyLoop: Int32 = 33   // [op, min, max(-1)] + atom
    static let fail: Int32 = 34
    static let emptyFail: Int32 = 35  // [op, posReg]: fail when pos == the register
}

/// A compiled regular expression.
///
/// The code, the class tables and the search hints live in memory the program owns (freed in
/// `deinit`), so the matcher reads them through raw pointers: no Swift array bounds checks,
/// copy-on-write checks or reference counting per step.
public final class RegExpProgram: @unchecked Sendable {
    public let flags: RegExpFlags
    /// The parsed pattern (to compile variants with other flags).
    public let pattern: RegExpPattern
    /// This program without `g` and `y`, made on first use (String.prototype.split).
    public var unstickyVariant: RegExpProgram?
    /// Number of groups including the whole match (group 0).
    public let groupCount: Int
    public let groupNames: [(name: String, index: Int)]
    let code: UnsafeMutablePointer<Int32>
    let codeCount: Int
    let classes: UnsafeMutablePointer<ClassEntry>
    let classCount: Int
    let registerCount: Int
    /// When every match must begin with this code unit (case-sensitive), a fast scan.
    let firstUnit: Int32
    /// Every match starts at the search's start position (`^` without /m leads every
    /// alternative): one attempt, never a retry at later positions.
    let anchored: Bool
    /// A literal every match starts with (case-sensitive, at least 2 units), found with
    /// Boyer-Moore-Horspool before each attempt; `prefixShift` is its 256-entry shift table
    /// indexed by the low byte of a unit.
    let prefix: UnsafeMutablePointer<UInt16>
    let prefixCount: Int
    let prefixShift: UnsafeMutablePointer<Int32>
    /// `prefix` is not where matches start but a literal somewhere in every match (the
    /// longest run of the top-level sequence): a search fails at once when it does not occur
    /// after the start position.
    let prefixIsRequired: Bool
    /// The code units a match may start with (a 256-bit map for units below 256, and whether
    /// any unit above may start one), when the pattern cannot match the empty string.
    let startBits: UnsafeMutablePointer<UInt64>
    let hasStartFilter: Bool
    let startHigh: Bool

    init(pattern: RegExpPattern, groupCount: Int, groupNames: [(name: String, index: Int)], code: [Int32],
         classes: [(set: CharSet, ignoreCase: Bool)], registerCount: Int, firstUnit: Int32, anchored: Bool, prefix: [UInt16],
         prefixIsRequired: Bool, startSet: StartSet?) {
        self.prefixIsRequired = prefixIsRequired
        self.pattern = pattern
        self.flags = pattern.flags
        self.groupCount = groupCount
        self.groupNames = groupNames
        self.codeCount = code.count
        self.code = .allocate(capacity: max(code.count, 1))
        self.code.initialize(from: code, count: code.count)
        self.classCount = classes.count
        self.classes = .allocate(capacity: max(classes.count, 1))
        for (i, c) in classes.enumerated() {
            (self.classes + i).initialize(to: ClassEntry(set: c.set, ignoreCase: c.ignoreCase, unicode: pattern.flags.unicodeMode))
        }
        self.registerCount = registerCount
        self.firstUnit = firstUnit
        self.anchored = anchored
        self.prefixCount = prefix.count
        self.prefix = .allocate(capacity: max(prefix.count, 1))
        self.prefix.initialize(from: prefix, count: prefix.count)
        self.prefixShift = .allocate(capacity: 256)
        self.prefixShift.initialize(repeating: Int32(prefix.count), count: 256)
        if prefix.count > 1 {
            for i in 0..<(prefix.count - 1) { prefixShift[Int(prefix[i] & 0xFF)] = Int32(prefix.count - 1 - i) }
        }
        self.startBits = .allocate(capacity: 4)
        self.startBits.initialize(repeating: 0, count: 4)
        if let ss = startSet {
            for i in 0..<4 { startBits[i] = ss.bits[i] }
        }
        self.hasStartFilter = startSet != nil
        self.startHigh = startSet?.high ?? true
    }

    deinit {
        for i in 0..<classCount { classes[i].ranges.deallocate() }
        classes.deinitialize(count: classCount)
        classes.deallocate()
        code.deallocate()
        prefix.deallocate()
        prefixShift.deallocate()
        startBits.deallocate()
    }

    /// Parses and compiles `pattern`.
    public static func compile(pattern: [UInt16], flags: RegExpFlags) throws(RegExpSyntaxError) -> RegExpProgram {
        let parsed = try RegExpParser.parse(utf16: pattern, flags: flags)
        return compile(parsed)
    }

    /// `pattern` compiled with other flags (`g` and `y` only: they do not change the parse).
    public static func compile(_ pattern: RegExpPattern, flags: RegExpFlags) -> RegExpProgram {
        var p = pattern
        p.flags = flags
        return compile(p)
    }

    public static func compile(_ pattern: RegExpPattern) -> RegExpProgram {
        var c = RegExpCompiler(pattern: pattern)
        c.emit(Op.save); c.emit(0)
        c.compile(pattern.root, backward: false)
        c.emit(Op.save); c.emit(1)
        c.emit(Op.match)
        var first: Int32 = -1
        var prefix: [UInt16] = []
        var required: [UInt16] = []
        if !pattern.flags.ignoreCase {
            if let u = RegExpCompiler.firstUnit(pattern.root, unicode: pattern.flags.unicodeMode) { first = Int32(u) }
            prefix = RegExpCompiler.literalPrefix(pattern.root, unicode: pattern.flags.unicodeMode)
            if prefix.count < 2 { prefix = [] }
            if prefix.isEmpty {
                required = RegExpCompiler.requiredLiteral(pattern.root, unicode: pattern.flags.unicodeMode)
                if required.count < 2 { required = [] }
            }
        }
        let anchored = !pattern.flags.multiline && RegExpCompiler.anchored(pattern.root)
        var startSet: StartSet? = nil
        if first < 0 && prefix.isEmpty && !anchored, let (set, nullable) = c.startSet(pattern.root), !nullable, !set.isFull {
            startSet = set
        }
        return RegExpProgram(pattern: pattern, groupCount: pattern.captureCount + 1, groupNames: pattern.groupNames,
                             code: c.code, classes: c.classes, registerCount: c.registers, firstUnit: first,
                             anchored: anchored, prefix: prefix.isEmpty ? required : prefix,
                             prefixIsRequired: prefix.isEmpty && !required.isEmpty, startSet: startSet)
    }
}

/// A set of code units that may start a match: exact below 256, one bit for all above.
struct StartSet {
    var bits: [UInt64] = [0, 0, 0, 0]
    var high = false

    mutating func add(_ c: UInt32) {
        if c < 256 { bits[Int(c >> 6)] |= 1 << UInt64(c & 63) } else { high = true }
    }

    mutating func formUnion(_ o: StartSet) {
        for i in 0..<4 { bits[i] |= o.bits[i] }
        high = high || o.high
    }

    var isFull: Bool { high && bits.allSatisfy { $0 == ~0 } }
}

struct RegExpCompiler {
    let pattern: RegExpPattern
    /// The flags in force (modifiers groups change `i`, `m` and `s` for their body).
    var flags: RegExpFlags
    let unicode: Bool
    var ignoreCase: Bool
    var code: [Int32] = []
    /// Class sets, closed over case when ignoring case.
    var classes: [(set: CharSet, ignoreCase: Bool)] = []
    var registers = 0

    init(pattern: RegExpPattern) {
        self.pattern = pattern
        self.flags = pattern.flags
        self.unicode = pattern.flags.unicodeMode
        self.ignoreCase = pattern.flags.ignoreCase
    }

    mutating func emit(_ w: Int32) { code.append(w) }
    mutating func emit(_ w: Int) { code.append(Int32(truncatingIfNeeded: w)) }
    var here: Int { code.count }
    mutating func patch(_ at: Int, _ value: Int) { code[at] = Int32(value) }

    var maxChar: UInt32 { unicode ? CharSet.maxCodePoint : 0xFFFF }

    // MARK: - Sets

    static let spaceRanges: [UInt32] = [9, 0xD, 0x20, 0x20, 0xA0, 0xA0, 0x1680, 0x1680, 0x2000, 0x200A,
                                        0x2028, 0x2029, 0x202F, 0x202F, 0x205F, 0x205F, 0x3000, 0x3000, 0xFEFF, 0xFEFF]

    func escapeSet(_ e: RegExpClassEscape) -> CharSet {
        switch e {
        case .digit: return CharSet(ranges: [0x30, 0x39])
        case .notDigit: return CharSet(ranges: [0x30, 0x39]).inverted(maxChar: maxChar)
        case .space: return CharSet(ranges: Self.spaceRanges)
        case .notSpace: return CharSet(ranges: Self.spaceRanges).inverted(maxChar: maxChar)
        case .word: return wordSet
        case .notWord: return wordSet.inverted(maxChar: maxChar)
        case .property(let p, let negated):
            let s = UnicodeProperties.set(for: p)
            return negated ? s.inverted(maxChar: maxChar) : s
        }
    }

    var wordSet: CharSet {
        var s = CharSet(ranges: [0x30, 0x39, 0x41, 0x5A, 0x5F, 0x5F, 0x61, 0x7A])
        if unicode && ignoreCase { s.add(0x17F); s.add(0x212A) }
        return s
    }

    struct ClassValue {
        var chars = CharSet()
        var strings: Set<[UInt32]> = []
    }

    func classValue(_ cc: RegExpCharacterClass) -> ClassValue {
        var values: [ClassValue] = []
        for item in cc.items { values.append(itemValue(item)) }
        var result: ClassValue
        switch cc.kind {
        case .union:
            result = ClassValue()
            for v in values { result.chars.formUnion(v.chars); result.strings.formUnion(v.strings) }
        case .intersection:
            result = values.first ?? ClassValue()
            for v in values.dropFirst() {
                result.chars = result.chars.intersection(v.chars)
                result.strings.formIntersection(v.strings)
            }
        case .subtraction:
            result = values.first ?? ClassValue()
            for v in values.dropFirst() {
                result.chars = result.chars.subtracting(v.chars)
                result.strings.subtract(v.strings)
            }
        }
        return result
    }

    func itemValue(_ item: RegExpClassItem) -> ClassValue {
        var v = ClassValue()
        switch item {
        case .character(let c): v.chars.add(c)
        case .range(let a, let b): v.chars.add(a, b)
        case .escape(let e):
            v.chars = escapeSet(e)
            if case .property(.ofStrings(let name), _) = e {
                for seq in UnicodeProperties.sequences(of: name) where seq.count > 1 { v.strings.insert(seq) }
            }
        case .strings(let list):
            for s in list { if s.count == 1 { v.chars.add(s[0]) } else { v.strings.insert(s) } }
        case .nested(let cc):
            v = classValue(cc)
            if cc.negated { v.chars = v.chars.inverted(maxChar: maxChar); v.strings = [] }
        }
        return v
    }

    mutating func addClass(_ set: CharSet) -> Int {
        classes.append((ignoreCase ? CaseFolding.closeOver(set, unicode: unicode) : set, ignoreCase))
        return classes.count - 1
    }

    // MARK: - Atoms

    /// Emits a single 3-word atom for a single-character node, or returns false.
    mutating func emitAtom(_ node: RegExpNode, backward: Bool) -> Bool {
        let dir: Int32 = backward ? 1 : 0
        switch node {
        case .character(let c):
            if ignoreCase {
                let cc = CaseFolding.canonicalize(c, unicode: unicode)
                // A character no other character canonicalizes to compares exactly.
                emit(Op.charIC); emit(dir); emit(Int(cc))
            } else if !unicode || (c < 0xD800 || (c > 0xDFFF && c <= 0xFFFF)) {
                emit(Op.char16); emit(dir); emit(Int(c))
            } else {
                emit(Op.charCP); emit(dir); emit(Int(c))
            }
        case .any:
            emit(flags.dotAll ? Op.anyAll : Op.any); emit(dir); emit(0)
        case .characterClass(let cc):
            let v = classValue(cc)
            if !v.strings.isEmpty { return false }
            let idx = addClass(v.chars)
            emit(cc.negated ? Op.clsNot : Op.cls); emit(dir); emit(idx)
        case .classEscape(let e):
            if Self.isStringProperty(e) { return false }
            let idx = addClass(escapeSet(e))
            emit(Op.cls); emit(dir); emit(idx)
        default:
            return false
        }
        return true
    }

    static func isStringProperty(_ e: RegExpClassEscape) -> Bool {
        if case .property(.ofStrings, _) = e { return true }
        return false
    }

    static func isAtom(_ node: RegExpNode) -> Bool {
        switch node {
        case .character, .any: return true
        case .classEscape(let e): return !isStringProperty(e)
        case .characterClass(let cc): return !cc.mayContainStrings
        default: return false
        }
    }

    // MARK: - Nodes

    mutating func compile(_ node: RegExpNode, backward: Bool) {
        switch node {
        case .empty:
            break
        case .character(let c):
            if unicode && c > 0xFFFF && !ignoreCase {
                let v = c - 0x10000
                let hi = 0xD800 + (v >> 10), lo = 0xDC00 + (v & 0x3FF)
                let dir: Int32 = backward ? 1 : 0
                for u in backward ? [lo, hi] : [hi, lo] { emit(Op.char16); emit(dir); emit(Int(u)) }
            } else {
                _ = emitAtom(node, backward: backward)
            }
        case .classEscape(let e) where Self.isStringProperty(e):
            compile(.characterClass(RegExpCharacterClass(negated: false, items: [.escape(e)], mayContainStrings: true)),
                    backward: backward)
        case .any, .classEscape:
            _ = emitAtom(node, backward: backward)
        case .characterClass(let cc):
            let v = classValue(cc)
            if v.strings.isEmpty {
                let idx = addClass(v.chars)
                emit(cc.negated ? Op.clsNot : Op.cls); emit(backward ? 1 : 0); emit(idx)
            } else {
                // Longest strings first, then single characters, then the empty string.
                // Forward, the strings are compiled as a trie (one alternative per distinct next
                // character, longer continuations before a string that ends there), so a
                // position is tried against each character once, not against every string.
                let strings = v.strings.filter { !$0.isEmpty }.sorted { $0.count > $1.count }
                let classIdx = v.chars.isEmpty ? -1 : addClass(v.chars)
                let hasEmpty = v.strings.contains([])
                let useTrie = !backward && strings.count > 1
                let stringAlternatives = useTrie ? 1 : strings.count
                let n = stringAlternatives + (classIdx >= 0 ? 1 : 0) + (hasEmpty ? 1 : 0)
                emitAlternatives(n) { c, i in
                    if i < stringAlternatives {
                        if useTrie {
                            c.compile(Self.trie(strings), backward: false)
                        } else {
                            c.compile(.sequence(strings[i].map { .character($0) }), backward: backward)
                        }
                    } else if i == stringAlternatives && classIdx >= 0 {
                        c.emit(Op.cls); c.emit(backward ? 1 : 0); c.emit(classIdx)
                    }
                }
            }
        case .assertion(let a):
            switch a {
            case .start: emit(flags.multiline ? Op.lineStartM : Op.lineStart)
            case .end: emit(flags.multiline ? Op.lineEndM : Op.lineEnd)
            case .wordBoundary: emit(unicode && ignoreCase ? Op.wordBIC : Op.wordB)
            case .notWordBoundary: emit(unicode && ignoreCase ? Op.notWordBIC : Op.notWordB)
            }
        case .modifiers(let m):
            let saved = flags
            apply(m)
            compile(m.body, backward: backward)
            flags = saved
            ignoreCase = saved.ignoreCase
        case .lookaround(let l):
            emit(Op.lookStart); emit(l.negated ? 1 : 0)
            let patchAt = here; emit(0)
            compile(l.body, backward: l.behind)
            emit(Op.lookEnd)
            patch(patchAt, here)
        case .sequence(let terms):
            if backward {
                for t in terms.reversed() { compile(t, backward: true) }
            } else {
                for t in terms { compile(t, backward: false) }
            }
        case .alternation(let alts):
            compileAlternatives(alts, backward: backward)
        case .capture(let index, _, let body):
            emit(Op.save); emit(backward ? 2 * index + 1 : 2 * index)
            compile(body, backward: backward)
            emit(Op.save); emit(backward ? 2 * index : 2 * index + 1)
        case .backReference(let index, let name):
            var groups: [Int] = []
            if let name {
                for e in pattern.groupNames where e.name == name { groups.append(e.index) }
            }
            if groups.isEmpty { groups = [index] }
            emit(Op.backref); emit(backward ? 1 : 0); emit(ignoreCase ? 1 : 0); emit(groups.count)
            for g in groups { emit(g) }
        case .quantifier(let q):
            compileQuantifier(q, backward: backward)
        }
    }

    mutating func apply(_ m: RegExpModifiers) {
        if let i = m.ignoreCase { flags.ignoreCase = i; ignoreCase = i }
        if let v = m.multiline { flags.multiline = v }
        if let v = m.dotAll { flags.dotAll = v }
    }

    /// A node matching exactly `strings` (non-empty, in matching order), longest first.
    static func trie(_ strings: [[UInt32]]) -> RegExpNode {
        trieNode(strings.sorted { $0.lexicographicallyPrecedes($1) }[...], depth: 0)
    }

    /// `strings` share their first `depth` code points and are sorted.
    private static func trieNode(_ strings: ArraySlice<[UInt32]>, depth: Int) -> RegExpNode {
        var alternatives: [RegExpNode] = []
        var endsHere = false
        var i = strings.startIndex
        while i < strings.endIndex {
            let s = strings[i]
            if s.count == depth { endsHere = true; i += 1; continue }
            var j = i + 1
            while j < strings.endIndex && strings[j].count > depth && strings[j][depth] == s[depth] { j += 1 }
            let rest = trieNode(strings[i..<j], depth: depth + 1)
            if case .empty = rest {
                alternatives.append(.character(s[depth]))
            } else if case .sequence(let terms) = rest {
                alternatives.append(.sequence([.character(s[depth])] + terms))
            } else {
                alternatives.append(.sequence([.character(s[depth]), rest]))
            }
            i = j
        }
        if endsHere && !alternatives.isEmpty { alternatives.append(.empty) }
        switch alternatives.count {
        case 0: return .empty
        case 1: return alternatives[0]
        default: return .alternation(alternatives)
        }
    }

    mutating func compileAlternatives(_ alts: [RegExpNode], backward: Bool) {
        emitAlternatives(alts.count) { c, i in c.compile(alts[i], backward: backward) }
    }

    mutating func emitAlternatives(_ n: Int, _ body: (inout RegExpCompiler, Int) -> Void) {
        var jumps: [Int] = []
        for i in 0..<n {
            var splitPatch = -1
            if i < n - 1 { emit(Op.split); splitPatch = here; emit(0) }
            body(&self, i)
            if i < n - 1 {
                emit(Op.goto); jumps.append(here); emit(0)
                patch(splitPatch, here)
            }
        }
        for j in jumps { patch(j, here) }
    }

    mutating func compileQuantifier(_ q: RegExpQuantifier, backward: Bool) {
        let max = q.max
        if max == 0 { return }
        let maxWord = max.map { Swift.min($0, Int(Int32.max)) } ?? -1
        let minWord = Swift.min(q.min, Int(Int32.max))
        if q.captureCount == 0 && Self.isAtom(q.body) {
            emit(q.greedy ? Op.greedyLoop : Op.lazyLoop); emit(minWord); emit(maxWord)
            if emitAtom(q.body, backward: backward) { return }
            code.removeLast(3)
        }
        if q.min == 1 && max == 1 {
            compile(q.body, backward: backward)
            return
        }
        let nullable = Self.canBeEmpty(q.body)
        if q.min == 0 && max == 1 {
            // `?`: one optional iteration, which must not match empty. No counter, and no
            // capture reset (the groups are undefined on entry, or reset by an outer loop).
            let posReg = registers
            if nullable { registers += 1 }
            var skipPatch: Int
            if q.greedy {
                emit(Op.split); skipPatch = here; emit(0)
            } else {
                emit(Op.split); let bodyPatch = here; emit(0)
                emit(Op.goto); skipPatch = here; emit(0)
                patch(bodyPatch, here)
            }
            if nullable { emit(Op.setRegPos); emit(posReg) }
            compile(q.body, backward: backward)
            if nullable { emit(Op.emptyFail); emit(posReg) }
            patch(skipPatch, here)
            return
        }
        if max == nil && q.min <= 1 && !nullable {
            // `*` / `+` over a body that always consumes: a plain loop, no counter or
            // empty check.
            if q.min == 1 { compile(q.body, backward: backward) }
            let loop = here
            var exitPatch: Int
            if q.greedy {
                emit(Op.split); exitPatch = here; emit(0)
            } else {
                emit(Op.split); let bodyPatch = here; emit(0)
                emit(Op.goto); exitPatch = here; emit(0)
                patch(bodyPatch, here)
            }
            if q.captureCount > 0 { emit(Op.resetCaptures); emit(q.firstCapture); emit(q.captureCount) }
            compile(q.body, backward: backward)
            emit(Op.goto); emit(loop)
            patch(exitPatch, here)
            return
        }
        let cnt = registers, posReg = registers + 1
        registers += 2
        emit(Op.setReg); emit(cnt); emit(0)
        let loop = here
        emit(Op.loopCheck); emit(cnt); emit(minWord); emit(maxWord); emit(q.greedy ? 1 : 0)
        let exitPatch = here; emit(0)
        emit(Op.setRegPos); emit(posReg)
        if q.captureCount > 0 { emit(Op.resetCaptures); emit(q.firstCapture); emit(q.captureCount) }
        compile(q.body, backward: backward)
        emit(Op.emptyCheck); emit(posReg); emit(cnt); emit(minWord)
        emit(Op.incReg); emit(cnt)
        emit(Op.goto); emit(loop)
        patch(exitPatch, here)
    }

    // MARK: - Hints

    /// Whether `node` may match without consuming input (true when unsure).
    static func canBeEmpty(_ node: RegExpNode) -> Bool {
        switch node {
        case .character, .any, .classEscape: return false
        case .characterClass(let cc): return cc.mayContainStrings
        case .sequence(let terms): return terms.allSatisfy { canBeEmpty($0) }
        case .alternation(let alts): return alts.contains { canBeEmpty($0) }
        case .capture(_, _, let body): return canBeEmpty(body)
        case .quantifier(let q): return q.min == 0 || canBeEmpty(q.body)
        case .modifiers(let m): return canBeEmpty(m.body)
        default: return true
        }
    }

    /// Whether every match must pass a leading `^` (the caller checks the flags).
    static func anchored(_ node: RegExpNode) -> Bool {
        switch node {
        case .assertion(.start): return true
        case .sequence(let terms): return terms.first.map { anchored($0) } ?? false
        case .alternation(let alts): return !alts.isEmpty && alts.allSatisfy { anchored($0) }
        case .capture(_, _, let body): return anchored(body)
        default: return false
        }
    }

    /// The longest run of literal code units in the top-level sequence: every match contains
    /// it (case-sensitive patterns only).
    static func requiredLiteral(_ node: RegExpNode, unicode: Bool) -> [UInt16] {
        guard case .sequence(let terms) = node else { return [] }
        var best: [UInt16] = [], run: [UInt16] = []
        for t in terms {
            if case .character(let c) = t, c <= 0xFFFF, !(unicode && c >= 0xD800 && c <= 0xDFFF) {
                run.append(UInt16(c))
                if run.count > best.count { best = run }
            } else {
                run = []
            }
        }
        return best
    }

    /// The literal code units every match starts with (case-sensitive patterns only).
    static func literalPrefix(_ node: RegExpNode, unicode: Bool) -> [UInt16] {
        var out: [UInt16] = []
        _ = appendPrefix(node, unicode: unicode, &out)
        return out
    }

    /// Appends the literal start of `node`; returns whether all of `node` was literal.
    private static func appendPrefix(_ node: RegExpNode, unicode: Bool, _ out: inout [UInt16]) -> Bool {
        switch node {
        case .character(let c):
            if c > 0xFFFF || (unicode && c >= 0xD800 && c <= 0xDFFF) { return false }
            out.append(UInt16(c))
            return true
        case .sequence(let terms):
            for t in terms {
                if out.isEmpty {
                    switch t {
                    case .assertion(.wordBoundary), .assertion(.notWordBoundary): continue
                    case .lookaround(let l) where !l.behind && !l.negated: continue
                    default: break
                    }
                }
                if !appendPrefix(t, unicode: unicode, &out) { return false }
            }
            return true
        case .capture(_, _, let body):
            // The group's start is saved where the literal starts: still a prefix.
            return appendPrefix(body, unicode: unicode, &out)
        case .empty:
            return true
        default:
            return false
        }
    }

    /// The code units a match may start with, and whether it may match without consuming;
    /// nil when any unit may start one.
    func startSet(_ node: RegExpNode) -> (StartSet, Bool)? {
        switch node {
        case .empty, .assertion, .lookaround:
            return (StartSet(), true)
        case .character(let c):
            var s = StartSet()
            if ignoreCase {
                let cc = CaseFolding.canonicalize(c, unicode: unicode)
                for u: UInt32 in 0..<256 where CaseFolding.canonicalize(u, unicode: unicode) == cc { s.add(u) }
                s.high = true
            } else if c > 0xFFFF {
                s.high = true
            } else {
                s.add(c)
            }
            return (s, false)
        case .any:
            return nil
        case .classEscape(let e):
            return (startSet(of: escapeSet(e), negated: false), false)
        case .characterClass(let cc):
            let v = classValue(cc)
            if !v.strings.isEmpty { return nil }
            return (startSet(of: v.chars, negated: cc.negated), false)
        case .sequence(let terms):
            var acc = StartSet()
            for t in terms {
                guard let (s, nullable) = startSet(t) else { return nil }
                acc.formUnion(s)
                if !nullable { return (acc, false) }
            }
            return (acc, true)
        case .alternation(let alts):
            var acc = StartSet()
            var nullable = false
            for a in alts {
                guard let (s, n) = startSet(a) else { return nil }
                acc.formUnion(s)
                nullable = nullable || n
            }
            return (acc, nullable)
        case .capture(_, _, let body):
            return startSet(body)
        case .quantifier(let q):
            if q.max == 0 { return (StartSet(), true) }
            guard let (s, n) = startSet(q.body) else { return nil }
            return (s, n || q.min == 0)
        case .backReference:
            return nil
        case .modifiers(let m):
            var inner = self
            inner.apply(m)
            return inner.startSet(m.body)
        }
    }

    /// The units (below 256 exactly) a class atom may match first.
    func startSet(of set: CharSet, negated: Bool) -> StartSet {
        let closed = ignoreCase ? CaseFolding.closeOver(set, unicode: unicode) : set
        var s = StartSet()
        for u: UInt32 in 0..<256 {
            let k = ignoreCase ? CaseFolding.canonicalize(u, unicode: unicode) : u
            if closed.contains(k) != negated { s.add(u) }
        }
        var anyHigh = negated || ignoreCase
        closed.forEachRange { _, hi in if hi >= 256 { anyHigh = true } }
        s.high = s.high || anyHigh
        return s
    }

    /// The code unit every match must start with, if there is one.
    static func firstUnit(_ node: RegExpNode, unicode: Bool) -> UInt32? {
        switch node {
        case .character(let c):
            if c <= 0xFFFF { return (unicode && c >= 0xD800 && c <= 0xDFFF) ? nil : c }
            return 0xD800 + ((c - 0x10000) >> 10)
        case .sequence(let terms):
            for t in terms {
                switch t {
                case .assertion(.wordBoundary), .assertion(.notWordBoundary): continue
                case .lookaround(let l) where !l.behind && !l.negated: continue
                case .lookaround: return nil
                default: return firstUnit(t, unicode: unicode)
                }
            }
            return nil
        case .capture(_, _, let body): return firstUnit(body, unicode: unicode)
        case .quantifier(let q): return q.min > 0 ? firstUnit(q.body, unicode: unicode) : nil
        case .alternation(let alts):
            var u: UInt32? = nil
            for a in alts {
                guard let f = firstUnit(a, unicode: unicode) else { return nil }
                if u == nil { u = f } else if u != f { return nil }
            }
            return u
        default: return nil
        }
    }
}
