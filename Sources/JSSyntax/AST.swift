// The abstract syntax tree produced by `Parser`.
//
// Expressions, statements and patterns are value types (`struct` + `indirect enum`):
// cheap to build, pattern-matched exhaustively by the bytecode compiler. Functions,
// classes and scopes are reference types: the scope analysis annotates them, and the
// compiler keeps them as identities (one compiled unit per `FunctionNode`).
//
// Every node carries a `Span` of UTF-8 byte offsets into the source; `SourceFile`
// turns an offset into a line and column.

/// A half-open range `[start, end)` of UTF-8 byte offsets into the source text.
public struct Span: Equatable, Sendable {
    public var start: Int32
    public var end: Int32
    @inlinable public init(_ start: Int, _ end: Int) {
        self.start = Int32(truncatingIfNeeded: start)
        self.end = Int32(truncatingIfNeeded: end)
    }
}

/// A string value as JavaScript sees it: UTF-16 code units, lone surrogates allowed.
public struct JSStringLiteral: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var utf16: [UInt16]
    public init(utf16: [UInt16]) { self.utf16 = utf16 }
    public init(_ string: String) { self.utf16 = Array(string.utf16) }
    public var description: String { String(decoding: utf16, as: UTF16.self) }
}

// MARK: - Expressions

public struct Expr: Sendable {
    public var kind: ExprKind
    public var span: Span
    /// Height of this expression tree (1 for a leaf). The parser bounds it, so that
    /// every recursive walk over a tree it returned has a known depth.
    public var depth: UInt32
    public init(_ kind: ExprKind, _ span: Span) {
        self.kind = kind; self.span = span
        self.depth = ASTDepth.of(kind)
    }
}

public enum UnaryOp: String, Sendable { case minus = "-", plus = "+", not = "!", bitNot = "~", typeof, void, delete }
public enum UpdateOp: String, Sendable { case increment = "++", decrement = "--" }
public enum BinaryOp: String, Sendable {
    case eq = "==", ne = "!=", strictEq = "===", strictNe = "!=="
    case lt = "<", le = "<=", gt = ">", ge = ">="
    case shl = "<<", sar = ">>", shr = ">>>"
    case add = "+", sub = "-", mul = "*", div = "/", mod = "%", exp = "**"
    case bitOr = "|", bitXor = "^", bitAnd = "&"
    case `in`, instanceof
}
public enum LogicalOp: String, Sendable { case and = "&&", or = "||", coalesce = "??" }
public enum AssignOp: String, Sendable {
    case assign = "="
    case add = "+=", sub = "-=", mul = "*=", div = "/=", mod = "%=", exp = "**="
    case shl = "<<=", sar = ">>=", shr = ">>>="
    case bitOr = "|=", bitXor = "^=", bitAnd = "&="
    case and = "&&=", or = "||=", coalesce = "??="
    /// The binary operator a compound assignment applies, nil for `=` and the logical ones.
    public var binaryOp: BinaryOp? {
        switch self {
        case .assign, .and, .or, .coalesce: return nil
        case .add: return .add
        case .sub: return .sub
        case .mul: return .mul
        case .div: return .div
        case .mod: return .mod
        case .exp: return .exp
        case .shl: return .shl
        case .sar: return .sar
        case .shr: return .shr
        case .bitOr: return .bitOr
        case .bitXor: return .bitXor
        case .bitAnd: return .bitAnd
        }
    }
}

/// A property name in an object literal, class body, member access or pattern.
public indirect enum PropertyKey: Sendable {
    /// `a`, `if`, `"a"`, `'a'`: a name known at parse time (string literal keys included).
    case name(String)
    /// A string-literal key that is not representable as a Swift string (lone surrogates).
    case string(JSStringLiteral)
    case number(Double)
    /// A BigInt literal key, in decimal digits.
    case bigint(String)
    case computed(Expr)
    /// `#x` (the name is stored without `#`).
    case privateName(String)
}

public enum ArrayElement: Sendable {
    case hole
    case expr(Expr)
    case spread(Expr)
}

public enum Argument: Sendable {
    case expr(Expr)
    case spread(Expr)
}

public enum PropertyKind: Sendable { case initialize, getter, setter }

public enum ObjectMember: Sendable {
    /// `key: value`, shorthand `a`, or `__proto__: value` (see `isProtoSetter`).
    case property(key: PropertyKey, value: Expr, shorthand: Bool, isProtoSetter: Bool)
    /// A method, getter or setter.
    case method(key: PropertyKey, function: FunctionNode, kind: PropertyKind)
    case spread(Expr)
}

public struct TemplateLiteral: Sendable {
    /// Cooked strings; nil where a tagged template holds an invalid escape.
    public var cooked: [JSStringLiteral?]
    public var raw: [JSStringLiteral]
    public var expressions: [Expr]
}

public indirect enum ExprKind: Sendable {
    case identifier(String)
    case this
    case null
    case boolean(Bool)
    case number(Double)
    /// A BigInt literal, as decimal digits.
    case bigint(String)
    case string(JSStringLiteral)
    /// `/pattern/flags`; the pattern is the source text between the slashes.
    case regexp(pattern: String, flags: String)
    case template(TemplateLiteral)
    case taggedTemplate(tag: Expr, quasi: TemplateLiteral)
    case array([ArrayElement])
    case object([ObjectMember])
    case function(FunctionNode)
    case arrow(FunctionNode)
    case `class`(ClassNode)
    case unary(UnaryOp, Expr)
    case update(UpdateOp, prefix: Bool, Expr)
    case binary(BinaryOp, Expr, Expr)
    case logical(LogicalOp, Expr, Expr)
    /// Assignment. For `=` the target may be a destructuring pattern; for the compound
    /// operators it is an identifier or a member expression (as a pattern).
    case assign(AssignOp, Pattern, Expr)
    case conditional(Expr, Expr, Expr)
    /// `callee(args)`; `optional` for `callee?.(args)`.
    case call(callee: Expr, arguments: [Argument], optional: Bool)
    case superCall([Argument])
    case new(callee: Expr, arguments: [Argument])
    /// `object.name`, `object[expr]`, `object.#name`; `optional` for `?.`.
    case member(object: Expr, property: PropertyKey, optional: Bool)
    /// `super.name` / `super[expr]`.
    case superMember(PropertyKey)
    /// The whole of an optional chain `a?.b.c`: short-circuiting ends here.
    case optionalChain(Expr)
    case sequence([Expr])
    case yield(Expr?, delegate: Bool)
    case await(Expr)
    case newTarget
    /// `#name in object`.
    case privateIn(name: String, Expr)
    /// A parenthesized expression (kept only where it matters: the compiler may ignore it).
    case parenthesized(Expr)
    /// `import(specifier)` / `import(specifier, options)`.
    case dynamicImport(Expr, options: Expr?)
    /// `import.meta` (module code only).
    case importMeta
}

// MARK: - Patterns

public struct Pattern: Sendable {
    public var kind: PatternKind
    public var span: Span
    public var depth: UInt32
    public init(_ kind: PatternKind, _ span: Span) {
        self.kind = kind; self.span = span
        self.depth = ASTDepth.of(kind)
    }
}

public struct PatternProperty: Sendable {
    public var key: PropertyKey
    public var value: Pattern
    public var shorthand: Bool
}

public indirect enum PatternKind: Sendable {
    case identifier(String)
    /// An assignment target that is a member expression (`a.b`, `a[b]`, `super.x`, ...).
    /// Never appears in binding patterns.
    case expression(Expr)
    case object([PatternProperty], rest: Pattern?)
    /// nil elements are holes (elisions).
    case array([Pattern?], rest: Pattern?)
    /// `target = default`.
    case withDefault(Pattern, Expr)
}

// MARK: - Statements

public struct Stmt: Sendable {
    public var kind: StmtKind
    public var span: Span
    public init(_ kind: StmtKind, _ span: Span) { self.kind = kind; self.span = span }
}

public enum VariableKind: String, Sendable {
    case `var`, `let`, `const`
    /// `using` and `await using` (explicit resource management): const bindings whose
    /// values are disposed when the enclosing block, loop iteration, function or module ends.
    case using, awaitUsing

    public var isUsing: Bool { self == .using || self == .awaitUsing }
}

public struct VariableDeclarator: Sendable {
    public var target: Pattern
    public var initializer: Expr?
}

public struct VariableDeclaration: Sendable {
    public var kind: VariableKind
    public var declarations: [VariableDeclarator]
}

public enum ForInit: Sendable {
    case variable(VariableDeclaration)
    case expr(Expr)
}

/// The left side of `for (left in/of right)`.
public enum ForBinding: Sendable {
    case variable(VariableKind, Pattern)
    case target(Pattern)
}

public struct SwitchCase: Sendable {
    /// nil for `default:`.
    public var test: Expr?
    public var body: [Stmt]
}

public struct Block: Sendable {
    public var body: [Stmt]
    /// The block's lexical scope (nil when it declares nothing lexically).
    public var scope: Scope?
}

public indirect enum StmtKind: Sendable {
    case expression(Expr)
    case variable(VariableDeclaration)
    case function(FunctionNode)
    case `class`(ClassNode)
    case block(Block)
    case empty
    case `if`(Expr, Stmt, Stmt?)
    case `for`(initializer: ForInit?, test: Expr?, update: Expr?, body: Stmt, scope: Scope?)
    case forIn(ForBinding, Expr, body: Stmt, scope: Scope?)
    case forOf(ForBinding, Expr, body: Stmt, isAwait: Bool, scope: Scope?)
    case `while`(Expr, Stmt)
    case doWhile(Stmt, Expr)
    case `continue`(label: String?)
    case `break`(label: String?)
    case `return`(Expr?)
    case with(Expr, Stmt)
    case `switch`(Expr, [SwitchCase], scope: Scope?)
    case labeled(String, Stmt)
    case `throw`(Expr)
    case `try`(block: Block, catchParameter: Pattern?, catchBody: Block?, catchScope: Scope?, finally: Block?)
    case debugger
    /// `export default expr;` or an anonymous `export default class {}`: evaluates the
    /// expression (named "default" when anonymous) and initializes `*default*`.
    case exportDefault(Expr)
}

// MARK: - Functions and classes

public enum FunctionKind: Sendable, Equatable {
    case normal
    case arrow
    case method
    case getter
    case setter
    case classConstructor
    case derivedConstructor
    /// The synthetic function that evaluates a class field initializer.
    case fieldInitializer
    case staticBlock
}

public final class FunctionNode: @unchecked Sendable {
    /// The binding identifier of a declaration or named function expression.
    public var name: String?
    public var kind: FunctionKind
    public var isAsync: Bool
    public var isGenerator: Bool
    /// The function's code is strict (inherited, or its own "use strict").
    public var isStrict: Bool = false
    /// The body has its own "use strict" directive.
    public var hasUseStrictDirective: Bool = false
    public var params: [Pattern] = []
    public var rest: Pattern? = nil
    public var body: [Stmt] = []
    /// For concise arrow bodies `x => expr`, the expression (body is then empty).
    public var expressionBody: Expr? = nil
    /// The full source range, for `Function.prototype.toString`.
    public var span: Span
    /// True if every parameter is a plain identifier with no default and there is no rest.
    public var hasSimpleParameterList: Bool = true
    /// Function scope: parameters, `var`s, top-level functions, `arguments`.
    public var scope: Scope
    /// When parameters have expressions, the body's `var`s live in a separate scope.
    public var bodyScope: Scope? = nil
    /// Number of formal parameters before the first default or rest (the `length`).
    public var expectedArgumentCount: Int = 0
    /// The body references `arguments` (directly or in nested arrows).
    public var usesArguments: Bool = false
    /// The body (or a nested arrow) uses `this`, `super` or `new.target`.
    public var usesThis: Bool = false
    /// The body contains a direct `eval(...)` call (or a nested arrow does).
    public var hasDirectEval: Bool = false

    public init(name: String?, kind: FunctionKind, isAsync: Bool, isGenerator: Bool, span: Span, scope: Scope) {
        self.name = name; self.kind = kind; self.isAsync = isAsync; self.isGenerator = isGenerator
        self.span = span; self.scope = scope
    }

    deinit {
        var b: [Stmt] = []
        swap(&b, &body)
        ASTTeardown.drain(consume b)
        var e: Expr? = nil
        swap(&e, &expressionBody)
        ASTTeardown.drain(expr: consume e)
        var p: [Pattern] = []
        swap(&p, &params)
        ASTTeardown.drain(patterns: consume p)
    }
}

public enum ClassMember: Sendable {
    case method(key: PropertyKey, function: FunctionNode, kind: PropertyKind, isStatic: Bool)
    /// A field; the initializer (if any) is a `.fieldInitializer` function.
    case field(key: PropertyKey, initializer: FunctionNode?, isStatic: Bool)
    case staticBlock(FunctionNode)
}

public final class ClassNode: @unchecked Sendable {
    public var name: String?
    public var superClass: Expr?
    /// The constructor, if written (kind `.classConstructor` or `.derivedConstructor`).
    public var constructor: FunctionNode?
    public var members: [ClassMember] = []
    public var span: Span
    /// The class scope: the inner name binding and the private names.
    public var scope: Scope
    public init(name: String?, superClass: Expr?, span: Span, scope: Scope) {
        self.name = name; self.superClass = superClass; self.span = span; self.scope = scope
    }

    deinit {
        var e: Expr? = nil
        swap(&e, &superClass)
        ASTTeardown.drain(expr: consume e)
        var ms: [ClassMember] = []
        swap(&ms, &members)
        var keys: [Stmt] = []
        for m in ms {
            switch m {
            case .method(.computed(let x), _, _, _), .field(.computed(let x), _, _): keys.append(Stmt(.expression(x), x.span))
            default: break
            }
        }
        ms = []
        ASTTeardown.drain(consume keys)
    }
}

/// A parsed script or module.
public final class Program: @unchecked Sendable {
    public var body: [Stmt]
    public var isStrict: Bool
    public var scope: Scope
    public var source: SourceFile
    /// The import and export entries of a module (nil for a script).
    public var module: ModuleInfo?
    init(body: [Stmt], isStrict: Bool, scope: Scope, source: SourceFile) {
        self.body = body; self.isStrict = isStrict; self.scope = scope; self.source = source
    }

    deinit {
        var b: [Stmt] = []
        swap(&b, &body)
        ASTTeardown.drain(consume b)
    }
}


// MARK: - Modules

/// One `import`/`export ... from` specifier with its import attributes.
public struct ModuleRequest: Sendable, Equatable {
    public var specifier: String
    /// `with { type: "json" }`, sorted by key.
    public var attributes: [ModuleAttribute]
    public var offset: Int32
    public static func == (a: ModuleRequest, b: ModuleRequest) -> Bool { a.specifier == b.specifier && a.attributes == b.attributes }
}

public struct ModuleAttribute: Sendable, Equatable {
    public var key: String
    public var value: String
    public init(key: String, value: String) { self.key = key; self.value = value }
}

/// ImportEntry: `importName` nil is a namespace import (`import * as ns`).
public struct ModuleImportEntry: Sendable {
    public var request: Int
    public var importName: String?
    public var localName: String
    public var offset: Int32
}

/// ExportEntry. Local: `localName` set; indirect: `request` and `importName` set (nil
/// `importName` with a request is `export * as name from`); star: in `starExports`.
public struct ModuleExportEntry: Sendable {
    public var exportName: String
    public var localName: String?
    public var request: Int?
    public var importName: String?
    public var offset: Int32
}

/// The static module record of a parsed module (ParseModule's lists).
public final class ModuleInfo: @unchecked Sendable {
    /// Requested modules in source order, deduplicated.
    public var requests: [ModuleRequest] = []
    public var imports: [ModuleImportEntry] = []
    public var localExports: [ModuleExportEntry] = []
    public var indirectExports: [ModuleExportEntry] = []
    /// `export * from`: request indexes.
    public var starExports: [Int] = []
    /// The module body contains `await` (or `for await`) outside any function.
    public var hasTopLevelAwait = false
    /// The name of the binding `export default` initializes.
    public static let defaultBinding = "*default*"
    public init() {}

    func request(_ r: ModuleRequest) -> Int {
        if let i = requests.firstIndex(of: r) { return i }
        requests.append(r)
        return requests.count - 1
    }
}
