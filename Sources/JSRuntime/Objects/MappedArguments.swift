// Mapped arguments objects (ECMA-262 10.4.4, CreateMappedArgumentsObject): in a sloppy
// function with a simple parameter list, `arguments[i]` and the i-th parameter are the
// same variable until the index is deleted, redefined as an accessor or made read-only.
//
// The compiler keeps the parameters of such a function (and only of such a function: one
// that names `arguments` or contains direct eval) in consecutive slots of its function
// environment (`CodeBlock.mappedArgumentsSlot`); the object reads and writes through them,
// as JavaScriptCore's ScopedArguments does. Layout (kind `.arguments`, `ObjectFlags.exotic`
// while some index is mapped):
//   word 0  the environment slot of parameter 0
//   word 1  the function environment (traced)
//   word 2  the mapped indices: a bit mask (up to 64 parameters), or with
//           `ArgumentsFlags.largeMap` an environment cell of `true`/`false` slots
//
// A mapped index has no value in the object's own storage: its dense element is a hole, so
// the interpreter's and the JIT's element fast paths (which take only non-holes) miss and
// reach the hooks below. The index's property is implicit — a writable, enumerable,
// configurable data property whose value is the parameter's — unless a definition gave it
// other attributes (non-configurable), in which case it sits in the ordinary storage with a
// stale value and the parameter supplies the value. Unmapped indices (past the parameters
// or the actual arguments, shadowed duplicates) are ordinary dense elements, fast paths
// included, and so are the named properties (`length`, `callee`, @@iterator: the shared
// sloppy arguments shape, so inline caches keep serving `arguments.length`). When the last
// mapped index goes the object drops `ObjectFlags.exotic` and is ordinary again.

import JSBytecode

public enum ArgumentsFlags {
    /// Word 2 is an environment cell of per-index flags (more than 64 parameters).
    public static let largeMap: UInt16 = 128
}

extension Runtime {
    /// CreateMappedArgumentsObject for the top frame (`createMappedArguments`); an
    /// unmapped sloppy object when the function maps nothing.
    func makeMappedArgumentsObject(_ fp: UnsafeMutablePointer<Frame>, _ code: CodeBlock) throws(JSException) -> Value {
        let base = code.mappedArgumentsSlot
        let p = code.parameterCount
        let n = min(fp.pointee.argc, p)
        guard base >= 0, n > 0, let env = fp.pointee.env else {
            return try makeArgumentsObject(fp, parameterCount: p, registerCount: code.registerCount, strict: false)
        }
        let v = try makeArgumentsObject(fp, parameterCount: p, registerCount: code.registerCount, strict: false)
        let a = JSObject(v)
        heap.pushRoot(v)
        defer { heap.popRoots(1) }
        var mapped = [Bool](repeating: true, count: n)
        for i in code.shadowedParameters where i < n { mapped[i] = false }
        a.setWord(0, UInt64(base))
        a.setWord(1, UInt64(UInt(bitPattern: env)))
        if n <= 64 {
            var bits: UInt64 = 0
            for i in 0..<n where mapped[i] { bits |= 1 << UInt64(i) }
            a.setWord(2, bits)
        } else {
            let m = try makeEnvironment(parent: nil, count: n)
            for i in 0..<n { m.slots[i] = mapped[i] ? .true : .false }
            a.setWord(2, UInt64(UInt(bitPattern: m.cell)))
            a.flags |= ArgumentsFlags.largeMap
        }
        // The mapped indices are holes: their values are the parameters'.
        let e = a.elements!
        for i in 0..<n where mapped[i] { e[i] = .empty }
        a.flags |= ObjectFlags.exotic
        return v
    }

    /// The environment slot that index `key` of a mapped arguments object aliases, if mapped.
    @inline(__always)
    func mappedArgumentSlot(_ o: JSObject, _ key: Key) -> UnsafeMutablePointer<Value>? {
        guard case .index(let i) = key else { return nil }
        if o.flags & ArgumentsFlags.largeMap != 0 {
            let m = Environment(UnsafeMutableRawPointer(bitPattern: UInt(o.word(2)))!)
            guard Int(i) < m.count, m.slots[Int(i)].bits == Value.true.bits else { return nil }
        } else {
            guard i < 64, o.word(2) & (1 << UInt64(i)) != 0 else { return nil }
        }
        let env = Environment(UnsafeMutableRawPointer(bitPattern: UInt(o.word(1)))!)
        return env.slots + Int(o.word(0)) + Int(i)
    }

    /// Removes index `i` from the map; the last one makes the object ordinary.
    func unmapArgument(_ o: JSObject, _ i: UInt32) {
        var any = false
        if o.flags & ArgumentsFlags.largeMap != 0 {
            let m = Environment(UnsafeMutableRawPointer(bitPattern: UInt(o.word(2)))!)
            m.slots[Int(i)] = .false
            for j in 0..<m.count where m.slots[j].bits == Value.true.bits { any = true; break }
        } else {
            let bits = o.word(2) & ~(1 << UInt64(i))
            o.setWord(2, bits)
            any = bits != 0
        }
        if !any { o.flags &= ~ObjectFlags.exotic }
    }

    /// After an ordinary definition on a still-mapped index: a value in the dense elements
    /// (default attributes) goes back to being implicit, so that fast paths keep missing.
    func rehideMappedArgument(_ o: JSObject, _ i: UInt32) {
        if Int(i) < o.elementsLength, let e = o.elements, !e[Int(i)].isEmpty { e[Int(i)] = .empty }
    }

    // MARK: - Internal methods (dispatched from Exotic.swift)

    /// [[GetOwnProperty]] (10.4.4.1).
    func argumentsGetOwnProperty(_ o: JSObject, _ key: Key) throws(JSException) -> OwnProperty? {
        guard let slot = mappedArgumentSlot(o, key) else { return try ordinaryGetOwnProperty(o, key) }
        guard let own = try ordinaryGetOwnProperty(o, key) else { return .data(slot.pointee, .all) }
        return .data(slot.pointee, own.attributes)
    }

    /// [[DefineOwnProperty]] (10.4.4.2).
    func argumentsDefineOwnProperty(_ o: JSObject, _ key: Key, _ desc: PropertyDescriptor) throws(JSException) -> Bool {
        guard let slot = mappedArgumentSlot(o, key), case .index(let i) = key else {
            return try ordinaryDefineOwnProperty(o, key, desc)
        }
        var newDesc = desc
        if desc.isData && desc.value == nil && desc.writable == false { newDesc.value = slot.pointee }
        // The implicit property becomes an ordinary one for OrdinaryDefineOwnProperty (it
        // exists already: no extensibility check).
        if try ordinaryGetOwnProperty(o, key) == nil {
            if Int(i) < o.elementsLength, let e = o.elements {
                e[Int(i)] = slot.pointee
            } else {
                try addProperty(o, key, slot.pointee, .all)
            }
        }
        if let v = newDesc.value { heap.pushRoot(v) }
        defer { if newDesc.value != nil { heap.popRoots(1) } }
        if !(try ordinaryDefineOwnProperty(o, key, newDesc)) {
            rehideMappedArgument(o, i)
            return false
        }
        if desc.isAccessor {
            unmapArgument(o, i)
        } else {
            if let v = desc.value { slot.pointee = v }
            if desc.writable == false {
                unmapArgument(o, i)
            } else {
                rehideMappedArgument(o, i)
            }
        }
        return true
    }

    /// [[Get]] (10.4.4.3).
    func argumentsGet(_ o: JSObject, _ key: Key, receiver: Value) throws(JSException) -> Value {
        if let slot = mappedArgumentSlot(o, key) { return slot.pointee }
        return try ordinaryGet(o, key, receiver: receiver)
    }

    /// [[Set]] (10.4.4.4).
    func argumentsSet(_ o: JSObject, _ key: Key, _ value: Value, receiver: Value) throws(JSException) -> Bool {
        if receiver.isCell && receiver.asCell == o.cell, let slot = mappedArgumentSlot(o, key) {
            // A mapped index is a writable data property: OrdinarySet redefines its value,
            // which [[DefineOwnProperty]] writes to the parameter (the ordinary storage's
            // copy, if any, is never read while mapped).
            slot.pointee = value
            return true
        }
        return try ordinarySet(o, key, value, receiver: receiver)
    }

    /// [[HasProperty]]: a mapped index is always an own property.
    func argumentsHasProperty(_ o: JSObject, _ key: Key) throws(JSException) -> Bool {
        if mappedArgumentSlot(o, key) != nil { return true }
        return try ordinaryHasProperty(o, key)
    }

    /// [[Delete]] (10.4.4.5).
    func argumentsDelete(_ o: JSObject, _ key: Key) throws(JSException) -> Bool {
        guard mappedArgumentSlot(o, key) != nil, case .index(let i) = key else { return try ordinaryDelete(o, key) }
        if try ordinaryGetOwnProperty(o, key) != nil {
            if !(try ordinaryDelete(o, key)) { return false }
        }
        unmapArgument(o, i)
        return true
    }

    /// [[OwnPropertyKeys]]: the ordinary keys plus the implicit mapped indices.
    func argumentsOwnKeys(_ o: JSObject) throws(JSException) -> [Key] {
        var keys = try ordinaryOwnKeys(o)
        var implicit: [UInt32] = []
        let n = o.flags & ArgumentsFlags.largeMap != 0
            ? Environment(UnsafeMutableRawPointer(bitPattern: UInt(o.word(2)))!).count : 64
        for i in 0..<UInt32(n) where mappedArgumentSlot(o, .index(i)) != nil {
            if try ordinaryGetOwnProperty(o, .index(i)) == nil { implicit.append(i) }
        }
        if implicit.isEmpty { return keys }
        var indices = implicit
        var rest: [Key] = []
        for k in keys {
            if case .index(let i) = k { indices.append(i) } else { rest.append(k) }
        }
        indices.sort()
        keys = indices.map { Key.index($0) } + rest
        return keys
    }
}
