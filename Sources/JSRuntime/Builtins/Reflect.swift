// The Reflect object. https://tc39.es/ecma262/#sec-reflect-object

extension Runtime {
    func reflectTarget(_ v: Value, _ name: String) throws(JSException) -> JSObject {
        guard isObject(v) else { throw try typeError("Reflect.\(name) called on non-object") }
        return JSObject(v)
    }

    func installReflect() throws(JSException) {
        let r = try newObject()
        try put(realm.global, "Reflect", Value(cell: r.cell))
        try defineOwnProperty(r, symbolKey(wellKnown.toStringTag), .data(try makeString("Reflect"), [.configurable]))
        try method(r, "apply", 3) { rt, _, args, _ throws(JSException) in
            let f = rt.arg(args, 0)
            if !rt.isCallable(f) { throw try rt.typeError("Reflect.apply: \(try rt.describeForError(f)) is not a function") }
            let list = try rt.createListFromArrayLike(rt.arg(args, 2))
            rt.heap.pushRoot(Value(cell: list.cell))
            defer { rt.heap.popRoots(1) }
            return try rt.callFunction(f, this: rt.arg(args, 1), rt.argumentBuffer(list))
        }
        try method(r, "construct", 2) { rt, _, args, _ throws(JSException) in
            let target = rt.arg(args, 0)
            if !rt.isConstructor(target) { throw try rt.typeError("Reflect.construct: \(try rt.describeForError(target)) is not a constructor") }
            let nt = args.count > 2 ? args[2] : target
            if !rt.isConstructor(nt) { throw try rt.typeError("Reflect.construct: \(try rt.describeForError(nt)) is not a constructor") }
            let list = try rt.createListFromArrayLike(rt.arg(args, 1))
            rt.heap.pushRoot(Value(cell: list.cell))
            defer { rt.heap.popRoots(1) }
            return try rt.construct(target, rt.argumentBuffer(list), newTarget: nt)
        }
        try method(r, "defineProperty", 3) { rt, _, args, _ throws(JSException) in
            let o = try rt.reflectTarget(rt.arg(args, 0), "defineProperty")
            let k = try rt.toPropertyKey(rt.arg(args, 1))
            if case .named(let p) = k { rt.heap.pushRoot(p.value) } else { rt.heap.pushRoot(.undefined) }
            defer { rt.heap.popRoots(1) }
            let desc = try rt.toPropertyDescriptor(rt.arg(args, 2))
            return Value(try rt.defineOwnProperty(o, k, desc))
        }
        try method(r, "deleteProperty", 2) { rt, _, args, _ throws(JSException) in
            let o = try rt.reflectTarget(rt.arg(args, 0), "deleteProperty")
            return Value(try rt.deleteProperty(o, try rt.toPropertyKey(rt.arg(args, 1))))
        }
        try method(r, "get", 2) { rt, _, args, _ throws(JSException) in
            let o = try rt.reflectTarget(rt.arg(args, 0), "get")
            let k = try rt.toPropertyKey(rt.arg(args, 1))
            return try rt.get(o, k, receiver: args.count > 2 ? args[2] : Value(cell: o.cell))
        }
        try method(r, "getOwnPropertyDescriptor", 2) { rt, _, args, _ throws(JSException) in
            let o = try rt.reflectTarget(rt.arg(args, 0), "getOwnPropertyDescriptor")
            return try rt.fromPropertyDescriptor(try rt.getOwnProperty(o, try rt.toPropertyKey(rt.arg(args, 1))))
        }
        try method(r, "getPrototypeOf", 1) { rt, _, args, _ throws(JSException) in
            try rt.reflectTarget(rt.arg(args, 0), "getPrototypeOf").prototype
        }
        try method(r, "has", 2) { rt, _, args, _ throws(JSException) in
            let o = try rt.reflectTarget(rt.arg(args, 0), "has")
            return Value(try rt.hasProperty(o, try rt.toPropertyKey(rt.arg(args, 1))))
        }
        try method(r, "isExtensible", 1) { rt, _, args, _ throws(JSException) in
            Value(try rt.reflectTarget(rt.arg(args, 0), "isExtensible").isExtensible)
        }
        try method(r, "ownKeys", 1) { rt, _, args, _ throws(JSException) in
            let o = try rt.reflectTarget(rt.arg(args, 0), "ownKeys")
            let keys = try rt.ownKeys(o)
            let a = try rt.newArray(capacity: keys.count)
            rt.heap.pushRoot(Value(cell: a.cell))
            defer { rt.heap.popRoots(1) }
            for (i, k) in keys.enumerated() { try rt.createDataProperty(a, .index(UInt32(i)), try rt.keyValue(k)) }
            return Value(cell: a.cell)
        }
        try method(r, "preventExtensions", 1) { rt, _, args, _ throws(JSException) in
            Value(rt.preventExtensions(try rt.reflectTarget(rt.arg(args, 0), "preventExtensions")))
        }
        try method(r, "set", 3) { rt, _, args, _ throws(JSException) in
            let o = try rt.reflectTarget(rt.arg(args, 0), "set")
            let k = try rt.toPropertyKey(rt.arg(args, 1))
            return Value(try rt.set(o, k, rt.arg(args, 2), receiver: args.count > 3 ? args[3] : Value(cell: o.cell)))
        }
        try method(r, "setPrototypeOf", 2) { rt, _, args, _ throws(JSException) in
            let o = try rt.reflectTarget(rt.arg(args, 0), "setPrototypeOf")
            let p = rt.arg(args, 1)
            if !rt.isObject(p) && !p.isNull { throw try rt.typeError("Object prototype may only be an Object or null: \(try rt.describeForError(p))") }
            return Value(try rt.setPrototype(o, p))
        }
    }
}
