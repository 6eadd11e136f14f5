// RegExp.prototype[@@match/@@matchAll/@@replace/@@search/@@split], %RegExpStringIteratorPrototype%,
// and the String.prototype methods that delegate to them (22.1.3, 22.2.6).

import JSRegExp

extension Runtime {
    private func rxSymbolMethod(_ o: JSObject, _ symbol: Value, _ name: String, _ length: Int,
                                _ body: @escaping NativeFunction) throws(JSException) {
        heap.pushRoot(Value(cell: o.cell))
        defer { heap.popRoots(1) }
        let f = try makeNativeFunction(name, length: length, body)
        _ = try defineOwnProperty(o, symbolKey(symbol), .data(Value(cell: f.cell), .hidden))
    }

    func installRegExpSymbolMethods(_ proto: JSObject) throws(JSException) {
        // @@match
        try rxSymbolMethod(proto, wellKnown.match, "[Symbol.match]", 1) { rt, this, args, _ throws(JSException) in
            let rx = try rt.rxThisObject(this, "[Symbol.match]")
            let s = try rt.toString(rt.arg(args, 0))
            rt.heap.pushRoot(s)
            defer { rt.heap.popRoots(1) }
            if let r = try rt.rxMatchAllFast(rx, s) { return r }
            let flags = try rt.rxFlagsString(rx)
            if !flags.contains(0x67) { return try rt.rxExec(rx, s) }
            let fullUnicode = flags.contains(0x75) || flags.contains(0x76)
            try rt.rxSetLastIndex(rx, Value(int32: 0))
            let a = try rt.newArray()
            rt.heap.pushRoot(Value(cell: a.cell))
            defer { rt.heap.popRoots(1) }
            var n: UInt32 = 0
            let sc = try rt.flatten(s)
            while true {
                let result = try rt.rxExec(rx, s)
                if result.isNull { return n == 0 ? .null : Value(cell: a.cell) }
                rt.heap.pushRoot(result)
                defer { rt.heap.popRoots(1) }
                let matchStr = try rt.toString(try rt.get(JSObject(result), .index(0), receiver: result))
                try rt.createDataProperty(a, .index(n), matchStr)
                if rt.stringLength(matchStr) == 0 {
                    let thisIndex = try rt.toLength(try rt.get(rx, rt.rxKey(.lastIndex), receiver: this))
                    try rt.rxSetLastIndex(rx, Value(rt.rxAdvance(sc, thisIndex, fullUnicode)))
                }
                n += 1
            }
        }
        // @@matchAll
        try rxSymbolMethod(proto, wellKnown.matchAll, "[Symbol.matchAll]", 1) { rt, this, args, _ throws(JSException) in
            let r = try rt.rxThisObject(this, "[Symbol.matchAll]")
            let s = try rt.toString(rt.arg(args, 0))
            rt.heap.pushRoot(s)
            defer { rt.heap.popRoots(1) }
            let c = try rt.rxSpeciesConstructor(r, rt.realm.regexpConstructor)
            rt.heap.pushRoot(c)
            defer { rt.heap.popRoots(1) }
            let flagsValue = try rt.toString(try rt.get(r, rt.rxKey(.flags), receiver: this))
            rt.heap.pushRoot(flagsValue)
            defer { rt.heap.popRoots(1) }
            let flags = try rt.flatten(flagsValue).codeUnits
            let ctorArgs = [this, flagsValue]
            let matcher = try ctorArgs.withUnsafeBufferPointer { b throws(JSException) in
                try rt.construct(c, b, newTarget: c)
            }
            rt.heap.pushRoot(matcher)
            defer { rt.heap.popRoots(1) }
            let lastIndex = try rt.toLength(try rt.get(r, rt.rxKey(.lastIndex), receiver: this))
            try rt.rxSetLastIndex(JSObject(matcher), Value(lastIndex))
            let global = flags.contains(0x67)
            let fullUnicode = flags.contains(0x75) || flags.contains(0x76)
            let it = try rt.allocateObject(.iterator, shape: try rt.rootShape(for: Value(cell: rt.realm.regexpStringIteratorPrototype.cell)))
            it.flags |= regExpStringIteratorFlag
            it.setWord(0, UInt64((global ? 1 : 0) | (fullUnicode ? 2 : 0)))
            it.setExtraValue(1, matcher)
            it.setExtraValue(2, s)
            return Value(cell: it.cell)
        }
        // @@search
        try rxSymbolMethod(proto, wellKnown.search, "[Symbol.search]", 1) { rt, this, args, _ throws(JSException) in
            let rx = try rt.rxThisObject(this, "[Symbol.search]")
            let s = try rt.toString(rt.arg(args, 0))
            rt.heap.pushRoot(s)
            defer { rt.heap.popRoots(1) }
            let previous = try rt.get(rx, rt.rxKey(.lastIndex), receiver: this)
            rt.heap.pushRoot(previous)
            defer { rt.heap.popRoots(1) }
            if !rt.sameValue(previous, Value(int32: 0)) { try rt.rxSetLastIndex(rx, Value(int32: 0)) }
            let result = try rt.rxExec(rx, s)
            rt.heap.pushRoot(result)
            defer { rt.heap.popRoots(1) }
            let current = try rt.get(rx, rt.rxKey(.lastIndex), receiver: this)
            if !rt.sameValue(current, previous) { try rt.rxSetLastIndex(rx, previous) }
            if result.isNull { return Value(int32: -1) }
            return try rt.get(JSObject(result), rt.rxKey(.index), receiver: result)
        }
        // @@replace
        try rxSymbolMethod(proto, wellKnown.replace, "[Symbol.replace]", 2) { rt, this, args, _ throws(JSException) in
            let rx = try rt.rxThisObject(this, "[Symbol.replace]")
            let sv = try rt.toString(rt.arg(args, 0))
            rt.heap.pushRoot(sv)
            defer { rt.heap.popRoots(1) }
            var replaceValue = rt.arg(args, 1)
            let functional = rt.isCallable(replaceValue)
            if !functional { replaceValue = try rt.toString(replaceValue) }
            rt.heap.pushRoot(replaceValue)
            defer { rt.heap.popRoots(1) }
            let template = functional ? [] : try rt.flatten(replaceValue).codeUnits
            if let r = try rt.rxReplaceFast(rx, sv, replaceValue, functional, template) { return r }
            let flags = try rt.rxFlagsString(rx)
            let global = flags.contains(0x67)
            var fullUnicode = false
            if global {
                fullUnicode = flags.contains(0x75) || flags.contains(0x76)
                try rt.rxSetLastIndex(rx, Value(int32: 0))
            }
            let results = try rt.newArray()
            rt.heap.pushRoot(Value(cell: results.cell))
            defer { rt.heap.popRoots(1) }
            var count: UInt32 = 0
            let sc = try rt.flatten(sv)
            while true {
                let result = try rt.rxExec(rx, sv)
                if result.isNull { break }
                try rt.createDataProperty(results, .index(count), result)
                count += 1
                if !global { break }
                let matchStr = try rt.toString(try rt.get(JSObject(result), .index(0), receiver: result))
                if rt.stringLength(matchStr) == 0 {
                    let thisIndex = try rt.toLength(try rt.get(rx, rt.rxKey(.lastIndex), receiver: this))
                    try rt.rxSetLastIndex(rx, Value(rt.rxAdvance(sc, thisIndex, fullUnicode)))
                }
            }
            let str = sc.codeUnits
            let lengthS = str.count
            var accumulated: [UInt16] = []
            var nextSourcePosition = 0
            for k in 0..<count {
                let result = try rt.get(results, .index(k), receiver: Value(cell: results.cell))
                let ro = try rt.toObject(result)
                let resultLength = try rt.lengthOf(ro)
                let nCaptures = max(resultLength - 1, 0)
                let matchedValue = try rt.toString(try rt.get(ro, .index(0), receiver: result))
                rt.heap.pushRoot(matchedValue)
                defer { rt.heap.popRoots(1) }
                let matched = try rt.flatten(matchedValue).codeUnits
                let positionD = try rt.rxToIntegerOrInfinity(try rt.get(ro, rt.rxKey(.index), receiver: result))
                let position = Int(max(min(positionD, Double(lengthS)), 0))
                let captures = try rt.newArray()
                rt.heap.pushRoot(Value(cell: captures.cell))
                defer { rt.heap.popRoots(1) }
                if nCaptures > 0 {
                    for n in 1...nCaptures {
                        var capN = try rt.get(ro, .index(UInt32(n)), receiver: result)
                        if !capN.isUndefined { capN = try rt.toString(capN) }
                        try rt.createDataProperty(captures, .index(UInt32(n - 1)), capN)
                    }
                }
                var namedCaptures = try rt.get(ro, rt.rxKey(.groups), receiver: result)
                rt.heap.pushRoot(namedCaptures)
                defer { rt.heap.popRoots(1) }
                var replacement: [UInt16] = []
                if functional {
                    var callArgs: [Value] = [matchedValue]
                    for n in 0..<nCaptures { callArgs.append(try rt.get(captures, .index(UInt32(n)), receiver: Value(cell: captures.cell))) }
                    callArgs.append(Value(position))
                    callArgs.append(sv)
                    if !namedCaptures.isUndefined { callArgs.append(namedCaptures) }
                    // The arguments stay reachable: every one is also held by a rooted value.
                    let replValue = try callArgs.withUnsafeBufferPointer { b throws(JSException) in
                        try rt.call(replaceValue, this: .undefined, b)
                    }
                    replacement = try rt.flatten(try rt.toString(replValue)).codeUnits
                } else {
                    if !namedCaptures.isUndefined {
                        namedCaptures = Value(cell: try rt.toObject(namedCaptures).cell)
                        rt.heap.pushRoot(namedCaptures)
                    }
                    defer { if !namedCaptures.isUndefined { rt.heap.popRoots(1) } }
                    try rt.rxGetSubstitution(matched: matched, str: str, position: position, captures: captures,
                                             captureCount: nCaptures, namedCaptures: namedCaptures, template: template,
                                             into: &replacement)
                }
                if position >= nextSourcePosition {
                    accumulated.append(contentsOf: str[nextSourcePosition..<position])
                    accumulated.append(contentsOf: replacement)
                    nextSourcePosition = position + matched.count
                }
            }
            if nextSourcePosition < lengthS { accumulated.append(contentsOf: str[nextSourcePosition...]) }
            return try rt.makeString(accumulated)
        }
        // @@split
        try rxSymbolMethod(proto, wellKnown.split, "[Symbol.split]", 2) { rt, this, args, _ throws(JSException) in
            let rx = try rt.rxThisObject(this, "[Symbol.split]")
            let sv = try rt.toString(rt.arg(args, 0))
            rt.heap.pushRoot(sv)
            defer { rt.heap.popRoots(1) }
            if let r = try rt.rxSplitFast(rx, sv, rt.arg(args, 1)) { return r }
            let c = try rt.rxSpeciesConstructor(rx, rt.realm.regexpConstructor)
            rt.heap.pushRoot(c)
            defer { rt.heap.popRoots(1) }
            let flags = try rt.rxFlagsString(rx)
            let unicodeMatching = flags.contains(0x75) || flags.contains(0x76)
            let newFlags = flags.contains(0x79) ? flags : flags + [0x79]
            let newFlagsValue = try rt.makeString(newFlags)
            rt.heap.pushRoot(newFlagsValue)
            defer { rt.heap.popRoots(1) }
            let ctorArgs = [this, newFlagsValue]
            let splitterValue = try ctorArgs.withUnsafeBufferPointer { b throws(JSException) in
                try rt.construct(c, b, newTarget: c)
            }
            rt.heap.pushRoot(splitterValue)
            defer { rt.heap.popRoots(1) }
            guard rt.isObject(splitterValue) else { throw try rt.typeError("splitter is not an object") }
            let splitter = JSObject(splitterValue)
            let a = try rt.newArray()
            rt.heap.pushRoot(Value(cell: a.cell))
            defer { rt.heap.popRoots(1) }
            var lengthA: UInt32 = 0
            let limit = rt.arg(args, 1)
            let lim: UInt32 = limit.isUndefined ? UInt32.max : try rt.toUint32(limit)
            if lim == 0 { return Value(cell: a.cell) }
            let s = try rt.flatten(sv)
            let size = s.length
            if size == 0 {
                let z = try rt.rxExec(splitter, sv)
                if !z.isNull { return Value(cell: a.cell) }
                try rt.createDataProperty(a, .index(0), sv)
                return Value(cell: a.cell)
            }
            var p = 0, q = 0
            // Fast path: a pristine RegExp splitter can search instead of trying every position.
            var fast: RegExpProgram? = nil
            if let prog = rt.rxProgram(splitter),
               try rt.get(splitter, rt.rxKey(.exec), receiver: splitterValue).bits == rt.realm.regexpExecFunction.bits {
                var f = prog.flags
                f.sticky = false
                f.global = false
                let src = splitter.extraValue(1)
                fast = try rt.rxCompile(src, try rt.makeString(f.source))
            }
            while q < size {
                var e: Int
                var z: Value
                if let prog = fast {
                    let found = try rt.rxRun(prog, s, q)
                    // Copied: the substrings below may not outlive the scratch captures otherwise.
                    let caps = Array(UnsafeBufferPointer(start: rt.realm.regexpScratch.captures, count: prog.groupCount * 2))
                    if !found || caps[0] >= size { break }
                    q = caps[0]
                    e = min(caps[1], size)
                    if e == p { q = rt.rxAdvance(s, q, unicodeMatching); continue }
                    try rt.createDataProperty(a, .index(lengthA), try rt.rxSubstring(s, p, q))
                    lengthA += 1
                    if lengthA == lim { return Value(cell: a.cell) }
                    p = e
                    for i in 1..<prog.groupCount {
                        let v: Value = caps[2 * i] >= 0 ? try rt.rxSubstring(s, caps[2 * i], caps[2 * i + 1]) : .undefined
                        try rt.createDataProperty(a, .index(lengthA), v)
                        lengthA += 1
                        if lengthA == lim { return Value(cell: a.cell) }
                    }
                    q = p
                    continue
                }
                try rt.rxSetLastIndex(splitter, Value(q))
                z = try rt.rxExec(splitter, sv)
                if z.isNull { q = rt.rxAdvance(s, q, unicodeMatching); continue }
                rt.heap.pushRoot(z)
                defer { rt.heap.popRoots(1) }
                e = min(try rt.toLength(try rt.get(splitter, rt.rxKey(.lastIndex), receiver: splitterValue)), size)
                if e == p { q = rt.rxAdvance(s, q, unicodeMatching); continue }
                try rt.createDataProperty(a, .index(lengthA), try rt.rxSubstring(s, p, q))
                lengthA += 1
                if lengthA == lim { return Value(cell: a.cell) }
                p = e
                let zo = JSObject(z)
                let numberOfCaptures = max(try rt.lengthOf(zo) - 1, 0)
                if numberOfCaptures > 0 {
                    for i in 1...numberOfCaptures {
                        let v = try rt.get(zo, .index(UInt32(i)), receiver: z)
                        try rt.createDataProperty(a, .index(lengthA), v)
                        lengthA += 1
                        if lengthA == lim { return Value(cell: a.cell) }
                    }
                }
                q = p
            }
            try rt.createDataProperty(a, .index(lengthA), try rt.rxSubstring(s, p, size))
            return Value(cell: a.cell)
        }
    }

    func installRegExpStringIterator() throws(JSException) {
        let proto = try newObject(prototype: realm.iteratorPrototype)
        realm.regexpStringIteratorPrototype = proto
        try method(proto, "next", 0) { rt, this, _, _ throws(JSException) in
            guard rt.isObject(this), JSObject(this).kind == .iterator, JSObject(this).flags & regExpStringIteratorFlag != 0 else {
                throw try rt.typeError("%RegExpStringIterator%.next called on incompatible receiver")
            }
            let it = JSObject(this)
            let state = it.word(0)
            if state & 4 != 0 { return try rt.createIterResult(.undefined, done: true) }
            let r = it.extraValue(1), s = it.extraValue(2)
            let match = try rt.rxExec(JSObject(r), s)
            if match.isNull {
                it.setWord(0, state | 4)
                return try rt.createIterResult(.undefined, done: true)
            }
            rt.heap.pushRoot(match)
            defer { rt.heap.popRoots(1) }
            if state & 1 != 0 {
                let matchStr = try rt.toString(try rt.get(JSObject(match), .index(0), receiver: match))
                if rt.stringLength(matchStr) == 0 {
                    let thisIndex = try rt.toLength(try rt.get(JSObject(r), rt.rxKey(.lastIndex), receiver: r))
                    try rt.rxSetLastIndex(JSObject(r), Value(rt.rxAdvance(try rt.flatten(s), thisIndex, state & 2 != 0)))
                }
                return try rt.createIterResult(match, done: false)
            }
            it.setWord(0, state | 4)
            return try rt.createIterResult(match, done: false)
        }
        _ = try defineOwnProperty(proto, symbolKey(wellKnown.toStringTag),
                                  .data(try makeString("RegExp String Iterator"), [.configurable]))
    }

    // MARK: - String.prototype

    /// StringIndexOf(string, searchValue, fromIndex).
    func rxStringIndexOf(_ s: [UInt16], _ t: [UInt16], _ from: Int) -> Int {
        let n = s.count, m = t.count
        if m == 0 && from <= n { return from }
        if m > n { return -1 }
        var i = from
        while i + m <= n {
            if s[i] == t[0] {
                var j = 1
                while j < m && s[i + j] == t[j] { j += 1 }
                if j == m { return i }
            }
            i += 1
        }
        return -1
    }

    private func rxRequireCoercible(_ this: Value, _ name: String) throws(JSException) {
        if this.isNullish { throw try typeError("String.prototype.\(name) called on null or undefined") }
    }

    /// Invoke(rx, symbol, [s]).
    private func rxInvoke(_ rx: Value, _ symbol: Value, _ s: Value) throws(JSException) -> Value {
        heap.pushRoot(rx)
        defer { heap.popRoots(1) }
        let f = try getV(rx, symbolKey(symbol))
        return try call(f, this: rx, s)
    }

    func installStringRegExpMethods() throws(JSException) {
        let proto = realm.stringPrototype!
        try method(proto, "match", 1) { rt, this, args, _ throws(JSException) in
            try rt.rxRequireCoercible(this, "match")
            let regexp = rt.arg(args, 0)
            if rt.isObject(regexp), let matcher = try rt.getMethod(regexp, rt.symbolKey(rt.wellKnown.match)) {
                return try rt.call(matcher, this: regexp, this)
            }
            let s = try rt.toString(this)
            rt.heap.pushRoot(s)
            defer { rt.heap.popRoots(1) }
            let rx = try rt.rxCreate(regexp, .undefined)
            return try rt.rxInvoke(rx, rt.wellKnown.match, s)
        }
        try method(proto, "matchAll", 1) { rt, this, args, _ throws(JSException) in
            try rt.rxRequireCoercible(this, "matchAll")
            let regexp = rt.arg(args, 0)
            if rt.isObject(regexp) {
                if try rt.rxIsRegExp(regexp) {
                    let flags = try rt.get(JSObject(regexp), rt.rxKey(.flags), receiver: regexp)
                    if flags.isNullish { throw try rt.typeError("RegExp flags is null or undefined") }
                    if !(try rt.flatten(try rt.toString(flags)).codeUnits.contains(0x67)) {
                        throw try rt.typeError("String.prototype.matchAll called with a non-global RegExp argument")
                    }
                }
                if let matcher = try rt.getMethod(regexp, rt.symbolKey(rt.wellKnown.matchAll)) {
                    return try rt.call(matcher, this: regexp, this)
                }
            }
            let s = try rt.toString(this)
            rt.heap.pushRoot(s)
            defer { rt.heap.popRoots(1) }
            let rx = try rt.rxCreate(regexp, try rt.makeString("g"))
            return try rt.rxInvoke(rx, rt.wellKnown.matchAll, s)
        }
        try method(proto, "search", 1) { rt, this, args, _ throws(JSException) in
            try rt.rxRequireCoercible(this, "search")
            let regexp = rt.arg(args, 0)
            if rt.isObject(regexp), let searcher = try rt.getMethod(regexp, rt.symbolKey(rt.wellKnown.search)) {
                return try rt.call(searcher, this: regexp, this)
            }
            let s = try rt.toString(this)
            rt.heap.pushRoot(s)
            defer { rt.heap.popRoots(1) }
            let rx = try rt.rxCreate(regexp, .undefined)
            return try rt.rxInvoke(rx, rt.wellKnown.search, s)
        }
        try method(proto, "replace", 2) { rt, this, args, _ throws(JSException) in
            try rt.rxRequireCoercible(this, "replace")
            let searchValue = rt.arg(args, 0)
            var replaceValue = rt.arg(args, 1)
            if rt.isObject(searchValue), let replacer = try rt.getMethod(searchValue, rt.symbolKey(rt.wellKnown.replace)) {
                return try rt.call(replacer, this: searchValue, this, replaceValue)
            }
            let sv = try rt.toString(this)
            rt.heap.pushRoot(sv)
            defer { rt.heap.popRoots(1) }
            let searchString = try rt.toString(searchValue)
            rt.heap.pushRoot(searchString)
            defer { rt.heap.popRoots(1) }
            let functional = rt.isCallable(replaceValue)
            if !functional { replaceValue = try rt.toString(replaceValue) }
            rt.heap.pushRoot(replaceValue)
            defer { rt.heap.popRoots(1) }
            return try rt.rxReplaceString(sv, try rt.flatten(sv), searchString, try rt.flatten(searchString),
                                          replaceValue, functional, all: false)
        }
        try method(proto, "replaceAll", 2) { rt, this, args, _ throws(JSException) in
            try rt.rxRequireCoercible(this, "replaceAll")
            let searchValue = rt.arg(args, 0)
            var replaceValue = rt.arg(args, 1)
            if rt.isObject(searchValue) {
                if try rt.rxIsRegExp(searchValue) {
                    let flags = try rt.get(JSObject(searchValue), rt.rxKey(.flags), receiver: searchValue)
                    if flags.isNullish { throw try rt.typeError("RegExp flags is null or undefined") }
                    if !(try rt.flatten(try rt.toString(flags)).codeUnits.contains(0x67)) {
                        throw try rt.typeError("replaceAll must be called with a global RegExp")
                    }
                }
                if let replacer = try rt.getMethod(searchValue, rt.symbolKey(rt.wellKnown.replace)) {
                    return try rt.call(replacer, this: searchValue, this, replaceValue)
                }
            }
            let sv = try rt.toString(this)
            rt.heap.pushRoot(sv)
            defer { rt.heap.popRoots(1) }
            let searchString = try rt.toString(searchValue)
            rt.heap.pushRoot(searchString)
            defer { rt.heap.popRoots(1) }
            let functional = rt.isCallable(replaceValue)
            if !functional { replaceValue = try rt.toString(replaceValue) }
            rt.heap.pushRoot(replaceValue)
            defer { rt.heap.popRoots(1) }
            return try rt.rxReplaceString(sv, try rt.flatten(sv), searchString, try rt.flatten(searchString),
                                          replaceValue, functional, all: true)
        }
        try method(proto, "split", 2) { rt, this, args, _ throws(JSException) in
            try rt.rxRequireCoercible(this, "split")
            let separator = rt.arg(args, 0), limit = rt.arg(args, 1)
            if rt.isObject(separator), let splitter = try rt.getMethod(separator, rt.symbolKey(rt.wellKnown.split)) {
                return try rt.call(splitter, this: separator, this, limit)
            }
            let sv = try rt.toString(this)
            rt.heap.pushRoot(sv)
            defer { rt.heap.popRoots(1) }
            let lim: UInt32 = limit.isUndefined ? UInt32.max : try rt.toUint32(limit)
            let r = try rt.toString(separator)
            rt.heap.pushRoot(r)
            defer { rt.heap.popRoots(1) }
            let a = try rt.newArray()
            rt.heap.pushRoot(Value(cell: a.cell))
            defer { rt.heap.popRoots(1) }
            if lim == 0 { return Value(cell: a.cell) }
            if separator.isUndefined {
                try rt.createDataProperty(a, .index(0), sv)
                return Value(cell: a.cell)
            }
            let s = try rt.flatten(sv)
            let sep = try rt.flatten(r).codeUnits
            let size = s.length
            if sep.isEmpty {
                let n = min(Int(lim), size)
                for i in 0..<n { try rt.createDataProperty(a, .index(UInt32(i)), try rt.rxSubstring(s, i, i + 1)) }
                return Value(cell: a.cell)
            }
            if size == 0 {
                try rt.createDataProperty(a, .index(0), sv)
                return Value(cell: a.cell)
            }
            let sepCell = try rt.flatten(r)
            var count: UInt32 = 0
            var i = 0
            var j = rt.rxIndexOf(s, sepCell, 0)
            while j >= 0 {
                try rt.createDataProperty(a, .index(count), try rt.rxSubstring(s, i, j))
                count += 1
                if count == lim { return Value(cell: a.cell) }
                i = j + sep.count
                j = rt.rxIndexOf(s, sepCell, i)
            }
            try rt.createDataProperty(a, .index(count), try rt.rxSubstring(s, i, size))
            return Value(cell: a.cell)
        }
    }
}
