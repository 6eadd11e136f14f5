// Expressions.

extension Parser {
    // MARK: - Comma and assignment

    func parseExpression(noIn: Bool = false) throws(ParseError) -> Expr {
        var cover = CoverErrors()
        let e = try parseExpression(noIn: noIn, cover: &cover)
        try checkExpressionErrors(&cover, andPattern: false)
        return e
    }

    func parseExpression(noIn: Bool, cover: inout CoverErrors) throws(ParseError) -> Expr {
        let startPos = start
        let first = try parseMaybeAssign(noIn: noIn, cover: &cover)
        if type != .comma { return first }
        var list = [first]
        while try eat(.comma) {
            list.append(try parseMaybeAssign(noIn: noIn, cover: &cover))
        }
        return Expr(.sequence(list), Span(startPos, lastEnd))
    }

    func parseMaybeAssign(noIn: Bool = false) throws(ParseError) -> Expr {
        var cover = CoverErrors()
        return try parseMaybeAssign(noIn: noIn, cover: &cover, own: true)
    }

    func parseMaybeAssign(noIn: Bool, cover: inout CoverErrors, own: Bool = false, forAwait: Bool = false) throws(ParseError) -> Expr {
        try checkStack()
        if isContextual(.yield) && inGenerator {
            return try parseYield(noIn: noIn)
        }
        let oldTrailingComma = cover.trailingComma
        let oldDoubleProto = cover.doubleProto
        if !own { cover.trailingComma = -1 }
        let startPos = start
        if type == .parenL || type == .name {
            potentialArrowAt = start
            potentialArrowInForAwait = forAwait
        }
        let left = try parseMaybeConditional(noIn: noIn, cover: &cover)
        if type == .eq || type == .assignOp {
            let op: AssignOp = type == .eq ? .assign : lexer.assignOpValue
            let target: Pattern
            if op == .assign && isWebCompatCallTarget(left) {
                target = Pattern(.expression(left), left.span)
            } else if op == .assign {
                target = try toAssignable(left, isBinding: false, cover: &cover)
                try checkAssignTarget(target)
            } else {
                target = try simpleAssignTarget(left, op: op.rawValue)
            }
            if !own { cover.trailingComma = -1; cover.doubleProto = -1 }
            if cover.shorthandAssign >= left.span.start { cover.shorthandAssign = -1 }
            if own { cover.doubleProto = -1 }
            try next()
            let right = try parseMaybeAssign(noIn: noIn)
            if oldDoubleProto > -1 { cover.doubleProto = oldDoubleProto }
            return Expr(.assign(op, target, right), Span(startPos, lastEnd))
        }
        if own { try checkExpressionErrors(&cover, andPattern: false) }
        if oldTrailingComma > -1 { cover.trailingComma = oldTrailingComma }
        return left
    }

    func checkExpressionErrors(_ cover: inout CoverErrors, andPattern: Bool) throws(ParseError) {
        if cover.shorthandAssign >= 0 {
            throw error("Invalid shorthand property initializer", at: cover.shorthandAssign)
        }
        if cover.doubleProto >= 0 {
            throw error("Duplicate __proto__ fields are not allowed in object literals", at: cover.doubleProto)
        }
    }

    func hasExpressionErrors(_ cover: CoverErrors) -> Bool {
        cover.shorthandAssign >= 0 || cover.doubleProto >= 0
    }

    func parseMaybeConditional(noIn: Bool, cover: inout CoverErrors) throws(ParseError) -> Expr {
        let startPos = start
        let expr = try parseExprOps(noIn: noIn, cover: &cover)
        if hasExpressionErrors(cover) { return expr }
        if case .arrow = expr.kind, expr.span.start == startPos { return expr }
        if type == .question {
            try next()
            let consequent = try parseMaybeAssign()
            try expect(.colon)
            let alternate = try parseMaybeAssign(noIn: noIn)
            return Expr(.conditional(expr, consequent, alternate), Span(startPos, lastEnd))
        }
        return expr
    }

    // MARK: - Binary operators

    /// The precedence of the current token as a binary operator (0 if none).
    func binaryPrecedence(noIn: Bool) -> Int {
        switch type {
        case .coalesce: return 1
        case .or: return 1
        case .and: return 2
        case .bitOr: return 3
        case .bitXor: return 4
        case .bitAnd: return 5
        case .eqeq, .ne, .eqeqeq, .nee: return 6
        case .lt, .gt, .le, .ge: return 7
        case .name:
            if lexer.s.containsEscape { return 0 }
            if keyword == .instanceof { return 7 }
            if keyword == .in && !noIn { return 7 }
            return 0
        case .shl, .sar, .shr: return 8
        case .plus, .minus: return 9
        case .star, .slash, .modulo: return 10
        default: return 0
        }
    }

    func currentBinaryOp() -> BinaryOp? {
        switch type {
        case .bitOr: return .bitOr
        case .bitXor: return .bitXor
        case .bitAnd: return .bitAnd
        case .eqeq: return .eq
        case .ne: return .ne
        case .eqeqeq: return .strictEq
        case .nee: return .strictNe
        case .lt: return .lt
        case .gt: return .gt
        case .le: return .le
        case .ge: return .ge
        case .shl: return .shl
        case .sar: return .sar
        case .shr: return .shr
        case .plus: return .add
        case .minus: return .sub
        case .star: return .mul
        case .slash: return .div
        case .modulo: return .mod
        case .name: return keyword == .in ? .in : .instanceof
        default: return nil
        }
    }

    func parseExprOps(noIn: Bool, cover: inout CoverErrors) throws(ParseError) -> Expr {
        let startPos = start
        let expr = try parseMaybeUnary(cover: &cover, sawUnary: false, incDec: false, noIn: noIn)
        if hasExpressionErrors(cover) { return expr }
        if case .arrow = expr.kind, expr.span.start == startPos { return expr }
        if case .privateIn = expr.kind {} // handled below
        return try parseExprOp(expr, leftStart: startPos, minPrec: 0, noIn: noIn)
    }

    /// Operator-precedence parsing; the left operand chain is built iteratively.
    func parseExprOp(_ leftIn: Expr, leftStart: Int, minPrec: Int, noIn: Bool) throws(ParseError) -> Expr {
        var left = leftIn
        while true {
            var prec = binaryPrecedence(noIn: noIn)
            if prec == 0 || prec <= minPrec { break }
            let opType = type
            let logical = opType == .or || opType == .and
            let coalesce = opType == .coalesce
            if coalesce { prec = 2 }
            let binop = (logical || coalesce) ? nil : currentBinaryOp()
            try next()
            let rightStart = start
            var rcover = CoverErrors()
            let rightAtom = try parseMaybeUnary(cover: &rcover, sawUnary: false, incDec: false, noIn: noIn)
            try checkExpressionErrors(&rcover, andPattern: false)
            let right = try parseExprOp(rightAtom, leftStart: rightStart, minPrec: prec, noIn: noIn)
            if case .privateIn = right.kind, isBarePrivateName(right) {
                throw error("Unexpected private name", at: right.span.start)
            }
            let span = Span(leftStart, lastEnd)
            if logical || coalesce {
                let op: LogicalOp = coalesce ? .coalesce : opType == .or ? .or : .and
                left = Expr(.logical(op, left, right), span)
                if (logical && type == .coalesce) || (coalesce && (type == .or || type == .and)) {
                    throw error("Logical expressions and coalesce expressions cannot be mixed. Wrap either by parentheses")
                }
            } else if let op = binop {
                if case .privateIn(let name, _) = left.kind, isBarePrivateName(left) {
                    if op != .in { throw error("Unexpected private name", at: left.span.start) }
                    left = Expr(.privateIn(name: name, right), span)
                } else {
                    left = Expr(.binary(op, left, right), span)
                }
            }
            try checkDepth(left)
        }
        if isBarePrivateName(left) { throw error("Unexpected private name", at: left.span.start) }
        return left
    }

    /// A bare `#x` (parsed by parseMaybeUnary only before `in`) is represented as
    /// `.privateIn(name, <placeholder>)` with an empty placeholder until the `in` is seen.
    func isBarePrivateName(_ e: Expr) -> Bool {
        if case .privateIn(_, let placeholder) = e.kind, case .null = placeholder.kind,
           placeholder.span.start == -1 { return true }
        return false
    }

    // MARK: - Unary

    func parseMaybeUnary(cover: inout CoverErrors, sawUnary sawUnaryIn: Bool, incDec: Bool, noIn: Bool) throws(ParseError) -> Expr {
        try checkStack()
        let startPos = start
        var sawUnary = sawUnaryIn
        var expr: Expr
        if isContextual(.await) && canAwait {
            expr = try parseAwait(noIn: noIn)
            sawUnary = true
        } else if let op = prefixOperator() {
            let isUpdate = type == .incDec
            let updateOp: UpdateOp = lexer.s.start < lexer.count && lexer.base[lexer.s.start] == UInt8(ascii: "+") ? .increment : .decrement
            try next()
            var inner = CoverErrors()
            let arg = try parseMaybeUnary(cover: &inner, sawUnary: true, incDec: isUpdate, noIn: noIn)
            try checkExpressionErrors(&inner, andPattern: false)
            if isUpdate {
                let target = try simpleAssignTarget(arg, op: updateOp.rawValue)
                _ = target
                expr = Expr(.update(updateOp, prefix: true, arg), Span(startPos, lastEnd))
            } else {
                if op == .delete {
                    if strict && isLocalVariableAccess(arg) {
                        throw error("Delete of an unqualified identifier in strict mode.", at: startPos)
                    }
                    if isPrivateFieldAccess(arg) {
                        throw error("Private fields can not be deleted", at: startPos)
                    }
                }
                sawUnary = true
                expr = Expr(.unary(op, arg), Span(startPos, lastEnd))
            }
        } else if !sawUnary && type == .privateName {
            if noIn || privateNameStack.isEmpty { throw unexpected() }
            let name = lexer.nameValue
            try usePrivateName(name, at: start)
            try next()
            guard isKeyword(.in) && !lexer.s.containsEscape else { throw unexpected() }
            // Placeholder right operand, completed in parseExprOp.
            expr = Expr(.privateIn(name: name, Expr(.null, Span(-1, -1))), Span(startPos, lastEnd))
            return expr
        } else {
            expr = try parseExprSubscripts(&cover, forAwait: false)
            if hasExpressionErrors(cover) { return expr }
            while type == .incDec && !lexer.s.newlineBefore {
                let updateOp: UpdateOp = lexer.base[lexer.s.start] == UInt8(ascii: "+") ? .increment : .decrement
                _ = try simpleAssignTarget(expr, op: updateOp.rawValue)
                try next()
                expr = Expr(.update(updateOp, prefix: false, expr), Span(startPos, lastEnd))
            }
        }
        if !incDec && type == .starstar {
            if sawUnary {
                throw error("Unary operator used immediately before exponentiation expression. Parenthesis must be used to disambiguate operator precedence")
            }
            try next()
            var rcover = CoverErrors()
            let right = try parseMaybeUnary(cover: &rcover, sawUnary: false, incDec: false, noIn: noIn)
            try checkExpressionErrors(&rcover, andPattern: false)
            return Expr(.binary(.exp, expr, right), Span(startPos, lastEnd))
        }
        return expr
    }

    func prefixOperator() -> UnaryOp? {
        switch type {
        case .bang: return .not
        case .tilde: return .bitNot
        case .plus: return .plus
        case .minus: return .minus
        case .incDec: return .plus // marker; the caller checks type == .incDec
        case .name:
            if lexer.s.containsEscape { return nil }
            switch keyword {
            case .typeof: return .typeof
            case .void: return .void
            case .delete: return .delete
            default: return nil
            }
        default: return nil
        }
    }

    func isLocalVariableAccess(_ e: Expr) -> Bool {
        switch e.kind {
        case .identifier: return true
        case .parenthesized(let inner): return isLocalVariableAccess(inner)
        default: return false
        }
    }

    func isPrivateFieldAccess(_ e: Expr) -> Bool {
        switch e.kind {
        case .member(_, .privateName, _): return true
        case .optionalChain(let inner): return isPrivateFieldAccess(inner)
        case .parenthesized(let inner): return isPrivateFieldAccess(inner)
        default: return false
        }
    }

    func parseAwait(noIn: Bool) throws(ParseError) -> Expr {
        let startPos = start
        if awaitPos < 0 { awaitPos = start }
        noteTopLevelAwait()
        try next()
        var cover = CoverErrors()
        let arg = try parseMaybeUnary(cover: &cover, sawUnary: true, incDec: false, noIn: noIn)
        try checkExpressionErrors(&cover, andPattern: false)
        return Expr(.await(arg), Span(startPos, lastEnd))
    }

    func parseYield(noIn: Bool) throws(ParseError) -> Expr {
        let startPos = start
        if yieldPos < 0 { yieldPos = start }
        try next()
        if type == .semi || canInsertSemicolon() || (type != .star && !tokenStartsExpression()) {
            return Expr(.yield(nil, delegate: false), Span(startPos, lastEnd))
        }
        let delegate = try eat(.star)
        let arg = try parseMaybeAssign(noIn: noIn)
        return Expr(.yield(arg, delegate: delegate), Span(startPos, lastEnd))
    }

    func tokenStartsExpression() -> Bool {
        switch type {
        case .name:
            return lexer.s.containsEscape || !(keyword == .in || keyword == .instanceof)
        case .number, .bigint, .string, .template, .regexp, .parenL, .bracketL, .braceL, .plus, .minus,
             .bang, .tilde, .incDec, .slash, .privateName, .lt:
            return true
        case .assignOp:
            return lexer.assignOpValue == .div
        default:
            return false
        }
    }

    // MARK: - Subscripts

    func parseExprSubscripts(_ cover: inout CoverErrors, forAwait: Bool) throws(ParseError) -> Expr {
        let startPos = start
        let expr = try parseExprAtom(&cover, forNew: false, forAwait: forAwait)
        if case .arrow = expr.kind {
            // An arrow function cannot be the object of a member access or call, unless parenthesized.
            return expr
        }
        let result = try parseSubscripts(expr, startPos: startPos, noCalls: false, forAwait: forAwait)
        if case .member = result.kind {
            if cover.trailingComma >= result.span.start { cover.trailingComma = -1 }
        }
        return result
    }

    func parseSubscripts(_ baseIn: Expr, startPos: Int, noCalls: Bool, forAwait: Bool) throws(ParseError) -> Expr {
        var base = baseIn
        var maybeAsyncArrow = false
        if case .identifier("async") = base.kind, lastEnd == base.span.end, !canInsertSemicolon(),
           base.span.end - base.span.start == 5, potentialArrowAt == base.span.start {
            maybeAsyncArrow = true
        }
        var optionalChained = false
        var chainDepth = 0
        while true {
            if chainDepth & 63 == 63 { try checkStack() }
            chainDepth += 1
            try checkDepth(base)
            let optional = try eat(.questionDot)
            if optional {
                if noCalls { throw error("Invalid optional chain from new expression", at: lastEnd - 2) }
                optionalChained = true
            }
            if try eat(.bracketL) {
                let prop = try parseExpression()
                try expect(.bracketR)
                base = Expr(.member(object: base, property: .computed(prop), optional: optional), Span(startPos, lastEnd))
                if case .superMember = baseIn.kind {}
                continue
            }
            let dotted = optional && type != .parenL && type != .template ? true : try eat(.dot)
            if dotted {
                if type == .privateName {
                    let name = lexer.nameValue
                    try usePrivateName(name, at: start)
                    try next()
                    base = Expr(.member(object: base, property: .privateName(name), optional: optional), Span(startPos, lastEnd))
                } else if type == .name {
                    let name = lexer.nameValue
                    try next()
                    base = Expr(.member(object: base, property: .name(name), optional: optional), Span(startPos, lastEnd))
                } else {
                    throw unexpected()
                }
                continue
            }
            if !noCalls && type == .parenL {
                try next()
                let oldYield = yieldPos, oldAwait = awaitPos, oldAwaitIdent = awaitIdentPos
                yieldPos = -1; awaitPos = -1; awaitIdentPos = -1
                var cover = CoverErrors()
                let args = try parseExprList(close: .parenR, allowTrailingComma: true, allowEmpty: false, cover: &cover)
                if maybeAsyncArrow && !optional && !optionalChained && type == .arrow && !lexer.s.newlineBefore {
                    try checkPatternErrors(cover)
                    try checkYieldAwaitInDefaultParams()
                    if awaitIdentPos >= 0 {
                        throw error("Cannot use 'await' as identifier inside an async function", at: awaitIdentPos)
                    }
                    yieldPos = oldYield; awaitPos = oldAwait; awaitIdentPos = oldAwaitIdent
                    return try parseArrowFromArguments(args, startPos: startPos, isAsync: true)
                }
                try checkExpressionErrors(&cover, andPattern: false)
                if oldYield >= 0 { yieldPos = oldYield }
                if oldAwait >= 0 { awaitPos = oldAwait }
                if oldAwaitIdent >= 0 { awaitIdentPos = oldAwaitIdent }
                let arguments = args.map { a -> Argument in
                    switch a {
                    case .spread(let e): return .spread(e)
                    case .expr(let e): return .expr(e)
                    case .hole: return .expr(Expr(.null, Span(0, 0)))
                    }
                }
                base = Expr(.call(callee: base, arguments: arguments, optional: optional), Span(startPos, lastEnd))
                maybeAsyncArrow = false
                continue
            }
            if type == .template {
                if optional || optionalChained {
                    throw error("Invalid tagged template on optional chain")
                }
                let quasi = try parseTemplate(isTagged: true)
                base = Expr(.taggedTemplate(tag: base, quasi: quasi), Span(startPos, lastEnd))
                continue
            }
            break
        }
        if optionalChained {
            base = Expr(.optionalChain(base), Span(startPos, lastEnd))
        }
        return base
    }

    // MARK: - Atoms

    func parseExprAtom(_ cover: inout CoverErrors, forNew: Bool, forAwait: Bool) throws(ParseError) -> Expr {
        try checkStack()
        let startPos = start
        if type == .slash || (type == .assignOp && lexer.assignOpValue == .div) {
            do { try lexer.rescanRegExp() } catch { throw lexerError(error) }
        }
        let canBeArrow = potentialArrowAt == start
        switch type {
        case .name:
            if !lexer.s.containsEscape {
                switch keyword {
                case .super: return try parseSuper()
                case .this:
                    try next()
                    return Expr(.this, Span(startPos, lastEnd))
                case .null:
                    try next()
                    return Expr(.null, Span(startPos, lastEnd))
                case .true, .false:
                    let v = keyword == .true
                    try next()
                    return Expr(.boolean(v), Span(startPos, lastEnd))
                case .function:
                    try next()
                    let fn = try parseFunctionExpression(isAsync: false, startPos: startPos)
                    return Expr(.function(fn), Span(startPos, lastEnd))
                case .class:
                    let cls = try parseClass(isStatement: false, startPos: startPos)
                    return Expr(.class(cls), Span(startPos, lastEnd))
                case .new:
                    return try parseNew()
                case .import:
                    return try parseImportExpression(startPos: startPos, forNew: forNew)
                default:
                    break
                }
            }
            let containsEsc = lexer.s.containsEscape
            let name = try parseIdentifier()
            if name == "async" && !containsEsc && !canInsertSemicolon() && isKeyword(.function) && !lexer.s.containsEscape {
                try next()
                let fn = try parseFunctionExpression(isAsync: true, startPos: startPos)
                return Expr(.function(fn), Span(startPos, lastEnd))
            }
            if canBeArrow && !canInsertSemicolon() {
                if type == .arrow {
                    try next()
                    let param = Pattern(.identifier(name), Span(startPos, startPos + (name == "async" ? 5 : 0)))
                    return try parseArrowFunction(params: [ParamInfo(pattern: param, start: startPos)], rest: nil,
                                                  startPos: startPos, isAsync: false, singleIdentifier: (name, startPos))
                }
                if name == "async" && type == .name && !containsEsc
                    && (!potentialArrowInForAwait || !isContextual(.of)) {
                    let paramStart = start
                    // `async x => ...`: `x` is bound in an async context.
                    let paramName = lexer.nameValue
                    let paramKeyword = keyword
                    let paramEsc = lexer.s.containsEscape
                    try next()
                    if canInsertSemicolon() || type != .arrow { throw unexpected() }
                    if paramName == "await" || (paramKeyword == .await && paramEsc) {
                        throw error("Cannot use 'await' as identifier inside an async function", at: paramStart)
                    }
                    try checkIdentifierReserved(paramName, keyword: paramKeyword, at: paramStart)
                    try next()
                    let param = Pattern(.identifier(paramName), Span(paramStart, paramStart))
                    return try parseArrowFunction(params: [ParamInfo(pattern: param, start: paramStart)], rest: nil,
                                                  startPos: startPos, isAsync: true, singleIdentifier: (paramName, paramStart))
                }
            }
            return Expr(.identifier(name), Span(startPos, lastEnd))
        case .number:
            if lexer.numberIsLegacyOctal && strict {
                throw error(lexer.base[start + 1] >= 0x38 || sourceText(start, end).contains(".") || sourceText(start, end).contains("9") || sourceText(start, end).contains("8")
                            ? "Decimals with leading zeros are not allowed in strict mode."
                            : "Octal literals are not allowed in strict mode.")
            }
            let v = lexer.numberValue
            try next()
            return Expr(.number(v), Span(startPos, lastEnd))
        case .bigint:
            let v = lexer.bigintValue
            try next()
            return Expr(.bigint(v), Span(startPos, lastEnd))
        case .string:
            if strict && lexer.octalEscapeOffset >= 0 {
                throw error("Octal escape sequences are not allowed in strict mode.", at: lexer.octalEscapeOffset)
            }
            let v = lexer.stringValue
            try next()
            return Expr(.string(JSStringLiteral(utf16: v)), Span(startPos, lastEnd))
        case .regexp:
            let pattern = lexer.regexpPattern
            let flags = lexer.regexpFlags
            try validateRegExpLiteral(pattern: pattern, flags: flags, at: startPos)
            try next()
            return Expr(.regexp(pattern: pattern, flags: flags), Span(startPos, lastEnd))
        case .parenL:
            return try parseParenAndDistinguish(canBeArrow: canBeArrow)
        case .bracketL:
            try next()
            let elements = try parseExprList(close: .bracketR, allowTrailingComma: true, allowEmpty: true, cover: &cover)
            return Expr(.array(elements), Span(startPos, lastEnd))
        case .braceL:
            return try parseObjectLiteral(&cover)
        case .template:
            let t = try parseTemplate(isTagged: false)
            return Expr(.template(t), Span(startPos, lastEnd))
        default:
            throw unexpected()
        }
    }

    func parseSuper() throws(ParseError) -> Expr {
        let startPos = start
        if !allowSuper { throw error("'super' keyword unexpected here") }
        try next()
        switch type {
        case .parenL:
            if !allowDirectSuper { throw error("'super' keyword unexpected here", at: startPos) }
            try next()
            var cover = CoverErrors()
            let args = try parseExprList(close: .parenR, allowTrailingComma: true, allowEmpty: false, cover: &cover)
            try checkExpressionErrors(&cover, andPattern: false)
            let arguments = args.map { a -> Argument in
                if case .spread(let e) = a { return .spread(e) }
                if case .expr(let e) = a { return .expr(e) }
                return .expr(Expr(.null, Span(0, 0)))
            }
            noteUsesThis()
            return Expr(.superCall(arguments), Span(startPos, lastEnd))
        case .dot:
            try next()
            guard type == .name else { throw unexpected() }
            let name = lexer.nameValue
            try next()
            noteUsesThis()
            return Expr(.superMember(.name(name)), Span(startPos, lastEnd))
        case .bracketL:
            try next()
            let prop = try parseExpression()
            try expect(.bracketR)
            noteUsesThis()
            return Expr(.superMember(.computed(prop)), Span(startPos, lastEnd))
        default:
            throw error("'super' keyword unexpected here", at: startPos)
        }
    }

    func noteUsesThis() {}

    /// Bounds the height of expression trees built by loops (operator and member chains),
    /// which the stack guard does not see.
    @inline(__always)
    func checkDepth(_ e: Expr) throws(ParseError) {
        if e.depth > Parser.maxTreeDepth {
            throw error("Expression nested too deeply", at: e.span.start, kind: .rangeError)
        }
    }

    func parseNew() throws(ParseError) -> Expr {
        let startPos = start
        try next()
        if type == .dot {
            try next()
            guard type == .name, lexer.nameValue == "target" else {
                throw error("The only valid meta property for new is 'new.target'")
            }
            if lexer.s.containsEscape { throw error("'new.target' must not contain escaped characters") }
            try next()
            if !allowNewDotTarget { throw error("new.target expression is not allowed here", at: startPos) }
            return Expr(.newTarget, Span(startPos, lastEnd))
        }
        let calleeStart = start
        var cover = CoverErrors()
        let atom = try parseExprAtom(&cover, forNew: true, forAwait: false)
        if case .arrow = atom.kind { throw error("Unexpected token '=>'", at: calleeStart) }
        let callee = try parseSubscripts(atom, startPos: calleeStart, noCalls: true, forAwait: false)
        var arguments: [Argument] = []
        if try eat(.parenL) {
            var c = CoverErrors()
            let args = try parseExprList(close: .parenR, allowTrailingComma: true, allowEmpty: false, cover: &c)
            try checkExpressionErrors(&c, andPattern: false)
            arguments = args.map { a -> Argument in
                if case .spread(let e) = a { return .spread(e) }
                if case .expr(let e) = a { return .expr(e) }
                return .expr(Expr(.null, Span(0, 0)))
            }
        }
        return Expr(.new(callee: callee, arguments: arguments), Span(startPos, lastEnd))
    }

    /// Parses a list of expressions (array elements, arguments) up to `close`.
    func parseExprList(close: TokenType, allowTrailingComma: Bool, allowEmpty: Bool, cover: inout CoverErrors) throws(ParseError) -> [ArrayElement] {
        var elements: [ArrayElement] = []
        var first = true
        while !(try eat(close)) {
            if !first {
                try expect(.comma)
                if allowTrailingComma && type == close { try next(); break }
            } else {
                first = false
            }
            if allowEmpty && type == .comma {
                elements.append(.hole)
            } else if type == .ellipsis {
                try next()
                let arg = try parseMaybeAssign(noIn: false, cover: &cover)
                elements.append(.spread(arg))
                if type == .comma && cover.trailingComma < 0 { cover.trailingComma = start }
            } else {
                elements.append(.expr(try parseMaybeAssign(noIn: false, cover: &cover)))
            }
        }
        return elements
    }

    // MARK: - Parentheses and arrows

    struct ParamInfo {
        var pattern: Pattern
        var start: Int
    }

    func parseParenAndDistinguish(canBeArrow: Bool) throws(ParseError) -> Expr {
        let startPos = start
        try next()
        let innerStart = start
        var exprs: [Expr] = []
        var first = true
        var lastIsComma = false
        var cover = CoverErrors()
        let oldYield = yieldPos, oldAwait = awaitPos
        yieldPos = -1; awaitPos = -1
        var rest: Pattern? = nil
        var spreadStart = -1
        while type != .parenR {
            if first { first = false } else { try expect(.comma) }
            if type == .parenR && !first && !exprs.isEmpty {
                lastIsComma = true
                break
            }
            if type == .ellipsis {
                spreadStart = start
                try next()
                rest = try parseBindingAtom()
                if type == .comma { throw error("Rest parameter must be last formal parameter") }
                break
            }
            exprs.append(try parseMaybeAssign(noIn: false, cover: &cover))
        }
        let innerEnd = lastEnd
        try expect(.parenR)
        if canBeArrow && !canInsertSemicolon() && type == .arrow {
            try checkPatternErrors(cover)
            try checkYieldAwaitInDefaultParams()
            yieldPos = oldYield; awaitPos = oldAwait
            try next()
            var params: [ParamInfo] = []
            for e in exprs {
                params.append(ParamInfo(pattern: try toAssignable(e, isBinding: true, cover: &cover), start: Int(e.span.start)))
            }
            return try parseArrowFunction(params: params, rest: rest, startPos: startPos, isAsync: false, singleIdentifier: nil)
        }
        if exprs.isEmpty || lastIsComma { throw unexpected(lastEnd) }
        if spreadStart >= 0 { throw error("Unexpected token '...'", at: spreadStart) }
        try checkExpressionErrors(&cover, andPattern: false)
        if oldYield >= 0 { yieldPos = oldYield }
        if oldAwait >= 0 { awaitPos = oldAwait }
        let inner = exprs.count > 1 ? Expr(.sequence(exprs), Span(innerStart, innerEnd)) : exprs[0]
        return Expr(.parenthesized(inner), Span(startPos, lastEnd))
    }

    func checkPatternErrors(_ cover: CoverErrors) throws(ParseError) {
        if cover.trailingComma >= 0 {
            throw error("Rest element must be last element", at: cover.trailingComma)
        }
    }

    func checkYieldAwaitInDefaultParams() throws(ParseError) {
        if yieldPos >= 0 && (awaitPos < 0 || yieldPos < awaitPos) {
            throw error("Yield expression not allowed in formal parameter", at: yieldPos)
        }
        if awaitPos >= 0 {
            throw error("Illegal await-expression in formal parameters of async function", at: awaitPos)
        }
    }

    /// `async(a, b) => ...`: the call's arguments become parameters.
    func parseArrowFromArguments(_ args: [ArrayElement], startPos: Int, isAsync: Bool) throws(ParseError) -> Expr {
        try next() // =>
        var params: [ParamInfo] = []
        var rest: Pattern? = nil
        var cover = CoverErrors()
        for (i, a) in args.enumerated() {
            switch a {
            case .expr(let e):
                params.append(ParamInfo(pattern: try toAssignable(e, isBinding: true, cover: &cover), start: Int(e.span.start)))
            case .spread(let e):
                if i != args.count - 1 { throw error("Rest parameter must be last formal parameter", at: e.span.start) }
                let p = try toAssignable(e, isBinding: true, cover: &cover)
                if case .withDefault = p.kind { throw error("Rest parameter may not have a default initializer", at: e.span.start) }
                rest = p
            case .hole:
                throw unexpected()
            }
        }
        return try parseArrowFunction(params: params, rest: rest, startPos: startPos, isAsync: isAsync, singleIdentifier: nil)
    }

    // MARK: - Templates

    func parseTemplate(isTagged: Bool) throws(ParseError) -> TemplateLiteral {
        var cooked: [JSStringLiteral?] = []
        var raw: [JSStringLiteral] = []
        var expressions: [Expr] = []
        while true {
            guard type == .template else { throw unexpected() }
            if lexer.templateCooked == nil, let (offset, message) = lexer.templateInvalidEscape, !isTagged {
                throw error(message, at: offset)
            }
            cooked.append(lexer.templateCooked.map { JSStringLiteral(utf16: $0) })
            raw.append(JSStringLiteral(utf16: lexer.templateRaw))
            let tail = lexer.templateIsTail
            try next()
            if tail { break }
            expressions.append(try parseExpression())
            guard type == .braceR else { throw unexpected() }
            do { try lexer.rescanTemplateContinuation() } catch { throw lexerError(error) }
        }
        return TemplateLiteral(cooked: cooked, raw: raw, expressions: expressions)
    }

    // MARK: - Object literals

    func parseObjectLiteral(_ cover: inout CoverErrors) throws(ParseError) -> Expr {
        let startPos = start
        try next()
        var members: [ObjectMember] = []
        var sawProto = false
        var first = true
        while !(try eat(.braceR)) {
            if !first {
                try expect(.comma)
                if try eat(.braceR) { break }
            } else {
                first = false
            }
            if type == .ellipsis {
                try next()
                let arg = try parseMaybeAssign(noIn: false, cover: &cover)
                if type == .comma && cover.trailingComma < 0 { cover.trailingComma = start }
                members.append(.spread(arg))
                continue
            }
            let propStart = start
            var isGenerator = try eat(.star)
            var isAsync = false
            let containsEsc = lexer.s.containsEscape
            var keyInfo = try parsePropertyName()
            if !isGenerator && !containsEsc && keyInfo.isIdentifier && keyInfo.identifierName == "async"
                && isPropertyNameStart(orStar: true) && !lexer.s.newlineBefore {
                isAsync = true
                isGenerator = try eat(.star)
                keyInfo = try parsePropertyName()
            }
            if (isGenerator || isAsync) && type == .colon { throw unexpected() }
            if try eat(.colon) {
                let value = try parseMaybeAssign(noIn: false, cover: &cover)
                var isProto = false
                if keyInfo.isProtoCandidate {
                    if sawProto {
                        if cover.doubleProto < 0 { cover.doubleProto = keyInfo.start }
                    }
                    sawProto = true
                    isProto = true
                }
                members.append(.property(key: keyInfo.key, value: value, shorthand: false, isProtoSetter: isProto))
            } else if type == .parenL {
                let fn = try parseMethod(isGenerator: isGenerator, isAsync: isAsync, kind: .method, startPos: propStart,
                                         allowDirectSuper: false)
                members.append(.method(key: keyInfo.key, function: fn, kind: .initialize))
            } else if !containsEsc && keyInfo.isIdentifier && (keyInfo.identifierName == "get" || keyInfo.identifierName == "set")
                        && type != .comma && type != .braceR && type != .eq {
                if isGenerator || isAsync { throw unexpected() }
                let isGet = keyInfo.identifierName == "get"
                let key = try parsePropertyName()
                let fn = try parseMethod(isGenerator: false, isAsync: false, kind: isGet ? .getter : .setter,
                                         startPos: propStart, allowDirectSuper: false)
                members.append(.method(key: key.key, function: fn, kind: isGet ? .getter : .setter))
            } else if keyInfo.isIdentifier {
                if isGenerator || isAsync { throw unexpected() }
                let name = keyInfo.identifierName
                try checkIdentifierReserved(name, keyword: classifyKeyword(name), at: keyInfo.start)
                if name == "await" && awaitIdentPos < 0 { awaitIdentPos = keyInfo.start }
                let ident = Expr(.identifier(name), Span(keyInfo.start, keyInfo.end))
                if type == .eq {
                    if cover.shorthandAssign < 0 { cover.shorthandAssign = start }
                    try next()
                    let defaultValue = try parseMaybeAssign()
                    let assign = Expr(.assign(.assign, Pattern(.identifier(name), ident.span), defaultValue), Span(keyInfo.start, lastEnd))
                    members.append(.property(key: keyInfo.key, value: assign, shorthand: true, isProtoSetter: false))
                } else {
                    members.append(.property(key: keyInfo.key, value: ident, shorthand: true, isProtoSetter: false))
                }
            } else {
                throw unexpected()
            }
        }
        return Expr(.object(members), Span(startPos, lastEnd))
    }

    struct PropertyNameInfo {
        var key: PropertyKey
        var start: Int
        var end: Int
        /// Written as an IdentifierName (not a string, number or computed key).
        var isIdentifier: Bool
        var identifierName: String
        /// `__proto__` or `"__proto__"`, not computed.
        var isProtoCandidate: Bool
    }

    func isPropertyNameStart(orStar: Bool) -> Bool {
        switch type {
        case .name, .string, .number, .bigint, .bracketL, .privateName: return true
        case .star: return orStar
        default: return false
        }
    }

    func parsePropertyName() throws(ParseError) -> PropertyNameInfo {
        let startPos = start
        switch type {
        case .name:
            let name = lexer.nameValue
            try next()
            return PropertyNameInfo(key: .name(name), start: startPos, end: lastEnd, isIdentifier: true,
                                    identifierName: name, isProtoCandidate: name == "__proto__")
        case .string:
            if strict && lexer.octalEscapeOffset >= 0 {
                throw error("Octal escape sequences are not allowed in strict mode.", at: lexer.octalEscapeOffset)
            }
            let v = lexer.stringValue
            try next()
            let key: PropertyKey
            if let s = String(validatingUTF16: v) { key = .name(s) } else { key = .string(JSStringLiteral(utf16: v)) }
            let isProto: Bool
            if case .name("__proto__") = key { isProto = true } else { isProto = false }
            return PropertyNameInfo(key: key, start: startPos, end: lastEnd, isIdentifier: false, identifierName: "", isProtoCandidate: isProto)
        case .number:
            if lexer.numberIsLegacyOctal && strict { throw error("Octal literals are not allowed in strict mode.") }
            let v = lexer.numberValue
            try next()
            return PropertyNameInfo(key: .number(v), start: startPos, end: lastEnd, isIdentifier: false, identifierName: "", isProtoCandidate: false)
        case .bigint:
            let v = lexer.bigintValue
            try next()
            return PropertyNameInfo(key: .bigint(v), start: startPos, end: lastEnd, isIdentifier: false, identifierName: "", isProtoCandidate: false)
        case .bracketL:
            try next()
            let e = try parseMaybeAssign()
            try expect(.bracketR)
            return PropertyNameInfo(key: .computed(e), start: startPos, end: lastEnd, isIdentifier: false, identifierName: "", isProtoCandidate: false)
        default:
            throw unexpected()
        }
    }

    // MARK: - Identifiers

    /// Parses an identifier reference or binding identifier, checking reserved words.
    func parseIdentifier() throws(ParseError) -> String {
        guard type == .name else { throw unexpected() }
        let name = lexer.nameValue
        let pos = start
        try checkIdentifierReserved(name, keyword: keyword, at: pos)
        if keyword == .await && awaitIdentPos < 0 { awaitIdentPos = pos }
        try next()
        return name
    }

    /// An IdentifierName where reserved words are fine (labels after break/continue are checked).
    func parseIdentifierName(asReference: Bool) throws(ParseError) -> String {
        guard type == .name else { throw unexpected() }
        let name = lexer.nameValue
        try checkIdentifierReserved(name, keyword: keyword, at: start)
        try next()
        return name
    }

    func checkIdentifierReserved(_ name: String, keyword kw: Keyword, at pos: Int) throws(ParseError) {
        if kw == .none { return }
        if kw.isAlwaysReserved {
            throw error("Unexpected token '\(name)'", at: pos)
        }
        switch kw {
        case .yield:
            if inGenerator { throw error("Yield expression not allowed here", at: pos) }
            if strict { throw error("Unexpected strict mode reserved word", at: pos) }
        case .await:
            if inAsync || canAwait { throw error("Cannot use 'await' as identifier inside an async function", at: pos) }
            if isModule { throw error("Unexpected reserved word 'await' (module code)", at: pos) }
            if inClassStaticBlock { throw error("Cannot use 'await' in class static initialization block", at: pos) }
        case .arguments:
            if inClassFieldInit { throw error("'arguments' is not allowed in class field initializer or static initialization block", at: pos) }
            if inClassStaticBlock { throw error("'arguments' is not allowed in class field initializer or static initialization block", at: pos) }
        default:
            if strict && kw.isStrictReserved { throw error("Unexpected strict mode reserved word", at: pos) }
        }
    }

    // MARK: - Regular expressions

    func validateRegExpLiteral(pattern: String, flags: String, at offset: Int) throws(ParseError) {
        if let message = regExpLiteralValidator(pattern, flags) {
            throw error("Invalid regular expression: /\(pattern)/\(flags): \(message)", at: offset)
        }
    }
}

extension String {
    /// Decodes UTF-16 code units; nil if they contain a lone surrogate.
    init?(validatingUTF16 units: [UInt16]) {
        var ok = true
        var i = 0
        while i < units.count {
            let u = units[i]
            if u >= 0xD800 && u <= 0xDBFF {
                if i + 1 < units.count && units[i + 1] >= 0xDC00 && units[i + 1] <= 0xDFFF { i += 2; continue }
                ok = false; break
            }
            if u >= 0xDC00 && u <= 0xDFFF { ok = false; break }
            i += 1
        }
        if !ok { return nil }
        self = String(decoding: units, as: UTF16.self)
    }
}
