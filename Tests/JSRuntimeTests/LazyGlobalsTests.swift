// Builtins installed at the first use of their global names (LazyGlobals.swift): nothing
// of them is made at realm creation, and no script can tell when they were.
import Testing
import JSSyntax
@testable import JSRuntime

private func run(_ rt: Runtime, _ source: String) throws -> String {
    let v = try rt.evaluateScript(SourceFile(name: "lazy.js", bytes: Array(source.utf8)))
    return try rt.flatten(try rt.toString(v)).swiftString
}

private func fresh() throws -> Runtime {
    let rt = Runtime()
    try rt.initializeRealm()
    return rt
}

@Suite struct LazyGlobalsTests {
    @Test func nothingIsInstalledAtStart() throws {
        let rt = try fresh()
        #expect(rt.realm.lazyPending == LazyGlobalGroup.all)
        #expect(rt.realm.binaryStorage.typedArrayPrototype == nil && rt.realm.datePrototype == nil)
        // One group at a time: Date installs Date only.
        #expect(try run(rt, "typeof Date.now()") == "number")
        #expect(rt.realm.lazyPending == LazyGlobalGroup.all & ~LazyGlobalGroup.date)
    }

    /// Every way of reaching a global property sees the builtin as an ordinary data property.
    @Test(arguments: [
        "typeof Uint8Array", "typeof globalThis.Float64Array", "'DataView' in globalThis",
        "globalThis.hasOwnProperty('Atomics')", "Object.getOwnPropertyDescriptor(globalThis, 'Math').writable",
        "Object.keys(Object.getOwnPropertyDescriptor(globalThis, 'Reflect')).join('/')",
        "Object.getOwnPropertyNames(globalThis).includes('WeakRef')",
        "Reflect.ownKeys(globalThis).includes('FinalizationRegistry')",
        "(function () { for (var k in globalThis) if (k === 'Date') return 'enumerable'; return 'not enumerable'; })()",
        "delete globalThis.Proxy, typeof Proxy", "(globalThis.Date = 7, Date)", "typeof eval('Math')",
        "(function () { 'use strict'; try { SharedArrayBuffer = 1; return typeof SharedArrayBuffer } catch (e) { return e.name } })()",
    ])
    func visibleAsDataProperties(_ expression: String) throws {
        let lazy = try run(try fresh(), expression)
        // The same expression after every group was installed (by listing the keys).
        let eager = try fresh()
        _ = try run(eager, "Object.getOwnPropertyNames(globalThis)")
        #expect(eager.realm.lazyPending == 0)
        #expect(lazy == (try run(eager, expression)), "\(expression)")
    }

    @Test func declarationsOfTheSameNames() throws {
        #expect(try run(try fresh(), "var Date = 5; Date") == "5")
        #expect(try run(try fresh(), "var Math; typeof Math") == "object")   // an existing property keeps its value
        #expect(try run(try fresh(), "function Reflect() {} typeof Reflect.ownKeys") == "undefined")
        #expect(try run(try fresh(), "let Atomics = 1; [Atomics, typeof globalThis.Atomics].join()") == "1,object")
    }

    @Test func aNonExtensibleGlobalHasThemAll() throws {
        let rt = try fresh()
        #expect(try run(rt, "Object.preventExtensions(globalThis); [Object.isExtensible(globalThis), typeof Int32Array, typeof WeakRef].join()")
            == "false,function,function")
        #expect(rt.realm.lazyPending == 0)
    }

    @Test func eachRealmInstallsItsOwn() throws {
        let rt = try fresh()
        let second = try rt.createRealm()
        try rt.put(rt.realm.global, "other", Value(cell: second.global.cell))
        #expect(try run(rt, "[other.Date !== Date, new other.Date(0) instanceof other.Date, Object.getPrototypeOf(new other.Uint8Array(1)) === other.Uint8Array.prototype, other.Math !== Math].join()")
            == "true,true,true,true")
        // A constructor of this realm with another realm's newTarget whose prototype is not an
        // object: the prototype is that realm's intrinsic, installed for the occasion.
        let third = try rt.createRealm()
        try rt.put(rt.realm.global, "third", Value(cell: third.global.cell))
        #expect(try run(rt, "var f = new third.Function(); f.prototype = 1; Object.getPrototypeOf(Reflect.construct(WeakRef, [{}], f)) === third.WeakRef.prototype")
            == "true")
    }

    @Test func internalUseInstallsTheGroup() throws {
        let rt = try fresh()
        // The runtime's own use of the typed-array intrinsics (as the host's and the FFI's).
        #expect(rt.realm.binary.typedArrayPrototype != nil)
        #expect(try run(rt, "Object.getPrototypeOf(Uint8Array) === Object.getPrototypeOf(Int8Array)") == "true")
    }

    @Test func collectionsUnderGCStress() throws {
        let rt = try fresh()
        rt.heap.gcStress = true
        defer { rt.heap.gcStress = false }
        #expect(try run(rt, "var a = new Float64Array([1.5, 2]); new Date(86400000).getUTCDate() + a[0] + Math.max(1, 2) + Reflect.ownKeys([]).length")
            == "6.5")
    }
}
