// Expressions, names and assignment targets.

import JSSyntax
import JSBytecode

extension FunctionCompiler {
    // MARK: - Names

    /// A register holding the name's value (the binding's own register when it has one).
    func loadName(_ name: String, offset: Int32, into dst: Int? = nil) throws(CompileError) -> Int {
        guard let info = resolve(name) else {
            let r = dst ?? temp()
            emit(.getGlobal, r, atom(name), newIC())
            return r
        }
        switch info.location {
        case .register(let reg):
            if !isInitialized(name, info) { emitCheckTDZ(reg, name) }
            if let d = dst, d != reg { emit(.mov, d, reg); return d }
            return reg
        case .environment(let hops, let slot):
            let r = dst ?? temp()
            let checked = !(info.kind != .let && info.kind != .const && info.kind != .class)
                && !(hops == 0 && isInitialized(name, info))
            if checked { emit(.getScopeChecked, r, hops, slot, atom(name)) } else { emit(.getScope, r, hops, slot) }
            return r
        case .global:
            let r = dst ?? temp()
            emit(.getGlobal, r, atom(name), newIC())
            return r
        case .dynamic:
            let r = dst ?? temp()
            emit(.getDynamic, r, atom(name))
            return r
        case .importBinding(let index):
            let r = dst ?? temp()
            emit(.getImport, r, index, atom(name))
            return r
        }
    }

    /// Stores `value` into a name. `initialize` is a declaration's initialization (no TDZ
    /// or const check).
    func storeName(_ name: String, _ value: Int, initialize: Bool, offset: Int32) throws(CompileError) {
        guard let info = resolve(name) else {
            emit(code.isStrict ? .setGlobalStrict : .setGlobal, atom(name), value, newIC())
            return
        }
        if case .dynamic = info.location {
            emit(.setDynamic, atom(name), value)
            return
        }
        if !initialize && info.kind == .const {
            if case .register(let reg) = info.location, !isInitialized(name, info) { emitCheckTDZ(reg, name) }
            if case .environment(let hops, let slot) = info.location { let t = temp(); emit(.getScopeChecked, t, hops, slot, atom(name)) }
            if case .importBinding(let index) = info.location { let t = temp(); emit(.getImport, t, index, atom(name)) }
            emit(.throwConstAssign, atom(name))
            return
        }
        if !initialize && info.kind == .functionName {
            if code.isStrict { emit(.throwConstAssign, atom(name)) }
            return
        }
        switch info.location {
        case .register(let reg):
            if !initialize && !isInitialized(name, info) { emitCheckTDZ(reg, name) }
            if reg != value { emit(.mov, reg, value) }
        case .environment(let hops, let slot):
            let needsCheck = !initialize && (info.kind == .let || info.kind == .class) && !(hops == 0 && isInitialized(name, info))
            if needsCheck { emit(.setScopeChecked, hops, slot, value, atom(name)) }
            else { emit(initialize ? .initScope : .setScope, hops, slot, value) }
        case .global:
            if initialize && (info.kind == .let || info.kind == .const || info.kind == .class) {
                emit(.initGlobalLexical, atom(name), value)
            } else {
                emit(code.isStrict ? .setGlobalStrict : .setGlobal, atom(name), value, newIC())
            }
        case .dynamic, .importBinding:
            break
        }
        if initialize { markInitialized(name) }
    }

    /// Annex B.3.3: assigns a block function's value to the function-level var binding.
    func storeVarBinding(_ name: String, _ value: Int, offset: Int32) throws(CompileError) {
        var hops = 0
        for cs in scopes.reversed() {
            if let s = cs.scope, s.isVarScope, let info = cs.names[name] {
                switch info.location {
                case .register(let r): emit(.mov, r, value)
                case .environment(_, let slot): emit(.setScope, hops, slot, value)
                case .global: emit(.setGlobal, atom(name), value, newIC())
                case .dynamic: emit(.setDynamic, atom(name), value)
                case .importBinding: emit(.throwConstAssign, atom(name))
                }
                return
            }
            if cs.hasEnvironment { hops += 1 }
        }
        // Sloppy eval code: the variable environment is the caller's (B.3.3.3).
        if isEvalCode && !code.isStrict { emit(.setEvalVar, atom(name), value) }
    }

    // MARK: - Operands

    /// Compiles two operands in order. A left operand that is a binding's own register is
    /// copied first if the right one could change it.
    func operands(_ a: Expr, _ b: Expr) throws(CompileError) -> (Int, Int) {
        var ra = try expression(a, into: nil)
        if bindingRegisters.contains(ra), mayAssignLocals(b) {
            let t = temp()
            emit(.mov, t, ra)
            ra = t
        }
        let rb = try expression(b, into: nil)
        return (ra, rb)
    }

    // MARK: - Expressions

    @discardableResult
    func expression(_ e: Expr, into dst: Int?, inferredName: String? = nil) throws(CompileError) -> Int {
        try checkStack(e.span.start)
        switch e.kind {
        case .identifier(let name):
            if name == "undefined" && resolve(name) == nil {
                let r = dst ?? temp()
                emit(.loadUndefined, r)
                return r
            }
            return try loadName(name, offset: e.span.start, into: dst)
        case .this:
            if let t = thisRegister {
                if let d = dst, d != t { emit(.mov, d, t); return d }
                return t
            }
            let r = dst ?? temp()
            emit(.loadThis, r)
            return r
        case .null:
            let r = dst ?? temp(); emit(.loadNull, r); return r
        case .boolean(let b):
            let r = dst ?? temp(); emit(b ? .loadTrue : .loadFalse, r); return r
        case .number(let d):
            let r = dst ?? temp()
            if d == d.rounded(.towardZero), abs(d) <= 2147483647, !(d == 0 && d.sign == .minus) {
                emit(.loadInt, r, Int(d))
            } else {
                emit(.loadConst, r, numberConstant(d))
            }
            return r
        case .string(let s):
            let r = dst ?? temp()
            emit(.loadConst, r, stringConstant(s.utf16))
            return r
        case .bigint(let digits):
            let r = dst ?? temp()
            emit(.loadConst, r, constant(.bigint(digits), key: "b" + digits))
            return r
        case .regexp(let pattern, let flags):
            let r = dst ?? temp()
            emit(.newRegExp, r, constant(.string(Array(pattern.utf16))), constant(.string(Array(flags.utf16))))
            return r
        case .template(let t):
            return try templateLiteral(t, into: dst)
        case .parenthesized(let inner):
            return try expression(inner, into: dst, inferredName: inferredName)
        case .dynamicImport(let specifier, let options):
            let m = nextRegister
            let rs = try expression(specifier, into: nil)
            let ro = temp()
            if let options { _ = try expression(options, into: ro) } else { emit(.loadUndefined, ro) }
            nextRegister = m
            let r = dst ?? temp()
            emit(.dynamicImport, r, rs, ro)
            return r
        case .importMeta:
            let r = dst ?? temp()
            emit(.importMeta, r)
            return r
        case .sequence(let list):
            for x in list.dropLast() {
                let m = nextRegister
                _ = try expression(x, into: nil)
                nextRegister = m
            }
            return try expression(list.last!, into: dst)
        case .array(let elements):
            return try arrayLiteral(elements, into: dst)
        case .object(let members):
            return try objectLiteral(members, into: dst)
        case .function(let fn) where fn.name != nil:
            // A named function expression sees its own name: an immutable binding in a
            // one-slot environment around the closure (FunctionExpression evaluation, step 3).
            let name = fn.name!
            let cs = CompileScope(scope: nil, owner: self)
            cs.names[name] = BindingInfo(location: .environment(hops: 0, slot: 0), kind: .functionName, declarationEnd: -1)
            cs.slotNames = [Compiler.slotName(name, .functionName)]
            cs.environmentSize = 1
            cs.hasEnvironment = true
            cs.initialized.insert(name)
            scopes.append(cs)
            emit(.pushScope, 1, constant(.scopeNames(cs.slotNames)))
            environmentDepth += 1
            let inner = try compileFunction(fn)
            let r = dst ?? temp()
            emit(.newClosure, r, constant(.function(inner)))
            emit(.initScope, 0, 0, r)
            emit(.popScope)
            environmentDepth -= 1
            scopes.removeLast()
            return r
        case .function(let fn), .arrow(let fn):
            let inner = try compileFunction(fn)
            if inner.name.isEmpty, let n = inferredName { inner.name = n }
            let r = dst ?? temp()
            emit(.newClosure, r, constant(.function(inner)))
            return r
        case .class(let c):
            let r = try classExpression(c, inferredName: inferredName)
            if let d = dst, d != r { emit(.mov, d, r); return d }
            return r
        case .unary(let op, let x):
            return try unary(op, x, e, into: dst)
        case .update(let op, let prefix, let target):
            return try update(op, prefix: prefix, target, into: dst)
        case .binary(let op, let a, let b):
            let m = nextRegister
            if op == .add || op == .sub, let k = int32Literal(b) {
                let ra = try expression(a, into: nil)
                nextRegister = m
                let r = dst ?? temp()
                emit(op == .add ? .addImm : .subImm, r, ra, k)
                return r
            }
            let (ra, rb) = try operands(a, b)
            nextRegister = m
            let r = dst ?? temp()
            emit(binaryOpcode(op), r, ra, rb)
            return r
        case .logical(let op, let a, let b):
            let r = dst ?? temp()
            _ = try expression(a, into: r)
            let skip: Int
            switch op {
            case .and: skip = emitJump(.jumpIfFalse, r)
            case .or: skip = emitJump(.jumpIfTrue, r)
            case .coalesce: skip = emitJump(.jumpIfNotNullish, r)
            }
            _ = try expression(b, into: r)
            patch(skip)
            return r
        case .conditional(let test, let a, let b):
            let r = dst ?? temp()
            let j = try jumpIfFalse(test)
            _ = try expression(a, into: r)
            let over = emitJump(.jmp)
            patch(j)
            _ = try expression(b, into: r)
            patch(over)
            return r
        case .assign(let op, let target, let value):
            return try assignment(op, target, value, into: dst, span: e.span)
        case .member, .optionalChain:
            return try memberOrChain(e, into: dst)
        case .call, .new:
            return try call(e, into: dst)
        case .newTarget:
            let r = dst ?? temp(); emit(.loadNewTarget, r); return r
        case .superMember(let property):
            let r = dst ?? temp()
            let (base, k) = try superReference(property)
            emit(.getSuperValue, r, base, k)
            return r
        case .superCall(let args):
            let r = dst ?? temp()
            if args.contains(where: { if case .spread = $0 { return true }; return false }) {
                let arr = try spreadArguments(args)
                mark(e.span.start)
                emit(.superCallSpread, r, arr)
                return r
            }
            let base = temps(args.count)
            for (i, a) in args.enumerated() { if case .expr(let x) = a { _ = try expression(x, into: base + i) } }
            mark(e.span.start)
            emit(.superCall, r, base, args.count)
            return r
        case .yield(let argument, let delegate):
            guard let g = generatorRegister else { throw error("yield outside a generator", e.span.start) }
            let r = dst ?? temp()
            let m = nextRegister
            let pair = temps(2)     // pair: the value sent in, pair + 1: the resume mode
            if delegate && code.isAsync {
                try asyncYieldDelegate(argument!, pair: pair, generator: g)
            } else if delegate {
                let iterable = try expression(argument!, into: nil)
                let rec = temps(3)
                emit(.getIterator, rec, iterable)
                emit(.loadUndefined, pair)
                emit(.loadInt, pair + 1, 0)
                let top = pc
                let done = emitJump(.iteratorDone, pair, rec)
                emit(.yieldDelegate, pair, pair, g)
                emitJumpBack(.jmp, to: top)
                patch(done)
                // Done: pair + 1 is 2 when a return must continue outward.
                let t = temp(), cmp = temp()
                emit(.loadInt, t, 2)
                emit(.strictEq, cmp, pair + 1, t)
                let notReturn = emitJump(.jumpIfFalse, cmp)
                emitReturn(pair)
                patch(notReturn)
            } else {
                var v: Int
                if let a = argument { v = try expression(a, into: nil) } else { v = temp(); emit(.loadUndefined, v) }
                if code.isAsync {
                    // Async generators await the operand before yielding it.
                    let awaited = temps(2)
                    emit(.await, awaited, v, g)
                    emitResumeDispatch(awaited, isAwait: true)
                    v = awaited
                }
                emit(.yield, pair, v, g)
                emitResumeDispatch(pair)
            }
            if pair != r { emit(.mov, r, pair) }
            nextRegister = m
            return r
        case .await(let argument):
            guard let g = generatorRegister else { throw error("await outside an async function", e.span.start) }
            let r = dst ?? temp()
            let m = nextRegister
            let pair = temps(2)
            let v = try expression(argument, into: nil)
            emit(.await, pair, v, g)
            emitResumeDispatch(pair, isAwait: true)
            if pair != r { emit(.mov, r, pair) }
            nextRegister = m
            return r
        case .privateIn(let name, let object):
            let r = dst ?? temp()
            let m = nextRegister
            let o = try expression(object, into: nil)
            let k = try propertyKeyRegister(.privateName(name))
            emit(.hasPrivate, r, o, k)
            nextRegister = m
            return r
        case .taggedTemplate(let tag, let quasi):
            return try taggedTemplate(tag, quasi, into: dst, span: e.span)
        }
    }

    func binaryOpcode(_ op: BinaryOp) -> Opcode {
        switch op {
        case .add: return .add
        case .sub: return .sub
        case .mul: return .mul
        case .div: return .div
        case .mod: return .mod
        case .exp: return .exp
        case .bitAnd: return .bitAnd
        case .bitOr: return .bitOr
        case .bitXor: return .bitXor
        case .shl: return .shl
        case .sar: return .sar
        case .shr: return .shr
        case .eq: return .eq
        case .ne: return .ne
        case .strictEq: return .strictEq
        case .strictNe: return .strictNe
        case .lt: return .lt
        case .le: return .le
        case .gt: return .gt
        case .ge: return .ge
        case .instanceof: return .instanceOf
        case .in: return .in
        }
    }

    func templateLiteral(_ t: TemplateLiteral, into dst: Int?) throws(CompileError) -> Int {
        let r = dst ?? temp()
        let m = nextRegister
        emit(.loadConst, r, stringConstant(t.cooked[0]?.utf16 ?? []))
        for (i, x) in t.expressions.enumerated() {
            let v = try expression(x, into: nil)
            let s = temp()
            emit(.toString, s, v)
            emit(.add, r, r, s)
            let tail = t.cooked[i + 1]?.utf16 ?? []
            if !tail.isEmpty {
                let c = temp()
                emit(.loadConst, c, stringConstant(tail))
                emit(.add, r, r, c)
            }
            nextRegister = m
        }
        return r
    }

    func arrayLiteral(_ elements: [ArrayElement], into dst: Int?) throws(CompileError) -> Int {
        let r = dst ?? temp()
        let simple = elements.allSatisfy { if case .expr = $0 { return true }; return false }
        let m = nextRegister
        if simple && elements.count <= 64 {
            let base = temps(elements.count)
            for (i, el) in elements.enumerated() {
                if case .expr(let x) = el { _ = try expression(x, into: base + i) }
            }
            emit(.newArray, r, base, elements.count)
            nextRegister = m
            return r
        }
        let arr = temp()
        emit(.newArray, arr, 0, 0)
        for el in elements {
            let m2 = nextRegister
            switch el {
            case .hole:
                let t = temp(); emit(.loadEmpty, t); emit(.arrayPush, arr, t)
            case .expr(let x):
                let v = try expression(x, into: nil); emit(.arrayPush, arr, v)
            case .spread(let x):
                let v = try expression(x, into: nil); emit(.arraySpread, arr, v)
            }
            nextRegister = m2
        }
        if arr != r { emit(.mov, r, arr) }
        nextRegister = m
        return r
    }

    /// A register holding a property key (as a string, number or symbol value).
    func propertyKeyRegister(_ key: PropertyKey) throws(CompileError) -> Int {
        let r = temp()
        switch key {
        case .name(let s): emit(.loadConst, r, stringConstant(Array(s.utf16)))
        case .string(let s): emit(.loadConst, r, stringConstant(s.utf16))
        case .number(let d): emit(.loadConst, r, numberConstant(d))
        case .bigint(let d): emit(.loadConst, r, stringConstant(Array(d.utf16)))
        case .computed(let e):
            let v = try expression(e, into: nil)
            emit(.toPropertyKey, r, v)
        case .privateName(let n):
            // The private name's symbol, bound in the class scope as "#n".
            guard resolve("#" + n) != nil else { throw error("private name #\(n) is not defined", 0) }
            _ = try loadName("#" + n, offset: 0, into: r)
        }
        return r
    }

    /// `o[k]` for a member property (private names read only own private elements; `.name`
    /// uses the cached named access).
    func emitGetKeyed(_ dst: Int, _ o: Int, _ k: Int, _ property: PropertyKey) {
        switch property {
        case .privateName: emit(.getPrivate, dst, o, k)
        case .name(let n): emit(.getProp, dst, o, atom(n), newIC())
        default: emit(.getElem, dst, o, k)
        }
    }

    /// A call used as an assignment target (Annex B, sloppy code): the call is made, then
    /// a ReferenceError is thrown. Returns false when `t` is not a call.
    func callAssignmentTarget(_ t: Expr) throws(CompileError) -> Bool {
        var core = t
        while case .parenthesized(let i) = core.kind { core = i }
        guard case .call = core.kind else { return false }
        let m = nextRegister
        _ = try expression(core, into: nil)
        nextRegister = m
        emit(.throwReferenceError, stringConstant(Array("Invalid left-hand side in assignment".utf16)))
        return true
    }

    /// A super property reference: `this` checked (an uninitialized `this` is a
    /// ReferenceError before the key is evaluated), the key evaluated (converted later by
    /// getSuperValue/setSuperValue), then the base (GetSuperBase). Registers (base, key).
    func superReference(_ property: PropertyKey, thisChecked: Bool = false) throws(CompileError) -> (Int, Int) {
        if !thisChecked && thisRegister == nil {
            let t = temp()
            emit(.loadThis, t)
        }
        let k: Int
        if case .computed(let e) = property {
            k = temp()
            _ = try expression(e, into: k)
        } else {
            k = try propertyKeyRegister(property)
        }
        let base = temp()
        emit(.getSuperBase, base)
        return (base, k)
    }

    /// A name resolved at run time (`with`, sloppy direct eval): a register holding its
    /// reference (`resolveRef`), evaluated now, before the right-hand side; nil otherwise.
    func dynamicReference(_ name: String) -> Int? {
        guard case .dynamic? = resolve(name)?.location else { return nil }
        let ref = temp()
        emit(.resolveRef, ref, atom(name))
        return ref
    }

    /// The key of a read-modify-write member target (`o[k] op= v`, `o[k]++`, `o[k] ??= v`):
    /// a computed key is converted once, after GetValue has checked the base
    /// (RequireObjectCoercible(o) comes before ToPropertyKey(k)).
    func readModifyWriteKey(_ o: Int, _ property: PropertyKey) throws(CompileError) -> Int {
        guard case .computed(let e) = property else { return try propertyKeyRegister(property) }
        let r = temp()
        let v = try expression(e, into: nil)
        let ok = emitJump(.jumpIfNotNullish, o)
        emit(.throwTypeError, stringConstant(Array("Cannot read properties of null or undefined".utf16)))
        patch(ok)
        emit(.toPropertyKey, r, v)
        return r
    }

    /// `o[k] = v` for a member property (private names write existing private elements).
    func emitSetKeyed(_ o: Int, _ k: Int, _ v: Int, _ property: PropertyKey) {
        switch property {
        case .privateName: emit(.setPrivate, o, k, v)
        case .name(let n): emit(code.isStrict ? .setPropStrict : .setProp, o, atom(n), v, newIC())
        default: emit(code.isStrict ? .setElemStrict : .setElem, o, k, v)
        }
    }

    func keyName(_ key: PropertyKey) -> String? {
        switch key {
        case .name(let s): return s
        case .string(let s): return s.description
        default: return nil
        }
    }

    /// The key of `{key: value}` as a property name for `initProp`: identifiers and string
    /// literals (the parser makes well-formed ones `.name`) that are not array indices
    /// (those are element keys).
    func literalPropertyName(_ key: PropertyKey) -> [UInt16]? {
        let units: [UInt16]
        switch key {
        case .name(let n): units = Array(n.utf16)
        case .string(let s): units = Array(s.utf16)
        default: return nil
        }
        return isArrayIndexString(units) ? nil : units
    }

    /// A canonical array index: "0", or digits without a leading zero below 2^32 - 1.
    func isArrayIndexString(_ units: [UInt16]) -> Bool {
        guard !units.isEmpty, units.count <= 10, units.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return false }
        if units.count > 1 && units[0] == 48 { return false }
        var n: UInt64 = 0
        for u in units { n = n * 10 + UInt64(u - 48) }
        return n < 4_294_967_295
    }

    func objectLiteral(_ members: [ObjectMember], into dst: Int?) throws(CompileError) -> Int {
        let r = dst ?? temp()
        let obj = temp()
        emit(.newObject, obj)
        for m in members {
            let mark = nextRegister
            switch m {
            case .property(let key, let value, _, let isProto):
                if isProto {
                    let v = try expression(value, into: nil)
                    emit(.setPrototypeOf, obj, v)
                } else if let name = literalPropertyName(key) {
                    // A named key: the cached transition of `initProp` (no key register).
                    let v = try expression(value, into: nil, inferredName: keyName(key))
                    emit(.initProp, obj, atom(name), v, newIC())
                } else {
                    let k = try propertyKeyRegister(key)
                    let v = try expression(value, into: nil, inferredName: keyName(key))
                    emit(.defineField, obj, k, v)
                }
            case .method(let key, let fn, let kind):
                let k = try propertyKeyRegister(key)
                let inner = try compileFunction(fn)
                if inner.name.isEmpty, let n = keyName(key) { inner.name = n }
                let f = temp()
                emit(.newClosure, f, constant(.function(inner)))
                switch kind {
                case .initialize: emit(.defineMethod, obj, k, f, 1)
                case .getter: emit(.defineGetter, obj, k, f, 1)
                case .setter: emit(.defineSetter, obj, k, f, 1)
                }
            case .spread(let x):
                let v = try expression(x, into: nil)
                emit(.copyDataProperties, obj, v, 0, 0)
            }
            nextRegister = mark
        }
        if obj != r { emit(.mov, r, obj) }
        return r
    }

    func unary(_ op: UnaryOp, _ x: Expr, _ e: Expr, into dst: Int?) throws(CompileError) -> Int {
        switch op {
        case .typeof:
            var x = x
            while case .parenthesized(let inner) = x.kind { x = inner }
            if case .identifier(let name) = x.kind, resolve(name) == nil {
                let r = dst ?? temp()
                emit(.typeOfGlobal, r, atom(name))
                return r
            }
            if case .identifier(let name) = x.kind, case .dynamic? = resolve(name)?.location {
                let r = dst ?? temp()
                emit(.typeOfDynamic, r, atom(name))
                return r
            }
            let v = try expression(x, into: nil)
            let r = dst ?? temp()
            emit(.typeOf, r, v)
            return r
        case .void:
            let m = nextRegister
            _ = try expression(x, into: nil)
            nextRegister = m
            let r = dst ?? temp()
            emit(.loadUndefined, r)
            return r
        case .delete:
            let r = dst ?? temp()
            var target = x
            while case .parenthesized(let i) = target.kind { target = i }
            switch target.kind {
            case .member(let object, let property, _):
                let o = try expression(object, into: nil)
                switch property {
                case .name(let n): emit(.deleteProp, r, o, atom(n), code.isStrict ? 1 : 0)
                default:
                    let k = try propertyKeyRegister(property)
                    emit(.deleteElem, r, o, k, code.isStrict ? 1 : 0)
                }
            case .superMember(let property):
                // The reference is evaluated, then deleting it is a ReferenceError.
                _ = try superReference(property)
                emit(.throwReferenceError, stringConstant(Array("Unsupported reference to 'super'".utf16)))
            case .identifier(let name):
                // Sloppy `delete x`: only configurable global properties can be deleted.
                if case .dynamic? = resolve(name)?.location {
                    emit(.deleteDynamic, r, atom(name))
                } else if resolve(name) != nil { emit(.loadFalse, r) } else {
                    let g = temp()
                    emit(.getGlobal, g, atom("globalThis"), newIC())
                    emit(.deleteProp, r, g, atom(name), 0)
                }
            default:
                let m = nextRegister
                _ = try expression(target, into: nil)
                nextRegister = m
                emit(.loadTrue, r)
            }
            return r
        case .minus, .plus, .not, .bitNot:
            let v = try expression(x, into: nil)
            let r = dst ?? temp()
            let opcode: Opcode = op == .minus ? .neg : op == .plus ? .plus : op == .not ? .not : .bitNot
            emit(opcode, r, v)
            return r
        }
    }

    func update(_ op: UpdateOp, prefix: Bool, _ target: Expr, into dst: Int?) throws(CompileError) -> Int {
        var t = target
        while case .parenthesized(let i) = t.kind { t = i }
        let opcode: Opcode = op == .increment ? .inc : .dec
        switch t.kind {
        case .identifier(let name):
            if let ref = dynamicReference(name) {
                let cur = temp()
                emit(.getRef, cur, ref, atom(name))
                let old = temp()
                emit(.toNumeric, old, cur)
                let new = temp()
                emit(opcode, new, old)
                emit(.setRef, ref, atom(name), new)
                let result = prefix ? new : old
                if let d = dst { emit(.mov, d, result); return d }
                return result
            }
            let cur = try loadName(name, offset: t.span.start)
            let old = temp()
            emit(.toNumeric, old, cur)
            let new = temp()
            emit(opcode, new, old)
            try storeName(name, new, initialize: false, offset: t.span.start)
            let result = prefix ? new : old
            if let d = dst { emit(.mov, d, result); return d }
            return result
        case .superMember(let property):
            let (base, k) = try superReference(property)
            let cur = temp()
            emit(.getSuperValue, cur, base, k)
            let old = temp()
            emit(.toNumeric, old, cur)
            let new = temp()
            emit(opcode, new, old)
            emit(.setSuperValue, base, k, new)
            let result = prefix ? new : old
            if let d = dst { emit(.mov, d, result); return d }
            return result
        case .member(let object, let property, _):
            let o = try expression(object, into: temp())
            let k = try readModifyWriteKey(o, property)
            let cur = temp()
            emitGetKeyed(cur, o, k, property)
            let old = temp()
            emit(.toNumeric, old, cur)
            let new = temp()
            emit(opcode, new, old)
            emitSetKeyed(o, k, new, property)
            let result = prefix ? new : old
            if let d = dst { emit(.mov, d, result); return d }
            return result
        default:
            if try callAssignmentTarget(t) { return dst ?? temp() }
            throw error("invalid update target", t.span.start)
        }
    }

    // MARK: - Member access and calls

    /// Member access and optional chains: `nullishExit` collects the short-circuit jumps.
    func memberOrChain(_ e: Expr, into dst: Int?) throws(CompileError) -> Int {
        if case .optionalChain(let inner) = e.kind {
            let r = dst ?? temp()
            var exits: [Int] = []
            try chainElement(inner, into: r, exits: &exits, thisOut: nil)
            let over = emitJump(.jmp)
            for j in exits { patch(j) }
            emit(.loadUndefined, r)
            patch(over)
            return r
        }
        let r = dst ?? temp()
        var exits: [Int] = []
        try chainElement(e, into: r, exits: &exits, thisOut: nil)
        return r
    }

    /// Compiles one link of a (possibly optional) chain into `r`. If `thisOut` is given,
    /// the object of a member access is left there (the `this` of a method call).
    func chainElement(_ e: Expr, into r: Int, exits: inout [Int], thisOut: Int?) throws(CompileError) {
        try checkStack(e.span.start)
        switch e.kind {
        case .member(let object, let property, let optional):
            let o: Int
            if let t = thisOut {
                o = t
                try chainElement(object, into: o, exits: &exits, thisOut: nil)
            } else if isChainLink(object) {
                o = temp()
                try chainElement(object, into: o, exits: &exits, thisOut: nil)
            } else {
                // A local, `this` or any other plain expression: read where it already is,
                // unless the key could reassign that local first.
                o = try stableOperand(object, before: property.computedExpression)
            }
            if optional { exits.append(emitJump(.jumpIfNullish, o)) }
            switch property {
            case .name(let n):
                emit(.getProp, r, o, atom(n), newIC())
            case .computed(let k):
                // A read converts the key itself, after checking the base (GetValue).
                let m = nextRegister
                let kr = try expression(k, into: nil)
                emit(.getElem, r, o, kr)
                nextRegister = m
            default:
                let m = nextRegister
                let k = try propertyKeyRegister(property)
                emitGetKeyed(r, o, k, property)
                nextRegister = m
            }
        case .call(let callee, let args, let optional):
            let (f, thisReg) = try calleeAndThis(callee, function: temp(), this: temp(), exits: &exits, args: args)
            if optional { exits.append(emitJump(.jumpIfNullish, f)) }
            try emitCall(function: f, this: thisReg, args, into: r, span: e.span)
        case .parenthesized(let inner):
            _ = try expression(inner, into: r)
        default:
            _ = try expression(e, into: r)
        }
    }

    /// Whether `e` is a link of a member/call chain (compiled by `chainElement`, which owns
    /// the optional-chain exits).
    func isChainLink(_ e: Expr) -> Bool {
        switch e.kind {
        case .member, .call: return true
        default: return false
        }
    }

    /// `e` in a register that stays valid while `later` is evaluated: a local's own register
    /// is used in place unless `later` may assign locals.
    func stableOperand(_ e: Expr, before later: Expr?) throws(CompileError) -> Int {
        let v = try expression(e, into: nil)
        if bindingRegisters.contains(v), let x = later, mayAssignLocals(x) {
            let t = temp()
            emit(.mov, t, v)
            return t
        }
        return v
    }

    /// Whether evaluating the arguments may assign a local.
    func argumentsMayAssignLocals(_ args: [Argument]) -> Bool {
        for a in args {
            switch a {
            case .expr(let x), .spread(let x): if mayAssignLocals(x) { return true }
            }
        }
        return false
    }

    /// The registers holding the callee and the `this` value of a call (`f` and `thisReg` are
    /// fresh temporaries the caller offers; a local's register may be used instead, and
    /// `this` is -1, meaning undefined, for a plain call).
    func calleeAndThis(_ callee: Expr, function f: Int, this thisReg: Int, exits: inout [Int],
                       args: [Argument]) throws(CompileError) -> (Int, Int) {
        var c = callee
        while case .parenthesized(let i) = c.kind, case .member = i.kind { c = i }
        switch c.kind {
        case .member(let object, let property, let optional) where !isChainLink(object):
            // `o.m(args)`: `this` is `o` where it already is, unless the key or the
            // arguments could reassign that local before the call reads it.
            var o = try expression(object, into: nil)
            if bindingRegisters.contains(o) && (argumentsMayAssignLocals(args) || (property.computedExpression.map(mayAssignLocals) ?? false)) {
                emit(.mov, thisReg, o)
                o = thisReg
            }
            if optional { exits.append(emitJump(.jumpIfNullish, o)) }
            switch property {
            case .name(let n):
                emit(.getProp, f, o, atom(n), newIC())
            default:
                let m = nextRegister
                let k = try propertyKeyRegister(property)
                emitGetKeyed(f, o, k, property)
                nextRegister = m
            }
            return (f, o)
        case .member:
            try chainElement(c, into: f, exits: &exits, thisOut: thisReg)
            return (f, thisReg)
        case .superMember(let property):
            emit(.loadThis, thisReg)
            let m = nextRegister
            let (base, k) = try superReference(property, thisChecked: true)
            emit(.getSuperValue, f, base, k)
            nextRegister = m
            return (f, thisReg)
        case .identifier(let name):
            if case .dynamic? = resolve(name)?.location {
                emit(.getDynamicCallee, f, thisReg, atom(name))
                return (f, thisReg)
            }
            if !argumentsMayAssignLocals(args), case .register? = resolve(name)?.location {
                return (try loadName(name, offset: c.span.start, into: nil), -1)
            }
            try chainElement(c, into: f, exits: &exits, thisOut: nil)
            return (f, -1)
        default:
            try chainElement(c, into: f, exits: &exits, thisOut: nil)
            return (f, -1)
        }
    }

    func call(_ e: Expr, into dst: Int?) throws(CompileError) -> Int {
        let r = dst ?? temp()
        let m = nextRegister
        switch e.kind {
        case .call(let callee, let args, let optional):
            if case .identifier("eval") = callee.kind, !optional {
                // A direct eval if `eval` is %eval% at run time (else an ordinary call).
                let f = temp()
                let thisReg = temp()
                var exits: [Int] = []
                let (fr, tr) = try calleeAndThis(callee, function: f, this: thisReg, exits: &exits, args: args)
                if fr != f { emit(.mov, f, fr) }
                if tr < 0 { emit(.loadUndefined, thisReg) } else if tr != thisReg { emit(.mov, thisReg, tr) }
                if args.contains(where: { if case .spread = $0 { return true }; return false }) {
                    // Spread arguments: the array in the argument register, count -1.
                    let arr = try spreadArguments(args)
                    mark(e.span.start)
                    emit(.callEval, r, f, thisReg, arr, -1)
                    nextRegister = m
                    return r
                }
                let base = temps(args.count)
                for (i, a) in args.enumerated() { if case .expr(let x) = a { _ = try expression(x, into: base + i) } }
                mark(e.span.start)
                emit(.callEval, r, f, thisReg, base, args.count)
                nextRegister = m
                return r
            }
            var exits: [Int] = []
            try chainElement(e, into: r, exits: &exits, thisOut: nil)
        case .new(let callee, let args):
            let f = try expression(callee, into: argumentsMayAssignLocals(args) ? temp() : nil)
            if args.contains(where: { if case .spread = $0 { return true }; return false }) {
                let arr = try spreadArguments(args)
                mark(e.span.start)
                emit(.constructSpread, r, f, arr, f)
                return r
            }
            let base = temps(args.count)
            for (i, a) in args.enumerated() { if case .expr(let x) = a { _ = try expression(x, into: base + i) } }
            mark(e.span.start)
            emit(.construct, r, f, base, args.count, f)
        default:
            break
        }
        nextRegister = m
        return r
    }

    /// A new array of the argument values, spread arguments expanded (for the spread forms
    /// of call, new, super() and eval).
    func spreadArguments(_ args: [Argument]) throws(CompileError) -> Int {
        let arr = temp()
        emit(.newArray, arr, 0, 0)
        for a in args {
            let m = nextRegister
            switch a {
            case .expr(let x): let v = try expression(x, into: nil); emit(.arrayPush, arr, v)
            case .spread(let x): let v = try expression(x, into: nil); emit(.arraySpread, arr, v)
            }
            nextRegister = m
        }
        return arr
    }

    func emitCall(function f: Int, this thisReg: Int, _ args: [Argument], into r: Int, span: Span) throws(CompileError) {
        if args.contains(where: { if case .spread = $0 { return true }; return false }) {
            let arr = try spreadArguments(args)
            mark(span.start)
            emit(.callSpread, r, f, thisReg, arr)
            return
        }
        let base = temps(args.count)
        for (i, a) in args.enumerated() { if case .expr(let x) = a { _ = try expression(x, into: base + i) } }
        mark(span.start)
        emit(.call, r, f, thisReg, base, args.count)
    }

    // MARK: - Assignment

    func assignment(_ op: AssignOp, _ target: Pattern, _ value: Expr, into dst: Int?, span: Span) throws(CompileError) -> Int {
        switch op {
        case .assign:
            switch target.kind {
            case .identifier(let name):
                if let ref = dynamicReference(name) {
                    let v = try expression(value, into: dst, inferredName: name)
                    emit(.setRef, ref, atom(name), v)
                    return v
                }
                if dst == nil, let reg = plainRegister(name, initializing: false), writesDestinationLast(value) {
                    return try expression(value, into: reg, inferredName: name)
                }
                let v = try expression(value, into: dst, inferredName: name)
                try storeName(name, v, initialize: false, offset: span.start)
                return v
            case .expression(let t):
                return try assignMember(t, into: dst, valueMayAssignLocals: mayAssignLocals(value)) { fc throws(CompileError) in try fc.expression(value, into: nil) }
            default:
                let v = try expression(value, into: dst ?? temp())
                try assignPattern(target, valueRegister: v)
                return v
            }
        case .and, .or, .coalesce:
            let r = dst ?? temp()
            switch target.kind {
            case .identifier(let name):
                let ref = dynamicReference(name)
                if let ref { emit(.getRef, r, ref, atom(name)) } else { _ = try loadName(name, offset: span.start, into: r) }
                let skip = emitJump(op == .and ? .jumpIfFalse : op == .or ? .jumpIfTrue : .jumpIfNotNullish, r)
                _ = try expression(value, into: r, inferredName: name)
                if let ref { emit(.setRef, ref, atom(name), r) } else { try storeName(name, r, initialize: false, offset: span.start) }
                patch(skip)
                return r
            case .expression(let t):
                if case .superMember(let property) = t.kind {
                    let (base, k) = try superReference(property)
                    emit(.getSuperValue, r, base, k)
                    let skip = emitJump(op == .and ? .jumpIfFalse : op == .or ? .jumpIfTrue : .jumpIfNotNullish, r)
                    _ = try expression(value, into: r)
                    emit(.setSuperValue, base, k, r)
                    patch(skip)
                    return r
                }
                guard case .member(let object, let property, _) = t.kind else { throw error("invalid assignment target", span.start) }
                let o = try expression(object, into: temp())
                let k = try readModifyWriteKey(o, property)
                emitGetKeyed(r, o, k, property)
                let skip = emitJump(op == .and ? .jumpIfFalse : op == .or ? .jumpIfTrue : .jumpIfNotNullish, r)
                _ = try expression(value, into: r)
                emitSetKeyed(o, k, r, property)
                patch(skip)
                return r
            default:
                throw error("invalid assignment target", span.start)
            }
        default:
            let binop = op.binaryOp!
            let r = dst ?? temp()
            switch target.kind {
            case .identifier(let name):
                if dst == nil, let reg = plainRegister(name, initializing: false), !mayAssignLocals(value) {
                    // `x op= e` on a register local: one instruction, in place.
                    nextRegister -= 1   // the unused result temp
                    try emitBinary(binop, reg, reg, value)
                    return reg
                }
                if let ref = dynamicReference(name) {
                    let left = temp()
                    emit(.getRef, left, ref, atom(name))
                    try emitBinary(binop, r, left, value)
                    emit(.setRef, ref, atom(name), r)
                    return r
                }
                let cur = try loadName(name, offset: span.start)
                let left = temp()
                emit(.mov, left, cur)
                try emitBinary(binop, r, left, value)
                try storeName(name, r, initialize: false, offset: span.start)
                return r
            case .expression(let t):
                if case .superMember(let property) = t.kind {
                    let (base, k) = try superReference(property)
                    let cur = temp()
                    emit(.getSuperValue, cur, base, k)
                    try emitBinary(binop, r, cur, value)
                    emit(.setSuperValue, base, k, r)
                    return r
                }
                if try callAssignmentTarget(t) { return r }
                guard case .member(let object, let property, _) = t.kind else { throw error("invalid assignment target", span.start) }
                var o = try expression(object, into: nil)
                if bindingRegisters.contains(o) && (mayAssignLocals(value) || (property.computedExpression.map(mayAssignLocals) ?? false)) {
                    let c = temp()
                    emit(.mov, c, o)
                    o = c
                }
                let k = try readModifyWriteKey(o, property)
                let cur = temp()
                emitGetKeyed(cur, o, k, property)
                try emitBinary(binop, r, cur, value)
                emitSetKeyed(o, k, r, property)
                return r
            default:
                throw error("invalid assignment target", span.start)
            }
        }
    }

    func emitCheckTDZ(_ reg: Int, _ name: String) {
        tdzCheckedRegisters.insert(reg)
        emit(.checkTDZ, reg, atom(name))
    }

    /// `dst = left op right`, with `right` compiled here: `+ k` and `- k` for an integer
    /// literal `k` take it as an immediate.
    func emitBinary(_ op: BinaryOp, _ dst: Int, _ left: Int, _ right: Expr) throws(CompileError) {
        if op == .add || op == .sub, let k = int32Literal(right) {
            emit(op == .add ? .addImm : .subImm, dst, left, k)
            return
        }
        let v = try expression(right, into: nil)
        emit(binaryOpcode(op), dst, left, v)
    }

    /// `object.key = value` / `object[key] = value`; the value is compiled after the target.
    func assignMember(_ t: Expr, into dst: Int?, valueMayAssignLocals: Bool,
                      value: (FunctionCompiler) throws(CompileError) -> Int) throws(CompileError) -> Int {
        if case .superMember(let property) = t.kind {
            let (base, k) = try superReference(property)
            let v = try value(self)
            mark(t.span.start)
            emit(.setSuperValue, base, k, v)
            if let d = dst, d != v { emit(.mov, d, v); return d }
            return v
        }
        if try callAssignmentTarget(t) { return dst ?? temp() }
        guard case .member(let object, let property, _) = t.kind else {
            throw error("invalid assignment target", t.span.start)
        }
        // The object where it already is (a local, `this`), unless the key or the value
        // could reassign that local before the store reads it.
        var o = try expression(object, into: nil)
        if bindingRegisters.contains(o) && (valueMayAssignLocals || (property.computedExpression.map(mayAssignLocals) ?? false)) {
            let t = temp()
            emit(.mov, t, o)
            o = t
        }
        switch property {
        case .name(let n):
            let v = try value(self)
            mark(t.span.start)
            emit(code.isStrict ? .setPropStrict : .setProp, o, atom(n), v, newIC())
            if let d = dst, d != v { emit(.mov, d, v); return d }
            return v
        case .computed(let keyExpr):
            // The key is converted by the store itself, after the value is evaluated
            // (PutValue does ToPropertyKey).
            var k = try expression(keyExpr, into: nil)
            if bindingRegisters.contains(k) && valueMayAssignLocals {
                let c = temp()
                emit(.mov, c, k)
                k = c
            }
            let v = try value(self)
            mark(t.span.start)
            emit(code.isStrict ? .setElemStrict : .setElem, o, k, v)
            if let d = dst, d != v { emit(.mov, d, v); return d }
            return v
        default:
            let k = try propertyKeyRegister(property)
            let v = try value(self)
            mark(t.span.start)
            emitSetKeyed(o, k, v, property)
            if let d = dst, d != v { emit(.mov, d, v); return d }
            return v
        }
    }

    /// After a `yield`: mode 0 (next) continues with the value sent in; mode 1 (throw)
    /// throws it; mode 2 (return) returns it, running enclosing finally blocks.
    func emitResumeDispatch(_ pair: Int, isAwait: Bool = false) {
        let t = temp(), cmp = temp()
        emit(.loadInt, t, 0)
        emit(.strictEq, cmp, pair + 1, t)
        let next = emitJump(.jumpIfTrue, cmp)
        if isAwait {
            // An await resumes with next (fulfilled) or throw (rejected).
            emit(.throw, pair)
            patch(next)
            return
        }
        emit(.loadInt, t, 1)
        emit(.strictEq, cmp, pair + 1, t)
        let notThrow = emitJump(.jumpIfFalse, cmp)
        emit(.throw, pair)
        patch(notThrow)
        if code.isAsync && code.isGenerator, let g = generatorRegister {
            // A return request in an async generator awaits its value first.
            emit(.await, pair, pair, g)
            emitResumeDispatch(pair, isAwait: true)
        }
        emitReturn(pair)
        patch(next)
    }

    // MARK: - Patterns

    /// Binds a declaration's pattern (let/const/var/parameters/catch) to a value.
    func bindPattern(_ p: Pattern, valueRegister v: Int, initialize: Bool) throws(CompileError) {
        try checkStack(p.span.start)
        switch p.kind {
        case .identifier(let name):
            try storeName(name, v, initialize: initialize, offset: p.span.start)
        case .withDefault(let target, let d):
            let r = temp()
            emit(.mov, r, v)
            let skip = emitJump(.jumpIfNotUndefined, r)
            var name: String? = nil
            if case .identifier(let n) = target.kind { name = n }
            _ = try expression(d, into: r, inferredName: name)
            patch(skip)
            try bindPattern(target, valueRegister: r, initialize: initialize)
        case .object(let props, let rest):
            let check = temp()
            emit(.toObject, check, v)
            // With a rest element, the keys are kept (as property keys) to exclude them.
            let keys = rest != nil ? temps(props.count) : -1
            for (i, prop) in props.enumerated() {
                let m = nextRegister
                let k = try propertyKeyRegister(prop.key)
                if rest != nil { emit(.toPropertyKey, keys + i, k) }
                let r = temp()
                emit(.getElem, r, v, k)
                try bindPattern(prop.value, valueRegister: r, initialize: initialize)
                nextRegister = m
            }
            if let rest {
                let obj = temp()
                emit(.newObject, obj)
                emit(.copyDataProperties, obj, v, keys, props.count)
                try bindPattern(rest, valueRegister: obj, initialize: initialize)
            }
        case .array(let elements, let rest):
            try arrayPattern(elements, rest: rest, value: v, initialize: initialize)
        case .expression(let e):
            _ = try assignMember(e, into: nil, valueMayAssignLocals: false) { _ in v }
        }
    }

    /// Array destructuring: GetIterator, one IteratorStep per element (holes too), the rest
    /// into a new array, and IteratorClose when the pattern did not exhaust the iterator,
    /// also when binding an element throws.
    func arrayPattern(_ elements: [Pattern?], rest: Pattern?, value v: Int, initialize: Bool) throws(CompileError) {
        let rec = temps(3)
        emit(.getIterator, rec, v)
        let start = pc
        let depth = environmentDepth
        // A `return` while the pattern runs (a generator resumed with return at a `yield`
        // in a target or default) closes the iterator, as a finally block would.
        let f = FinallyContext(kindRegister: temp(), valueRegister: temp(), scopeDepth: environmentDepth, jumpDepth: jumps.count)
        finallies.append(f)
        for element in elements {
            let m = nextRegister
            var target = element
            var defaultValue: Expr? = nil
            if let e = element, case .withDefault(let t, let d) = e.kind { target = t; defaultValue = d }
            // A member target's object and key are evaluated before the step.
            let member = try preEvaluatedMemberTarget(target)
            let r = temp()
            let done = emitJump(.iteratorNext, r, rec)
            let over = emitJump(.jmp)
            patch(done)
            emit(.loadUndefined, r)
            patch(over)
            if let t = target {
                if let d = defaultValue {
                    let skip = emitJump(.jumpIfNotUndefined, r)
                    var name: String? = nil
                    if case .identifier(let n) = t.kind { name = n }
                    _ = try expression(d, into: r, inferredName: name)
                    patch(skip)
                }
                if let member { storePreEvaluatedMember(member, r) } else { try bindPattern(t, valueRegister: r, initialize: initialize) }
            }
            nextRegister = m
        }
        if let rest {
            let m = nextRegister
            let member = try preEvaluatedMemberTarget(rest)
            let r = temp()
            emit(.iteratorValue, r, rec)
            if let member { storePreEvaluatedMember(member, r) } else { try bindPattern(rest, valueRegister: r, initialize: initialize) }
            nextRegister = m
        }
        finallies.removeLast()
        let end = pc
        emit(.iteratorClose, rec, 0)
        let over = emitJump(.jmp)
        if !f.exits.isEmpty {
            // return: close the iterator (its errors win), then continue the return.
            for j in f.entryJumps { patch(j) }
            emit(.iteratorClose, rec, 0)
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
        // An exception while binding closes the iterator (unless the iterator itself threw).
        code.handlers.append(Handler(start: Int32(start), end: Int32(end), target: Int32(pc), scopeDepth: Int32(depth)))
        let ex = temp()
        emit(.loadException, ex)
        emit(.iteratorClose, rec, 1)
        emit(.throw, ex)
        patch(over)
    }

    /// An assignment pattern's member-expression target (`o.p`, `o[k]`): its object and key
    /// evaluated now (the reference), for a store after the iterator step.
    func preEvaluatedMemberTarget(_ t: Pattern?) throws(CompileError) -> (object: Int, key: Int, property: PropertyKey)? {
        guard let t, case .expression(let e) = t.kind, case .member(let object, let property, let optional) = e.kind, !optional else { return nil }
        let o = temp()
        _ = try expression(object, into: o)
        switch property {
        case .name: return (o, -1, property)
        case .computed(let k):
            let kr = temp()
            _ = try expression(k, into: kr)
            return (o, kr, property)
        default:
            return (o, try propertyKeyRegister(property), property)
        }
    }

    func storePreEvaluatedMember(_ m: (object: Int, key: Int, property: PropertyKey), _ v: Int) {
        switch m.property {
        case .name(let n): emit(code.isStrict ? .setPropStrict : .setProp, m.object, atom(n), v, newIC())
        case .computed: emit(code.isStrict ? .setElemStrict : .setElem, m.object, m.key, v)
        default: emitSetKeyed(m.object, m.key, v, m.property)
        }
    }

    /// Assigns to an assignment pattern (destructuring assignment, for-in/of targets).
    func assignPattern(_ p: Pattern, valueRegister v: Int) throws(CompileError) {
        try checkStack(p.span.start)
        switch p.kind {
        case .identifier(let name):
            try storeName(name, v, initialize: false, offset: p.span.start)
        default:
            try bindPattern(p, valueRegister: v, initialize: false)
        }
    }

    // MARK: - Classes

    /// An instance element run by the class's initializer on each new instance, in order:
    /// private methods and accessors first, then fields (InitializeInstanceElements).
    enum InstanceElement {
        case privateMethod(name: String, kind: PropertyKind)
        /// A field; `slot` names the class-scope binding holding a computed key.
        case field(key: PropertyKey, computedKeyBinding: String?, initializer: FunctionNode?)
    }

    func classExpression(_ c: ClassNode, inferredName: String? = nil) throws(CompileError) -> Int {
        try checkStack(c.span.start)
        let result = temp()
        let mark = nextRegister
        // Private names ("#x" bindings holding a fresh symbol per class evaluation), the
        // closures of private methods and accessors, and computed field keys live in the
        // class scope's environment, where methods and initializers reach them.
        var extraNames: [String] = []
        var privateNames: [String] = []
        var computedKeyCount = 0
        for m in c.members {
            switch m {
            case .method(.privateName(let n), _, let kind, _):
                if !privateNames.contains(n) { privateNames.append(n) }
                extraNames.append("#\(n):\(kind)")
            case .field(.privateName(let n), _, _):
                if !privateNames.contains(n) { privateNames.append(n) }
            case .field(.computed, _, _):
                extraNames.append("%key\(computedKeyCount)")
                computedKeyCount += 1
            default: break
            }
        }
        extraNames = privateNames.map { "#" + $0 } + extraNames
        enterScope(c.scope, extraNames: extraNames)
        for n in privateNames {
            let r = temp()
            emit(.newPrivateName, r, stringConstant(Array(("#" + n).utf16)))
            try storeName("#" + n, r, initialize: true, offset: c.span.start)
            nextRegister -= 1
        }
        // Heritage (evaluated in the class scope, with the inner name in TDZ).
        var heritage = -1
        if let h = c.superClass {
            heritage = try expression(h, into: temp())
        }
        // The constructor.
        let ctorCode: CodeBlock
        if let ctor = c.constructor {
            ctorCode = try compileFunction(ctor)
        } else {
            ctorCode = CodeBlock(name: "", span: c.span)
            ctorCode.source = source
            ctorCode.kind = c.superClass != nil ? .derivedConstructor : .classConstructor
            ctorCode.isStrict = true
            ctorCode.isDefaultDerivedConstructor = c.superClass != nil
            let fc = FunctionCompiler(code: ctorCode, parent: self, function: nil, source: source)
            fc.finish()
        }
        ctorCode.name = c.name ?? inferredName ?? ""
        ctorCode.span = c.span
        let f = temps(2)            // f: constructor, f + 1: prototype
        emit(.newClass, f, constant(.function(ctorCode)), heritage)
        var instanceElements: [InstanceElement] = []
        var statics: [ClassMember] = []
        var staticComputedKeys: [Int: String] = [:]
        var computedIndex = 0
        for (index, m) in c.members.enumerated() {
            let m2 = nextRegister
            switch m {
            case .method(.privateName(let n), let fn, let kind, let isStatic):
                let code = try compileFunction(fn)
                code.name = (kind == .getter ? "get " : kind == .setter ? "set " : "") + "#" + n
                let fr = temp()
                emit(.newClosure, fr, constant(.function(code)))
                emit(.setHomeObject, fr, isStatic ? f : f + 1)
                if isStatic {
                    statics.append(m)
                }
                try storeName("#\(n):\(kind)", fr, initialize: true, offset: fn.span.start)
                if !isStatic { instanceElements.append(.privateMethod(name: n, kind: kind)) }
            case .method(let key, let fn, let kind, let isStatic):
                let k = try propertyKeyRegister(key)
                let code = try compileFunction(fn)
                if code.name.isEmpty, let n = keyName(key) { code.name = n }
                let fr = temp()
                emit(.newClosure, fr, constant(.function(code)))
                let target = isStatic ? f : f + 1
                switch kind {
                case .initialize: emit(.defineMethod, target, k, fr, 0)
                case .getter: emit(.defineGetter, target, k, fr, 0)
                case .setter: emit(.defineSetter, target, k, fr, 0)
                }
            case .field(let key, let initializer, let isStatic):
                var binding: String? = nil
                if case .computed = key {
                    // Computed keys are evaluated once, in order, at class definition.
                    binding = "%key\(computedIndex)"
                    computedIndex += 1
                    let k = try propertyKeyRegister(key)
                    try storeName(binding!, k, initialize: true, offset: c.span.start)
                }
                if isStatic {
                    statics.append(m)
                    if let b = binding { staticComputedKeys[index] = b }
                } else {
                    instanceElements.append(.field(key: key, computedKeyBinding: binding, initializer: initializer))
                }
            case .staticBlock:
                statics.append(m)
            }
            nextRegister = m2
        }
        if !instanceElements.isEmpty {
            let code = try compileFieldInitializer(instanceElements, span: c.span)
            let fr = temp()
            emit(.newClosure, fr, constant(.function(code)))
            emit(.setClassFields, f, fr)
        }
        // Bind the inner name before static elements run.
        if let name = c.name, c.scope.binding(named: name) != nil {
            try storeName(name, f, initialize: true, offset: c.span.start)
        }
        // Static private methods and accessors first, then static fields and blocks in order.
        for m in statics {
            guard case .method(.privateName(let n), _, let kind, _) = m else { continue }
            let m2 = nextRegister
            let k = try propertyKeyRegister(.privateName(n))
            let fr = try loadName("#\(n):\(kind)", offset: c.span.start)
            emit(.definePrivate, f, k, fr, kind == .getter ? 2 : kind == .setter ? 3 : 1)
            nextRegister = m2
        }
        for (index, m) in c.members.enumerated() {
            let m2 = nextRegister
            switch m {
            case .field(let key, let initializer, true):
                let value = temp()
                if let fn = initializer {
                    let code = try compileFunction(fn)
                    if code.name.isEmpty, let n = keyName(key) { code.name = n }
                    if case .privateName(let n) = key { code.name = "#" + n }
                    let fr = temp()
                    emit(.newClosure, fr, constant(.function(code)))
                    emit(.call, value, fr, f, 0, 0)
                } else {
                    emit(.loadUndefined, value)
                }
                if case .privateName = key {
                    let k = try propertyKeyRegister(key)
                    emit(.definePrivate, f, k, value, 0)
                } else if let b = staticComputedKeys[index] {
                    let k = try loadName(b, offset: c.span.start)
                    emit(.defineField, f, k, value)
                } else {
                    let k = try propertyKeyRegister(key)
                    emit(.defineField, f, k, value)
                }
            case .staticBlock(let fn):
                let code = try compileFunction(fn)
                let fr = temp()
                emit(.newClosure, fr, constant(.function(code)))
                let ignored = temp()
                emit(.call, ignored, fr, f, 0, 0)
            default:
                break
            }
            nextRegister = m2
        }
        emit(.mov, result, f)
        exitScope()
        nextRegister = mark
        return result
    }

    /// One method-like function that adds every instance element to `this`, in order.
    func compileFieldInitializer(_ elements: [InstanceElement], span: Span) throws(CompileError) -> CodeBlock {
        let code = CodeBlock(name: "<instance fields>", span: span)
        code.source = source
        code.kind = .method
        code.isStrict = true
        let fc = FunctionCompiler(code: code, parent: self, function: nil, source: source)
        for element in elements {
            let m = fc.nextRegister
            switch element {
            case .privateMethod(let n, let kind):
                let t = fc.temp()
                fc.emit(.loadThis, t)
                let k = try fc.propertyKeyRegister(.privateName(n))
                let fr = try fc.loadName("#\(n):\(kind)", offset: span.start)
                fc.emit(.definePrivate, t, k, fr, kind == .getter ? 2 : kind == .setter ? 3 : 1)
            case .field(let key, let computedKeyBinding, let initializer):
                let v = fc.temp()
                if let fn = initializer, let e = fn.expressionBody {
                    fc.enterScope(fn.scope)
                    var name = fc.keyName(key)
                    if case .privateName(let n) = key { name = "#" + n }
                    _ = try fc.expression(e, into: v, inferredName: name)
                    fc.exitScope()
                } else {
                    fc.emit(.loadUndefined, v)
                }
                let t = fc.temp()
                fc.emit(.loadThis, t)
                if case .privateName = key {
                    let k = try fc.propertyKeyRegister(key)
                    fc.emit(.definePrivate, t, k, v, 0)
                } else if let b = computedKeyBinding {
                    let k = try fc.loadName(b, offset: span.start)
                    fc.emit(.defineField, t, k, v)
                } else {
                    let k = try fc.propertyKeyRegister(key)
                    fc.emit(.defineField, t, k, v)
                }
            }
            fc.nextRegister = m
        }
        fc.finish()
        return code
    }
}

extension PropertyKey {
    /// The key expression of a computed key.
    var computedExpression: Expr? {
        if case .computed(let e) = self { return e }
        return nil
    }
}
