import JSSyntax

/// A compile-time constant, materialized into a `Value` by the runtime on first use.
public enum Constant: @unchecked Sendable {
    case number(Double)
    case string([UInt16])
    case bigint(String)
    /// A nested function's code.
    case function(CodeBlock)
    case regexp(pattern: String, flags: String)
    /// The strings of a tagged template (one frozen array per site).
    case templateObject(cooked: [[UInt16]?], raw: [[UInt16]])
    /// The names of an environment's slots (for direct eval, `with` and debugging).
    case scopeNames([String])
    /// A class: its constructor code and element table.
    case classTemplate(ClassTemplate)
}

/// What `newClass` needs besides the constructor: instance/static elements in order.
public final class ClassTemplate: @unchecked Sendable {
    public enum Element {
        case method(key: Int, code: Int, kind: Int, isStatic: Bool)   // key: register; code: const index
        case field(keyRegister: Int, initializer: Int?, isStatic: Bool)
        case staticBlock(code: Int)
    }
    public var name: String?
    public var constructor: CodeBlock
    public var hasHeritage: Bool
    public init(name: String?, constructor: CodeBlock, hasHeritage: Bool) {
        self.name = name; self.constructor = constructor; self.hasHeritage = hasHeritage
    }
}

/// An exception handler: instructions in [start, end) jump to `target` on a throw.
public struct Handler: Sendable {
    public var start: Int32
    public var end: Int32
    public var target: Int32
    /// The scope depth to restore (number of environments pushed inside the function).
    public var scopeDepth: Int32
    public init(start: Int32, end: Int32, target: Int32, scopeDepth: Int32) {
        self.start = start; self.end = end; self.target = target; self.scopeDepth = scopeDepth
    }
}

/// The compiled form of one function (or script): bytecode and its tables.
public final class CodeBlock: @unchecked Sendable {
    public var name: String
    public var instructions: [Int32] = []
    public var constants: [Constant] = []
    /// Property and global names, as UTF-16.
    public var atoms: [[UInt16]] = []
    public var registerCount = 0
    /// Formal parameters copied into registers 0..<parameterCount at entry.
    public var parameterCount = 0
    /// The function's `length`.
    public var length = 0
    public var kind: FunctionKind = .normal
    public var isStrict = false
    public var isAsync = false
    public var isGenerator = false
    /// Slots of the function-level environment (0: none is created).
    public var functionEnvironmentSize = 0
    public var functionScopeNames: [String] = []
    /// Sloppy eval code: the `var` and function names it declares in the caller's
    /// variable environment (EvalDeclarationInstantiation).
    public var evalVarNames: [String] = []
    public var evalFunctionNames: [String] = []
    public var handlers: [Handler] = []
    /// (instruction offset, source offset) pairs, sorted by instruction offset.
    public var lineTable: [(pc: Int32, offset: Int32)] = []
    public var inlineCacheCount = 0
    public var source: SourceFile?
    public var span: Span
    /// An arrow that uses `this`/`super`/`new.target`: its closure captures them.
    public var capturesThis = false
    /// Function code that is not (only) an arrow's: `new.target` is allowed in direct eval.
    public var allowsNewTarget = false
    /// A derived class without a written constructor: forwards its arguments to super().
    public var isDefaultDerivedConstructor = false
    /// The function creates an `arguments` object at entry.
    public var usesArguments = false
    /// A sloppy function with simple parameters whose `arguments` object is mapped
    /// (CreateMappedArgumentsObject): parameter i lives in function-environment slot
    /// `mappedArgumentsSlot + i` (-1: no mapping). `shadowedParameters` lists the
    /// parameters a later one of the same name hides: their indices are never mapped.
    public var mappedArgumentsSlot = -1
    public var shadowedParameters: [Int] = []
    /// The runtime's index of the module this code belongs to (-1: script, eval or function code).
    public var moduleID = -1
    /// Runtime-owned per-code data (materialized constants, inline caches).
    public var runtimeData: AnyObject?
    /// The runtime this code (and the code nested in it) belongs to, set when an embedder
    /// first runs it (`Runtime.runScript(compiled:)`); weak, so a block whose runtime is
    /// gone stays refused (its `runtimeData` points into a freed heap).
    public weak var owner: AnyObject?

    public init(name: String, span: Span) {
        self.name = name
        self.span = span
    }

    /// The source offset for an instruction offset.
    public func sourceOffset(at pc: Int) -> Int? {
        var lo = 0, hi = lineTable.count - 1
        var best: Int? = nil
        while lo <= hi {
            let mid = (lo + hi) / 2
            if Int(lineTable[mid].pc) <= pc { best = Int(lineTable[mid].offset); lo = mid + 1 } else { hi = mid - 1 }
        }
        return best
    }
}
