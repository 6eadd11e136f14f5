// Runtime.atom(_:) for Swift strings: found in the atom table by its hash (no Swift
// dictionary), the same atom a script's property name interns, and kept for the runtime's life.
import Testing
import JSSyntax
@testable import JSRuntime

@Suite struct AtomTests {
    @Test func swiftNamesAndScriptNamesShareAtoms() throws {
        let rt = Runtime()
        try rt.initializeRealm()
        // Interned by a script first (a 16-bit string too), then asked for from Swift.
        let v = try rt.evaluateScript(SourceFile(name: "a.js", text: """
            var o = {}; o['plain' + 'Name'] = 1; o['\\u00e9t\\u00e9'] = 2; o['\\u0100x'] = 3; o
            """))
        let o = JSObject(v)
        for name in ["plainName", "été", "Āx"] {
            let a = rt.atom(name)
            #expect(rt.atom(name) == a)
            #expect(ShapeCell(o.shape).lookup(PropertyKey(cell: a)) != nil, "\(name)")
            #expect(StringCell(a).swiftString == name)
        }
        // Asked for from Swift first: a script's literal finds the same atom.
        let b = rt.atom("fromSwift")
        try rt.put(rt.realm.global, "fromSwift", Value(int32: 7))
        #expect(try rt.flatten(try rt.toString(try rt.evaluateScript(SourceFile(name: "b.js", text: "fromSwift + ''")))).swiftString == "7")
        // Pinned: collections keep them, so native code may hold the pointers.
        for _ in 0..<3 { rt.heap.collect() }
        #expect(rt.atom("fromSwift") == b && StringCell(b).swiftString == "fromSwift")
        #expect(rt.atom("") == rt.atom(""))
    }
}
