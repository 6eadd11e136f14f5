// Statements and declarations.

enum StatementContext {
    /// Script or block level, or a function body: declarations allowed.
    case topLevel
    /// The body of an `if`/`else`: a sloppy-mode plain function declaration is allowed (Annex B).
    case ifBody
    /// A labelled statement at declaration level: a sloppy plain function declaration is allowed.
    case label
    /// Loop bodies, `with`, labelled statements inside those: no declarations.
    case other
}

extension Parser {
    func parseStatement(context: StatementContext) throws(ParseError) -> Stmt {
        try checkStack()
        let startPos = start
        if type == .name && !lexer.s.containsEscape {
            if let isAwait = try usingDeclarationAhead(inForHead: false) {
                try checkUsingAllowed(context: context, isAwait: isAwait)
                if isAwait { noteTopLevelAwait(); try next() }
                try next()
                let decl = try parseVar(kind: isAwait ? .awaitUsing : .using, isFor: false)
                try semicolon()
                return Stmt(.variable(decl), Span(startPos, lastEnd))
            }
            switch keyword {
            case .var:
                try next()
                let decl = try parseVar(kind: .var, isFor: false)
                try semicolon()
                return Stmt(.variable(decl), Span(startPos, lastEnd))
            case .const:
                if context != .topLevel { throw unexpected() }
                try next()
                let decl = try parseVar(kind: .const, isFor: false)
                try semicolon()
                return Stmt(.variable(decl), Span(startPos, lastEnd))
            case .let:
                if try isLetDeclaration(context: context) {
                    if context != .topLevel { throw unexpected() }
                    try next()
                    let decl = try parseVar(kind: .let, isFor: false)
                    try semicolon()
                    return Stmt(.variable(decl), Span(startPos, lastEnd))
                }
            case .function:
                if context != .topLevel && (strict || (context != .ifBody && context != .label)) {
                    throw error(strict ? "In strict mode code, functions can only be declared at top level or inside a block." : "Unexpected token 'function'")
                }
                let hanging = context != .topLevel
                if context == .ifBody {
                    // Annex B.3.4: as if wrapped in a block.
                    let scope = enterScope(.block, flags: [])
                    let fn = try parseFunctionStatement(isAsync: false, hanging: hanging, startPos: startPos)
                    exitScope()
                    let inner = Stmt(.function(fn), Span(startPos, lastEnd))
                    return Stmt(.block(Block(body: [inner], scope: scope)), Span(startPos, lastEnd))
                }
                let fn = try parseFunctionStatement(isAsync: false, hanging: hanging, startPos: startPos)
                return Stmt(.function(fn), Span(startPos, lastEnd))
            case .async:
                if try isAsyncFunction() {
                    if context != .topLevel { throw error("Async functions can only be declared at the top level or inside a block.") }
                    try next()
                    let fn = try parseFunctionStatement(isAsync: true, hanging: false, startPos: startPos)
                    return Stmt(.function(fn), Span(startPos, lastEnd))
                }
            case .class:
                if context != .topLevel { throw unexpected() }
                let cls = try parseClass(isStatement: true, startPos: startPos)
                return Stmt(.class(cls), Span(startPos, lastEnd))
            case .if: return try parseIf()
            case .for: return try parseFor()
            case .while:
                try next()
                let test = try parseParenExpression()
                labels.append(Label(name: "", kind: .loop, statementStart: startPos))
                defer { labels.removeLast() }
                let body = try parseStatement(context: .other)
                return Stmt(.while(test, body), Span(startPos, lastEnd))
            case .do:
                try next()
                labels.append(Label(name: "", kind: .loop, statementStart: startPos))
                let body: Stmt
                do {
                    defer { labels.removeLast() }
                    body = try parseStatement(context: .other)
                }
                guard isKeyword(.while) && !lexer.s.containsEscape else { throw unexpected() }
                try next()
                let test = try parseParenExpression()
                _ = try eat(.semi)
                return Stmt(.doWhile(body, test), Span(startPos, lastEnd))
            case .return:
                if !inFunction && !options.allowReturnOutsideFunction {
                    throw error("Illegal return statement")
                }
                try next()
                var arg: Expr? = nil
                if !(try eat(.semi)) && !canInsertSemicolon() {
                    arg = try parseExpression()
                    try semicolon()
                }
                return Stmt(.return(arg), Span(startPos, lastEnd))
            case .break, .continue:
                return try parseBreakContinue(isBreak: keyword == .break)
            case .throw:
                try next()
                if lexer.s.newlineBefore { throw error("Illegal newline after throw", at: lastEnd) }
                let arg = try parseExpression()
                try semicolon()
                return Stmt(.throw(arg), Span(startPos, lastEnd))
            case .try: return try parseTry()
            case .switch: return try parseSwitch()
            case .with:
                if strict { throw error("Strict mode code may not include a with statement") }
                try next()
                let object = try parseParenExpression()
                let body = try parseStatement(context: .other)
                return Stmt(.with(object, body), Span(startPos, lastEnd))
            case .debugger:
                try next()
                try semicolon()
                return Stmt(.debugger, Span(startPos, lastEnd))
            case .import:
                // `import(...)` and `import.meta` start expression statements.
                let t = try peekToken()
                if t.type == .parenL || t.type == .dot { break }
                if isModule && context == .topLevel && scopeStack.count == 1 { return try parseImportDeclaration() }
                throw error(isModule ? "An import declaration can only be used at the top level of a module" : "Cannot use import statement outside a module")
            case .export:
                if isModule && context == .topLevel && scopeStack.count == 1 { return try parseExportDeclaration() }
                throw error(isModule ? "An export declaration can only be used at the top level of a module" : "Unexpected token 'export'")
            default:
                break
            }
        }
        switch type {
        case .braceL:
            let block = try parseBlock(newScope: true)
            return Stmt(.block(block), Span(startPos, lastEnd))
        case .semi:
            try next()
            return Stmt(.empty, Span(startPos, lastEnd))
        default:
            break
        }
        // Expression statement or labelled statement.
        let isIdentStart = type == .name
        let startsWithLet = isContextual(.let)
        let expr = try parseExpression()
        if isIdentStart, case .identifier(let name) = expr.kind, type == .colon, expr.span.end == lastEnd,
           !(expr.span.start != startPos) {
            return try parseLabeled(name: name, startPos: startPos, context: context)
        }
        if startsWithLet, case .identifier = expr.kind, type == .bracketL {
            throw unexpected()
        }
        try semicolon()
        return Stmt(.expression(expr), Span(startPos, lastEnd))
    }

    /// `let` starts a lexical declaration (else it is an identifier).
    func isLetDeclaration(context: StatementContext) throws(ParseError) -> Bool {
        let t = try peekToken()
        if t.type == .bracketL { return true }
        if context != .topLevel { return false }
        if t.type == .braceL { return true }
        if t.type == .name {
            if t.escaped { return true }
            if t.keyword == .in || t.keyword == .instanceof { return false }
            return true
        }
        return false
    }

    /// At `using x` or `await using x` (no line terminator before the binding, nor between
    /// `await` and `using`): whether it is the `await` form; nil when the tokens start
    /// something else (`using` is an identifier then).
    func usingDeclarationAhead(inForHead: Bool) throws(ParseError) -> Bool? {
        let isAwait: Bool
        if keyword == .await {
            guard canAwait else { return nil }
            isAwait = true
        } else if keyword == .none && lexer.nameValue == "using" {
            isAwait = false
        } else {
            return nil
        }
        let snap = snapshot()
        defer { restore(snap) }
        if isAwait {
            try next()
            guard type == .name, !lexer.s.containsEscape, !lexer.s.newlineBefore, keyword == .none,
                  lexer.nameValue == "using" else { return nil }
        }
        try next()
        guard type == .name, !lexer.s.newlineBefore else { return nil }
        if keyword == .in || keyword == .instanceof { return nil }
        if inForHead && isContextual(.of) {
            // `for (using of = x; ...)` declares `of`; `for (using of x)` and `for (using of of x)`
            // iterate into the variable `using`.
            try next()
            if !(type == .eq || type == .semi) { return nil }
            return isAwait
        }
        return isAwait
    }

    /// A using declaration is a declaration of a block, function body, class static block
    /// or module: not of a script or eval code, nor directly of a case clause.
    func checkUsingAllowed(context: StatementContext, isAwait: Bool) throws(ParseError) {
        let what = isAwait ? "await using" : "using"
        if context != .topLevel { throw error("'\(what)' declarations are not allowed in a single-statement context") }
        if currentScope.flags.contains(.top) && !isModule {
            throw error("'\(what)' declarations are not allowed at the top level of a script")
        }
        if scopeStack.count == switchCaseScopeDepth {
            throw error("'\(what)' declarations are not allowed directly in a case clause")
        }
    }

    /// `async function` with no line terminator between.
    func isAsyncFunction() throws(ParseError) -> Bool {
        guard isContextual(.async) else { return false }
        let t = try peekToken()
        return t.type == .name && t.keyword == .function && !t.escaped && !t.newline
    }

    func parseParenExpression() throws(ParseError) -> Expr {
        try expect(.parenL)
        let e = try parseExpression()
        try expect(.parenR)
        return e
    }

    func parseBlock(newScope: Bool) throws(ParseError) -> Block {
        try expect(.braceL)
        var scope: Scope? = nil
        if newScope { scope = enterScope(.block, flags: []) }
        var body: [Stmt] = []
        while type != .braceR {
            if type == .eof { throw unexpected() }
            body.append(try parseStatement(context: .topLevel))
        }
        try next()
        if newScope { exitScope() }
        return Block(body: body, scope: scope)
    }

    func parseIf() throws(ParseError) -> Stmt {
        let startPos = start
        try next()
        let test = try parseParenExpression()
        let consequent = try parseStatement(context: .ifBody)
        var alternate: Stmt? = nil
        if isKeyword(.else) && !lexer.s.containsEscape {
            try next()
            alternate = try parseStatement(context: .ifBody)
        }
        return Stmt(.if(test, consequent, alternate), Span(startPos, lastEnd))
    }

    func parseBreakContinue(isBreak: Bool) throws(ParseError) -> Stmt {
        let startPos = start
        try next()
        var label: String? = nil
        if !(try eat(.semi)) && !canInsertSemicolon() {
            guard type == .name else { throw unexpected() }
            let name = try parseIdentifierName(asReference: false)
            label = name
            try semicolon()
        }
        // Verify that there is an enclosing target.
        var found = false
        for l in labels.reversed() {
            if let name = label {
                if l.name == name {
                    if !isBreak && l.kind != .loop {
                        throw error("Illegal continue statement: '\(name)' does not denote an iteration statement", at: startPos)
                    }
                    found = true
                    break
                }
            } else if l.kind == .loop || (isBreak && l.kind == .switch) {
                found = true
                break
            }
        }
        if !found {
            if let name = label { throw error("Undefined label '\(name)'", at: startPos) }
            throw error(isBreak ? "Illegal break statement" : "Illegal continue statement: no surrounding iteration statement", at: startPos)
        }
        return Stmt(isBreak ? .break(label: label) : .continue(label: label), Span(startPos, lastEnd))
    }

    func parseLabeled(name: String, startPos: Int, context: StatementContext) throws(ParseError) -> Stmt {
        try next() // ':'
        for l in labels where l.name == name {
            throw error("Label '\(name)' has already been declared", at: startPos)
        }
        // A label on a loop makes `continue label` valid.
        var kind: LabelKind = .other
        if type == .name && !lexer.s.containsEscape && (keyword == .for || keyword == .while || keyword == .do) {
            kind = .loop
        } else if type == .name && keyword == .switch && !lexer.s.containsEscape {
            kind = .switch
        }
        // Consecutive labels on one loop all denote it.
        var i = labels.count - 1
        while i >= 0 && labels[i].statementStart == startPos { labels[i].kind = kind; i -= 1 }
        labels.append(Label(name: name, kind: kind, statementStart: start))
        defer { labels.removeLast() }
        let bodyContext: StatementContext = context == .topLevel || context == .label ? .label : .other
        let body = try parseStatement(context: bodyContext)
        return Stmt(.labeled(name, body), Span(startPos, lastEnd))
    }

    // MARK: - Variable declarations

    func parseVar(kind: VariableKind, isFor: Bool, forOfHead: Bool = false) throws(ParseError) -> VariableDeclaration {
        var decls: [VariableDeclarator] = []
        while true {
            let targetStart = start
            if kind != .var && isContextual(.let) {
                throw error("let is disallowed as a lexically bound name")
            }
            if kind.isUsing && type != .name { throw error("A using declaration binds an identifier, not a pattern") }
            let target = try parseBindingAtom()
            try declarePattern(target, mode: kind == .var ? .var : .lexical,
                               kind: kind == .var ? .var : kind == .let ? .let : .const)
            var initializer: Expr? = nil
            if try eat(.eq) {
                initializer = try parseMaybeAssign(noIn: isFor)
            } else if (kind == .const || kind.isUsing) && !(isFor && (type == .name && (keyword == .in || isContextual(.of)))) {
                throw error("Missing initializer in \(kind == .const ? "const" : "using") declaration")
            } else if case .identifier = target.kind {
            } else if !(isFor && (isKeyword(.in) || isContextual(.of))) {
                throw error("Missing initializer in destructuring declaration", at: targetStart)
            }
            decls.append(VariableDeclarator(target: target, initializer: initializer))
            if !(try eat(.comma)) { break }
        }
        return VariableDeclaration(kind: kind, declarations: decls)
    }

    // MARK: - for

    func parseFor() throws(ParseError) -> Stmt {
        let startPos = start
        try next()
        var isAwait = false
        var awaitAt = -1
        if isContextual(.await) {
            if !canAwait { throw unexpected() }
            noteTopLevelAwait()
            awaitAt = start
            isAwait = true
            try next()
        }
        try expect(.parenL)
        labels.append(Label(name: "", kind: .loop, statementStart: startPos))
        defer { labels.removeLast() }
        let scope = enterScope(.block, flags: [])
        defer { exitScope() }
        if type == .semi {
            if isAwait { throw unexpected(awaitAt) }
            return try parseForRest(startPos: startPos, initializer: nil, scope: scope)
        }
        let usingAhead = type == .name && !lexer.s.containsEscape ? try usingDeclarationAhead(inForHead: true) : nil
        let isLet = isContextual(.let) ? try isLetDeclaration(context: .topLevel) : false
        if (type == .name && !lexer.s.containsEscape && (keyword == .var || keyword == .const)) || isLet || usingAhead != nil {
            let kind: VariableKind = usingAhead == true ? .awaitUsing : usingAhead == false ? .using
                : isLet ? .let : keyword == .var ? .var : .const
            let declStart = start
            if kind == .awaitUsing { noteTopLevelAwait(); try next() }
            try next()
            let decl = try parseVar(kind: kind, isFor: true)
            let isOf = isContextual(.of)
            if isKeyword(.in) || isOf {
                if decl.declarations.count != 1 {
                    throw error("Invalid left-hand side in for-\(isOf ? "of" : "in") loop: Must have a single binding.", at: declStart)
                }
                let d = decl.declarations[0]
                if d.initializer != nil {
                    var allowed = false
                    if !isOf && !strict && kind == .var, case .identifier = d.target.kind { allowed = true }
                    if !allowed {
                        throw error("for-\(isOf ? "of" : "in") loop variable declaration may not have an initializer.", at: declStart)
                    }
                }
                if isAwait && !isOf { throw unexpected(awaitAt) }
                if kind.isUsing && !isOf { throw error("A using declaration is not allowed in a for-in head", at: declStart) }
                return try parseForInOf(startPos: startPos, left: .variable(kind, d.target), isOf: isOf,
                                        isAwait: isAwait, scope: scope, varInitializer: d.initializer)
            }
            if isAwait { throw unexpected(awaitAt) }
            return try parseForRest(startPos: startPos, initializer: .variable(decl), scope: scope)
        }
        let startsWithLet = isContextual(.let)
        let startsWithAsync = isContextual(.async)
        let initStart = start
        var cover = CoverErrors()
        let initExpr: Expr
        if isAwait {
            initExpr = try parseExprSubscripts(&cover, forAwait: true)
        } else {
            initExpr = try parseExpression(noIn: true, cover: &cover)
        }
        let isOf = isContextual(.of)
        if isKeyword(.in) && !lexer.s.containsEscape || isOf {
            if isAwait && !isOf { throw unexpected(awaitAt) }
            if isOf && !isAwait && startsWithAsync, initExpr.span.start == initStart,
               case .identifier("async") = initExpr.kind, initExpr.span.end - initExpr.span.start == 5 {
                throw error("The left-hand side of a for-of loop may not be 'async'.", at: initStart)
            }
            if startsWithLet && isOf { throw error("The left-hand side of a for-of loop may not start with let.", at: initStart) }
            let target: Pattern
            if isWebCompatCallTarget(initExpr) {
                target = Pattern(.expression(initExpr), initExpr.span)
            } else {
                target = try toAssignable(initExpr, isBinding: false, cover: &cover)
                try checkAssignTarget(target)
            }
            return try parseForInOf(startPos: startPos, left: .target(target), isOf: isOf, isAwait: isAwait, scope: scope, varInitializer: nil)
        }
        try checkExpressionErrors(&cover, andPattern: true)
        if isAwait { throw unexpected(awaitAt) }
        return try parseForRest(startPos: startPos, initializer: .expr(initExpr), scope: scope)
    }

    func parseForRest(startPos: Int, initializer: ForInit?, scope: Scope) throws(ParseError) -> Stmt {
        try expect(.semi)
        let test: Expr? = type == .semi ? nil : try parseExpression()
        try expect(.semi)
        let update: Expr? = type == .parenR ? nil : try parseExpression()
        try expect(.parenR)
        let body = try parseStatement(context: .other)
        return Stmt(.for(initializer: initializer, test: test, update: update, body: body, scope: scope), Span(startPos, lastEnd))
    }

    func parseForInOf(startPos: Int, left: ForBinding, isOf: Bool, isAwait: Bool, scope: Scope, varInitializer: Expr?) throws(ParseError) -> Stmt {
        try next() // in / of
        let right = isOf ? try parseMaybeAssign() : try parseExpression()
        try expect(.parenR)
        let body = try parseStatement(context: .other)
        if isOf {
            return Stmt(.forOf(left, right, body: body, isAwait: isAwait, scope: scope), Span(startPos, lastEnd))
        }
        if let initializer = varInitializer, case .variable(let kind, let target) = left {
            // Annex B `for (var x = init in obj)`: evaluate the initializer first.
            let decl = VariableDeclaration(kind: kind, declarations: [VariableDeclarator(target: target, initializer: initializer)])
            let initStmt = Stmt(.variable(decl), Span(startPos, startPos))
            let loop = Stmt(.forIn(.variable(kind, target), right, body: body, scope: scope), Span(startPos, lastEnd))
            return Stmt(.block(Block(body: [initStmt, loop], scope: nil)), Span(startPos, lastEnd))
        }
        return Stmt(.forIn(left, right, body: body, scope: scope), Span(startPos, lastEnd))
    }

    // MARK: - switch, try

    func parseSwitch() throws(ParseError) -> Stmt {
        let startPos = start
        try next()
        let discriminant = try parseParenExpression()
        try expect(.braceL)
        labels.append(Label(name: "", kind: .switch, statementStart: startPos))
        defer { labels.removeLast() }
        let scope = enterScope(.block, flags: [])
        let outerSwitchDepth = switchCaseScopeDepth
        switchCaseScopeDepth = scopeStack.count
        defer { switchCaseScopeDepth = outerSwitchDepth }
        var cases: [SwitchCase] = []
        var sawDefault = false
        while type != .braceR {
            var test: Expr? = nil
            if isKeyword(.case) && !lexer.s.containsEscape {
                try next()
                test = try parseExpression()
            } else if isKeyword(.default) && !lexer.s.containsEscape {
                if sawDefault { throw error("More than one default clause in switch statement") }
                sawDefault = true
                try next()
            } else {
                throw unexpected()
            }
            try expect(.colon)
            var body: [Stmt] = []
            while type != .braceR && !((isKeyword(.case) || isKeyword(.default)) && !lexer.s.containsEscape) {
                if type == .eof { throw unexpected() }
                body.append(try parseStatement(context: .topLevel))
            }
            cases.append(SwitchCase(test: test, body: body))
        }
        try next()
        exitScope()
        return Stmt(.switch(discriminant, cases, scope: scope), Span(startPos, lastEnd))
    }

    func parseTry() throws(ParseError) -> Stmt {
        let startPos = start
        try next()
        let block = try parseBlock(newScope: true)
        var param: Pattern? = nil
        var catchBody: Block? = nil
        var catchScope: Scope? = nil
        if isKeyword(.catch) && !lexer.s.containsEscape {
            try next()
            if try eat(.parenL) {
                let paramStart = start
                let p = try parseBindingAtom()
                let simple: Bool
                if case .identifier = p.kind { simple = true } else { simple = false }
                let scope = enterScope(.catchClause, flags: simple ? .simpleCatch : [])
                if simple, case .identifier(let n) = p.kind {
                    scope.simpleCatchName = n
                    scope.isSimpleCatch = true
                    try declarePattern(p, mode: .simpleCatch, kind: .catchParameter)
                } else {
                    try declarePattern(p, mode: .lexical, kind: .catchParameter)
                }
                _ = paramStart
                try expect(.parenR)
                param = p
                catchScope = scope
            } else {
                catchScope = enterScope(.catchClause, flags: [])
            }
            catchBody = try parseBlock(newScope: false)
            exitScope()
        }
        var finalizer: Block? = nil
        if isKeyword(.finally) && !lexer.s.containsEscape {
            try next()
            finalizer = try parseBlock(newScope: true)
        }
        if catchBody == nil && finalizer == nil { throw error("Missing catch or finally after try") }
        return Stmt(.try(block: block, catchParameter: param, catchBody: catchBody, catchScope: catchScope, finally: finalizer),
                    Span(startPos, lastEnd))
    }
}
