// Array.fromAsync(asyncItems [, mapfn [, thisArg]]): the body of the spec's abstract
// closure as a native state machine (as AsyncDisposal does), resumed by a step function
// when an awaited promise settles. https://tc39.es/proposal-array-from-async/
//
// The state is a private array (`FromAsyncSlot`); the step function holds it in word 1
// and whether it is the rejection handler in word 2.

enum FromAsyncSlot {
    /// The promise fromAsync returned.
    static let promise = 0
    /// The array being filled (A).
    static let array = 1
    static let mapfn = 2
    static let thisArg = 3
    /// The iterator (iterator mode) or the array-like object.
    static let source = 4
    /// The iterator's next method; undefined in array-like mode.
    static let next = 5
    static let index = 6
    /// The array-like's length (array-like mode).
    static let length = 7
    /// What the pending await is for (`FromAsyncPhase`).
    static let phase = 8
    /// The error to reject with once the iterator is closed.
    static let error = 9
    /// The index of the step function's native body.
    static let step = 10
    static let count = 11
}

enum FromAsyncPhase {
    static let nextResult: Int32 = 0
    static let mappedValue: Int32 = 1
    static let arrayLikeValue: Int32 = 2
    static let arrayLikeMapped: Int32 = 3
    static let closing: Int32 = 4
}

extension Runtime {
    func installArrayFromAsync(_ ctor: JSObject) throws(JSException) {
        natives.append { rt, _, args, _ throws(JSException) -> Value in
            let f = JSObject(rt.nativeCallee)
            let state = JSObject(f.extraValue(1))
            try rt.fromAsyncResume(state, rt.arg(args, 0), rejected: f.extraValue(2).bits == Value.true.bits)
            return .undefined
        }
        let stepIndex = natives.count - 1
        try method(ctor, "fromAsync", 1) { rt, this, args, _ throws(JSException) in
            let promise = try rt.newPromiseObject()
            let depth = rt.heap.extraRootCount
            defer { rt.heap.popRoots(to: depth) }
            rt.heap.pushRoot(Value(cell: promise.cell))
            let state = try rt.newArray(capacity: FromAsyncSlot.count)
            state.elementsLength = FromAsyncSlot.count
            state.arrayLength = UInt32(FromAsyncSlot.count)
            let e = state.elements!
            for i in 0..<FromAsyncSlot.count { e[i] = .undefined }
            e[FromAsyncSlot.promise] = Value(cell: promise.cell)
            e[FromAsyncSlot.step] = Value(stepIndex)
            rt.heap.pushRoot(Value(cell: state.cell))
            do throws(JSException) {
                try rt.fromAsyncStart(state, this: this, items: rt.arg(args, 0), mapfn: rt.arg(args, 1), thisArg: rt.arg(args, 2))
            } catch {
                try rt.rejectPromise(promise, error.value)
            }
            return Value(cell: promise.cell)
        }
    }

    /// The closure's steps up to the first await.
    func fromAsyncStart(_ state: JSObject, this c: Value, items: Value, mapfn: Value, thisArg: Value) throws(JSException) {
        if !mapfn.isUndefined && !isCallable(mapfn) {
            throw try typeError("Array.fromAsync: \(try describeForError(mapfn)) is not a function")
        }
        state.elements![FromAsyncSlot.mapfn] = mapfn
        state.elements![FromAsyncSlot.thisArg] = thisArg
        var rec: IteratorRecord? = nil
        if let m = try getMethod(items, symbolKey(wellKnown.asyncIterator)) {
            rec = try getIteratorFromMethod(items, m)
        } else if let m = try getMethod(items, symbolKey(wellKnown.iterator)) {
            // CreateAsyncFromSyncIterator.
            let sync = try getIteratorFromMethod(items, m)
            heap.pushRoot(sync.iterator)
            heap.pushRoot(sync.next)
            defer { heap.popRoots(2) }
            let wrapper = try allocateObject(.iterator, shape: try rootShape(for: Value(cell: realm.asyncFromSyncIteratorPrototype.cell)))
            wrapper.setExtraValue(1, sync.iterator)
            wrapper.setExtraValue(2, sync.next)
            heap.pushRoot(Value(cell: wrapper.cell))
            defer { heap.popRoots(1) }
            let next = try get(realm.asyncFromSyncIteratorPrototype, key(static: "next"), receiver: Value(cell: wrapper.cell))
            rec = IteratorRecord(iterator: Value(cell: wrapper.cell), next: next, done: false)
        }
        if let rec {
            state.elements![FromAsyncSlot.source] = rec.iterator
            state.elements![FromAsyncSlot.next] = rec.next
            let a = try constructThisOrArray(c, nil)
            state.elements![FromAsyncSlot.array] = Value(cell: a.cell)
            state.elements![FromAsyncSlot.index] = Value(0)
            try fromAsyncNext(state)
            return
        }
        let arrayLike = try toObject(items)
        state.elements![FromAsyncSlot.source] = Value(cell: arrayLike.cell)
        let len = try lengthOf(arrayLike)
        let a = try constructThisOrArray(c, len)
        state.elements![FromAsyncSlot.array] = Value(cell: a.cell)
        state.elements![FromAsyncSlot.length] = Value(len)
        state.elements![FromAsyncSlot.index] = Value(0)
        try fromAsyncArrayLikeNext(state)
    }

    private func fromAsyncIndex(_ state: JSObject) -> Int {
        let v = state.elements![FromAsyncSlot.index]
        return v.isInt32 ? Int(v.asInt32) : Int(v.asDouble)
    }

    /// Iterator mode: calls next and awaits its result.
    func fromAsyncNext(_ state: JSObject) throws(JSException) {
        let e = state.elements!
        if fromAsyncIndex(state) >= Runtime.maxSafeInteger {
            try fromAsyncClose(state, try makeError(.typeError, "Array.fromAsync: too many items").value)
            return
        }
        let result = try call(e[FromAsyncSlot.next], this: e[FromAsyncSlot.source])
        try fromAsyncAwait(state, result, phase: FromAsyncPhase.nextResult)
    }

    /// Array-like mode: awaits the next element, or finishes.
    func fromAsyncArrayLikeNext(_ state: JSObject) throws(JSException) {
        let e = state.elements!
        let k = fromAsyncIndex(state)
        let lv = e[FromAsyncSlot.length]
        let len = lv.isInt32 ? Int(lv.asInt32) : Int(lv.asDouble)
        if k < len {
            let v = try getIndex(JSObject(e[FromAsyncSlot.source]), k)
            try fromAsyncAwait(state, v, phase: FromAsyncPhase.arrayLikeValue)
            return
        }
        let a = JSObject(e[FromAsyncSlot.array])
        try setLengthOrThrow(a, len)
        try resolvePromise(JSObject(e[FromAsyncSlot.promise]), Value(cell: a.cell))
    }

    /// Await(value): resumes `fromAsyncResume` when it settles.
    func fromAsyncAwait(_ state: JSObject, _ value: Value, phase: Int32) throws(JSException) {
        let depth = heap.extraRootCount
        defer { heap.popRoots(to: depth) }
        heap.pushRoot(Value(cell: state.cell))
        heap.pushRoot(value)
        state.elements![FromAsyncSlot.phase] = Value(int32: phase)
        let p: Value
        do throws(JSException) {
            p = try promiseResolve(Value(cell: realm.promiseConstructor.cell), value)
        } catch {
            let r = try newPromiseObject()
            heap.pushRoot(Value(cell: r.cell))
            try rejectPromise(r, error.value)
            p = Value(cell: r.cell)
        }
        heap.pushRoot(p)
        let index = Int(state.elements![FromAsyncSlot.step].asInt32)
        let onFulfilled = try makeNativeFunction(index: index, name: "", length: 1)
        onFulfilled.setExtraValue(1, Value(cell: state.cell))
        onFulfilled.setExtraValue(2, .false)
        heap.pushRoot(Value(cell: onFulfilled.cell))
        let onRejected = try makeNativeFunction(index: index, name: "", length: 1)
        onRejected.setExtraValue(1, Value(cell: state.cell))
        onRejected.setExtraValue(2, .true)
        heap.pushRoot(Value(cell: onRejected.cell))
        try performPromiseThen(JSObject(p), onFulfilled: Value(cell: onFulfilled.cell),
                               onRejected: Value(cell: onRejected.cell), capability: nil)
    }

    /// AsyncIteratorClose(iteratorRecord, throw `error`): calls return, awaits its result,
    /// then rejects with `error` (errors from return itself are ignored).
    func fromAsyncClose(_ state: JSObject, _ error: Value) throws(JSException) {
        let e = state.elements!
        e[FromAsyncSlot.error] = error
        let iterator = e[FromAsyncSlot.source]
        var inner: Value? = nil
        do throws(JSException) {
            if let ret = try getMethod(iterator, key(static: "return")) { inner = try call(ret, this: iterator) }
        } catch {
            inner = nil
        }
        guard let inner else {
            try rejectPromise(JSObject(e[FromAsyncSlot.promise]), error)
            return
        }
        try fromAsyncAwait(state, inner, phase: FromAsyncPhase.closing)
    }

    /// Continues after an await settled with `value` (`rejected`: it was rejected).
    func fromAsyncResume(_ state: JSObject, _ value: Value, rejected: Bool) throws(JSException) {
        let depth = heap.extraRootCount
        defer { heap.popRoots(to: depth) }
        heap.pushRoot(Value(cell: state.cell))
        heap.pushRoot(value)
        let promise = JSObject(state.elements![FromAsyncSlot.promise])
        let phase = state.elements![FromAsyncSlot.phase].asInt32
        if phase == FromAsyncPhase.closing {
            try rejectPromise(promise, state.elements![FromAsyncSlot.error])
            return
        }
        if rejected {
            // A mapped value's rejection closes the iterator; other awaits just reject.
            if phase == FromAsyncPhase.mappedValue { try fromAsyncClose(state, value) } else { try rejectPromise(promise, value) }
            return
        }
        do throws(JSException) {
            let e = state.elements!
            let mapfn = e[FromAsyncSlot.mapfn]
            let k = fromAsyncIndex(state)
            switch phase {
            case FromAsyncPhase.nextResult:
                guard isObject(value) else { throw try typeError("Iterator result \(try describeForError(value)) is not an object") }
                let done = toBoolean(try get(JSObject(value), key(static: "done"), receiver: value))
                if done {
                    let a = JSObject(e[FromAsyncSlot.array])
                    try setLengthOrThrow(a, k)
                    try resolvePromise(promise, Value(cell: a.cell))
                    return
                }
                let v = try get(JSObject(value), key(static: "value"), receiver: value)
                heap.pushRoot(v)
                if !mapfn.isUndefined {
                    let mapped: Value
                    do throws(JSException) {
                        mapped = try call(mapfn, this: e[FromAsyncSlot.thisArg], v, Value(k))
                    } catch {
                        try fromAsyncClose(state, error.value)
                        return
                    }
                    try fromAsyncAwait(state, mapped, phase: FromAsyncPhase.mappedValue)
                    return
                }
                if try !fromAsyncDefine(state, v, k, closing: true) { return }
                try fromAsyncNext(state)
            case FromAsyncPhase.mappedValue:
                if try !fromAsyncDefine(state, value, k, closing: true) { return }
                try fromAsyncNext(state)
            case FromAsyncPhase.arrayLikeValue:
                if !mapfn.isUndefined {
                    let mapped = try call(mapfn, this: e[FromAsyncSlot.thisArg], value, Value(k))
                    try fromAsyncAwait(state, mapped, phase: FromAsyncPhase.arrayLikeMapped)
                    return
                }
                _ = try fromAsyncDefine(state, value, k, closing: false)
                try fromAsyncArrayLikeNext(state)
            default:
                _ = try fromAsyncDefine(state, value, k, closing: false)
                try fromAsyncArrayLikeNext(state)
            }
        } catch {
            try rejectPromise(promise, error.value)
        }
    }

    /// CreateDataPropertyOrThrow(A, k, v) and k + 1; in iterator mode a failure closes the
    /// iterator (false: the fill stopped).
    private func fromAsyncDefine(_ state: JSObject, _ v: Value, _ k: Int, closing: Bool) throws(JSException) -> Bool {
        let a = JSObject(state.elements![FromAsyncSlot.array])
        do throws(JSException) {
            try createDataPropertyOrThrow(a, indexKey(k), v)
        } catch {
            if closing { try fromAsyncClose(state, error.value); return false }
            throw error
        }
        state.elements![FromAsyncSlot.index] = Value(k + 1)
        return true
    }
}
