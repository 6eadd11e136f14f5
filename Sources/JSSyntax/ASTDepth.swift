/// Tree heights, computed as nodes are built (from their direct children only).
enum ASTDepth {
    @inline(__always) static func key(_ k: PropertyKey) -> UInt32 {
        if case .computed(let e) = k { return e.depth }
        return 0
    }

    static func args(_ list: [Argument]) -> UInt32 {
        var d: UInt32 = 0
        for a in list { switch a { case .expr(let e), .spread(let e): d = max(d, e.depth) } }
        return d
    }

    static func of(_ kind: ExprKind) -> UInt32 {
        let inner: UInt32
        switch kind {
        case .identifier, .this, .null, .boolean, .number, .bigint, .string, .regexp, .newTarget,
             .function, .arrow, .class, .importMeta:
            inner = 0
        case .dynamicImport(let a, let b):
            inner = max(a.depth, b?.depth ?? 0)
        case .template(let t):
            inner = t.expressions.reduce(0) { max($0, $1.depth) }
        case .taggedTemplate(let tag, let t):
            inner = t.expressions.reduce(tag.depth) { max($0, $1.depth) }
        case .array(let elements):
            var d: UInt32 = 0
            for el in elements {
                switch el {
                case .hole: break
                case .expr(let x), .spread(let x): d = max(d, x.depth)
                }
            }
            inner = d
        case .object(let members):
            var d: UInt32 = 0
            for m in members {
                switch m {
                case .property(let k, let v, _, _): d = max(d, key(k), v.depth)
                case .method(let k, _, _): d = max(d, key(k))
                case .spread(let x): d = max(d, x.depth)
                }
            }
            inner = d
        case .unary(_, let x), .update(_, _, let x), .await(let x), .optionalChain(let x), .parenthesized(let x),
             .privateIn(_, let x):
            inner = x.depth
        case .binary(_, let a, let b), .logical(_, let a, let b):
            inner = max(a.depth, b.depth)
        case .assign(_, let p, let v):
            inner = max(p.depth, v.depth)
        case .conditional(let a, let b, let c):
            inner = max(a.depth, b.depth, c.depth)
        case .call(let callee, let a, _):
            inner = max(callee.depth, args(a))
        case .new(let callee, let a):
            inner = max(callee.depth, args(a))
        case .superCall(let a):
            inner = args(a)
        case .member(let o, let k, _):
            inner = max(o.depth, key(k))
        case .superMember(let k):
            inner = key(k)
        case .sequence(let list):
            inner = list.reduce(0) { max($0, $1.depth) }
        case .yield(let x, _):
            inner = x?.depth ?? 0
        }
        return inner &+ 1
    }

    static func of(_ kind: PatternKind) -> UInt32 {
        let inner: UInt32
        switch kind {
        case .identifier: inner = 0
        case .expression(let e): inner = e.depth
        case .object(let props, let rest):
            var d = rest?.depth ?? 0
            for p in props { d = max(d, key(p.key), p.value.depth) }
            inner = d
        case .array(let els, let rest):
            var d = rest?.depth ?? 0
            for e in els { if let e { d = max(d, e.depth) } }
            inner = d
        case .withDefault(let t, let e):
            inner = max(t.depth, e.depth)
        }
        return inner &+ 1
    }
}
