// Private names (https://tc39.es/ecma262/#sec-private-names): each class evaluation
// makes a fresh hidden symbol per `#name`; private elements are own properties keyed by
// it (hidden symbols never show in [[OwnPropertyKeys]]), looked up without the
// prototype chain, added regardless of extensibility, and accessed with the spec's
// TypeErrors. Methods are non-writable; accessors are accessor pairs.

extension Runtime {
    func newPrivateName(_ description: Value) throws(JSException) -> Value {
        let s = try makeSymbol(description: description)
        header(s.asCell).pointee.flags |= SymbolFlags.hidden
        return s
    }

    func privateDescription(_ k: Value) -> String {
        let d = symbolDescription(k)
        return isString(d) ? ((try? flatten(d).swiftString) ?? "#") : "#"
    }

    func privateObject(_ o: Value, _ k: Value, _ verb: String) throws(JSException) -> JSObject {
        guard isObject(o) else {
            throw try typeError("Cannot \(verb) private member \(privateDescription(k)) \(verb == "read" ? "from" : "on") a non-object")
        }
        return JSObject(o)
    }

    func getPrivate(_ ov: Value, _ k: Value) throws(JSException) -> Value {
        let o = try privateObject(ov, k, "read")
        guard let entry = ShapeCell(o.shape).lookup(PropertyKey(cell: k.asCell)) else {
            throw try typeError("Cannot read private member \(privateDescription(k)) from an object whose class did not declare it")
        }
        if entry.attributes.contains(.accessor) {
            let pair = AccessorPair(o.slot(entry.slot).asCell)
            if pair.getter.isUndefined { throw try typeError("'\(privateDescription(k))' was defined without a getter") }
            return try call(pair.getter, this: ov)
        }
        return o.slot(entry.slot)
    }

    func setPrivate(_ ov: Value, _ k: Value, _ v: Value) throws(JSException) {
        let o = try privateObject(ov, k, "write")
        guard let entry = ShapeCell(o.shape).lookup(PropertyKey(cell: k.asCell)) else {
            throw try typeError("Cannot write private member \(privateDescription(k)) to an object whose class did not declare it")
        }
        if entry.attributes.contains(.accessor) {
            let pair = AccessorPair(o.slot(entry.slot).asCell)
            if pair.setter.isUndefined { throw try typeError("'\(privateDescription(k))' was defined without a setter") }
            _ = try call(pair.setter, this: ov, v)
            return
        }
        if !entry.attributes.contains(.writable) { throw try typeError("Private method '\(privateDescription(k))' is not writable") }
        o.setSlot(entry.slot, v)
    }

    func hasPrivate(_ ov: Value, _ k: Value) throws(JSException) -> Bool {
        guard isObject(ov) else { throw try typeError("Cannot use 'in' operator to search for '\(privateDescription(k))' in \(try describeForError(ov))") }
        return ShapeCell(JSObject(ov).shape).lookup(PropertyKey(cell: k.asCell)) != nil
    }

    /// PrivateFieldAdd / PrivateMethodOrAccessorAdd. kind: 0 field, 1 method, 2 getter, 3 setter.
    func definePrivate(_ ov: Value, _ k: Value, _ v: Value, kind: Int) throws(JSException) {
        let o = JSObject(ov)
        let pk = PropertyKey(cell: k.asCell)
        if let entry = ShapeCell(o.shape).lookup(pk) {
            // A getter and a setter of one name share one accessor pair (same class only).
            if kind >= 2, entry.attributes.contains(.accessor) {
                let pair = AccessorPair(o.slot(entry.slot).asCell)
                if kind == 2 && pair.getter.isUndefined { pair.getter = v; return }
                if kind == 3 && pair.setter.isUndefined { pair.setter = v; return }
            }
            throw try typeError("Cannot initialize \(privateDescription(k)) twice on the same object")
        }
        // A proxy keeps private elements in a dictionary shape of its own (the shared proxy
        // shape stays empty).
        if o.flags & ObjectFlags.exotic != 0 && o.shape == proxyShape {
            heap.pushRoot(v)
            defer { heap.popRoots(1) }
            o.shape = try makeDictionaryShape(o.shape)
        }
        if kind >= 2 {
            let pair = try makeAccessorPair(getter: kind == 2 ? v : .undefined, setter: kind == 3 ? v : .undefined)
            try addNamedProperty(o, pk, Value(cell: pair.cell), .accessor)
        } else {
            try addNamedProperty(o, pk, v, kind == 0 ? [.writable] : [])
        }
    }
}
