// A compiled code block belongs to the runtime that first runs it (its constants and
// inline caches point into that runtime's heap): any other runtime refuses it.
import Testing
@testable import JSRuntime
import JSBytecode
import JSBytecompiler
import JSSyntax

@Suite struct CodeOwnershipTests {
    func compile(_ text: String) throws -> CodeBlock {
        try Compiler.compileScript(try parseScript(SourceFile(name: "owned.js", text: text)))
    }

    func runtime() throws -> Runtime {
        let rt = Runtime()
        try rt.initializeRealm()
        return rt
    }

    @Test func codeRunsAgainInItsOwnRuntimeOnly() throws {
        let code = try compile("var n = (globalThis.n || 0) + 1; function f() { return 'k' + n } f()")
        let a = try runtime()
        #expect(try a.flatten(try a.runScript(compiled: code)).swiftString == "k1")
        #expect(try a.flatten(try a.runScript(compiled: code)).swiftString == "k2")
        let b = try runtime()
        #expect(throws: JSException.self) { _ = try b.runScript(compiled: code) }
        // b is unharmed.
        #expect(try b.flatten(try b.evaluateScript(SourceFile(name: "b.js", text: "typeof n"))).swiftString == "undefined")
    }

    @Test func nestedCodeIsClaimedWithItsScript() throws {
        let code = try compile("function outer() { return function inner() { return 1 } } class C { m() { return 2 } } outer()() + new C().m()")
        let a = try runtime()
        #expect(try a.runScript(compiled: code).asNumber == 3)
        // A function nested in it, run directly elsewhere, is refused as well.
        guard case .function(let nested)? = code.constants.first(where: { if case .function = $0 { return true }; return false }) else {
            Issue.record("no nested function")
            return
        }
        let b = try runtime()
        #expect(throws: JSException.self) { _ = try b.runScript(compiled: nested) }
    }

    @Test func codeOfAGoneRuntimeStaysRefused() throws {
        let code = try compile("({ a: 1 }).a")
        do {
            let a = try runtime()
            _ = try a.runScript(compiled: code)
        }
        // Its runtime is gone; the block's materialized constants point into a freed heap.
        let b = try runtime()
        #expect(throws: JSException.self) { _ = try b.runScript(compiled: code) }
        // A fresh compile of the same source runs.
        #expect(try b.runScript(compiled: try compile("({ a: 1 }).a")).asNumber == 1)
    }
}
