// Promises, the job queue and async functions
// (https://tc39.es/ecma262/#sec-promise-objects, #sec-async-function-objects).
//
// Promise objects (kind `.promise`): word 0 the state (PromiseState) | `handledBit`;
// word 1 the result; word 2 the pending reactions, a JS array of reaction records (so
// the collector traces them through the kind-specific words).
// A reaction record is a JS array: [kind, capability promise, resolve, reject, handler];
// kinds 0/1 are then-reactions (fulfil/reject), 2/3 resume an async function (the
// handler is its suspended generator object).
// Resolving functions are native functions whose words 1 and 2 hold the promise and a
// shared one-element array (the "already resolved" flag).
// The job queue is a JS array of jobs [kind, a, b, c] drained by `runJobs()`.

enum PromiseState: UInt64 { case pending = 0, fulfilled = 1, rejected = 2 }

extension Runtime {
    static let promiseHandledBit: UInt64 = 0x10

    func promiseState(_ p: JSObject) -> PromiseState { PromiseState(rawValue: p.word(0) & 0xF) ?? .pending }

    func isPromise(_ v: Value) -> Bool { isObject(v) && JSObject(v).kind == .promise }

    /// A small JS array holding `values` (GC-visible storage for records).
    func record(_ values: Value...) throws(JSException) -> JSObject {
        for v in values { heap.pushRoot(v) }
        defer { heap.popRoots(values.count) }
        let a = try newArray(capacity: values.count)
        for (i, v) in values.enumerated() { a.elements![i] = v }
        a.elementsLength = values.count
        a.arrayLength = UInt32(values.count)
        return a
    }

    func newPromiseObject(prototype: JSObject? = nil) throws(JSException) -> JSObject {
        let p = try allocateObject(.promise, shape: try rootShape(for: Value(cell: (prototype ?? realm.promisePrototype).cell)))
        p.setWord(0, PromiseState.pending.rawValue)
        p.setExtraValue(1, .undefined)
        heap.pushRoot(Value(cell: p.cell))
        defer { heap.popRoots(1) }
        p.setExtraValue(2, Value(cell: try newArray().cell))
        return p
    }

    // MARK: - Jobs

    func enqueueJob(_ kind: Int32, _ a: Value, _ b: Value, _ c: Value) throws(JSException) {
        let job = try record(Value(int32: kind), a, b, c)
        let q = realm.jobQueue!
        try createDataProperty(q, .index(q.arrayLength), Value(cell: job.cell))
    }

    /// Runs queued jobs until the queue is empty. An exception from a job propagates (the
    /// remaining jobs stay queued).
    public func runJobs() throws(JSException) {
        while true {
            let q = realm.jobQueue!
            clearKeptObjects()
            // Atomics.waitAsync waiters that were notified or timed out settle between jobs.
            if sharedMemory.pendingAsync > 0 { try settleAsyncWaiters(maxWait: 0) }
            if jobHead >= Int(q.arrayLength) {
                q.elementsLength = 0
                q.arrayLength = 0
                jobHead = 0
                if try runFinalizationCleanups() { continue }
                return
            }
            let job = JSObject(q.elements![jobHead])
            q.elements![jobHead] = .undefined
            jobHead += 1
            // The job array owns the storage `e` points into: keep it alive while it runs.
            heap.pushRoot(Value(cell: job.cell))
            defer { heap.popRoots(1) }
            let e = job.elements!
            switch e[0].asInt32 {
            case 0: try promiseReactionJob(JSObject(e[1]), e[2])
            case 1: try promiseResolveThenableJob(JSObject(e[1]), e[2], e[3])
            default: _ = try call(e[1], this: .undefined)   // a host's microtask (`enqueueMicrotask`)
            }
        }
    }

    func promiseReactionJob(_ reaction: JSObject, _ argument: Value) throws(JSException) {
        let r = reaction.elements!
        let kind = r[0].asInt32
        if kind >= 4 {
            try asyncGeneratorAwaitReturnDone(r[4], argument, fulfilled: kind == 4)
            return
        }
        if kind >= 2 {
            let g = JSObject(r[4])
            if isAsyncGenerator(g) {
                try asyncGeneratorRun(g, argument, mode: kind == 2 ? .next : .throw)   // drains the queue itself
            } else {
                try asyncResume(r[4], argument, mode: kind == 2 ? .next : .throw)
            }
            return
        }
        let handler = r[4]
        var result = argument
        var failed = kind == 1
        if !handler.isUndefined {
            do {
                result = try call(handler, this: .undefined, argument)
                failed = false
            } catch {
                result = error.value
                failed = true
            }
        }
        let capPromise = r[1]
        if capPromise.isUndefined { return }
        _ = try call(failed ? r[3] : r[2], this: .undefined, result)
    }

    /// Queues a call of `f` (no arguments) as a microtask, after the jobs already queued
    /// (HTML's queueMicrotask: an exception it throws propagates out of `runJobs`).
    public func enqueueMicrotask(_ f: Value) throws(JSException) {
        try enqueueJob(2, f, .undefined, .undefined)
    }

    // MARK: - Unhandled rejections (HostPromiseRejectionTracker)

    func trackRejection(_ p: JSObject) throws(JSException) {
        heap.pushRoot(Value(cell: p.cell))
        defer { heap.popRoots(1) }
        if realm.rejectedPromises == nil { realm.rejectedPromises = try newArray() }
        let list = realm.rejectedPromises!
        try createDataProperty(list, .index(list.arrayLength), Value(cell: p.cell))
    }

    /// The reasons of promises rejected with no handler that still have none (a handler
    /// attached since, as by a later `.catch`, takes a promise off), in rejection order;
    /// each is reported once. `report` runs with the reason kept alive.
    public func takeUnhandledRejections(_ report: (Value) -> Void) {
        guard let list = realm.rejectedPromises, list.arrayLength > 0 else { return }
        realm.rejectedPromises = nil
        heap.pushRoot(Value(cell: list.cell))
        defer { heap.popRoots(1) }
        for i in 0..<Int(list.arrayLength) {
            let p = JSObject(list.elements![i])
            if p.word(0) & Runtime.promiseHandledBit == 0 { report(p.extraValue(1)) }
        }
    }

    func promiseResolveThenableJob(_ promise: JSObject, _ thenable: Value, _ then: Value) throws(JSException) {
        let (resolve, reject) = try createResolvingFunctions(promise)
        heap.pushRoot(resolve)
        heap.pushRoot(reject)
        defer { heap.popRoots(2) }
        do {
            _ = try call(then, this: thenable, resolve, reject)
        } catch {
            _ = try call(reject, this: .undefined, error.value)
        }
    }

    // MARK: - Resolving

    func createResolvingFunctions(_ promise: JSObject) throws(JSException) -> (Value, Value) {
        let flag = try record(.false)
        heap.pushRoot(Value(cell: flag.cell))
        defer { heap.popRoots(1) }
        let resolve = try makeNativeFunction(index: promiseResolveFunctionIndex, name: "", length: 1)
        resolve.setExtraValue(1, Value(cell: promise.cell))
        resolve.setExtraValue(2, Value(cell: flag.cell))
        heap.pushRoot(Value(cell: resolve.cell))
        defer { heap.popRoots(1) }
        let reject = try makeNativeFunction(index: promiseRejectFunctionIndex, name: "", length: 1)
        reject.setExtraValue(1, Value(cell: promise.cell))
        reject.setExtraValue(2, Value(cell: flag.cell))
        return (Value(cell: resolve.cell), Value(cell: reject.cell))
    }

    /// The [[Resolve]] steps (https://tc39.es/ecma262/#sec-promise-resolve-functions).
    func resolvePromise(_ promise: JSObject, _ resolution: Value) throws(JSException) {
        if resolution.bits == Value(cell: promise.cell).bits {
            try rejectPromise(promise, try newError(.typeError, "Chaining cycle detected for promise"))
            return
        }
        guard isObject(resolution) else { try fulfillPromise(promise, resolution); return }
        let then: Value
        do {
            then = try get(JSObject(resolution), key(static: "then"), receiver: resolution)
        } catch {
            try rejectPromise(promise, error.value)
            return
        }
        guard isCallable(then) else { try fulfillPromise(promise, resolution); return }
        try enqueueJob(1, Value(cell: promise.cell), resolution, then)
    }

    func fulfillPromise(_ p: JSObject, _ value: Value) throws(JSException) {
        try settle(p, value, .fulfilled)
    }

    func rejectPromise(_ p: JSObject, _ reason: Value) throws(JSException) {
        try settle(p, reason, .rejected)
    }

    func settle(_ p: JSObject, _ value: Value, _ state: PromiseState) throws(JSException) {
        guard promiseState(p) == .pending else { return }
        let reactions = p.extraValue(2)
        p.setExtraValue(1, value)
        p.setExtraValue(2, .undefined)
        p.setWord(0, state.rawValue | (p.word(0) & Runtime.promiseHandledBit))
        heap.pushRoot(reactions)
        heap.pushRoot(value)
        defer { heap.popRoots(2) }
        if state == .rejected && tracksRejections && p.word(0) & Runtime.promiseHandledBit == 0 {
            try trackRejection(p)
        }
        guard isObject(reactions) else { return }
        let list = JSObject(reactions)
        for i in 0..<Int(list.arrayLength) {
            let rec = JSObject(list.elements![i])
            let kind = rec.elements![0].asInt32
            // Each record serves both outcomes: pick the one for this state.
            let wantsReject = kind & 1 == 1
            if wantsReject == (state == .rejected) {
                try enqueueJob(0, Value(cell: rec.cell), value, .undefined)
            }
        }
    }

    /// PerformPromiseThen with handlers (kind 0/1 records) or an async resumption (2/3).
    func performPromiseThen(_ p: JSObject, onFulfilled: Value, onRejected: Value,
                            capability: (Value, Value, Value)?, asyncGenerator: Value? = nil,
                            awaitReturn: Bool = false) throws(JSException) {
        let cap = capability ?? (.undefined, .undefined, .undefined)
        let fulfillRecord: JSObject
        let rejectRecord: JSObject
        if let g = asyncGenerator {
            let base: Int32 = awaitReturn ? 4 : 2
            fulfillRecord = try record(Value(int32: base), .undefined, .undefined, .undefined, g)
            heap.pushRoot(Value(cell: fulfillRecord.cell))
            rejectRecord = try record(Value(int32: base + 1), .undefined, .undefined, .undefined, g)
        } else {
            fulfillRecord = try record(Value(int32: 0), cap.0, cap.1, cap.2, isCallable(onFulfilled) ? onFulfilled : .undefined)
            heap.pushRoot(Value(cell: fulfillRecord.cell))
            rejectRecord = try record(Value(int32: 1), cap.0, cap.1, cap.2, isCallable(onRejected) ? onRejected : .undefined)
        }
        heap.pushRoot(Value(cell: rejectRecord.cell))
        defer { heap.popRoots(2) }
        switch promiseState(p) {
        case .pending:
            let list = JSObject(p.extraValue(2))
            try createDataProperty(list, .index(list.arrayLength), Value(cell: fulfillRecord.cell))
            try createDataProperty(list, .index(list.arrayLength), Value(cell: rejectRecord.cell))
        case .fulfilled:
            try enqueueJob(0, Value(cell: fulfillRecord.cell), p.extraValue(1), .undefined)
        case .rejected:
            try enqueueJob(0, Value(cell: rejectRecord.cell), p.extraValue(1), .undefined)
        }
        p.setWord(0, p.word(0) | Runtime.promiseHandledBit)
    }

    /// NewPromiseCapability(C): (promise, resolve, reject).
    func newPromiseCapability(_ c: Value) throws(JSException) -> (Value, Value, Value) {
        if c.bits == Value(cell: realm.promiseConstructor.cell).bits {
            let p = try newPromiseObject()
            heap.pushRoot(Value(cell: p.cell))
            defer { heap.popRoots(1) }
            let (res, rej) = try createResolvingFunctions(p)
            return (Value(cell: p.cell), res, rej)
        }
        guard isConstructor(c) else { throw try typeError("\(try describeForError(c)) is not a constructor") }
        // The executor records resolve/reject in a holder array: [resolve, reject].
        let holder = try record(.undefined, .undefined)
        heap.pushRoot(Value(cell: holder.cell))
        defer { heap.popRoots(1) }
        let executor = try makeNativeFunction(index: capabilityExecutorIndex, name: "", length: 2)
        executor.setExtraValue(1, Value(cell: holder.cell))
        heap.pushRoot(Value(cell: executor.cell))
        defer { heap.popRoots(1) }
        var arg = Value(cell: executor.cell)
        let promise = try withUnsafePointer(to: &arg) { p throws(JSException) in
            try construct(c, UnsafeBufferPointer(start: p, count: 1), newTarget: c)
        }
        let h = holder.elements!
        guard isCallable(h[0]) else { throw try typeError("Promise resolve function is not callable") }
        guard isCallable(h[1]) else { throw try typeError("Promise reject function is not callable") }
        return (promise, h[0], h[1])
    }

    func isConstructor(_ v: Value) -> Bool { isObject(v) && JSObject(v).flags & ObjectFlags.constructor != 0 }

    /// PromiseResolve(C, x).
    func promiseResolve(_ c: Value, _ x: Value) throws(JSException) -> Value {
        if isPromise(x) {
            let ctor = try get(JSObject(x), key(static: "constructor"), receiver: x)
            if ctor.bits == c.bits { return x }
        }
        let cap = try newPromiseCapability(c)
        _ = try call(cap.1, this: .undefined, x)
        return cap.0
    }

    // MARK: - Async functions

    /// `generatorStart` in an async function: suspends the frame in an internal generator,
    /// runs the body to its first `await`, and returns the function's promise.
    func startAsyncFunction(_ gen: JSObject) throws(JSException) -> Value {
        let promise = try newPromiseObject()
        gen.setExtraValue(2, Value(cell: promise.cell))
        heap.pushRoot(Value(cell: gen.cell))
        defer { heap.popRoots(1) }
        try asyncResume(Value(cell: gen.cell), .undefined, mode: .next)
        return Value(cell: promise.cell)
    }

    /// Resumes an async function after an await (or at its start); settles its promise
    /// when the body returns or throws.
    func asyncResume(_ gv: Value, _ value: Value, mode: ResumeMode) throws(JSException) {
        let g = JSObject(gv)
        let promise = JSObject(g.extraValue(2))
        let result: Value
        do {
            result = try generatorResume(gv, value, mode: mode, method: "async function", wrap: false)
        } catch {
            try rejectPromise(promise, error.value)
            return
        }
        if generatorState(g) == .completed { try resolvePromise(promise, result) }
    }

    /// The `await` instruction's suspension: resume `gen` when `value` settles.
    func awaitValue(_ gen: JSObject, _ value: Value) throws(JSException) {
        let p = try promiseResolve(Value(cell: realm.promiseConstructor.cell), value)
        try performPromiseThen(JSObject(p), onFulfilled: .undefined, onRejected: .undefined, capability: nil,
                               asyncGenerator: Value(cell: gen.cell))
    }

    // MARK: - Builtins

    func thisPromise(_ v: Value, _ method: String) throws(JSException) -> JSObject {
        guard isPromise(v) else { throw try typeError("Method Promise.prototype.\(method) called on incompatible receiver \(try describeForError(v))") }
        return JSObject(v)
    }

    func installPromise() throws(JSException) {
        let body1: NativeFunction = { rt, _, args, _ throws(JSException) -> Value in
            let f = JSObject(rt.nativeCallee)
            let flag = JSObject(f.extraValue(2))
            if flag.elements![0].bits == Value.true.bits { return .undefined }
            flag.elements![0] = .true
            try rt.resolvePromise(JSObject(f.extraValue(1)), rt.arg(args, 0))
            return .undefined
        }
        natives.append(body1)
        promiseResolveFunctionIndex = natives.count - 1
        let body2: NativeFunction = { rt, _, args, _ throws(JSException) -> Value in
            let f = JSObject(rt.nativeCallee)
            let flag = JSObject(f.extraValue(2))
            if flag.elements![0].bits == Value.true.bits { return .undefined }
            flag.elements![0] = .true
            try rt.rejectPromise(JSObject(f.extraValue(1)), rt.arg(args, 0))
            return .undefined
        }
        natives.append(body2)
        promiseRejectFunctionIndex = natives.count - 1
        let body3: NativeFunction = { rt, _, args, _ throws(JSException) -> Value in
            let holder = JSObject(JSObject(rt.nativeCallee).extraValue(1))
            let h = holder.elements!
            if !h[0].isUndefined { throw try rt.typeError("Promise executor has already been invoked with non-undefined arguments") }
            if !h[1].isUndefined { throw try rt.typeError("Promise executor has already been invoked with non-undefined arguments") }
            h[0] = rt.arg(args, 0)
            h[1] = rt.arg(args, 1)
            return .undefined
        }
        natives.append(body3)
        capabilityExecutorIndex = natives.count - 1

        realm.jobQueue = try newArray()
        let proto = try newObject()
        realm.promisePrototype = proto
        let ctor = try makeNativeFunction("Promise", length: 1, isConstructor: true) { rt, _, args, newTarget throws(JSException) in
            if newTarget.isUndefined { throw try rt.typeError("Promise constructor cannot be invoked without 'new'") }
            let executor = rt.arg(args, 0)
            guard rt.isCallable(executor) else { throw try rt.typeError("Promise resolver \(try rt.describeForError(executor)) is not a function") }
            let protoValue = Value(cell: try rt.prototypeFromConstructor(newTarget, rt.realm.promisePrototype).cell)
            let p = try rt.newPromiseObject(prototype: JSObject(protoValue))
            rt.heap.pushRoot(Value(cell: p.cell))
            defer { rt.heap.popRoots(1) }
            let (res, rej) = try rt.createResolvingFunctions(p)
            do throws(JSException) {
                _ = try rt.call(executor, this: .undefined, res, rej)
            } catch {
                _ = try rt.call(rej, this: .undefined, error.value)
            }
            return Value(cell: p.cell)
        }
        realm.promiseConstructor = ctor
        try defineOwnProperty(ctor, key(static: "prototype"), .data(Value(cell: proto.cell), []))
        try defineOwnProperty(proto, key(static: "constructor"), .data(Value(cell: ctor.cell), .hidden))
        try defineOwnProperty(proto, symbolKey(wellKnown.toStringTag), .data(try makeString("Promise"), [.configurable]))
        let species = try makeNativeFunction("get [Symbol.species]", length: 0) { _, this, _, _ throws(JSException) in this }
        try defineOwnProperty(ctor, symbolKey(wellKnown.species), PropertyDescriptor(get: Value(cell: species.cell), set: .undefined,
                                                                                      enumerable: false, configurable: true))
        try put(realm.global, "Promise", Value(cell: ctor.cell))

        try method(proto, "then", 2) { rt, this, args, _ throws(JSException) in
            let p = try rt.thisPromise(this, "then")
            let c = try rt.speciesConstructor(p, defaultConstructor: Value(cell: rt.realm.promiseConstructor.cell))
            let cap = try rt.newPromiseCapability(c)
            try rt.performPromiseThen(p, onFulfilled: rt.arg(args, 0), onRejected: rt.arg(args, 1), capability: cap)
            return cap.0
        }
        try method(proto, "catch", 1) { rt, this, args, _ throws(JSException) in
            let then = try rt.getV(this, rt.key(static: "then"))
            return try rt.call(then, this: this, .undefined, rt.arg(args, 0))
        }
        try method(proto, "finally", 1) { rt, this, args, _ throws(JSException) in
            guard rt.isObject(this) else { throw try rt.typeError("Promise.prototype.finally called on a non-object") }
            let c = try rt.speciesConstructor(JSObject(this), defaultConstructor: Value(cell: rt.realm.promiseConstructor.cell))
            let onFinally = rt.arg(args, 0)
            var thenFinally = onFinally, catchFinally = onFinally
            if rt.isCallable(onFinally) {
                let tf = try rt.makeNativeFunction(index: rt.finallyFunctionIndex, name: "", length: 1)
                tf.setExtraValue(1, onFinally); tf.setExtraValue(2, c)
                rt.heap.pushRoot(Value(cell: tf.cell))
                defer { rt.heap.popRoots(1) }
                let cf = try rt.makeNativeFunction(index: rt.finallyFunctionIndex + 1, name: "", length: 1)
                cf.setExtraValue(1, onFinally); cf.setExtraValue(2, c)
                thenFinally = Value(cell: tf.cell); catchFinally = Value(cell: cf.cell)
                let then = try rt.getV(this, rt.key(static: "then"))
                return try rt.call(then, this: this, thenFinally, catchFinally)
            }
            let then = try rt.getV(this, rt.key(static: "then"))
            return try rt.call(then, this: this, thenFinally, catchFinally)
        }
        // thenFinally / catchFinally and their value thunks.
        let body4: NativeFunction = { rt, _, args, _ throws(JSException) -> Value in
            let f = JSObject(rt.nativeCallee)
            let result = try rt.call(f.extraValue(1), this: .undefined)
            let p = try rt.promiseResolve(f.extraValue(2), result)
            let thunk = try rt.makeNativeFunction(index: rt.finallyFunctionIndex + 2, name: "", length: 0)
            thunk.setExtraValue(1, rt.arg(args, 0))
            return try rt.call(try rt.getV(p, rt.key(static: "then")), this: p, Value(cell: thunk.cell))
        }
        natives.append(body4)
        finallyFunctionIndex = natives.count - 1
        let body5: NativeFunction = { rt, _, args, _ throws(JSException) -> Value in
            let f = JSObject(rt.nativeCallee)
            let result = try rt.call(f.extraValue(1), this: .undefined)
            let p = try rt.promiseResolve(f.extraValue(2), result)
            let thrower = try rt.makeNativeFunction(index: rt.finallyFunctionIndex + 3, name: "", length: 0)
            thrower.setExtraValue(1, rt.arg(args, 0))
            return try rt.call(try rt.getV(p, rt.key(static: "then")), this: p, Value(cell: thrower.cell))
        }
        let body6: NativeFunction = { rt, _, _, _ throws(JSException) -> Value in JSObject(rt.nativeCallee).extraValue(1) }
        let body7: NativeFunction = { rt, _, _, _ throws(JSException) -> Value in throw JSException(value: JSObject(rt.nativeCallee).extraValue(1)) }
        natives.append(body5)
        natives.append(body6)
        natives.append(body7)

        try method(ctor, "resolve", 1) { rt, this, args, _ throws(JSException) in
            guard rt.isObject(this) else { throw try rt.typeError("PromiseResolve called on non-object") }
            return try rt.promiseResolve(this, rt.arg(args, 0))
        }
        try method(ctor, "reject", 1) { rt, this, args, _ throws(JSException) in
            let cap = try rt.newPromiseCapability(this)
            _ = try rt.call(cap.2, this: .undefined, rt.arg(args, 0))
            return cap.0
        }
        try method(ctor, "withResolvers", 0) { rt, this, _, _ throws(JSException) in
            let cap = try rt.newPromiseCapability(this)
            let o = try rt.newObject()
            try rt.createDataProperty(o, rt.key(static: "promise"), cap.0)
            try rt.createDataProperty(o, rt.key(static: "resolve"), cap.1)
            try rt.createDataProperty(o, rt.key(static: "reject"), cap.2)
            return Value(cell: o.cell)
        }
        try installPromiseCombinators(ctor)
    }

    /// SpeciesConstructor(O, defaultConstructor).
    func speciesConstructor(_ o: JSObject, defaultConstructor: Value) throws(JSException) -> Value {
        let c = try get(o, key(static: "constructor"), receiver: Value(cell: o.cell))
        if c.isUndefined { return defaultConstructor }
        guard isObject(c) else { throw try typeError("object.constructor is not an object") }
        let s = try get(JSObject(c), symbolKey(wellKnown.species), receiver: c)
        if s.isNullish { return defaultConstructor }
        if isConstructor(s) { return s }
        throw try typeError("object.constructor[Symbol.species] is not a constructor")
    }

    /// A native function object for an already registered body (closure state lives in
    /// the object's words 1 and 2, which the collector traces).
    func makeNativeFunction(index: Int, name: String, length: Int) throws(JSException) -> JSObject {
        let f = try allocateObject(.nativeFunction, shape: realm.functionShape)
        f.setWord(0, UInt64(index))
        f.setExtraValue(1, .undefined)
        f.setExtraValue(2, .undefined)
        heap.pushRoot(Value(cell: f.cell))
        defer { heap.popRoots(1) }
        try defineOwnProperty(f, key(static: "length"), .data(Value(length), [.configurable]))
        try defineOwnProperty(f, key(static: "name"), .data(try makeString(name), [.configurable]))
        return f
    }
}
