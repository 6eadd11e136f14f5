// Iterative destruction of syntax trees.
//
// Expressions are indirect enums: releasing the root of a deep tree (a 100,000-term
// `a+a+...` chain or `a.b.b.b...`) would recurse once per level in the Swift runtime
// and overflow the native stack. The owners of trees (Program, FunctionNode,
// ClassNode) hand their children to `ASTTeardown`, which takes nodes apart with an
// explicit work list: each node is released only after its children were moved to the
// list, so every release is shallow.

enum ASTTeardown {
    enum Item {
        case expr(Expr)
        case stmt(Stmt)
        case pattern(Pattern)
    }

    static func drain(_ stmts: consuming [Stmt]) {
        if stmts.isEmpty { return }
        var work: [Item] = []
        work.reserveCapacity(stmts.count)
        for s in stmts { work.append(.stmt(s)) }
        stmts = []
        run(&work)
    }

    static func drain(expr: consuming Expr?) {
        guard let e = expr else { return }
        var work: [Item] = [.expr(e)]
        expr = nil
        run(&work)
    }

    static func drain(patterns: consuming [Pattern]) {
        if patterns.isEmpty { return }
        var work: [Item] = patterns.map { .pattern($0) }
        patterns = []
        run(&work)
    }

    private static func run(_ work: inout [Item]) {
        while let item = work.popLast() {
            switch item {
            case .expr(let e): push(e, &work)
            case .stmt(let s): push(s, &work)
            case .pattern(let p): push(p, &work)
            }
        }
    }

    private static func key(_ k: PropertyKey, _ work: inout [Item]) {
        if case .computed(let e) = k { work.append(.expr(e)) }
    }

    private static func push(_ e: Expr, _ work: inout [Item]) {
        switch e.kind {
        case .identifier, .this, .null, .boolean, .number, .bigint, .string, .regexp, .newTarget,
             .function, .arrow, .class, .importMeta:
            break
        case .dynamicImport(let a, let b):
            work.append(.expr(a))
            if let b { work.append(.expr(b)) }
        case .template(let t):
            for x in t.expressions { work.append(.expr(x)) }
        case .taggedTemplate(let tag, let t):
            work.append(.expr(tag))
            for x in t.expressions { work.append(.expr(x)) }
        case .array(let elements):
            for el in elements {
                switch el {
                case .hole: break
                case .expr(let x), .spread(let x): work.append(.expr(x))
                }
            }
        case .object(let members):
            for m in members {
                switch m {
                case .property(let k, let v, _, _): key(k, &work); work.append(.expr(v))
                case .method(let k, _, _): key(k, &work)
                case .spread(let x): work.append(.expr(x))
                }
            }
        case .unary(_, let x), .update(_, _, let x), .await(let x), .optionalChain(let x), .parenthesized(let x),
             .privateIn(_, let x):
            work.append(.expr(x))
        case .binary(_, let a, let b), .logical(_, let a, let b):
            work.append(.expr(a)); work.append(.expr(b))
        case .assign(_, let p, let v):
            work.append(.pattern(p)); work.append(.expr(v))
        case .conditional(let a, let b, let c):
            work.append(.expr(a)); work.append(.expr(b)); work.append(.expr(c))
        case .call(let callee, let args, _):
            work.append(.expr(callee))
            for a in args { switch a { case .expr(let x), .spread(let x): work.append(.expr(x)) } }
        case .new(let callee, let args):
            work.append(.expr(callee))
            for a in args { switch a { case .expr(let x), .spread(let x): work.append(.expr(x)) } }
        case .superCall(let args):
            for a in args { switch a { case .expr(let x), .spread(let x): work.append(.expr(x)) } }
        case .member(let o, let k, _):
            work.append(.expr(o)); key(k, &work)
        case .superMember(let k):
            key(k, &work)
        case .sequence(let list):
            for x in list { work.append(.expr(x)) }
        case .yield(let x, _):
            if let x { work.append(.expr(x)) }
        }
    }

    private static func push(_ p: Pattern, _ work: inout [Item]) {
        switch p.kind {
        case .identifier: break
        case .expression(let e): work.append(.expr(e))
        case .object(let props, let rest):
            for prop in props { key(prop.key, &work); work.append(.pattern(prop.value)) }
            if let r = rest { work.append(.pattern(r)) }
        case .array(let els, let rest):
            for el in els { if let el { work.append(.pattern(el)) } }
            if let r = rest { work.append(.pattern(r)) }
        case .withDefault(let t, let d):
            work.append(.pattern(t)); work.append(.expr(d))
        }
    }

    private static func push(_ s: Stmt, _ work: inout [Item]) {
        switch s.kind {
        case .expression(let e), .throw(let e), .exportDefault(let e):
            work.append(.expr(e))
        case .variable(let d):
            for decl in d.declarations {
                work.append(.pattern(decl.target))
                if let i = decl.initializer { work.append(.expr(i)) }
            }
        case .function, .class, .empty, .continue, .break, .debugger:
            break
        case .block(let b):
            for x in b.body { work.append(.stmt(x)) }
        case .if(let t, let c, let a):
            work.append(.expr(t)); work.append(.stmt(c))
            if let a { work.append(.stmt(a)) }
        case .for(let i, let t, let u, let body, _):
            switch i {
            case .variable(let d)?:
                for decl in d.declarations {
                    work.append(.pattern(decl.target))
                    if let x = decl.initializer { work.append(.expr(x)) }
                }
            case .expr(let x)?: work.append(.expr(x))
            case nil: break
            }
            if let t { work.append(.expr(t)) }
            if let u { work.append(.expr(u)) }
            work.append(.stmt(body))
        case .forIn(let b, let e, let body, _), .forOf(let b, let e, let body, _, _):
            switch b {
            case .variable(_, let p), .target(let p): work.append(.pattern(p))
            }
            work.append(.expr(e)); work.append(.stmt(body))
        case .while(let e, let body), .doWhile(let body, let e), .with(let e, let body):
            work.append(.expr(e)); work.append(.stmt(body))
        case .return(let e):
            if let e { work.append(.expr(e)) }
        case .switch(let d, let cases, _):
            work.append(.expr(d))
            for c in cases {
                if let t = c.test { work.append(.expr(t)) }
                for x in c.body { work.append(.stmt(x)) }
            }
        case .labeled(_, let body):
            work.append(.stmt(body))
        case .try(let block, let param, let catchBody, _, let fin):
            for x in block.body { work.append(.stmt(x)) }
            if let p = param { work.append(.pattern(p)) }
            if let c = catchBody { for x in c.body { work.append(.stmt(x)) } }
            if let f = fin { for x in f.body { work.append(.stmt(x)) } }
        }
    }
}
