import Testing
@testable import JSSyntax

@Suite struct ScopeAnalysis {
    func function(_ p: Program, _ i: Int = 0) -> FunctionNode? {
        if case .function(let fn) = p.body[i].kind { return fn }
        return nil
    }

    @Test func declarationsByScope() throws {
        let p = try parseJS("var a; let b; function f(x) { var y; { let z; } }")
        #expect(p.scope.binding(named: "a")?.kind == .var)
        #expect(p.scope.binding(named: "b")?.kind == .let)
        #expect(p.scope.binding(named: "f")?.kind == .function)
        let f = try #require(function(p, 2))
        #expect(f.scope.binding(named: "x")?.kind == .parameter)
        #expect(f.scope.binding(named: "y")?.kind == .var)
        #expect(f.scope.binding(named: "z") == nil)
        #expect(f.scope.children.count == 1)
        #expect(f.scope.children[0].binding(named: "z")?.kind == .let)
        #expect(f.scope.parent === p.scope)
    }

    @Test func captures() throws {
        let p = try parseJS("function f(a, b) { var c = 1, d = 2; return () => a + c; }")
        let f = try #require(function(p))
        #expect(f.scope.binding(named: "a")?.isCaptured == true)
        #expect(f.scope.binding(named: "b")?.isCaptured == false)
        #expect(f.scope.binding(named: "c")?.isCaptured == true)
        #expect(f.scope.binding(named: "d")?.isCaptured == false)
    }

    @Test func globalsAreUnresolved() throws {
        let p = try parseJS("var a; a + b; console.log(c)")
        #expect(p.scope.unresolvedNames == ["b", "console", "c"])
    }

    @Test func argumentsAndThisPropagateThroughArrows() throws {
        let p = try parseJS("function f() { return () => arguments[0] + this.x } function g(arguments) { arguments }")
        let f = try #require(function(p, 0))
        #expect(f.usesArguments && f.usesThis)
        let g = try #require(function(p, 1))
        #expect(!g.usesArguments)
    }

    @Test func directEvalCapturesEverything() throws {
        let p = try parseJS("function f(a) { var b; eval('a') } function g(a) { (0, eval)('a') }")
        let f = try #require(function(p, 0))
        #expect(f.hasDirectEval && f.scope.containsDirectEval)
        #expect(f.scope.binding(named: "a")?.isCaptured == true && f.scope.binding(named: "b")?.isCaptured == true)
        let g = try #require(function(p, 1))
        #expect(!g.hasDirectEval)
    }

    @Test func parameterExpressionsDoNotSeeBodyVars() throws {
        let p = try parseJS("var x; function f(a = () => x) { var x; var a; }")
        let f = try #require(function(p, 1))
        let body = try #require(f.bodyScope)
        #expect(f.scope.binding(named: "x") == nil)
        #expect(body.binding(named: "x")?.kind == .var)
        #expect(body.binding(named: "a")?.kind == .var)
        #expect(p.scope.binding(named: "x")?.isCaptured == true)
    }

    @Test func annexBBlockFunctions() throws {
        let p = try parseJS("function f() { { function g() {} } } function h() { let g; { function g() {} } }")
        let f = try #require(function(p, 0))
        #expect(f.scope.binding(named: "g")?.kind == .var)
        #expect(f.scope.children.first?.annexBFunctionNames == ["g"])
        let h = try #require(function(p, 1))
        #expect(h.scope.binding(named: "g")?.kind == .let)
        #expect(h.scope.children.first?.annexBFunctionNames == [])
        let s = try parseJS("'use strict'; { function g() {} }")
        #expect(s.scope.binding(named: "g") == nil)
    }

    @Test func classAndNamedFunctionExpressionScopes() throws {
        let p = try parseJS("x = class K { m() { return K } }; y = function r() { return r }")
        guard case .expression(let e) = p.body[0].kind, case .assign(_, _, let v) = e.kind, case .class(let c) = v.kind else {
            Issue.record("shape"); return
        }
        #expect(c.scope.binding(named: "K")?.kind == .classInnerName)
        #expect(c.scope.binding(named: "K")?.isCaptured == true)
        #expect(p.scope.unresolvedNames == ["x", "y"])
    }
}
