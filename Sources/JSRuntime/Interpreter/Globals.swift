// Global bindings: the global object's properties and the global lexical declarations.
// https://tc39.es/ecma262/#sec-global-environment-records

extension Runtime {
    /// The value of a global name, or nil if unresolvable.
    func lookupGlobal(_ a: UnsafeMutableRawPointer) throws(JSException) -> Value? {
        if let i = realm.lexicalIndex[a] {
            let v = realm.lexicalValues[i]
            if v.isEmpty { throw try referenceError("Cannot access '\(StringCell(a).swiftString)' before initialization") }
            return v
        }
        let g = realm.global!
        let k = Key.named(PropertyKey(cell: a))
        if try hasProperty(g, k) { return try get(g, k, receiver: Value(cell: g.cell)) }
        return nil
    }

    /// Marks a global-name cache entry that names a global lexical binding (`let`/`const`/`class`).
    nonisolated(unsafe) static let lexicalHolder = UnsafeMutableRawPointer(bitPattern: 0x10)!

    func getGlobal(_ dataRef: Unmanaged<CodeData>, _ atomIndex: Int, cache: UnsafeMutablePointer<InlineCache>) throws(JSException) -> Value {
        let g = realm.global!
        if cache.pointee.shape == g.shape && cache.pointee.epoch == protoEpoch {
            if cache.pointee.holder == nil { return g.slot(Int(cache.pointee.slot)) }
            let v = realm.lexicalValues[Int(cache.pointee.slot)]
            if !v.isEmpty { return v }
        }
        let a = try atom(dataRef.takeUnretainedValue(), atomIndex)
        fillGlobalCache(a, cache)
        guard let v = try lookupGlobal(a) else {
            throw try referenceError("\(StringCell(a).swiftString) is not defined")
        }
        return v
    }

    /// Caches where global name `a` lives: a lexical binding's index, or a data property's
    /// slot in the global object. The global object is flagged as a prototype, so any
    /// change to its properties (and any new lexical declaration) advances the epoch.
    func fillGlobalCache(_ a: UnsafeMutableRawPointer, _ cache: UnsafeMutablePointer<InlineCache>) {
        let g = realm.global!
        if g.flags & ObjectFlags.isPrototype == 0 { g.flags |= ObjectFlags.isPrototype }
        if let i = realm.lexicalIndex[a] {
            cache.pointee = InlineCache(shape: g.shape, holder: Runtime.lexicalHolder, newShape: nil, slot: Int32(i), epoch: protoEpoch)
        } else if let entry = ShapeCell(g.shape).lookup(PropertyKey(cell: a)), !entry.attributes.contains(.accessor) {
            cache.pointee = InlineCache(shape: g.shape, holder: nil, newShape: nil, slot: Int32(entry.slot), epoch: protoEpoch)
        }
    }

    func setGlobal(_ dataRef: Unmanaged<CodeData>, _ atomIndex: Int, _ value: Value, strict: Bool,
                   cache: UnsafeMutablePointer<InlineCache>) throws(JSException) {
        let g = realm.global!
        if cache.pointee.shape == g.shape && cache.pointee.epoch == protoEpoch {
            let i = Int(cache.pointee.slot)
            if cache.pointee.holder == nil {
                g.setSlot(i, value)
                return
            }
            if !realm.lexicalIsConst[i] && !realm.lexicalValues[i].isEmpty {
                realm.lexicalValues[i] = value
                return
            }
        }
        let a = try atom(dataRef.takeUnretainedValue(), atomIndex)
        if let i = realm.lexicalIndex[a] {
            if realm.lexicalValues[i].isEmpty {
                throw try referenceError("Cannot access '\(StringCell(a).swiftString)' before initialization")
            }
            if realm.lexicalIsConst[i] { throw try typeError("Assignment to constant variable '\(StringCell(a).swiftString)'.") }
            realm.lexicalValues[i] = value
            fillGlobalCache(a, cache)
            return
        }
        let k = Key.named(PropertyKey(cell: a))
        let exists = try hasProperty(g, k)
        if strict && !exists {
            throw try referenceError("\(StringCell(a).swiftString) is not defined")
        }
        if !(try set(g, k, value, receiver: Value(cell: g.cell))) && strict {
            throw try typeError("Cannot assign to read only property '\(StringCell(a).swiftString)' of object")
        }
        // Cache writable data properties only.
        if let entry = ShapeCell(g.shape).lookup(PropertyKey(cell: a)), entry.attributes.contains(.writable),
           !entry.attributes.contains(.accessor) {
            fillGlobalCache(a, cache)
        }
    }

    func declareGlobalVar(_ a: UnsafeMutableRawPointer, isFunction: Bool) throws(JSException) {
        if realm.lexicalIndex[a] != nil {
            throw try makeError(.syntaxError, "Identifier '\(StringCell(a).swiftString)' has already been declared")
        }
        let g = realm.global!
        let k = Key.named(PropertyKey(cell: a))
        if try getOwnProperty(g, k) == nil {
            // CanDeclareGlobalVar: a new global needs an extensible global object.
            if !g.isExtensible { throw try typeError("Cannot declare global variable '\(StringCell(a).swiftString)'") }
            try defineOwnProperty(g, k, .data(.undefined, [.writable, .enumerable]))
        }
    }

    func declareGlobalFunction(_ a: UnsafeMutableRawPointer, _ f: Value) throws(JSException) {
        let g = realm.global!
        let k = Key.named(PropertyKey(cell: a))
        if let existing = try getOwnProperty(g, k), !existing.attributes.contains(.configurable) {
            if case .data(_, let attrs) = existing, attrs.contains(.writable) && attrs.contains(.enumerable) {
                _ = try set(g, k, f, receiver: Value(cell: g.cell))
                return
            }
            throw try typeError("Cannot redefine global function '\(StringCell(a).swiftString)'")
        }
        if !g.isExtensible, try getOwnProperty(g, k) == nil {
            throw try typeError("Cannot declare global function '\(StringCell(a).swiftString)'")
        }
        try defineOwnProperty(g, k, .data(f, [.writable, .enumerable]))
    }

    func declareGlobalLexical(_ a: UnsafeMutableRawPointer, isConst: Bool) throws(JSException) {
        let name = StringCell(a).swiftString
        if realm.lexicalIndex[a] != nil {
            throw try makeError(.syntaxError, "Identifier '\(name)' has already been declared")
        }
        if let p = try getOwnProperty(realm.global, .named(PropertyKey(cell: a))), !p.attributes.contains(.configurable) {
            throw try makeError(.syntaxError, "Identifier '\(name)' has already been declared")
        }
        protoEpoch &+= 1
        realm.lexicalIndex[a] = realm.lexicalValues.count
        realm.lexicalValues.append(.empty)
        realm.lexicalIsConst.append(isConst)
    }
}

extension Runtime {
    /// Defines the global `scriptArgs` (jsrun's command-line arguments): a frozen array of
    /// strings, writable and configurable, not enumerable — without compiling a script.
    public func defineScriptArgs(_ args: [String]) throws(JSException) {
        let depth = heap.rootDepth
        defer { heap.popRoots(to: depth) }
        let array = try newArray(capacity: args.count)
        heap.pushRoot(Value(cell: array.cell))
        for (i, s) in args.enumerated() {
            let v = try makeString(s)
            array.elements![i] = v
            array.elementsLength = i + 1
            array.arrayLength = UInt32(i + 1)
        }
        _ = try setIntegrity(array, frozen: true)
        try definePropertyOrThrow(realm.global, key("scriptArgs"),
                                  .data(Value(cell: array.cell), [.writable, .configurable]))
    }
}
