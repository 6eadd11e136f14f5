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
