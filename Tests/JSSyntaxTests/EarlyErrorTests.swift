import Testing
@testable import JSSyntax

/// Early errors ("Static Semantics: Early Errors"), one group per kind.
@Suite struct EarlyErrors {
    @Test(arguments: [
        "let a; let a;", "let a; var a;", "const a = 1; function a() {}", "class A {} class A {}",
        "{ let a; var a; }", "{ function f() {} let f; }", "function f(a) { let a; }", "try {} catch (e) { let e; }",
        "try {} catch ([e]) { var e; }", "try {} catch ([e]) { for (var e of []); }", "for (let a of b) { var a; }",
        "switch (x) { case 1: let a; case 2: let a; }", "let let = 1", "(function(a, a) { 'use strict' })",
        "(a, a) => 0", "({ m(a, a) {} })", "function f(a, [a]) {}", "'use strict'; { function f() {} function f() {} }",
        "{ async function f() {} function f() {} }",
    ])
    func redeclarations(source: String) { #expect(!jsAccepts(source), "\(source)") }

    @Test(arguments: [
        "1 = 2", "a + b = c", "a++ = 1", "++a++", "\"use strict\"; f() = 1", "f() &&= 1", "(a, b) = 1", "({a}) = 1", "([a]) = 1",
        "[...a, b] = c", "[...a,] = c", "({...{a}} = b)", "({a: 1} = b)", "a?.b = 1", "for (a?.b of c);",
        "({ get a() {} } = b)", "(a = 1) = 2", "++(a = 1)", "[a] += 1", "`${a}` = 1", "new.target = 1",
        "({a = 1})", "({a = 1}).b", "({ __proto__: 1, __proto__: 2 })",
        "for (let [a] = 1 of b);", "for (var [a] = 1 in b);", "for (let a, b of c);",
    ])
    func invalidTargets(source: String) { #expect(!jsAccepts(source), "\(source)") }

    @Test(arguments: [
        "var eval", "eval = 1", "arguments++", "function eval() {}", "function f(eval) {}", "with (a) b",
        "delete x", "var let", "var static", "var yield", "implements = 1", "0123", "'\\08'", "function f() { 'use strict'; 01 }",
        "try {} catch (arguments) {}", "({ a(eval) {} })", "(eval) => 0", "function static() { 'use strict' }",
    ])
    func strictMode(source: String) {
        #expect(!jsAccepts(source, strict: true), "\(source)")
    }

    @Test(arguments: [
        "break", "continue", "x: break y", "while (1) { function f() { break } }", "l: { continue l }",
        "return", "l: l: ;", "switch (a) { default: default: }", "if (1) class C {}", "while (1) let [a] = b",
        "if (1) const a = 1", "do function f() {} while (0)", "label: function* g() {}", "if (1) async function f() {}",
        "while (1) function f() {}",
    ])
    func controlFlowAndPositions(source: String) { #expect(!jsAccepts(source), "\(source)") }

    @Test(arguments: [
        "function* g() { var yield }", "function* g(x = yield) {}", "async function f() { var await }",
        "async function f(x = await 1) {}", "async (x = await 1) => 0", "function* g() { (x = yield) => 0 }",
        "async (await) => 0", "class C { static { await } }", "class C { static { arguments } }",
        "class C { x = arguments }", "function* g() { yield\n* 2 }", "async function f() { (await) => 0 }",
        "(function* yield() {})", "(async function await() {})",
    ])
    func yieldAndAwait(source: String) { #expect(!jsAccepts(source), "\(source)") }

    @Test(arguments: [
        "class C { constructor() {} constructor() {} }", "class C { get constructor() {} }",
        "class C { *constructor() {} }", "class C { async constructor() {} }", "class C { static prototype() {} }",
        "class C { constructor = 1 }", "class C { #constructor() {} }", "class C { #a; #a }",
        "class C { get #a() {} static set #a(v) {} }", "class C { m() { this.#b } }", "this.#a",
        "class C { #a; m() { delete this.#a } }", "class C { constructor() { super() } }",
        "function f() { super.x }", "({ m: function() { super.x } })", "class C extends D { m() { super() } }",
        "class C { x = super() }", "class let {}", "class C { static #a() {} #a }",
        "class C { get x(a) {} }", "class C { set x() {} }", "class C { set x(...a) {} }",
        "({ get a(x) {} })", "({ set a(...x) {} })",
    ])
    func classes(source: String) { #expect(!jsAccepts(source), "\(source)") }

    @Test(arguments: [
        "function f(a = 1) { 'use strict' }", "(a = 1) => { 'use strict' }", "({ m([a]) { 'use strict' } })",
        "function f(...a) { 'use strict' }",
    ])
    func useStrictWithNonSimpleParameters(source: String) { #expect(!jsAccepts(source), "\(source)") }

    @Test func allowedCounterparts() {
        // The valid neighbours of the errors above.
        for source in [
            "var a; var a;", "function f() {} var f;", "try {} catch (e) { var e; }", "{ function f() {} function f() {} }",
            "function f(a) { var a; }", "class C { get #a() {} set #a(v) {} }", "class C { static x = 1; constructor() {} }",
            "class C extends D { constructor() { super() } }", "class C { 'constructor'() {} }", "class C { static constructor() {} }",
            "({ m() { super.x } })", "class C { x = this.y; #z = () => this }", "function f() { return new.target }",
            "async function f() { await 1 }", "function* g() { yield 1 }", "l: while (1) { continue l }",
        ] {
            #expect(jsAccepts(source), "\(source)")
        }
    }
}

@Suite struct ErrorPositions {
    @Test func lineAndColumn() {
        let e = parseError("var a = 1;\nvar b = ;\n")
        #expect(e?.line == 2)
        #expect(e?.column == 9)
        #expect(e?.kind == .syntaxError)
        #expect(e?.description.hasPrefix("test.js:2:9: SyntaxError:") == true)
    }

    @Test func redeclarationPointsAtSecondName() {
        let e = parseError("let x;\n  let x;")
        #expect(e?.line == 2 && e?.column == 7)
    }
}
