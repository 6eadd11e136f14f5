import JSBytecode
import JSSyntax

extension FunctionCompiler {
    /// `tag\`a${x}b\``: the tag is called like a method when it is a member expression, with
    /// the site's template object (one frozen array per site, made on first use from the
    /// `templateObject` constant) and the substitutions as arguments.
    func taggedTemplate(_ tag: Expr, _ quasi: TemplateLiteral, into dst: Int?, span: Span) throws(CompileError) -> Int {
        let r = dst ?? temp()
        let m = nextRegister
        let args = quasi.expressions.map { Argument.expr($0) }
        var exits: [Int] = []
        let (f, thisReg) = try calleeAndThis(tag, function: temp(), this: temp(), exits: &exits, args: args)
        let base = temps(quasi.expressions.count + 1)
        let site = constant(.templateObject(cooked: quasi.cooked.map { $0?.utf16 }, raw: quasi.raw.map { $0.utf16 }))
        emit(.loadConst, base, site)
        for (i, x) in quasi.expressions.enumerated() { _ = try expression(x, into: base + 1 + i) }
        mark(span.start)
        emit(.call, r, f, thisReg, base, quasi.expressions.count + 1)
        for x in exits { patch(x) }
        nextRegister = m
        return r
    }
}

extension FunctionCompiler {
    /// `yield* x` in an async generator: the inner async iterator (or the sync one wrapped)
    /// is stepped with what the generator receives; each inner result is awaited, and its
    /// value yielded as is. Leaves the expression's value in `pair`.
    func asyncYieldDelegate(_ argument: Expr, pair: Int, generator g: Int) throws(CompileError) {
        let iterable = try expression(argument, into: nil)
        let rec = temps(3)
        emit(.getAsyncIterator, rec, iterable)
        let res = temps(2)
        emit(.loadUndefined, pair)
        emit(.loadInt, pair + 1, 0)
        let top = pc
        let noMethod = emitJump(.asyncDelegateCall, res, pair, rec)
        emit(.await, res, res, g)
        emitResumeDispatch(res, isAwait: true)
        let done = emitJump(.asyncDelegateResult, pair, res)
        emit(.yield, pair, pair, g)
        // A return request awaits its value first (AsyncGeneratorYield).
        let t = temp(), cmp = temp()
        emit(.loadInt, t, 2)
        emit(.strictEq, cmp, pair + 1, t)
        let notReturn = emitJump(.jumpIfFalse, cmp)
        emit(.await, res, pair, g)
        emitResumeDispatch(res, isAwait: true)
        emit(.mov, pair, res)
        patch(notReturn)
        emitJumpBack(.jmp, to: top)
        // No throw method: close the inner iterator, then a TypeError. No return method:
        // the generator returns the (awaited) value.
        patch(noMethod)
        emit(.loadInt, t, 1)
        emit(.strictEq, cmp, pair + 1, t)
        let isReturn = emitJump(.jumpIfFalse, cmp)
        emitIteratorClose(rec, isAwait: true)
        emit(.throwTypeError, stringConstant(Array("The iterator does not provide a 'throw' method".utf16)))
        patch(isReturn)
        emit(.await, res, pair, g)
        emitResumeDispatch(res, isAwait: true)
        emitReturn(res)
        // Done: a return request ends the generator with the value; else it is yield*'s value.
        patch(done)
        emit(.loadInt, t, 2)
        emit(.strictEq, cmp, pair + 1, t)
        let notReturnDone = emitJump(.jumpIfFalse, cmp)
        emitReturn(pair)
        patch(notReturnDone)
    }
}
