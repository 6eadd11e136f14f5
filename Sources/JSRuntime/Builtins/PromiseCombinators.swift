// Promise.all / allSettled / any / race (https://tc39.es/ecma262/#sec-promise.all).
//
// Element functions keep their state in their words: word 1 the shared record
// [values, remaining, capability resolve, capability reject], word 2 their own
// record [index, already called].

extension Runtime {
    enum Combinator: Int32 { case all = 0, allSettledFulfilled = 1, allSettledRejected = 2, any = 3 }

    func installPromiseCombinators(_ ctor: JSObject) throws(JSException) {
        // One body for every element function; the combinator is in the per-function record.
        let body1: NativeFunction = { rt, _, args, _ throws(JSException) -> Value in
            let f = JSObject(rt.nativeCallee)
            let shared = JSObject(f.extraValue(1)).elements!
            let own = JSObject(f.extraValue(2)).elements!
            if own[1].bits == Value.true.bits { return .undefined }
            own[1] = .true
            let index = Int(own[0].asInt32)
            let kind = Combinator(rawValue: own[2].asInt32) ?? .all
            var x = rt.arg(args, 0)
            if kind == .allSettledFulfilled || kind == .allSettledRejected {
                let o = try rt.newObject()
                rt.heap.pushRoot(Value(cell: o.cell))
                defer { rt.heap.popRoots(1) }
                let fulfilled = kind == .allSettledFulfilled
                try rt.createDataProperty(o, rt.key(static: "status"), try rt.makeString(fulfilled ? "fulfilled" : "rejected"))
                try rt.createDataProperty(o, rt.key(fulfilled ? "value" : "reason"), x)
                x = Value(cell: o.cell)
            }
            try rt.createDataProperty(JSObject(shared[0]), .index(UInt32(index)), x)
            let remaining = shared[1].asInt32 - 1
            shared[1] = Value(int32: remaining)
            if remaining == 0 { try rt.finishCombinator(kind, shared) }
            return .undefined
        }
        natives.append(body1)
        let elementIndex = natives.count - 1

        func combinator(_ name: String, _ body: @escaping (Runtime, Value, Value, (Value, Value, Value), Int) throws(JSException) -> Value) throws(JSException) {
            try method(ctor, name, 1) { rt, this, args, _ throws(JSException) in
                let cap = try rt.newPromiseCapability(this)
                rt.heap.pushRoot(cap.0); rt.heap.pushRoot(cap.1); rt.heap.pushRoot(cap.2)
                defer { rt.heap.popRoots(3) }
                do throws(JSException) {
                    let resolve = try rt.get(JSObject(this), rt.key(static: "resolve"), receiver: this)
                    guard rt.isCallable(resolve) else { throw try rt.typeError("Promise resolve is not a function") }
                    return try body(rt, this, rt.arg(args, 0), cap, elementIndex)
                } catch {
                    _ = try rt.call(cap.2, this: .undefined, error.value)
                    return cap.0
                }
            }
        }

        try combinator("all") { rt, c, iterable, cap, idx throws(JSException) in
            try rt.performCombinator(c, iterable, cap, idx, fulfilledKind: .all, rejectedKind: nil)
        }
        try combinator("allSettled") { rt, c, iterable, cap, idx throws(JSException) in
            try rt.performCombinator(c, iterable, cap, idx, fulfilledKind: .allSettledFulfilled, rejectedKind: .allSettledRejected)
        }
        try combinator("any") { rt, c, iterable, cap, idx throws(JSException) in
            try rt.performCombinator(c, iterable, cap, idx, fulfilledKind: nil, rejectedKind: .any)
        }
        try combinator("race") { rt, c, iterable, cap, _ throws(JSException) in
            let resolve = try rt.get(JSObject(c), rt.key(static: "resolve"), receiver: c)
            var rec = try rt.getIterator(iterable)
            rt.heap.pushRoot(rec.iterator); rt.heap.pushRoot(rec.next)
            defer { rt.heap.popRoots(2) }
            do throws(JSException) {
                while let v = try rt.iteratorStep(&rec) {
                    let next = try rt.call(resolve, this: c, v)
                    _ = try rt.call(try rt.getV(next, rt.key(static: "then")), this: next, cap.1, cap.2)
                }
            } catch {
                if !rec.done { rt.iteratorCloseOnThrow(rec) }
                throw error
            }
            return cap.0
        }
    }

    func finishCombinator(_ kind: Combinator, _ shared: UnsafeMutablePointer<Value>) throws(JSException) {
        if kind == .any {
            // %AggregateError% when the realm has it (else a plain Error with `errors`).
            let ctor = try get(realm.global, key(static: "AggregateError"), receiver: Value(cell: realm.global.cell))
            let e = try newError(.error, "All promises were rejected")
            heap.pushRoot(e)
            defer { heap.popRoots(1) }
            if isConstructor(ctor) {
                let proto = try get(JSObject(ctor), key(static: "prototype"), receiver: ctor)
                if isObject(proto) { _ = try setPrototype(JSObject(e), proto) }
            }
            try defineOwnProperty(JSObject(e), key(static: "errors"), .data(shared[0], .hidden))
            _ = try call(shared[3], this: .undefined, e)
        } else {
            _ = try call(shared[2], this: .undefined, shared[0])
        }
    }

    /// The loop shared by all / allSettled / any.
    func performCombinator(_ c: Value, _ iterable: Value, _ cap: (Value, Value, Value), _ elementIndex: Int,
                           fulfilledKind: Combinator?, rejectedKind: Combinator?) throws(JSException) -> Value {
        let resolve = try get(JSObject(c), key(static: "resolve"), receiver: c)
        var rec = try getIterator(iterable)
        heap.pushRoot(rec.iterator); heap.pushRoot(rec.next)
        defer { heap.popRoots(2) }
        let values = try newArray()
        heap.pushRoot(Value(cell: values.cell))
        defer { heap.popRoots(1) }
        let shared = try record(Value(cell: values.cell), Value(int32: 1), cap.1, cap.2)
        heap.pushRoot(Value(cell: shared.cell))
        defer { heap.popRoots(1) }
        var index: Int32 = 0
        do {
            while let v = try iteratorStep(&rec) {
                try createDataProperty(values, .index(UInt32(index)), .undefined)
                let next = try call(resolve, this: c, v)
                heap.pushRoot(next)
                defer { heap.popRoots(1) }
                var onFulfilled = cap.1, onRejected = cap.2
                if let k = fulfilledKind {
                    let f = try makeNativeFunction(index: elementIndex, name: "", length: 1)
                    f.setExtraValue(1, Value(cell: shared.cell))
                    heap.pushRoot(Value(cell: f.cell))
                    f.setExtraValue(2, Value(cell: try record(Value(int32: index), .false, Value(int32: k.rawValue)).cell))
                    onFulfilled = Value(cell: f.cell)
                }
                if let k = rejectedKind {
                    let f = try makeNativeFunction(index: elementIndex, name: "", length: 1)
                    f.setExtraValue(1, Value(cell: shared.cell))
                    heap.pushRoot(Value(cell: f.cell))
                    f.setExtraValue(2, Value(cell: try record(Value(int32: index), .false, Value(int32: k.rawValue)).cell))
                    onRejected = Value(cell: f.cell)
                }
                heap.pushRoot(onFulfilled); heap.pushRoot(onRejected)
                let pops = 2 + (fulfilledKind != nil ? 1 : 0) + (rejectedKind != nil ? 1 : 0)
                defer { heap.popRoots(pops) }
                shared.elements![1] = Value(int32: shared.elements![1].asInt32 + 1)
                _ = try call(try getV(next, key(static: "then")), this: next, onFulfilled, onRejected)
                index += 1
            }
        } catch {
            if !rec.done { iteratorCloseOnThrow(rec) }
            throw error
        }
        let remaining = shared.elements![1].asInt32 - 1
        shared.elements![1] = Value(int32: remaining)
        if remaining == 0 { try finishCombinator(rejectedKind == .any ? .any : (fulfilledKind ?? .all), shared.elements!) }
        return cap.0
    }
}
