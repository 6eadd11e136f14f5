// Compiling values straight into a local's register (`x = a + b` -> `add rx, ra, rb`)
// instead of into a temporary followed by `mov`. Safe only when the expression writes
// its destination once, as its last step, so reads of the local inside it still see
// the old value (or trip the TDZ check).

import JSSyntax
import JSBytecode

extension FunctionCompiler {
    /// The register of `name` when it is a register binding that may be written without a
    /// check (not const, initialized unless `initializing`).
    func plainRegister(_ name: String, initializing: Bool) -> Int? {
        guard let info = resolve(name), case .register(let reg) = info.location else { return nil }
        switch info.kind {
        case .const, .functionName, .class: return initializing && info.kind == .const ? reg : nil
        default: break
        }
        if !initializing && !isInitialized(name, info) { return nil }
        return reg
    }

    /// Compiles `e` for its effect only: `i++` / `--i` on a register local become one
    /// `inc`/`dec` in place (ToNumeric is part of `inc`).
    func effectExpression(_ e: Expr) throws(CompileError) {
        var x = e
        while case .parenthesized(let i) = x.kind { x = i }
        if case .update(let op, _, let target) = x.kind {
            var t = target
            while case .parenthesized(let i) = t.kind { t = i }
            if case .identifier(let name) = t.kind, let reg = plainRegister(name, initializing: false) {
                emit(op == .increment ? .inc : .dec, reg, reg)
                return
            }
        }
        let m = nextRegister
        _ = try expression(e, into: nil)
        nextRegister = m
    }

    /// Whether compiling `e` into a register writes that register only as its final step.
    func writesDestinationLast(_ e: Expr) -> Bool {
        switch e.kind {
        case .identifier, .this, .null, .boolean, .number, .string, .function, .arrow:
            return true
        case .parenthesized(let x):
            return writesDestinationLast(x)
        case .binary:
            return true
        case .unary(let op, _):
            return op != .delete
        case .member(_, _, let optional):
            return !optional
        case .call(_, _, let optional):
            return !optional
        case .new:
            return true
        case .conditional(_, let a, let b):
            return writesDestinationLast(a) && writesDestinationLast(b)
        default:
            return false
        }
    }

    /// Whether evaluating `e` may assign to a local binding (assignments, updates, or
    /// anything the check does not understand).
    func mayAssignLocals(_ e: Expr) -> Bool {
        switch e.kind {
        case .identifier, .this, .null, .boolean, .number, .string, .function, .arrow, .newTarget, .regexp:
            return false
        case .parenthesized(let x), .unary(_, let x):
            return mayAssignLocals(x)
        case .binary(_, let a, let b), .logical(_, let a, let b):
            return mayAssignLocals(a) || mayAssignLocals(b)
        case .member(let o, let p, _):
            if case .computed(let k) = p { return mayAssignLocals(o) || mayAssignLocals(k) }
            return mayAssignLocals(o)
        case .conditional(let c, let a, let b):
            return mayAssignLocals(c) || mayAssignLocals(a) || mayAssignLocals(b)
        case .call(let f, let args, _), .new(let f, let args):
            if mayAssignLocals(f) { return true }
            for a in args {
                switch a {
                case .expr(let x), .spread(let x): if mayAssignLocals(x) { return true }
                }
            }
            return false
        default:
            return true
        }
    }
}
