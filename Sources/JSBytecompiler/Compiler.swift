// The bytecode compiler: AST (with the front end's scope analysis) -> CodeBlocks.
//
// Register allocation is a stack: parameters first, then every non-captured binding of
// the function (each gets a fixed register), then temporaries allocated and freed in
// LIFO order while compiling expressions. Captured bindings live in environment cells:
// one for the function scope (if any binding there is captured) and one per block
// scope that has captured bindings, pushed on entry and popped on exit.

import JSSyntax
import JSBytecode

/// A construct the compiler does not support yet (reported as a SyntaxError by the runtime).
public struct CompileError: Error, Sendable {
    public var message: String
    public var offset: Int
    /// Nesting too deep for the native stack: a RangeError, not a SyntaxError.
    public var isRangeError = false

    public init(message: String, offset: Int, isRangeError: Bool = false) {
        self.message = message
        self.offset = offset
        self.isRangeError = isRangeError
    }
}

public enum Compiler {
    /// Compiles a script. Top-level `var`/function declarations become global object
    /// properties, top-level lexical declarations global lexical bindings.
    public static func compileScript(_ program: Program) throws(CompileError) -> CodeBlock {
        let code = CodeBlock(name: "", span: Span(0, program.source.bytes.count))
        code.source = program.source
        code.isStrict = program.isStrict
        let fc = FunctionCompiler(code: code, parent: nil, function: nil, source: program.source)
        try fc.compileScript(program)
        return code
    }

    /// Compiles eval code (PerformEval). Names the code does not declare are resolved at
    /// run time through the caller's environment chain. In sloppy eval code, top-level
    /// `var`/function names become bindings of the caller's variable environment (the
    /// runtime instantiates them from `evalVarNames`/`evalFunctionNames` before running).
    /// `skippedAnnexBNames`: block-level function names that get no var binding (Annex B.3.3.3,
    /// decided by the runtime from the caller's environments).
    public static func compileEval(_ program: Program, strict: Bool, allowsNewTarget: Bool,
                                   skippedAnnexBNames: Set<String> = []) throws(CompileError) -> CodeBlock {
        let code = CodeBlock(name: "eval", span: Span(0, program.source.bytes.count))
        code.allowsNewTarget = allowsNewTarget
        code.source = program.source
        code.isStrict = strict
        let fc = FunctionCompiler(code: code, parent: nil, function: nil, source: program.source)
        fc.isEvalCode = true
        fc.skippedAnnexBNames = skippedAnnexBNames
        try fc.compileEvalCode(program)
        return code
    }

    /// The environment slot that holds a sloppy function's eval-declared vars (an object).
    public static let evalVarsSlotName = "%evalvars"
    /// The same, in the parameter scope of a function with parameter expressions.
    public static let evalVarsParameterSlotName = "%evalvars-params"

    /// Slot names carry the binding's kind as a prefix character (the runtime's dynamic
    /// lookups need it): none for var-like, \u{1} mutable lexical, \u{2} const,
    /// \u{3} a function expression's own name (immutable; sloppy writes are ignored).
    static func slotName(_ name: String, _ kind: BindingKind) -> String {
        switch kind {
        case .let, .class, .blockFunction: return "\u{1}" + name
        case .const, .classInnerName: return "\u{2}" + name
        case .functionName: return "\u{3}" + name
        default: return name
        }
    }
}

/// Where a name lives.
enum Location {
    case register(Int)
    /// `hops` environments up from the current one, slot `slot`.
    case environment(hops: Int, slot: Int)
    case global
    /// Resolved at run time by name (inside `with`, or free names of eval code).
    case dynamic
    /// A module's named import: slot `index` of the module's resolved import bindings.
    case importBinding(Int)
}

struct BindingInfo {
    var location: Location
    var kind: BindingKind
    /// Declared at this source offset (for the TDZ heuristic).
    var declarationEnd: Int32
}

/// One lexical scope at compile time.
final class CompileScope {
    let scope: Scope?
    /// Creates an environment cell at runtime.
    var hasEnvironment = false
    var environmentSize = 0
    var names: [String: BindingInfo] = [:]
    var slotNames: [String] = []
    /// Owning function compiler.
    unowned let owner: FunctionCompiler
    /// In a switch body (textual order does not imply initialization).
    var isSwitch = false
    /// Lexical bindings whose declaration has been compiled (later uses need no TDZ check).
    var initialized: Set<String> = []
    /// A `with` object environment: names beyond it resolve dynamically.
    var isWith = false
    init(scope: Scope?, owner: FunctionCompiler) { self.scope = scope; self.owner = owner }
}

/// A jump target for break/continue.
struct JumpContext {
    var labels: [String]
    var isLoop: Bool
    var isSwitchOrBlock: Bool
    var breakJumps: [Int] = []
    var continueJumps: [Int] = []
    /// Environments pushed at this point (popped by jumps out).
    var scopeDepth: Int
    /// Finally blocks entered at this point.
    var finallyDepth: Int
}

final class FunctionCompiler {
    let code: CodeBlock
    let parent: FunctionCompiler?
    let function: FunctionNode?
    let source: SourceFile
    var words: [Int32] = []
    var nextRegister = 0
    var maxRegister = 0
    var scopes: [CompileScope] = []
    /// Environments pushed inside this function right now.
    var environmentDepth = 0
    var jumps: [JumpContext] = []
    var constantIndex: [String: Int] = [:]
    var atomIndex: [[UInt16]: Int] = [:]
    var lastLineOffset: Int32 = -1
    var pendingLabels: [String] = []
    /// Active `finally` blocks, innermost last.
    var finallies: [FinallyContext] = []
    /// Enclosing `using` scopes, innermost last: the register of each one's resource list.
    var disposalLists: [(register: Int, isAsync: Bool)] = []
    /// Registers that hold bindings (not temporaries).
    var bindingRegisters: Set<Int> = []
    /// Generators: the register holding the generator object (set by `generatorStart`).
    var generatorRegister: Int?
    /// The register that holds `this` for the whole body (loaded once at entry) in functions
    /// whose `this` never changes (not arrows, not derived constructors).
    var thisRegister: Int?
    /// `loadEmpty` instructions that start a register binding's TDZ, and the registers
    /// whose TDZ some access checks (see `finish`).
    var tdzStarts: [(pc: Int, register: Int)] = []
    var tdzCheckedRegisters: Set<Int> = []
    /// Scripts: the register holding the completion value.
    var completionRegister: Int?
    /// Top-level eval code: free names resolve dynamically.
    var isEvalCode = false
    /// Eval code: block-level functions whose Annex B var binding is skipped.
    var skippedAnnexBNames: Set<String> = []
    /// A module body: its function declarations were hoisted by the module's
    /// initialization code, not by the body.
    var skipFunctionHoisting = false

    /// The native-stack limit of the walks (`StackGuard`; the compiler recurses over the tree).
    let stackLimit: UInt

    init(code: CodeBlock, parent: FunctionCompiler?, function: FunctionNode?, source: SourceFile) {
        self.code = code
        self.parent = parent
        self.function = function
        self.source = source
        self.stackLimit = parent?.stackLimit ?? StackGuard.limit()
    }

    /// Every recursive walk of the compiler calls this first.
    @inline(__always) func checkStack(_ offset: Int32) throws(CompileError) {
        if !StackGuard.hasRoom(stackLimit) {
            throw CompileError(message: "Maximum call stack size exceeded (nesting too deep)", offset: Int(offset), isRangeError: true)
        }
    }

    // MARK: - Emission

    func error(_ message: String, _ offset: Int32) -> CompileError {
        CompileError(message: message, offset: Int(offset))
    }

    @inline(__always) var pc: Int { words.count }

    /// Appends `op` and its operands; the count must match the opcode table (`Opcodes.def`).
    func emit(_ op: Opcode, _ operands: Int...) {
        precondition(operands.count == op.operands.count, "\(op) takes \(op.operands.count) operands, not \(operands.count)")
        words.append(Int32(op.rawValue))
        for o in operands { words.append(Int32(truncatingIfNeeded: o)) }
    }

    /// Emits a jump-carrying instruction; returns its start for `patch`.
    func emitJump(_ op: Opcode, _ operands: Int...) -> Int {
        precondition(operands.count + 1 == op.operands.count && op.operands.last == .jump, "\(op): operands do not match the opcode table")
        let start = pc
        words.append(Int32(op.rawValue))
        for o in operands { words.append(Int32(truncatingIfNeeded: o)) }
        words.append(0)
        return start
    }

    /// Points each of `jumps` here.
    func patch(_ jumps: [Int]) {
        for j in jumps { patch(j) }
    }

    /// Points the jump of the instruction at `at` to `target` (default: here).
    func patch(_ at: Int, to target: Int? = nil) {
        let op = Opcode(rawValue: UInt8(words[at]))!
        let jumpIndex = op.operands.firstIndex(of: .jump)!
        words[at + 1 + jumpIndex] = Int32(truncatingIfNeeded: (target ?? pc) - at)
    }

    func emitJump(_ op: Opcode, operands: [Int]) -> Int {
        precondition(operands.count + 1 == op.operands.count && op.operands.last == .jump, "\(op): operands do not match the opcode table")
        let start = pc
        words.append(Int32(op.rawValue))
        for o in operands { words.append(Int32(truncatingIfNeeded: o)) }
        words.append(0)
        return start
    }

    func emitJumpBack(_ op: Opcode, to target: Int, operands: [Int]) {
        precondition(operands.count + 1 == op.operands.count && op.operands.last == .jump, "\(op): operands do not match the opcode table")
        let start = pc
        words.append(Int32(op.rawValue))
        for o in operands { words.append(Int32(truncatingIfNeeded: o)) }
        words.append(Int32(truncatingIfNeeded: target - start))
    }

    func emitJumpBack(_ op: Opcode, to target: Int, _ operands: Int...) {
        let start = pc
        words.append(Int32(op.rawValue))
        for o in operands { words.append(Int32(truncatingIfNeeded: o)) }
        words.append(Int32(truncatingIfNeeded: target - start))
    }

    func mark(_ offset: Int32) {
        if offset != lastLineOffset && offset >= 0 {
            code.lineTable.append((Int32(pc), offset))
            lastLineOffset = offset
        }
    }

    func temp() -> Int {
        let r = nextRegister
        nextRegister += 1
        if nextRegister > maxRegister { maxRegister = nextRegister }
        return r
    }

    func temps(_ n: Int) -> Int {
        let r = nextRegister
        nextRegister += n
        if nextRegister > maxRegister { maxRegister = nextRegister }
        return r
    }

    func constant(_ c: Constant, key: String? = nil) -> Int {
        if let k = key, let i = constantIndex[k] { return i }
        code.constants.append(c)
        let i = code.constants.count - 1
        if let k = key { constantIndex[k] = i }
        return i
    }

    func numberConstant(_ d: Double) -> Int { constant(.number(d), key: "n\(d.bitPattern)") }
    func stringConstant(_ s: [UInt16]) -> Int { constant(.string(s), key: s.allSatisfy { $0 < 0x80 } ? "s" + String(decoding: s, as: UTF16.self) : "u" + s.map { String($0, radix: 16) }.joined(separator: ",")) }  // Swift String keys compare by canonical equivalence: non-ASCII keys use the code units

    func atom(_ s: String) -> Int { atom(Array(s.utf16)) }
    func atom(_ s: [UInt16]) -> Int {
        if let i = atomIndex[s] { return i }
        code.atoms.append(s)
        atomIndex[s] = code.atoms.count - 1
        return code.atoms.count - 1
    }

    func newIC() -> Int {
        code.inlineCacheCount += 1
        return code.inlineCacheCount - 1
    }

    func finish() {
        emit(.retUndefined)
        install()
    }

    /// Hands the finished instructions to the code block.
    func install() {
        // `loadEmpty` that starts a register binding's TDZ is dead unless some access to
        // that register checks the TDZ (only accesses before the declaration do).
        let dead = Set(tdzStarts.filter { !tdzCheckedRegisters.contains($0.register) }.map { $0.pc })
        if !dead.isEmpty { removeInstructions(at: dead) }
        code.instructions = words
        code.registerCount = max(maxRegister, 1)
    }

    /// Deletes the instructions that start at `dead` and relocates everything that names
    /// an instruction offset: jump operands, handler ranges and targets, the line table.
    func removeInstructions(at dead: Set<Int>) {
        var removedBefore = [Int](repeating: 0, count: words.count + 1)
        var kept: [Int32] = []
        kept.reserveCapacity(words.count)
        var starts: [Int] = []
        var at = 0, removed = 0
        while at < words.count {
            let length = Opcode(rawValue: UInt8(words[at]))!.length
            for k in 0..<length { removedBefore[at + k] = removed }
            if dead.contains(at) {
                removed += length
            } else {
                starts.append(at)
                kept.append(contentsOf: words[at..<(at + length)])
            }
            at += length
        }
        removedBefore[words.count] = removed
        func moved(_ old: Int) -> Int { old - removedBefore[old] }
        for old in starts {
            let op = Opcode(rawValue: UInt8(words[old]))!
            for (i, kind) in op.operands.enumerated() where kind == .jump {
                let target = old + Int(words[old + 1 + i])
                kept[moved(old) + 1 + i] = Int32(truncatingIfNeeded: moved(target) - moved(old))
            }
        }
        words = kept
        for i in code.handlers.indices {
            code.handlers[i].start = Int32(moved(Int(code.handlers[i].start)))
            code.handlers[i].end = Int32(moved(Int(code.handlers[i].end)))
            code.handlers[i].target = Int32(moved(Int(code.handlers[i].target)))
        }
        for i in code.lineTable.indices {
            code.lineTable[i].pc = Int32(moved(Int(code.lineTable[i].pc)))
        }
    }

    // MARK: - Scopes

    /// Enters a scope: captured bindings get environment slots, the rest registers.
    @discardableResult
    func enterScope(_ scope: Scope?, isFunctionScope: Bool = false, isSwitch: Bool = false,
                    extraNames: [String] = [], skipVars: Bool = false, evalVarsSlot: Bool = false,
                    evalVarsParameterScope: Bool = false) -> CompileScope {
        let cs = CompileScope(scope: scope, owner: self)
        cs.isSwitch = isSwitch
        scopes.append(cs)
        // Compiler-made bindings (private names, computed field keys): always in the environment.
        for n in extraNames {
            cs.names[n] = BindingInfo(location: .environment(hops: 0, slot: cs.environmentSize), kind: .const, declarationEnd: -1)
            cs.slotNames.append(Compiler.slotName(n, .const))
            cs.environmentSize += 1
        }
        if evalVarsSlot {
            cs.slotNames.append(evalVarsParameterScope ? Compiler.evalVarsParameterSlotName : Compiler.evalVarsSlotName)
            cs.environmentSize += 1
        }
        guard let scope else { return cs }
        let forceEnvironment = scope.containsDirectEval
        for b in scope.bindings {
            if b.kind == .parameter && isFunctionScope { continue }   // placed by the function prologue
            if skipVars && (b.kind == .var || b.kind == .function) { continue }
            if b.isCaptured || forceEnvironment {
                cs.names[b.name] = BindingInfo(location: .environment(hops: 0, slot: cs.environmentSize), kind: b.kind, declarationEnd: b.offset)
                cs.slotNames.append(Compiler.slotName(b.name, b.kind))
                cs.environmentSize += 1
            } else {
                let r = temp()
                bindingRegisters.insert(r)
                cs.names[b.name] = BindingInfo(location: .register(r), kind: b.kind, declarationEnd: b.offset)
            }
        }
        if cs.environmentSize > 0 {
            cs.hasEnvironment = true
            if !isFunctionScope {
                emit(.pushScope, cs.environmentSize, constant(.scopeNames(cs.slotNames)))
                environmentDepth += 1
            }
        }
        // Lexical bindings in registers start uninitialized (TDZ).
        for b in scope.bindings where b.kind == .let || b.kind == .const || b.kind == .class {
            if case .register(let r)? = cs.names[b.name]?.location {
                tdzStarts.append((pc, r))
                emit(.loadEmpty, r)
            }
        }
        return cs
    }

    func exitScope() {
        let cs = scopes.removeLast()
        if cs.hasEnvironment && !(cs.scope.map { $0.kind == .function || $0.kind == .functionBody } ?? false) {
            emit(.popScope)
            environmentDepth -= 1
        }
    }

    /// Resolves a name through this function's scopes and the enclosing functions'.
    func resolve(_ name: String) -> BindingInfo? {
        var hops = 0
        var fc: FunctionCompiler? = self
        var crossedFunction = false
        var sawSloppyEval = false
        while let f = fc {
            for cs in f.scopes.reversed() {
                if cs.isWith { return BindingInfo(location: .dynamic, kind: .var, declarationEnd: -1) }
                if var info = cs.names[name] {
                    if sawSloppyEval { return BindingInfo(location: .dynamic, kind: info.kind, declarationEnd: -1) }
                    switch info.location {
                    case .register:
                        if crossedFunction { return nil }   // cannot happen: captured bindings live in environments
                        return info
                    case .environment(_, let slot):
                        info.location = .environment(hops: hops, slot: slot)
                        return info
                    case .global, .dynamic, .importBinding:
                        return info
                    }
                }
                if cs.hasEnvironment { hops += 1 }
                // Past the var scope of a sloppy function with direct eval, an eval-declared
                // var may shadow outer bindings: resolve at run time.
                if let s = cs.scope, s.containsDirectEval, s.kind == .function || s.kind == .functionBody,
                   let fn = f.function, !fn.isStrict {
                    sawSloppyEval = true
                }
            }
            if f.parent == nil && f.isEvalCode { return BindingInfo(location: .dynamic, kind: .var, declarationEnd: -1) }
            fc = f.parent
            crossedFunction = true
        }
        return sawSloppyEval ? BindingInfo(location: .dynamic, kind: .var, declarationEnd: -1) : nil
    }

    /// Is the binding certainly initialized here (no TDZ check needed)? True after its
    /// declaration was compiled in this function, outside switch bodies.
    func isInitialized(_ name: String, _ info: BindingInfo) -> Bool {
        switch info.kind {
        case .let, .const, .class: break
        default: return true
        }
        for cs in scopes.reversed() where cs.names[name] != nil {
            return !cs.isSwitch && cs.initialized.contains(name)
        }
        return false
    }

    func markInitialized(_ name: String) {
        for cs in scopes.reversed() where cs.names[name] != nil {
            cs.initialized.insert(name)
            return
        }
    }
}
