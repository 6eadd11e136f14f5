// Explicit resource management, the asynchronous part and the `using` declarations:
// the opcodes of a using scope (addDisposable, disposeResources, disposeResourcesAsync),
// DisposeResources with awaits (a native loop over promise reactions), AsyncDisposableStack
// and %AsyncIteratorPrototype%[@@asyncDispose].
//
// A using scope's resources are a private JS array in a register, in the layout of a
// DisposableStack's list: (this, method, flags, argument) quadruples.
//
// An asynchronous disposal in progress is a state array (`AsyncDisposeSlot`); the step
// function (a native function holding the state in word 1 and whether it is the rejection
// handler in word 2) continues it when an awaited promise settles.
//
// An AsyncDisposableStack is laid out as a DisposableStack (kind `.iterator`,
// `ResourceFlags.disposableStack`, word 1 its list) with the int32 0 in word 2 while
// pending and 1 once disposed (a DisposableStack holds booleans there).

enum AsyncDisposeSlot {
    static let list = 0
    /// The index of the next resource (counting down; -1: none left).
    static let index = 1
    /// The error so far (the completion's, then SuppressedErrors), valid when hasError.
    static let error = 2
    static let hasError = 3
    static let needsAwait = 4
    static let hasAwaited = 5
    /// The promise the disposal settles.
    static let promise = 6
    static let count = 7
}

extension Runtime {
    // MARK: - using declarations

    /// `using x = v` / `await using x = v`: CreateDisposableResource and AddDisposableResource.
    func addDisposableResource(_ listValue: Value, _ v: Value, async: Bool) throws(JSException) {
        let list = JSObject(listValue)
        if v.isNullish {
            // `using` ignores null and undefined; `await using` still awaits once at the end.
            if async { try appendResource(list, this: .undefined, method: .undefined, argument: nil, async: true) }
            return
        }
        guard isObject(v) else {
            throw try typeError("\(async ? "await using" : "using") declaration: \(try describeForError(v)) is not an object")
        }
        let method = try disposeMethod(v, async: async)
        try appendResource(list, this: v, method: method, argument: nil, async: async)
    }

    /// GetDisposeMethod: @@asyncDispose (else @@dispose, wrapped to return a promise) for
    /// the async hint, @@dispose for the sync one; a TypeError when there is none.
    func disposeMethod(_ v: Value, async: Bool) throws(JSException) -> Value {
        if async {
            if let m = try getMethod(v, symbolKey(wellKnown.asyncDispose)) { return m }
            if let m = try getMethod(v, symbolKey(wellKnown.dispose)) {
                heap.pushRoot(m)
                defer { heap.popRoots(1) }
                let w = try makeNativeFunction(index: asyncDisposeSyncWrapperIndex, name: "", length: 0)
                w.setExtraValue(1, m)
                return Value(cell: w.cell)
            }
            throw try typeError("\(try describeForError(v)) has neither a [Symbol.asyncDispose] nor a [Symbol.dispose] method")
        }
        guard let m = try getMethod(v, symbolKey(wellKnown.dispose)) else {
            throw try typeError("\(try describeForError(v)) has no [Symbol.dispose] method")
        }
        return m
    }

    /// The end of a `using` scope: DisposeResources with the scope's completion (kind 1:
    /// `value` was thrown); throws the resulting error, if any.
    func disposeUsingScope(_ listValue: Value, kind: Value, value: Value) throws(JSException) {
        let list = JSObject(listValue)
        if list.arrayLength == 0 { return }
        try disposeResources(list, kind.isInt32 && kind.asInt32 == 1 ? JSException(value: value) : nil)
    }

    /// The end of an `await using` scope: starts DisposeResources; returns the promise the
    /// code awaits (it settles with the completion's result), or undefined when nothing
    /// needed an await (then the result is thrown or returned here).
    func disposeUsingScopeAsync(_ listValue: Value, kind: Value, value: Value) throws(JSException) -> Value {
        let list = JSObject(listValue)
        if list.arrayLength == 0 { return .undefined }
        let thrown = kind.isInt32 && kind.asInt32 == 1
        let depth = heap.extraRootCount
        defer { heap.popRoots(to: depth) }
        let state = try makeAsyncDisposeState(list, error: thrown ? value : nil)
        heap.pushRoot(Value(cell: state.cell))
        if try asyncDisposeRun(state) { return state.elements![AsyncDisposeSlot.promise] }
        let e = state.elements!
        if e[AsyncDisposeSlot.hasError].bits == Value.true.bits { throw JSException(value: e[AsyncDisposeSlot.error]) }
        return .undefined
    }

    func makeAsyncDisposeState(_ list: JSObject, error: Value?) throws(JSException) -> JSObject {
        heap.pushRoot(Value(cell: list.cell))
        if let error { heap.pushRoot(error) } else { heap.pushRoot(.undefined) }
        defer { heap.popRoots(2) }
        let promise = try newPromiseObject()
        heap.pushRoot(Value(cell: promise.cell))
        defer { heap.popRoots(1) }
        let state = try newArray(capacity: AsyncDisposeSlot.count)
        state.elementsLength = AsyncDisposeSlot.count
        state.arrayLength = UInt32(AsyncDisposeSlot.count)
        let e = state.elements!
        e[AsyncDisposeSlot.list] = Value(cell: list.cell)
        e[AsyncDisposeSlot.index] = Value(int32: Int32(list.arrayLength / 4) - 1)
        e[AsyncDisposeSlot.error] = error ?? .undefined
        e[AsyncDisposeSlot.hasError] = Value(error != nil)
        e[AsyncDisposeSlot.needsAwait] = .false
        e[AsyncDisposeSlot.hasAwaited] = .false
        e[AsyncDisposeSlot.promise] = Value(cell: promise.cell)
        return state
    }

    /// Records an error of a disposal (a second one wraps the first in a SuppressedError).
    func asyncDisposeRecord(_ state: JSObject, _ error: Value) throws(JSException) {
        let e = state.elements!
        if e[AsyncDisposeSlot.hasError].bits == Value.true.bits {
            let s = try makeSuppressedError(error, e[AsyncDisposeSlot.error])
            state.elements![AsyncDisposeSlot.error] = s
        } else {
            e[AsyncDisposeSlot.error] = error
            e[AsyncDisposeSlot.hasError] = .true
        }
    }

    /// Suspends the disposal until `value` settles (Await).
    func asyncDisposeAwait(_ state: JSObject, _ value: Value) throws(JSException) {
        let depth = heap.extraRootCount
        defer { heap.popRoots(to: depth) }
        heap.pushRoot(Value(cell: state.cell))
        let p: Value
        do throws(JSException) {
            p = try promiseResolve(Value(cell: realm.promiseConstructor.cell), value)
        } catch {
            // Await's PromiseResolve threw: the awaited result is that throw.
            try asyncDisposeRecord(state, error.value)
            p = Value(cell: try newPromiseObject().cell)
            try resolvePromise(JSObject(p), .undefined)
        }
        heap.pushRoot(p)
        let onFulfilled = try makeNativeFunction(index: asyncDisposeStepIndex, name: "", length: 1)
        onFulfilled.setExtraValue(1, Value(cell: state.cell))
        onFulfilled.setExtraValue(2, .false)
        heap.pushRoot(Value(cell: onFulfilled.cell))
        let onRejected = try makeNativeFunction(index: asyncDisposeStepIndex, name: "", length: 1)
        onRejected.setExtraValue(1, Value(cell: state.cell))
        onRejected.setExtraValue(2, .true)
        heap.pushRoot(Value(cell: onRejected.cell))
        try performPromiseThen(JSObject(p), onFulfilled: Value(cell: onFulfilled.cell),
                               onRejected: Value(cell: onRejected.cell), capability: nil)
    }

    /// Runs DisposeResources from where it stopped: true when it suspended at an await
    /// (it has then awaited at least once, so it settles its promise when done); false
    /// when it finished without awaiting (the caller reads the error from the state).
    @discardableResult
    func asyncDisposeRun(_ state: JSObject, settle: Bool = false) throws(JSException) -> Bool {
        let depth = heap.extraRootCount
        defer { heap.popRoots(to: depth) }
        heap.pushRoot(Value(cell: state.cell))
        while true {
            let e = state.elements!
            let i = Int(e[AsyncDisposeSlot.index].asInt32)
            if i < 0 { break }
            let list = JSObject(e[AsyncDisposeSlot.list])
            let r = list.elements!
            let this = r[4 * i], method = r[4 * i + 1], flags = r[4 * i + 2].asInt32, arg = r[4 * i + 3]
            let isAsync = flags & DisposeFlags.async != 0
            if !isAsync && e[AsyncDisposeSlot.needsAwait].bits == Value.true.bits
                && e[AsyncDisposeSlot.hasAwaited].bits != Value.true.bits {
                // Await(undefined) before a sync resource that follows a null `await using`.
                e[AsyncDisposeSlot.needsAwait] = .false
                try asyncDisposeAwait(state, .undefined)
                return true
            }
            e[AsyncDisposeSlot.index] = Value(int32: Int32(i - 1))
            if method.isUndefined {
                e[AsyncDisposeSlot.needsAwait] = .true
                continue
            }
            let result: Value
            do throws(JSException) {
                result = flags & DisposeFlags.hasArgument != 0 ? try call(method, this: this, arg) : try call(method, this: this)
            } catch {
                try asyncDisposeRecord(state, error.value)
                continue
            }
            if isAsync {
                state.elements![AsyncDisposeSlot.hasAwaited] = .true
                try asyncDisposeAwait(state, result)
                return true
            }
        }
        let e = state.elements!
        if e[AsyncDisposeSlot.needsAwait].bits == Value.true.bits && e[AsyncDisposeSlot.hasAwaited].bits != Value.true.bits {
            e[AsyncDisposeSlot.needsAwait] = .false
            e[AsyncDisposeSlot.hasAwaited] = .true
            try asyncDisposeAwait(state, .undefined)
            return true
        }
        if settle || e[AsyncDisposeSlot.hasAwaited].bits == Value.true.bits {
            let promise = JSObject(e[AsyncDisposeSlot.promise])
            if e[AsyncDisposeSlot.hasError].bits == Value.true.bits {
                try rejectPromise(promise, e[AsyncDisposeSlot.error])
            } else {
                try resolvePromise(promise, .undefined)
            }
            return true
        }
        return false
    }

    // MARK: - AsyncDisposableStack

    func thisAsyncDisposableStack(_ v: Value, _ method: String) throws(JSException) -> JSObject {
        guard isObject(v), JSObject(v).kind == .iterator,
              JSObject(v).flags & ResourceFlags.disposableStack == ResourceFlags.disposableStack,
              JSObject(v).extraValue(2).isInt32 else {
            throw try typeError("AsyncDisposableStack.prototype.\(method) called on incompatible receiver \(try describeForError(v))")
        }
        return JSObject(v)
    }

    func checkAsyncStackNotDisposed(_ s: JSObject, _ method: String) throws(JSException) {
        if s.extraValue(2).asInt32 != 0 {
            throw try referenceError("AsyncDisposableStack.prototype.\(method): the stack is already disposed")
        }
    }

    func makeAsyncDisposableStack(_ proto: JSObject) throws(JSException) -> JSObject {
        let s = try allocateObject(.iterator, shape: try rootShape(for: Value(cell: proto.cell)))
        s.flags |= ResourceFlags.disposableStack
        s.setExtraValue(1, .undefined)
        s.setExtraValue(2, Value(int32: 0))
        heap.pushRoot(Value(cell: s.cell))
        defer { heap.popRoots(1) }
        s.setExtraValue(1, Value(cell: try newArray().cell))
        return s
    }

    func installAsyncDisposal() throws(JSException) {
        // The step of an asynchronous disposal: word 1 the state, word 2 true for rejections.
        natives.append { rt, _, args, _ throws(JSException) -> Value in
            let f = JSObject(rt.nativeCallee)
            let state = JSObject(f.extraValue(1))
            if f.extraValue(2).bits == Value.true.bits { try rt.asyncDisposeRecord(state, rt.arg(args, 0)) }
            try rt.asyncDisposeRun(state, settle: true)
            return .undefined
        }
        asyncDisposeStepIndex = natives.count - 1
        // A @@dispose method used for `await using`: calls it, returns a promise of undefined.
        natives.append { rt, this, _, _ throws(JSException) -> Value in
            let method = JSObject(rt.nativeCallee).extraValue(1)
            let p = try rt.newPromiseObject()
            rt.heap.pushRoot(Value(cell: p.cell))
            defer { rt.heap.popRoots(1) }
            do throws(JSException) {
                _ = try rt.call(method, this: this)
            } catch {
                try rt.rejectPromise(p, error.value)
                return Value(cell: p.cell)
            }
            try rt.resolvePromise(p, .undefined)
            return Value(cell: p.cell)
        }
        asyncDisposeSyncWrapperIndex = natives.count - 1
        natives.append { _, _, _, _ throws(JSException) -> Value in .undefined }
        returnUndefinedIndex = natives.count - 1

        let proto = try newObject()
        heap.pushRoot(Value(cell: proto.cell))
        defer { heap.popRoots(1) }
        asyncDisposableStackPrototype = proto
        permanentRoots.append(Value(cell: proto.cell))
        _ = try constructor("AsyncDisposableStack", length: 0, prototype: proto) { rt, _, _, newTarget throws(JSException) in
            if newTarget.isUndefined { throw try rt.typeError("Constructor AsyncDisposableStack requires 'new'") }
            let p = try rt.prototypeFromConstructor(newTarget, rt.asyncDisposableStackPrototype!)
            return Value(cell: try rt.makeAsyncDisposableStack(p).cell)
        }
        try method(proto, "adopt", 2) { rt, this, args, _ throws(JSException) in
            let s = try rt.thisAsyncDisposableStack(this, "adopt")
            try rt.checkAsyncStackNotDisposed(s, "adopt")
            let f = rt.arg(args, 1)
            if !rt.isCallable(f) { throw try rt.typeError("AsyncDisposableStack.prototype.adopt: \(try rt.describeForError(f)) is not a function") }
            try rt.addResource(s, this: .undefined, method: f, argument: rt.arg(args, 0), async: true)
            return rt.arg(args, 0)
        }
        try method(proto, "defer", 1) { rt, this, args, _ throws(JSException) in
            let s = try rt.thisAsyncDisposableStack(this, "defer")
            try rt.checkAsyncStackNotDisposed(s, "defer")
            let f = rt.arg(args, 0)
            if !rt.isCallable(f) { throw try rt.typeError("AsyncDisposableStack.prototype.defer: \(try rt.describeForError(f)) is not a function") }
            try rt.addResource(s, this: .undefined, method: f, argument: nil, async: true)
            return .undefined
        }
        let disposeAsync = try method(proto, "disposeAsync", 0) { rt, this, _, _ throws(JSException) in
            let s: JSObject
            do throws(JSException) {
                s = try rt.thisAsyncDisposableStack(this, "disposeAsync")
            } catch {
                let p = try rt.newPromiseObject()
                try rt.rejectPromise(p, error.value)
                return Value(cell: p.cell)
            }
            if s.extraValue(2).asInt32 != 0 {
                let p = try rt.newPromiseObject()
                try rt.resolvePromise(p, .undefined)
                return Value(cell: p.cell)
            }
            s.setExtraValue(2, Value(int32: 1))
            let list = JSObject(s.extraValue(1))
            rt.heap.pushRoot(Value(cell: s.cell))
            defer { rt.heap.popRoots(1) }
            let state = try rt.makeAsyncDisposeState(list, error: nil)
            rt.heap.pushRoot(Value(cell: state.cell))
            defer { rt.heap.popRoots(1) }
            s.setExtraValue(1, Value(cell: try rt.newArray().cell))
            try rt.asyncDisposeRun(state, settle: true)
            return state.elements![AsyncDisposeSlot.promise]
        }
        try defineOwnProperty(proto, symbolKey(wellKnown.asyncDispose), .data(Value(cell: disposeAsync.cell), .hidden))
        try getter(proto, "disposed") { rt, this, _, _ throws(JSException) in
            Value(try rt.thisAsyncDisposableStack(this, "disposed").extraValue(2).asInt32 != 0)
        }
        try method(proto, "move", 0) { rt, this, _, _ throws(JSException) in
            let s = try rt.thisAsyncDisposableStack(this, "move")
            try rt.checkAsyncStackNotDisposed(s, "move")
            let n = try rt.makeAsyncDisposableStack(rt.asyncDisposableStackPrototype!)
            n.setExtraValue(1, s.extraValue(1))
            rt.heap.pushRoot(Value(cell: n.cell))
            defer { rt.heap.popRoots(1) }
            s.setExtraValue(1, Value(cell: try rt.newArray().cell))
            s.setExtraValue(2, Value(int32: 1))
            return Value(cell: n.cell)
        }
        try method(proto, "use", 1) { rt, this, args, _ throws(JSException) in
            let s = try rt.thisAsyncDisposableStack(this, "use")
            try rt.checkAsyncStackNotDisposed(s, "use")
            let v = rt.arg(args, 0)
            try rt.addDisposableResource(s.extraValue(1), v, async: true)
            return v
        }
        try defineOwnProperty(proto, symbolKey(wellKnown.toStringTag), .data(try makeString("AsyncDisposableStack"), [.configurable]))

        // %AsyncIteratorPrototype%[@@asyncDispose](): calls `return` and waits for it.
        try symbolMethod(realm.asyncIteratorPrototype, wellKnown.asyncDispose, 0) { rt, this, _, _ throws(JSException) in
            let p = try rt.newPromiseObject()
            rt.heap.pushRoot(Value(cell: p.cell))
            defer { rt.heap.popRoots(1) }
            do throws(JSException) {
                guard let ret = try rt.getMethod(this, rt.key(static: "return")) else {
                    try rt.resolvePromise(p, .undefined)
                    return Value(cell: p.cell)
                }
                let result = try rt.call(ret, this: this)   // no arguments (as %IteratorPrototype%[@@dispose])
                rt.heap.pushRoot(result)
                defer { rt.heap.popRoots(1) }
                let wrapped = try rt.promiseResolve(Value(cell: rt.realm.promiseConstructor.cell), result)
                rt.heap.pushRoot(wrapped)
                defer { rt.heap.popRoots(1) }
                let undefinedFn = try rt.makeNativeFunction(index: rt.returnUndefinedIndex, name: "", length: 1)
                rt.heap.pushRoot(Value(cell: undefinedFn.cell))
                defer { rt.heap.popRoots(1) }
                let (res, rej) = try rt.createResolvingFunctions(p)
                try rt.performPromiseThen(JSObject(wrapped), onFulfilled: Value(cell: undefinedFn.cell), onRejected: .undefined,
                                          capability: (Value(cell: p.cell), res, rej))
            } catch {
                try rt.rejectPromise(p, error.value)
            }
            return Value(cell: p.cell)
        }
    }
}
