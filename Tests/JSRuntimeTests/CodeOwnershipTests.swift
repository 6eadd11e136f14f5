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

    /// When its runtime is gone, a block's runtime data (materialized constants, inline
    /// caches) went with it (the runtime breaks the CodeBlock <-> CodeData links as it
    /// dies): another runtime may then claim the block and runs it with fresh data.
    @Test func codeOfAGoneRuntimeRunsWithFreshData() throws {
        let code = try compile("({ a: 1 }).a")
        do {
            let a = try runtime()
            _ = try a.runScript(compiled: code)
        }
        #expect(code.runtimeData == nil)
        let b = try runtime()
        #expect(try b.runScript(compiled: code).asNumber == 1)
        // Now b's: a third runtime is refused while b lives.
        let c = try runtime()
        #expect(throws: JSException.self) { _ = try c.runScript(compiled: code) }
        _ = b
    }
}
