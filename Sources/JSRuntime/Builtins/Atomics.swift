// The Atomics object (https://tc39.es/ecma262/#sec-atomics-object).
//
// Every operation is a sequentially consistent atomic on the element (CSableSupport's
// `sable_atomic_*`): other agents, on other threads, may use the same SharedArrayBuffer
// at the same time. `wait`, `waitAsync` and `notify` use the process-wide waiter list of
// Builtins/SharedMemory.swift.

import CSableSupport
#if canImport(Glibc)
import Glibc
#endif

extension Runtime {
    /// ValidateIntegerTypedArray.
    func validateIntegerTypedArray(_ v: Value, waitable: Bool, _ name: String) throws(JSException) -> (JSObject, Int) {
        let (o, len) = try validateTypedArray(v, "Atomics." + name)
        let k = o.typedArrayKind
        if waitable {
            if k != .int32 && k != .bigInt64 { throw try typeError("Atomics.\(name): the typed array must be an Int32Array or BigInt64Array") }
        } else if !k.isAtomicInteger {
            throw try typeError("Atomics.\(name): the typed array must be an integer typed array")
        }
        return (o, len)
    }

    /// ValidateAtomicAccess: the element index.
    func validateAtomicAccess(_ o: JSObject, _ len: Int, _ index: Value, _ name: String) throws(JSException) -> Int {
        let i = try toIndexOrThrow(index, "atomic access index")
        if i >= len { throw try rangeError("Atomics.\(name): index \(i) is out of range") }
        return i
    }

    /// RevalidateAtomicAccess (after the value's conversion ran user code).
    func revalidateAtomicAccess(_ o: JSObject, _ i: Int, _ name: String) throws(JSException) {
        guard let len = o.typedArrayLength else { throw try typeError("Atomics.\(name): the typed array is detached or out of bounds") }
        if i >= len { throw try rangeError("Atomics.\(name): index \(i) is out of range") }
    }

    /// The integer value to operate with (ToIntegerOrInfinity, or ToBigInt).
    func atomicOperand(_ v: Value, _ k: TypedArrayKind) throws(JSException) -> Value {
        if k.isBigInt { return try typedArrayConvert(v, k) }
        return Value(try toIntegerOrInfinity(v))
    }

    /// The raw bits of an operand for kind `k`.
    func atomicBits(_ v: Value, _ k: TypedArrayKind) -> UInt64 {
        if k.isBigInt { return bigIntElementHooks?.bits(self, v) ?? 0 }
        return UInt64(bitPattern: Int64(jsToInt32Bits(v.asNumber)))
    }

    /// The value of element bits (zero-extended) for kind `k`.
    func atomicValue(_ bits: UInt64, _ k: TypedArrayKind) throws(JSException) -> Value {
        var b = bits
        return try withUnsafeBytes(of: &b) { raw throws(JSException) -> Value in
            if k.isBigInt { return try loadBigIntElement(raw.baseAddress!, k) }
            return loadNumberElement(raw.baseAddress!, k)
        }
    }

    /// AtomicReadModifyWrite: returns the old element value. `op`: 0 add, 1 and,
    /// 2 exchange, 3 or, 4 sub, 5 xor (`sable_atomic_rmw`).
    func atomicRMW(_ args: UnsafeBufferPointer<Value>, _ name: String, _ op: Int32) throws(JSException) -> Value {
        let (o, len) = try validateIntegerTypedArray(arg(args, 0), waitable: false, name)
        let i = try validateAtomicAccess(o, len, arg(args, 1), name)
        let k = o.typedArrayKind
        let v = try atomicOperand(arg(args, 2), k)
        heap.pushRoot(v)
        defer { heap.popRoots(1) }
        try revalidateAtomicAccess(o, i, name)
        let p = o.viewBuffer.bufferData! + o.viewByteOffset + (i << k.shift)
        return try atomicValue(sable_atomic_rmw(p, Int32(k.size), op, atomicBits(v, k)), k)
    }

    /// Atomics.wait / Atomics.waitAsync (DoWait).
    func atomicsWait(_ args: UnsafeBufferPointer<Value>, async: Bool) throws(JSException) -> Value {
        let name = async ? "waitAsync" : "wait"
        let (o, len) = try validateIntegerTypedArray(arg(args, 0), waitable: true, name)
        if !o.viewBuffer.isSharedBuffer { throw try typeError("Atomics.\(name): the typed array's buffer is not a SharedArrayBuffer") }
        let i = try validateAtomicAccess(o, len, arg(args, 1), name)
        let k = o.typedArrayKind
        let v: Value = k.isBigInt ? try typedArrayConvert(arg(args, 2), k) : Value(Int(try toInt32(arg(args, 2))))
        heap.pushRoot(v)
        defer { heap.popRoots(1) }
        let q = try toNumber(arg(args, 3))
        let t = q.isNaN ? Double.infinity : max(q, 0)
        let current = try typedArrayLoad(o, i)
        let equal = k.isBigInt ? atomicBits(current, k) == atomicBits(v, k) : strictEquals(current, v)
        func result(_ isAsync: Bool, _ value: Value) throws(JSException) -> Value {
            heap.pushRoot(value)
            defer { heap.popRoots(1) }
            let r = try newObject()
            heap.pushRoot(Value(cell: r.cell))
            defer { heap.popRoots(1) }
            try createDataProperty(r, key(static: "async"), Value(isAsync))
            try createDataProperty(r, key(static: "value"), value)
            return Value(cell: r.cell)
        }
        let p = o.viewBuffer.bufferData! + o.viewByteOffset + (i << k.shift)
        if async {
            if !equal { return try result(false, try makeString("not-equal")) }
            if t == 0 { return try result(false, try makeString("timed-out")) }
            // Settled with "ok" by Atomics.notify (any agent's) or "timed-out" at the
            // timeout, by this agent (`settleAsyncWaiters`).
            let promise = try newPromiseObject()
            heap.pushRoot(Value(cell: promise.cell))
            defer { heap.popRoots(1) }
            guard let w = atomicsWaitAsyncRegister(p, size: k.size, expected: atomicBits(v, k), timeout: t) else {
                return try result(false, try makeString("not-equal"))
            }
            realm.binary.asyncWaiters.append((Value(cell: o.viewBuffer.cell), w, Value(cell: promise.cell)))
            return try result(true, Value(cell: promise.cell))
        }
        if !equal { return try makeString("not-equal") }
        return try makeString(try atomicsWaitBlocking(p, size: k.size, expected: atomicBits(v, k), timeout: t))
    }

    func installAtomics() throws(JSException) {
        let atomics = try newObject()
        heap.pushRoot(Value(cell: atomics.cell))
        defer { heap.popRoots(1) }
        try put(realm.global, "Atomics", Value(cell: atomics.cell))
        try defineOwnProperty(atomics, symbolKey(wellKnown.toStringTag), .data(try makeString("Atomics"), [.configurable]))
        let ops: [(String, Int32)] = [("add", 0), ("and", 1), ("exchange", 2), ("or", 3), ("sub", 4), ("xor", 5)]
        for (name, op) in ops {
            try method(atomics, name, 3) { rt, _, args, _ throws(JSException) in try rt.atomicRMW(args, name, op) }
        }
        try method(atomics, "compareExchange", 4) { rt, _, args, _ throws(JSException) in
            let (o, len) = try rt.validateIntegerTypedArray(rt.arg(args, 0), waitable: false, "compareExchange")
            let i = try rt.validateAtomicAccess(o, len, rt.arg(args, 1), "compareExchange")
            let k = o.typedArrayKind
            let expected = try rt.atomicOperand(rt.arg(args, 2), k)
            rt.heap.pushRoot(expected)
            defer { rt.heap.popRoots(1) }
            let replacement = try rt.atomicOperand(rt.arg(args, 3), k)
            rt.heap.pushRoot(replacement)
            defer { rt.heap.popRoots(1) }
            try rt.revalidateAtomicAccess(o, i, "compareExchange")
            let p = o.viewBuffer.bufferData! + o.viewByteOffset + (i << k.shift)
            let mask: UInt64 = k.size == 8 ? ~0 : (1 << UInt64(k.size * 8)) - 1
            let old = sable_atomic_compare_exchange(p, Int32(k.size), rt.atomicBits(expected, k) & mask, rt.atomicBits(replacement, k))
            return try rt.atomicValue(old, k)
        }
        try method(atomics, "isLockFree", 1) { rt, _, args, _ throws(JSException) in
            let n = try rt.toIntegerOrInfinity(rt.arg(args, 0))
            return Value(n == 1 || n == 2 || n == 4 || n == 8)
        }
        try method(atomics, "load", 2) { rt, _, args, _ throws(JSException) in
            let (o, len) = try rt.validateIntegerTypedArray(rt.arg(args, 0), waitable: false, "load")
            let i = try rt.validateAtomicAccess(o, len, rt.arg(args, 1), "load")
            try rt.revalidateAtomicAccess(o, i, "load")
            let k = o.typedArrayKind
            let p = o.viewBuffer.bufferData! + o.viewByteOffset + (i << k.shift)
            return try rt.atomicValue(sable_atomic_load(p, Int32(k.size)), k)
        }
        try method(atomics, "store", 3) { rt, _, args, _ throws(JSException) in
            let (o, len) = try rt.validateIntegerTypedArray(rt.arg(args, 0), waitable: false, "store")
            let i = try rt.validateAtomicAccess(o, len, rt.arg(args, 1), "store")
            let k = o.typedArrayKind
            let v = try rt.atomicOperand(rt.arg(args, 2), k)
            rt.heap.pushRoot(v)
            defer { rt.heap.popRoots(1) }
            try rt.revalidateAtomicAccess(o, i, "store")
            let p = o.viewBuffer.bufferData! + o.viewByteOffset + (i << k.shift)
            sable_atomic_store(p, Int32(k.size), rt.atomicBits(v, k))
            return k.isBigInt ? v : Value(v.asNumber + 0.0)
        }
        try method(atomics, "wait", 4) { rt, _, args, _ throws(JSException) in
            try rt.atomicsWait(args, async: false)
        }
        try method(atomics, "waitAsync", 4) { rt, _, args, _ throws(JSException) in
            try rt.atomicsWait(args, async: true)
        }
        try method(atomics, "notify", 3) { rt, _, args, _ throws(JSException) in
            let (o, len) = try rt.validateIntegerTypedArray(rt.arg(args, 0), waitable: true, "notify")
            let i = try rt.validateAtomicAccess(o, len, rt.arg(args, 1), "notify")
            let c = rt.arg(args, 2)
            var count = Double.infinity
            if !c.isUndefined { count = max(try rt.toIntegerOrInfinity(c), 0) }
            let buffer = o.viewBuffer
            if !buffer.isSharedBuffer { return Value(int32: 0) }
            let p = buffer.bufferData! + o.viewByteOffset + (i << o.typedArrayKind.shift)
            return Value(try rt.atomicsNotifyWaiters(p, count: count))
        }
        try method(atomics, "pause", 0) { rt, _, args, _ throws(JSException) in
            let n = rt.arg(args, 0)
            if !n.isUndefined {
                guard n.isNumber, n.asNumber.isFinite, n.asNumber.rounded(.towardZero) == n.asNumber else {
                    throw try rt.typeError("Atomics.pause: the argument must be an integral Number")
                }
            }
            return .undefined
        }
    }
}
