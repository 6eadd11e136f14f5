// Direct and indirect eval (PerformEval, EvalDeclarationInstantiation), `with` object
// environments, and the dynamic name lookups both need.
// https://tc39.es/ecma262/#sec-performeval
//
// Environment layouts: an environment's layout word names its slots. For a block scope
// it is the CodeData pointer | (constant index + 1) << 48 (the `.scopeNames` constant of
// its pushScope); for a function environment the CodeData pointer | 0xFFFF << 48 (the
// code's `functionScopeNames`); `Runtime.withLayout` marks an object environment (slot 0:
// the object); 0 means no names (e.g. an arrow's captured-this cell).

import JSSyntax
import JSBytecode
import JSBytecompiler

/// The decoded slot names of an environment layout.
final class ScopeLayout {
    var index: [String: Int] = [:]
    /// Per slot: 0 var-like, 1 mutable lexical, 2 const, 3 a function expression's name.
    var kinds: [UInt8] = []
    /// The slot holding the object of eval-declared vars (sloppy functions with direct eval), or -1.
    var evalVarsSlot = -1
    /// The eval-var slot belongs to the parameter scope of a function with parameter expressions.
    var isParameterScope = false

    init(_ names: [String]) {
        for (i, n) in names.enumerated() {
            if n == Compiler.evalVarsSlotName || n == Compiler.evalVarsParameterSlotName {
                evalVarsSlot = i
                isParameterScope = n == Compiler.evalVarsParameterSlotName
                kinds.append(0)
                continue
            }
            var kind: UInt8 = 0
            var name = n
            if let f = n.unicodeScalars.first, f.value >= 1 && f.value <= 3 {
                kind = UInt8(f.value)
                name = String(String.UnicodeScalarView(n.unicodeScalars.dropFirst()))
            }
            kinds.append(kind)
            if index[name] == nil { index[name] = i }
        }
    }
}

/// Where a dynamically resolved name lives.
enum DynamicBinding {
    case slot(Environment, Int, UInt8)
    /// A property of a `with` object (isWith) or of a function's eval-var object.
    case object(JSObject, isWith: Bool)
    case global
}

extension CodeData {
    @inline(__always) func layoutWord(_ tag: Int) -> UInt64 {
        UInt64(UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque())) | (UInt64(tag) << 48)
    }
}

extension Runtime {
    static let withLayout: UInt64 = 1
    static let functionLayoutTag = 0xFFFF

    func scopeLayout(_ word: UInt64) -> ScopeLayout? {
        if word <= 1 { return nil }
        guard let p = UnsafeRawPointer(bitPattern: UInt(word & 0xFFFF_FFFF_FFFF)) else { return nil }
        let data = Unmanaged<CodeData>.fromOpaque(p).takeUnretainedValue()
        let tag = Int(word >> 48)
        if let l = data.layouts[tag] { return l }
        var names: [String] = []
        if tag == Runtime.functionLayoutTag {
            names = data.code.functionScopeNames
        } else if tag >= 1, tag - 1 < data.code.constants.count, case .scopeNames(let n) = data.code.constants[tag - 1] {
            names = n
        }
        let l = ScopeLayout(names)
        data.layouts[tag] = l
        return l
    }

    /// ResolveBinding by name from `start` through the environment chain.
    func resolveDynamic(_ start: UnsafeMutableRawPointer?, _ a: UnsafeMutableRawPointer) throws(JSException) -> DynamicBinding {
        let name = StringCell(a).swiftString
        let k = Key.named(PropertyKey(cell: a))
        var e = start
        while let c = e {
            let env = Environment(c)
            let w = env.layout
            if w == Runtime.withLayout {
                let objV = env.slots[0]
                let obj = JSObject(objV)
                if try hasProperty(obj, k) {
                    let u = try get(obj, symbolKey(wellKnown.unscopables), receiver: objV)
                    var blocked = false
                    if isObject(u) { blocked = toBoolean(try get(JSObject(u), k, receiver: u)) }
                    if !blocked {
                        return .object(obj, isWith: true)
                    }
                }
            } else if let layout = scopeLayout(w) {
                if let i = layout.index[name] { return .slot(env, i, layout.kinds[i]) }
                if layout.evalVarsSlot >= 0, isObject(env.slots[layout.evalVarsSlot]) {
                    let o = JSObject(env.slots[layout.evalVarsSlot])
                    if try getOwnProperty(o, k) != nil { return .object(o, isWith: false) }
                }
            }
            e = env.parent
        }
        return .global
    }

    func getDynamic(_ env: UnsafeMutableRawPointer?, _ a: UnsafeMutableRawPointer, strict: Bool) throws(JSException) -> (Value, Value) {
        switch try resolveDynamic(env, a) {
        case .slot(let e, let i, _):
            let v = e.slots[i]
            if v.isEmpty { throw try referenceError("Cannot access '\(StringCell(a).swiftString)' before initialization") }
            return (v, .undefined)
        case .object(let o, let isWith):
            let k = Key.named(PropertyKey(cell: a))
            if isWith, !(try hasProperty(o, k)) {
                if strict { throw try referenceError("\(StringCell(a).swiftString) is not defined") }
                return (.undefined, Value(cell: o.cell))
            }
            let v = try get(o, k, receiver: Value(cell: o.cell))
            return (v, isWith ? Value(cell: o.cell) : .undefined)
        case .global:
            guard let v = try lookupGlobal(a) else { throw try referenceError("\(StringCell(a).swiftString) is not defined") }
            return (v, .undefined)
        }
    }

    func setDynamic(_ env: UnsafeMutableRawPointer?, _ a: UnsafeMutableRawPointer, _ value: Value, strict: Bool) throws(JSException) {
        let k = Key.named(PropertyKey(cell: a))
        switch try resolveDynamic(env, a) {
        case .slot(let e, let i, let kind):
            if e.slots[i].isEmpty { throw try referenceError("Cannot access '\(StringCell(a).swiftString)' before initialization") }
            if kind == 2 || (kind == 3 && strict) { throw try typeError("Assignment to constant variable '\(StringCell(a).swiftString)'.") }
            if kind == 3 { return }
            e.slots[i] = value
        case .object(let o, let isWith):
            if isWith, strict, !(try hasProperty(o, k)) { throw try referenceError("\(StringCell(a).swiftString) is not defined") }
            if !(try set(o, k, value, receiver: Value(cell: o.cell))) && strict {
                throw try typeError("Cannot assign to read only property '\(StringCell(a).swiftString)' of object")
            }
        case .global:
            try setGlobalByName(a, value, strict: strict)
        }
    }

    func setGlobalByName(_ a: UnsafeMutableRawPointer, _ value: Value, strict: Bool) throws(JSException) {
        if let i = realm.lexicalIndex[a] {
            if realm.lexicalValues[i].isEmpty {
                throw try referenceError("Cannot access '\(StringCell(a).swiftString)' before initialization")
            }
            if realm.lexicalIsConst[i] { throw try typeError("Assignment to constant variable '\(StringCell(a).swiftString)'.") }
            realm.lexicalValues[i] = value
            return
        }
        let g = realm.global!
        let k = Key.named(PropertyKey(cell: a))
        if strict, !(try hasProperty(g, k)) { throw try referenceError("\(StringCell(a).swiftString) is not defined") }
        if !(try set(g, k, value, receiver: Value(cell: g.cell))) && strict {
            throw try typeError("Cannot assign to read only property '\(StringCell(a).swiftString)' of object")
        }
    }

    func typeOfDynamic(_ env: UnsafeMutableRawPointer?, _ a: UnsafeMutableRawPointer) throws(JSException) -> Value {
        if case .global = try resolveDynamic(env, a) {
            if let v = try lookupGlobal(a) { return try typeOf(v) }
            return Value(cell: atom(static: "undefined"))
        }
        return try typeOf(try getDynamic(env, a, strict: false).0)
    }

    func deleteDynamic(_ env: UnsafeMutableRawPointer?, _ a: UnsafeMutableRawPointer) throws(JSException) -> Bool {
        let k = Key.named(PropertyKey(cell: a))
        switch try resolveDynamic(env, a) {
        case .slot: return false
        case .object(let o, _): return try deleteProperty(o, k)
        case .global:
            if realm.lexicalIndex[a] != nil { return false }
            let r = try deleteProperty(realm.global, k)
            if r { protoEpoch &+= 1 }
            return r
        }
    }

    /// The variable environment of sloppy eval code run with lexical environment `env`:
    /// the nearest function environment with an eval-var slot (nil: the global object).
    func evalVarEnvironment(_ env: UnsafeMutableRawPointer?) -> (Environment, ScopeLayout)? {
        var e = env
        while let c = e {
            let en = Environment(c)
            if let l = scopeLayout(en.layout), l.evalVarsSlot >= 0 { return (en, l) }
            e = en.parent
        }
        return nil
    }

    func evalVarsObject(_ env: Environment, _ layout: ScopeLayout) throws(JSException) -> JSObject {
        let v = env.slots[layout.evalVarsSlot]
        if isObject(v) { return JSObject(v) }
        let o = try newObject(prototypeValue: .null)
        env.slots[layout.evalVarsSlot] = Value(cell: o.cell)
        return o
    }

    /// `initEvalVar`: a sloppy eval's function declaration, bound in the variable environment.
    func initEvalVar(_ env: UnsafeMutableRawPointer?, _ a: UnsafeMutableRawPointer, _ value: Value) throws(JSException) {
        let k = Key.named(PropertyKey(cell: a))
        if let (en, l) = evalVarEnvironment(env) {
            if let i = l.index[StringCell(a).swiftString], l.kinds[i] == 0 { en.slots[i] = value; return }
            let o = try evalVarsObject(en, l)
            _ = try defineOwnProperty(o, k, .data(value, [.writable, .enumerable, .configurable]))
            return
        }
        let g = realm.global!
        if let existing = try getOwnProperty(g, k), !existing.attributes.contains(.configurable) {
            _ = try set(g, k, value, receiver: Value(cell: g.cell))
        } else {
            _ = try defineOwnProperty(g, k, .data(value, [.writable, .enumerable, .configurable]))
        }
        protoEpoch &+= 1
    }

    /// `setEvalVar` (Annex B.3.3.3): a block-level function's value, assigned when its
    /// declaration is evaluated to the binding of the same name in the eval's variable
    /// environment (SetMutableBinding, not a redefinition).
    func setEvalVar(_ env: UnsafeMutableRawPointer?, _ a: UnsafeMutableRawPointer, _ value: Value) throws(JSException) {
        if let (en, l) = evalVarEnvironment(env) {
            if let i = l.index[StringCell(a).swiftString], l.kinds[i] == 0 { en.slots[i] = value; return }
            let o = try evalVarsObject(en, l)
            _ = try set(o, Key.named(PropertyKey(cell: a)), value, receiver: Value(cell: o.cell))
            return
        }
        try setGlobalByName(a, value, strict: false)
    }

    /// Annex B.3.3.3: which of the eval code's block-level function names (those without a
    /// `var` or top-level function declaration of their own) do not get a var binding,
    /// because a lexical binding of the name lies between the eval and its variable
    /// environment, or (at global level) a global lexical declaration has the name or the
    /// global object cannot take a new property.
    func skippedEvalAnnexBNames(_ names: [String], env: UnsafeMutableRawPointer?) throws(JSException) -> Set<String> {
        var skipped: Set<String> = []
        if names.isEmpty { return skipped }
        var e = env
        while let c = e {
            let en = Environment(c)
            if let l = scopeLayout(en.layout) {
                if l.evalVarsSlot >= 0 {
                    // The function environment: its lexical names (kinds != 0) are in the
                    // function's lexical environment, below the variable environment; in a
                    // parameter scope, every name is.
                    for n in names { if let i = l.index[n], l.isParameterScope || l.kinds[i] != 0 { skipped.insert(n) } }
                    return skipped
                }
                for n in names where l.index[n] != nil { skipped.insert(n) }
            }
            e = en.parent
        }
        let g = realm.global!
        for n in names where !skipped.contains(n) {
            let a = atom(n)
            if realm.lexicalIndex[a] != nil { skipped.insert(n); continue }
            if try getOwnProperty(g, Key.named(PropertyKey(cell: a))) == nil && !g.isExtensible { skipped.insert(n) }
        }
        return skipped
    }

    /// EvalDeclarationInstantiation for sloppy eval code: conflict checks, then the var
    /// bindings (function values are set by the code's `initEvalVar`s).
    func evalDeclarationInstantiation(_ code: CodeBlock, env: UnsafeMutableRawPointer?) throws(JSException) {
        let names = code.evalFunctionNames + code.evalVarNames
        if names.isEmpty { return }
        func redeclared(_ n: String) throws(JSException) -> JSException {
            try makeError(.syntaxError, "Identifier '\(n)' has already been declared")
        }
        var e = env
        var varEnv: (Environment, ScopeLayout)? = nil
        while let c = e {
            let en = Environment(c)
            if let l = scopeLayout(en.layout) {
                for n in names { if let i = l.index[n], l.kinds[i] != 0 { throw try redeclared(n) } }
                if l.evalVarsSlot >= 0 { varEnv = (en, l); break }
            }
            e = en.parent
        }
        if let (en, l) = varEnv {
            // Eval in parameter expressions: the parameters (and a non-arrow function's
            // `arguments`) are in an environment between the eval and its variable environment.
            if l.isParameterScope { for n in names where l.index[n] != nil { throw try redeclared(n) } }
            for n in names where l.index[n] == nil {
                let o = try evalVarsObject(en, l)
                let k = Key.named(PropertyKey(cell: atom(n)))
                if try getOwnProperty(o, k) == nil {
                    _ = try defineOwnProperty(o, k, .data(.undefined, [.writable, .enumerable, .configurable]))
                }
            }
            return
        }
        let g = realm.global!
        for n in names where realm.lexicalIndex[atom(n)] != nil { throw try redeclared(n) }
        for n in code.evalFunctionNames {
            let k = Key.named(PropertyKey(cell: atom(n)))
            if let p = try getOwnProperty(g, k) {
                if p.attributes.contains(.configurable) { continue }
                if case .data(_, let attrs) = p, attrs.contains(.writable) && attrs.contains(.enumerable) { continue }
                throw try typeError("Cannot declare global function '\(n)'")
            } else if !g.isExtensible {
                throw try typeError("Cannot declare global function '\(n)'")
            }
        }
        for n in code.evalVarNames {
            let k = Key.named(PropertyKey(cell: atom(n)))
            if try getOwnProperty(g, k) == nil && !g.isExtensible { throw try typeError("Cannot declare global variable '\(n)'") }
        }
        for n in code.evalVarNames {
            let k = Key.named(PropertyKey(cell: atom(n)))
            if try getOwnProperty(g, k) == nil {
                _ = try defineOwnProperty(g, k, .data(.undefined, [.writable, .enumerable, .configurable]))
                protoEpoch &+= 1
            }
        }
    }

    /// PerformEval. `caller` is the frame of a direct eval (nil: indirect, global scope).
    func performEval(_ x: Value, caller: Frame?) throws(JSException) -> Value {
        guard isString(x) else { return x }
        let text = try string(x)
        let source = SourceFile(name: "eval", bytes: Array(text.utf8))
        var options = ParseOptions(strict: false)
        var callerStrict = false
        if let f = caller {
            let code = f.data.takeUnretainedValue().code
            callerStrict = code.isStrict
            options.strict = callerStrict
            options.allowNewTarget = code.allowsNewTarget
            options.allowSuperProperty = !f.home.isUndefined
            options.allowSuperCall = code.kind == .derivedConstructor
        }
        let program: Program
        do {
            program = try parseScript(source, options: options)
        } catch {
            throw try makeError(error.kind == .rangeError ? .rangeError : .syntaxError, error.message)
        }
        let strict = callerStrict || program.isStrict
        let skipped = strict ? [] : try skippedEvalAnnexBNames(program.scope.annexBOnlyVarNames, env: caller?.env)
        let code: CodeBlock
        do {
            code = try Compiler.compileEval(program, strict: strict, allowsNewTarget: options.allowNewTarget,
                                            skippedAnnexBNames: skipped)
        } catch {
            throw try makeError(error.isRangeError ? .rangeError : .syntaxError, error.message)
        }
        let env = caller?.env
        if !strict { try evalDeclarationInstantiation(code, env: env) }
        if nativeDepth >= Runtime.maxNativeDepth { throw try rangeError("Maximum call stack size exceeded") }
        nativeDepth += 1
        defer { nativeDepth -= 1 }
        let data = codeData(code)
        let base = frames.last.map { $0.top } ?? registers
        let top = base + code.registerCount
        if top >= registers + Runtime.registerFileSize || frames.count >= FrameStack.capacity - 1 {
            throw try rangeError("Maximum call stack size exceeded")
        }
        for i in 0..<code.registerCount { base[i] = .undefined }
        let g = Value(cell: realm.global.cell)
        frames.append(Frame(data: Unmanaged.passUnretained(data), pc: 0, base: base, top: top, argc: caller?.argc ?? 0,
                            this: caller?.this ?? g, callee: caller?.callee ?? .undefined,
                            newTarget: caller?.newTarget ?? .undefined,
                            env: env, envDepth: 0, returnRegister: -1, isConstruct: false, exception: .undefined,
                            home: caller?.home ?? .undefined))
        return try run(entryDepth: frames.count - 1)
    }

    func installEval() throws(JSException) {
        let f = try method(realm.global, "eval", 1) { rt, _, args, _ throws(JSException) in
            try rt.performEval(rt.arg(args, 0), caller: nil)
        }
        realm.evalFunction = f
    }
}
