// The BigInt constructor and BigInt.prototype.
// https://tc39.es/ecma262/#sec-bigint-objects

extension Runtime {
    /// thisBigIntValue.
    func thisBigIntValue(_ v: Value, _ name: String) throws(JSException) -> Value {
        if isBigInt(v) { return v }
        if isObject(v), JSObject(v).kind == .boxedPrimitive, isBigInt(JSObject(v).extraValue(1)) { return JSObject(v).extraValue(1) }
        throw try typeError("BigInt.prototype.\(name) requires that 'this' be a BigInt")
    }

    /// ToIndex as BigInt.asIntN/asUintN use it (a RangeError outside 0...2^53-1).
    func bigIntBitsIndex(_ v: Value) throws(JSException) -> Int {
        let d = try toIntegerOrInfinityFast(v)
        if d < 0 || d > 9007199254740991 { throw try rangeError("Invalid value: not (convertible to) a safe integer") }
        return Int(d)
    }

    func installBigInt() throws(JSException) {
        let proto = try newObject()
        realm.bigintPrototype = proto
        let ctor = try constructor("BigInt", length: 1, prototype: proto) { rt, _, args, newTarget throws(JSException) in
            if !newTarget.isUndefined { throw try rt.typeError("BigInt is not a constructor") }
            let prim = try rt.toPrimitive(rt.arg(args, 0), .number)
            if prim.isNumber { return try rt.numberToBigInt(prim.asNumber) }
            return try rt.toBigInt(prim)
        }
        try method(ctor, "asIntN", 2) { rt, _, args, _ throws(JSException) in
            let bits = try rt.bigIntBitsIndex(rt.arg(args, 0))
            let x = rt.bigIntValue(try rt.toBigInt(rt.arg(args, 1)))
            return try rt.makeBigInt(x.asIntN(bits))
        }
        try method(ctor, "asUintN", 2) { rt, _, args, _ throws(JSException) in
            let bits = try rt.bigIntBitsIndex(rt.arg(args, 0))
            let x = rt.bigIntValue(try rt.toBigInt(rt.arg(args, 1)))
            // A negative value modulo a huge power of two is a huge number.
            if x.negative && bits > BigIntLayout.maxBits { throw try rt.rangeError("Maximum BigInt size exceeded") }
            return try rt.makeBigInt(x.asUintN(bits))
        }
        try method(proto, "toString", 0) { rt, this, args, _ throws(JSException) in
            let x = try rt.thisBigIntValue(this, "toString")
            let radix = rt.arg(args, 0)
            var r = 10
            if !radix.isUndefined {
                let d = try rt.toIntegerOrInfinityFast(radix)
                if d < 2 || d > 36 { throw try rt.rangeError("toString() radix must be between 2 and 36") }
                r = Int(d)
            }
            return try rt.bigIntToString(x, radix: r)
        }
        try method(proto, "toLocaleString", 0) { rt, this, _, _ throws(JSException) in
            try rt.bigIntToString(try rt.thisBigIntValue(this, "toLocaleString"))
        }
        try method(proto, "valueOf", 0) { rt, this, _, _ throws(JSException) in
            try rt.thisBigIntValue(this, "valueOf")
        }
        try defineOwnProperty(proto, symbolKey(wellKnown.toStringTag), .data(try makeString("BigInt"), [.configurable]))
    }
}
