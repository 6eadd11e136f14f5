// Async generators (https://tc39.es/ecma262/#sec-asyncgenerator-objects) and the async
// iteration used by `for await`.
//
// An async generator is a generator object (Generators.swift) with `asyncGeneratorBit`
// set; its word 2 is the request queue, a JS array of requests [mode, value, promise].
// The body suspends at `await` (with `awaitingBit`; a promise job resumes it) or at
// `yield` (which settles the head request's promise). `asyncGeneratorDrain` runs queued
// requests whenever the generator is not executing.

extension Runtime {
    static let asyncGeneratorBit: UInt64 = 0x200
    static let awaitingBit: UInt64 = 0x400
    /// Completed and awaiting a `return` request's value.
    static let awaitingReturnBit: UInt64 = 0x800

    func isAsyncGenerator(_ g: JSObject) -> Bool { g.word(0) & Runtime.asyncGeneratorBit != 0 }

    func asyncGeneratorEnqueue(_ gv: Value, _ value: Value, mode: ResumeMode) throws(JSException) -> Value {
        let promise = try newPromiseObject()
        heap.pushRoot(Value(cell: promise.cell))
        defer { heap.popRoots(1) }
        guard isObject(gv), JSObject(gv).kind == .generator, isAsyncGenerator(JSObject(gv)) else {
            try rejectPromise(promise, try newError(.typeError, "AsyncGenerator method called on incompatible receiver"))
            return Value(cell: promise.cell)
        }
        let g = JSObject(gv)
        let request = try record(Value(int32: mode.rawValue), value, Value(cell: promise.cell))
        let queue = JSObject(g.extraValue(2))
        try createDataProperty(queue, .index(queue.arrayLength), Value(cell: request.cell))
        if generatorState(g) != .executing && g.word(0) & (Runtime.awaitingReturnBit | Runtime.awaitingBit) == 0 {
            try asyncGeneratorDrain(g)
        }
        return Value(cell: promise.cell)
    }

    /// Removes the head request and settles its promise.
    func asyncGeneratorCompleteHead(_ g: JSObject, _ value: Value, done: Bool, rejected: Bool = false) throws(JSException) {
        let queue = JSObject(g.extraValue(2))
        guard queue.arrayLength > 0 else { return }
        let request = JSObject(queue.elements![0])
        heap.pushRoot(Value(cell: request.cell))
        defer { heap.popRoots(1) }
        let n = Int(queue.arrayLength)
        let e = queue.elements!
        for i in 1..<max(n, 1) { e[i - 1] = e[i] }
        e[n - 1] = .undefined
        queue.elementsLength = n - 1
        queue.arrayLength = UInt32(n - 1)
        let promise = JSObject(request.elements![2])
        if rejected {
            try rejectPromise(promise, value)
        } else {
            try resolvePromise(promise, try createIterResult(value, done: done))
        }
    }

    /// AsyncGeneratorResumeNext / AsyncGeneratorDrainQueue: runs requests until the
    /// generator is executing, awaiting, or the queue is empty.
    func asyncGeneratorDrain(_ g: JSObject) throws(JSException) {
        heap.pushRoot(Value(cell: g.cell))
        defer { heap.popRoots(1) }
        while true {
            let state = generatorState(g)
            if state == .executing || g.word(0) & (Runtime.awaitingReturnBit | Runtime.awaitingBit) != 0 { return }
            let queue = JSObject(g.extraValue(2))
            if queue.arrayLength == 0 { return }
            let request = JSObject(queue.elements![0])
            let mode = ResumeMode(rawValue: request.elements![0].asInt32) ?? .next
            let value = request.elements![1]
            if state == .suspendedStart && mode != .next {
                markCompleted(g)
            }
            if generatorState(g) == .completed {
                switch mode {
                case .next:
                    try asyncGeneratorCompleteHead(g, .undefined, done: true)
                case .throw:
                    try asyncGeneratorCompleteHead(g, value, done: true, rejected: true)
                case .return:
                    // Await the value, then settle the request with it.
                    g.setWord(0, g.word(0) | Runtime.awaitingReturnBit)
                    do throws(JSException) {
                        let p = try promiseResolve(Value(cell: realm.promiseConstructor.cell), value)
                        try performPromiseThen(JSObject(p), onFulfilled: .undefined, onRejected: .undefined, capability: nil,
                                               asyncGenerator: Value(cell: g.cell), awaitReturn: true)
                    } catch {
                        g.setWord(0, g.word(0) & ~Runtime.awaitingReturnBit)
                        try asyncGeneratorCompleteHead(g, error.value, done: true, rejected: true)
                        continue
                    }
                    return
                }
                continue
            }
            try asyncGeneratorRun(g, value, mode: mode)
        }
    }

    func markCompleted(_ g: JSObject) {
        g.setWord(0, GeneratorState.completed.rawValue | (g.word(0) & Runtime.asyncGeneratorBit))
        g.setExtraValue(1, .undefined)
    }

    /// The settled value of an awaited `return` request (reaction kinds 4/5).
    func asyncGeneratorAwaitReturnDone(_ gv: Value, _ value: Value, fulfilled: Bool) throws(JSException) {
        let g = JSObject(gv)
        g.setWord(0, g.word(0) & ~Runtime.awaitingReturnBit)
        try asyncGeneratorCompleteHead(g, value, done: true, rejected: !fulfilled)
        try asyncGeneratorDrain(g)
    }

    /// Runs the body from its suspension with (value, mode) until it awaits, yields,
    /// returns or throws, and settles requests accordingly.
    func asyncGeneratorRun(_ g: JSObject, _ value: Value, mode: ResumeMode) throws(JSException) {
        let gv = Value(cell: g.cell)
        heap.pushRoot(gv)
        defer { heap.popRoots(1) }
        let result: Value
        do {
            result = try generatorResume(gv, value, mode: mode, method: "AsyncGenerator", wrap: false)
        } catch {
            markCompleted(g)
            try asyncGeneratorCompleteHead(g, error.value, done: true, rejected: true)
            try asyncGeneratorDrain(g)
            return
        }
        let w = g.word(0)
        if w & Runtime.awaitingBit != 0 { return }          // suspended at an await
        if GeneratorState(rawValue: w & 0xFF) == .completed {
            try asyncGeneratorCompleteHead(g, result, done: true)
        } else {
            try asyncGeneratorCompleteHead(g, result, done: false)   // a yield
        }
        try asyncGeneratorDrain(g)
    }

    // MARK: - Async iteration (for await)

    /// GetIterator(obj, async): @@asyncIterator, else the sync iterator wrapped by
    /// CreateAsyncFromSyncIterator.
    func getAsyncIterator(_ v: Value) throws(JSException) -> IteratorRecord {
        if let m = try getMethod(v, symbolKey(wellKnown.asyncIterator)) {
            return try getIteratorFromMethod(v, m)
        }
        let sync = try getIterator(v)
        let wrapper = try allocateObject(.iterator, shape: try rootShape(for: Value(cell: realm.asyncFromSyncIteratorPrototype.cell)))
        wrapper.setExtraValue(1, sync.iterator)
        wrapper.setExtraValue(2, sync.next)
        heap.pushRoot(Value(cell: wrapper.cell))
        defer { heap.popRoots(1) }
        let next = try get(realm.asyncFromSyncIteratorPrototype, key(static: "next"), receiver: Value(cell: wrapper.cell))
        return IteratorRecord(iterator: Value(cell: wrapper.cell), next: next, done: false)
    }

    /// %AsyncFromSyncIteratorPrototype% methods: step the sync iterator, then resolve a
    /// promise with its value awaited (AsyncFromSyncIteratorContinuation).
    func asyncFromSync(_ this: Value, _ args: UnsafeBufferPointer<Value>, method: String) throws(JSException) -> Value {
        let promise = try newPromiseObject()
        heap.pushRoot(Value(cell: promise.cell))
        defer { heap.popRoots(1) }
        do throws(JSException) {
            let w = JSObject(this)
            let iterator = w.extraValue(1)
            var result: Value
            // An absent argument is not passed on (the sync method sees no arguments).
            if method == "next" {
                result = args.count > 0 ? try call(w.extraValue(2), this: iterator, args[0]) : try call(w.extraValue(2), this: iterator)
            } else {
                guard let m = try getMethod(iterator, key(method)) else {
                    if method == "return" {
                        try resolvePromise(promise, try createIterResult(arg(args, 0), done: true))
                        return Value(cell: promise.cell)
                    }
                    // throw without a throw method: close the iterator, then a TypeError.
                    try iteratorClose(IteratorRecord(iterator: iterator, next: .undefined, done: false))
                    throw try typeError("The iterator does not provide a 'throw' method")
                }
                result = args.count > 0 ? try call(m, this: iterator, args[0]) : try call(m, this: iterator)
            }
            guard isObject(result) else { throw try typeError("Iterator result \(try describeForError(result)) is not an object") }
            heap.pushRoot(result)
            defer { heap.popRoots(1) }
            let done = toBoolean(try get(JSObject(result), key(static: "done"), receiver: result))
            let value = try get(JSObject(result), key(static: "value"), receiver: result)
            // next and throw close the sync iterator when the value is a rejected promise
            // (or cannot be made one); return does not.
            let closeOnRejection = !done && method != "return"
            let valueWrapper: Value
            do throws(JSException) {
                valueWrapper = try promiseResolve(Value(cell: realm.promiseConstructor.cell), value)
            } catch {
                if closeOnRejection { iteratorCloseOnThrow(IteratorRecord(iterator: iterator, next: .undefined, done: false)) }
                throw error
            }
            heap.pushRoot(valueWrapper)
            defer { heap.popRoots(1) }
            var onRejected = Value.undefined
            if closeOnRejection {
                let c = try makeNativeFunction(index: asyncFromSyncCloseIndex, name: "", length: 1)
                c.setExtraValue(1, iterator)
                onRejected = Value(cell: c.cell)
            }
            heap.pushRoot(onRejected)
            defer { heap.popRoots(1) }
            // Unwrap: resolve with { value: awaited, done } once valueWrapper settles.
            let f = try makeNativeFunction(index: asyncFromSyncUnwrapIndex, name: "", length: 1)
            f.setExtraValue(1, Value(done))
            heap.pushRoot(Value(cell: f.cell))
            defer { heap.popRoots(1) }
            let (res, rej) = try createResolvingFunctions(promise)
            heap.pushRoot(res); heap.pushRoot(rej)
            defer { heap.popRoots(2) }
            let chained = try newPromiseObject()
            heap.pushRoot(Value(cell: chained.cell))
            defer { heap.popRoots(1) }
            try performPromiseThen(JSObject(valueWrapper), onFulfilled: Value(cell: f.cell), onRejected: onRejected,
                                   capability: (Value(cell: chained.cell), res, rej))
        } catch {
            try rejectPromise(promise, error.value)
        }
        return Value(cell: promise.cell)
    }

    func installAsyncGenerators() throws(JSException) {
        let unwrap: NativeFunction = { rt, _, args, _ throws(JSException) -> Value in
            let done = JSObject(rt.nativeCallee).extraValue(1)
            return try rt.createIterResult(rt.arg(args, 0), done: rt.toBoolean(done))
        }
        natives.append(unwrap)
        asyncFromSyncUnwrapIndex = natives.count - 1
        // The value of a sync iterator's step was rejected: close the iterator, pass the error on.
        natives.append { rt, _, args, _ throws(JSException) -> Value in
            let iterator = JSObject(rt.nativeCallee).extraValue(1)
            rt.iteratorCloseOnThrow(IteratorRecord(iterator: iterator, next: .undefined, done: false))
            throw JSException(value: rt.arg(args, 0))
        }
        asyncFromSyncCloseIndex = natives.count - 1

        let asyncIteratorProto = try newObject()
        let selfFn = try makeNativeFunction("[Symbol.asyncIterator]", length: 0) { _, this, _, _ throws(JSException) in this }
        try defineOwnProperty(asyncIteratorProto, symbolKey(wellKnown.asyncIterator), .data(Value(cell: selfFn.cell), .hidden))
        realm.asyncIteratorPrototype = asyncIteratorProto

        let agfProto = try newObject(prototype: realm.functionPrototype)
        let agProto = try newObject(prototype: asyncIteratorProto)
        realm.asyncGeneratorFunctionPrototype = agfProto
        realm.asyncGeneratorPrototype = agProto
        realm.asyncGeneratorFunctionShape = try rootShape(for: Value(cell: agfProto.cell))
        try defineOwnProperty(agfProto, key(static: "prototype"), .data(Value(cell: agProto.cell), [.configurable]))
        try defineOwnProperty(agProto, key(static: "constructor"), .data(Value(cell: agfProto.cell), [.configurable]))
        try defineOwnProperty(agfProto, symbolKey(wellKnown.toStringTag), .data(try makeString("AsyncGeneratorFunction"), [.configurable]))
        try defineOwnProperty(agProto, symbolKey(wellKnown.toStringTag), .data(try makeString("AsyncGenerator"), [.configurable]))
        try method(agProto, "next", 1) { rt, this, args, _ throws(JSException) in
            try rt.asyncGeneratorEnqueue(this, rt.arg(args, 0), mode: .next)
        }
        try method(agProto, "return", 1) { rt, this, args, _ throws(JSException) in
            try rt.asyncGeneratorEnqueue(this, rt.arg(args, 0), mode: .return)
        }
        try method(agProto, "throw", 1) { rt, this, args, _ throws(JSException) in
            try rt.asyncGeneratorEnqueue(this, rt.arg(args, 0), mode: .throw)
        }

        let afs = try newObject(prototype: asyncIteratorProto)
        realm.asyncFromSyncIteratorPrototype = afs
        for name in ["next", "return", "throw"] {
            try method(afs, name, 1) { rt, this, args, _ throws(JSException) in try rt.asyncFromSync(this, args, method: name) }
        }
    }
}
