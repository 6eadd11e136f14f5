// JSON.parse (exact grammar, reviver walk) and JSON.stringify (replacer function/array,
// gap, toJSON, boxed primitives, cycle detection, well-formed output), built into a
// growable UTF-16 buffer.

extension Runtime {
    // MARK: - parse

    struct JSONParser {
        let rt: Runtime
        let s: StringCell
        var i = 0
        var scratch: [UInt16] = []

        init(rt: Runtime, s: StringCell) { self.rt = rt; self.s = s }

        func describeToken() -> String {
            if i >= s.length { return "Unexpected end of JSON input" }
            let u = s[i]
            let ch = u < 0x80 ? String(UnicodeScalar(UInt8(u))) : String(decoding: [u], as: UTF16.self)
            return "Unexpected token '\(ch)', \"\(snippet())\" is not valid JSON"
        }

        func snippet() -> String {
            let n = s.length
            if n <= 30 { return s.swiftString }
            let lo = max(0, i - 10), hi = min(n, i + 10)
            var units: [UInt16] = []
            for k in lo..<hi { units.append(s[k]) }
            return (lo > 0 ? "..." : "") + String(decoding: units, as: UTF16.self) + (hi < n ? "..." : "")
        }

        func fail() throws(JSException) -> JSException { try rt.makeError(.syntaxError, describeToken()) }
        /// A SyntaxError saying what was expected at the current position (V8's messages).
        func fail(expected: String) throws(JSException) -> JSException {
            if i >= s.length { return try fail() }
            return try rt.makeError(.syntaxError, "\(expected) in JSON at position \(i)")
        }

        mutating func skipWS() {
            while i < s.length {
                let u = s[i]
                if u == 0x20 || u == 0x09 || u == 0x0A || u == 0x0D { i += 1 } else { break }
            }
        }

        /// An array or object whose members are being parsed.
        struct Open {
            let container: JSObject
            let isArray: Bool
            /// The next index (arrays) or the key of the member being parsed (objects).
            var index: UInt32 = 0
            var key: Key = .index(0)
        }

        /// Parses one JSON value. Iterative: the arrays and objects still open are on an
        /// explicit stack (their cells, and each object's pending key, rooted on the heap's
        /// root stack in the same order), so nesting is bounded by memory alone, as in V8's
        /// JSON.parse, not by the native stack.
        mutating func parseValue() throws(JSException) -> Value {
            var open: [Open] = []
            let rootDepth = rt.heap.rootDepth
            defer { rt.heap.popRoots(to: rootDepth) }
            var value: Value
            while true {
                skipWS()
                guard i < s.length else { throw try fail() }
                let u = s[i]
                switch u {
                case 0x7B, 0x5B:
                    i += 1
                    let isArray = u == 0x5B
                    let c = isArray ? try rt.newArray() : try rt.newObject()
                    skipWS()
                    if i < s.length && s[i] == (isArray ? 0x5D : 0x7D) {
                        i += 1
                        value = Value(cell: c.cell)
                        break
                    }
                    rt.heap.pushRoot(Value(cell: c.cell))
                    var entry = Open(container: c, isArray: isArray)
                    if !isArray {
                        entry.key = try parseKey(first: true)
                        rt.heap.pushRoot(keyRoot(entry.key))
                    }
                    open.append(entry)
                    continue
                case 0x22: value = try parseString()
                case 0x74: value = try literal("true", .true)
                case 0x66: value = try literal("false", .false)
                case 0x6E: value = try literal("null", .null)
                default:
                    if u == 0x2D || (u >= 0x30 && u <= 0x39) { value = try parseNumber() } else { throw try fail() }
                }
                // A value is complete: store it in the innermost open container, and close
                // every container whose last member it was.
                while true {
                    guard let top = open.last else { return value }
                    let k: Key = top.isArray ? .index(top.index) : top.key
                    try rt.createDataProperty(top.container, k, value)
                    skipWS()
                    guard i < s.length else { throw try fail() }
                    if s[i] == 0x2C {
                        i += 1
                        if top.isArray {
                            open[open.count - 1].index += 1
                        } else {
                            let next = try parseKey(first: false)
                            open[open.count - 1].key = next
                            rt.heap.popRoots(1)
                            rt.heap.pushRoot(keyRoot(next))
                        }
                        break
                    }
                    guard s[i] == (top.isArray ? 0x5D : 0x7D) else {
                        throw try fail(expected: top.isArray ? "Expected ',' or ']' after array element" : "Expected ',' or '}' after property value")
                    }
                    i += 1
                    open.removeLast()
                    rt.heap.popRoots(top.isArray ? 1 : 2)
                    value = Value(cell: top.container.cell)
                }
            }
        }

        /// An object member's key and its colon.
        mutating func parseKey(first: Bool) throws(JSException) -> Key {
            skipWS()
            guard i < s.length, s[i] == 0x22 else {
                throw try fail(expected: first ? "Expected property name or '}'" : "Expected double-quoted property name")
            }
            try scanString()
            let k = try rt.key(fromString: try rt.makeString(scratch))
            skipWS()
            guard i < s.length, s[i] == 0x3A else { throw try fail(expected: "Expected ':' after property name") }
            i += 1
            return k
        }

        func keyRoot(_ k: Key) -> Value {
            if case .named(let pk) = k { return Value(cell: pk.cell) }
            return .undefined
        }

        mutating func literal(_ word: String, _ v: Value) throws(JSException) -> Value {
            for c in word.utf8 {
                if i >= s.length || s[i] != UInt16(c) { throw try fail() }
                i += 1
            }
            return v
        }

        mutating func parseNumber() throws(JSException) -> Value {
            let start = i
            if s[i] == 0x2D { i += 1 }
            func digit(_ k: Int) -> Bool { k < s.length && s[k] >= 0x30 && s[k] <= 0x39 }
            if !digit(i) { throw try fail() }
            if s[i] == 0x30 { i += 1 } else { while digit(i) { i += 1 } }
            var isInt = true
            if i < s.length && s[i] == 0x2E {
                i += 1
                if !digit(i) { throw try fail() }
                while digit(i) { i += 1 }
                isInt = false
            }
            if i < s.length && (s[i] == 0x65 || s[i] == 0x45) {
                i += 1
                if i < s.length && (s[i] == 0x2B || s[i] == 0x2D) { i += 1 }
                if !digit(i) { throw try fail() }
                while digit(i) { i += 1 }
                isInt = false
            }
            if isInt && i - start <= 9 {
                var v = 0
                var k = start
                let neg = s[k] == 0x2D
                if neg { k += 1 }
                while k < i { v = v * 10 + Int(s[k] - 0x30); k += 1 }
                if neg && v == 0 { return Value(-0.0) }
                return Value(int32: Int32(neg ? -v : v))
            }
            var ascii: [UInt8] = []
            ascii.reserveCapacity(i - start)
            for k in start..<i { ascii.append(UInt8(s[k])) }
            return Value(Double(String(decoding: ascii, as: UTF8.self)) ?? .nan)
        }

        /// Parses a string literal into `scratch`.
        mutating func scanString() throws(JSException) {
            i += 1  // opening quote
            scratch.removeAll(keepingCapacity: true)
            while true {
                guard i < s.length else { throw try rt.makeError(.syntaxError, "Unterminated string in JSON at position \(i)") }
                let u = s[i]
                if u == 0x22 { i += 1; return }
                if u < 0x20 { throw try rt.makeError(.syntaxError, "Bad control character in string literal in JSON at position \(i)") }
                if u != 0x5C { scratch.append(u); i += 1; continue }
                i += 1
                guard i < s.length else { throw try fail() }
                let e = s[i]
                i += 1
                switch e {
                case 0x22: scratch.append(0x22)
                case 0x5C: scratch.append(0x5C)
                case 0x2F: scratch.append(0x2F)
                case 0x62: scratch.append(0x08)
                case 0x66: scratch.append(0x0C)
                case 0x6E: scratch.append(0x0A)
                case 0x72: scratch.append(0x0D)
                case 0x74: scratch.append(0x09)
                case 0x75:
                    var v: UInt16 = 0
                    for _ in 0..<4 {
                        guard i < s.length else { throw try fail() }
                        let d = NumberConversions.digitValue(s[i])
                        if d >= 16 { throw try rt.makeError(.syntaxError, "Bad Unicode escape in JSON at position \(i)") }
                        v = v * 16 + UInt16(d)
                        i += 1
                    }
                    scratch.append(v)
                default:
                    i -= 1
                    throw try rt.makeError(.syntaxError, "Bad escaped character in JSON at position \(i)")
                }
            }
        }

        mutating func parseString() throws(JSException) -> Value {
            try scanString()
            if scratch.count == 1 { return try rt.singleCharString(scratch[0]) }
            return try rt.makeString(scratch)
        }

    }

    func jsonParse(_ text: Value) throws(JSException) -> Value {
        let s = try flatten(text)
        heap.pushRoot(Value(cell: s.cell))
        defer { heap.popRoots(1) }
        var p = JSONParser(rt: self, s: s)
        let v = try p.parseValue()
        p.skipWS()
        if p.i < s.length { throw try makeError(.syntaxError, "Unexpected non-whitespace character after JSON at position \(p.i)") }
        return v
    }

    /// InternalizeJSONProperty.
    func internalize(_ holder: JSObject, _ name: Key, _ reviver: Value) throws(JSException) -> Value {
        try checkStack()
        let val = try get(holder, name, receiver: Value(cell: holder.cell))
        heap.pushRoot(val)
        defer { heap.popRoots(1) }
        if isObject(val) {
            let o = JSObject(val)
            if try isArray(val) {
                let len = try lengthOf(o)
                var i = 0
                while i < len {
                    let k = Key.index(UInt32(i))
                    let ne = try internalize(o, k, reviver)
                    if ne.isUndefined { _ = try deleteProperty(o, k) } else { _ = try createDataPropertyOrFalse(o, k, ne) }
                    i += 1
                }
            } else {
                let keys = try ownKeys(o)
                let list = try newArray()
                heap.pushRoot(Value(cell: list.cell))
                defer { heap.popRoots(1) }
                var n: UInt32 = 0
                for k in keys {
                    if case .named(let pk) = k, pk.isSymbol { continue }
                    if let p = try getOwnProperty(o, k), p.attributes.contains(.enumerable) {
                        try createDataProperty(list, .index(n), try keyValue(k)); n += 1
                    }
                }
                for j in 0..<Int(n) {
                    let k = try toPropertyKey(list.elements![j])
                    let ne = try internalize(o, k, reviver)
                    if ne.isUndefined { _ = try deleteProperty(o, k) } else { _ = try createDataPropertyOrFalse(o, k, ne) }
                }
            }
        }
        let nameValue = try keyValue(name)
        return try call(reviver, this: Value(cell: holder.cell), nameValue, val)
    }

    /// CreateDataProperty that reports failure instead of throwing.
    func createDataPropertyOrFalse(_ o: JSObject, _ k: Key, _ v: Value) throws(JSException) -> Bool {
        try defineOwnProperty(o, k, .data(v, [.writable, .enumerable, .configurable]))
    }

    // MARK: - stringify

    final class JSONSerializer {
        let rt: Runtime
        var out: [UInt16] = []
        var gap: [UInt16] = []
        var indent: [UInt16] = []
        var stack: [UnsafeMutableRawPointer] = []
        var replacer: Value = .undefined
        /// The property list (a rooted JS array of strings), or nil.
        var propertyList: JSObject?

        let toJSONKey: Key

        /// The bytes of `out` counted as external storage (see `accountOutput`).
        var accountedBytes = 0

        init(rt: Runtime) { self.rt = rt; toJSONKey = rt.key(static: "toJSON"); out.reserveCapacity(256) }
        deinit { rt.heap.releaseExternal(accountedBytes) }

        /// Counts the output buffer toward `--max-heap` as it grows (an out-of-memory
        /// `RangeError` past it), and stops at the longest string (`Invalid string length`),
        /// so a huge result fails cleanly instead of growing Swift memory without bound.
        /// One doubling of the buffer may happen before it is counted.
        @inline(__always) func accountOutput() throws(JSException) {
            if out.capacity * 2 > accountedBytes { try accountOutputGrowth() }
        }

        @inline(never) func accountOutputGrowth() throws(JSException) {
            if out.count > StringCell.maxLength { throw try rt.rangeError("Invalid string length") }
            let now = out.capacity * 2
            try rt.reserveExternal(now - accountedBytes)
            accountedBytes = now
        }

        func append(_ s: String) { out.append(contentsOf: s.utf16) }
        func appendASCII(_ s: StaticString) {
            s.withUTF8Buffer { b in for c in b { out.append(UInt16(c)) } }
        }
        func appendInt(_ v: Int32) {
            var x = Int64(v)
            if x < 0 { out.append(0x2D); x = -x }
            if x < 10 { out.append(UInt16(48 + x)); return }
            var buf: (UInt16, UInt16, UInt16, UInt16, UInt16, UInt16, UInt16, UInt16, UInt16, UInt16) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            var n = 0
            withUnsafeMutableBytes(of: &buf) { raw in
                let p = raw.bindMemory(to: UInt16.self)
                while x > 0 { p[n] = UInt16(48 + x % 10); x /= 10; n += 1 }
                for k in stride(from: n - 1, through: 0, by: -1) { out.append(p[k]) }
            }
        }

        static let hex: [UInt16] = Array("0123456789abcdef".utf16)

        func quote(_ v: Value) throws(JSException) {
            let s = try rt.flatten(v)
            let n = s.length
            // The result cannot be shorter than the quoted string: past the longest string, stop now.
            if out.count + n + 2 > StringCell.maxLength { throw try rt.rangeError("Invalid string length") }
            // Escapes at most sextuple a string: count the room first.
            if n > 4096 {
                out.reserveCapacity(out.count + n + 2)
                try accountOutput()
            }
            out.append(0x22)
            // Escapes may sextuple the string: near the longest string, check as it grows.
            let risky = out.count + 6 * n + 2 > StringCell.maxLength
            if !s.is16Bit {
                let p = s.latin1
                for k in 0..<n {
                    if risky && k & 0xFFFF == 0 && out.count > StringCell.maxLength { throw try rt.rangeError("Invalid string length") }
                    escapeUnit(UInt16(p[k]))
                }
            } else {
                let p = s.utf16
                var k = 0
                while k < n {
                    if risky && k & 0xFFFF < 2 && out.count > StringCell.maxLength { throw try rt.rangeError("Invalid string length") }
                    let u = p[k]
                    if u >= 0xD800 && u <= 0xDFFF {
                        if u <= 0xDBFF && k + 1 < n && p[k + 1] >= 0xDC00 && p[k + 1] <= 0xDFFF {
                            out.append(u); out.append(p[k + 1]); k += 2; continue
                        }
                        unicodeEscape(u)
                    } else {
                        escapeUnit(u)
                    }
                    k += 1
                }
            }
            out.append(0x22)
            if n > 4096 { try accountOutput() }
        }

        @inline(__always) func escapeUnit(_ u: UInt16) {
            if u >= 0x20 && u != 0x22 && u != 0x5C { out.append(u); return }
            switch u {
            case 0x08: out.append(0x5C); out.append(0x62)
            case 0x09: out.append(0x5C); out.append(0x74)
            case 0x0A: out.append(0x5C); out.append(0x6E)
            case 0x0C: out.append(0x5C); out.append(0x66)
            case 0x0D: out.append(0x5C); out.append(0x72)
            case 0x22: out.append(0x5C); out.append(0x22)
            case 0x5C: out.append(0x5C); out.append(0x5C)
            default: unicodeEscape(u)
            }
        }

        func unicodeEscape(_ u: UInt16) {
            out.append(0x5C); out.append(0x75)
            out.append(JSONSerializer.hex[Int(u >> 12)])
            out.append(JSONSerializer.hex[Int((u >> 8) & 0xF)])
            out.append(JSONSerializer.hex[Int((u >> 4) & 0xF)])
            out.append(JSONSerializer.hex[Int(u & 0xF)])
        }

        /// SerializeJSONProperty; returns false for undefined (nothing written).
        func serializeProperty(_ holder: JSObject, _ key: Key, _ valueIn: Value? = nil) throws(JSException) -> Bool {
            try accountOutput()
            var value: Value
            if let v = valueIn { value = v } else { value = try rt.get(holder, key, receiver: Value(cell: holder.cell)) }
            if rt.isObject(value) || rt.isBigInt(value) {
                let toJSON = try rt.get(rt.isObject(value) ? JSObject(value) : rt.realm.bigintPrototype, toJSONKey, receiver: value)
                if rt.isCallable(toJSON) {
                    rt.heap.pushRoot(value)
                    defer { rt.heap.popRoots(1) }
                    value = try rt.call(toJSON, this: value, try rt.keyValue(key))
                }
            }
            if !replacer.isUndefined {
                rt.heap.pushRoot(value)
                defer { rt.heap.popRoots(1) }
                value = try rt.call(replacer, this: Value(cell: holder.cell), try rt.keyValue(key), value)
            }
            if rt.isObject(value) {
                let o = JSObject(value)
                if o.kind == .boxedPrimitive {
                    let p = o.extraValue(1)
                    if p.isNumber { value = Value(try rt.toNumber(value)) }
                    else if rt.isString(p) { value = try rt.toString(value) }
                    else if p.isBool || rt.isBigInt(p) { value = p }
                }
            }
            if rt.isBigInt(value) { throw try rt.typeError("Do not know how to serialize a BigInt") }
            if value.isNull { appendASCII("null"); return true }
            if value.isBool { if value.asBool { appendASCII("true") } else { appendASCII("false") }; return true }
            if value.isInt32 { appendInt(value.asInt32); return true }
            if value.isNumber {
                let d = value.asNumber
                append(d.isFinite ? NumberConversions.toString(d) : "null")
                return true
            }
            if rt.isString(value) { try quote(value); return true }
            if rt.isRawJSON(value) {
                append(try rt.flatten(try rt.get(JSObject(value), rt.key(static: "rawJSON"), receiver: value)).swiftString)
                return true
            }
            if rt.isObject(value) && !rt.isCallable(value) {
                rt.heap.pushRoot(value)
                defer { rt.heap.popRoots(1) }
                let o = JSObject(value)
                if try rt.isArray(value) { try serializeArray(o) } else { try serializeObject(o) }
                return true
            }
            return false
        }

        func enter(_ o: JSObject) throws(JSException) {
            if stack.contains(o.cell) { throw try rt.typeError("Converting circular structure to JSON") }
            try rt.checkStack()
            if stack.count > 4000 { throw try rt.rangeError("Maximum call stack size exceeded") }
            stack.append(o.cell)
        }

        func newline() {
            out.append(0x0A)
            out.append(contentsOf: indent)
        }

        func serializeObject(_ o: JSObject) throws(JSException) {
            try enter(o)
            defer { stack.removeLast() }
            let stepback = indent
            indent.append(contentsOf: gap)
            defer { indent = stepback }
            out.append(0x7B)
            var any = false
            func member(_ k: Key) throws(JSException) {
                let mark = out.count
                if any { out.append(0x2C) }
                if !gap.isEmpty { newline() }
                try quote(try rt.keyValue(k))
                out.append(0x3A)
                if !gap.isEmpty { out.append(0x20) }
                if try serializeProperty(o, k) { any = true } else { out.removeLast(out.count - mark) }
            }
            if let list = propertyList {
                for j in 0..<Int(list.arrayLength) { try member(try rt.toPropertyKey(list.elements![j])) }
            } else {
                // Fast path: own enumerable data properties read straight from the object.
                // EnumerableOwnProperties first (the list is fixed before any getter runs);
                // named keys are rooted while serializing.
                var keys: [Key] = []
                for k in try rt.ownKeys(o) {
                    if case .named(let pk) = k, pk.isSymbol { continue }
                    guard let p = try rt.getOwnProperty(o, k), p.attributes.contains(.enumerable) else { continue }
                    keys.append(k)
                }
                var rooted = 0
                defer { rt.heap.popRoots(rooted) }
                for k in keys { if case .named(let pk) = k { rt.heap.pushRoot(Value(cell: pk.cell)); rooted += 1 } }
                for k in keys { try member(k) }
            }
            if any && !gap.isEmpty { out.append(0x0A); out.append(contentsOf: stepback) }
            out.append(0x7D)
        }

        func serializeArray(_ o: JSObject) throws(JSException) {
            try enter(o)
            defer { stack.removeLast() }
            let stepback = indent
            indent.append(contentsOf: gap)
            defer { indent = stepback }
            out.append(0x5B)
            let len = try rt.lengthOf(o)
            for i in 0..<len {
                if i > 0 { out.append(0x2C) }
                if !gap.isEmpty { newline() }
                if !(try serializeProperty(o, .index(UInt32(i)))) { appendASCII("null") }
            }
            if len > 0 && !gap.isEmpty { out.append(0x0A); out.append(contentsOf: stepback) }
            out.append(0x5D)
        }
    }

    func jsonStringify(_ value: Value, _ replacerArg: Value, _ spaceArg: Value) throws(JSException) -> Value {
        let ser = JSONSerializer(rt: self)
        var roots = 0
        defer { heap.popRoots(roots) }
        if isCallable(replacerArg) {
            ser.replacer = replacerArg
        } else if try isArray(replacerArg) {
            let r = JSObject(replacerArg)
            let list = try newArray()
            heap.pushRoot(Value(cell: list.cell)); roots += 1
            let len = try lengthOf(r)
            var n: UInt32 = 0
            for i in 0..<len {
                let v = try get(r, .index(UInt32(i)), receiver: replacerArg)
                var item: Value? = nil
                if isString(v) { item = v }
                else if v.isNumber { item = try toString(v) }
                else if isObject(v), JSObject(v).kind == .boxedPrimitive,
                        isString(JSObject(v).extraValue(1)) || JSObject(v).extraValue(1).isNumber {
                    item = try toString(v)
                }
                guard let it = item else { continue }
                let fs = try flatten(it)
                var dup = false
                for j in 0..<Int(n) where try flatten(list.elements![j]).equals(fs) { dup = true; break }
                if !dup { try createDataProperty(list, .index(n), it); n += 1 }
            }
            ser.propertyList = list
        }
        var space = spaceArg
        if isObject(space), JSObject(space).kind == .boxedPrimitive {
            let p = JSObject(space).extraValue(1)
            if p.isNumber { space = Value(try toNumber(space)) } else if isString(p) { space = try toString(space) }
        }
        if space.isNumber {
            let k = min(10, max(0, space.asNumber.isNaN ? 0 : space.asNumber.rounded(.towardZero)))
            ser.gap = [UInt16](repeating: 0x20, count: Int(k))
        } else if isString(space) {
            let s = try flatten(space)
            for i in 0..<min(10, s.length) { ser.gap.append(s[i]) }
        }
        let wrapper = try newObject()
        heap.pushRoot(Value(cell: wrapper.cell)); roots += 1
        let emptyKey = key(static: "")
        try createDataProperty(wrapper, emptyKey, value)
        if !(try ser.serializeProperty(wrapper, emptyKey, value)) { return .undefined }
        return try ser.out.withUnsafeBufferPointer { b throws(JSException) in try makeString(b) }
    }

    func installJSON() throws(JSException) {
        let json = try newObject()
        try put(realm.global, "JSON", Value(cell: json.cell))
        try defineOwnProperty(json, symbolKey(wellKnown.toStringTag), .data(try makeString("JSON"), [.configurable]))
        try method(json, "parse", 2) { rt, _, args, _ throws(JSException) in
            let text = try rt.toString(rt.arg(args, 0))
            rt.heap.pushRoot(text)
            defer { rt.heap.popRoots(1) }
            let v = try rt.jsonParse(text)
            let reviver = rt.arg(args, 1)
            if !rt.isCallable(reviver) { return v }
            rt.heap.pushRoot(v)
            defer { rt.heap.popRoots(1) }
            let root = try rt.newObject()
            rt.heap.pushRoot(Value(cell: root.cell))
            defer { rt.heap.popRoots(1) }
            try rt.createDataProperty(root, rt.key(static: ""), v)
            return try rt.internalize(root, rt.key(static: ""), reviver)
        }
        try method(json, "stringify", 3) { rt, _, args, _ throws(JSException) in
            try rt.jsonStringify(rt.arg(args, 0), rt.arg(args, 1), rt.arg(args, 2))
        }
        try installRawJSON(json)
    }
}
