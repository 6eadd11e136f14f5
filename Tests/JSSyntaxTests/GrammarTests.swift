import Testing
@testable import JSSyntax

/// Programs every area of the grammar must accept (sloppy mode unless marked).
@Suite struct AcceptedSyntax {
    @Test(arguments: [
        // statements
        "var a = 1, b; let c; const d = 2;",
        "if (a) b; else if (c) d; else { e }",
        "for (;;) break; for (var i = 0; i < 1; i++) continue; for (const k in o); for (let v of a);",
        "for (x of y); for (x.y in z); for ([a, b] of c); for (let [a, {b}] of c);",
        "async function f() { for await (const x of y); }",
        "do x++; while (x < 3) y()",
        "l1: l2: for (;;) { continue l1; }",
        "switch (x) { case 1: case 2: break; default: y(); }",
        "try {} catch {} try {} catch (e) {} finally {}",
        "with (o) x;",
        "debugger;",
        // expressions
        "a ? b : c ? d : e",
        "a ?? b; (a || b) ?? c; a && b || c",
        "a ** b ** c; (-a) ** b",
        "a?.b?.[c]?.(d).e",
        "new a.b.C(); new new X()(); function f() { new.target }",
        "x = function* () { yield; yield* g(); yield\n1 }",
        "x = async () => { await 1 }; x = async x => x; x = async (a, ...b) => 0",
        "a ||= b; a &&= c; a ??= d; a **= 2; a >>>= 1",
        "x = {a, b: 1, [c]: 2, d() {}, get e() { return 1 }, set e(v) {}, async *f() {}, ...g, 'h': 3, 4: 5}",
        "x = [, , a, ...b, ,]",
        "`a${b}c`; tag`x`; a.b`y`",
        "({ __proto__: a, __proto__() {} })",
        "x = class { static #a = 1; #b; get #c() {} set #c(v) {} static { this.#a } m() { return #b in this } }",
        "class A extends B { constructor() { super(); super.x; } static m() { super.y } }",
        "let async = 1; async\nfunction f() {}",
        "yield = 1; let = 2; var await; static = 3",
        "a\n++b",
        "x = y => ({}); x = (a, b) => a + b; x = ([a], {b}) => 0; x = (a = 1, ...[b]) => 0",
        "({a, b} = c); [a, [b], ...c] = d; ({a: b.c, ...d.e} = f)",
        "(a) = 1; (a.b) = 2; [(a)] = 3; ({ a: (b) } = 4)",
        "'use strict'; var eval2 = 1",
        "function f(a, a) {}",
        "x = { if: 1, class: 2, new: 3 }.if",
        "a = b\n(c)",
        "var { a = 1, b: { c } = {}, ...rest } = o",
        "label: function f() {}",
        "if (x) function f() {}",
    ])
    func accepted(source: String) {
        let e = parseError(source)
        #expect(e == nil, "\(source): \(e?.description ?? "")")
    }
}

@Suite struct AutomaticSemicolonInsertion {
    @Test(arguments: [
        ("a\nb", true), ("a b", false), ("return\n1", true), ("x\n++y", true), ("x\n(1)", true),
        ("throw\n1", false), ("a = 1\n\n;b", true), ("if (a) b\nelse c", true), ("do {} while (0) x", true),
        ("for (a\n;;) {}", true), ("for (;\n) {}", false), ("var a = 1 var b", false), ("{ 1 2 } 3", false),
        ("{ 1\n2 } 3", true), ("x = () => {}\n(1)", true), ("async\n() => 0", false), ("a\n?.b", true),
    ])
    func asi(source: String, ok: Bool) {
        // `return` at top level is an error regardless; wrap it.
        let src = source.hasPrefix("return") ? "function f() { \(source) }" : source
        #expect(jsAccepts(src) == ok, "\(source)")
    }

    @Test func restrictedProductions() throws {
        let p = try parseJS("function f() { return\n1 }")
        guard case .function(let fn) = p.body[0].kind else { Issue.record("not a function"); return }
        #expect(fn.body.count == 2)
        guard case .return(nil) = fn.body[0].kind else { Issue.record("return took the next line"); return }
    }
}

@Suite struct Precedence {
    @Test func binaryPrecedence() throws {
        guard case .binary(.add, _, let rhs) = try expr("a + b * c").kind, case .binary(.mul, _, _) = rhs.kind else {
            Issue.record("wrong tree"); return
        }
        guard case .binary(.exp, _, let r2) = try expr("a ** b ** c").kind, case .binary(.exp, _, _) = r2.kind else {
            Issue.record("** is not right-associative"); return
        }
        guard case .logical(.or, let l, _) = try expr("a && b || c").kind, case .logical(.and, _, _) = l.kind else {
            Issue.record("wrong logical tree"); return
        }
    }

    @Test(arguments: ["-a ** b", "typeof a ** b", "a ?? b || c", "a || b ?? c", "a && b ?? c", "(async () => await x ** 2)"])
    func rejected(source: String) { #expect(!jsAccepts(source), "\(source)") }

    @Test func optionalChainWrapsWholeChain() throws {
        guard case .optionalChain(let inner) = try expr("a?.b.c").kind,
              case .member(let obj, .name("c"), false) = inner.kind,
              case .member(_, .name("b"), true) = obj.kind else { Issue.record("wrong chain"); return }
    }
}

@Suite struct FunctionsAndClasses {
    @Test func functionShape() throws {
        let p = try parseJS("async function* g(a, b = 1, ...c) { }")
        guard case .function(let fn) = p.body[0].kind else { Issue.record("not a function"); return }
        #expect(fn.name == "g" && fn.isAsync && fn.isGenerator)
        #expect(fn.params.count == 2 && fn.rest != nil && !fn.hasSimpleParameterList)
        #expect(fn.expectedArgumentCount == 1)
        #expect(!fn.isStrict && !fn.hasUseStrictDirective)
    }

    @Test func strictnessPropagates() throws {
        let p = try parseJS("function f() { 'use strict'; function g() {} }")
        guard case .function(let f) = p.body[0].kind, case .function(let g) = f.body[1].kind else { Issue.record("shape"); return }
        #expect(f.isStrict && f.hasUseStrictDirective && g.isStrict && !g.hasUseStrictDirective)
    }

    @Test func classShape() throws {
        let p = try parseJS("class A extends B { constructor() { super() } static #x = 1; m() {} get g() {} static { } }")
        guard case .class(let c) = p.body[0].kind else { Issue.record("not a class"); return }
        #expect(c.name == "A" && c.superClass != nil)
        #expect(c.constructor?.kind == .derivedConstructor)
        #expect(c.members.count == 4)
        if case .field(.privateName("x"), let initFn?, true) = c.members[0] {
            #expect(initFn.kind == .fieldInitializer && initFn.expressionBody != nil)
        } else { Issue.record("field") }
    }

    @Test func functionSourceSpan() throws {
        let src = "x = function foo(a) { return a }; y = 1"
        let e = try parseJS(src)
        guard case .expression(let s) = e.body[0].kind, case .assign(_, _, let v) = s.kind, case .function(let fn) = v.kind else {
            Issue.record("shape"); return
        }
        let text = String(decoding: Array(src.utf8)[Int(fn.span.start)..<Int(fn.span.end)], as: UTF8.self)
        #expect(text == "function foo(a) { return a }")
    }
}
