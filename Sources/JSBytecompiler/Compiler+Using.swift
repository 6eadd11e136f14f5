// `using` and `await using` declarations (explicit resource management): a scope that
// declares them keeps its resources in a list (a register) and disposes them on every
// exit, as a `finally` block would: normal completion, break/continue/return and throws.

import JSBytecode
import JSSyntax

extension FunctionCompiler {
    /// Whether `list` declares `using` resources directly, and whether any is `await using`.
    func usingDeclarations(in list: [Stmt]) -> (any: Bool, async: Bool) {
        var any = false, async = false
        for s in list {
            if case .variable(let d) = s.kind, d.kind.isUsing {
                any = true
                if d.kind == .awaitUsing { async = true }
            }
        }
        return (any, async)
    }

    /// Compiles `body` (the statements of `list`) as a using scope when `list` declares
    /// resources, else as is.
    func withDisposal(of list: [Stmt], _ body: (FunctionCompiler) throws(CompileError) -> Void) throws(CompileError) {
        let u = usingDeclarations(in: list)
        if !u.any { return try body(self) }
        try withDisposal(isAsync: u.async, body)
    }

    /// A using scope around `body`: a new resource list, then DisposeResources with the
    /// body's completion, which then continues (falls through, rethrows, or resumes the
    /// break/continue/return that left the body).
    func withDisposal(isAsync: Bool, _ body: (FunctionCompiler) throws(CompileError) -> Void) throws(CompileError) {
        let saved = nextRegister
        defer { nextRegister = saved }
        let list = temp()
        emit(.newArray, list, 0, 0)
        let f = FinallyContext(kindRegister: temp(), valueRegister: temp(), scopeDepth: environmentDepth, jumpDepth: jumps.count)
        finallies.append(f)
        disposalLists.append((list, isAsync))
        let start = pc
        try body(self)
        let end = pc
        disposalLists.removeLast()
        finallies.removeLast()
        emit(.loadInt, f.kindRegister, FunctionCompiler.finallyNormal)
        let toDispose = emitJump(.jmp)
        code.handlers.append(Handler(start: Int32(start), end: Int32(end), target: Int32(pc), scopeDepth: Int32(f.scopeDepth)))
        emit(.loadException, f.valueRegister)
        emit(.loadInt, f.kindRegister, FunctionCompiler.finallyThrow)
        patch(toDispose)
        for j in f.entryJumps { patch(j) }
        if isAsync, let g = generatorRegister {
            let pair = temps(2)
            emit(.disposeResourcesAsync, pair, list, f.kindRegister, f.valueRegister)
            let skip = emitJump(.jumpIfUndefined, pair)
            emit(.await, pair, pair, g)
            emitResumeDispatch(pair, isAwait: true)
            patch(skip)
        } else {
            emit(.disposeResources, list, f.kindRegister, f.valueRegister)
        }
        // Continue the completion.
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

    /// `using x = v, …` / `await using x = v, …`: each value joins the scope's resources
    /// (a TypeError unless it is null, undefined or disposable), then initializes its binding.
    func usingDeclaration(_ d: VariableDeclaration) throws(CompileError) {
        guard let list = disposalLists.last?.register else {
            throw error("a using declaration outside a block", 0)
        }
        for decl in d.declarations {
            let mark = nextRegister
            guard let initializer = decl.initializer, case .identifier(let name) = decl.target.kind else {
                throw error("a using declaration needs an identifier and an initializer", 0)
            }
            let r = try expression(initializer, into: nil, inferredName: name)
            emit(.addDisposable, list, r, d.kind == .awaitUsing ? 1 : 0)
            try bindPattern(decl.target, valueRegister: r, initialize: true)
            nextRegister = mark
        }
    }
}
