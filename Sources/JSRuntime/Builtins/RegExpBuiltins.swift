// RegExp objects, RegExp.prototype and %RegExpStringIteratorPrototype% (ECMAScript 22.2).
//
// A RegExp object is a cell of kind `.regexp`: word 0 holds the compiled `RegExpProgram`
// (retained, released by the finalize hook), extra value 1 the [[OriginalSource]] string and
// extra value 2 the [[OriginalFlags]] string. `lastIndex` is an ordinary own data property.
// Programs are cached per (pattern, flags) in the realm, so a literal site compiles once.

import JSBytecode
import JSRegExp
import JSSyntax

/// Key of the realm's compiled-program cache.
struct RegExpCacheKey: Hashable {
    var pattern: [UInt16]
    var flags: [UInt16]
}

/// A regular-expression literal site.
struct RegExpSiteKey: Hashable {
    var code: ObjectIdentifier
    var index: Int
}

struct RegExpSiteEntry {
    /// Retained, so the code block's address (the key) is not reused while the entry lives.
    var code: AnyObject
    var program: AnyObject
    var pattern: [UInt16]
    var flags: [UInt16]
}

/// Indices into `Realm.regexpAtoms`.
enum RXAtom: Int, CaseIterable {
    case lastIndex, index, input, groups, exec, flags, indices
    var name: String {
        switch self {
        case .lastIndex: return "lastIndex"
        case .index: return "index"
        case .input: return "input"
        case .groups: return "groups"
        case .exec: return "exec"
        case .flags: return "flags"
        case .indices: return "indices"
        }
    }
}

/// Object flag marking a %RegExpStringIteratorPrototype% iterator (kind `.iterator`).
let regExpStringIteratorFlag: UInt16 = 0x4000

extension Runtime {
    // MARK: - Programs

    func rxProgram(_ o: JSObject) -> RegExpProgram? {
        guard o.kind == .regexp, let raw = UnsafeRawPointer(bitPattern: UInt(o.word(0))) else { return nil }
        return Unmanaged<RegExpProgram>.fromOpaque(raw).takeUnretainedValue()
    }

    func rxSetProgram(_ o: JSObject, _ p: RegExpProgram) {
        if let raw = UnsafeRawPointer(bitPattern: UInt(o.word(0))) { Unmanaged<RegExpProgram>.fromOpaque(raw).release() }
        o.setWord(0, UInt64(UInt(bitPattern: Unmanaged.passRetained(p).toOpaque())))
    }

    /// Whether `v` has a [[RegExpMatcher]].
    func isRegExpObject(_ v: Value) -> Bool {
        isObject(v) && JSObject(v).kind == .regexp && JSObject(v).word(0) != 0
    }

    /// Parses and compiles (cached) a pattern and flags given as strings.
    func rxCompile(_ pattern: Value, _ flags: Value) throws(JSException) -> RegExpProgram {
        let p = try flatten(pattern).codeUnits
        let f = try flatten(flags).codeUnits
        let cacheKey = RegExpCacheKey(pattern: p, flags: f)
        if let cached = realm.regexpCache[cacheKey] as? RegExpProgram { return cached }
        let flagString = String(decoding: f, as: UTF16.self)
        let parsedFlags: RegExpFlags
        do {
            parsedFlags = try RegExpParser.parseFlags(flagString)
        } catch {
            throw try makeError(.syntaxError, "Invalid regular expression flags '\(flagString)'")
        }
        let program: RegExpProgram
        do {
            program = try RegExpProgram.compile(pattern: p, flags: parsedFlags)
        } catch {
            throw try makeError(.syntaxError, "Invalid regular expression: /\(String(decoding: p, as: UTF16.self))/\(flagString): \(error.message)")
        }
        if realm.regexpCache.count > 2000 { realm.regexpCache.removeAll() }
        realm.regexpCache[cacheKey] = program
        return program
    }

    // MARK: - Creation

    /// RegExpAlloc(newTarget).
    func rxAlloc(_ newTarget: Value) throws(JSException) -> JSObject {
        if newTarget.isUndefined, let shape = realm.regexpInstanceShape {
            // The realm's instance shape: lastIndex (0) is its one property.
            let o = try allocateObject(.regexp, shape: shape)
            o.setWord(0, 0)
            o.setExtraValue(1, .undefined)
            o.setExtraValue(2, .undefined)
            o.setSlot(realm.regexpLastIndexSlot, Value(int32: 0))
            return o
        }
        var proto = Value(cell: realm.regexpPrototype.cell)
        if isObject(newTarget) && newTarget.bits != Value(cell: realm.regexpConstructor.cell).bits {
            proto = Value(cell: try prototypeFromConstructor(newTarget, realm.regexpPrototype).cell)
        }
        let o = try allocateObject(.regexp, shape: try rootShape(for: proto))
        o.setWord(0, 0)
        o.setExtraValue(1, .undefined)
        o.setExtraValue(2, .undefined)
        heap.pushRoot(Value(cell: o.cell))
        defer { heap.popRoots(1) }
        _ = try defineOwnProperty(o, rxKey(.lastIndex), .data(Value(int32: 0), [.writable]))
        if proto.bits == Value(cell: realm.regexpPrototype.cell).bits { rxNoteInstanceShape(o) }
        return o
    }

    /// RegExpInitialize(obj, pattern, flags).
    func rxInitialize(_ o: JSObject, _ pattern: Value, _ flags: Value) throws(JSException) -> Value {
        let p = pattern.isUndefined ? try makeString("") : try toString(pattern)
        heap.pushRoot(p)
        defer { heap.popRoots(1) }
        let f = flags.isUndefined ? try makeString("") : try toString(flags)
        heap.pushRoot(f)
        defer { heap.popRoots(1) }
        let program = try rxCompile(p, f)
        rxSetProgram(o, program)
        o.setExtraValue(1, p)
        o.setExtraValue(2, f)
        try rxSetLastIndex(o, Value(int32: 0))
        return Value(cell: o.cell)
    }

    /// RegExpCreate(P, F).
    func rxCreate(_ pattern: Value, _ flags: Value) throws(JSException) -> Value {
        let o = try rxAlloc(.undefined)
        heap.pushRoot(Value(cell: o.cell))
        defer { heap.popRoots(1) }
        return try rxInitialize(o, pattern, flags)
    }

    /// A regular-expression literal: a new object each evaluation, the program compiled once.
    func newRegExpLiteral(pattern: Value, flags: Value) throws(JSException) -> Value {
        let program = try rxCompile(pattern, flags)
        let o = try rxAlloc(.undefined)
        rxSetProgram(o, program)
        o.setExtraValue(1, pattern)
        o.setExtraValue(2, flags)
        return Value(cell: o.cell)
    }

    /// The `newRegExp` instruction: a new RegExp from the literal at (code, constant index),
    /// from the site's entry in `data` after the first evaluation.
    func newRegExpLiteral(_ data: CodeData, _ patternIndex: Int, _ flagsIndex: Int) throws(JSException) -> Value {
        if let sites = data.regexpSites, let program = sites[patternIndex].program {
            let o = try rxAlloc(.undefined)
            o.setWord(0, UInt64(UInt(bitPattern: program.retain().toOpaque())))
            o.setExtraValue(1, sites[patternIndex].pattern)
            o.setExtraValue(2, sites[patternIndex].flags)
            return Value(cell: o.cell)
        }
        let r = try newRegExpLiteral(data.code, patternIndex, flagsIndex)
        let o = JSObject(r)
        if let program = rxProgram(o), patternIndex < data.constantCount {
            if data.regexpSites == nil {
                let sites = UnsafeMutablePointer<RegExpLiteralSite>.allocate(capacity: data.constantCount)
                sites.initialize(repeating: RegExpLiteralSite(), count: data.constantCount)
                data.regexpSites = sites
            }
            data.regexpSites![patternIndex] = RegExpLiteralSite(program: Unmanaged.passRetained(program),
                                                                pattern: o.extraValue(1), flags: o.extraValue(2))
        }
        return r
    }

    /// A new RegExp from the literal at (code, constant index) through the realm's site cache.
    func newRegExpLiteral(_ code: CodeBlock, _ patternIndex: Int, _ flagsIndex: Int) throws(JSException) -> Value {
        let site = RegExpSiteKey(code: ObjectIdentifier(code), index: patternIndex)
        if let entry = realm.regexpSiteCache[site], let program = entry.program as? RegExpProgram {
            let pv = try makeString(entry.pattern)
            heap.pushRoot(pv)
            defer { heap.popRoots(1) }
            let fv = try makeString(entry.flags)
            heap.pushRoot(fv)
            defer { heap.popRoots(1) }
            let o = try rxAlloc(.undefined)
            rxSetProgram(o, program)
            o.setExtraValue(1, pv)
            o.setExtraValue(2, fv)
            return Value(cell: o.cell)
        }
        let r = try newRegExpLiteral(code.constants[patternIndex], code.constants[flagsIndex])
        if let program = rxProgram(JSObject(r)) {
            if realm.regexpSiteCache.count > 4000 { realm.regexpSiteCache.removeAll() }
            realm.regexpSiteCache[site] = RegExpSiteEntry(code: code, program: program, pattern: try flatten(JSObject(r).extraValue(1)).codeUnits,
                                                         flags: try flatten(JSObject(r).extraValue(2)).codeUnits)
        }
        return r
    }

    /// The `newRegExp` instruction's constants.
    func newRegExpLiteral(_ pattern: Constant, _ flags: Constant) throws(JSException) -> Value {
        var p: [UInt16] = [], f: [UInt16] = []
        switch pattern {
        case .string(let u): p = u
        case .regexp(let ps, let fs): p = Array(ps.utf16); f = Array(fs.utf16)
        default: break
        }
        if case .string(let u) = flags { f = u }
        let pv = try makeString(p)
        heap.pushRoot(pv)
        defer { heap.popRoots(1) }
        let fv = try makeString(f)
        heap.pushRoot(fv)
        defer { heap.popRoots(1) }
        return try newRegExpLiteral(pattern: pv, flags: fv)
    }

    // MARK: - Helpers

    @inline(__always) func rxKey(_ a: RXAtom) -> Key { .named(rxAtomKey(a)) }
    @inline(__always) func rxAtomKey(_ a: RXAtom) -> PropertyKey { PropertyKey(cell: realm.regexpAtoms[a.rawValue]) }

    func rxSetLastIndex(_ o: JSObject, _ v: Value) throws(JSException) {
        if !(try set(o, rxKey(.lastIndex), v, receiver: Value(cell: o.cell))) {
            throw try typeError("Cannot assign to read only property 'lastIndex'")
        }
    }

    func rxToIntegerOrInfinity(_ v: Value) throws(JSException) -> Double {
        let d = try toNumber(v)
        if d.isNaN { return 0 }
        return d.rounded(.towardZero) + 0
    }

    /// AdvanceStringIndex(S, index, unicode).
    func rxAdvance(_ s: StringCell, _ index: Int, _ unicode: Bool) -> Int {
        if !unicode || index + 1 >= s.length { return index + 1 }
        let c = s[index]
        if c & 0xFC00 == 0xD800 && s[index + 1] & 0xFC00 == 0xDC00 { return index + 2 }
        return index + 1
    }

    /// `s[from..<to]`: the string itself, the empty or a single-character string without
    /// allocating, Latin-1 when it fits.
    @inline(__always)
    func rxSubstring(_ s: StringCell, _ from: Int, _ to: Int) throws(JSException) -> Value {
        try substring(s, from, max(from, to))
    }

    /// SpeciesConstructor(O, defaultConstructor).
    func rxSpeciesConstructor(_ o: JSObject, _ defaultConstructor: JSObject) throws(JSException) -> Value {
        let c = try get(o, key(static: "constructor"), receiver: Value(cell: o.cell))
        if c.isUndefined { return Value(cell: defaultConstructor.cell) }
        guard isObject(c) else { throw try typeError("object.constructor is not an object") }
        let s = try get(JSObject(c), symbolKey(wellKnown.species), receiver: c)
        if s.isNullish { return Value(cell: defaultConstructor.cell) }
        if isObject(s) && JSObject(s).flags & ObjectFlags.constructor != 0 { return s }
        throw try typeError("object.constructor[Symbol.species] is not a constructor")
    }

    /// IsRegExp(argument).
    func rxIsRegExp(_ v: Value) throws(JSException) -> Bool {
        guard isObject(v) else { return false }
        let m = try get(JSObject(v), symbolKey(wellKnown.match), receiver: v)
        if !m.isUndefined { return toBoolean(m) }
        return isRegExpObject(v)
    }

    func rxThisObject(_ this: Value, _ name: String) throws(JSException) -> JSObject {
        guard isObject(this) else { throw try typeError("RegExp.prototype.\(name) called on incompatible receiver") }
        return JSObject(this)
    }

    func rxFlagsString(_ rx: JSObject) throws(JSException) -> [UInt16] {
        try flatten(try toString(try get(rx, rxKey(.flags), receiver: Value(cell: rx.cell)))).codeUnits
    }

    // MARK: - Exec

    /// RegExpBuiltinExec(R, S).
    func rxBuiltinExec(_ r: JSObject, _ sv: Value) throws(JSException) -> Value {
        guard let program = rxProgram(r) else { throw try typeError("RegExp.prototype.exec called on incompatible receiver") }
        if let (parent, offset) = sliceParts(sv) {
            // A slice is matched in place (its units are Latin-1 units of the parent).
            guard try rxBuiltinMatch(r, program, parent, base: offset, count: stringLength(sv)) else { return .null }
            return try rxMakeResult(program, parent, sv, realm.regexpScratch.captures, base: offset)
        }
        let s = try flatten(sv)
        guard try rxBuiltinMatch(r, program, s) else { return .null }
        // The result is built before any other match can reuse the scratch captures.
        return try rxMakeResult(program, s, sv, realm.regexpScratch.captures)
    }

    /// The match result array of RegExpBuiltinExec.
    /// `base`: where the subject `sv` starts in `s` (a slice of `s`; the captures are
    /// relative to `sv`).
    func rxMakeResult(_ program: RegExpProgram, _ s: StringCell, _ sv: Value, _ caps: UnsafePointer<Int>,
                      base: Int = 0) throws(JSException) -> Value {
        let n = program.groupCount
        if let shape = realm.regexpResultShape {
            // The shape every result array gets: index, input, groups in slots 0, 1, 2.
            let a = try allocateObject(.array, shape: shape, inlineSlots: 4)
            let av = Value(cell: a.cell)
            heap.pushRoot(av)
            defer { heap.popRoots(1) }
            a.setSlot(0, Value(caps[0]))
            a.setSlot(1, sv)
            try a.ensureElementsCapacity(n, self)
            for i in 0..<n {
                let v: Value = caps[2 * i] >= 0 ? try rxSubstring(s, base + caps[2 * i], base + caps[2 * i + 1]) : .undefined
                a.elements![i] = v
                a.elementsLength = i + 1
                a.arrayLength = UInt32(i + 1)
            }
            try rxFinishResult(program, a, caps)
            return av
        }
        let a = try newArray(capacity: n)
        let av = Value(cell: a.cell)
        heap.pushRoot(av)
        defer { heap.popRoots(1) }
        try createDataProperty(a, rxKey(.index), Value(caps[0]))
        try createDataProperty(a, rxKey(.input), sv)
        for i in 0..<n {
            let v: Value = caps[2 * i] >= 0 ? try rxSubstring(s, base + caps[2 * i], base + caps[2 * i + 1]) : .undefined
            try createDataProperty(a, .index(UInt32(i)), v)
        }
        try createDataProperty(a, rxKey(.groups), .undefined)
        let info = ShapeCell(a.shape)
        if info.lookup(rxAtomKey(.index))?.slot == 0 && info.lookup(rxAtomKey(.input))?.slot == 1
            && info.lookup(rxAtomKey(.groups))?.slot == 2 {
            realm.regexpResultShape = a.shape
        }
        try rxFinishResult(program, a, caps)
        return av
    }

    /// The `groups` and `indices` of a result array whose `groups` slot is 2.
    private func rxFinishResult(_ program: RegExpProgram, _ a: JSObject, _ caps: UnsafePointer<Int>) throws(JSException) {
        let n = program.groupCount
        let av = Value(cell: a.cell)
        var groups = Value.undefined
        if !program.groupNames.isEmpty {
            let g = try newObject(prototypeValue: .null)
            groups = Value(cell: g.cell)
            heap.pushRoot(groups)
            defer { heap.popRoots(1) }
            for entry in program.groupNames {
                let k = key(entry.name)
                let v = try get(a, .index(UInt32(entry.index)), receiver: av)
                let existing = try getOwnProperty(g, k)
                if !v.isUndefined || existing == nil {
                    try createDataProperty(g, k, v)
                }
            }
        }
        a.setSlot(2, groups)
        if program.flags.hasIndices {
            let ind = try newArray(capacity: n)
            let indv = Value(cell: ind.cell)
            heap.pushRoot(indv)
            defer { heap.popRoots(1) }
            for i in 0..<n {
                var v = Value.undefined
                if caps[2 * i] >= 0 {
                    let pair = try newArray(capacity: 2)
                    v = Value(cell: pair.cell)
                    heap.pushRoot(v)
                    try createDataProperty(pair, .index(0), Value(caps[2 * i]))
                    try createDataProperty(pair, .index(1), Value(caps[2 * i + 1]))
                    heap.popRoots(1)
                }
                try createDataProperty(ind, .index(UInt32(i)), v)
            }
            var igroups = Value.undefined
            if !program.groupNames.isEmpty {
                let g = try newObject(prototypeValue: .null)
                igroups = Value(cell: g.cell)
                heap.pushRoot(igroups)
                defer { heap.popRoots(1) }
                for entry in program.groupNames {
                    let k = key(entry.name)
                    let v = try get(ind, .index(UInt32(entry.index)), receiver: indv)
                    let existing = try getOwnProperty(g, k)
                if !v.isUndefined || existing == nil {
                        try createDataProperty(g, k, v)
                    }
                }
            }
            try createDataProperty(ind, rxKey(.groups), igroups)
            try createDataProperty(a, rxKey(.indices), indv)
        }
    }

    /// RegExpExec(R, S).
    func rxExec(_ r: JSObject, _ s: Value) throws(JSException) -> Value {
        let exec = try get(r, rxKey(.exec), receiver: Value(cell: r.cell))
        if exec.bits == realm.regexpExecFunction.bits { return try rxBuiltinExec(r, s) }
        if isCallable(exec) {
            let result = try call(exec, this: Value(cell: r.cell), s)
            if !isObject(result) && !result.isNull { throw try typeError("exec result must be an object or null") }
            return result
        }
        return try rxBuiltinExec(r, s)
    }

    // MARK: - GetSubstitution

    /// GetSubstitution(matched, str, position, captures, namedCaptures, replacementTemplate).
    func rxGetSubstitution(matched: [UInt16], str: [UInt16], position: Int, captures: JSObject, captureCount: Int,
                           namedCaptures: Value, template: [UInt16], into result: inout [UInt16]) throws(JSException) {
        let dollar: UInt16 = 0x24
        var i = 0
        let n = template.count
        while i < n {
            let c = template[i]
            if c != dollar || i + 1 >= n { result.append(c); i += 1; continue }
            let d = template[i + 1]
            switch d {
            case dollar: result.append(dollar); i += 2
            case 0x60: // $`
                result.append(contentsOf: str[0..<min(position, str.count)]); i += 2
            case 0x26: // $&
                result.append(contentsOf: matched); i += 2
            case 0x27: // $'
                let tail = min(position + matched.count, str.count)
                result.append(contentsOf: str[tail...]); i += 2
            case 0x30...0x39:
                var digitCount = (i + 2 < n && template[i + 2] >= 0x30 && template[i + 2] <= 0x39) ? 2 : 1
                var index = Int(d - 0x30)
                if digitCount == 2 { index = index * 10 + Int(template[i + 2] - 0x30) }
                if index > captureCount && digitCount == 2 { digitCount = 1; index = Int(d - 0x30) }
                if index >= 1 && index <= captureCount {
                    let cap = try get(captures, .index(UInt32(index - 1)), receiver: Value(cell: captures.cell))
                    if !cap.isUndefined { result.append(contentsOf: try flatten(cap).codeUnits) }
                } else {
                    result.append(contentsOf: template[i..<(i + 1 + digitCount)])
                }
                i += 1 + digitCount
            case 0x3C: // $<
                var gt = -1
                var j = i + 2
                while j < n { if template[j] == 0x3E { gt = j; break }; j += 1 }
                if gt < 0 || namedCaptures.isUndefined {
                    result.append(dollar); result.append(0x3C); i += 2
                } else {
                    let name = try makeString(Array(template[(i + 2)..<gt]))
                    let cap = try get(JSObject(namedCaptures), try toPropertyKey(name), receiver: namedCaptures)
                    if !cap.isUndefined { result.append(contentsOf: try flatten(try toString(cap)).codeUnits) }
                    i = gt + 1
                }
            default:
                result.append(dollar); i += 1
            }
        }
    }

    // MARK: - Installation

    func installRegExp() throws(JSException) {
        for a in RXAtom.allCases {
            let cell = atom(a.name)
            permanentRoots.append(Value(cell: cell))
            realm.regexpAtoms.append(cell)
        }
        let proto = try newObject()
        realm.regexpPrototype = proto
        kindFinalizeHooks[Int(CellKind.regexp.rawValue)] = { o in
            if let raw = UnsafeRawPointer(bitPattern: UInt(o.word(0))) {
                Unmanaged<RegExpProgram>.fromOpaque(raw).release()
                o.setWord(0, 0)
            }
        }
        let ctor = try constructor("RegExp", length: 2, prototype: proto) { rt, _, args, newTarget throws(JSException) in
            let pattern = rt.arg(args, 0), flags = rt.arg(args, 1)
            let patternIsRegExp = try rt.rxIsRegExp(pattern)
            var nt = newTarget
            let ctorValue = Value(cell: rt.realm.regexpConstructor.cell)
            if nt.isUndefined {
                nt = ctorValue
                if patternIsRegExp && flags.isUndefined {
                    let pc = try rt.get(JSObject(pattern), rt.key(static: "constructor"), receiver: pattern)
                    if rt.sameValue(nt, pc) { return pattern }
                }
            }
            var p: Value, f: Value
            if rt.isRegExpObject(pattern) {
                let po = JSObject(pattern)
                p = po.extraValue(1)
                f = flags.isUndefined ? po.extraValue(2) : flags
            } else if patternIsRegExp {
                p = try rt.get(JSObject(pattern), rt.key(static: "source"), receiver: pattern)
                rt.heap.pushRoot(p)
                defer { rt.heap.popRoots(1) }
                f = flags.isUndefined ? try rt.get(JSObject(pattern), rt.rxKey(.flags), receiver: pattern) : flags
            } else {
                p = pattern; f = flags
            }
            rt.heap.pushRoot(p); rt.heap.pushRoot(f)
            defer { rt.heap.popRoots(2) }
            let o = try rt.rxAlloc(nt)
            rt.heap.pushRoot(Value(cell: o.cell))
            defer { rt.heap.popRoots(1) }
            return try rt.rxInitialize(o, p, f)
        }
        realm.regexpConstructor = ctor
        let speciesGetter = try makeNativeFunction("get [Symbol.species]", length: 0) { _, this, _, _ in this }
        _ = try defineOwnProperty(ctor, symbolKey(wellKnown.species),
                                  PropertyDescriptor(get: Value(cell: speciesGetter.cell), set: .undefined, enumerable: false, configurable: true))
        try installRegExpEscape(ctor)

        let exec = try method(proto, "exec", 1) { rt, this, args, _ throws(JSException) in
            guard rt.isRegExpObject(this) else { throw try rt.typeError("RegExp.prototype.exec called on incompatible receiver") }
            let s = try rt.toString(rt.arg(args, 0))
            rt.heap.pushRoot(s)
            defer { rt.heap.popRoots(1) }
            return try rt.rxBuiltinExec(JSObject(this), s)
        }
        realm.regexpExecFunction = Value(cell: exec.cell)

        try method(proto, "test", 1) { rt, this, args, _ throws(JSException) in
            let r = try rt.rxThisObject(this, "test")
            let s = try rt.toString(rt.arg(args, 0))
            rt.heap.pushRoot(s)
            defer { rt.heap.popRoots(1) }
            // RegExpExec(R, S); with the builtin exec the result array is never seen, so
            // match without building it.
            let exec = try rt.get(r, rt.rxKey(.exec), receiver: this)
            if exec.bits == rt.realm.regexpExecFunction.bits || !rt.isCallable(exec) {
                guard let program = rt.rxProgram(r) else { throw try rt.typeError("RegExp.prototype.exec called on incompatible receiver") }
                if let (parent, offset) = rt.sliceParts(s) {
                    return Value(try rt.rxBuiltinMatch(r, program, parent, base: offset, count: rt.stringLength(s)))
                }
                return Value(try rt.rxBuiltinMatch(r, program, try rt.flatten(s)))
            }
            let result = try rt.call(exec, this: this, s)
            if !rt.isObject(result) && !result.isNull { throw try rt.typeError("exec result must be an object or null") }
            return Value(!result.isNull)
        }
        try method(proto, "toString", 0) { rt, this, _, _ throws(JSException) in
            let r = try rt.rxThisObject(this, "toString")
            let src = try rt.toString(try rt.get(r, rt.key(static: "source"), receiver: this))
            rt.heap.pushRoot(src)
            defer { rt.heap.popRoots(1) }
            let fl = try rt.toString(try rt.get(r, rt.rxKey(.flags), receiver: this))
            var out: [UInt16] = [0x2F]
            out.append(contentsOf: try rt.flatten(src).codeUnits)
            out.append(0x2F)
            out.append(contentsOf: try rt.flatten(fl).codeUnits)
            return try rt.makeString(out)
        }
        try method(proto, "compile", 2) { rt, this, args, _ throws(JSException) in
            guard rt.isRegExpObject(this) else { throw try rt.typeError("RegExp.prototype.compile called on incompatible receiver") }
            let pattern = rt.arg(args, 0), flags = rt.arg(args, 1)
            var p = pattern, f = flags
            if rt.isRegExpObject(pattern) {
                if !flags.isUndefined { throw try rt.typeError("Cannot supply flags when constructing one RegExp from another") }
                p = JSObject(pattern).extraValue(1); f = JSObject(pattern).extraValue(2)
            }
            return try rt.rxInitialize(JSObject(this), p, f)
        }

        // Flag getters.
        let flagGetters: [(String, UInt16)] = [("hasIndices", 0x64), ("global", 0x67), ("ignoreCase", 0x69), ("multiline", 0x6D),
                                               ("dotAll", 0x73), ("unicode", 0x75), ("unicodeSets", 0x76), ("sticky", 0x79)]
        for (name, letter) in flagGetters {
            try getter(proto, name) { rt, this, _, _ throws(JSException) in
                guard rt.isObject(this) else { throw try rt.typeError("RegExp.prototype.\(name) getter called on non-object") }
                if !rt.isRegExpObject(this) {
                    if this.bits == Value(cell: rt.realm.regexpPrototype.cell).bits { return .undefined }
                    throw try rt.typeError("RegExp.prototype.\(name) getter called on non-RegExp object")
                }
                let f = try rt.flatten(JSObject(this).extraValue(2))
                for i in 0..<f.length where f[i] == letter { return .true }
                return .false
            }
        }
        try getter(proto, "flags") { rt, this, _, _ throws(JSException) in
            let r = try rt.rxThisObject(this, "flags")
            var out: [UInt16] = []
            if rt.rxIsPristine(r) {
                // Every flag getter is the original: the flags of [[OriginalFlags]], in order.
                let f = try rt.flatten(r.extraValue(2))
                for (_, letter) in flagGetters where (0..<f.length).contains(where: { f[$0] == letter }) { out.append(letter) }
                return try rt.makeString(out)
            }
            for (name, letter) in flagGetters {
                if rt.toBoolean(try rt.get(r, rt.key(name), receiver: this)) { out.append(letter) }
            }
            return try rt.makeString(out)
        }
        try getter(proto, "source") { rt, this, _, _ throws(JSException) in
            guard rt.isObject(this) else { throw try rt.typeError("RegExp.prototype.source getter called on non-object") }
            if !rt.isRegExpObject(this) {
                if this.bits == Value(cell: rt.realm.regexpPrototype.cell).bits { return try rt.makeString("(?:)") }
                throw try rt.typeError("RegExp.prototype.source getter called on non-RegExp object")
            }
            return try rt.makeString(try rt.escapedRegExpSource(JSObject(this)))
        }

        try installRegExpSymbolMethods(proto)
        try installRegExpStringIterator()
        try installStringRegExpMethods()
        rxRecordPristine()
    }
}

extension Runtime {
    /// EscapeRegExpPattern of a RegExp's [[OriginalSource]]: what the `source` getter
    /// returns, without running any getter (the inspector prints regexps with it).
    /// https://tc39.es/ecma262/#sec-escaperegexppattern
    func escapedRegExpSource(_ o: JSObject) throws(JSException) -> [UInt16] {
        let src = try flatten(o.extraValue(1)).codeUnits
        if src.isEmpty { return Array("(?:)".utf16) }
        var out: [UInt16] = []
        var inClass = false
        var i = 0
        while i < src.count {
            let c = src[i]
            if c == 0x5C && i + 1 < src.count {  // backslash escape: copy both
                out.append(c); out.append(src[i + 1]); i += 2; continue
            }
            switch c {
            case 0x5B: inClass = true; out.append(c)
            case 0x5D: inClass = false; out.append(c)
            case 0x2F: if !inClass { out.append(0x5C) }; out.append(c)
            case 0x0A: out.append(contentsOf: Array("\\n".utf16))
            case 0x0D: out.append(contentsOf: Array("\\r".utf16))
            case 0x2028: out.append(contentsOf: Array("\\u2028".utf16))
            case 0x2029: out.append(contentsOf: Array("\\u2029".utf16))
            default: out.append(c)
            }
            i += 1
        }
        return out
    }
}
