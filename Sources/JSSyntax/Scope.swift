/// How a name is bound.
public enum BindingKind: Sendable, Equatable {
    case `var`
    case `let`
    case `const`
    case `class`
    /// A function declaration at the top of a function or script (var-like).
    case function
    /// A function declaration in a block (lexical; Annex B may also give it a `var`).
    case blockFunction
    case parameter
    case catchParameter
    /// The name of a named function expression, bound inside it (immutable).
    case functionName
    /// The name of a class, bound inside the class body (immutable).
    case classInnerName

    public var isLexical: Bool {
        switch self {
        case .let, .const, .class, .blockFunction, .catchParameter, .classInnerName: return true
        case .var, .function, .parameter, .functionName: return false
        }
    }
}

public struct Binding: Sendable {
    public var name: String
    public var kind: BindingKind
    /// Referenced from a nested function (so it must live in a heap environment).
    public var isCaptured: Bool = false
    /// Byte offset of the declaration.
    public var offset: Int32
}

/// A lexical or variable scope found by the parser, annotated by scope analysis.
public final class Scope: @unchecked Sendable {
    public enum Kind: Sendable, Equatable {
        case script
        case function
        /// Parameters with expressions get their own scope, the body's vars another.
        case functionBody
        case block
        case catchClause
        case classBody
        case with
    }

    public let kind: Kind
    /// Bindings in declaration order.
    public private(set) var bindings: [Binding] = []
    private var bindingIndex: [String: Int] = [:]
    /// Nested scopes in source order.
    public internal(set) var children: [Scope] = []
    /// The enclosing scope (valid while the tree that owns both is alive).
    public internal(set) unowned(unsafe) var parent: Scope?
    /// A direct `eval` may run in this scope (so every binding visible here may be used).
    public internal(set) var containsDirectEval: Bool = false
    /// Free names referenced in this scope or below that resolve to no binding up to
    /// the script scope (globals), in first-use order.
    public internal(set) var unresolvedNames: [String] = []
    /// Function declarations in this block whose name also gets a `var` binding in the
    /// enclosing function (Annex B.3.3), in sloppy mode.
    public internal(set) var annexBFunctionNames: [String] = []

    // Parse-time bookkeeping for early errors (redeclarations), as in acorn.
    var varNames: Set<String> = []
    var lexicalNames: Set<String> = []
    var functionNames: Set<String> = []
    /// The simple catch parameter name (`catch (e)`), which a `var e` may redeclare.
    var simpleCatchName: String? = nil
    var isSimpleCatch: Bool = false

    init(kind: Kind, parent: Scope?) {
        self.kind = kind
        self.parent = parent
    }

    /// True for scopes that hold `var` declarations (function, function body, script).
    public var isVarScope: Bool {
        switch kind {
        case .script, .function, .functionBody: return true
        default: return false
        }
    }

    public func binding(named name: String) -> Binding? {
        guard let i = bindingIndex[name] else { return nil }
        return bindings[i]
    }

    @discardableResult
    func addBinding(_ name: String, kind: BindingKind, offset: Int) -> Int {
        if let i = bindingIndex[name] {
            // A redeclaration that is allowed (var + var, function + var, ...): keep the
            // stronger kind (a function declaration initializes the var).
            if (kind == .function || kind == .blockFunction) && bindings[i].kind != .parameter { bindings[i].kind = kind }
            return i
        }
        bindingIndex[name] = bindings.count
        bindings.append(Binding(name: name, kind: kind, offset: Int32(truncatingIfNeeded: offset)))
        return bindings.count - 1
    }

    /// Names declared with `var` (or as top-level functions) in this var scope, in order.
    var declaredVarNames: [String] = []

    /// Annex B.3.3: the names of this var scope's block-level functions (in blocks below it,
    /// not in nested functions) that get a `var` binding only through Annex B (no `var` or
    /// top-level function declaration of their own).
    public var annexBOnlyVarNames: [String] {
        var result: [String] = []
        var seen = Set(declaredVarNames)
        func visit(_ s: Scope) {
            for n in s.annexBFunctionNames where !seen.contains(n) {
                seen.insert(n)
                result.append(n)
            }
            for c in s.children where c.kind != .function { visit(c) }
        }
        for c in children where c.kind != .function { visit(c) }
        return result
    }

    func replaceBindings(_ list: [Binding]) {
        bindings = list
        bindingIndex = [:]
        for (i, b) in list.enumerated() { bindingIndex[b.name] = i }
    }

    func markCaptured(_ name: String) {
        if let i = bindingIndex[name] { bindings[i].isCaptured = true }
    }

    func markAllCaptured() {
        for i in bindings.indices { bindings[i].isCaptured = true }
    }
}
