// Functions, arrow functions, methods and classes.

extension Parser {
    // MARK: - Function declarations and expressions

    /// At `function` (after `async`, if any).
    func parseFunctionStatement(isAsync: Bool, hanging: Bool, startPos: Int) throws(ParseError) -> FunctionNode {
        try next() // function
        let isGenerator = try eat(.star)
        if hanging && (isGenerator || isAsync) { throw unexpected() }
        guard type == .name else { throw unexpected() }
        let nameStart = start
        let name = try parseIdentifier()
        let asVar = treatFunctionsAsVar(currentScope)
        let mode: BindMode = (strict || isGenerator || isAsync) ? (asVar ? .var : .lexical) : .function
        try declareName(name, mode: mode, kind: asVar ? .function : .blockFunction, at: nameStart)
        return try parseFunctionRest(name: name, nameStart: nameStart, isAsync: isAsync, isGenerator: isGenerator,
                                     kind: .normal, startPos: startPos, extraFlags: [], isExpression: false)
    }

    /// After `function` in an expression.
    func parseFunctionExpression(isAsync: Bool, startPos: Int) throws(ParseError) -> FunctionNode {
        let isGenerator = try eat(.star)
        return try parseFunctionRest(name: nil, nameStart: -1, isAsync: isAsync, isGenerator: isGenerator,
                                     kind: .normal, startPos: startPos, extraFlags: [], isExpression: true)
    }

    func parseFunctionRest(name nameIn: String?, nameStart nameStartIn: Int, isAsync: Bool, isGenerator: Bool,
                           kind: FunctionKind, startPos: Int, extraFlags: ScopeFlags,
                           isExpression: Bool) throws(ParseError) -> FunctionNode {
        let scope = Scope(kind: .function, parent: nil)
        let fn = FunctionNode(name: nameIn, kind: kind, isAsync: isAsync, isGenerator: isGenerator,
                              span: Span(startPos, startPos), scope: scope)
        var flags = ScopeFlags.functionFlags(async: isAsync, generator: isGenerator)
        flags.formUnion(extraFlags)
        pushScope(scope, flags: flags, function: fn)
        let oldYield = yieldPos, oldAwait = awaitPos, oldAwaitIdent = awaitIdentPos
        yieldPos = -1; awaitPos = -1; awaitIdentPos = -1
        var nameStart = nameStartIn
        if isExpression && type == .name {
            nameStart = start
            fn.name = try parseIdentifier()
        }
        let (params, rest) = try parseFormalParameters()
        try checkYieldAwaitInDefaultParams()
        try parseFunctionBody(fn, params: params, rest: rest, isArrow: false, isMethod: false, nameStart: nameStart)
        yieldPos = oldYield; awaitPos = oldAwait; awaitIdentPos = oldAwaitIdent
        exitScope()
        fn.span = Span(startPos, lastEnd)
        return fn
    }

    /// `( params )`
    func parseFormalParameters() throws(ParseError) -> ([ParamInfo], Pattern?) {
        try expect(.parenL)
        var params: [ParamInfo] = []
        var rest: Pattern? = nil
        var first = true
        while !(try eat(.parenR)) {
            if first { first = false } else {
                try expect(.comma)
                if try eat(.parenR) { break }
            }
            if type == .ellipsis {
                try next()
                rest = try parseBindingAtom()
                if type == .comma { throw error("Rest parameter must be last formal parameter") }
                if type == .eq { throw error("Rest parameter may not have a default initializer") }
                try expect(.parenR)
                break
            }
            let pStart = start
            params.append(ParamInfo(pattern: try parseBindingElement(), start: pStart))
        }
        return (params, rest)
    }

    func isSimpleParameterList(_ params: [ParamInfo], rest: Pattern?) -> Bool {
        if rest != nil { return false }
        for p in params {
            if case .identifier = p.pattern.kind { continue }
            return false
        }
        return true
    }

    /// Parses the body and declares the parameters in the function scope (the current scope).
    func parseFunctionBody(_ fn: FunctionNode, params: [ParamInfo], rest: Pattern?, isArrow: Bool, isMethod: Bool,
                           nameStart: Int) throws(ParseError) {
        let simple = isSimpleParameterList(params, rest: rest)
        fn.params = params.map { $0.pattern }
        fn.rest = rest
        fn.hasSimpleParameterList = simple
        var count = 0
        for p in params {
            if case .withDefault = p.pattern.kind { break }
            count += 1
        }
        fn.expectedArgumentCount = count
        let oldStrict = strict
        if isArrow && type != .braceL {
            try checkParams(params, rest: rest, allowDuplicates: false)
            let body = try parseMaybeAssign()
            fn.expressionBody = body
            fn.isStrict = strict
            return
        }
        try expect(.braceL)
        var useStrict = false
        if !oldStrict || !simple {
            useStrict = try detectUseStrictDirective()
            if useStrict && !simple {
                throw error("Illegal 'use strict' directive in function with non-simple parameter list")
            }
        }
        let oldLabels = labels
        labels = []
        if useStrict { strict = true }
        fn.isStrict = strict
        fn.hasUseStrictDirective = useStrict
        try checkParams(params, rest: rest, allowDuplicates: !oldStrict && !useStrict && !isArrow && !isMethod && simple)
        if strict, let name = fn.name {
            let kw = classifyKeyword(name)
            if kw == .eval || kw == .arguments {
                throw error("Unexpected eval or arguments in strict mode", at: nameStart)
            }
            if kw.isStrictReserved { throw error("Unexpected strict mode reserved word", at: nameStart) }
        }
        var body: [Stmt] = []
        try parseDirectives(into: &body)
        while type != .braceR {
            if type == .eof { throw unexpected() }
            body.append(try parseStatement(context: .topLevel))
        }
        try next()
        fn.body = body
        labels = oldLabels
        strict = oldStrict
    }

    /// Declares parameters as `var`s of the function scope, checking duplicates and strict names.
    func checkParams(_ params: [ParamInfo], rest: Pattern?, allowDuplicates: Bool) throws(ParseError) {
        var seen: Set<String>? = allowDuplicates ? nil : []
        for p in params { try declarePattern(p.pattern, mode: .var, kind: .parameter, clashes: &seen) }
        if let r = rest { try declarePattern(r, mode: .var, kind: .parameter, clashes: &seen) }
    }

    // MARK: - Arrows

    func parseArrowFunction(params: [ParamInfo], rest: Pattern?, startPos: Int, isAsync: Bool,
                            singleIdentifier: (String, Int)?) throws(ParseError) -> Expr {
        if lexer.s.newlineBefore && lastEnd > 0 {
            // `=>` was already consumed by the caller; a line break before it is checked there.
        }
        let scope = Scope(kind: .function, parent: nil)
        let fn = FunctionNode(name: nil, kind: .arrow, isAsync: isAsync, isGenerator: false,
                              span: Span(startPos, startPos), scope: scope)
        var flags = ScopeFlags.functionFlags(async: isAsync, generator: false)
        flags.insert(.arrow)
        pushScope(scope, flags: flags, function: fn)
        let oldYield = yieldPos, oldAwait = awaitPos, oldAwaitIdent = awaitIdentPos
        yieldPos = -1; awaitPos = -1; awaitIdentPos = -1
        if let (name, pos) = singleIdentifier, isAsync || strict {
            try checkIdentifierReserved(name, keyword: classifyKeyword(name), at: pos)
        }
        for p in params { try validateBindingPattern(p.pattern) }
        if let r = rest { try validateBindingPattern(r) }
        try parseFunctionBody(fn, params: params, rest: rest, isArrow: true, isMethod: false, nameStart: -1)
        yieldPos = oldYield; awaitPos = oldAwait; awaitIdentPos = oldAwaitIdent
        exitScope()
        fn.span = Span(startPos, lastEnd)
        return Expr(.arrow(fn), Span(startPos, lastEnd))
    }

    // MARK: - Methods

    func parseMethod(isGenerator: Bool, isAsync: Bool, kind: FunctionKind, startPos: Int,
                     allowDirectSuper: Bool) throws(ParseError) -> FunctionNode {
        let scope = Scope(kind: .function, parent: nil)
        let fn = FunctionNode(name: nil, kind: kind, isAsync: isAsync, isGenerator: isGenerator,
                              span: Span(startPos, startPos), scope: scope)
        var flags = ScopeFlags.functionFlags(async: isAsync, generator: isGenerator)
        flags.insert(.superProperty)
        if allowDirectSuper { flags.insert(.directSuper) }
        pushScope(scope, flags: flags, function: fn)
        let oldYield = yieldPos, oldAwait = awaitPos, oldAwaitIdent = awaitIdentPos
        yieldPos = -1; awaitPos = -1; awaitIdentPos = -1
        let paramsStart = start
        let (params, rest) = try parseFormalParameters()
        try checkYieldAwaitInDefaultParams()
        if kind == .getter && (!params.isEmpty || rest != nil) {
            throw error("Getter must not have any formal parameters.", at: paramsStart)
        }
        if kind == .setter {
            if rest != nil { throw error("Setter function argument must not be a rest parameter", at: paramsStart) }
            if params.count != 1 { throw error("Setter must have exactly one formal parameter.", at: paramsStart) }
        }
        try parseFunctionBody(fn, params: params, rest: rest, isArrow: false, isMethod: true, nameStart: -1)
        yieldPos = oldYield; awaitPos = oldAwait; awaitIdentPos = oldAwaitIdent
        exitScope()
        fn.span = Span(startPos, lastEnd)
        return fn
    }

    // MARK: - Classes

    func parseClass(isStatement: Bool, startPos: Int) throws(ParseError) -> ClassNode {
        try next() // class
        let oldStrict = strict
        strict = true
        defer { strict = oldStrict }
        var name: String? = nil
        if type == .name && !(keyword == .extends && !lexer.s.containsEscape) {
            let nameStart = start
            let n = try parseIdentifier()
            if n == "let" || n == "static" || n == "yield" || n == "implements" || n == "interface" || n == "package"
                || n == "private" || n == "protected" || n == "public" {
                throw error("Unexpected strict mode reserved word", at: nameStart)
            }
            if isStatement {
                var none: Set<String>? = nil
                try declarePattern(Pattern(.identifier(n), Span(nameStart, lastEnd)), mode: .lexical, kind: .class, clashes: &none)
            }
            name = n
        } else if isStatement {
            throw unexpected()
        }
        let scope = enterScope(.classBody, flags: [])
        if let n = name { scope.addBinding(n, kind: .classInnerName, offset: startPos) }
        let cls = ClassNode(name: name, superClass: nil, span: Span(startPos, startPos), scope: scope)
        if isKeyword(.extends) && !lexer.s.containsEscape {
            try next()
            var cover = CoverErrors()
            let heritageStart = start
            let atom = try parseExprAtom(&cover, forNew: false, forAwait: false)
            if case .arrow = atom.kind { throw unexpected(heritageStart) }
            cls.superClass = try parseSubscripts(atom, startPos: heritageStart, noCalls: false, forAwait: false)
            try checkExpressionErrors(&cover, andPattern: false)
        }
        let privateNames = PrivateNameScope()
        privateNameStack.append(privateNames)
        try expect(.braceL)
        var hadConstructor = false
        while !(try eat(.braceR)) {
            if try eat(.semi) { continue }
            if type == .eof { throw unexpected() }
            try parseClassElement(cls, privateNames: privateNames, hadConstructor: &hadConstructor)
        }
        privateNameStack.removeLast()
        // Private names used but not declared here must be declared in an enclosing class.
        for use in privateNames.used where privateNames.declared[use.name] == nil {
            if let parent = privateNameStack.last {
                parent.used.append(use)
            } else {
                throw error("Private field '#\(use.name)' must be declared in an enclosing class", at: use.offset)
            }
        }
        exitScope()
        cls.span = Span(startPos, lastEnd)
        return cls
    }

    func usePrivateName(_ name: String, at offset: Int) throws(ParseError) {
        guard let scope = privateNameStack.last else {
            throw error("Private field '#\(name)' must be declared in an enclosing class", at: offset)
        }
        scope.used.append((name, offset))
    }

    func isClassElementNameStart() -> Bool {
        switch type {
        case .name, .privateName, .number, .bigint, .string, .bracketL: return true
        default: return false
        }
    }

    func declarePrivateName(_ name: String, kind: String, isStatic: Bool, in scope: PrivateNameScope, at offset: Int) throws(ParseError) {
        if name == "constructor" { throw error("Classes may not have a private field named '#constructor'", at: offset) }
        if let existing = scope.declared[name] {
            let pairable = (existing.kind == "get" && kind == "set") || (existing.kind == "set" && kind == "get")
            if pairable && existing.isStatic == isStatic {
                scope.declared[name] = ("both", isStatic)
                return
            }
            throw error("Identifier '#\(name)' has already been declared", at: offset)
        }
        scope.declared[name] = (kind, isStatic)
    }

    func parseClassElement(_ cls: ClassNode, privateNames: PrivateNameScope, hadConstructor: inout Bool) throws(ParseError) {
        let elementStart = start
        var keyName: String? = nil
        var keyStart = start
        var isStatic = false
        var isAsync = false
        var isGenerator = false
        var accessorKind: PropertyKind = .initialize
        if isContextual(.static) {
            keyStart = start
            try next()
            if type == .braceL {
                try parseStaticBlock(cls, startPos: elementStart)
                return
            }
            if isClassElementNameStart() || type == .star { isStatic = true } else { keyName = "static" }
        }
        if keyName == nil && isContextual(.async) {
            keyStart = start
            try next()
            if (isClassElementNameStart() || type == .star) && !lexer.s.newlineBefore { isAsync = true } else { keyName = "async" }
        }
        if keyName == nil && type == .star {
            try next()
            isGenerator = true
        }
        if keyName == nil && !isAsync && !isGenerator && (isContextual(.get) || isContextual(.set)) {
            let isGet = keyword == .get
            keyStart = start
            try next()
            if isClassElementNameStart() { accessorKind = isGet ? .getter : .setter } else { keyName = isGet ? "get" : "set" }
        }
        // The element name.
        var key: PropertyKey
        var privateName: String? = nil
        var isConstructorName = false
        var isPrototypeName = false
        let nameStart: Int
        if let k = keyName {
            key = .name(k)
            nameStart = keyStart
        } else if type == .privateName {
            nameStart = start
            let n = lexer.nameValue
            try next()
            privateName = n
            key = .privateName(n)
        } else {
            nameStart = start
            let info = try parsePropertyName()
            key = info.key
            if case .name(let n) = info.key {
                isConstructorName = n == "constructor"
                isPrototypeName = n == "prototype"
            }
        }
        if type == .parenL || accessorKind != .initialize || isGenerator || isAsync {
            // A method.
            let isConstructor = !isStatic && isConstructorName
            if isConstructor {
                if accessorKind != .initialize { throw error("Class constructor may not be an accessor", at: nameStart) }
                if isGenerator { throw error("Class constructor may not be a generator", at: nameStart) }
                if isAsync { throw error("Class constructor may not be an async method", at: nameStart) }
                if hadConstructor { throw error("A class may only have one constructor", at: nameStart) }
                hadConstructor = true
            } else if isStatic && isPrototypeName {
                throw error("Classes may not have a static property named 'prototype'", at: nameStart)
            }
            if let p = privateName {
                try declarePrivateName(p, kind: accessorKind == .getter ? "get" : accessorKind == .setter ? "set" : "other",
                                       isStatic: isStatic, in: privateNames, at: nameStart)
            }
            let kind: FunctionKind
            if isConstructor { kind = cls.superClass != nil ? .derivedConstructor : .classConstructor }
            else if accessorKind == .getter { kind = .getter }
            else if accessorKind == .setter { kind = .setter }
            else { kind = .method }
            if type != .parenL { throw unexpected() }
            let fn = try parseMethod(isGenerator: isGenerator, isAsync: isAsync, kind: kind, startPos: elementStart,
                                     allowDirectSuper: isConstructor && cls.superClass != nil)
            if isConstructor {
                fn.name = cls.name
                cls.constructor = fn
            } else {
                cls.members.append(.method(key: key, function: fn, kind: accessorKind, isStatic: isStatic))
            }
            return
        }
        // A field.
        if isConstructorName { throw error("Classes may not have a field named 'constructor'", at: nameStart) }
        if isStatic && isPrototypeName { throw error("Classes may not have a static property named 'prototype'", at: nameStart) }
        if let p = privateName {
            try declarePrivateName(p, kind: "other", isStatic: isStatic, in: privateNames, at: nameStart)
        }
        var initializer: FunctionNode? = nil
        if type == .eq {
            try next()
            let initStart = start
            let scope = Scope(kind: .function, parent: nil)
            let fn = FunctionNode(name: nil, kind: .fieldInitializer, isAsync: false, isGenerator: false,
                                  span: Span(initStart, initStart), scope: scope)
            fn.isStrict = true
            pushScope(scope, flags: [.classFieldInit, .superProperty], function: fn)
            let oldLabels = labels
            labels = []
            let value = try parseMaybeAssign()
            labels = oldLabels
            exitScope()
            fn.expressionBody = value
            fn.span = Span(initStart, lastEnd)
            initializer = fn
        }
        try semicolon()
        cls.members.append(.field(key: key, initializer: initializer, isStatic: isStatic))
    }

    func parseStaticBlock(_ cls: ClassNode, startPos: Int) throws(ParseError) {
        // At `{` after `static`.
        try next()
        let scope = Scope(kind: .function, parent: nil)
        let fn = FunctionNode(name: nil, kind: .staticBlock, isAsync: false, isGenerator: false,
                              span: Span(startPos, startPos), scope: scope)
        fn.isStrict = true
        pushScope(scope, flags: [.classStaticBlock, .superProperty], function: fn)
        let oldLabels = labels
        labels = []
        let oldYield = yieldPos, oldAwait = awaitPos, oldAwaitIdent = awaitIdentPos
        yieldPos = -1; awaitPos = -1; awaitIdentPos = -1
        var body: [Stmt] = []
        while type != .braceR {
            if type == .eof { throw unexpected() }
            body.append(try parseStatement(context: .topLevel))
        }
        try next()
        yieldPos = oldYield; awaitPos = oldAwait; awaitIdentPos = oldAwaitIdent
        labels = oldLabels
        exitScope()
        fn.body = body
        fn.span = Span(startPos, lastEnd)
        cls.members.append(.staticBlock(fn))
    }
}
