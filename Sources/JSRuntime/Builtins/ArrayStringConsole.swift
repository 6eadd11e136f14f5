// Array, String and console: the methods the benchmarks and common programs use first.

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

    func installArray() throws(JSException) {
        let proto = realm.arrayPrototype!
        let ctor = try constructor("Array", length: 1, prototype: proto) { rt, _, args, _ throws(JSException) in
            if args.count == 1 && args[0].isNumber {
                let d = args[0].asNumber
                guard d >= 0 && d <= 4294967295 && d == d.rounded() else { throw try rt.rangeError("Invalid array length") }
                let a = try rt.newArray()
                a.arrayLength = UInt32(d)
                return Value(cell: a.cell)
            }
            return Value(cell: try rt.newArray(args).cell)
        }
        try method(ctor, "isArray", 1) { rt, _, args, _ throws(JSException) in
            let v = rt.arg(args, 0)
            return Value(rt.isObject(v) && JSObject(v).kind == .array)
        }
        try method(proto, "push", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisObject(this, "push")
            var n = try rt.lengthOf(o)
            for v in args {
                if o.kind == .array && n == o.elementsLength && o.flags & (ObjectFlags.sparseElements | ObjectFlags.nonExtensible | ArrayFlags.lengthReadOnly) == 0 {
                    o.ensureElementsCapacity(n + 1)
                    o.elements![n] = v
                    o.elementsLength = n + 1
                    o.arrayLength = UInt32(n + 1)
                } else if !(try rt.set(o, .index(UInt32(n)), v, receiver: this)) {
                    throw try rt.typeError("Cannot add property \(n), object is not extensible")
                }
                n += 1
            }
            if o.kind != .array || o.arrayLength != UInt32(n) { try rt.setLength(o, n) }
            return Value(n)
        }
        try method(proto, "pop", 0) { rt, this, _, _ throws(JSException) in
            let o = try rt.thisObject(this, "pop")
            let n = try rt.lengthOf(o)
            if n == 0 { try rt.setLength(o, 0); return .undefined }
            let v = try rt.element(o, n - 1)
            if !(try rt.deleteProperty(o, .index(UInt32(n - 1)))) { throw try rt.typeError("Cannot delete property") }
            try rt.setLength(o, n - 1)
            return v
        }
        try method(proto, "shift", 0) { rt, this, _, _ throws(JSException) in
            let o = try rt.thisObject(this, "shift")
            let n = try rt.lengthOf(o)
            if n == 0 { try rt.setLength(o, 0); return .undefined }
            let first = try rt.element(o, 0)
            for i in 1..<n {
                let k = Key.index(UInt32(i))
                if try rt.hasProperty(o, k) { _ = try rt.set(o, .index(UInt32(i - 1)), try rt.get(o, k, receiver: this), receiver: this) }
                else { try rt.deleteProperty(o, .index(UInt32(i - 1))) }
            }
            try rt.deleteProperty(o, .index(UInt32(n - 1)))
            try rt.setLength(o, n - 1)
            return first
        }
        try method(proto, "unshift", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisObject(this, "unshift")
            let n = try rt.lengthOf(o)
            let c = args.count
            if c > 0 {
                var i = n
                while i > 0 {
                    let from = Key.index(UInt32(i - 1)), to = Key.index(UInt32(i - 1 + c))
                    if try rt.hasProperty(o, from) { _ = try rt.set(o, to, try rt.get(o, from, receiver: this), receiver: this) }
                    else { try rt.deleteProperty(o, to) }
                    i -= 1
                }
                for j in 0..<c { _ = try rt.set(o, .index(UInt32(j)), args[j], receiver: this) }
            }
            try rt.setLength(o, n + c)
            return Value(n + c)
        }
        try method(proto, "join", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisObject(this, "join")
            let sepArg = rt.arg(args, 0)
            let sep = sepArg.isUndefined ? try rt.makeString(",") : try rt.toString(sepArg)
            rt.heap.pushRoot(sep)
            defer { rt.heap.popRoots(1) }
            let n = try rt.lengthOf(o)
            if rt.joinStack.contains(o.cell) { return try rt.makeString("") }
            rt.joinStack.append(o.cell)
            defer { rt.joinStack.removeLast() }
            var result = try rt.makeString("")
            for i in 0..<n {
                rt.heap.pushRoot(result)
                defer { rt.heap.popRoots(1) }
                if i > 0 { result = try rt.concat(result, sep) }
                let v = try rt.element(o, i)
                if !v.isNullish { result = try rt.concat(result, try rt.toString(v)) }
            }
            return result
        }
        try method(proto, "toString", 0) { rt, this, _, _ throws(JSException) in
            let o = try rt.thisObject(this, "toString")
            let join = try rt.get(o, "join")
            if rt.isCallable(join) { return try rt.call(join, this: this) }
            return try rt.makeString("[object Array]")
        }
        try method(proto, "indexOf", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisObject(this, "indexOf")
            let n = try rt.lengthOf(o)
            let target = rt.arg(args, 0)
            var start = args.count > 1 ? Int(try rt.toNumber(args[1])) : 0
            if start < 0 { start = max(0, n + start) }
            var i = start
            while i < n {
                if try rt.hasProperty(o, .index(UInt32(i))), rt.strictEquals(try rt.element(o, i), target) { return Value(i) }
                i += 1
            }
            return Value(int32: -1)
        }
        try method(proto, "includes", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisObject(this, "includes")
            let n = try rt.lengthOf(o)
            let target = rt.arg(args, 0)
            for i in 0..<n where rt.sameValueZero(try rt.element(o, i), target) { return .true }
            return .false
        }
        try method(proto, "slice", 2) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisObject(this, "slice")
            let n = try rt.lengthOf(o)
            let start = try rt.relativeIndex(rt.arg(args, 0), n, 0)
            let end = try rt.relativeIndex(rt.arg(args, 1), n, n)
            let a = try rt.newArray(capacity: max(0, end - start))
            rt.heap.pushRoot(Value(cell: a.cell))
            defer { rt.heap.popRoots(1) }
            var k: UInt32 = 0
            if start < end {
                for i in start..<end {
                    if try rt.hasProperty(o, .index(UInt32(i))) { try rt.createDataProperty(a, .index(k), try rt.element(o, i)) }
                    k += 1
                }
            }
            a.arrayLength = k
            return Value(cell: a.cell)
        }
        try method(proto, "concat", 1) { rt, this, args, _ throws(JSException) in
            let a = try rt.newArray()
            rt.heap.pushRoot(Value(cell: a.cell))
            defer { rt.heap.popRoots(1) }
            var n: UInt32 = 0
            var items: [Value] = [Value(cell: try rt.thisObject(this, "concat").cell)]
            items.append(contentsOf: args)
            for item in items {
                if rt.isObject(item) && JSObject(item).kind == .array {
                    let src = JSObject(item)
                    let len = try rt.lengthOf(src)
                    for i in 0..<len {
                        if try rt.hasProperty(src, .index(UInt32(i))) { try rt.createDataProperty(a, .index(n), try rt.element(src, i)) }
                        n += 1
                    }
                } else {
                    try rt.createDataProperty(a, .index(n), item); n += 1
                }
            }
            a.arrayLength = n
            return Value(cell: a.cell)
        }
        try method(proto, "reverse", 0) { rt, this, _, _ throws(JSException) in
            let o = try rt.thisObject(this, "reverse")
            let n = try rt.lengthOf(o)
            var lo = 0, hi = n - 1
            while lo < hi {
                let a = try rt.element(o, lo), b = try rt.element(o, hi)
                _ = try rt.set(o, .index(UInt32(lo)), b, receiver: this)
                _ = try rt.set(o, .index(UInt32(hi)), a, receiver: this)
                lo += 1; hi -= 1
            }
            return this
        }
        try method(proto, "forEach", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisObject(this, "forEach")
            let f = try rt.callback(args, "forEach")
            let n = try rt.lengthOf(o)
            for i in 0..<n where try rt.hasProperty(o, .index(UInt32(i))) {
                _ = try rt.call(f, this: rt.arg(args, 1), try rt.element(o, i), Value(i), this)
            }
            return .undefined
        }
        try method(proto, "map", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisObject(this, "map")
            let f = try rt.callback(args, "map")
            let n = try rt.lengthOf(o)
            let a = try rt.newArray(capacity: n)
            rt.heap.pushRoot(Value(cell: a.cell))
            defer { rt.heap.popRoots(1) }
            for i in 0..<n where try rt.hasProperty(o, .index(UInt32(i))) {
                try rt.createDataProperty(a, .index(UInt32(i)), try rt.call(f, this: rt.arg(args, 1), try rt.element(o, i), Value(i), this))
            }
            a.arrayLength = UInt32(n)
            return Value(cell: a.cell)
        }
        try method(proto, "filter", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisObject(this, "filter")
            let f = try rt.callback(args, "filter")
            let n = try rt.lengthOf(o)
            let a = try rt.newArray()
            rt.heap.pushRoot(Value(cell: a.cell))
            defer { rt.heap.popRoots(1) }
            var k: UInt32 = 0
            for i in 0..<n where try rt.hasProperty(o, .index(UInt32(i))) {
                let v = try rt.element(o, i)
                if rt.toBoolean(try rt.call(f, this: rt.arg(args, 1), v, Value(i), this)) {
                    try rt.createDataProperty(a, .index(k), v); k += 1
                }
            }
            return Value(cell: a.cell)
        }
        for (name, wantAll) in [("some", false), ("every", true)] {
            try method(proto, name, 1) { rt, this, args, _ throws(JSException) in
                let o = try rt.thisObject(this, name)
                let f = try rt.callback(args, name)
                let n = try rt.lengthOf(o)
                for i in 0..<n where try rt.hasProperty(o, .index(UInt32(i))) {
                    let r = rt.toBoolean(try rt.call(f, this: rt.arg(args, 1), try rt.element(o, i), Value(i), this))
                    if r != wantAll { return Value(!wantAll) }
                }
                return Value(wantAll)
            }
        }
        try method(proto, "reduce", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisObject(this, "reduce")
            let f = try rt.callback(args, "reduce")
            let n = try rt.lengthOf(o)
            var i = 0
            var acc: Value
            if args.count > 1 { acc = args[1] } else {
                while i < n, !(try rt.hasProperty(o, .index(UInt32(i)))) { i += 1 }
                if i >= n { throw try rt.typeError("Reduce of empty array with no initial value") }
                acc = try rt.element(o, i); i += 1
            }
            while i < n {
                if try rt.hasProperty(o, .index(UInt32(i))) {
                    acc = try rt.call(f, this: .undefined, acc, try rt.element(o, i), Value(i), this)
                }
                i += 1
            }
            return acc
        }
        try method(proto, "sort", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisObject(this, "sort")
            let cmp = rt.arg(args, 0)
            if !cmp.isUndefined && !rt.isCallable(cmp) { throw try rt.typeError("The comparison function must be either a function or undefined") }
            let n = try rt.lengthOf(o)
            // Collect into a rooted array, merge sort (stable), write back.
            let tmp = try rt.newArray(capacity: n)
            rt.heap.pushRoot(Value(cell: tmp.cell))
            defer { rt.heap.popRoots(1) }
            var count = 0
            var undefinedCount = 0
            for i in 0..<n where try rt.hasProperty(o, .index(UInt32(i))) {
                let v = try rt.element(o, i)
                if v.isUndefined { undefinedCount += 1 } else { tmp.elements![count] = v; count += 1 }
            }
            tmp.elementsLength = count
            tmp.arrayLength = UInt32(count)
            try rt.mergeSort(tmp, count: count) { a, b throws(JSException) in
                if !cmp.isUndefined {
                    let r = try rt.toNumber(try rt.call(cmp, this: .undefined, a, b))
                    return r < 0
                }
                return try rt.flatten(try rt.toString(a)).compare(try rt.flatten(try rt.toString(b))) < 0
            }
            for i in 0..<count { _ = try rt.set(o, .index(UInt32(i)), tmp.elements![i], receiver: this) }
            for i in count..<(count + undefinedCount) { _ = try rt.set(o, .index(UInt32(i)), .undefined, receiver: this) }
            for i in (count + undefinedCount)..<max(n, count + undefinedCount) { try rt.deleteProperty(o, .index(UInt32(i))) }
            return this
        }
        try method(proto, "fill", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisObject(this, "fill")
            let n = try rt.lengthOf(o)
            let start = try rt.relativeIndex(rt.arg(args, 1), n, 0)
            let end = try rt.relativeIndex(rt.arg(args, 2), n, n)
            let v = rt.arg(args, 0)
            var i = start
            while i < end {
                if !(try rt.set(o, .index(UInt32(i)), v, receiver: this)) { throw try rt.typeError("Cannot assign to read only property") }
                i += 1
            }
            return this
        }
        for (name, fromEnd, wantIndex) in [("find", false, false), ("findIndex", false, true), ("findLast", true, false), ("findLastIndex", true, true)] {
            try method(proto, name, 1) { rt, this, args, _ throws(JSException) in
                let o = try rt.thisObject(this, name)
                let f = try rt.callback(args, name)
                let n = try rt.lengthOf(o)
                var i = fromEnd ? n - 1 : 0
                while fromEnd ? i >= 0 : i < n {
                    let v = try rt.element(o, i)
                    if rt.toBoolean(try rt.call(f, this: rt.arg(args, 1), v, Value(i), this)) { return wantIndex ? Value(i) : v }
                    i += fromEnd ? -1 : 1
                }
                return wantIndex ? Value(int32: -1) : .undefined
            }
        }
        try method(proto, "lastIndexOf", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisObject(this, "lastIndexOf")
            let n = try rt.lengthOf(o)
            let target = rt.arg(args, 0)
            var i = args.count > 1 ? min(Int(try rt.toNumber(args[1]).nanToZero), n - 1) : n - 1
            if i < 0 && args.count > 1 { i = n + i }
            while i >= 0 {
                if try rt.hasProperty(o, .index(UInt32(i))), rt.strictEquals(try rt.element(o, i), target) { return Value(i) }
                i -= 1
            }
            return Value(int32: -1)
        }
        try method(proto, "at", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisObject(this, "at")
            let n = try rt.lengthOf(o)
            var i = Int(try rt.toNumber(rt.arg(args, 0)).nanToZero.rounded(.towardZero))
            if i < 0 { i += n }
            if i < 0 || i >= n { return .undefined }
            return try rt.element(o, i)
        }
        try method(proto, "splice", 2) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisObject(this, "splice")
            let n = try rt.lengthOf(o)
            let start = try rt.relativeIndex(rt.arg(args, 0), n, 0)
            let deleteCount = args.count == 0 ? 0 : args.count == 1 ? n - start : max(0, min(Int(try rt.toNumber(args[1])), n - start))
            let removed = try rt.newArray(capacity: deleteCount)
            rt.heap.pushRoot(Value(cell: removed.cell))
            defer { rt.heap.popRoots(1) }
            for i in 0..<deleteCount { try rt.createDataProperty(removed, .index(UInt32(i)), try rt.element(o, start + i)) }
            removed.arrayLength = UInt32(deleteCount)
            let items = args.count > 2 ? Array(args[2...]) : []
            let shift = items.count - deleteCount
            if shift < 0 {
                for i in (start + deleteCount)..<n { _ = try rt.set(o, .index(UInt32(i + shift)), try rt.element(o, i), receiver: this) }
                for i in stride(from: n - 1, through: n + shift, by: -1) { try rt.deleteProperty(o, .index(UInt32(i))) }
            } else if shift > 0 {
                var i = n - 1
                while i >= start + deleteCount { _ = try rt.set(o, .index(UInt32(i + shift)), try rt.element(o, i), receiver: this); i -= 1 }
            }
            for (j, v) in items.enumerated() { _ = try rt.set(o, .index(UInt32(start + j)), v, receiver: this) }
            try rt.setLength(o, n + shift)
            return Value(cell: removed.cell)
        }
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
