// Number, Boolean, Math and the global number functions (parseInt, parseFloat, isNaN, isFinite).

#if canImport(Glibc)
import Glibc
#endif

extension Runtime {
    /// ToIntegerOrInfinity (with an int32 fast path).
    func toIntegerOrInfinityFast(_ v: Value) throws(JSException) -> Double {
        if v.isInt32 { return Double(v.asInt32) }
        let d = try toNumber(v)
        if d.isNaN || d == 0 { return 0 }
        return d.rounded(.towardZero)
    }

    /// A boxed primitive (Number/String/Boolean wrapper) whose prototype comes from `newTarget`.
    func makeBoxedPrimitive(_ prim: Value, newTarget: Value, fallback: JSObject) throws(JSException) -> JSObject {
        heap.pushRoot(prim)
        defer { heap.popRoots(1) }
        let proto = Value(cell: try prototypeFromConstructor(newTarget, fallback).cell)
        heap.pushRoot(proto)
        defer { heap.popRoots(1) }
        let o = try allocateObject(.boxedPrimitive, shape: try rootShape(for: proto))
        o.setExtraValue(1, prim)
        return o
    }

    func thisNumber(_ this: Value, _ name: String) throws(JSException) -> Double {
        if this.isNumber { return this.asNumber }
        if isObject(this), JSObject(this).kind == .boxedPrimitive, JSObject(this).extraValue(1).isNumber {
            return JSObject(this).extraValue(1).asNumber
        }
        throw try typeError("Number.prototype.\(name) requires that 'this' be a Number")
    }

    func thisBoolean(_ this: Value, _ name: String) throws(JSException) -> Bool {
        if this.isBool { return this.asBool }
        if isObject(this), JSObject(this).kind == .boxedPrimitive, JSObject(this).extraValue(1).isBool {
            return JSObject(this).extraValue(1).asBool
        }
        throw try typeError("Boolean.prototype.\(name) requires that 'this' be a Boolean")
    }

    func installNumberConversions() {
        numberToStringHook = { NumberConversions.toString($0) }
        stringToNumberHook = { u in u.withUnsafeBufferPointer { NumberConversions.stringToNumber($0) } }
        numberToRadixHook = { NumberConversions.toRadixString($0, $1) }
        toFixedHook = { NumberConversions.toFixed($0, $1) }
        parseFloatHook = { u in u.withUnsafeBufferPointer { NumberConversions.parseFloat($0) } }
        parseIntHook = { u, r in u.withUnsafeBufferPointer { NumberConversions.parseInt($0, Int32(r)) } }
    }

    func installNumberAndBoolean() throws(JSException) {
        installNumberConversions()
        let np = realm.numberPrototype!
        let nc = try constructor("Number", length: 1, prototype: np) { rt, _, args, newTarget throws(JSException) in
            var n = 0.0
            if args.count > 0 {
                let prim = try rt.toNumeric(args[0])
                n = rt.isBigInt(prim) ? rt.bigIntValue(prim).doubleValue : prim.asNumber
            }
            if newTarget.isUndefined { return Value(n) }
            return Value(cell: try rt.makeBoxedPrimitive(Value(n), newTarget: newTarget, fallback: rt.realm.numberPrototype).cell)
        }
        try method(np, "toString", 1) { rt, this, args, _ throws(JSException) in
            let d = try rt.thisNumber(this, "toString")
            let radix = rt.arg(args, 0)
            var r = 10
            if !radix.isUndefined {
                let x = try rt.toIntegerOrInfinityFast(radix)
                if x < 2 || x > 36 { throw try rt.rangeError("toString() radix must be between 2 and 36") }
                r = Int(x)
            }
            if r == 10 { return try rt.makeString(NumberConversions.toString(d)) }
            return try rt.makeString(NumberConversions.toRadixString(d, r))
        }
        try method(np, "toLocaleString", 0) { rt, this, _, _ throws(JSException) in
            try rt.makeString(NumberConversions.toString(try rt.thisNumber(this, "toLocaleString")))
        }
        try method(np, "valueOf", 0) { rt, this, _, _ throws(JSException) in Value(try rt.thisNumber(this, "valueOf")) }
        try method(np, "toFixed", 1) { rt, this, args, _ throws(JSException) in
            let x = try rt.thisNumber(this, "toFixed")
            let f = try rt.toIntegerOrInfinityFast(rt.arg(args, 0))
            if !f.isFinite || f < 0 || f > 100 { throw try rt.rangeError("toFixed() digits argument must be between 0 and 100") }
            if !x.isFinite { return try rt.makeString(NumberConversions.toString(x)) }
            if abs(x) >= 1e21 { return try rt.makeString(NumberConversions.toString(x)) }
            return try rt.makeString(NumberConversions.toFixed(x, Int(f)))
        }
        try method(np, "toExponential", 1) { rt, this, args, _ throws(JSException) in
            let x = try rt.thisNumber(this, "toExponential")
            let fv = rt.arg(args, 0)
            let f = try rt.toIntegerOrInfinityFast(fv)
            if !x.isFinite { return try rt.makeString(NumberConversions.toString(x)) }
            if !f.isFinite || f < 0 || f > 100 { throw try rt.rangeError("toExponential() argument must be between 0 and 100") }
            return try rt.makeString(NumberConversions.toExponential(x, fv.isUndefined ? nil : Int(f)))
        }
        try method(np, "toPrecision", 1) { rt, this, args, _ throws(JSException) in
            let x = try rt.thisNumber(this, "toPrecision")
            let pv = rt.arg(args, 0)
            if pv.isUndefined { return try rt.makeString(NumberConversions.toString(x)) }
            let p = try rt.toIntegerOrInfinityFast(pv)
            if !x.isFinite { return try rt.makeString(NumberConversions.toString(x)) }
            if !p.isFinite || p < 1 || p > 100 { throw try rt.rangeError("toPrecision() argument must be between 1 and 100") }
            return try rt.makeString(NumberConversions.toPrecision(x, Int(p)))
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
        try method(nc, "isSafeInteger", 1) { rt, _, args, _ throws(JSException) in
            let v = rt.arg(args, 0)
            guard v.isNumber else { return .false }
            let d = v.asNumber
            return Value(d.isFinite && d == d.rounded(.towardZero) && abs(d) <= 9007199254740991)
        }
        try method(nc, "isFinite", 1) { rt, _, args, _ throws(JSException) in
            let v = rt.arg(args, 0); return Value(v.isNumber && v.asNumber.isFinite)
        }
        try method(nc, "isNaN", 1) { rt, _, args, _ throws(JSException) in
            let v = rt.arg(args, 0); return Value(v.isNumber && v.asNumber.isNaN)
        }
        try method(realm.global, "isNaN", 1) { rt, _, args, _ throws(JSException) in Value(try rt.toNumber(rt.arg(args, 0)).isNaN) }
        try method(realm.global, "isFinite", 1) { rt, _, args, _ throws(JSException) in Value(try rt.toNumber(rt.arg(args, 0)).isFinite) }
        let pf = try method(realm.global, "parseFloat", 1) { rt, _, args, _ throws(JSException) in
            let s = try rt.flatten(try rt.toString(rt.arg(args, 0)))
            return Value(rt.withCodeUnits(s) { NumberConversions.parseFloat($0) })
        }
        let pi = try method(realm.global, "parseInt", 2) { rt, _, args, _ throws(JSException) in
            let s = try rt.flatten(try rt.toString(rt.arg(args, 0)))
            rt.heap.pushRoot(Value(cell: s.cell))
            defer { rt.heap.popRoots(1) }
            let radix = try rt.toInt32(rt.arg(args, 1))
            return Value(rt.withCodeUnits(s) { NumberConversions.parseInt($0, radix) })
        }
        try put(nc, "parseFloat", Value(cell: pf.cell))
        try put(nc, "parseInt", Value(cell: pi.cell))

        let bp = realm.booleanPrototype!
        _ = try constructor("Boolean", length: 1, prototype: bp) { rt, _, args, newTarget throws(JSException) in
            let b = rt.toBoolean(rt.arg(args, 0))
            if newTarget.isUndefined { return Value(b) }
            return Value(cell: try rt.makeBoxedPrimitive(Value(b), newTarget: newTarget, fallback: rt.realm.booleanPrototype).cell)
        }
        try method(bp, "toString", 0) { rt, this, _, _ throws(JSException) in
            try rt.makeString(try rt.thisBoolean(this, "toString") ? "true" : "false")
        }
        try method(bp, "valueOf", 0) { rt, this, _, _ throws(JSException) in
            Value(try rt.thisBoolean(this, "valueOf"))
        }
    }

    /// Calls `body` with the code units of a flat string (widened from Latin-1 if needed).
    func withCodeUnits<R>(_ s: StringCell, _ body: (UnsafeBufferPointer<UInt16>) -> R) -> R {
        if s.is16Bit { return body(UnsafeBufferPointer(start: s.utf16, count: s.length)) }
        let n = s.length
        return withUnsafeTemporaryAllocation(of: UInt16.self, capacity: max(n, 1)) { buf in
            for i in 0..<n { buf[i] = UInt16(s.latin1[i]) }
            return body(UnsafeBufferPointer(start: buf.baseAddress, count: n))
        }
    }

    // MARK: - Math

    func installMath() throws(JSException) {
        let m = try newObject()
        try put(realm.global, "Math", Value(cell: m.cell))
        try defineOwnProperty(m, symbolKey(wellKnown.toStringTag), .data(try makeString("Math"), [.configurable]))
        try installMathSumPrecise(m)
        try method(m, "f16round", 1) { rt, _, args, _ throws(JSException) in
            numberValue(halfBitsToDouble(doubleToHalfBits(try rt.toNumber(rt.arg(args, 0)))))
        }
        try put(m, "PI", Value(Double.pi), [])
        try put(m, "E", Value(M_E), [])
        try put(m, "LN2", Value(M_LN2), [])
        try put(m, "LN10", Value(M_LN10), [])
        try put(m, "LOG2E", Value(M_LOG2E), [])
        try put(m, "LOG10E", Value(M_LOG10E), [])
        try put(m, "SQRT2", Value(2.0.squareRoot()), [])
        try put(m, "SQRT1_2", Value(0.5.squareRoot()), [])
        let unary: [(String, (Double) -> Double)] = [
            ("abs", { abs($0) }), ("acos", { acos($0) }), ("acosh", { acosh($0) }), ("asin", { asin($0) }),
            ("asinh", { asinh($0) }), ("atan", { atan($0) }), ("atanh", { atanh($0) }), ("cbrt", { cbrt($0) }),
            ("ceil", { $0.rounded(.up) }), ("cos", { cos($0) }), ("cosh", { cosh($0) }), ("exp", { exp($0) }),
            ("expm1", { expm1($0) }), ("floor", { $0.rounded(.down) }), ("fround", { Double(Float($0)) }),
            ("log", { log($0) }), ("log1p", { log1p($0) }), ("log10", { log10($0) }), ("log2", { log2($0) }),
            ("round", { x in
                if !x.isFinite || x == 0 { return x }
                if x > 0 && x < 0.5 { return 0 }
                if x < 0 && x >= -0.5 { return -0.0 }
                let f = x.rounded(.down)
                return x - f >= 0.5 ? f + 1 : f }),
            ("sign", { $0.isNaN ? .nan : ($0 > 0 ? 1 : ($0 < 0 ? -1 : $0)) }),
            ("sin", { sin($0) }), ("sinh", { sinh($0) }), ("sqrt", { $0.squareRoot() }), ("tan", { tan($0) }),
            ("tanh", { tanh($0) }), ("trunc", { $0.rounded(.towardZero) }),
        ]
        for (name, f) in unary {
            try method(m, name, 1) { rt, _, args, _ throws(JSException) in
                let a = rt.arg(args, 0)
                return Value(f(a.isNumber ? a.asNumber : try rt.toNumber(a)))
            }
        }
        try method(m, "atan2", 2) { rt, _, args, _ throws(JSException) in
            let y = try rt.toNumber(rt.arg(args, 0))
            return Value(atan2(y, try rt.toNumber(rt.arg(args, 1))))
        }
        try method(m, "pow", 2) { rt, _, args, _ throws(JSException) in
            let x = try rt.toNumber(rt.arg(args, 0))
            return Value(rt.jsPow(x, try rt.toNumber(rt.arg(args, 1))))
        }
        try method(m, "max", 2) { rt, _, args, _ throws(JSException) in
            var r = -Double.infinity
            for v in args {
                let d = v.isNumber ? v.asNumber : try rt.toNumber(v)
                if d.isNaN || r.isNaN { r = .nan } else if d > r || (d == 0 && r == 0 && r.sign == .minus) { r = d }
            }
            return Value(r)
        }
        try method(m, "min", 2) { rt, _, args, _ throws(JSException) in
            var r = Double.infinity
            for v in args {
                let d = v.isNumber ? v.asNumber : try rt.toNumber(v)
                if d.isNaN || r.isNaN { r = .nan } else if d < r || (d == 0 && r == 0 && d.sign == .minus) { r = d }
            }
            return Value(r)
        }
        try method(m, "hypot", 2) { rt, _, args, _ throws(JSException) in
            var values: [Double] = []
            for v in args { values.append(try rt.toNumber(v)) }
            var sawNaN = false
            var biggest = 0.0
            for d in values {
                if d.isInfinite { return Value(Double.infinity) }
                if d.isNaN { sawNaN = true }
                biggest = max(biggest, abs(d))
            }
            if sawNaN { return Value(Double.nan) }
            if biggest == 0 { return Value(0) }
            // Scaled sum with Kahan compensation.
            var sum = 0.0, comp = 0.0
            for d in values {
                let x = d / biggest
                let y = x * x - comp
                let t = sum + y
                comp = (t - sum) - y
                sum = t
            }
            return Value(sum.squareRoot() * biggest)
        }
        try method(m, "random", 0) { rt, _, _, _ throws(JSException) in
            Value(Double(rt.nextRandom() >> 11) * 0x1.0p-53)
        }
        try method(m, "imul", 2) { rt, _, args, _ throws(JSException) in
            let a = try rt.toInt32(rt.arg(args, 0))
            return Value(int32: a &* (try rt.toInt32(rt.arg(args, 1))))
        }
        try method(m, "clz32", 1) { rt, _, args, _ throws(JSException) in
            Value(int32: Int32((try rt.toUint32(rt.arg(args, 0))).leadingZeroBitCount))
        }
    }
}
