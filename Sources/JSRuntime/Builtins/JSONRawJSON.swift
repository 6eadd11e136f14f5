// JSON.rawJSON and JSON.isRawJSON (JSON.parse source text access): a frozen null-prototype
// object whose `rawJSON` string JSON.stringify emits as it is. [[IsRawJSON]] is a hidden
// symbol key (no script can name or forge it), shared by every realm.

extension Runtime {
    /// The hidden key of [[IsRawJSON]] (made at the first JSON.rawJSON).
    func rawJSONKey() throws(JSException) -> PropertyKey {
        if let k = primaryRealm.rawJSONKey { return k }
        let s = try makeSymbol(description: try makeString("[[IsRawJSON]]"))
        header(s.asCell).pointee.flags |= SymbolFlags.hidden
        let k = PropertyKey(cell: s.asCell)
        primaryRealm.rawJSONKey = k
        return k
    }

    /// Whether `v` has an [[IsRawJSON]] internal slot.
    func isRawJSON(_ v: Value) -> Bool {
        guard isObject(v), let k = primaryRealm.rawJSONKey else { return false }
        return ShapeCell(JSObject(v).shape).lookup(k) != nil
    }

    func installRawJSON(_ json: JSObject) throws(JSException) {
        try method(json, "rawJSON", 1) { rt, _, args, _ throws(JSException) in
            let text = try rt.toString(rt.arg(args, 0))
            rt.heap.pushRoot(text)
            defer { rt.heap.popRoots(1) }
            let s = try rt.flatten(text)
            func isJSONWhitespace(_ u: UInt16) -> Bool { u == 0x09 || u == 0x0A || u == 0x0D || u == 0x20 }
            if s.length == 0 || isJSONWhitespace(s[0]) || isJSONWhitespace(s[s.length - 1]) {
                throw try rt.makeError(.syntaxError, "JSON.rawJSON: the text is empty or starts or ends with whitespace")
            }
            if s[0] == 0x7B || s[0] == 0x5B {
                throw try rt.makeError(.syntaxError, "JSON.rawJSON: the text must be a primitive JSON value, not an object or array")
            }
            _ = try rt.jsonParse(text)
            let o = try rt.newObject(prototypeValue: .null)
            rt.heap.pushRoot(Value(cell: o.cell))
            defer { rt.heap.popRoots(1) }
            try rt.createDataProperty(o, rt.key(static: "rawJSON"), text)
            try rt.defineData(o, try rt.rawJSONKey(), .true, [])
            _ = try rt.setIntegrity(o, frozen: true)
            return Value(cell: o.cell)
        }
        try method(json, "isRawJSON", 1) { rt, _, args, _ throws(JSException) in
            Value(rt.isRawJSON(rt.arg(args, 0)))
        }
    }
}
