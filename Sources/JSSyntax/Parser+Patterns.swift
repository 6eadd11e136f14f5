// Binding patterns, assignment targets and the expression-to-pattern conversion.

extension Parser {
    // MARK: - Binding patterns

    /// BindingIdentifier or BindingPattern.
    func parseBindingAtom() throws(ParseError) -> Pattern {
        try checkStack()
        let startPos = start
        switch type {
        case .bracketL:
            try next()
            var elements: [Pattern?] = []
            var rest: Pattern? = nil
            var first = true
            while !(try eat(.bracketR)) {
                if first { first = false } else { try expect(.comma) }
                if type == .bracketR { try next(); break }
                if type == .comma { elements.append(nil); continue }
                if type == .ellipsis {
                    try next()
                    rest = try parseBindingAtom()
                    if type == .comma { throw error("Rest element must be last element") }
                    try expect(.bracketR)
                    break
                }
                elements.append(try parseBindingElement())
            }
            return Pattern(.array(elements, rest: rest), Span(startPos, lastEnd))
        case .braceL:
            try next()
            var props: [PatternProperty] = []
            var rest: Pattern? = nil
            var first = true
            while !(try eat(.braceR)) {
                if first { first = false } else {
                    try expect(.comma)
                    if try eat(.braceR) { break }
                }
                if type == .ellipsis {
                    try next()
                    let restStart = start
                    guard type == .name else { throw unexpected() }
                    let n = try parseIdentifier()
                    rest = Pattern(.identifier(n), Span(restStart, lastEnd))
                    if type == .comma { throw error("Rest element must be last element") }
                    try expect(.braceR)
                    break
                }
                let info = try parsePropertyName()
                if try eat(.colon) {
                    props.append(PatternProperty(key: info.key, value: try parseBindingElement(), shorthand: false))
                } else {
                    guard info.isIdentifier else { throw unexpected() }
                    let name = info.identifierName
                    try checkIdentifierReserved(name, keyword: classifyKeyword(name), at: info.start)
                    if classifyKeyword(name) == .await && awaitIdentPos < 0 { awaitIdentPos = info.start }
                    var value = Pattern(.identifier(name), Span(info.start, info.end))
                    if try eat(.eq) {
                        let d = try parseMaybeAssign()
                        value = Pattern(.withDefault(value, d), Span(info.start, lastEnd))
                    }
                    props.append(PatternProperty(key: info.key, value: value, shorthand: true))
                }
            }
            return Pattern(.object(props, rest: rest), Span(startPos, lastEnd))
        case .name:
            let name = try parseIdentifier()
            return Pattern(.identifier(name), Span(startPos, lastEnd))
        default:
            throw unexpected()
        }
    }

    /// BindingElement: a binding atom with an optional initializer.
    func parseBindingElement() throws(ParseError) -> Pattern {
        let startPos = start
        let target = try parseBindingAtom()
        if try eat(.eq) {
            let d = try parseMaybeAssign()
            return Pattern(.withDefault(target, d), Span(startPos, lastEnd))
        }
        return target
    }

    // MARK: - Declaring

    /// Declares every name a binding pattern binds.
    func declarePattern(_ p: Pattern, mode: BindMode, kind: BindingKind) throws(ParseError) {
        var none: Set<String>? = nil
        try declarePattern(p, mode: mode, kind: kind, clashes: &none)
    }

    func declarePattern(_ p: Pattern, mode: BindMode, kind: BindingKind, clashes: inout Set<String>?) throws(ParseError) {
        switch p.kind {
        case .identifier(let name):
            let kw = classifyKeyword(name)
            if strict && (kw == .eval || kw == .arguments) {
                throw error("Unexpected eval or arguments in strict mode", at: Int(p.span.start))
            }
            if strict && kw.isStrictReserved {
                throw error("Unexpected strict mode reserved word", at: Int(p.span.start))
            }
            if mode == .lexical && name == "let" {
                throw error("let is disallowed as a lexically bound name", at: Int(p.span.start))
            }
            if clashes != nil {
                if clashes!.contains(name) {
                    throw error("Duplicate parameter name not allowed in this context", at: Int(p.span.start))
                }
                clashes!.insert(name)
            }
            try declareName(name, mode: mode, kind: kind, at: Int(p.span.start))
        case .expression:
            throw error("Invalid destructuring assignment target", at: Int(p.span.start))
        case .object(let props, let rest):
            for prop in props { try declarePattern(prop.value, mode: mode, kind: kind, clashes: &clashes) }
            if let r = rest { try declarePattern(r, mode: mode, kind: kind, clashes: &clashes) }
        case .array(let elements, let rest):
            for e in elements { if let e { try declarePattern(e, mode: mode, kind: kind, clashes: &clashes) } }
            if let r = rest { try declarePattern(r, mode: mode, kind: kind, clashes: &clashes) }
        case .withDefault(let target, _):
            try declarePattern(target, mode: mode, kind: kind, clashes: &clashes)
        }
    }

    func collectBoundNames(_ p: Pattern, into names: inout [(String, Int)]) {
        switch p.kind {
        case .identifier(let n): names.append((n, Int(p.span.start)))
        case .expression: break
        case .object(let props, let rest):
            for prop in props { collectBoundNames(prop.value, into: &names) }
            if let r = rest { collectBoundNames(r, into: &names) }
        case .array(let elements, let rest):
            for e in elements { if let e { collectBoundNames(e, into: &names) } }
            if let r = rest { collectBoundNames(r, into: &names) }
        case .withDefault(let t, _): collectBoundNames(t, into: &names)
        }
    }

    /// A pattern converted from arrow parameters must not contain member expressions.
    func validateBindingPattern(_ p: Pattern) throws(ParseError) {
        switch p.kind {
        case .identifier: break
        case .expression: throw error("Invalid destructuring assignment target", at: Int(p.span.start))
        case .object(let props, let rest):
            for prop in props { try validateBindingPattern(prop.value) }
            if let r = rest {
                guard case .identifier = r.kind else { throw error("`...` must be followed by an identifier in declaration contexts", at: Int(r.span.start)) }
            }
        case .array(let elements, let rest):
            for e in elements { if let e { try validateBindingPattern(e) } }
            if let r = rest { try validateBindingPattern(r) }
        case .withDefault(let t, _): try validateBindingPattern(t)
        }
    }

    // MARK: - Assignment targets

    /// Checks `eval`/`arguments` assignments in strict mode throughout a pattern.
    func checkAssignTarget(_ p: Pattern) throws(ParseError) {
        switch p.kind {
        case .identifier(let name):
            if strict && (name == "eval" || name == "arguments") {
                throw error("Unexpected eval or arguments in strict mode", at: Int(p.span.start))
            }
        case .expression: break
        case .object(let props, let rest):
            for prop in props { try checkAssignTarget(prop.value) }
            if let r = rest { try checkAssignTarget(r) }
        case .array(let elements, let rest):
            for e in elements { if let e { try checkAssignTarget(e) } }
            if let r = rest { try checkAssignTarget(r) }
        case .withDefault(let t, _): try checkAssignTarget(t)
        }
    }

    /// Annex B "Runtime Errors for Function Call Assignment Targets": in sloppy code a call
    /// (`f() = v`, `f() += v`, `f()++`, `for (f() in o)`) is an assignment target whose
    /// evaluation makes the call and then throws a ReferenceError.
    func isWebCompatCallTarget(_ e: Expr) -> Bool {
        if strict { return false }
        var core = e
        while case .parenthesized(let i) = core.kind { core = i }
        if case .call(_, _, let optional) = core.kind { return !optional }
        return false
    }

    /// The target of a compound assignment or update: an identifier or a member expression.
    func simpleAssignTarget(_ e: Expr, op: String) throws(ParseError) -> Pattern {
        if op != "&&=" && op != "||=" && op != "??=" && isWebCompatCallTarget(e) { return Pattern(.expression(e), e.span) }
        switch e.kind {
        case .identifier(let name):
            if strict && (name == "eval" || name == "arguments") {
                throw error("Unexpected eval or arguments in strict mode", at: Int(e.span.start))
            }
            if inAsync && name == "await" { throw error("Invalid left-hand side", at: Int(e.span.start)) }
            return Pattern(.identifier(name), e.span)
        case .member, .superMember:
            return Pattern(.expression(e), e.span)
        case .parenthesized(let inner):
            switch inner.kind {
            case .identifier, .member, .superMember, .parenthesized:
                return try simpleAssignTarget(inner, op: op)
            default:
                break
            }
        default:
            break
        }
        if op == "++" || op == "--" {
            throw error("Invalid left-hand side expression in \(op == "++" || op == "--" ? "update" : "") operation", at: Int(e.span.start))
        }
        throw error("Invalid left-hand side in assignment", at: Int(e.span.start))
    }

    /// Converts an expression (parsed by a cover grammar) into an assignment or binding pattern.
    func toAssignable(_ e: Expr, isBinding: Bool, cover: inout CoverErrors) throws(ParseError) -> Pattern {
        try checkStack()
        switch e.kind {
        case .identifier(let name):
            if inAsync && name == "await" {
                throw error("Cannot use 'await' as identifier inside an async function", at: Int(e.span.start))
            }
            return Pattern(.identifier(name), e.span)
        case .member, .superMember:
            if isBinding { throw error("Invalid destructuring assignment target", at: Int(e.span.start)) }
            return Pattern(.expression(e), e.span)
        case .parenthesized(let inner):
            if isBinding { throw error("Invalid destructuring assignment target", at: Int(e.span.start)) }
            var core = inner
            while case .parenthesized(let i) = core.kind { core = i }
            switch core.kind {
            case .identifier, .member, .superMember:
                return try toAssignable(core, isBinding: false, cover: &cover)
            default:
                throw error("Invalid left-hand side in assignment", at: Int(e.span.start))
            }
        case .object(let members):
            try checkPatternErrors(cover)
            var props: [PatternProperty] = []
            var rest: Pattern? = nil
            for (i, m) in members.enumerated() {
                switch m {
                case .property(let key, let value, let shorthand, _):
                    props.append(PatternProperty(key: key, value: try toAssignable(value, isBinding: isBinding, cover: &cover),
                                                 shorthand: shorthand))
                case .method:
                    throw error("Invalid destructuring assignment target", at: Int(e.span.start))
                case .spread(let arg):
                    if i != members.count - 1 { throw error("Rest element must be last element", at: Int(arg.span.start)) }
                    switch arg.kind {
                    case .object, .array:
                        throw error("`...` must be followed by an assignable reference in assignment contexts", at: Int(arg.span.start))
                    default: break
                    }
                    let p = try toAssignable(arg, isBinding: isBinding, cover: &cover)
                    if case .withDefault = p.kind { throw error("Invalid rest element", at: Int(arg.span.start)) }
                    if isBinding, case .identifier = p.kind {} else if isBinding {
                        throw error("`...` must be followed by an identifier in declaration contexts", at: Int(arg.span.start))
                    }
                    rest = p
                }
            }
            return Pattern(.object(props, rest: rest), e.span)
        case .array(let elements):
            try checkPatternErrors(cover)
            var pats: [Pattern?] = []
            var rest: Pattern? = nil
            for (i, el) in elements.enumerated() {
                switch el {
                case .hole: pats.append(nil)
                case .expr(let x): pats.append(try toAssignable(x, isBinding: isBinding, cover: &cover))
                case .spread(let arg):
                    if i != elements.count - 1 { throw error("Rest element must be last element", at: Int(arg.span.start)) }
                    let p = try toAssignable(arg, isBinding: isBinding, cover: &cover)
                    if case .withDefault = p.kind { throw error("Invalid rest element", at: Int(arg.span.start)) }
                    rest = p
                }
            }
            return Pattern(.array(pats, rest: rest), e.span)
        case .assign(let op, let target, let value):
            if op != .assign { throw error("Invalid destructuring assignment target", at: Int(e.span.start)) }
            if isBinding { try validateBindingPattern(target) }
            return Pattern(.withDefault(target, value), e.span)
        case .optionalChain:
            throw error("Invalid left-hand side in assignment", at: Int(e.span.start))
        default:
            throw error(isBinding ? "Invalid destructuring assignment target" : "Invalid left-hand side in assignment", at: Int(e.span.start))
        }
    }
}
