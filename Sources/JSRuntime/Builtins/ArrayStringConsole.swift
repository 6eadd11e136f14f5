// Array helpers, String and console (Array.prototype itself is in ArrayBuiltins.swift).

extension Runtime {
    // MARK: - Array

    func lengthOf(_ o: JSObject) throws(JSException) -> Int {
        if o.kind == .array { return Int(o.arrayLength) }
        return try toLength(try get(o, key("length"), receiver: Value(cell: o.cell)))
    }

    func setLength(_ o: JSObject, _ n: Int) throws(JSException) {
        if !(try set(o, key("length"), Value(n), receiver: Value(cell: o.cell))) {
            throw try typeError("Cannot assign to read only property 'length' of object")
        }
    }

    @inline(__always) func element(_ o: JSObject, _ i: Int) throws(JSException) -> Value {
        if i < o.elementsLength, let e = o.elements, !e[i].isEmpty { return e[i] }
        return try get(o, .index(UInt32(i)), receiver: Value(cell: o.cell))
    }

    func callback(_ args: UnsafeBufferPointer<Value>, _ name: String) throws(JSException) -> Value {
        let f = arg(args, 0)
        if !isCallable(f) { throw try typeError("\(try describeForError(f)) is not a function") }
        return f
    }

    func relativeIndex(_ v: Value, _ n: Int, _ defaultValue: Int) throws(JSException) -> Int {
        if v.isUndefined { return defaultValue }
        let d = try toNumber(v)
        if d.isNaN { return 0 }
        let i = d < 0 ? max(0, Double(n) + d.rounded(.towardZero)) : min(Double(n), d.rounded(.towardZero))
        return Int(i)
    }

    /// A stable merge sort over the dense elements of `a` (which is rooted).
    func mergeSort(_ a: JSObject, count: Int, less: (Value, Value) throws(JSException) -> Bool) throws(JSException) {
        if count < 2 { return }
        let buffer = try newArray(capacity: count)
        heap.pushRoot(Value(cell: buffer.cell))
        defer { heap.popRoots(1) }
        buffer.elementsLength = count
        var width = 1
        while width < count {
            var lo = 0
            while lo < count {
                let mid = min(lo + width, count), hi = min(lo + 2 * width, count)
                var i = lo, j = mid, k = lo
                while i < mid && j < hi {
                    let src = a.elements!
                    if try less(src[j], src[i]) { buffer.elements![k] = src[j]; j += 1 } else { buffer.elements![k] = src[i]; i += 1 }
                    k += 1
                }
                while i < mid { buffer.elements![k] = a.elements![i]; i += 1; k += 1 }
                while j < hi { buffer.elements![k] = a.elements![j]; j += 1; k += 1 }
                lo += 2 * width
            }
            for i in 0..<count { a.elements![i] = buffer.elements![i] }
            width *= 2
        }
    }

    // MARK: - String

    func thisString(_ this: Value, _ name: String) throws(JSException) -> Value {
        if isString(this) { return this }
        if isObject(this), JSObject(this).kind == .boxedPrimitive, isString(JSObject(this).extraValue(1)) {
            return JSObject(this).extraValue(1)
        }
        if this.isNullish { throw try typeError("String.prototype.\(name) called on null or undefined") }
        return try toString(this)
    }

    func installString() throws(JSException) {
        let proto = realm.stringPrototype!
        let ctor = try constructor("String", length: 1, prototype: proto) { rt, _, args, newTarget throws(JSException) in
            var s: Value
            if args.count == 0 { s = try rt.makeString("") }
            else if rt.isSymbol(args[0]) && newTarget.isUndefined {
                let d = rt.symbolDescription(args[0])
                s = try rt.makeString("Symbol(\(d.isUndefined ? "" : try rt.flatten(d).swiftString))")
            } else { s = try rt.toString(args[0]) }
            if newTarget.isUndefined { return s }
            return Value(cell: try rt.toObject(s).cell)
        }
        try method(ctor, "fromCharCode", 1) { rt, _, args, _ throws(JSException) in
            var units: [UInt16] = []
            for v in args { units.append(UInt16(truncatingIfNeeded: try rt.toUint32(v))) }
            return try rt.makeString(units)
        }
        try method(proto, "toString", 0) { rt, this, _, _ throws(JSException) in try rt.thisString(this, "toString") }
        try method(proto, "valueOf", 0) { rt, this, _, _ throws(JSException) in try rt.thisString(this, "valueOf") }
        try method(proto, "charCodeAt", 1) { rt, this, args, _ throws(JSException) in
            let s = try rt.flatten(try rt.thisString(this, "charCodeAt"))
            let d = try rt.toNumber(rt.arg(args, 0))
            let i = d.isNaN ? 0 : d.rounded(.towardZero)
            if i < 0 || i >= Double(s.length) { return Value(Double.nan) }
            return Value(int32: Int32(s[Int(i)]))
        }
        try method(proto, "charAt", 1) { rt, this, args, _ throws(JSException) in
            let s = try rt.flatten(try rt.thisString(this, "charAt"))
            let d = try rt.toNumber(rt.arg(args, 0))
            let i = d.isNaN ? 0 : d.rounded(.towardZero)
            if i < 0 || i >= Double(s.length) { return try rt.makeString("") }
            return try rt.makeString([s[Int(i)]])
        }
        try method(proto, "indexOf", 1) { rt, this, args, _ throws(JSException) in
            let s = try rt.flatten(try rt.thisString(this, "indexOf")).codeUnits
            let t = try rt.flatten(try rt.toString(rt.arg(args, 0))).codeUnits
            let start = min(max(0, Int(try rt.toNumber(rt.arg(args, 1)).nanToZero)), s.count)
            if t.isEmpty { return Value(start) }
            if t.count > s.count { return Value(int32: -1) }
            var i = start
            while i + t.count <= s.count {
                if s[i] == t[0] && Array(s[i..<(i + t.count)]) == t { return Value(i) }
                i += 1
            }
            return Value(int32: -1)
        }
        try method(proto, "substring", 2) { rt, this, args, _ throws(JSException) in
            let s = try rt.flatten(try rt.thisString(this, "substring")).codeUnits
            let n = Double(s.count)
            let a = min(max(try rt.toNumber(rt.arg(args, 0)).nanToZero, 0), n)
            let b = rt.arg(args, 1).isUndefined ? n : min(max(try rt.toNumber(rt.arg(args, 1)).nanToZero, 0), n)
            let lo = Int(min(a, b)), hi = Int(max(a, b))
            return try rt.makeString(Array(s[lo..<hi]))
        }
        try method(proto, "slice", 2) { rt, this, args, _ throws(JSException) in
            let s = try rt.flatten(try rt.thisString(this, "slice")).codeUnits
            let lo = try rt.relativeIndex(rt.arg(args, 0), s.count, 0)
            let hi = try rt.relativeIndex(rt.arg(args, 1), s.count, s.count)
            return try rt.makeString(lo < hi ? Array(s[lo..<hi]) : [])
        }
        try method(proto, "toUpperCase", 0) { rt, this, _, _ throws(JSException) in
            try rt.makeString(try rt.flatten(try rt.thisString(this, "toUpperCase")).swiftString.uppercased())
        }
        try method(proto, "toLowerCase", 0) { rt, this, _, _ throws(JSException) in
            try rt.makeString(try rt.flatten(try rt.thisString(this, "toLowerCase")).swiftString.lowercased())
        }
        try method(proto, "split", 2) { rt, this, args, _ throws(JSException) in
            let s = try rt.flatten(try rt.thisString(this, "split")).codeUnits
            let a = try rt.newArray()
            rt.heap.pushRoot(Value(cell: a.cell))
            defer { rt.heap.popRoots(1) }
            let sepArg = rt.arg(args, 0)
            if sepArg.isUndefined { try rt.createDataProperty(a, .index(0), try rt.makeString(s)); return Value(cell: a.cell) }
            let sep = try rt.flatten(try rt.toString(sepArg)).codeUnits
            var parts: [[UInt16]] = []
            if sep.isEmpty { parts = s.map { [$0] } } else {
                var cur: [UInt16] = []
                var i = 0
                while i < s.count {
                    if i + sep.count <= s.count && Array(s[i..<(i + sep.count)]) == sep {
                        parts.append(cur); cur = []; i += sep.count
                    } else { cur.append(s[i]); i += 1 }
                }
                parts.append(cur)
            }
            for (i, p) in parts.enumerated() { try rt.createDataProperty(a, .index(UInt32(i)), try rt.makeString(p)) }
            return Value(cell: a.cell)
        }
    }

    // MARK: - console

    func installConsole() throws(JSException) {
        let console = try newObject()
        try put(realm.global, "console", Value(cell: console.cell))
        let log: NativeFunction = { rt, _, args, _ throws(JSException) in
            var parts: [String] = []
            for v in args { parts.append(try rt.inspect(v, depth: 0, top: true)) }
            rt.output(parts.joined(separator: " ") + "\n")
            return .undefined
        }
        for name in ["log", "info", "debug"] { try method(console, name, 0, log) }
        let err: NativeFunction = { rt, _, args, _ throws(JSException) in
            var parts: [String] = []
            for v in args { parts.append(try rt.inspect(v, depth: 0, top: true)) }
            rt.errorOutput(parts.joined(separator: " ") + "\n")
            return .undefined
        }
        for name in ["error", "warn"] { try method(console, name, 0, err) }
        try method(realm.global, "print", 0, log)
    }

    /// Formats a value the way node's `console.log` does for the common cases.
    public func inspect(_ v: Value, depth: Int, top: Bool = false) throws(JSException) -> String {
        if isString(v) {
            let s = try flatten(v).swiftString
            return top ? s : "'\(s)'"
        }
        if v.isNumber {
            let d = v.asNumber
            return d == 0 && d.sign == .minus ? "-0" : numberToString(d)
        }
        if v.isUndefined { return "undefined" }
        if v.isNull { return "null" }
        if v.isBool { return v.asBool ? "true" : "false" }
        if isSymbol(v) {
            let d = symbolDescription(v)
            return "Symbol(\(d.isUndefined ? "" : try flatten(d).swiftString))"
        }
        let o = JSObject(v)
        if inspectStack.contains(o.cell) { return "[Circular *1]" }
        if isCallable(v) {
            let name = try get(o, "name")
            let n = isString(name) ? try flatten(name).swiftString : ""
            return n.isEmpty ? "[Function (anonymous)]" : "[Function: \(n)]"
        }
        if o.kind == .error {
            let stack = try get(o, "stack")
            if isString(stack) { return try flatten(stack).swiftString }
            return try flatten(try toString(v)).swiftString
        }
        if depth > 2 { return o.kind == .array ? "[Array]" : "[Object]" }
        inspectStack.append(o.cell)
        defer { inspectStack.removeLast() }
        if o.kind == .array {
            let n = Int(o.arrayLength)
            var items: [String] = []
            var holes = 0
            for i in 0..<min(n, 100) {
                if try getOwnProperty(o, .index(UInt32(i))) == nil { holes += 1; continue }
                if holes > 0 { items.append("<\(holes) empty item\(holes > 1 ? "s" : "")>"); holes = 0 }
                items.append(try inspect(try element(o, i), depth: depth + 1))
            }
            if holes > 0 { items.append("<\(holes) empty item\(holes > 1 ? "s" : "")>") }
            if n > 100 { items.append("... \(n - 100) more item\(n - 100 > 1 ? "s" : "")") }
            if items.isEmpty { return "[]" }
            let oneLine = "[ " + items.joined(separator: ", ") + " ]"
            if oneLine.count <= 72 { return oneLine }
            return "[\n" + items.map { "  " + $0 }.joined(separator: ",\n") + "\n]"
        }
        var items: [String] = []
        for k in try ownKeys(o) {
            guard let p = try getOwnProperty(o, k), p.attributes.contains(.enumerable) else { continue }
            var name: String
            switch k {
            case .index(let i): name = "'\(i)'"
            case .named(let pk):
                if pk.isSymbol { name = "[\(try inspect(pk.value, depth: depth + 1))]" }
                else {
                    name = StringCell(pk.cell).swiftString
                    if !isIdentifierName(name) { name = "'\(name)'" }
                }
            }
            switch p {
            case .data(let val, _): items.append("\(name): \(try inspect(val, depth: depth + 1))")
            case .accessor(let g, let s, _):
                items.append("\(name): [\(g.isUndefined ? "Setter" : s.isUndefined ? "Getter" : "Getter/Setter")]")
            }
        }
        var prefix = ""
        let proto = o.prototype
        if proto.isCell && proto.bits != Value(cell: realm.objectPrototype.cell).bits {
            let ctor = try get(JSObject(proto), "constructor")
            if isCallable(ctor) {
                let n = try get(JSObject(ctor), "name")
                if isString(n) { let s = try flatten(n).swiftString; if !s.isEmpty { prefix = s + " " } }
            }
        } else if proto.isNull {
            prefix = "[Object: null prototype] "
        }
        if items.isEmpty { return prefix + "{}" }
        let oneLine = prefix + "{ " + items.joined(separator: ", ") + " }"
        if oneLine.count <= 72 { return oneLine }
        let indent = String(repeating: "  ", count: depth + 1)
        return prefix + "{\n" + items.map { indent + $0 }.joined(separator: ",\n") + "\n" + String(repeating: "  ", count: depth) + "}"
    }

    func isIdentifierName(_ s: String) -> Bool {
        guard let f = s.unicodeScalars.first, f == "$" || f == "_" || f.properties.isIDStart else { return false }
        return s.unicodeScalars.allSatisfy { $0 == "$" || $0 == "_" || $0.properties.isIDContinue }
    }

    public func output(_ s: String) { outputHook?(s) ?? print(s, terminator: "") }
    public func errorOutput(_ s: String) { errorOutputHook?(s) ?? print(s, terminator: "") }
}

extension Double {
    var nanToZero: Double { isNaN ? 0 : self }
}
