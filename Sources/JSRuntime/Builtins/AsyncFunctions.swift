// %AsyncFunction% and %AsyncGeneratorFunction% (not globals): CreateDynamicFunction with
// the async kinds; %AsyncFunction.prototype% is the [[Prototype]] of async functions,
// arrows and methods (which have no `prototype` and are not constructors).

extension Runtime {
    func installAsyncFunctionConstructors() throws(JSException) {
        let afProto = try newObject(prototype: realm.functionPrototype)
        realm.asyncFunctionPrototype = afProto
        realm.asyncFunctionShape = try rootShape(for: Value(cell: afProto.cell))
        try defineOwnProperty(afProto, symbolKey(wellKnown.toStringTag), .data(try makeString("AsyncFunction"), [.configurable]))
        try installDynamicFunctionConstructor("AsyncFunction", prefix: "async function", prototype: afProto) { rt in
            rt.realm.asyncFunctionPrototype
        }
        if let agfProto = realm.asyncGeneratorFunctionPrototype {
            try installDynamicFunctionConstructor("AsyncGeneratorFunction", prefix: "async function*", prototype: agfProto) { rt in
                rt.realm.asyncGeneratorFunctionPrototype
            }
        }
    }

    /// A constructor like %GeneratorFunction%: `prefix` names the kind of function it makes.
    func installDynamicFunctionConstructor(_ name: String, prefix: String, prototype: JSObject,
                                           _ fallback: @escaping (Runtime) -> JSObject) throws(JSException) {
        heap.pushRoot(Value(cell: prototype.cell))
        defer { heap.popRoots(1) }
        let c = try makeNativeFunction(name, length: 1, isConstructor: true) { rt, _, args, newTarget throws(JSException) in
            let f = try rt.createDynamicFunction(args, prefix: prefix)
            if !newTarget.isUndefined {
                rt.heap.pushRoot(f)
                defer { rt.heap.popRoots(1) }
                let p = try rt.prototypeFromConstructor(newTarget, fallback(rt))
                _ = try rt.setPrototype(JSObject(f), Value(cell: p.cell))
            }
            return f
        }
        heap.pushRoot(Value(cell: c.cell))
        defer { heap.popRoots(1) }
        _ = try setPrototype(c, Value(cell: realm.functionConstructor.cell))
        try defineOwnProperty(c, key(static: "prototype"), .data(Value(cell: prototype.cell), []))
        try defineOwnProperty(prototype, key(static: "constructor"), .data(Value(cell: c.cell), [.configurable]))
    }
}
