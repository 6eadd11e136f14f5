// More than one realm in a runtime (Realms.swift): own intrinsics and global object per
// realm, calls that enter the callee's realm, GetFunctionRealm, the shared symbol registry.
import Testing
import JSSyntax
@testable import JSRuntime

/// Runs `source` in the first realm of a runtime that also has a second realm, whose
/// global object the script sees as `other`; returns the completion value as a string.
private func evalWithOtherRealm(_ source: String, gcStress: Bool = false) throws -> String {
    let rt = Runtime()
    try rt.initializeRealm()
    let second = try rt.createRealm()
    try rt.put(rt.realm.global, "other", Value(cell: second.global.cell))
    rt.heap.gcStress = gcStress
    defer { rt.heap.gcStress = false }
    do {
        let v = try rt.evaluateScript(SourceFile(name: "realm.js", bytes: Array(source.utf8)))
        return try rt.flatten(try rt.toString(v)).swiftString
    } catch {
        let e = error.value
        if rt.isObject(e) { return "threw " + (try rt.flatten(try rt.toString(e)).swiftString) }
        return "threw"
    }
}

@Suite struct RealmTests {
    @Test func ownIntrinsics() throws {
        #expect(try evalWithOtherRealm("[other.Array !== Array, other.Object.prototype !== Object.prototype, other.globalThis === other, other !== globalThis].join()")
            == "true,true,true,true")
        // Objects made by the other realm's builtins have its prototypes.
        #expect(try evalWithOtherRealm("var a = new other.Array(1, 2); [Object.getPrototypeOf(a) === other.Array.prototype, a instanceof Array, Array.isArray(a)].join()")
            == "true,false,true")
        #expect(try evalWithOtherRealm("Object.getPrototypeOf(other.eval('[]')) === other.Array.prototype") == "true")
    }

    @Test func callsRunInTheCalleesRealm() throws {
        // Errors thrown by the other realm's builtins and code are its own.
        #expect(try evalWithOtherRealm("try { new other.Array(-1) } catch (e) { [e instanceof other.RangeError, e instanceof RangeError].join() }")
            == "true,false")
        #expect(try evalWithOtherRealm("var f = other.eval('(function () { return globalThis; })'); f() === other") == "true")
        #expect(try evalWithOtherRealm("var f = other.Function('return this'); f() === other") == "true")
        // A callback of this realm called from the other realm's builtin runs here.
        #expect(try evalWithOtherRealm("other.Array.prototype.map.call([1], function () { return globalThis === this; }, globalThis)[0]") == "true")
        // Back in this realm after the call (and after a throw).
        #expect(try evalWithOtherRealm("try { other.eval('null.x') } catch (e) {} [Object.getPrototypeOf([]) === Array.prototype, globalThis !== other].join()")
            == "true,true")
        // Generators of the other realm resume in it.
        #expect(try evalWithOtherRealm("var g = other.eval('(function* () { yield globalThis; })')(); g.next().value === other") == "true")
    }

    @Test func getFunctionRealm() throws {
        // GetPrototypeFromConstructor falls back to newTarget's realm's intrinsic.
        #expect(try evalWithOtherRealm("var C = new other.Function(); C.prototype = null; Object.getPrototypeOf(Reflect.construct(Array, [], C)) === other.Array.prototype")
            == "true")
        #expect(try evalWithOtherRealm("var C = new other.Function(); C.prototype = 1; Object.getPrototypeOf(Reflect.construct(Date, [], C)) === other.Date.prototype")
            == "true")
        // ArraySpeciesCreate: another realm's %Array% makes an array of this realm.
        #expect(try evalWithOtherRealm("var a = []; a.constructor = other.Array; Object.getPrototypeOf(a.map(x => x)) === Array.prototype")
            == "true")
    }

    @Test func sharedSymbolRegistry() throws {
        #expect(try evalWithOtherRealm("[other.Symbol.for('x') === Symbol.for('x'), other.Symbol.iterator === Symbol.iterator, other.Symbol.keyFor(Symbol.for('y'))].join()")
            == "true,true,y")
    }

    @Test func survivesCollections() throws {
        #expect(try evalWithOtherRealm("var r = []; for (var i = 0; i < 3; i++) r.push(new other.Map([[i, i]]).get(i)); r.join() + other.JSON.stringify({a: [1]})",
                                       gcStress: true) == "0,1,2{\"a\":[1]}")
    }
}

@Suite struct NewBuiltinTests {
    @Test func sumPrecise() throws {
        #expect(try evalToString("[Math.sumPrecise([1e308, 1e308, 0.1, 0.1, 1e30, 0.1, -1e30, -1e308, -1e308]), Math.sumPrecise([1e30, 0.1, -1e30]), Object.is(Math.sumPrecise([]), -0), Math.sumPrecise([8.98846567431158e+307, 8.98846567431158e+307])].join()")
            == "0.30000000000000004,0.1,true,Infinity")
        #expect(try evalToString("Math.sumPrecise([{}])").hasPrefix("threw TypeError"))
    }

    @Test func rawJSONAndIsError() throws {
        #expect(try evalToString("JSON.stringify({a: JSON.rawJSON('1e1000'), b: [JSON.rawJSON('\"x\"')]})") == "{\"a\":1e1000,\"b\":[\"x\"]}")
        #expect(try evalToString("[JSON.isRawJSON(JSON.rawJSON(1)), JSON.isRawJSON({rawJSON: '1'}), Object.isFrozen(JSON.rawJSON(1))].join()") == "true,false,true")
        #expect(try evalToString("JSON.rawJSON('{}')").hasPrefix("threw SyntaxError"))
        #expect(try evalToString("[Error.isError(new TypeError()), Error.isError({__proto__: Error.prototype}), Error.isError(new (class extends Error {})())].join()")
            == "true,false,true")
    }

    @Test func isHTMLDDA() throws {
        let rt = Runtime()
        try rt.initializeRealm()
        let dda = try rt.makeNativeFunction("dda", length: 0) { _, _, _, _ throws(JSException) in .null }
        dda.flags |= ObjectFlags.htmlDDA
        try rt.put(rt.realm.global, "dda", Value(cell: dda.cell))
        let v = try rt.evaluateScript(SourceFile(name: "dda.js", bytes: Array("""
            [typeof dda, !dda, dda ? 1 : 2, dda == null, undefined == dda, dda === undefined, (dda ?? 1) === dda, dda(), dda == dda].join()
            """.utf8)))
        #expect(try rt.flatten(try rt.toString(v)).swiftString == "undefined,true,2,true,true,false,true,,true")
    }
}
