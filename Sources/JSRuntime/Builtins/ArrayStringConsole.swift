// Array helpers, String and console (Array.prototype itself is in ArrayBuiltins.swift).

extension Runtime {
    // MARK: - Array

    func lengthOf(_ o: JSObject) throws(JSException) -> Int {
        if o.kind == .array { return Int(o.arrayLength) }
        return try toLength(try get(o, key(static: "length"), receiver: Value(cell: o.cell)))
    }

    func setLength(_ o: JSObject, _ n: Int) throws(JSException) {
        if !(try set(o, key(static: "length"), Value(n), receiver: Value(cell: o.cell))) {
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
}

extension Double {
    var nanToZero: Double { isNaN ? 0 : self }
}
