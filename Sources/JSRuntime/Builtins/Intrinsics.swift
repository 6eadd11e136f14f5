// Creating a realm's intrinsics and global object.

extension Runtime {
    /// Creates the realm (intrinsics + global object) and installs the runtime hooks.
    public func initializeRealm() throws(JSException) {
        let realm = Realm(runtime: self)
        self.realm = realm
        realms.append(realm)
        realmKey = realm.key
        natives.currentRealm = realm
        try buildRealm(realm, primary: true)
    }

    /// Fills the current realm `realm` with its intrinsics and global object; the first
    /// realm also makes what all realms share (well-known symbols, hooks).
    func buildRealm(_ realm: Realm, primary: Bool) throws(JSException) {
        installingBuiltins = true
        defer { installingBuiltins = false }
        // The builtins intern some 400 names and define some 500 functions: no rehashing.
        pinnedAtoms.reserveCapacity(1024)
        natives.reserveCapacity(1024)
        let nullShape = try makeRootShape(prototype: .null)
        let objectProto = try allocateObject(.object, shape: nullShape)
        realm.objectPrototype = objectProto
        realm.objectShape = try makeRootShape(prototype: Value(cell: objectProto.cell))
        // Function.prototype is itself a (native) function that returns undefined.
        let fpShape = try makeRootShape(prototype: Value(cell: objectProto.cell))
        let functionProto = try allocateObject(.nativeFunction, shape: fpShape)
        natives.append { _, _, _, _ in .undefined }
        functionProto.setWord(0, UInt64(natives.count - 1))
        realm.functionPrototype = functionProto
        realm.functionShape = try makeRootShape(prototype: Value(cell: functionProto.cell))
        realm.arrowShape = realm.functionShape
        let arrayProto = try allocateObject(.array, shape: try makeRootShape(prototype: Value(cell: objectProto.cell)), inlineSlots: 0)
        realm.arrayPrototype = arrayProto
        realm.arrayShape = try makeRootShape(prototype: Value(cell: arrayProto.cell))
        realm.global = try newObject()
        globalCell = realm.global.cell
        realm.stringPrototype = try allocateObject(.boxedPrimitive, shape: try makeRootShape(prototype: Value(cell: objectProto.cell)))
        realm.stringPrototype.setExtraValue(1, try makeString(""))
        realm.numberPrototype = try allocateObject(.boxedPrimitive, shape: try makeRootShape(prototype: Value(cell: objectProto.cell)))
        realm.numberPrototype.setExtraValue(1, Value(int32: 0))
        realm.booleanPrototype = try allocateObject(.boxedPrimitive, shape: try makeRootShape(prototype: Value(cell: objectProto.cell)))
        realm.booleanPrototype.setExtraValue(1, .false)
        realm.symbolPrototype = try newObject()
        realm.errorPrototype = try newObject()
        realm.iteratorPrototype = try newObject()
        realm.arrayIteratorPrototype = try newObject(prototype: realm.iteratorPrototype)

        callHook = { [unowned self] f, this, args throws(JSException) in try self.callFunction(f, this: this, args) }
        toPrimitiveHook = { [unowned(unsafe) self] v, hint throws(JSException) in try self.objectToPrimitive(v, hint) }
        makeErrorHook = { [unowned(unsafe) self] type, message throws(JSException) in try self.newError(type, message) }

        if primary {
            installLazyGroupHooks()
            try makeWellKnownSymbols()
            let hidden = try makeSymbol(description: try makeString("[[Fields]]"))
            header(hidden.asCell).pointee.flags |= SymbolFlags.hidden
            realm.classFieldsKey = PropertyKey(cell: hidden.asCell)
        }
        let g = realm.global!
        try put(g, "globalThis", Value(cell: g.cell))
        try put(g, "undefined", .undefined, [])
        try put(g, "NaN", Value(Double.nan), [])
        try put(g, "Infinity", Value(Double.infinity), [])

        try installObject()
        try installFunction()
        try installEval()
        try installArray()
        try installIteration()
        try installIteratorHelpers()
        try installSymbol()
        try installURIFunctions()
        try installGenerators()
        try installGeneratorFunctionConstructor()
        try installPromise()
        try installAsyncGenerators()
        try installAsyncFunctionConstructors()
        try installString()
        try installNumberAndBoolean()
        try installBigInt()
        try installJSON()
        try installErrors()
        try installResourceManagement()
        try installConsole()
        try installRegExp()  // after String: replaces String.prototype.match/replace/split/... with the full versions
        try deferLazyGlobals(realm)
        if primary {
            Runtime.loadTimeZone()
            outOfMemoryValue = try makeOutOfMemoryError()
            permanentRoots.append(outOfMemoryValue)
        }
    }

    /// OrdinaryToPrimitive (`objectToPrimitive` in SymbolBuiltins.swift checks @@toPrimitive first).
    func ordinaryToPrimitive(_ v: Value, _ hint: PreferredType) throws(JSException) -> Value {
        let o = JSObject(v)
        for i in 0..<2 {
            // toString then valueOf for a string hint, else valueOf then toString (static
            // atoms: no array or Swift-string lookups per conversion).
            let k = (hint == .string) == (i == 0) ? key(static: "toString") : key(static: "valueOf")
            let f = try get(o, k, receiver: v)
            if isCallable(f) {
                let r = try callFunction(f, this: v, UnsafeBufferPointer(start: nil, count: 0))
                if !isObject(r) { return r }
            }
        }
        throw try typeError("Cannot convert object to primitive value")
    }

    /// The value of argument `i` (undefined when absent).
    @inline(__always) func arg(_ args: UnsafeBufferPointer<Value>, _ i: Int) -> Value {
        i < args.count ? args[i] : .undefined
    }

    func constructor(_ name: String, length: Int, prototype: JSObject, _ body: @escaping NativeFunction) throws(JSException) -> JSObject {
        let c = try makeNativeFunction(name, length: length, isConstructor: true, body)
        heap.pushRoot(Value(cell: c.cell))
        defer { heap.popRoots(1) }
        try defineData(c, PropertyKey(cell: atom(static: "prototype")), Value(cell: prototype.cell), [])
        try defineData(prototype, PropertyKey(cell: atom(static: "constructor")), Value(cell: c.cell), .hidden)
        try put(realm.global, name, Value(cell: c.cell))
        return c
    }

    // MARK: - Errors

    /// The out-of-memory RangeError made at start (there may be no room when it is thrown):
    /// what `newError` makes with no frames, without its string interpolation (whose first
    /// use instantiates generic metadata, ~50 µs of every start).
    func makeOutOfMemoryError() throws(JSException) -> Value {
        let proto = realm.errorPrototypes[.rangeError] ?? realm.errorPrototype!
        let e = try allocateObject(.error, shape: try rootShape(for: Value(cell: proto.cell)))
        heap.pushRoot(Value(cell: e.cell))
        defer { heap.popRoots(1) }
        try put(e, "message", try makeString("Out of memory: the heap limit was reached"))
        try put(e, "stack", try makeString("RangeError: Out of memory: the heap limit was reached\n    at <native>"))
        return Value(cell: e.cell)
    }

    func newError(_ type: ErrorType, _ message: String) throws(JSException) -> Value {
        let proto = realm.errorPrototypes[type] ?? realm.errorPrototype!
        let e = try allocateObject(.error, shape: try rootShape(for: Value(cell: proto.cell)))
        heap.pushRoot(Value(cell: e.cell))
        defer { heap.popRoots(1) }
        try put(e, "message", try makeString(message))
        // The whole call stack (as `new Error()` records it); the throw site when no frames.
        let trace = stackTrace()
        try put(e, "stack", try makeString("\(type.rawValue): \(message)\n" + (trace.isEmpty ? "    at \(currentLocation())" : trace)))
        return Value(cell: e.cell)
    }

    /// `file:line:column` of the instruction the innermost frame is executing.
    public func currentLocation() -> String {
        guard let f = frames.last else { return "<native>" }
        let code = f.data.takeUnretainedValue().code
        guard let source = code.source, let offset = code.sourceOffset(at: f.pc) else { return "<anonymous>" }
        let (line, column) = source.position(of: offset)
        return "\(source.name):\(line):\(column)"
    }

    /// The stack trace of the current frames, innermost first.
    func stackTrace() -> String {
        // No frames (the preallocated out-of-memory error, made at every start): skip the
        // generic collection code, whose first use costs ~40 µs of metadata instantiation.
        if frames.count == 0 { return "" }
        var lines: [String] = []
        for f in frames.reversed().prefix(10) {
            let code = f.data.takeUnretainedValue().code
            var loc = "<anonymous>"
            if let source = code.source, let offset = code.sourceOffset(at: f.pc) {
                let (line, column) = source.position(of: offset)
                loc = "\(source.name):\(line):\(column)"
            }
            lines.append(code.name.isEmpty ? "    at \(loc)" : "    at \(code.name) (\(loc))")
        }
        return lines.joined(separator: "\n")
    }
}
