// String: the constructor, String.fromCharCode/fromCodePoint/raw, String.prototype (every
// method that does not need RegExp; match/replace/search/split dispatch to the pattern's
// well-known-symbol methods), %StringIteratorPrototype%.

extension Runtime {
    // MARK: - Helpers

    /// RequireObjectCoercible(this) + ToString.
    func thisString(_ this: Value, _ name: String) throws(JSException) -> Value {
        if isString(this) { return this }
        if this.isNullish { throw try typeError("String.prototype.\(name) called on null or undefined") }
        return try toString(this)
    }

    /// thisStringValue (toString/valueOf).
    func thisStringValue(_ this: Value, _ name: String) throws(JSException) -> Value {
        if isString(this) { return this }
        if isObject(this), JSObject(this).kind == .boxedPrimitive, isString(JSObject(this).extraValue(1)) {
            return JSObject(this).extraValue(1)
        }
        throw try typeError("String.prototype.\(name) requires that 'this' be a String")
    }

    /// A one-code-unit string (Latin-1 ones are cached).
    func singleCharString(_ u: UInt16) throws(JSException) -> Value {
        if u < 256 {
            if realm.singleCharStrings.isEmpty {
                for i in 0..<256 {
                    let s = try allocateLatin1(length: 1)
                    s.latin1[0] = UInt8(i)
                    // Atoms: comparing two of them (or one with a string constant) is one compare.
                    realm.singleCharStrings.append(Value(cell: try atomize(Value(cell: s.cell))))
                }
            }
            return realm.singleCharStrings[Int(u)]
        }
        let s = try allocateUTF16(length: 1)
        s.utf16[0] = u
        return Value(cell: s.cell)
    }

    /// The substring [from, to) of a flat string.
    func substring(_ s: StringCell, _ from: Int, _ to: Int) throws(JSException) -> Value {
        if from == 0 && to == s.length { return Value(cell: s.cell) }
        let n = to - from
        if n <= 0 { return Value(cell: atom(static: "")) }
        if n == 1 { return try singleCharString(s[from]) }
        heap.pushRoot(Value(cell: s.cell))
        defer { heap.popRoots(1) }
        if !s.is16Bit && n >= Runtime.minimumSliceLength {
            // A slice: the units stay in `s`.
            let cell = try allocate(.rope, size: 32)
            header(cell).pointee.aux = UInt32(n)
            header(cell).pointee.flags = StringFlags.isSlice
            let r = RopeCell(cell)
            r.left = s.cell
            r.sliceOffset = from
            return Value(cell: cell)
        }
        if !s.is16Bit {
            let r = try allocateLatin1(length: n)
            r.latin1.update(from: s.latin1 + from, count: n)
            return Value(cell: r.cell)
        }
        var narrow = true
        for i in from..<to where s.utf16[i] > 0xFF { narrow = false; break }
        if narrow {
            let r = try allocateLatin1(length: n)
            for i in 0..<n { r.latin1[i] = UInt8(s.utf16[from + i]) }
            return Value(cell: r.cell)
        }
        let r = try allocateUTF16(length: n)
        r.utf16.update(from: s.utf16 + from, count: n)
        return Value(cell: r.cell)
    }

    /// Substrings this long or longer of a Latin-1 string are slices (no copy).
    static let minimumSliceLength = 256

    /// The substring [from, to) of the string value `sv`; a slice of a slice is a slice of
    /// its parent (no flattening).
    func substringOf(_ sv: Value, _ from: Int, _ to: Int) throws(JSException) -> Value {
        if let (parent, offset) = sliceParts(sv) {
            if from == 0 && to == stringLength(sv) { return sv }
            return try substring(parent, offset + from, offset + max(from, to))
        }
        return try substring(try flatten(sv), from, to)
    }

    /// StringIndexOf(s, t, from): the first index >= from where t occurs, or -1.
    func stringIndexOf(_ s: StringCell, _ t: StringCell, _ from: Int) -> Int {
        let n = s.length, m = t.length
        if m == 0 { return from <= n ? from : -1 }
        if m > n { return -1 }
        let first = t[0]
        var i = from
        while i + m <= n {
            if s[i] == first {
                var j = 1
                while j < m && s[i + j] == t[j] { j += 1 }
                if j == m { return i }
            }
            i += 1
        }
        return -1
    }

    func stringLastIndexOf(_ s: StringCell, _ t: StringCell, _ from: Int) -> Int {
        let n = s.length, m = t.length
        var i = min(from, n - m)
        while i >= 0 {
            var j = 0
            while j < m && s[i + j] == t[j] { j += 1 }
            if j == m { return i }
            i -= 1
        }
        return -1
    }

    /// CodePointAt(s, i): the code point and how many units it spans.
    @inline(__always) func codePointAt(_ s: StringCell, _ i: Int) -> (UInt32, Int) {
        let u = s[i]
        if u >= 0xD800 && u <= 0xDBFF && i + 1 < s.length {
            let v = s[i + 1]
            if v >= 0xDC00 && v <= 0xDFFF { return (0x10000 + ((UInt32(u) - 0xD800) << 10) + (UInt32(v) - 0xDC00), 2) }
        }
        return (UInt32(u), 1)
    }

    /// IsRegExp(argument).
    func isRegExp(_ v: Value) throws(JSException) -> Bool {
        guard isObject(v) else { return false }
        let m = try get(JSObject(v), symbolKey(wellKnown.match), receiver: v)
        if !m.isUndefined { return toBoolean(m) }
        return JSObject(v).kind == .regexp
    }

    func appendUTF16(_ out: inout [UInt16], _ cp: UInt32) {
        if cp < 0x10000 { out.append(UInt16(cp)) } else {
            out.append(UInt16(0xD800 + ((cp - 0x10000) >> 10)))
            out.append(UInt16(0xDC00 + ((cp - 0x10000) & 0x3FF)))
        }
    }

    func appendUnits(_ out: inout [UInt16], _ s: StringCell) {
        let n = s.length
        out.reserveCapacity(out.count + n)
        if s.is16Bit { out.append(contentsOf: UnsafeBufferPointer(start: s.utf16, count: n)) }
        else { for i in 0..<n { out.append(UInt16(s.latin1[i])) } }
    }

    func appendUnits(_ out: inout [UInt16], _ s: StringCell, _ from: Int, _ to: Int) {
        if from >= to { return }
        if s.is16Bit { out.append(contentsOf: UnsafeBufferPointer(start: s.utf16 + from, count: to - from)) }
        else { for i in from..<to { out.append(UInt16(s.latin1[i])) } }
    }

    static func isJSWhiteSpace(_ u: UInt16) -> Bool { NumberConversions.isStrWhiteSpace(u) }

    // MARK: - Case conversion

    func convertCase(_ v: Value, upper: Bool) throws(JSException) -> Value {
        let s = try flatten(v)
        let n = s.length
        if !s.is16Bit {
            var simple = true
            for i in 0..<n where s.latin1[i] >= 0x80 { simple = false; break }
            if simple {
                var changed = false
                for i in 0..<n {
                    let c = s.latin1[i]
                    if upper ? (c >= 97 && c <= 122) : (c >= 65 && c <= 90) { changed = true; break }
                }
                if !changed { return v }
                heap.pushRoot(v)
                defer { heap.popRoots(1) }
                let r = try allocateLatin1(length: n)
                for i in 0..<n {
                    let c = s.latin1[i]
                    if upper { r.latin1[i] = (c >= 97 && c <= 122) ? c - 32 : c } else { r.latin1[i] = (c >= 65 && c <= 90) ? c + 32 : c }
                }
                return Value(cell: r.cell)
            }
        }
        var out: [UInt16] = []
        out.reserveCapacity(n)
        var i = 0
        while i < n {
            let (cp, len) = codePointAt(s, i)
            if cp < 0x80 {
                var c = UInt16(cp)
                if upper { if c >= 97 && c <= 122 { c -= 32 } } else if c >= 65 && c <= 90 { c += 32 }
                out.append(c)
            } else if let scalar = Unicode.Scalar(cp) {
                if !upper && cp == 0x3A3 {
                    out.append(isFinalSigma(s, i) ? 0x3C2 : 0x3C3)
                } else {
                    let mapped = upper ? scalar.properties.uppercaseMapping : scalar.properties.lowercaseMapping
                    for u in mapped.utf16 { out.append(u) }
                }
            } else {
                out.append(UInt16(cp))  // lone surrogate
            }
            i += len
        }
        return try makeString(out)
    }

    /// The Final_Sigma condition of SpecialCasing.txt at index i.
    func isFinalSigma(_ s: StringCell, _ i: Int) -> Bool {
        // Before: a cased letter, skipping case-ignorables.
        var j = i - 1
        var before = false
        while j >= 0 {
            var cp = UInt32(s[j])
            if cp >= 0xDC00 && cp <= 0xDFFF && j > 0 && s[j - 1] >= 0xD800 && s[j - 1] <= 0xDBFF {
                cp = 0x10000 + ((UInt32(s[j - 1]) - 0xD800) << 10) + (cp - 0xDC00); j -= 1
            }
            guard let sc = Unicode.Scalar(cp) else { break }
            if sc.properties.isCaseIgnorable { j -= 1; continue }
            before = sc.properties.isCased
            break
        }
        if !before { return false }
        var k = i + 1
        while k < s.length {
            let (cp, len) = codePointAt(s, k)
            guard let sc = Unicode.Scalar(cp) else { return true }
            if sc.properties.isCaseIgnorable { k += len; continue }
            return !sc.properties.isCased
        }
        return true
    }

    // MARK: - Normalization

    /// NFC via the standard library; lone surrogates are kept and split the runs.
    func normalizeNFC(_ s: StringCell) -> [UInt16] {
        var units: [UInt16] = []
        appendUnits(&units, s)
        return normalizeNFC(units)
    }

    func normalizeNFC(_ units: [UInt16]) -> [UInt16] {
        var out: [UInt16] = []
        var run: [UInt16] = []
        func flush() {
            if run.isEmpty { return }
            let str = String(decoding: run, as: UTF16.self)
            let nfc = String(decoding: str._nfcCodeUnits, as: UTF8.self)
            out.append(contentsOf: nfc.utf16)
            run.removeAll(keepingCapacity: true)
        }
        var i = 0
        while i < units.count {
            let u = units[i]
            if u >= 0xD800 && u <= 0xDBFF && i + 1 < units.count && units[i + 1] >= 0xDC00 && units[i + 1] <= 0xDFFF {
                run.append(u); run.append(units[i + 1]); i += 2; continue
            }
            if u >= 0xD800 && u <= 0xDFFF { flush(); out.append(u) } else { run.append(u) }
            i += 1
        }
        flush()
        return out
    }

    // MARK: - Installation

    func installString() throws(JSException) {
        let proto = realm.stringPrototype!
        let ctor = try constructor("String", length: 1, prototype: proto) { rt, _, args, newTarget throws(JSException) in
            var s: Value
            if args.count == 0 { s = Value(cell: rt.atom(static: "")) }
            else if rt.isSymbol(args[0]) && newTarget.isUndefined {
                let d = rt.symbolDescription(args[0])
                s = try rt.concat(try rt.makeString("Symbol("), try rt.concat(d.isUndefined ? try rt.makeString("") : d, try rt.makeString(")")))
            } else { s = try rt.toString(args[0]) }
            if newTarget.isUndefined { return s }
            return Value(cell: try rt.makeBoxedPrimitive(s, newTarget: newTarget, fallback: rt.realm.stringPrototype).cell)
        }
        try method(ctor, "fromCharCode", 1) { rt, _, args, _ throws(JSException) in
            if args.count == 1 { return try rt.singleCharString(UInt16(truncatingIfNeeded: try rt.toUint32(args[0]))) }
            var units: [UInt16] = []
            units.reserveCapacity(args.count)
            for v in args { units.append(UInt16(truncatingIfNeeded: try rt.toUint32(v))) }
            return try rt.makeString(units)
        }
        try method(ctor, "fromCodePoint", 1) { rt, _, args, _ throws(JSException) in
            var units: [UInt16] = []
            for v in args {
                let d = try rt.toNumber(v)
                if !(d.isFinite && d == d.rounded(.towardZero) && d >= 0 && d <= 0x10FFFF) {
                    throw try rt.rangeError("Invalid code point \(NumberConversions.toString(d))")
                }
                rt.appendUTF16(&units, UInt32(d))
            }
            return try rt.makeString(units)
        }
        try method(ctor, "raw", 1) { rt, _, args, _ throws(JSException) in
            let cooked = try rt.toObject(rt.arg(args, 0))
            let rawV = try rt.get(cooked, rt.key(static: "raw"), receiver: Value(cell: cooked.cell))
            let literals = try rt.toObject(rawV)
            rt.heap.pushRoot(Value(cell: literals.cell))
            defer { rt.heap.popRoots(1) }
            let count = try rt.lengthOf(literals)
            if count <= 0 { return Value(cell: rt.atom(static: "")) }
            var out: [UInt16] = []
            var i = 0
            while true {
                let lit = try rt.flatten(try rt.toString(try rt.get(literals, .index(UInt32(i)), receiver: Value(cell: literals.cell))))
                rt.appendUnits(&out, lit)
                if i + 1 == count { break }
                if i + 1 < args.count { rt.appendUnits(&out, try rt.flatten(try rt.toString(args[i + 1]))) }
                i += 1
            }
            return try rt.makeString(out)
        }

        try method(proto, "toString", 0) { rt, this, _, _ throws(JSException) in try rt.thisStringValue(this, "toString") }
        try method(proto, "valueOf", 0) { rt, this, _, _ throws(JSException) in try rt.thisStringValue(this, "valueOf") }

        try method(proto, "at", 1) { rt, this, args, _ throws(JSException) in
            let s = try rt.flatten(try rt.thisString(this, "at"))
            let rel = try rt.toIntegerOrInfinityFast(rt.arg(args, 0))
            let k = rel >= 0 ? rel : Double(s.length) + rel
            if k < 0 || k >= Double(s.length) { return .undefined }
            return try rt.singleCharString(s[Int(k)])
        }
        try method(proto, "charAt", 1) { rt, this, args, _ throws(JSException) in
            let s = try rt.flatten(try rt.thisString(this, "charAt"))
            let a = rt.arg(args, 0)
            let p = a.isInt32 ? Double(a.asInt32) : try rt.toIntegerOrInfinityFast(a)
            if p < 0 || p >= Double(s.length) { return Value(cell: rt.atom(static: "")) }
            return try rt.singleCharString(s[Int(p)])
        }
        try method(proto, "charCodeAt", 1) { rt, this, args, _ throws(JSException) in
            let s = try rt.flatten(try rt.thisString(this, "charCodeAt"))
            let a = rt.arg(args, 0)
            let p = a.isInt32 ? Double(a.asInt32) : try rt.toIntegerOrInfinityFast(a)
            if p < 0 || p >= Double(s.length) { return Value(Double.nan) }
            return Value(int32: Int32(s[Int(p)]))
        }
        try method(proto, "codePointAt", 1) { rt, this, args, _ throws(JSException) in
            let s = try rt.flatten(try rt.thisString(this, "codePointAt"))
            let p = try rt.toIntegerOrInfinityFast(rt.arg(args, 0))
            if p < 0 || p >= Double(s.length) { return .undefined }
            return Value(int32: Int32(rt.codePointAt(s, Int(p)).0))
        }
        try method(proto, "concat", 1) { rt, this, args, _ throws(JSException) in
            var r = try rt.thisString(this, "concat")
            for a in args {
                rt.heap.pushRoot(r)
                defer { rt.heap.popRoots(1) }
                r = try rt.concat(r, try rt.toString(a))
            }
            return r
        }
        for (name, kind) in [("startsWith", 0), ("endsWith", 1), ("includes", 2)] {
            try method(proto, name, 1) { rt, this, args, _ throws(JSException) in
                let sv = try rt.thisString(this, name)
                rt.heap.pushRoot(sv)
                defer { rt.heap.popRoots(1) }
                let search = rt.arg(args, 0)
                if try rt.isRegExp(search) {
                    throw try rt.typeError("First argument to String.prototype.\(name) must not be a regular expression")
                }
                let tv = try rt.toString(search)
                rt.heap.pushRoot(tv)
                defer { rt.heap.popRoots(1) }
                let s = try rt.flatten(sv)
                let len = s.length
                let posArg = rt.arg(args, 1)
                let t = try rt.flatten(tv)
                switch kind {
                case 0:
                    let start = posArg.isUndefined ? 0 : Int(min(max(try rt.toIntegerOrInfinityFast(posArg), 0), Double(len)))
                    if start + t.length > len { return .false }
                    for i in 0..<t.length where s[start + i] != t[i] { return .false }
                    return .true
                case 1:
                    let end = posArg.isUndefined ? len : Int(min(max(try rt.toIntegerOrInfinityFast(posArg), 0), Double(len)))
                    let start = end - t.length
                    if start < 0 { return .false }
                    for i in 0..<t.length where s[start + i] != t[i] { return .false }
                    return .true
                default:
                    let start = Int(min(max(try rt.toIntegerOrInfinityFast(posArg), 0), Double(len)))
                    return Value(rt.stringIndexOf(s, t, start) >= 0)
                }
            }
        }
        try method(proto, "indexOf", 1) { rt, this, args, _ throws(JSException) in
            let sv = try rt.thisString(this, "indexOf")
            rt.heap.pushRoot(sv)
            defer { rt.heap.popRoots(1) }
            let tv = try rt.toString(rt.arg(args, 0))
            rt.heap.pushRoot(tv)
            defer { rt.heap.popRoots(1) }
            let pos = try rt.toIntegerOrInfinityFast(rt.arg(args, 1))
            let s = try rt.flatten(sv), t = try rt.flatten(tv)
            let start = Int(min(max(pos, 0), Double(s.length)))
            return Value(rt.stringIndexOf(s, t, start))
        }
        try method(proto, "lastIndexOf", 1) { rt, this, args, _ throws(JSException) in
            let sv = try rt.thisString(this, "lastIndexOf")
            rt.heap.pushRoot(sv)
            defer { rt.heap.popRoots(1) }
            let tv = try rt.toString(rt.arg(args, 0))
            rt.heap.pushRoot(tv)
            defer { rt.heap.popRoots(1) }
            let numPos = try rt.toNumber(rt.arg(args, 1))
            let pos = numPos.isNaN ? Double.infinity : (numPos == 0 ? 0 : numPos.rounded(.towardZero))
            let s = try rt.flatten(sv), t = try rt.flatten(tv)
            let start = Int(min(max(pos, 0), Double(s.length)))
            if t.length > s.length { return Value(int32: -1) }
            return Value(rt.stringLastIndexOf(s, t, start))
        }
        try method(proto, "isWellFormed", 0) { rt, this, _, _ throws(JSException) in
            let s = try rt.flatten(try rt.thisString(this, "isWellFormed"))
            if !s.is16Bit { return .true }
            var i = 0
            while i < s.length {
                let (cp, len) = rt.codePointAt(s, i)
                if cp >= 0xD800 && cp <= 0xDFFF { return .false }
                i += len
            }
            return .true
        }
        try method(proto, "toWellFormed", 0) { rt, this, _, _ throws(JSException) in
            let sv = try rt.thisString(this, "toWellFormed")
            let s = try rt.flatten(sv)
            if !s.is16Bit { return sv }
            var out: [UInt16] = []
            out.reserveCapacity(s.length)
            var i = 0
            while i < s.length {
                let (cp, len) = rt.codePointAt(s, i)
                if cp >= 0xD800 && cp <= 0xDFFF { out.append(0xFFFD) } else { rt.appendUTF16(&out, cp) }
                i += len
            }
            return try rt.makeString(out)
        }
        try method(proto, "localeCompare", 1) { rt, this, args, _ throws(JSException) in
            let sv = try rt.thisString(this, "localeCompare")
            rt.heap.pushRoot(sv)
            defer { rt.heap.popRoots(1) }
            let tv = try rt.toString(rt.arg(args, 0))
            let a = rt.normalizeNFC(try rt.flatten(sv)), b = rt.normalizeNFC(try rt.flatten(tv))
            if a == b { return Value(int32: 0) }
            return Value(int32: a.lexicographicallyPrecedes(b) ? -1 : 1)
        }
        try method(proto, "normalize", 0) { rt, this, args, _ throws(JSException) in
            let sv = try rt.thisString(this, "normalize")
            rt.heap.pushRoot(sv)
            defer { rt.heap.popRoots(1) }
            let fv = rt.arg(args, 0)
            let form = fv.isUndefined ? "NFC" : try rt.flatten(try rt.toString(fv)).swiftString
            guard ["NFC", "NFD", "NFKC", "NFKD"].contains(form) else {
                throw try rt.rangeError("The normalization form should be one of NFC, NFD, NFKC, NFKD.")
            }
            let s = try rt.flatten(sv)
            var ascii = !s.is16Bit
            if ascii { for i in 0..<s.length where s.latin1[i] >= 0x80 { ascii = false; break } }
            if ascii { return sv }
            var units: [UInt16] = []
            rt.appendUnits(&units, s)
            switch form {
            case "NFC": return try rt.makeString(rt.normalizeNFC(units))
            case "NFD": return try rt.makeString(UnicodeNormalization.decomposed(units, compat: false))
            case "NFKD": return try rt.makeString(UnicodeNormalization.decomposed(units, compat: true))
            default: return try rt.makeString(rt.normalizeNFC(UnicodeNormalization.decomposed(units, compat: true)))
            }
        }
        for (name, atStart) in [("padStart", true), ("padEnd", false)] {
            try method(proto, name, 1) { rt, this, args, _ throws(JSException) in
                let sv = try rt.thisString(this, name)
                rt.heap.pushRoot(sv)
                defer { rt.heap.popRoots(1) }
                let maxLength = try rt.toLength(rt.arg(args, 0))
                let len = rt.stringLength(sv)
                if maxLength <= len { return sv }
                let fillArg = rt.arg(args, 1)
                let fv = fillArg.isUndefined ? try rt.makeString(" ") : try rt.toString(fillArg)
                rt.heap.pushRoot(fv)
                defer { rt.heap.popRoots(1) }
                let filler = try rt.flatten(fv)
                if filler.length == 0 { return sv }
                if maxLength > StringCell.maxLength { throw try rt.rangeError("Invalid string length") }
                let fillLen = maxLength - len
                var pad: [UInt16] = []
                pad.reserveCapacity(fillLen)
                while pad.count < fillLen {
                    rt.appendUnits(&pad, filler, 0, min(filler.length, fillLen - pad.count))
                }
                let p = try rt.makeString(pad)
                return atStart ? try rt.concat(p, sv) : try rt.concat(sv, p)
            }
        }
        try method(proto, "repeat", 1) { rt, this, args, _ throws(JSException) in
            let sv = try rt.thisString(this, "repeat")
            rt.heap.pushRoot(sv)
            defer { rt.heap.popRoots(1) }
            let n = try rt.toIntegerOrInfinityFast(rt.arg(args, 0))
            if n < 0 || n == .infinity { throw try rt.rangeError("Invalid count value: \(NumberConversions.toString(n))") }
            let len = rt.stringLength(sv)
            if n == 0 || len == 0 { return Value(cell: rt.atom(static: "")) }
            if Double(len) * n > Double(StringCell.maxLength) { throw try rt.rangeError("Invalid string length") }
            let count = Int(n)
            let s = try rt.flatten(sv)
            let total = len * count
            if !s.is16Bit {
                let r = try rt.allocateLatin1(length: total)
                for k in 0..<count { (r.latin1 + k * len).update(from: s.latin1, count: len) }
                return Value(cell: r.cell)
            }
            let r = try rt.allocateUTF16(length: total)
            for k in 0..<count { (r.utf16 + k * len).update(from: s.utf16, count: len) }
            return Value(cell: r.cell)
        }
        try method(proto, "slice", 2) { rt, this, args, _ throws(JSException) in
            let sv = try rt.thisString(this, "slice")
            rt.heap.pushRoot(sv)
            defer { rt.heap.popRoots(1) }
            let len = rt.stringLength(sv)
            let lo = try rt.relativeIndex(rt.arg(args, 0), len, 0)
            let hi = try rt.relativeIndex(rt.arg(args, 1), len, len)
            return try rt.substringOf(sv, lo, max(lo, hi))
        }
        try method(proto, "substring", 2) { rt, this, args, _ throws(JSException) in
            let sv = try rt.thisString(this, "substring")
            rt.heap.pushRoot(sv)
            defer { rt.heap.popRoots(1) }
            let n = Double(rt.stringLength(sv))
            let a = min(max(try rt.toIntegerOrInfinityFast(rt.arg(args, 0)), 0), n)
            let endArg = rt.arg(args, 1)
            let b = endArg.isUndefined ? n : min(max(try rt.toIntegerOrInfinityFast(endArg), 0), n)
            return try rt.substringOf(sv, Int(min(a, b)), Int(max(a, b)))
        }
        try method(proto, "substr", 2) { rt, this, args, _ throws(JSException) in
            let sv = try rt.thisString(this, "substr")
            rt.heap.pushRoot(sv)
            defer { rt.heap.popRoots(1) }
            let size = Double(rt.stringLength(sv))
            var start = try rt.toIntegerOrInfinityFast(rt.arg(args, 0))
            if start == -.infinity { start = 0 } else if start < 0 { start = max(size + start, 0) } else { start = min(start, size) }
            let lenArg = rt.arg(args, 1)
            let length = lenArg.isUndefined ? size : try rt.toIntegerOrInfinityFast(lenArg)
            let end = min(start + length, size)
            if start >= end { return Value(cell: rt.atom(static: "")) }
            return try rt.substringOf(sv, Int(start), Int(end))
        }
        for (name, upper) in [("toUpperCase", true), ("toLowerCase", false), ("toLocaleUpperCase", true), ("toLocaleLowerCase", false)] {
            try method(proto, name, 0) { rt, this, _, _ throws(JSException) in
                let sv = try rt.thisString(this, name)
                rt.heap.pushRoot(sv)
                defer { rt.heap.popRoots(1) }
                return try rt.convertCase(sv, upper: upper)
            }
        }
        // trimLeft and trimRight are the same function objects as trimStart and trimEnd.
        var trimFns: [JSObject] = []
        for (name, start, end) in [("trim", true, true), ("trimStart", true, false), ("trimEnd", false, true)] {
            trimFns.append(try method(proto, name, 0) { rt, this, _, _ throws(JSException) in
                let sv = try rt.thisString(this, name)
                rt.heap.pushRoot(sv)
                defer { rt.heap.popRoots(1) }
                let s = try rt.flatten(sv)
                var lo = 0, hi = s.length
                if start { while lo < hi && Runtime.isJSWhiteSpace(s[lo]) { lo += 1 } }
                if end { while hi > lo && Runtime.isJSWhiteSpace(s[hi - 1]) { hi -= 1 } }
                return try rt.substring(s, lo, hi)
            })
        }
        try put(proto, "trimLeft", Value(cell: trimFns[1].cell))
        try put(proto, "trimRight", Value(cell: trimFns[2].cell))
        // split, replace, replaceAll, match, matchAll, search: RegExpSymbols.swift (installRegExp).

        // Annex B HTML methods.
        let html: [(String, String, String)] = [
            ("anchor", "a", "name"), ("big", "big", ""), ("blink", "blink", ""), ("bold", "b", ""),
            ("fixed", "tt", ""), ("fontcolor", "font", "color"), ("fontsize", "font", "size"),
            ("italics", "i", ""), ("link", "a", "href"), ("small", "small", ""), ("strike", "strike", ""),
            ("sub", "sub", ""), ("sup", "sup", ""),
        ]
        for (name, tag, attribute) in html {
            try method(proto, name, attribute.isEmpty ? 0 : 1) { rt, this, args, _ throws(JSException) in
                let sv = try rt.thisString(this, name)
                rt.heap.pushRoot(sv)
                defer { rt.heap.popRoots(1) }
                var out = Array("<\(tag)".utf16)
                if !attribute.isEmpty {
                    let v = try rt.flatten(try rt.toString(rt.arg(args, 0)))
                    out.append(contentsOf: " \(attribute)=\"".utf16)
                    for i in 0..<v.length {
                        if v[i] == 34 { out.append(contentsOf: "&quot;".utf16) } else { out.append(v[i]) }
                    }
                    out.append(34)
                }
                out.append(62)
                rt.appendUnits(&out, try rt.flatten(sv))
                out.append(contentsOf: "</\(tag)>".utf16)
                return try rt.makeString(out)
            }
        }

        // %StringIteratorPrototype%
        let sip = try newObject(prototype: realm.iteratorPrototype)
        realm.stringIteratorPrototype = sip
        try method(sip, "next", 0) { rt, this, _, _ throws(JSException) in
            guard rt.isObject(this), JSObject(this).kind == .iterator,
                  JSObject(this).extraValue(2).bits == Value(cell: rt.realm.stringIteratorPrototype.cell).bits else {
                throw try rt.typeError("next method called on incompatible receiver \(try rt.describeForError(this))")
            }
            let it = JSObject(this)
            let target = it.extraValue(1)
            if target.isUndefined { return try rt.createIterResult(.undefined, done: true) }
            let s = try rt.flatten(target)
            let pos = Int(it.word(0))
            if pos >= s.length {
                it.setExtraValue(1, .undefined)
                return try rt.createIterResult(.undefined, done: true)
            }
            let (_, len) = rt.codePointAt(s, pos)
            it.setWord(0, UInt64(pos + len))
            return try rt.createIterResult(try rt.substring(s, pos, pos + len), done: false)
        }
        try defineOwnProperty(sip, symbolKey(wellKnown.toStringTag), .data(try makeString("String Iterator"), [.configurable]))
        let iter = try makeNativeFunction("[Symbol.iterator]", length: 0) { rt, this, _, _ throws(JSException) in
            let sv = try rt.thisString(this, "[Symbol.iterator]")
            rt.heap.pushRoot(sv)
            defer { rt.heap.popRoots(1) }
            let it = try rt.allocateObject(.iterator, shape: try rt.rootShape(for: Value(cell: rt.realm.stringIteratorPrototype.cell)))
            it.setWord(0, 0)
            it.setExtraValue(1, sv)
            it.setExtraValue(2, Value(cell: rt.realm.stringIteratorPrototype.cell))
            return Value(cell: it.cell)
        }
        try defineOwnProperty(proto, symbolKey(wellKnown.iterator), .data(Value(cell: iter.cell), .hidden))
    }
}
