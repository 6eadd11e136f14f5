// Scripts and functions: declaration instantiation and prologues.

import JSSyntax
import JSBytecode

extension FunctionCompiler {
    // MARK: - Scripts

    func compileScript(_ program: Program) throws(CompileError) {
        let cs = CompileScope(scope: program.scope, owner: self)
        scopes.append(cs)
        for b in program.scope.bindings {
            cs.names[b.name] = BindingInfo(location: .global, kind: b.kind, declarationEnd: b.offset)
        }
        // GlobalDeclarationInstantiation: lexical names, then vars, then functions.
        for b in program.scope.bindings {
            switch b.kind {
            case .let, .const, .class:
                emit(.declareGlobalLexical, atom(b.name), b.kind == .const ? 1 : 0)
            default:
                break
            }
        }
        for b in program.scope.bindings where b.kind == .var || b.kind == .function {
            emit(.declareGlobalVar, atom(b.name), b.kind == .function ? 1 : 0)
        }
        try completionBody(program.body)
    }

    // MARK: - Eval code

    func compileEvalCode(_ program: Program) throws(CompileError) {
        let strict = code.isStrict
        if !strict {
            for b in program.scope.bindings {
                if b.kind == .var && !skippedAnnexBNames.contains(b.name) { code.evalVarNames.append(b.name) }
                if b.kind == .function { code.evalFunctionNames.append(b.name) }
            }
        }
        // The eval's own lexical environment (and, in strict code, its variable environment).
        let cs = enterScope(program.scope, skipVars: !strict)
        if strict {
            for b in program.scope.bindings where b.kind == .var || b.kind == .function {
                if case .environment(0, let slot)? = cs.names[b.name]?.location {
                    let r = temp()
                    emit(.loadUndefined, r)
                    emit(.initScope, 0, slot, r)
                    nextRegister -= 1
                }
            }
        }
        try completionBody(program.body)
    }

    /// The body of a script or eval code: hoisted functions, then the statements, returning
    /// the completion value.
    func completionBody(_ body: [Stmt]) throws(CompileError) {
        try hoistFunctions(body)
        let completion = temp()
        emit(.loadUndefined, completion)
        completionRegister = completion
        for s in body { try statement(s) }
        emit(.ret, completion)
        install()
    }

    /// Creates the closures of the function declarations directly in a statement list.
    func hoistFunctions(_ body: [Stmt]) throws(CompileError) {
        if skipFunctionHoisting { return }
        for s in body {
            var target = s
            while case .labeled(_, let inner) = target.kind { target = inner }
            guard case .function(let fn) = target.kind, let name = fn.name else { continue }
            let mark = nextRegister
            let r = temp()
            let inner = try compileFunction(fn)
            emit(.newClosure, r, constant(.function(inner)))
            if isEvalCode && scopes.count == 1 && !code.isStrict {
                emit(.initEvalVar, atom(name), r)
            } else if case .global? = resolve(name)?.location, scopes.count == 1 {
                emit(.declareGlobalFunction, atom(name), r)
            } else {
                try storeName(name, r, initialize: true, offset: s.span.start)
            }
            nextRegister = mark
        }
    }

    // MARK: - Functions

    func compileFunction(_ fn: FunctionNode) throws(CompileError) -> CodeBlock {
        let code = CodeBlock(name: fn.name == ModuleInfo.defaultBinding ? "default" : fn.name ?? "", span: fn.span)
        code.source = source
        code.kind = fn.kind
        code.isStrict = fn.isStrict
        code.isAsync = fn.isAsync
        code.isGenerator = fn.isGenerator
        code.length = fn.expectedArgumentCount
        code.capturesThis = fn.kind == .arrow && fn.usesThis
        code.allowsNewTarget = fn.kind != .arrow || self.code.allowsNewTarget
        let fc = FunctionCompiler(code: code, parent: self, function: fn, source: source)
        try fc.compileBody(fn)
        return code
    }

    /// Loads `this` once into a register for the body when it cannot change during the call.
    func loadThisRegister(_ fn: FunctionNode) {
        guard fn.usesThis else { return }
        switch fn.kind {
        case .normal, .method, .getter, .setter, .classConstructor, .fieldInitializer, .staticBlock:
            let t = temp()
            emit(.loadThis, t)
            thisRegister = t
        case .arrow, .derivedConstructor:
            break
        }
    }

    func compileBody(_ fn: FunctionNode) throws(CompileError) {
        let paramCount = fn.params.count + (fn.rest != nil ? 1 : 0)
        code.parameterCount = paramCount
        _ = temps(paramCount)
        for i in 0..<paramCount { bindingRegisters.insert(i) }
        if fn.isAsync && !fn.isGenerator {
            // Async functions suspend before binding their parameters, so that errors there
            // reject the promise instead of throwing.
            let g = temp()
            bindingRegisters.insert(g)
            generatorRegister = g
            emit(.generatorStart, g)
        }
        // The function scope: parameters, vars, top-level functions, lexical declarations.
        let sloppyEval = fn.hasDirectEval && !fn.isStrict
        let cs = enterScope(fn.scope, isFunctionScope: true, evalVarsSlot: sloppyEval,
                            evalVarsParameterScope: fn.bodyScope != nil)
        // Parameters: simple ones bind their register (or an environment slot).
        let usesArgumentsObject = fn.usesArguments && fn.kind != .arrow && fn.scope.binding(named: "arguments") == nil
        if usesArgumentsObject {
            code.usesArguments = true
            // `arguments` lives in the function environment (arrows may reach it).
            cs.names["arguments"] = BindingInfo(location: .environment(hops: 0, slot: cs.environmentSize), kind: .var, declarationEnd: -1)
            cs.slotNames.append("arguments")
            cs.environmentSize += 1
            cs.hasEnvironment = true
        }
        // A mapped arguments object (sloppy, simple parameters) aliases the parameters:
        // they live in consecutive function-environment slots that the object reads and
        // writes through (JavaScriptCore's ScopedArguments). A function that does not use
        // `arguments` keeps them in registers.
        let mapsArguments = usesArgumentsObject && !fn.isStrict && fn.hasSimpleParameterList && !fn.params.isEmpty
        if mapsArguments {
            code.mappedArgumentsSlot = cs.environmentSize
            for (i, p) in fn.params.enumerated() {
                guard case .identifier(let name) = p.kind else { continue }
                let shadowed = fn.params[(i + 1)...].contains(where: { if case .identifier(name) = $0.kind { return true }; return false })
                if shadowed {
                    code.shadowedParameters.append(i)
                    cs.slotNames.append("%shadowed")
                } else {
                    // A function declaration of the same name placed by `enterScope` binds
                    // the parameter instead: its own slot goes unnamed.
                    if case .environment(0, let old)? = cs.names[name]?.location { cs.slotNames[old] = "%shadowed" }
                    cs.names[name] = BindingInfo(location: .environment(hops: 0, slot: cs.environmentSize), kind: .parameter, declarationEnd: -1)
                    cs.slotNames.append(name)
                }
                cs.environmentSize += 1
            }
            cs.hasEnvironment = true
        } else if fn.hasSimpleParameterList {
            for (i, p) in fn.params.enumerated() {
                guard case .identifier(let name) = p.kind else { continue }
                let captured = fn.scope.binding(named: name)?.isCaptured == true || fn.scope.containsDirectEval
                if captured {
                    if cs.names[name] == nil || { if case .environment = cs.names[name]!.location { return false }; return true }() {
                        cs.names[name] = BindingInfo(location: .environment(hops: 0, slot: cs.environmentSize), kind: .parameter, declarationEnd: -1)
                        cs.slotNames.append(name)
                        cs.environmentSize += 1
                        cs.hasEnvironment = true
                    }
                } else {
                    // A later parameter with the same name wins (sloppy duplicates).
                    cs.names[name] = BindingInfo(location: .register(i), kind: .parameter, declarationEnd: -1)
                }
            }
        } else {
            // Until IteratorBindingInitialization reaches it, a parameter is uninitialized:
            // a default value that reads it (or a later one) is a ReferenceError. The
            // bindings are lexical-like (TDZ-checked) while the parameters bind.
            for b in fn.scope.bindings where b.kind == .parameter {
                if b.isCaptured || fn.scope.containsDirectEval {
                    cs.names[b.name] = BindingInfo(location: .environment(hops: 0, slot: cs.environmentSize), kind: .let, declarationEnd: -1)
                    cs.slotNames.append(b.name)
                    cs.environmentSize += 1
                    cs.hasEnvironment = true
                } else {
                    let r = temp()
                    bindingRegisters.insert(r)
                    cs.names[b.name] = BindingInfo(location: .register(r), kind: .let, declarationEnd: -1)
                    tdzStarts.append((pc, r))
                    emit(.loadEmpty, r)
                }
            }
        }
        code.functionEnvironmentSize = cs.environmentSize
        code.functionScopeNames = cs.slotNames
        if usesArgumentsObject {
            let r = temp()
            emit(fn.isStrict || !fn.hasSimpleParameterList ? .createArguments : .createMappedArguments, r)
            try storeName("arguments", r, initialize: true, offset: fn.span.start)
        }
        // Simple captured parameters: copy from their registers into the environment.
        if fn.hasSimpleParameterList {
            for (i, p) in fn.params.enumerated() {
                guard case .identifier(let name) = p.kind, case .environment(0, let slot)? = cs.names[name]?.location else { continue }
                // Only the last parameter of a duplicated name binds.
                if fn.params[(i + 1)...].contains(where: { if case .identifier(name) = $0.kind { return true }; return false }) { continue }
                emit(.initScope, 0, slot, i)
            }
        } else {
            // Non-simple parameters: bind each pattern from its argument register, in order.
            for (i, p) in fn.params.enumerated() {
                try bindPattern(p, valueRegister: i, initialize: true)
            }
            if let rest = fn.rest {
                emit(.createRest, paramCount - 1, fn.params.count)
                try bindPattern(rest, valueRegister: paramCount - 1, initialize: true)
            }
            for b in fn.scope.bindings where b.kind == .parameter { cs.names[b.name]?.kind = .parameter }
        }
        if fn.hasSimpleParameterList, let rest = fn.rest {
            emit(.createRest, paramCount - 1, fn.params.count)
            try bindPattern(rest, valueRegister: paramCount - 1, initialize: true)
        }
        // Vars in the environment start undefined (registers already are).
        for b in fn.scope.bindings where b.kind == .var || b.kind == .function {
            if case .environment(0, let slot)? = cs.names[b.name]?.location {
                let r = temp()
                emit(.loadUndefined, r)
                emit(.initScope, 0, slot, r)
                nextRegister -= 1
            }
        }
        if let body = fn.bodyScope {
            // Parameter expressions: the body's declarations get their own scope (FunctionDeclarationInstantiation
            // step 28); a var named like a parameter starts with the parameter's value.
            var paramValues: [String: Int] = [:]
            for b in body.bindings where b.kind == .var && fn.scope.binding(named: b.name)?.kind == .parameter {
                let r = temp()
                _ = try loadName(b.name, offset: fn.span.start, into: r)
                paramValues[b.name] = r
            }
            let bcs = enterScope(body, evalVarsSlot: sloppyEval)
            for b in body.bindings where b.kind == .var || b.kind == .function {
                if let r = paramValues[b.name] {
                    try storeName(b.name, r, initialize: true, offset: fn.span.start)
                } else if case .environment(0, let slot)? = bcs.names[b.name]?.location {
                    let r = temp()
                    emit(.loadUndefined, r)
                    emit(.initScope, 0, slot, r)
                    nextRegister -= 1
                }
            }
        }
        if let e = fn.expressionBody {
            loadThisRegister(fn)
            let r = try expression(e, into: nil)
            emit(.ret, r)
        } else {
            try hoistFunctions(fn.body)
            if fn.isGenerator {
                // The arguments are bound; the call returns the suspended generator here.
                let g = temp()
                bindingRegisters.insert(g)
                generatorRegister = g
                emit(.generatorStart, g)
            }
            loadThisRegister(fn)
            try withDisposal(of: fn.body) { fc throws(CompileError) in for s in fn.body { try fc.statement(s) } }
        }
        finish()
    }
}
