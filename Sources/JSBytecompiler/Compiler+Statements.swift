// Statements, including break/continue/return through `finally` blocks.

import JSSyntax
import JSBytecode

/// An active `finally`: jumps out of its try block are routed through it.
final class FinallyContext {
    let kindRegister: Int
    let valueRegister: Int
    var entryJumps: [Int] = []
    /// Exits registered so far: id -> what to do after the finally block.
    var exits: [(id: Int, action: FinallyExit)] = []
    let scopeDepth: Int
    let jumpDepth: Int
    init(kindRegister: Int, valueRegister: Int, scopeDepth: Int, jumpDepth: Int) {
        self.kindRegister = kindRegister; self.valueRegister = valueRegister
        self.scopeDepth = scopeDepth; self.jumpDepth = jumpDepth
    }
}

enum FinallyExit {
    case jump(contextIndex: Int, isBreak: Bool)
    case ret
}

extension FunctionCompiler {
    static let finallyNormal = 0
    static let finallyThrow = 1

    func statements(_ list: [Stmt]) throws(CompileError) {
        for s in list { try statement(s) }
    }

    func statement(_ s: Stmt) throws(CompileError) {
        try checkStack(s.span.start)
        mark(s.span.start)
        let saved = nextRegister
        defer { nextRegister = saved }
        switch s.kind {
        case .expression(let e):
            if let c = completionRegister {
                _ = try expression(e, into: c)
            } else {
                try effectExpression(e)
            }
        case .variable(let d):
            try variableDeclaration(d)
        case .function(let fn):
            // Hoisted; in a sloppy block, Annex B also assigns the var binding here.
            if let name = fn.name, let scope = scopes.last?.scope, scope.annexBFunctionNames.contains(name),
               !(isEvalCode && skippedAnnexBNames.contains(name)) {
                let r = try loadName(name, offset: s.span.start)
                try storeVarBinding(name, r, offset: s.span.start)
            }
        case .class(let c):
            let r = try classExpression(c)
            if let name = c.name {
                try storeName(name, r, initialize: true, offset: s.span.start)
            }
        case .block(let b):
            try block(b)
        case .exportDefault(let e):
            let m = nextRegister
            let r = try expression(e, into: nil, inferredName: "default")
            try storeName(ModuleInfo.defaultBinding, r, initialize: true, offset: s.span.start)
            nextRegister = m
        case .empty, .debugger:
            break
        case .if(let test, let consequent, let alternate):
            // if, loops, switch and try complete with UpdateEmpty(result, undefined): in
            // script and eval code, a body without a value leaves undefined, not the
            // value of an earlier statement.
            resetCompletion()
            let j = try jumpIfFalse(test)
            try statement(consequent)
            if let alt = alternate {
                let over = emitJump(.jmp)
                patch(j)
                try statement(alt)
                patch(over)
            } else {
                patch(j)
            }
        case .while(let test, let body):
            resetCompletion()
            if isDuplicableTest(test) {
                // Inverted: the test once before the loop and again at the bottom, so each
                // iteration runs one conditional jump instead of a jump and a test.
                let exit = try jumpIfFalse(test)
                let bodyTop = pc
                try loopBody(body, continueTarget: nil) { fc throws(CompileError) in try fc.jumpIfTrue(test, to: bodyTop) }
                patch(exit)
                patchLoopExits(continueTarget: bodyTop)
                return
            }
            let top = pc
            let exit = try jumpIfFalse(test)
            try loopBody(body, continueTarget: nil) { fc in fc.emitJumpBack(.jmp, to: top) }
            patch(exit)
            patchLoopExits(continueTarget: top)
        case .doWhile(let body, let test):
            resetCompletion()
            let top = pc
            var continueAt = 0
            try loopBody(body, continueTarget: nil) { fc throws(CompileError) in
                continueAt = fc.pc
                try fc.jumpIfTrue(test, to: top)
            }
            patchLoopExits(continueTarget: continueAt)
        case .for(let initializer, let test, let update, let body, let scope):
            resetCompletion()
            try forStatement(initializer, test, update, body, scope)
        case .forIn(let left, let right, let body, let scope):
            resetCompletion()
            try forInStatement(left, right, body, scope)
        case .forOf(let left, let right, let body, let isAwait, let scope):
            resetCompletion()
            try forOfStatement(left, right, body, scope, isAwait: isAwait)
        case .continue(let label):
            try jumpOut(label: label, isBreak: false, offset: s.span.start)
        case .break(let label):
            try jumpOut(label: label, isBreak: true, offset: s.span.start)
        case .return(let e):
            if e == nil && finallies.isEmpty {
                emit(.retUndefined)
                return
            }
            var r = try e.map { x throws(CompileError) in try expression(x, into: nil) } ?? {
                let t = temp(); emit(.loadUndefined, t); return t
            }()
            if code.isAsync && code.isGenerator, e != nil, let g = generatorRegister {
                let pair = temps(2)
                emit(.await, pair, r, g)
                emitResumeDispatch(pair, isAwait: true)
                r = pair
            }
            emitReturn(r)
        case .throw(let e):
            let r = try expression(e, into: nil)
            emit(.throw, r)
        case .try(let block, let param, let catchBody, let catchScope, let finalizer):
            resetCompletion()
            try tryStatement(block, param, catchBody, catchScope, finalizer)
        case .switch(let d, let cases, let scope):
            resetCompletion()
            try switchStatement(d, cases, scope)
        case .labeled(let name, let body):
            pendingLabels.append(name)
            switch body.kind {
            case .for, .forIn, .forOf, .while, .doWhile:
                try statement(body)
            default:
                let labels = pendingLabels
                pendingLabels = []
                jumps.append(JumpContext(labels: labels, isLoop: false, isSwitchOrBlock: true,
                                         scopeDepth: environmentDepth, finallyDepth: finallies.count))
                try statement(body)
                let ctx = jumps.removeLast()
                for j in ctx.breakJumps { patch(j) }
            }
        case .with(let object, let body):
            // An object environment; every name beyond it resolves dynamically.
            let o = try expression(object, into: nil)
            if let c = completionRegister { emit(.loadUndefined, c) }
            emit(.pushWith, o)
            environmentDepth += 1
            let cs = CompileScope(scope: nil, owner: self)
            cs.hasEnvironment = true
            cs.isWith = true
            scopes.append(cs)
            try statement(body)
            scopes.removeLast()
            emit(.popScope)
            environmentDepth -= 1
        }
    }

    func block(_ b: Block) throws(CompileError) {
        if let scope = b.scope {
            enterScope(scope)
            try hoistFunctions(b.body)
            try withDisposal(of: b.body) { fc throws(CompileError) in try fc.statements(b.body) }
            exitScope()
        } else {
            try statements(b.body)
        }
    }

    func variableDeclaration(_ d: VariableDeclaration) throws(CompileError) {
        if d.kind.isUsing { return try usingDeclaration(d) }
        for decl in d.declarations {
            let mark = nextRegister
            if let initializer = decl.initializer {
                var name: String? = nil
                if case .identifier(let n) = decl.target.kind { name = n }
                if let n = name, let reg = plainRegister(n, initializing: true), writesDestinationLast(initializer) {
                    _ = try expression(initializer, into: reg, inferredName: name)
                    if d.kind != .var { markInitialized(n) }
                    nextRegister = mark
                    continue
                }
                let r = try expression(initializer, into: nil, inferredName: name)
                try bindPattern(decl.target, valueRegister: r, initialize: d.kind != .var)
            } else if d.kind != .var {
                // `let x;` initializes to undefined.
                if case .identifier(let n) = decl.target.kind, let reg = plainRegister(n, initializing: true) {
                    emit(.loadUndefined, reg)
                    markInitialized(n)
                    nextRegister = mark
                    continue
                }
                let r = temp()
                emit(.loadUndefined, r)
                try bindPattern(decl.target, valueRegister: r, initialize: true)
            }
            nextRegister = mark
        }
    }

    // MARK: - Loops

    /// Compiles a loop body with a jump context; `tail` emits the back edge.
    func loopBody(_ body: Stmt, continueTarget: Int?, tail: (FunctionCompiler) throws(CompileError) -> Void) throws(CompileError) {
        let labels = pendingLabels
        pendingLabels = []
        jumps.append(JumpContext(labels: labels, isLoop: true, isSwitchOrBlock: false,
                                 scopeDepth: environmentDepth, finallyDepth: finallies.count))
        try statement(body)
        // `continue` lands here (before the tail).
        let continueHere = pc
        for j in jumps[jumps.count - 1].continueJumps { patch(j, to: continueHere) }
        jumps[jumps.count - 1].continueJumps = []
        try tail(self)
    }

    func patchLoopExits(continueTarget: Int) {
        let ctx = jumps.removeLast()
        for j in ctx.breakJumps { patch(j) }
        for j in ctx.continueJumps { patch(j, to: continueTarget) }
    }

    func forStatement(_ initializer: ForInit?, _ test: Expr?, _ update: Expr?, _ body: Stmt, _ scope: Scope?) throws(CompileError) {
        if case .variable(let d)? = initializer, d.kind.isUsing {
            // The head's resources are disposed when the loop ends.
            return try withDisposal(isAsync: d.kind == .awaitUsing) { fc throws(CompileError) in
                try fc.forStatementBody(initializer, test, update, body, scope)
            }
        }
        try forStatementBody(initializer, test, update, body, scope)
    }

    func forStatementBody(_ initializer: ForInit?, _ test: Expr?, _ update: Expr?, _ body: Stmt, _ scope: Scope?) throws(CompileError) {
        let cs: CompileScope? = scope.map { enterScope($0) }
        switch initializer {
        case .variable(let d)?: try variableDeclaration(d)
        case .expr(let e)?: _ = try expression(e, into: nil)
        case nil: break
        }
        // Per-iteration copies of captured loop bindings (CreatePerIterationEnvironment).
        let perIteration = cs?.hasEnvironment == true
        if perIteration { emit(.copyScope) }
        // Inverted when the test can be compiled twice: tested before the loop and at the
        // bottom of each iteration (one conditional jump per iteration).
        let inverted = test.map { isDuplicableTest($0) } ?? true
        var exit: [Int] = []
        let top: Int
        if inverted {
            if let t = test { exit = try jumpIfFalse(t) }
            top = pc
        } else {
            top = pc
            if let t = test { exit = try jumpIfFalse(t) }
        }
        try loopBody(body, continueTarget: nil) { fc throws(CompileError) in
            if perIteration { fc.emit(.copyScope) }
            if let u = update { try fc.effectExpression(u) }
            if inverted, let t = test {
                try fc.jumpIfTrue(t, to: top)
            } else {
                fc.emitJumpBack(.jmp, to: top)
            }
        }
        patch(exit)
        patchLoopExits(continueTarget: top)
        if cs != nil { exitScope() }
    }

    func forInStatement(_ left: ForBinding, _ right: Expr, _ body: Stmt, _ scope: Scope?) throws(CompileError) {
        let cs: CompileScope? = scope.map { enterScope($0) }
        let objectReg = try expression(right, into: temp())
        let iter = temp()
        emit(.forInPrepare, iter, objectReg)
        let top = pc
        let key = temp()
        let exit = emitJump(.forInNext, key, iter)
        let perIteration = cs?.hasEnvironment == true
        if perIteration { emit(.copyScope) }
        switch left {
        case .variable(let kind, let pattern):
            try bindPattern(pattern, valueRegister: key, initialize: kind != .var)
        case .target(let pattern):
            try assignPattern(pattern, valueRegister: key)
        }
        try loopBody(body, continueTarget: nil) { fc in fc.emitJumpBack(.jmp, to: top) }
        patch(exit)
        patchLoopExits(continueTarget: top)
        if cs != nil { exitScope() }
    }

    /// for-of: the iterator record lives in three registers. The body runs inside a
    /// finally-like context, so `break`, `return` and jumps to outer labels close the
    /// iterator (IteratorClose), and an exception from the body closes it too.
    func forOfStatement(_ left: ForBinding, _ right: Expr, _ body: Stmt, _ scope: Scope?, isAwait: Bool = false) throws(CompileError) {
        // The iterable is evaluated with the loop's TDZ scope in place, then the scope is left.
        let cs: CompileScope? = scope.map { enterScope($0) }
        let iterable = try expression(right, into: temp())
        let rec = temps(3)
        emit(isAwait ? .getAsyncIterator : .getIterator, rec, iterable)
        let f = FinallyContext(kindRegister: temp(), valueRegister: temp(), scopeDepth: environmentDepth, jumpDepth: jumps.count)
        let labels = pendingLabels
        pendingLabels = []
        jumps.append(JumpContext(labels: labels, isLoop: true, isSwitchOrBlock: false,
                                 scopeDepth: environmentDepth, finallyDepth: finallies.count + 1))
        finallies.append(f)
        let top = pc
        let value = temp()
        let exit: Int
        if isAwait, let g = generatorRegister {
            // value = (await next()).value, or leave when done.
            let pair = temps(2)
            emit(.call, pair, rec + 1, rec, pair, 0)
            emit(.await, pair, pair, g)
            emitResumeDispatch(pair, isAwait: true)
            exit = emitJump(.asyncIteratorResult, value, pair)
        } else {
            exit = emitJump(.iteratorNext, value, rec)
        }
        let bodyStart = pc
        let perIteration = cs?.hasEnvironment == true
        if perIteration { emit(.copyScope) }
        switch left {
        case .variable(let kind, let pattern) where kind.isUsing:
            // Each iteration's resource is disposed at the end of that iteration.
            try withDisposal(isAsync: kind == .awaitUsing) { fc throws(CompileError) in
                fc.emit(.addDisposable, fc.disposalLists.last!.register, value, kind == .awaitUsing ? 1 : 0)
                try fc.bindPattern(pattern, valueRegister: value, initialize: true)
                try fc.statement(body)
            }
        case .variable(let kind, let pattern):
            try bindPattern(pattern, valueRegister: value, initialize: kind != .var)
            try statement(body)
        case .target(let pattern):
            try assignPattern(pattern, valueRegister: value)
            try statement(body)
        }
        let continueHere = pc
        for j in jumps[jumps.count - 1].continueJumps { patch(j, to: continueHere) }
        jumps[jumps.count - 1].continueJumps = []
        let bodyEnd = pc
        emitJumpBack(.jmp, to: top)
        finallies.removeLast()
        let ctx = jumps.removeLast()
        // break: close the iterator, then leave.
        for j in ctx.breakJumps { patch(j) }
        emitIteratorClose(rec, isAwait: isAwait)
        let toEnd = emitJump(.jmp)
        // An exception from the body: close (ignoring errors) and rethrow.
        code.handlers.append(Handler(start: Int32(bodyStart), end: Int32(bodyEnd), target: Int32(pc),
                                     scopeDepth: Int32(f.scopeDepth)))
        let ex = temp()
        emit(.loadException, ex)
        emit(.iteratorClose, rec, 1)
        emit(.throw, ex)
        // return / jumps to outer labels: close, then continue the exit.
        if !f.exits.isEmpty {
            for j in f.entryJumps { patch(j) }
            emitIteratorClose(rec, isAwait: isAwait)
            let cmp = temp()
            let idReg = temp()
            for (id, action) in f.exits {
                emit(.loadInt, idReg, id)
                emit(.strictEq, cmp, f.kindRegister, idReg)
                let skip = emitJump(.jumpIfFalse, cmp)
                switch action {
                case .jump(let index, let isBreak): emitJumpOut(contextIndex: index, isBreak: isBreak)
                case .ret: emitReturn(f.valueRegister)
                }
                patch(skip)
            }
        }
        patch(exit)
        patch(toEnd)
        if cs != nil { exitScope() }
    }

    /// IteratorClose / AsyncIteratorClose for a normal completion.
    func emitIteratorClose(_ rec: Int, isAwait: Bool) {
        guard isAwait, let g = generatorRegister else { emit(.iteratorClose, rec, 0); return }
        let pair = temps(2)
        let skip = emitJump(.asyncIteratorReturn, pair, rec)
        emit(.await, pair, pair, g)
        emitResumeDispatch(pair, isAwait: true)
        emit(.throwIfNotObject, pair)
        patch(skip)
    }

    // MARK: - break, continue, return

    func jumpOut(label: String?, isBreak: Bool, offset: Int32) throws(CompileError) {
        var index = jumps.count - 1
        while index >= 0 {
            let c = jumps[index]
            if let l = label {
                if c.labels.contains(l) { break }
            } else if c.isLoop || (isBreak && c.isSwitchOrBlock && c.labels.isEmpty) {
                break
            }
            index -= 1
        }
        if index < 0 { throw error("jump target not found", offset) }
        emitJumpOut(contextIndex: index, isBreak: isBreak)
    }

    func emitJumpOut(contextIndex index: Int, isBreak: Bool) {
        let target = jumps[index]
        if finallies.count > target.finallyDepth {
            let f = finallies[finallies.count - 1]
            let id = 2 + f.exits.count
            f.exits.append((id, .jump(contextIndex: index, isBreak: isBreak)))
            emit(.loadInt, f.kindRegister, id)
            popScopes(to: f.scopeDepth)
            f.entryJumps.append(emitJump(.jmp))
            return
        }
        popScopes(to: target.scopeDepth)
        let j = emitJump(.jmp)
        if isBreak { jumps[index].breakJumps.append(j) } else { jumps[index].continueJumps.append(j) }
    }

    func popScopes(to depth: Int) {
        var d = environmentDepth
        while d > depth { emit(.popScope); d -= 1 }
    }

    func emitReturn(_ r: Int) {
        if let f = finallies.last {
            let id = 2 + f.exits.count
            f.exits.append((id, .ret))
            emit(.mov, f.valueRegister, r)
            emit(.loadInt, f.kindRegister, id)
            popScopes(to: f.scopeDepth)
            f.entryJumps.append(emitJump(.jmp))
            return
        }
        emit(.ret, r)
    }

    // MARK: - try

    func resetCompletion() {
        if let c = completionRegister { emit(.loadUndefined, c) }
    }

    func tryStatement(_ block: Block, _ param: Pattern?, _ catchBody: Block?, _ catchScope: Scope?, _ finalizer: Block?) throws(CompileError) {
        var finallyContext: FinallyContext? = nil
        if finalizer != nil {
            let f = FinallyContext(kindRegister: temp(), valueRegister: temp(), scopeDepth: environmentDepth, jumpDepth: jumps.count)
            finallies.append(f)
            finallyContext = f
        }
        let tryStart = pc
        try self.block(block)
        let tryEnd = pc
        var toEnd: [Int] = [emitJump(.jmp)]
        if let catchBody {
            let handlerTarget = pc
            code.handlers.append(Handler(start: Int32(tryStart), end: Int32(tryEnd), target: Int32(handlerTarget),
                                         scopeDepth: Int32(environmentDepth)))
            let catchStart = pc
            if let cs = catchScope { enterScope(cs) }
            let ex = temp()
            emit(.loadException, ex)
            if let p = param { try bindPattern(p, valueRegister: ex, initialize: true) }
            try hoistFunctions(catchBody.body)
            try statements(catchBody.body)
            if catchScope != nil { exitScope() }
            let catchEnd = pc
            toEnd.append(emitJump(.jmp))
            if let f = finallyContext {
                // An exception in the catch block also runs the finally block.
                code.handlers.append(Handler(start: Int32(catchStart), end: Int32(catchEnd), target: Int32(pc),
                                             scopeDepth: Int32(f.scopeDepth)))
                emit(.loadException, f.valueRegister)
                emit(.loadInt, f.kindRegister, FunctionCompiler.finallyThrow)
                f.entryJumps.append(emitJump(.jmp))
            }
        } else if let f = finallyContext {
            code.handlers.append(Handler(start: Int32(tryStart), end: Int32(tryEnd), target: Int32(pc),
                                         scopeDepth: Int32(f.scopeDepth)))
            emit(.loadException, f.valueRegister)
            emit(.loadInt, f.kindRegister, FunctionCompiler.finallyThrow)
            f.entryJumps.append(emitJump(.jmp))
        }
        guard let f = finallyContext, let finalizer else {
            for j in toEnd { patch(j) }
            return
        }
        // Normal completion enters the finally block with kind = normal.
        for j in toEnd { patch(j) }
        emit(.loadInt, f.kindRegister, FunctionCompiler.finallyNormal)
        for j in f.entryJumps { patch(j) }
        finallies.removeLast()
        // A finally block's normal completion does not change the statement's value.
        let savedCompletion = completionRegister
        if savedCompletion != nil {
            let scratch = temp()
            emit(.loadUndefined, scratch)
            completionRegister = scratch
        }
        try self.block(finalizer)
        completionRegister = savedCompletion
        // Dispatch on how the finally block was entered.
        let cmp = temp()
        let idReg = temp()
        emit(.loadInt, idReg, FunctionCompiler.finallyThrow)
        emit(.strictEq, cmp, f.kindRegister, idReg)
        let notThrow = emitJump(.jumpIfFalse, cmp)
        emit(.throw, f.valueRegister)
        patch(notThrow)
        for (id, action) in f.exits {
            emit(.loadInt, idReg, id)
            emit(.strictEq, cmp, f.kindRegister, idReg)
            let skip = emitJump(.jumpIfFalse, cmp)
            switch action {
            case .jump(let index, let isBreak): emitJumpOut(contextIndex: index, isBreak: isBreak)
            case .ret: emitReturn(f.valueRegister)
            }
            patch(skip)
        }
    }

    // MARK: - switch

    func switchStatement(_ d: Expr, _ cases: [SwitchCase], _ scope: Scope?) throws(CompileError) {
        let value = try expression(d, into: temp())
        if let s = scope { enterScope(s, isSwitch: true) }
        let labels = pendingLabels
        pendingLabels = []
        jumps.append(JumpContext(labels: labels, isLoop: false, isSwitchOrBlock: true,
                                 scopeDepth: environmentDepth - (scope.map { _ in scopes.last!.hasEnvironment ? 1 : 0 } ?? 0),
                                 finallyDepth: finallies.count))
        // Fix the scope depth: a break leaves the switch scope too.
        jumps[jumps.count - 1].scopeDepth = environmentDepth - ((scope != nil && scopes.last!.hasEnvironment) ? 1 : 0)
        for c in cases { for s in c.body { if case .function = s.kind { try hoistFunctions([s]) } } }
        var caseJumps: [Int] = []
        let cmp = temp()
        for c in cases {
            if let t = c.test {
                let m = nextRegister
                let r = try expression(t, into: nil)
                emit(.strictEq, cmp, value, r)
                nextRegister = m
                caseJumps.append(emitJump(.jumpIfTrue, cmp))
            } else {
                caseJumps.append(-1)
            }
        }
        let defaultIndex = cases.firstIndex { $0.test == nil }
        let noMatch = emitJump(.jmp)
        var bodyStarts: [Int] = []
        for c in cases {
            bodyStarts.append(pc)
            try statements(c.body)
        }
        let end = pc
        for (i, j) in caseJumps.enumerated() where j >= 0 { patch(j, to: bodyStarts[i]) }
        patch(noMatch, to: defaultIndex.map { bodyStarts[$0] } ?? end)
        // `break` exits after the scope is popped.
        let ctx = jumps.removeLast()
        if scope != nil {
            let breakTarget = pc
            for j in ctx.breakJumps { patch(j, to: breakTarget) }
            exitScope()
        } else {
            for j in ctx.breakJumps { patch(j) }
        }
    }

    // MARK: - Conditions

    /// Emits conditional jumps taken when `test`'s truth value is `when`; returns them for
    /// patching. `&&`, `||` and `!` become control flow (no boolean is materialized), and
    /// comparisons fuse with their jump.
    func conditionJumps(_ test: Expr, when: Bool) throws(CompileError) -> [Int] {
        try checkStack(test.span.start)
        let m = nextRegister
        defer { nextRegister = m }
        switch test.kind {
        case .parenthesized(let x):
            return try conditionJumps(x, when: when)
        case .unary(.not, let x):
            return try conditionJumps(x, when: !when)
        case .logical(.and, let a, let b):
            if !when { return try conditionJumps(a, when: false) + conditionJumps(b, when: false) }
            let skip = try conditionJumps(a, when: false)
            let taken = try conditionJumps(b, when: true)
            patch(skip)
            return taken
        case .logical(.or, let a, let b):
            if when { return try conditionJumps(a, when: true) + conditionJumps(b, when: true) }
            let skip = try conditionJumps(a, when: true)
            let taken = try conditionJumps(b, when: false)
            patch(skip)
            return taken
        default:
            break
        }
        if let (op, regs) = try fusedTest(test, jumpWhen: when) {
            return [emitJump(op, operands: regs)]
        }
        let r = try expression(test, into: nil)
        return [emitJump(when ? .jumpIfTrue : .jumpIfFalse, r)]
    }

    /// Jumps taken when `test` is falsy, for patching.
    func jumpIfFalse(_ test: Expr) throws(CompileError) -> [Int] {
        try conditionJumps(test, when: false)
    }

    /// Whether a loop test may be compiled twice (no function, class or regexp literal
    /// inside, whose code or identity would be duplicated; small).
    func isDuplicableTest(_ e: Expr, budget: Int = 12) -> Bool {
        if budget <= 0 { return false }
        switch e.kind {
        case .identifier, .this, .null, .boolean, .number, .string:
            return true
        case .parenthesized(let x), .unary(_, let x):
            return isDuplicableTest(x, budget: budget - 1)
        case .binary(_, let a, let b), .logical(_, let a, let b):
            return isDuplicableTest(a, budget: budget / 2) && isDuplicableTest(b, budget: budget / 2)
        case .member(let o, let p, let optional):
            if optional { return false }
            switch p {
            case .name: return isDuplicableTest(o, budget: budget - 1)
            case .computed(let k): return isDuplicableTest(o, budget: budget / 2) && isDuplicableTest(k, budget: budget / 2)
            default: return false
            }
        case .call(let f, let args, let optional):
            if optional || args.count > 3 { return false }
            if case .identifier("eval") = f.kind { return false }
            if !isDuplicableTest(f, budget: budget / 2) { return false }
            for a in args {
                guard case .expr(let x) = a, isDuplicableTest(x, budget: budget / 4) else { return false }
            }
            return true
        default:
            return false
        }
    }

    /// Jumps back to `target` when `test` is truthy.
    func jumpIfTrue(_ test: Expr, to target: Int) throws(CompileError) {
        for j in try conditionJumps(test, when: true) { patch(j, to: target) }
    }

    /// A comparison compiled as one conditional jump (taken when the test is `jumpWhen`):
    /// emits the operands and returns the opcode and its register/immediate operands, or
    /// nil (emitting nothing) when `test` is not such a comparison.
    func fusedTest(_ test: Expr, jumpWhen: Bool) throws(CompileError) -> (Opcode, [Int])? {
        guard case .binary(let op, let a, let b) = test.kind else { return nil }
        let isStrict = op == .strictEq || op == .strictNe
        if isStrict {
            // `x === null`, `x !== undefined`: one test of the value's bits.
            let equalJumps = (op == .strictEq) == jumpWhen
            for (x, other) in [(b, a), (a, b)] {
                if case .null = x.kind {
                    return (equalJumps ? .jumpIfNull : .jumpIfNotNull, [try expression(other, into: nil)])
                }
                if case .identifier("undefined") = x.kind, resolve("undefined") == nil {
                    return (equalJumps ? .jumpIfUndefined : .jumpIfNotUndefined, [try expression(other, into: nil)])
                }
            }
        }
        // A string literal on either side: compared with the constant in place.
        if isStrict {
            for (x, other) in [(b, a), (a, b)] {
                if case .string(let str) = x.kind {
                    let v = try expression(other, into: nil)
                    let equalJumps = (op == .strictEq) == jumpWhen
                    return (equalJumps ? .jumpIfStrictEqConst : .jumpIfStrictNotEqConst, [v, stringConstant(str.utf16)])
                }
            }
        }
        // A small integer literal on either side becomes an immediate.
        if let k = int32Literal(b), let imm = immediateJump(op, jumpWhen: jumpWhen) {
            return (imm, [try expression(a, into: nil), k])
        }
        if let k = int32Literal(a), let imm = immediateJump(op.swapped, jumpWhen: jumpWhen) {
            return (imm, [try expression(b, into: nil), k])
        }
        if let fused = fusedJump(op, negate: !jumpWhen) {
            let (ra, rb) = try operands(a, b)
            return (fused, [ra, rb])
        }
        return nil
    }

    /// The value of an integer literal that fits an immediate (not -0).
    func int32Literal(_ e: Expr) -> Int? {
        var x = e
        while case .parenthesized(let i) = x.kind { x = i }
        var d: Double
        switch x.kind {
        case .number(let v): d = v
        case .unary(.minus, let inner):
            guard case .number(let v) = inner.kind else { return nil }
            d = -v
        default: return nil
        }
        guard d == d.rounded(.towardZero), abs(d) <= 2147483647, !(d == 0 && d.sign == .minus) else { return nil }
        return Int(d)
    }

    /// The immediate form of a comparison jump.
    func immediateJump(_ op: BinaryOp, jumpWhen: Bool) -> Opcode? {
        switch op {
        case .lt: return jumpWhen ? .jumpIfLessImm : .jumpIfNotLessImm
        case .le: return jumpWhen ? .jumpIfLessEqImm : .jumpIfNotLessEqImm
        case .gt: return jumpWhen ? .jumpIfGreaterImm : .jumpIfNotGreaterImm
        case .ge: return jumpWhen ? .jumpIfGreaterEqImm : .jumpIfNotGreaterEqImm
        case .strictEq: return jumpWhen ? .jumpIfStrictEqImm : .jumpIfStrictNotEqImm
        case .strictNe: return jumpWhen ? .jumpIfStrictNotEqImm : .jumpIfStrictEqImm
        default: return nil
        }
    }

    func fusedJump(_ op: BinaryOp, negate: Bool) -> Opcode? {
        switch op {
        case .strictEq: return negate ? .jumpIfStrictNotEq : .jumpIfStrictEq
        case .strictNe: return negate ? .jumpIfStrictEq : .jumpIfStrictNotEq
        case .eq: return negate ? .jumpIfNotEq : .jumpIfEq
        case .ne: return negate ? .jumpIfEq : .jumpIfNotEq
        case .lt: return negate ? .jumpIfNotLess : .jumpIfLess
        case .le: return negate ? .jumpIfNotLessEq : .jumpIfLessEq
        case .gt: return negate ? .jumpIfNotGreater : .jumpIfGreater
        case .ge: return negate ? .jumpIfNotGreaterEq : .jumpIfGreaterEq
        default: return nil
        }
    }
}

extension BinaryOp {
    /// The operator with its operands exchanged (`a < b` is `b > a`), for comparisons.
    var swapped: BinaryOp {
        switch self {
        case .lt: return .gt
        case .le: return .ge
        case .gt: return .lt
        case .ge: return .le
        default: return self
        }
    }
}
