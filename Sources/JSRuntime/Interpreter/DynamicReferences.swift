// References to dynamically resolved names (`with` bodies, code reachable by a sloppy
// direct eval) that are resolved once and used twice: `x op= v`, `x++`, `x ??= v` and
// `x = v` evaluate the reference (ResolveBinding) before the right-hand side and then
// GetValue/PutValue that same reference, even if the right-hand side (or a getter)
// declares a shadowing var with eval or deletes the `with` object's property.
// https://tc39.es/ecma262/#sec-assignment-operators-runtime-semantics-evaluation
//
// A reference is a register holding the environment the name was found in (an
// object environment for `with`, a declarative one with the name as a slot or in its
// eval-var object), or undefined for the global environment.

extension Runtime {
    /// `resolveRef`: the environment that binds the name, from `start` outwards.
    func resolveRef(_ start: UnsafeMutableRawPointer?, _ a: UnsafeMutableRawPointer) throws(JSException) -> Value {
        let name = StringCell(a).swiftString
        let k = Key.named(PropertyKey(cell: a))
        var e = start
        while let c = e {
            let env = Environment(c)
            let w = env.layout
            if w == Runtime.withLayout {
                let objV = env.slots[0]
                let obj = JSObject(objV)
                if try hasProperty(obj, k) {
                    let u = try get(obj, symbolKey(wellKnown.unscopables), receiver: objV)
                    var blocked = false
                    if isObject(u) { blocked = toBoolean(try get(JSObject(u), k, receiver: u)) }
                    if !blocked { return Value(cell: c) }
                }
            } else if let layout = scopeLayout(w) {
                if layout.index[name] != nil { return Value(cell: c) }
                if layout.evalVarsSlot >= 0, isObject(env.slots[layout.evalVarsSlot]) {
                    let o = JSObject(env.slots[layout.evalVarsSlot])
                    if try getOwnProperty(o, k) != nil { return Value(cell: c) }
                }
            }
            e = env.parent
        }
        return .undefined
    }

    /// `getRef`: GetValue of a reference from `resolveRef`.
    func getRef(_ ref: Value, _ a: UnsafeMutableRawPointer, strict: Bool) throws(JSException) -> Value {
        let k = Key.named(PropertyKey(cell: a))
        guard ref.isCell else {
            guard let v = try lookupGlobal(a) else { throw try referenceError("\(StringCell(a).swiftString) is not defined") }
            return v
        }
        let env = Environment(ref.asCell)
        if env.layout == Runtime.withLayout {
            let objV = env.slots[0]
            let obj = JSObject(objV)
            // Object Environment Record GetBindingValue: the property may be gone by now.
            if !(try hasProperty(obj, k)) {
                if strict { throw try referenceError("\(StringCell(a).swiftString) is not defined") }
                return .undefined
            }
            return try get(obj, k, receiver: objV)
        }
        if let layout = scopeLayout(env.layout) {
            if let i = layout.index[StringCell(a).swiftString] {
                let v = env.slots[i]
                if v.isEmpty { throw try referenceError("Cannot access '\(StringCell(a).swiftString)' before initialization") }
                return v
            }
            if layout.evalVarsSlot >= 0, isObject(env.slots[layout.evalVarsSlot]) {
                let o = JSObject(env.slots[layout.evalVarsSlot])
                return try get(o, k, receiver: Value(cell: o.cell))
            }
        }
        return .undefined
    }

    /// `setRef`: PutValue of a reference from `resolveRef`.
    func setRef(_ ref: Value, _ a: UnsafeMutableRawPointer, _ value: Value, strict: Bool) throws(JSException) {
        let k = Key.named(PropertyKey(cell: a))
        guard ref.isCell else {
            try setGlobalByName(a, value, strict: strict)
            return
        }
        let env = Environment(ref.asCell)
        if env.layout == Runtime.withLayout {
            let objV = env.slots[0]
            let obj = JSObject(objV)
            // Object Environment Record SetMutableBinding.
            if strict, !(try hasProperty(obj, k)) { throw try referenceError("\(StringCell(a).swiftString) is not defined") }
            if !(try set(obj, k, value, receiver: objV)) && strict {
                throw try typeError("Cannot assign to read only property '\(StringCell(a).swiftString)' of object")
            }
            return
        }
        guard let layout = scopeLayout(env.layout) else { return }
        if let i = layout.index[StringCell(a).swiftString] {
            let kind = layout.kinds[i]
            if env.slots[i].isEmpty { throw try referenceError("Cannot access '\(StringCell(a).swiftString)' before initialization") }
            if kind == 2 || (kind == 3 && strict) { throw try typeError("Assignment to constant variable '\(StringCell(a).swiftString)'.") }
            if kind == 3 { return }
            env.slots[i] = value
            return
        }
        if layout.evalVarsSlot >= 0, isObject(env.slots[layout.evalVarsSlot]) {
            let o = JSObject(env.slots[layout.evalVarsSlot])
            if !(try set(o, k, value, receiver: Value(cell: o.cell))) && strict {
                throw try typeError("Cannot assign to read only property '\(StringCell(a).swiftString)' of object")
            }
        }
    }
}
