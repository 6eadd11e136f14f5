// Generators (https://tc39.es/ecma262/#sec-generator-objects).
//
// A generator function runs its prologue (argument binding) when called, then
// `generatorStart` creates the generator object, saves the frame into it and returns it.
// `next`/`throw`/`return` push the saved frame back onto the register stack and run it
// from native code; `yield` saves the frame again and returns to that native caller.
//
// Generator objects (kind `.generator`): word 0 holds the state (low 8 bits) and whether
// the last suspension passes an iterator result through as is (`yield*`); word 1 is the
// saved frame, a JS array (so the collector traces it): the frame's registers, then
// this, callee, new.target, home object, environment, argc, environment depth, the
// register to resume into and the pc.

import JSBytecode

enum GeneratorState: UInt64 {
    case suspendedStart = 0, suspendedYield = 1, executing = 2, completed = 3
}

enum ResumeMode: Int32 { case next = 0, `throw` = 1, `return` = 2 }

extension Runtime {
    static let savedFrameExtras = 9
    static let rawYieldBit: UInt64 = 0x100

    func generatorState(_ g: JSObject) -> GeneratorState { GeneratorState(rawValue: g.word(0) & 0xFF) ?? .completed }
    func setGeneratorState(_ g: JSObject, _ s: GeneratorState, raw: Bool = false, awaiting: Bool = false) {
        g.setWord(0, s.rawValue | (raw ? Runtime.rawYieldBit : 0) | (awaiting ? Runtime.awaitingBit : 0)
                  | (g.word(0) & Runtime.asyncGeneratorBit))
    }

    /// `generatorStart`: the generator object for the current frame (prototype from the
    /// callee's `prototype` property, else %GeneratorPrototype%).
    func makeGeneratorObject(_ frame: UnsafeMutablePointer<Frame>) throws(JSException) -> Value {
        let callee = frame.pointee.callee
        let code = frame.pointee.data.takeUnretainedValue().code
        let isAsyncGen = code.isAsync && code.isGenerator
        var proto = Value.undefined
        if code.isGenerator {
            proto = try get(JSObject(callee), key(static: "prototype"), receiver: callee)
            if !isObject(proto) { proto = Value(cell: (isAsyncGen ? realm.asyncGeneratorPrototype : realm.generatorPrototype).cell) }
        } else {
            proto = Value(cell: realm.objectPrototype.cell)   // async functions: internal only
        }
        let g = try allocateObject(.generator, shape: try rootShape(for: proto))
        g.setWord(0, GeneratorState.suspendedStart.rawValue | (isAsyncGen ? Runtime.asyncGeneratorBit : 0))
        g.setExtraValue(1, .undefined)
        g.setExtraValue(2, .undefined)
        if isAsyncGen {
            heap.pushRoot(Value(cell: g.cell))
            defer { heap.popRoots(1) }
            g.setExtraValue(2, Value(cell: try newArray().cell))
        }
        return Value(cell: g.cell)
    }

    /// Saves `frame` (registers and state) into generator `g`, to resume at `pc`.
    func saveGeneratorFrame(_ g: JSObject, _ frame: UnsafeMutablePointer<Frame>, pc: Int, resumeRegister: Int) throws(JSException) {
        let f = frame.pointee
        let n = f.base.distance(to: f.top)
        let total = n + Runtime.savedFrameExtras
        var saved: JSObject
        if isObject(g.extraValue(1)), JSObject(g.extraValue(1)).elementsLength == total {
            saved = JSObject(g.extraValue(1))
        } else {
            heap.pushRoot(Value(cell: g.cell))
            defer { heap.popRoots(1) }
            saved = try newArray(capacity: total)
            saved.elementsLength = total
            saved.arrayLength = UInt32(total)
            g.setExtraValue(1, Value(cell: saved.cell))
        }
        let e = saved.elements!
        for i in 0..<n { e[i] = f.base[i] }
        e[n] = f.this
        e[n + 1] = f.callee
        e[n + 2] = f.newTarget
        e[n + 3] = f.home
        e[n + 4] = f.env.map { Value(cell: $0) } ?? .undefined
        e[n + 5] = Value(f.argc)
        e[n + 6] = Value(f.envDepth)
        e[n + 7] = Value(resumeRegister)
        e[n + 8] = Value(pc)
    }

    /// GeneratorResume / GeneratorResumeAbrupt: runs `g` until it yields, returns or throws.
    func generatorResume(_ gv: Value, _ value: Value, mode: ResumeMode, method: String, wrap: Bool = true) throws(JSException) -> Value {
        guard isObject(gv), JSObject(gv).kind == .generator else {
            throw try typeError("\(method) method called on incompatible receiver \(try describeForError(gv))")
        }
        let g = JSObject(gv)
        var state = generatorState(g)
        if state == .executing { throw try typeError("Generator is already running") }
        if state == .suspendedStart && mode != .next {
            setGeneratorState(g, .completed)
            g.setExtraValue(1, .undefined)
            state = .completed
        }
        if isAsyncGenerator(g) && method != "AsyncGenerator" {
            throw try typeError("\(method) method called on incompatible receiver \(try describeForError(gv))")
        }
        if state == .completed {
            switch mode {
            case .next: return try createIterResult(.undefined, done: true)
            case .throw: throw JSException(value: value)
            case .return: return try createIterResult(value, done: true)
            }
        }
        if nativeDepth >= Runtime.maxNativeDepth { throw try rangeError("Maximum call stack size exceeded") }
        let saved = JSObject(g.extraValue(1))
        let total = saved.elementsLength
        let n = total - Runtime.savedFrameExtras
        let e = saved.elements!
        let base = frames.last.map { $0.top } ?? registers
        if base + n >= registers + Runtime.registerFileSize || frames.count >= FrameStack.capacity - 1 {
            throw try rangeError("Maximum call stack size exceeded")
        }
        for i in 0..<n { base[i] = e[i] }
        let callee = JSObject(e[n + 1])
        let data = functionCodeData(callee)
        if data.realmKey != realmKey {
            // A generator of another realm runs in its realm (nothing was changed yet).
            return try callInRealm(data.realm) { () throws(JSException) -> Value in
                try generatorResume(gv, value, mode: mode, method: method, wrap: wrap)
            }
        }
        let resumeRegister = Int(e[n + 7].asInt32)
        if state == .suspendedYield && resumeRegister >= 0 {
            base[resumeRegister] = value
            base[resumeRegister + 1] = Value(int32: mode.rawValue)
        }
        let env = e[n + 4]
        frames.append(Frame(data: Unmanaged.passUnretained(data), pc: Int(e[n + 8].asInt32), base: base, top: base + n,
                            argc: Int(e[n + 5].asInt32), this: e[n], callee: e[n + 1], newTarget: e[n + 2],
                            env: env.isUndefined ? nil : env.asCell, envDepth: Int(e[n + 6].asInt32),
                            returnRegister: -1, isConstruct: false, exception: .undefined, home: e[n + 3]))
        setGeneratorState(g, .executing)
        nativeDepth += 1
        defer { nativeDepth -= 1 }
        let result: Value
        do {
            result = try run(entryDepth: frames.count - 1)
        } catch {
            setGeneratorState(g, .completed)
            g.setExtraValue(1, .undefined)
            throw error
        }
        let after = g.word(0)
        if GeneratorState(rawValue: after & 0xFF) == .executing {
            setGeneratorState(g, .completed)
            g.setExtraValue(1, .undefined)
            return wrap ? try createIterResult(result, done: true) : result
        }
        if after & Runtime.rawYieldBit != 0 || !wrap { return result }
        return try createIterResult(result, done: false)
    }

    /// One step of `yield*` (the `iteratorDone` instruction): calls the inner iterator's
    /// next/throw/return with the value in `pair[0]`, per the mode in `pair[1]`. Returns
    /// true when the delegation is done (pair[0] = the final value, pair[1] = 2 for a return).
    func delegateStep(_ pair: UnsafeMutablePointer<Value>, _ rec: UnsafeMutablePointer<Value>) throws(JSException) -> Bool {
        let received = pair[0]
        let mode = ResumeMode(rawValue: pair[1].isInt32 ? pair[1].asInt32 : 0) ?? .next
        let iterator = rec[0]
        let inner: Value
        switch mode {
        case .next:
            inner = try call(rec[1], this: iterator, received)
        case .throw:
            guard let t = try getMethod(iterator, key(static: "throw")) else {
                try iteratorClose(IteratorRecord(iterator: iterator, next: rec[1], done: false))
                throw try typeError("The iterator does not provide a 'throw' method")
            }
            inner = try call(t, this: iterator, received)
        case .return:
            guard let r = try getMethod(iterator, key(static: "return")) else {
                pair[1] = Value(int32: 2)
                return true
            }
            inner = try call(r, this: iterator, received)
        }
        guard isObject(inner) else { throw try typeError("Iterator result \(try describeForError(inner)) is not an object") }
        heap.pushRoot(inner)
        defer { heap.popRoots(1) }
        if toBoolean(try get(JSObject(inner), key(static: "done"), receiver: inner)) {
            pair[0] = try get(JSObject(inner), key(static: "value"), receiver: inner)
            pair[1] = Value(int32: mode == .return ? 2 : 0)
            return true
        }
        pair[0] = inner
        return false
    }

    /// Async `yield*`: calls the inner iterator's next, throw or return (by the resume mode
    /// in pair + 1) with pair[0]; nil when it has no throw or return method.
    func asyncDelegateCall(_ pair: UnsafeMutablePointer<Value>, _ rec: UnsafeMutablePointer<Value>) throws(JSException) -> Value? {
        let mode = ResumeMode(rawValue: pair[1].isInt32 ? pair[1].asInt32 : 0) ?? .next
        let iterator = rec[0]
        switch mode {
        case .next:
            return try call(rec[1], this: iterator, pair[0])
        case .throw:
            guard let t = try getMethod(iterator, key(static: "throw")) else { return nil }
            return try call(t, this: iterator, pair[0])
        case .return:
            guard let r = try getMethod(iterator, key(static: "return")) else { return nil }
            return try call(r, this: iterator, pair[0])
        }
    }

    /// Async `yield*`: the awaited inner result; true (pair[0] its value) when done, else
    /// pair[0] is the value to yield.
    func asyncDelegateResult(_ pair: UnsafeMutablePointer<Value>, _ result: Value) throws(JSException) -> Bool {
        guard isObject(result) else { throw try typeError("Iterator result \(try describeForError(result)) is not an object") }
        heap.pushRoot(result)
        defer { heap.popRoots(1) }
        let done = toBoolean(try get(JSObject(result), key(static: "done"), receiver: result))
        pair[0] = try get(JSObject(result), key(static: "value"), receiver: result)
        return done
    }

    func installGenerators() throws(JSException) {
        // %GeneratorFunction.prototype% and %GeneratorPrototype%.
        let gfProto = try newObject(prototype: realm.functionPrototype)
        let gProto = try newObject(prototype: realm.iteratorPrototype)
        realm.generatorFunctionPrototype = gfProto
        realm.generatorPrototype = gProto
        realm.generatorFunctionShape = try rootShape(for: Value(cell: gfProto.cell))
        try defineOwnProperty(gfProto, key(static: "prototype"), .data(Value(cell: gProto.cell), [.configurable]))
        try defineOwnProperty(gProto, key(static: "constructor"), .data(Value(cell: gfProto.cell), [.configurable]))
        try defineOwnProperty(gfProto, symbolKey(wellKnown.toStringTag), .data(try makeString("GeneratorFunction"), [.configurable]))
        try defineOwnProperty(gProto, symbolKey(wellKnown.toStringTag), .data(try makeString("Generator"), [.configurable]))
        try method(gProto, "next", 1) { rt, this, args, _ throws(JSException) in
            try rt.generatorResume(this, rt.arg(args, 0), mode: .next, method: "Generator.prototype.next")
        }
        try method(gProto, "return", 1) { rt, this, args, _ throws(JSException) in
            try rt.generatorResume(this, rt.arg(args, 0), mode: .return, method: "Generator.prototype.return")
        }
        try method(gProto, "throw", 1) { rt, this, args, _ throws(JSException) in
            try rt.generatorResume(this, rt.arg(args, 0), mode: .throw, method: "Generator.prototype.throw")
        }
    }
}
