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

    func getGlobal(_ data: CodeData, _ atomIndex: Int, cache: UnsafeMutablePointer<InlineCache>) throws(JSException) -> Value {
        let g = realm.global!
        if cache.pointee.shape == g.shape && cache.pointee.holder == nil {
            return g.slot(Int(cache.pointee.slot))
        }
        let a = try atom(data, atomIndex)
        if realm.lexicalIndex[a] == nil, !ShapeCell(g.shape).isDictionary,
           let entry = ShapeCell(g.shape).lookup(PropertyKey(cell: a)), !entry.attributes.contains(.accessor) {
            cache.pointee = InlineCache(shape: g.shape, holder: nil, holderShape: nil, slot: Int32(entry.slot))
            return g.slot(entry.slot)
        }
        guard let v = try lookupGlobal(a) else {
            throw try referenceError("\(StringCell(a).swiftString) is not defined")
        }
        return v
    }

    func setGlobal(_ data: CodeData, _ atomIndex: Int, _ value: Value, strict: Bool) throws(JSException) {
        let a = try atom(data, atomIndex)
        if let i = realm.lexicalIndex[a] {
            if realm.lexicalValues[i].isEmpty {
                throw try referenceError("Cannot access '\(StringCell(a).swiftString)' before initialization")
            }
            if realm.lexicalIsConst[i] { throw try typeError("Assignment to constant variable '\(StringCell(a).swiftString)'.") }
            realm.lexicalValues[i] = value
            return
        }
        let g = realm.global!
        let k = Key.named(PropertyKey(cell: a))
        let exists = try hasProperty(g, k)
        if strict && !exists {
            throw try referenceError("\(StringCell(a).swiftString) is not defined")
        }
        if !(try set(g, k, value, receiver: Value(cell: g.cell))) && strict {
            throw try typeError("Cannot assign to read only property '\(StringCell(a).swiftString)' of object")
        }
    }

    func declareGlobalVar(_ a: UnsafeMutableRawPointer, isFunction: Bool) throws(JSException) {
        if realm.lexicalIndex[a] != nil {
            throw try makeError(.syntaxError, "Identifier '\(StringCell(a).swiftString)' has already been declared")
        }
        let g = realm.global!
        let k = Key.named(PropertyKey(cell: a))
        if try getOwnProperty(g, k) == nil {
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
        realm.lexicalIndex[a] = realm.lexicalValues.count
        realm.lexicalValues.append(.empty)
        realm.lexicalIsConst.append(isConst)
    }
}
