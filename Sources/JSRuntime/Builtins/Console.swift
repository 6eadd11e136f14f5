// console.log/info/debug/error/warn and `print`, formatting values like node's
// util.inspect for the common cases (quoting, class names, functions/classes, boxed
// primitives, dates, errors, holes, circular references, depth > 2, array grouping,
// line breaking at node's 80-column rule).

extension Runtime {
    func installConsole() throws(JSException) {
        let console = try newObject()
        try put(realm.global, "console", Value(cell: console.cell))
        let log: NativeFunction = { rt, _, args, _ throws(JSException) in
            rt.output(try rt.formatLogArguments(args) + "\n")
            return .undefined
        }
        for name in ["log", "info", "debug", "trace"] { try method(console, name, 0, log) }
        let err: NativeFunction = { rt, _, args, _ throws(JSException) in
            rt.errorOutput(try rt.formatLogArguments(args) + "\n")
            return .undefined
        }
        for name in ["error", "warn"] { try method(console, name, 0, err) }
        // `print`: the arguments inspected and joined with spaces (no printf directives).
        try method(realm.global, "print", 0) { rt, _, args, _ throws(JSException) in
            var parts: [String] = []
            for v in args { parts.append(rt.isString(v) ? try rt.flatten(v).swiftString : try rt.inspect(v, depth: 0)) }
            rt.output(parts.joined(separator: " ") + "\n")
            return .undefined
        }
    }

    /// node's formatWithOptions: printf-style directives in a leading string, then the
    /// remaining arguments inspected and joined with spaces.
    func formatLogArguments(_ args: UnsafeBufferPointer<Value>) throws(JSException) -> String {
        var parts: [String] = []
        var next = 0
        if args.count > 1, isString(args[0]) {
            let f = try flatten(args[0]).swiftString
            if f.contains("%") {
                var out = ""
                var it = f.makeIterator()
                next = 1
                while let c = it.next() {
                    guard c == "%" else { out.append(c); continue }
                    guard let d = it.next() else { out.append("%"); break }
                    if d == "%" { out.append("%"); continue }
                    if next >= args.count || !"sdifjoOc".contains(d) { out.append("%"); out.append(d); continue }
                    let a = args[next]
                    next += 1
                    switch d {
                    case "s":
                        if isString(a) { out += try flatten(a).swiftString }
                        else if isObject(a) && !isCallable(a) { out += try inspect(a, depth: 0, maxDepth: 1) }
                        else { out += try inspect(a, depth: 0) }
                    case "d", "i":
                        if isObject(a) { out += "NaN"; break }
                        var n = try toNumber(a)
                        if d == "i" { n = n.rounded(.towardZero) }
                        out += n == 0 && n.sign == .minus ? "-0" : NumberConversions.toString(n)
                    case "f":
                        if isSymbol(a) { out += "NaN"; break }
                        let n = try toNumber(a)
                        out += n == 0 && n.sign == .minus ? "-0" : NumberConversions.toString(n)
                    case "j":
                        let j = try jsonStringify(a, .undefined, .undefined)
                        out += j.isUndefined ? "undefined" : try flatten(j).swiftString
                    case "c": break
                    default: out += try inspect(a, depth: 0)
                    }
                }
                parts.append(out)
            }
        }
        while next < args.count {
            let v = args[next]
            parts.append(isString(v) ? try flatten(v).swiftString : try inspect(v, depth: 0))
            next += 1
        }
        return parts.joined(separator: " ")
    }

    /// Formats a value the way node's `util.inspect` does (top: strings unquoted).
    /// `maxDepth` is clamped to `inspectDepthLimit` (the printer recurses once per level
    /// shown: a larger depth over a deeply nested object would exhaust the native stack).
    public func inspect(_ v: Value, depth: Int, top: Bool = false, maxDepth: Int = 2) throws(JSException) -> String {
        if top && isString(v) { return try flatten(v).swiftString }
        let limit = min(max(maxDepth, 0), Runtime.inspectDepthLimit)
        let ctx = InspectContext(maxDepth: limit)
        return try formatValue(ctx, v, recurseTimes: min(max(depth, 0), limit + 1))
    }

    /// The deepest nesting `inspect` shows.
    public static let inspectDepthLimit = 100

    final class InspectContext {
        var seen: [UnsafeMutableRawPointer] = []
        var circular: [UnsafeMutableRawPointer: Int] = [:]
        var indentationLvl = 0
        var currentDepth = 0
        let maxDepth: Int
        let breakLength = 80
        init(maxDepth: Int) { self.maxDepth = maxDepth }
    }

    func quoteForInspect(_ s: StringCell) -> String {
        var hasSingle = false, hasDouble = false, hasBack = false
        for i in 0..<s.length {
            switch s[i] {
            case 39: hasSingle = true
            case 34: hasDouble = true
            case 96: hasBack = true
            default: break
            }
        }
        var q: UInt16 = 39
        if hasSingle { if !hasDouble { q = 34 } else if !hasBack { q = 96 } }
        var out: [UInt16] = [q]
        let hex = Array("0123456789ABCDEF".utf16)
        for i in 0..<s.length {
            let u = s[i]
            switch u {
            case q: out.append(92); out.append(q)
            case 92: out.append(92); out.append(92)
            case 10: out.append(92); out.append(110)
            case 9: out.append(92); out.append(116)
            case 13: out.append(92); out.append(114)
            case 8: out.append(92); out.append(98)
            case 12: out.append(92); out.append(102)
            case 11: out.append(92); out.append(118)
            default:
                if u < 0x20 || u == 0x7F {
                    out.append(92); out.append(120); out.append(hex[Int(u >> 4)]); out.append(hex[Int(u & 0xF)])
                } else { out.append(u) }
            }
        }
        out.append(q)
        return String(decoding: out, as: UTF16.self)
    }

    func inspectKey(_ k: Key, _ ctx: InspectContext) throws(JSException) -> String {
        switch k {
        case .index(let i): return "'\(i)'"
        case .named(let pk):
            if pk.isSymbol { return "[\(try formatValue(ctx, pk.value, recurseTimes: 0))]" }
            let s = StringCell(pk.cell)
            var simple = s.length > 0
            for i in 0..<s.length {
                let u = s[i]
                let alpha = (u >= 65 && u <= 90) || (u >= 97 && u <= 122) || u == 95
                if !(alpha || (i > 0 && u >= 48 && u <= 57)) { simple = false; break }
            }
            return simple ? s.swiftString : quoteForInspect(s)
        }
    }

    func functionBase(_ o: JSObject) throws(JSException) -> String {
        let name = try get(o, "name")
        let n = isString(name) ? try flatten(name).swiftString : ""
        if o.flags & ObjectFlags.classConstructor != 0 {
            var s = "[class \(n.isEmpty ? "(anonymous)" : n)"
            let proto = o.prototype
            if proto.isCell, proto.bits != Value(cell: realm.functionPrototype.cell).bits {
                let pn = try get(JSObject(proto), "name")
                if isString(pn) { s += " extends \(try flatten(pn).swiftString)" }
            }
            return s + "]"
        }
        return n.isEmpty ? "[Function (anonymous)]" : "[Function: \(n)]"
    }

    /// The constructor name shown before an object's braces ("" for plain objects).
    func constructorName(_ o: JSObject) throws(JSException) -> String? {
        var proto = o.prototype
        var guardCount = 0
        while proto.isCell && guardCount < 100 {
            let p = JSObject(proto)
            if let d = try getOwnProperty(p, key(static: "constructor")), case .data(let c, _) = d, isCallable(c) {
                let n = try get(JSObject(c), "name")
                if isString(n) { return try flatten(n).swiftString }
            }
            proto = p.prototype
            guardCount += 1
        }
        return nil
    }

    func formatValue(_ ctx: InspectContext, _ v: Value, recurseTimes: Int) throws(JSException) -> String {
        if isString(v) { return quoteForInspect(try flatten(v)) }
        if v.isNumber {
            let d = v.asNumber
            return d == 0 && d.sign == .minus ? "-0" : NumberConversions.toString(d)
        }
        if v.isUndefined { return "undefined" }
        if v.isNull { return "null" }
        if v.isBool { return v.asBool ? "true" : "false" }
        if isBigInt(v) { return "\(bigIntValue(v).toString())n" }
        if isSymbol(v) {
            let d = symbolDescription(v)
            return "Symbol(\(d.isUndefined ? "" : try flatten(d).swiftString))"
        }
        guard isObject(v) else { return "<internal>" }
        let o = JSObject(v)
        if ctx.seen.contains(o.cell) {
            let idx: Int
            if let i = ctx.circular[o.cell] { idx = i } else { idx = ctx.circular.count + 1; ctx.circular[o.cell] = idx }
            return "[Circular *\(idx)]"
        }
        var result = try formatRaw(ctx, o, recurseTimes: recurseTimes)
        if let idx = ctx.circular[o.cell] { result = "<ref *\(idx)> " + result }
        return result
    }

    func formatRaw(_ ctx: InspectContext, _ o: JSObject, recurseTimes: Int) throws(JSException) -> String {
        let v = Value(cell: o.cell)
        var base = ""
        var braces = ("{", "}")
        var isArrayLike = false
        var keys: [Key] = []
        for k in try ownKeys(o) {
            if let p = try getOwnProperty(o, k), p.attributes.contains(.enumerable) { keys.append(k) }
        }
        let ctorName = try constructorName(o)
        let prefixName: String
        if o.prototype.isNull { prefixName = "[Object: null prototype]" } else { prefixName = ctorName ?? "" }

        if o.kind == .array {
            isArrayLike = true
            braces = ("[", "]")
            if prefixName != "Array" && !prefixName.isEmpty { braces.0 = "\(prefixName)(\(o.arrayLength)) [" }
            keys = keys.filter { if case .index = $0 { return false }; return true }
        } else if o.kind == .typedArray {
            isArrayLike = true
            braces = ("\(prefixName.isEmpty ? o.typedArrayKind.name : prefixName)(\(o.typedArrayLength ?? 0)) [", "]")
            keys = keys.filter { if case .index = $0 { return false }; return true }
        } else if isCallable(v) {
            base = try functionBase(o)
            if keys.isEmpty { return base }
        } else if o.kind == .error {
            let stack = try get(o, "stack")
            base = isString(stack) ? try flatten(stack).swiftString : try flatten(try toString(v)).swiftString
            keys = keys.filter { k in
                if case .named(let pk) = k, !pk.isSymbol {
                    let n = StringCell(pk.cell).swiftString
                    return n != "stack" && n != "message"
                }
                return true
            }
            if keys.isEmpty { return base }
        } else if o.kind == .date {
            let t = o.extraValue(1).asNumber
            base = t.isFinite ? DateMath.toISOString(t) : "Invalid Date"
            if keys.isEmpty { return base }
        } else if o.kind == .boxedPrimitive {
            let p = o.extraValue(1)
            if isString(p) {
                base = "[String: \(quoteForInspect(try flatten(p)))]"
                keys = keys.filter { if case .index = $0 { return false }; return true }
            } else if p.isNumber { base = "[Number: \(try formatValue(ctx, p, recurseTimes: 0))]" }
            else if p.isBool { base = "[Boolean: \(p.asBool)]" }
            else if isBigInt(p) { base = "[BigInt: \(bigIntValue(p).toString())n]" }
            else { base = "[Symbol: \(try formatValue(ctx, p, recurseTimes: 0))]" }
            if keys.isEmpty { return base }
        } else if o.kind == .map || o.kind == .set {
            return try formatCollection(ctx, o, recurseTimes: recurseTimes, isMap: o.kind == .map,
                                        ctorName: o.prototype.isNull ? nil : ctorName, keys: keys)
        } else if isRegExpObject(v) {
            // From [[OriginalSource]] and [[OriginalFlags]]: no `source`/`flags` getter runs.
            let flags = o.extraValue(2)
            base = "/" + String(decoding: try escapedRegExpSource(o), as: UTF16.self) + "/"
                + (isString(flags) ? try flatten(flags).swiftString : "")
            if o.prototype.isNull { base = "[RegExp: null prototype] " + base }
            else if prefixName != "RegExp" && !prefixName.isEmpty { base = "\(prefixName) " + base }
            if keys.isEmpty { return base }
        } else {
            if let tagKey = Optional(symbolKey(wellKnown.toStringTag)), wellKnown.toStringTag.isCell {
                let tag = try get(o, tagKey, receiver: v)
                if isString(tag) {
                    let t = try flatten(tag).swiftString
                    if !t.isEmpty && t != prefixName {
                        braces.0 = (prefixName.isEmpty ? "Object" : prefixName) + " [\(t)] {"
                    } else if !prefixName.isEmpty && prefixName != "Object" { braces.0 = "\(prefixName) {" }
                } else if !prefixName.isEmpty && prefixName != "Object" { braces.0 = "\(prefixName) {" }
            } else if !prefixName.isEmpty && prefixName != "Object" { braces.0 = "\(prefixName) {" }
        }

        let arrayLength = !isArrayLike ? 0 : o.kind == .typedArray ? (o.typedArrayLength ?? 0) : Int(o.arrayLength)
        if keys.isEmpty && arrayLength == 0 {
            if isArrayLike { return braces.0 + "]" }
            if base.isEmpty { return braces.0 + "}" }
        }
        if recurseTimes > ctx.maxDepth {
            if isArrayLike { return "[Array]" }
            let n = prefixName.isEmpty ? "Object" : prefixName
            return "[\(n)]"
        }
        let rt2 = recurseTimes + 1
        ctx.seen.append(o.cell)
        ctx.currentDepth = rt2
        var output: [String] = []
        if isArrayLike {
            let shown = min(arrayLength, 100)
            var holes = 0
            var i = 0
            while i < shown {
                if try getOwnProperty(o, .index(UInt32(i))) == nil { holes += 1; i += 1; continue }
                if holes > 0 { output.append("<\(holes) empty item\(holes > 1 ? "s" : "")>"); holes = 0 }
                ctx.indentationLvl += 2
                output.append(try formatValue(ctx, try element(o, i), recurseTimes: rt2))
                ctx.indentationLvl -= 2
                i += 1
            }
            if holes > 0 { output.append("<\(holes) empty item\(holes > 1 ? "s" : "")>") }
            if arrayLength > 100 { output.append("... \(arrayLength - 100) more item\(arrayLength - 100 > 1 ? "s" : "")") }
        }
        for k in keys {
            guard let p = try getOwnProperty(o, k) else { continue }
            let name = try inspectKey(k, ctx)
            switch p {
            case .data(let val, _):
                ctx.indentationLvl += 2
                let s = try formatValue(ctx, val, recurseTimes: rt2)
                ctx.indentationLvl -= 2
                output.append("\(name): \(s)")
            case .accessor(let g, let s, _):
                output.append("\(name): [\(g.isUndefined ? "Setter" : s.isUndefined ? "Getter" : "Getter/Setter")]")
            }
        }
        ctx.seen.removeLast()
        return reduceToSingleString(ctx, output, base: base, braces: braces, isArray: isArrayLike, recurseTimes: rt2, value: o)
    }

    /// A Map or Set, from its internal entries (as node does): neither a `size` getter nor
    /// a replaced `Symbol.iterator` runs, so NaN, Infinity or an endless iterator cannot
    /// reach the printer. Up to 100 entries are shown, then "... N more items".
    /// Labels as node's: `Map(2) {`, `MyMap(2) [Map] {`, `[Map(2): null prototype] {`; own
    /// enumerable properties follow the entries.
    func formatCollection(_ ctx: InspectContext, _ o: JSObject, recurseTimes: Int, isMap: Bool,
                          ctorName: String?, keys: [Key]) throws(JSException) -> String {
        let weak = o.flags & ObjectFlags.weakCollection != 0
        let kindName = (weak ? "Weak" : "") + (isMap ? "Map" : "Set")
        let size = collectionIndex(o).live
        let sized = weak ? kindName : "\(kindName)(\(size))"
        let label: String
        switch ctorName {
        case nil, "": label = "[\(sized): null prototype] {"
        case kindName?: label = "\(sized) {"
        case let name?: label = weak ? "\(name) [\(kindName)] {" : "\(name)(\(size)) [\(kindName)] {"
        }
        if weak { return label + " <items unknown> }" }
        if size == 0 && keys.isEmpty { return label + "}" }
        if recurseTimes > ctx.maxDepth { return "[\(kindName)]" }
        // A snapshot of the live entries in a rooted array: formatting an entry may run
        // getters that change the collection (or collect its old entries).
        let stride = collectionStride(o)
        let shown = min(size, 100)
        var entries: [Value] = []
        entries.reserveCapacity(shown * stride)
        try collectionForEach(o) { i throws(JSException) in
            guard entries.count < shown * stride else { return }
            let e = collectionStorage(o).elements!
            for j in 0..<stride { entries.append(e[i * stride + j]) }
        }
        let items = try entries.withUnsafeBufferPointer { b throws(JSException) in try newArray(b) }
        heap.pushRoot(Value(cell: items.cell))
        defer { heap.popRoots(1) }
        let rt2 = recurseTimes + 1
        ctx.seen.append(o.cell)
        ctx.currentDepth = rt2
        var output: [String] = []
        ctx.indentationLvl += 2
        var i = 0
        while i + stride <= items.elementsLength {
            let e = items.elements!
            if isMap {
                let k = try formatValue(ctx, e[i], recurseTimes: rt2)
                let val = try formatValue(ctx, items.elements![i + 1], recurseTimes: rt2)
                output.append("\(k) => \(val)")
            } else {
                output.append(try formatValue(ctx, e[i], recurseTimes: rt2))
            }
            i += stride
        }
        if size > shown { output.append("... \(size - shown) more item\(size - shown > 1 ? "s" : "")") }
        for k in keys {
            guard let p = try getOwnProperty(o, k) else { continue }
            let name = try inspectKey(k, ctx)
            switch p {
            case .data(let val, _): output.append("\(name): \(try formatValue(ctx, val, recurseTimes: rt2))")
            case .accessor(let g, let s, _):
                output.append("\(name): [\(g.isUndefined ? "Setter" : s.isUndefined ? "Getter" : "Getter/Setter")]")
            }
        }
        ctx.indentationLvl -= 2
        ctx.seen.removeLast()
        return reduceToSingleString(ctx, output, base: "", braces: (label, "}"), isArray: false, recurseTimes: rt2, value: nil)
    }

    func reduceToSingleString(_ ctx: InspectContext, _ outputIn: [String], base: String, braces: (String, String),
                              isArray: Bool, recurseTimes: Int, value: JSObject?) -> String {
        var output = outputIn
        let entries = output.count
        if isArray && entries > 6 { output = groupArrayElements(ctx, output, value) }
        if ctx.currentDepth - recurseTimes < 3 && entries == output.count {
            let start = output.count + ctx.indentationLvl + braces.0.count + base.count + 10
            if isBelowBreakLength(ctx, output, start, base) {
                let joined = output.joined(separator: ", ")
                if !joined.contains("\n") {
                    return (base.isEmpty ? "" : base + " ") + braces.0 + " " + joined + " " + braces.1
                }
            }
        }
        let indentation = "\n" + String(repeating: " ", count: ctx.indentationLvl)
        return (base.isEmpty ? "" : base + " ") + braces.0 + indentation + "  "
            + output.joined(separator: "," + indentation + "  ") + indentation + braces.1
    }

    func isBelowBreakLength(_ ctx: InspectContext, _ output: [String], _ start: Int, _ base: String) -> Bool {
        var total = output.count + start
        if total + output.count > ctx.breakLength { return false }
        for s in output {
            total += s.count
            if total > ctx.breakLength { return false }
        }
        return base.isEmpty || !base.contains("\n")
    }

    func groupArrayElements(_ ctx: InspectContext, _ output: [String], _ value: JSObject?) -> [String] {
        var totalLength = 0
        var maxLength = 0
        var outputLength = output.count
        if let last = output.last, last.hasPrefix("... "), last.contains(" more item") {
            outputLength -= 1
        }
        let separatorSpace = 2
        var dataLen: [Int] = []
        for i in 0..<outputLength {
            let len = output[i].count
            dataLen.append(len)
            totalLength += len + separatorSpace
            if maxLength < len { maxLength = len }
        }
        let actualMax = maxLength + separatorSpace
        guard actualMax * 3 + ctx.indentationLvl < ctx.breakLength,
              Double(totalLength) / Double(actualMax) > 5 || maxLength <= 6 else { return output }
        let averageBias = (Double(actualMax) - Double(totalLength) / Double(output.count)).squareRoot()
        let biasedMax = max(Double(actualMax) - 3 - averageBias, 1)
        let columns = min(Int(((2.5 * biasedMax * Double(outputLength)).squareRoot() / biasedMax).rounded()),
                          (ctx.breakLength - ctx.indentationLvl) / actualMax, 12, 15)
        if columns <= 1 { return output }
        var maxLineLength: [Int] = []
        for i in 0..<columns {
            var lineLength = 0
            var j = i
            while j < outputLength { if dataLen[j] > lineLength { lineLength = dataLen[j] }; j += columns }
            maxLineLength.append(lineLength + separatorSpace)
        }
        var padStart = true
        if let a = value {
            for i in 0..<min(outputLength, Int(a.arrayLength)) {
                let e = i < a.elementsLength ? a.elements![i] : Value.undefined
                if !e.isNumber { padStart = false; break }
            }
        }
        func pad(_ s: String, _ width: Int, start: Bool) -> String {
            let n = s.count
            if n >= width { return s }
            let p = String(repeating: " ", count: width - n)
            return start ? p + s : s + p
        }
        var tmp: [String] = []
        var i = 0
        while i < outputLength {
            let maxI = min(i + columns, outputLength)
            var str = ""
            var j = i
            while j < maxI - 1 {
                str += pad(output[j] + ", ", maxLineLength[j - i], start: padStart)
                j += 1
            }
            if padStart {
                str += pad(output[j], maxLineLength[j - i] - separatorSpace, start: true)
            } else {
                str += output[j]
            }
            tmp.append(str)
            i += columns
        }
        if outputLength < output.count { tmp.append(output[outputLength]) }
        return tmp
    }

    public func output(_ s: String) { outputHook?(s) ?? print(s, terminator: "") }
    public func errorOutput(_ s: String) { errorOutputHook?(s) ?? print(s, terminator: "") }
}
