// Number, Boolean and Math: the core of each (Object and Function live in their own files).

#if canImport(Glibc)
import Glibc
#endif

extension Runtime {
    func thisObject(_ this: Value, _ name: String) throws(JSException) -> JSObject {
        if this.isNullish { throw try typeError("\(name) called on null or undefined") }
        return try toObject(this)
    }

    func string(_ v: Value) throws(JSException) -> String { try flatten(try toString(v)).swiftString }

    // MARK: - Number, Boolean, Math

    func thisNumber(_ this: Value, _ name: String) throws(JSException) -> Double {
        if this.isNumber { return this.asNumber }
        if isObject(this), JSObject(this).kind == .boxedPrimitive, JSObject(this).extraValue(1).isNumber {
            return JSObject(this).extraValue(1).asNumber
        }
        throw try typeError("Number.prototype.\(name) requires that 'this' be a Number")
    }

    func installNumberAndBoolean() throws(JSException) {
        let np = realm.numberPrototype!
        let nc = try constructor("Number", length: 1, prototype: np) { rt, _, args, newTarget throws(JSException) in
            let n = args.count == 0 ? 0 : try rt.toNumber(args[0])
            if newTarget.isUndefined { return Value(n) }
            let o = try rt.toObject(Value(n))
            return Value(cell: o.cell)
        }
        try method(np, "toString", 1) { rt, this, args, _ throws(JSException) in
            let d = try rt.thisNumber(this, "toString")
            let radix = rt.arg(args, 0)
            if !radix.isUndefined {
                let r = Int(try rt.toNumber(radix))
                if r < 2 || r > 36 { throw try rt.rangeError("toString() radix must be between 2 and 36") }
                if r != 10, let hook = rt.numberToRadixHook { return try rt.makeString(hook(d, r)) }
            }
            return try rt.makeString(rt.numberToString(d))
        }
        try method(np, "valueOf", 0) { rt, this, _, _ throws(JSException) in Value(try rt.thisNumber(this, "valueOf")) }
        try method(np, "toFixed", 1) { rt, this, args, _ throws(JSException) in
            let d = try rt.thisNumber(this, "toFixed")
            let digits = Int(try rt.toNumber(rt.arg(args, 0)))
            if digits < 0 || digits > 100 { throw try rt.rangeError("toFixed() digits argument must be between 0 and 100") }
            if let hook = rt.toFixedHook { return try rt.makeString(hook(d, digits)) }
            return try rt.makeString(rt.numberToString(d))
        }
        try put(nc, "MAX_SAFE_INTEGER", Value(9007199254740991.0), [])
        try put(nc, "MIN_SAFE_INTEGER", Value(-9007199254740991.0), [])
        try put(nc, "MAX_VALUE", Value(Double.greatestFiniteMagnitude), [])
        try put(nc, "MIN_VALUE", Value(Double.leastNonzeroMagnitude), [])
        try put(nc, "EPSILON", Value(Double.ulpOfOne), [])
        try put(nc, "POSITIVE_INFINITY", Value(Double.infinity), [])
        try put(nc, "NEGATIVE_INFINITY", Value(-Double.infinity), [])
        try put(nc, "NaN", Value(Double.nan), [])
        try method(nc, "isInteger", 1) { rt, _, args, _ throws(JSException) in
            let v = rt.arg(args, 0)
            return Value(v.isNumber && v.asNumber.isFinite && v.asNumber == v.asNumber.rounded(.towardZero))
        }
        try method(nc, "isNaN", 1) { rt, _, args, _ throws(JSException) in
            let v = rt.arg(args, 0); return Value(v.isNumber && v.asNumber.isNaN)
        }
        try method(realm.global, "isNaN", 1) { rt, _, args, _ throws(JSException) in Value(try rt.toNumber(rt.arg(args, 0)).isNaN) }
        try method(realm.global, "isFinite", 1) { rt, _, args, _ throws(JSException) in Value(try rt.toNumber(rt.arg(args, 0)).isFinite) }
        try method(realm.global, "parseFloat", 1) { rt, _, args, _ throws(JSException) in
            let s = try rt.flatten(try rt.toString(rt.arg(args, 0))).codeUnits
            if let hook = rt.parseFloatHook { return Value(hook(s)) }
            return Value(Double(String(decoding: s, as: UTF16.self).trimmingJSWhitespace()) ?? .nan)
        }
        try method(realm.global, "parseInt", 2) { rt, _, args, _ throws(JSException) in
            let s = try rt.flatten(try rt.toString(rt.arg(args, 0))).codeUnits
            let radix = Int(try rt.toInt32(rt.arg(args, 1)))
            if let hook = rt.parseIntHook { return Value(hook(s, radix)) }
            let t = String(decoding: s, as: UTF16.self).trimmingJSWhitespace()
            return Value(Int(t, radix: radix == 0 ? 10 : radix).map(Double.init) ?? .nan)
        }

        let bp = realm.booleanPrototype!
        _ = try constructor("Boolean", length: 1, prototype: bp) { rt, _, args, newTarget throws(JSException) in
            let b = rt.toBoolean(rt.arg(args, 0))
            if newTarget.isUndefined { return Value(b) }
            return Value(cell: try rt.toObject(Value(b)).cell)
        }
        try method(bp, "toString", 0) { rt, this, _, _ throws(JSException) in
            let b = this.isBool ? this.asBool : (rt.isObject(this) && JSObject(this).extraValue(1).isBool ? JSObject(this).extraValue(1).asBool : false)
            return try rt.makeString(b ? "true" : "false")
        }
        try method(bp, "valueOf", 0) { rt, this, _, _ throws(JSException) in
            if this.isBool { return this }
            if rt.isObject(this), JSObject(this).extraValue(1).isBool { return JSObject(this).extraValue(1) }
            throw try rt.typeError("Boolean.prototype.valueOf requires that 'this' be a Boolean")
        }
    }

    func installMath() throws(JSException) {
        let m = try newObject()
        try put(realm.global, "Math", Value(cell: m.cell))
        try put(m, "PI", Value(Double.pi), [])
        try put(m, "E", Value(M_E), [])
        try put(m, "LN2", Value(M_LN2), [])
        try put(m, "LN10", Value(M_LN10), [])
        try put(m, "LOG2E", Value(M_LOG2E), [])
        try put(m, "LOG10E", Value(M_LOG10E), [])
        try put(m, "SQRT2", Value(2.0.squareRoot()), [])
        try put(m, "SQRT1_2", Value(0.5.squareRoot()), [])
        let unary: [(String, (Double) -> Double)] = [
            ("abs", { abs($0) }), ("floor", { $0.rounded(.down) }), ("ceil", { $0.rounded(.up) }),
            ("sqrt", { $0.squareRoot() }), ("sin", { sin($0) }), ("cos", { cos($0) }), ("tan", { tan($0) }),
            ("asin", { asin($0) }), ("acos", { acos($0) }), ("atan", { atan($0) }), ("exp", { exp($0) }),
            ("log", { log($0) }), ("log2", { log2($0) }), ("log10", { log10($0) }), ("trunc", { $0.rounded(.towardZero) }),
            ("sign", { $0.isNaN ? .nan : ($0 > 0 ? 1 : ($0 < 0 ? -1 : $0)) }), ("cbrt", { cbrt($0) }),
            ("round", { x in
                if !x.isFinite || x == 0 { return x }
                if x > 0 && x < 0.5 { return 0 }
                if x < 0 && x >= -0.5 { return -0.0 }
                return (x + 0.5).rounded(.down) }),
            ("fround", { Double(Float($0)) }), ("sinh", { sinh($0) }), ("cosh", { cosh($0) }), ("tanh", { tanh($0) }),
            ("expm1", { expm1($0) }), ("log1p", { log1p($0) }), ("asinh", { asinh($0) }), ("acosh", { acosh($0) }), ("atanh", { atanh($0) }),
        ]
        for (name, f) in unary {
            try method(m, name, 1) { rt, _, args, _ throws(JSException) in Value(f(try rt.toNumber(rt.arg(args, 0)))) }
        }
        try method(m, "atan2", 2) { rt, _, args, _ throws(JSException) in
            Value(atan2(try rt.toNumber(rt.arg(args, 0)), try rt.toNumber(rt.arg(args, 1))))
        }
        try method(m, "pow", 2) { rt, _, args, _ throws(JSException) in
            Value(rt.jsPow(try rt.toNumber(rt.arg(args, 0)), try rt.toNumber(rt.arg(args, 1))))
        }
        try method(m, "max", 2) { rt, _, args, _ throws(JSException) in
            var r = -Double.infinity
            for v in args {
                let d = try rt.toNumber(v)
                if d.isNaN { r = .nan } else if !r.isNaN && (d > r || (d == 0 && r == 0 && r.sign == .minus)) { r = d }
            }
            return Value(r)
        }
        try method(m, "min", 2) { rt, _, args, _ throws(JSException) in
            var r = Double.infinity
            for v in args {
                let d = try rt.toNumber(v)
                if d.isNaN { r = .nan } else if !r.isNaN && (d < r || (d == 0 && r == 0 && d.sign == .minus)) { r = d }
            }
            return Value(r)
        }
        try method(m, "hypot", 2) { rt, _, args, _ throws(JSException) in
            var s = 0.0
            for v in args { let d = try rt.toNumber(v); s += d * d }
            return Value(s.squareRoot())
        }
        try method(m, "random", 0) { rt, _, _, _ throws(JSException) in
            Value(Double(rt.nextRandom() >> 11) * 0x1.0p-53)
        }
        try method(m, "imul", 2) { rt, _, args, _ throws(JSException) in
            Value(int32: (try rt.toInt32(rt.arg(args, 0))) &* (try rt.toInt32(rt.arg(args, 1))))
        }
        try method(m, "clz32", 1) { rt, _, args, _ throws(JSException) in
            Value(int32: Int32((try rt.toUint32(rt.arg(args, 0))).leadingZeroBitCount))
        }
    }

    /// xorshift64* seeded from the heap's address (seeds are set up before lockdown).
    func nextRandom() -> UInt64 {
        if randomState == 0 { randomState = UInt64(UInt(bitPattern: Unmanaged.passUnretained(heap).toOpaque())) | 1 }
        randomState ^= randomState >> 12
        randomState ^= randomState << 25
        randomState ^= randomState >> 27
        return randomState &* 2685821657736338717
    }
}
