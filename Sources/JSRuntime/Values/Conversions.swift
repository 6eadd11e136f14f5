// Type conversions that do not need the realm (the realm adds ToPrimitive on objects
// through `toPrimitiveHook`).

extension Runtime {
    public enum PreferredType { case none, number, string }

    /// ToPrimitive: objects go through the realm's hook (@@toPrimitive, valueOf/toString).
    public func toPrimitive(_ v: Value, _ hint: PreferredType = .none) throws(JSException) -> Value {
        if !isObject(v) { return v }
        guard let hook = toPrimitiveHook else { throw try typeError("Cannot convert object to primitive value") }
        return try hook(v, hint)
    }

    public func toBoolean(_ v: Value) -> Bool {
        if v.isBool { return v.asBool }
        if v.isInt32 { return v.asInt32 != 0 }
        if v.isNumber { let d = v.asDouble; return !(d == 0 || d.isNaN) }
        if v.isNullish || v.isEmpty { return false }
        if isString(v) { return stringLength(v) != 0 }
        if isBigInt(v) { return header(v.asCell).pointee.aux != 0 }
        // An object with [[IsHTMLDDA]] (Annex B.3.6, `document.all`) is falsy.
        return !isHTMLDDA(v)
    }

    /// Whether `v` is an object with an [[IsHTMLDDA]] internal slot (`ObjectFlags.htmlDDA`).
    @inline(__always) public func isHTMLDDA(_ v: Value) -> Bool {
        isObject(v) && JSObject(v).flags & ObjectFlags.htmlDDA != 0
    }

    public func toNumber(_ v: Value) throws(JSException) -> Double {
        if v.isNumber { return v.asNumber }
        if v.isUndefined { return .nan }
        if v.isNull { return 0 }
        if v.isBool { return v.asBool ? 1 : 0 }
        if isString(v) { return stringToNumber(try flatten(v).codeUnits) }
        if isSymbol(v) { throw try typeError("Cannot convert a Symbol value to a number") }
        if isBigInt(v) { throw try typeError("Cannot convert a BigInt value to a number") }
        return try toNumber(try toPrimitive(v, .number))
    }

    /// StringToNumber (https://tc39.es/ecma262/#sec-stringtonumber).
    public func stringToNumber(_ units: [UInt16]) -> Double {
        if let hook = stringToNumberHook { return hook(units) }
        let s = String(decoding: units, as: UTF16.self)
        let t = s.trimmingJSWhitespace()
        if t.isEmpty { return 0 }
        return Double(t) ?? .nan
    }

    public func toString(_ v: Value) throws(JSException) -> Value {
        if isString(v) { return v }
        if v.isInt32 { return try makeString(String(v.asInt32)) }
        if v.isNumber { return try makeString(numberToString(v.asDouble)) }
        if v.isUndefined { return Value(cell: atom(static: "undefined")) }
        if v.isNull { return Value(cell: atom(static: "null")) }
        if v.isBool { return Value(cell: atom(v.asBool ? "true" : "false")) }
        if isSymbol(v) { throw try typeError("Cannot convert a Symbol value to a string") }
        if isBigInt(v) { return try bigIntToString(v) }
        return try toString(try toPrimitive(v, .string))
    }

    /// Number::toString for radix 10.
    public func numberToString(_ d: Double) -> String {
        if let hook = numberToStringHook { return hook(d) }
        if d.isNaN { return "NaN" }
        if d == 0 { return "0" }
        if d.isInfinite { return d < 0 ? "-Infinity" : "Infinity" }
        if d == d.rounded(), abs(d) < 1e21 { return String(Int64(d)) }
        return d.description
    }

    /// ToPropertyKey.
    public func toPropertyKey(_ v: Value) throws(JSException) -> Key {
        if v.isInt32 && v.asInt32 >= 0 { return .index(UInt32(v.asInt32)) }
        if isString(v) { return try key(fromString: v) }
        if isSymbol(v) { return .named(PropertyKey(cell: v.asCell)) }
        let p = try toPrimitive(v, .string)
        if isSymbol(p) { return .named(PropertyKey(cell: p.asCell)) }
        return try key(fromString: try toString(p))
    }
}

extension String {
    /// Trims StrWhiteSpaceChar (WhiteSpace and LineTerminator) from both ends.
    func trimmingJSWhitespace() -> String {
        func isWS(_ u: Unicode.Scalar) -> Bool {
            switch u.value {
            case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
                return true
            default: return false
            }
        }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isWS($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !isWS($0) })!
        return String(scalars[first...last])
    }
}
