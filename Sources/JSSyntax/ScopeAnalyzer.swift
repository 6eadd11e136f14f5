// Scope analysis: runs after a successful parse, over the scopes the parser built.
//
// - rebuilds each scope's `parent`/`children` from the tree walk (authoritative);
// - gives functions with non-simple parameter lists a separate body scope (the
//   spec's separate VariableEnvironment) so parameter expressions cannot see body vars;
// - gives named function expressions a scope for their own name;
// - resolves every identifier reference: bindings used from a nested function are
//   `isCaptured`, unresolved names are recorded as globals on the script scope;
// - records `arguments`, `this`/`super`/`new.target` and direct `eval` use on functions
//   (arrows pass them on to the enclosing function);
// - Annex B.3.3: in sloppy code, a function declared in a block also gets a `var`
//   binding in the enclosing function when that would not conflict.

final class ScopeAnalyzer {
    struct Frame {
        var scope: Scope
        /// The function the scope belongs to (nil at script level).
        var function: FunctionNode?
        /// Inside a `with` body: references are dynamic.
        var inWith: Bool
    }

    let parser: Parser
    var frames: [Frame] = []
    var globals: Set<String> = []
    var globalOrder: [String] = []
    let script: Scope

    init(parser: Parser, script: Scope) {
        self.parser = parser
        self.script = script
    }

    static func analyze(_ program: Program, parser: Parser) throws(ParseError) {
        let a = ScopeAnalyzer(parser: parser, script: program.scope)
        program.scope.children = []
        a.frames.append(Frame(scope: program.scope, function: nil, inWith: false))
        if !program.isStrict { a.annexBHoist(program.scope, body: program.body, functionScope: program.scope) }
        try a.statements(program.body)
        program.scope.unresolvedNames = a.globalOrder
    }

    // MARK: - Scope chain

    func push(_ scope: Scope, function: FunctionNode?) {
        let top = frames[frames.count - 1]
        scope.parent = top.scope
        scope.children = []
        top.scope.children.append(scope)
        frames.append(Frame(scope: scope, function: function ?? top.function, inWith: top.inWith))
    }

    func pop() { frames.removeLast() }

    func reference(_ name: String) {
        let found: Bool = frames.withUnsafeBufferPointer { fs in
            let top = fs[fs.count - 1]
            var i = fs.count - 1
            while i >= 0 {
                if fs[i].scope.binding(named: name) != nil {
                    if fs[i].function !== top.function || top.inWith { fs[i].scope.markCaptured(name) }
                    return true
                }
                // `arguments` resolves to the nearest non-arrow function's arguments object.
                if name == "arguments", let fn = fs[i].function, fs[i].scope === fn.scope, fn.kind != .arrow {
                    fn.usesArguments = true
                    var j = fs.count - 1
                    while j > i {
                        if let g = fs[j].function, g.kind == .arrow { g.usesArguments = true }
                        j -= 1
                    }
                    return true
                }
                i -= 1
            }
            return false
        }
        if !found && !globals.contains(name) {
            globals.insert(name)
            globalOrder.append(name)
        }
    }

    /// `this`, `super` and `new.target` are lexical in arrows: mark up to the first non-arrow.
    func useThis() {
        var i = frames.count - 1
        while i >= 0 {
            if let fn = frames[i].function {
                fn.usesThis = true
                if fn.kind != .arrow { return }
                while i > 0 && frames[i].function === fn { i -= 1 }
                continue
            }
            return
        }
    }

    func directEval() {
        for f in frames {
            f.scope.containsDirectEval = true
            f.scope.markAllCaptured()
            if let fn = f.function {
                fn.hasDirectEval = true
                fn.usesArguments = true
                fn.usesThis = true
            }
        }
    }

    // MARK: - Annex B.3.3

    /// Finds sloppy-mode block-level function declarations that also get a `var` binding.
    func annexBHoist(_ varScope: Scope, body: [Stmt], functionScope: Scope, parameterNames: Set<String> = []) {
        var lexicalStack: [Set<String>] = []
        func visit(_ stmts: [Stmt], blockScope: Scope?) {
            for s in stmts { visitStmt(s, blockScope: blockScope) }
        }
        func lexicalNames(_ scope: Scope?) -> Set<String> {
            guard let scope else { return [] }
            var names: Set<String> = []
            for b in scope.bindings where b.kind.isLexical { names.insert(b.name) }
            return names
        }
        func visitBlock(_ stmts: [Stmt], scope: Scope?, names: Set<String>? = nil) {
            lexicalStack.append(names ?? lexicalNames(scope))
            for s in stmts {
                if case .function(let fn) = s.kind, let name = fn.name, let scope, !fn.isAsync, !fn.isGenerator {
                    // Would `var name` conflict with an enclosing lexical declaration?
                    var conflict = parameterNames.contains(name)
                    for (k, names) in lexicalStack.enumerated() where k < lexicalStack.count - 1 && names.contains(name) { conflict = true }
                    if let b = varScope.binding(named: name), b.kind.isLexical, b.kind != .blockFunction { conflict = true }
                    if !conflict {
                        if !scope.annexBFunctionNames.contains(name) { scope.annexBFunctionNames.append(name) }
                        if varScope.binding(named: name) == nil { varScope.addBinding(name, kind: .var, offset: Int(fn.span.start)) }
                    }
                }
                visitStmt(s, blockScope: scope)
            }
            lexicalStack.removeLast()
        }
        func visitStmt(_ s: Stmt, blockScope: Scope?) {
            switch s.kind {
            case .block(let b): visitBlock(b.body, scope: b.scope)
            case .if(_, let c, let a):
                visitStmt(c, blockScope: blockScope)
                if let a { visitStmt(a, blockScope: blockScope) }
            case .for(_, _, _, let body, let scope), .forIn(_, _, let body, let scope), .forOf(_, _, let body, _, let scope):
                lexicalStack.append(lexicalNames(scope))
                visitStmt(body, blockScope: blockScope)
                lexicalStack.removeLast()
            case .while(_, let body), .doWhile(let body, _), .with(_, let body), .labeled(_, let body):
                visitStmt(body, blockScope: blockScope)
            case .switch(_, let cases, let scope):
                visitBlock(cases.flatMap { $0.body }, scope: scope)
            case .try(let block, _, let catchBody, let catchScope, let fin):
                visitBlock(block.body, scope: block.scope)
                if let c = catchBody {
                    // A simple catch parameter does not block the var (B.3.4).
                    var names = lexicalNames(catchScope)
                    if let cs = catchScope, cs.isSimpleCatch, let n = cs.simpleCatchName { names.remove(n) }
                    visitBlock(c.body, scope: catchScope, names: names)
                }
                if let f = fin { visitBlock(f.body, scope: f.scope) }
            default: break
            }
        }
        // Top-level statements of the function: declarations there are already vars.
        for s in body {
            visitStmt(s, blockScope: nil)
        }
        _ = functionScope
    }

    // MARK: - Statements

    func statements(_ list: [Stmt]) throws(ParseError) {
        for s in list { try statement(s) }
    }

    func statement(_ s: Stmt) throws(ParseError) {
        try parser.checkStack(at: s.span.start)
        switch s.kind {
        case .expression(let e), .throw(let e), .exportDefault(let e):
            try expression(e)
        case .variable(let d):
            try declaration(d)
        case .function(let fn):
            try function(fn, isExpression: false)
        case .class(let c):
            try classNode(c)
        case .block(let b):
            try block(b)
        case .empty, .debugger, .break, .continue:
            break
        case .if(let t, let c, let a):
            try expression(t); try statement(c)
            if let a { try statement(a) }
        case .for(let initializer, let test, let update, let body, let scope):
            if let scope { push(scope, function: nil) }
            switch initializer {
            case .variable(let d)?: try declaration(d)
            case .expr(let e)?: try expression(e)
            case nil: break
            }
            if let test { try expression(test) }
            if let update { try expression(update) }
            try statement(body)
            if scope != nil { pop() }
        case .forIn(let left, let right, let body, let scope), .forOf(let left, let right, let body, _, let scope):
            if let scope { push(scope, function: nil) }
            try expression(right)
            switch left {
            case .variable(_, let p), .target(let p): try pattern(p)
            }
            try statement(body)
            if scope != nil { pop() }
        case .while(let e, let body), .doWhile(let body, let e):
            try expression(e); try statement(body)
        case .with(let e, let body):
            try expression(e)
            let scope = Scope(kind: .with, parent: nil)
            push(scope, function: nil)
            frames[frames.count - 1].inWith = true
            try statement(body)
            pop()
        case .return(let e):
            if let e { try expression(e) }
        case .switch(let d, let cases, let scope):
            try expression(d)
            if let scope { push(scope, function: nil) }
            for c in cases {
                if let t = c.test { try expression(t) }
                try statements(c.body)
            }
            if scope != nil { pop() }
        case .labeled(_, let body):
            try statement(body)
        case .try(let b, let param, let catchBody, let catchScope, let fin):
            try block(b)
            if let catchBody {
                if let catchScope { push(catchScope, function: nil) }
                if let p = param { try pattern(p) }
                try statements(catchBody.body)
                if catchScope != nil { pop() }
            }
            if let fin { try block(fin) }
        }
    }

    func block(_ b: Block) throws(ParseError) {
        if let scope = b.scope { push(scope, function: nil) }
        try statements(b.body)
        if b.scope != nil { pop() }
    }

    func declaration(_ d: VariableDeclaration) throws(ParseError) {
        for decl in d.declarations {
            try pattern(decl.target)
            if let i = decl.initializer { try expression(i) }
        }
    }

    // MARK: - Functions and classes

    func function(_ fn: FunctionNode, isExpression: Bool) throws(ParseError) {
        var pushedName = false
        if isExpression, let name = fn.name, fn.kind == .normal {
            let nameScope = Scope(kind: .block, parent: nil)
            nameScope.addBinding(name, kind: .functionName, offset: Int(fn.span.start))
            push(nameScope, function: nil)
            pushedName = true
        }
        let scope = fn.scope
        if !fn.hasSimpleParameterList && fn.bodyScope == nil {
            splitBodyScope(fn)
        }
        push(scope, function: fn)
        for p in fn.params { try pattern(p) }
        if let r = fn.rest { try pattern(r) }
        if let bodyScope = fn.bodyScope { push(bodyScope, function: fn) }
        if !fn.isStrict && !fn.body.isEmpty {
            var paramNames: Set<String> = []
            for b in scope.bindings where b.kind == .parameter { paramNames.insert(b.name) }
            annexBHoist(fn.bodyScope ?? scope, body: fn.body, functionScope: scope, parameterNames: paramNames)
        }
        if let e = fn.expressionBody { try expression(e) }
        try statements(fn.body)
        if fn.bodyScope != nil { pop() }
        pop()
        if pushedName { pop() }
    }

    /// Moves the body's declarations out of the parameter scope into a separate scope.
    func splitBodyScope(_ fn: FunctionNode) {
        let scope = fn.scope
        let body = Scope(kind: .functionBody, parent: scope)
        var params: [Binding] = []
        for b in scope.bindings {
            if b.kind == .parameter { params.append(b) } else { body.addBinding(b.name, kind: b.kind, offset: Int(b.offset)) }
        }
        // `var x` with the same name as a parameter is a separate binding in the body.
        for name in scope.declaredVarNames where body.binding(named: name) == nil {
            body.addBinding(name, kind: .var, offset: 0)
        }
        scope.replaceBindings(params)
        fn.bodyScope = body
    }

    func classNode(_ c: ClassNode) throws(ParseError) {
        push(c.scope, function: nil)
        if let s = c.superClass { try expression(s) }
        if let ctor = c.constructor { try function(ctor, isExpression: false) }
        for m in c.members {
            switch m {
            case .method(let key, let fn, _, _):
                try propertyKey(key)
                try function(fn, isExpression: false)
            case .field(let key, let initializer, _):
                try propertyKey(key)
                if let fn = initializer { try function(fn, isExpression: false) }
            case .staticBlock(let fn):
                try function(fn, isExpression: false)
            }
        }
        pop()
    }

    func propertyKey(_ k: PropertyKey) throws(ParseError) {
        if case .computed(let e) = k { try expression(e) }
    }

    // MARK: - Patterns and expressions

    func pattern(_ p: Pattern) throws(ParseError) {
        try parser.checkStack(at: p.span.start)
        switch p.kind {
        case .identifier(let name): reference(name)
        case .expression(let e): try expression(e)
        case .object(let props, let rest):
            for prop in props {
                try propertyKey(prop.key)
                try pattern(prop.value)
            }
            if let r = rest { try pattern(r) }
        case .array(let els, let rest):
            for el in els { if let el { try pattern(el) } }
            if let r = rest { try pattern(r) }
        case .withDefault(let t, let d):
            try pattern(t)
            try expression(d)
        }
    }

    func arguments(_ args: [Argument]) throws(ParseError) {
        for a in args {
            switch a {
            case .expr(let e), .spread(let e): try expression(e)
            }
        }
    }

    func expression(_ e: Expr) throws(ParseError) {
        try parser.checkStack(at: e.span.start)
        switch e.kind {
        case .identifier(let name): reference(name)
        case .this, .newTarget: useThis()
        case .null, .boolean, .number, .bigint, .string, .regexp, .importMeta: break
        case .dynamicImport(let a, let b):
            try expression(a)
            if let b { try expression(b) }
        case .template(let t):
            for x in t.expressions { try expression(x) }
        case .taggedTemplate(let tag, let t):
            try expression(tag)
            for x in t.expressions { try expression(x) }
        case .array(let elements):
            for el in elements {
                switch el {
                case .hole: break
                case .expr(let x), .spread(let x): try expression(x)
                }
            }
        case .object(let members):
            for m in members {
                switch m {
                case .property(let k, let v, _, _):
                    try propertyKey(k)
                    try expression(v)
                case .method(let k, let fn, _):
                    try propertyKey(k)
                    try function(fn, isExpression: false)
                case .spread(let x): try expression(x)
                }
            }
        case .function(let fn): try function(fn, isExpression: true)
        case .arrow(let fn): try function(fn, isExpression: true)
        case .class(let c): try classNode(c)
        case .unary(_, let x), .update(_, _, let x), .await(let x), .optionalChain(let x), .parenthesized(let x),
             .privateIn(_, let x):
            try expression(x)
        case .binary(_, let a, let b), .logical(_, let a, let b):
            try expression(a); try expression(b)
        case .assign(_, let p, let v):
            try pattern(p); try expression(v)
        case .conditional(let a, let b, let c):
            try expression(a); try expression(b); try expression(c)
        case .call(let callee, let args, _):
            if case .identifier("eval") = callee.kind { directEval() }
            try expression(callee)
            try arguments(args)
        case .new(let callee, let args):
            try expression(callee)
            try arguments(args)
        case .superCall(let args):
            useThis()
            try arguments(args)
        case .member(let o, let k, _):
            try expression(o)
            try propertyKey(k)
        case .superMember(let k):
            useThis()
            try propertyKey(k)
        case .sequence(let list):
            for x in list { try expression(x) }
        case .yield(let x, _):
            if let x { try expression(x) }
        }
    }
}
