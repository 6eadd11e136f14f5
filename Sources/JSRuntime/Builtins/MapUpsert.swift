// Map.prototype.getOrInsert / getOrInsertComputed and the WeakMap versions (the upsert
// proposal, in the test suite): https://tc39.es/proposal-upsert/

extension Runtime {
    /// CanonicalizeKeyedCollectionKey: -0 becomes +0.
    func canonicalCollectionKey(_ k: Value) -> Value {
        if k.isDouble && k.asDouble == 0 { return Value(int32: 0) }
        return k
    }

    func collectionGetOrInsert(_ m: JSObject, _ key: Value, _ value: Value) throws(JSException) -> Value {
        if let i = try collectionFind(m, key) { return collectionStorage(m).elements![2 * i + 1] }
        try collectionSet(m, key, value)
        return value
    }

    func collectionGetOrInsertComputed(_ m: JSObject, _ key: Value, _ callback: Value) throws(JSException) -> Value {
        if let i = try collectionFind(m, key) { return collectionStorage(m).elements![2 * i + 1] }
        heap.pushRoot(key)
        defer { heap.popRoots(1) }
        let value = try call(callback, this: .undefined, key)
        heap.pushRoot(value)
        defer { heap.popRoots(1) }
        // The callback may have added the key: the entry is overwritten then.
        try collectionSet(m, key, value)
        return value
    }

    func installMapUpsert() throws(JSException) {
        try method(realm.mapPrototype, "getOrInsert", 2) { rt, this, args, _ throws(JSException) in
            let m = try rt.thisCollection(this, .map, weak: false, "Map.prototype.getOrInsert")
            return try rt.collectionGetOrInsert(m, rt.canonicalCollectionKey(rt.arg(args, 0)), rt.arg(args, 1))
        }
        try method(realm.mapPrototype, "getOrInsertComputed", 2) { rt, this, args, _ throws(JSException) in
            let m = try rt.thisCollection(this, .map, weak: false, "Map.prototype.getOrInsertComputed")
            let f = rt.arg(args, 1)
            if !rt.isCallable(f) { throw try rt.typeError("Map.prototype.getOrInsertComputed: the callback is not a function") }
            return try rt.collectionGetOrInsertComputed(m, rt.canonicalCollectionKey(rt.arg(args, 0)), f)
        }
        try method(realm.weakMapPrototype, "getOrInsert", 2) { rt, this, args, _ throws(JSException) in
            let m = try rt.thisCollection(this, .map, weak: true, "WeakMap.prototype.getOrInsert")
            let k = rt.arg(args, 0)
            if !rt.canBeHeldWeakly(k) { throw try rt.typeError("Invalid value used as weak map key") }
            return try rt.collectionGetOrInsert(m, k, rt.arg(args, 1))
        }
        try method(realm.weakMapPrototype, "getOrInsertComputed", 2) { rt, this, args, _ throws(JSException) in
            let m = try rt.thisCollection(this, .map, weak: true, "WeakMap.prototype.getOrInsertComputed")
            let k = rt.arg(args, 0)
            if !rt.canBeHeldWeakly(k) { throw try rt.typeError("Invalid value used as weak map key") }
            let f = rt.arg(args, 1)
            if !rt.isCallable(f) { throw try rt.typeError("WeakMap.prototype.getOrInsertComputed: the callback is not a function") }
            return try rt.collectionGetOrInsertComputed(m, k, f)
        }
    }
}
