// Super property references (`super.x`, `super[k]`): MakeSuperPropertyReference takes the
// base (GetSuperBase, the home object's prototype) when the reference is evaluated, after
// the key expression and before the key's ToPropertyKey; GetValue and PutValue use `this`
// as the receiver. https://tc39.es/ecma262/#sec-super-keyword-runtime-semantics-evaluation

extension Runtime {
    /// GetSuperBase: [[GetPrototypeOf]]() of the running function's home object.
    func superBase(_ home: Value) throws(JSException) -> Value {
        guard isObject(home) else { throw try makeError(.syntaxError, "'super' keyword unexpected here") }
        return try getPrototypeOf(JSObject(home))
    }

    /// PutValue(super[key], value): ToObject(base), ToPropertyKey(key), then
    /// base.[[Set]](key, value, this); a failed set throws in strict code.
    func setSuperValue(_ base: Value, _ keyValue: Value, _ value: Value, this thisValue: Value, strict: Bool) throws(JSException) {
        if !isObject(base) { throw try typeError("Cannot set properties of \(base.isNull ? "null" : "undefined")") }
        let k = try toPropertyKey(keyValue)
        if thisValue.isEmpty { throw try referenceError("Must call super constructor in derived class before accessing 'this'") }
        if !(try set(JSObject(base), k, value, receiver: thisValue)) && strict {
            throw try typeError("Cannot assign to read only property '\(keyDescription(k))' of object")
        }
    }
}
