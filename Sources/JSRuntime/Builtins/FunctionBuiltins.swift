// The Function constructor and Function.prototype.
// https://tc39.es/ecma262/#sec-function-objects

import JSSyntax
import JSBytecode
import JSBytecompiler

extension Runtime {
    /// OrdinaryHasInstance(C, O).
    func ordinaryHasInstance(_ c: Value, _ v: Value) throws(JSException) -> Bool {
        guard isCallable(c) else { return false }
        let f = JSObject(c)
        if f.kind == .boundFunction { return try instanceOf(v, f.extraValue(0)) }
        guard isObject(v) else { return false }
        let proto = try get(f, key(static: "prototype"), receiver: c)
        guard isObject(proto) else { throw try typeError("Function has non-object prototype '\(try describeForError(proto))' in instanceof check") }
        return try prototypeChainContains(JSObject(v), proto)
    }

    /// CreateListFromArrayLike into a fresh JS array (so the values stay visible to the collector).
    func createListFromArrayLike(_ list: Value) throws(JSException) -> JSObject {
        guard isObject(list) else { throw try typeError("CreateListFromArrayLike called on non-object") }
        let o = JSObject(list)
        if let fast = try denseArgumentList(o) { return fast }
        let n = try lengthOf(o)
        // The register file bounds every call's arguments; refuse early rather than allocate.
        if n > Runtime.registerFileSize / 2 { throw try rangeError("Too many arguments in function call (only \(Runtime.registerFileSize / 2) allowed)") }
        let a = try newArray(capacity: n)
        heap.pushRoot(Value(cell: a.cell))
        defer { heap.popRoots(1) }
        for i in 0..<n { a.elements![i] = try get(o, .index(UInt32(i)), receiver: list) }
        a.elementsLength = n
        a.arrayLength = UInt32(n)
        return a
    }

    /// CreateListFromArrayLike for an array or an untouched arguments object whose elements
    /// are all present (no holes, no sparse part): one copy, no property lookups.
    func denseArgumentList(_ o: JSObject) throws(JSException) -> JSObject? {
        guard let elements = denseElements(o), elements.count <= Runtime.registerFileSize / 2 else { return nil }
        heap.pushRoot(Value(cell: o.cell))
        defer { heap.popRoots(1) }
        let n = elements.count
        let a = try newArray(capacity: n)   // the collector does not move or free o's elements
        if n > 0 { a.elements!.update(from: elements.baseAddress!, count: n) }
        a.elementsLength = n
        a.arrayLength = UInt32(n)
        return a
    }

    /// The elements of an array or untouched arguments object when they are exactly its
    /// argument list (no holes, nothing sparse): valid while the object is unchanged.
    /// Array.prototype.shift on an ordinary array whose elements are all present, dense,
    /// writable and configurable, with a writable length: every step of the spec's loop
    /// (Get, Set, the final DeletePropertyOrThrow and Set of length) is a move in the
    /// dense storage, so one memmove does them (a queue emptied by `shift()` stops being
    /// quadratic in property operations). Nil when any condition fails.
    func shiftDense(_ o: JSObject) -> Value? {
        guard o.kind == .array,
              o.flags & (ObjectFlags.sparseElements | ObjectFlags.elementsReadOnly | ArrayFlags.lengthReadOnly) == 0,
              let e = o.elements else { return nil }
        let len = Int(o.arrayLength)
        guard len > 0, o.elementsLength == len else { return nil }
        for i in 0..<len where e[i].isEmpty { return nil }
        let first = e[0]
        UnsafeMutableRawPointer(e).copyMemory(from: UnsafeRawPointer(e + 1), byteCount: (len - 1) * MemoryLayout<Value>.stride)
        e[len - 1] = .empty
        o.elementsLength = len - 1
        o.arrayLength = UInt32(len - 1)
        return first
    }

    func denseElements(_ o: JSObject) -> UnsafeBufferPointer<Value>? {
        guard o.flags & ObjectFlags.sparseElements == 0 else { return nil }
        let n: Int
        if o.kind == .array {
            n = Int(o.arrayLength)
        } else if o.kind == .arguments, o.shape == realm.sloppyArgumentsShape || o.shape == realm.strictArgumentsShape {
            let length = o.slot(0)
            guard length.isInt32, length.asInt32 >= 0 else { return nil }
            n = Int(length.asInt32)
        } else {
            return nil
        }
        guard n == o.elementsLength else { return nil }
        if n == 0 { return UnsafeBufferPointer(start: nil, count: 0) }
        let e = o.elements!
        for i in 0..<n where e[i].isEmpty { return nil }
        return UnsafeBufferPointer(start: e, count: n)
    }

    /// The arguments a dense array holds, as a buffer (valid while the array is alive and unchanged).
    func argumentBuffer(_ a: JSObject) -> UnsafeBufferPointer<Value> {
        UnsafeBufferPointer(start: a.elements, count: a.elementsLength)
    }

    /// CreateDynamicFunction for `Function(p1, ..., body)`; `prefix` is "function", "function*",
    /// "async function" or "async function*" (for %GeneratorFunction% and friends).
    func createDynamicFunction(_ args: UnsafeBufferPointer<Value>, prefix: String = "function") throws(JSException) -> Value {
        var params: [String] = []
        var body = ""
        if args.count > 0 {
            for i in 0..<(args.count - 1) { params.append(try string(args[i])) }
            body = try string(args[args.count - 1])
        }
        let p = params.joined(separator: ",")
        // Parameters and body must each parse on their own (no injection across them).
        try checkDynamicFunctionPart("(\(prefix) anonymous(\(p)\n) {\n})", "parameters")
        try checkDynamicFunctionPart("(\(prefix) anonymous(\n) {\n\(body)\n})", "body")
        let text = "(\(prefix) anonymous(\(p)\n) {\n\(body)\n})"
        let source = SourceFile(name: "<anonymous>", bytes: Array(text.utf8))
        let program: Program
        do {
            program = try parseScript(source)
        } catch {
            throw try makeError(.syntaxError, error.message)
        }
        guard isSingleFunctionExpression(program) else { throw try makeError(.syntaxError, "Invalid function body") }
        let code: CodeBlock
        do {
            code = try Compiler.compileScript(program)
        } catch {
            throw try makeError(error.isRangeError ? .rangeError : .syntaxError, error.message)
        }
        return try runScript(code)
    }

    func checkDynamicFunctionPart(_ text: String, _ what: String) throws(JSException) {
        let source = SourceFile(name: "<anonymous>", bytes: Array(text.utf8))
        let program: Program
        do {
            program = try parseScript(source)
        } catch {
            throw try makeError(.syntaxError, error.message)
        }
        if !isSingleFunctionExpression(program) { throw try makeError(.syntaxError, "Invalid function \(what)") }
    }

    func isSingleFunctionExpression(_ program: Program) -> Bool {
        guard program.body.count == 1, case .expression(var e) = program.body[0].kind else { return false }
        if case .parenthesized(let inner) = e.kind { e = inner }
        if case .function = e.kind { return true }
        return false
    }

    func installFunction() throws(JSException) {
        let proto = realm.functionPrototype!
        try defineOwnProperty(proto, key(static: "length"), .data(Value(int32: 0), [.configurable]))
        try defineOwnProperty(proto, key(static: "name"), .data(try makeString(""), [.configurable]))
        let ctor = try constructor("Function", length: 1, prototype: proto) { rt, _, args, newTarget throws(JSException) in
            let f = try rt.createDynamicFunction(args)
            if !newTarget.isUndefined && newTarget.bits != Value(cell: rt.realm.functionConstructor.cell).bits {
                rt.heap.pushRoot(f)
                defer { rt.heap.popRoots(1) }
                let p = try rt.prototypeFromConstructor(newTarget, rt.realm.functionPrototype)
                _ = try rt.setPrototype(JSObject(f), Value(cell: p.cell))
            }
            return f
        }
        realm.functionConstructor = ctor

        // %ThrowTypeError% and the poisoned `caller`/`arguments` of Function.prototype.
        // Sloppy functions have no own `caller`/`arguments` yet, so reading them through the
        // accessor answers undefined for those (as engines' own properties do) and throws otherwise.
        let tte = try makeNativeFunction("", length: 0) { rt, this, _, _ throws(JSException) in
            if rt.isObject(this), JSObject(this).kind == .function {
                let code = rt.functionCodeData(JSObject(this)).code
                if !code.isStrict && code.kind == .normal && !code.isGenerator && !code.isAsync { return .undefined }
            }
            throw try rt.typeError("'caller', 'callee', and 'arguments' properties may not be accessed on strict mode functions or the arguments objects for calls to them")
        }
        realm.throwTypeError = tte
        try defineOwnProperty(tte, key(static: "length"), .data(Value(int32: 0), []))
        try defineOwnProperty(tte, key(static: "name"), .data(try makeString(""), []))
        tte.flags |= ObjectFlags.nonExtensible
        for name in ["caller", "arguments"] {
            try defineOwnProperty(proto, key(name), PropertyDescriptor(get: Value(cell: tte.cell), set: Value(cell: tte.cell),
                                                                     enumerable: false, configurable: true))
        }

        realm.functionApply = try method(proto, "apply", 2) { rt, this, args, _ throws(JSException) in
            guard rt.isCallable(this) else { throw try rt.typeError("Function.prototype.apply was called on \(try rt.describeForError(this)), which is not a function") }
            let list = rt.arg(args, 1)
            if list.isNullish { return try rt.callFunction(this, this: rt.arg(args, 0), UnsafeBufferPointer(start: nil, count: 0)) }
            let a = try rt.createListFromArrayLike(list)
            rt.heap.pushRoot(Value(cell: a.cell))
            defer { rt.heap.popRoots(1) }
            return try rt.callFunction(this, this: rt.arg(args, 0), rt.argumentBuffer(a))
        }
        // https://tc39.es/ecma262/#sec-function.prototype.bind
        try method(proto, "bind", 1) { rt, this, args, _ throws(JSException) in
            guard rt.isCallable(this) else { throw try rt.typeError("Bind must be called on a function") }
            let target = JSObject(this)
            let b = try rt.allocateObject(.boundFunction, shape: rt.realm.functionShape)
            b.setExtraValue(0, this)
            b.setExtraValue(1, rt.arg(args, 0))
            let extra = max(0, args.count - 1)
            if extra > 0 {
                rt.heap.pushRoot(Value(cell: b.cell))
                defer { rt.heap.popRoots(1) }
                try rt.reserveExternal((extra + 1) * 8)
                let buf = UnsafeMutablePointer<Value>.allocate(capacity: extra + 1)
                buf[0] = Value(bits: UInt64(extra))
                for i in 0..<extra { buf[1 + i] = args[1 + i] }
                b.setWord(2, UInt64(UInt(bitPattern: buf)))
            }
            if target.flags & ObjectFlags.constructor != 0 { b.flags |= ObjectFlags.constructor }
            rt.heap.pushRoot(Value(cell: b.cell))
            defer { rt.heap.popRoots(1) }
            let targetProto = try rt.getPrototypeOf(target)
            if targetProto.bits != Value(cell: rt.realm.functionPrototype.cell).bits { _ = try rt.setPrototype(b, targetProto) }
            var l = 0.0
            if try rt.getOwnProperty(target, rt.key(static: "length")) != nil {
                let len = try rt.get(target, "length")
                if len.isNumber {
                    let d = len.asNumber
                    if d == .infinity { l = .infinity }
                    else if d == -.infinity { l = 0 }
                    else { l = max(0, (d.isNaN ? 0 : d.rounded(.towardZero)) - Double(extra)) + 0.0 }
                }
            }
            try rt.defineOwnProperty(b, rt.key(static: "length"), .data(Value(l), [.configurable]))
            let name = try rt.get(target, "name")
            try rt.defineOwnProperty(b, rt.key(static: "name"), .data(try rt.concat(try rt.makeString("bound "), rt.isString(name) ? name : try rt.makeString("")), [.configurable]))
            return Value(cell: b.cell)
        }
        realm.functionCall = try method(proto, "call", 1) { rt, this, args, _ throws(JSException) in
            guard rt.isCallable(this) else { throw try rt.typeError("Function.prototype.call was called on \(try rt.describeForError(this)), which is not a function") }
            let rest = args.count > 1 ? UnsafeBufferPointer(rebasing: args[1...]) : UnsafeBufferPointer(start: nil, count: 0)
            return try rt.callFunction(this, this: rt.arg(args, 0), rest)
        }
        functionCallBits = Value(cell: realm.functionCall!.cell).bits
        functionApplyBits = Value(cell: realm.functionApply!.cell).bits
        try method(proto, "toString", 0) { rt, this, _, _ throws(JSException) in
            guard rt.isCallable(this) else { throw try rt.typeError("Function.prototype.toString requires that 'this' be a Function") }
            let o = JSObject(this)
            if o.kind == .function {
                let code = rt.functionCodeData(o).code
                if let src = code.source {
                    let bytes = src.bytes[Int(code.span.start)..<min(Int(code.span.end), src.bytes.count)]
                    return try rt.makeString(String(decoding: bytes, as: UTF8.self))
                }
            }
            var name = ""
            if o.kind == .nativeFunction, case .data(let n, _)? = try rt.getOwnProperty(o, rt.key(static: "name")), rt.isString(n) {
                name = try rt.flatten(n).swiftString
            }
            return try rt.makeString("function \(name)() { [native code] }")
        }
        try symbolMethod(proto, wellKnown.hasInstance, 1, []) { rt, this, args, _ throws(JSException) in
            Value(try rt.ordinaryHasInstance(this, rt.arg(args, 0)))
        }
    }

    /// %GeneratorFunction%: CreateDynamicFunction with kind generator (not a global).
    func installGeneratorFunctionConstructor() throws(JSException) {
        guard let gfProto = realm.generatorFunctionPrototype else { return }
        let c = try makeNativeFunction("GeneratorFunction", length: 1, isConstructor: true) { rt, _, args, newTarget throws(JSException) in
            let f = try rt.createDynamicFunction(args, prefix: "function*")
            if !newTarget.isUndefined {
                rt.heap.pushRoot(f)
                defer { rt.heap.popRoots(1) }
                let p = try rt.prototypeFromConstructor(newTarget, rt.realm.generatorFunctionPrototype)
                _ = try rt.setPrototype(JSObject(f), Value(cell: p.cell))
            }
            return f
        }
        heap.pushRoot(Value(cell: c.cell))
        defer { heap.popRoots(1) }
        _ = try setPrototype(c, Value(cell: realm.functionConstructor.cell))
        try defineOwnProperty(c, key(static: "prototype"), .data(Value(cell: gfProto.cell), []))
        try defineOwnProperty(gfProto, key(static: "constructor"), .data(Value(cell: c.cell), [.configurable]))
    }
}
