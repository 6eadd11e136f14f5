// Builtins installed at the first use of one of their global names (issue 16: start-up).
//
// Typed arrays and their buffers, DataView and Atomics, Date, Math, Reflect and Proxy,
// WeakRef and FinalizationRegistry, Map, Set, WeakMap and WeakSet are a third of a realm's
// builtins, and most scripts touch few of them. Their installers run when one of their names is first looked up on the realm's
// global object, as SpiderMonkey resolves its standard classes: the global object has a
// dictionary shape of its own whose info points back at the realm (`ShapeInfo.lazyRealm`),
// and a lookup there that misses a name marked `StringFlags.lazyGlobal` installs that
// name's group first and looks again. Listing the global's keys (`keysInOrder`: every
// [[OwnPropertyKeys]], for-in, Object.keys) and making it non-extensible install them all.
// So the properties are plain data properties whenever anything can see them: every
// [[GetOwnProperty]], [[HasProperty]], [[Get]], [[Set]], [[Delete]] and
// [[DefineOwnProperty]] on the global goes through a lookup, and so does every global-name
// cache fill of the interpreter and the JIT (a hit is cached only after a lookup found it).
// Only their position in the key order can differ (they come after the names defined
// before their first use).
//
// Internal uses of a group's intrinsics go through accessors that install it first
// (`Realm.binary`); an installer may only add properties to objects it makes and to the
// global object, and what the collector needs of its cells is installed with the first
// realm (`installLazyGroupHooks`). A lookup during a collection never installs.

enum LazyGlobalGroup {
    static let binary: UInt8 = 1      // ArrayBuffer, SharedArrayBuffer, typed arrays, DataView, Atomics
    static let date: UInt8 = 2
    static let math: UInt8 = 4
    static let reflect: UInt8 = 8     // Reflect, Proxy
    static let weakRefs: UInt8 = 16   // WeakRef, FinalizationRegistry
    static let collections: UInt8 = 32   // Map, Set, WeakMap, WeakSet
    static let all: UInt8 = 63

    /// Global name `i` of the lazy groups and its group; nil past the last (a switch, not
    /// an array: no generic metadata to instantiate at start).
    static func name(_ i: Int) -> (StaticString, UInt8)? {
        switch i {
        case 0: return ("ArrayBuffer", binary)
        case 1: return ("SharedArrayBuffer", binary)
        case 2: return ("Int8Array", binary)
        case 3: return ("Uint8Array", binary)
        case 4: return ("Uint8ClampedArray", binary)
        case 5: return ("Int16Array", binary)
        case 6: return ("Uint16Array", binary)
        case 7: return ("Int32Array", binary)
        case 8: return ("Uint32Array", binary)
        case 9: return ("Float16Array", binary)
        case 10: return ("Float32Array", binary)
        case 11: return ("Float64Array", binary)
        case 12: return ("BigInt64Array", binary)
        case 13: return ("BigUint64Array", binary)
        case 14: return ("DataView", binary)
        case 15: return ("Atomics", binary)
        case 16: return ("Date", date)
        case 17: return ("Math", math)
        case 18: return ("Reflect", reflect)
        case 19: return ("WeakRef", weakRefs)
        case 20: return ("FinalizationRegistry", weakRefs)
        case 21: return ("Proxy", reflect)
        case 22: return ("Map", collections)
        case 23: return ("Set", collections)
        case 24: return ("WeakMap", collections)
        case 25: return ("WeakSet", collections)
        default: return nil
        }
    }
}

extension Runtime {
    /// What the lazy groups give the collector, which must be there before any of their
    /// cells exists (an embedder may make buffers through the runtime's API): once per
    /// runtime, with the first realm.
    func installLazyGroupHooks() {
        installBufferHooks()
        installProxyHooks()
        installWeakReferenceHooks()
        installCollectionHooks()
    }

    /// Makes the global object of the realm being built (`realm`) resolve the lazy groups'
    /// names: a dictionary shape of its own pointing at the realm, the names' atoms marked.
    func deferLazyGlobals(_ r: Realm) throws(JSException) {
        try ensureDictionary(r.global)
        var i = 0
        while case let (name, _)? = LazyGlobalGroup.name(i) {
            header(atom(static: name)).pointee.flags |= StringFlags.lazyGlobal
            i += 1
        }
        r.lazyPending = LazyGlobalGroup.all
        ShapeCell(r.global.shape).info.lazyRealm = r
    }

    /// Called by a lookup on `r`'s global object that missed `key`, a name marked
    /// `lazyGlobal`: installs the name's group if `r` has not yet; true if it did.
    func resolveLazyGlobal(_ r: Realm, _ key: PropertyKey) -> Bool {
        if r.lazyPending == 0 || heap.collecting { return false }
        var i = 0
        while case let (name, group)? = LazyGlobalGroup.name(i) {
            if key.cell == atom(static: name) {
                if r.lazyPending & group == 0 { return false }
                installLazyGlobals(r, group)
                return true
            }
            i += 1
        }
        return false
    }

    /// Installs the groups in `groups` that `r` has not installed yet, in realm `r`.
    func installLazyGlobals(_ r: Realm, _ groups: UInt8) {
        let todo = r.lazyPending & groups
        if todo == 0 || heap.collecting { return }
        r.lazyPending &= ~todo
        if r.lazyPending == 0 { ShapeCell(r.global.shape).info.lazyRealm = nil }
        do {
            try withRealm(r) { () throws(JSException) in
                if todo & LazyGlobalGroup.math != 0 { try installMath() }
                if todo & LazyGlobalGroup.reflect != 0 { try installReflect() }
                if todo & LazyGlobalGroup.weakRefs != 0 { try installWeakRefs() }
                if todo & LazyGlobalGroup.binary != 0 { try installTypedArrays() }
                if todo & LazyGlobalGroup.date != 0 { try installDate() }
                if todo & LazyGlobalGroup.collections != 0 {
                    try installCollections()
                    try installMapUpsert()
                }
            }
        } catch {
            // Only out of memory (under --max-heap): what was installed stays, the rest
            // of the group is missing (a ReferenceError names it), nothing is corrupt.
        }
    }
}
