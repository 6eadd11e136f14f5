// The Symbol constructor, the global symbol registry, Symbol.prototype, and ToPrimitive
// with @@toPrimitive. https://tc39.es/ecma262/#sec-symbol-objects

extension Runtime {
    /// ToPrimitive on an object (https://tc39.es/ecma262/#sec-toprimitive): @@toPrimitive
    /// first, then OrdinaryToPrimitive.
    func objectToPrimitive(_ v: Value, _ hint: PreferredType) throws(JSException) -> Value {
        if let exotic = try getMethod(v, symbolKey(wellKnown.toPrimitive)) {
            let h = try makeString(hint == .string ? "string" : hint == .number ? "number" : "default")
            let r = try call(exotic, this: v, h)
            if isObject(r) { throw try typeError("Cannot convert object to primitive value") }
            return r
        }
        return try ordinaryToPrimitive(v, hint == .none ? .number : hint)
    }

    /// thisSymbolValue.
    func thisSymbolValue(_ v: Value, _ name: String) throws(JSException) -> Value {
        if isSymbol(v) { return v }
        if isObject(v), JSObject(v).kind == .boxedPrimitive, isSymbol(JSObject(v).extraValue(1)) { return JSObject(v).extraValue(1) }
        throw try typeError("\(name) requires that 'this' be a Symbol")
    }

    /// SymbolDescriptiveString.
    func symbolDescriptiveString(_ s: Value) throws(JSException) -> Value {
        let d = symbolDescription(s)
        let desc = d.isUndefined ? try makeString("") : d
        return try concat(try makeString("Symbol("), try concat(desc, try makeString(")")))
    }

    func installSymbol() throws(JSException) {
        let proto = realm.symbolPrototype!
        let ctor = try constructor("Symbol", length: 0, prototype: proto) { rt, _, args, newTarget throws(JSException) in
            if !newTarget.isUndefined { throw try rt.typeError("Symbol is not a constructor") }
            let d = rt.arg(args, 0)
            return try rt.makeSymbol(description: d.isUndefined ? .undefined : try rt.toString(d))
        }
        realm.symbolConstructor = ctor
        for name in WellKnownSymbols.names {
            try put(ctor, name, wellKnown[name], [])
        }
        try method(ctor, "for", 1) { rt, _, args, _ throws(JSException) in
            let s = try rt.toString(rt.arg(args, 0))
            let units = try rt.flatten(s).codeUnits
            if let sym = rt.primaryRealm.symbolRegistry[units] { return sym }
            let sym = try rt.makeSymbol(description: s)
            rt.primaryRealm.symbolRegistry[units] = sym
            rt.primaryRealm.symbolRegistryKeys[sym.bits] = s
            return sym
        }
        try method(ctor, "keyFor", 1) { rt, _, args, _ throws(JSException) in
            let s = rt.arg(args, 0)
            guard rt.isSymbol(s) else { throw try rt.typeError("\(try rt.describeForError(s)) is not a symbol") }
            return rt.primaryRealm.symbolRegistryKeys[s.bits] ?? .undefined
        }
        try accessor(proto, key(static: "description"), name: "description", getter: { rt, this, _, _ throws(JSException) in
            rt.symbolDescription(try rt.thisSymbolValue(this, "Symbol.prototype.description"))
        }, setter: nil)
        try method(proto, "toString", 0) { rt, this, _, _ throws(JSException) in
            try rt.symbolDescriptiveString(try rt.thisSymbolValue(this, "Symbol.prototype.toString"))
        }
        try method(proto, "valueOf", 0) { rt, this, _, _ throws(JSException) in
            try rt.thisSymbolValue(this, "Symbol.prototype.valueOf")
        }
        try symbolMethod(proto, wellKnown.toPrimitive, 1, [.configurable]) { rt, this, _, _ throws(JSException) in
            try rt.thisSymbolValue(this, "Symbol.prototype [ @@toPrimitive ]")
        }
        try defineOwnProperty(proto, symbolKey(wellKnown.toStringTag), .data(try makeString("Symbol"), [.configurable]))
    }
}
