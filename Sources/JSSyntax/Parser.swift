// Recursive-descent parser for the ECMAScript Script goal, with the spec's early errors.
//
// The structure follows acorn (a parser that passes test262): cover grammars are parsed
// as expressions and converted to patterns (`toAssignable`), with `CoverErrors`
// remembering what would be an error if the expression stays an expression; scopes are
// tracked during parsing to find redeclarations; `yield`/`await` positions are tracked
// to reject them in arrow parameters.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(Glibc)
/// glibc's `pthread_getattr_np` (a GNU extension the Glibc module does not export).
@_silgen_name("pthread_getattr_np")
func sable_pthread_getattr_np(_ thread: pthread_t, _ attr: UnsafeMutablePointer<pthread_attr_t>) -> Int32
/// glibc's `getauxval` and `gettid` (not exported by the Glibc module either).
@_silgen_name("getauxval")
func sable_getauxval(_ type: UInt) -> UInt
@_silgen_name("gettid")
func sable_gettid() -> pid_t
#endif

/// The native-stack guard every recursive walk of the engine uses (the parser, the
/// compiler's walks, the runtime's recursive builtins and native calls), as V8's stack
/// guard and QuickJS's `js_check_stack_overflow` are: one comparison of the current stack
/// position with a limit `StackBounds.margin` above the thread's lowest stack address.
/// Running out gives `RangeError: Maximum call stack size exceeded`, never a SIGSEGV.
public enum StackGuard {
    /// The lowest stack address the current thread may reach before recursion must stop
    /// (the thread's bounds are cached: a lock and a table lookup).
    public static func limit() -> UInt { Parser.computeStackLimit() }

    /// Whether the stack pointer is still above `limit`.
    @inline(__always) public static func hasRoom(_ limit: UInt) -> Bool {
        var here: UInt8 = 0
        return withUnsafeMutablePointer(to: &here) { UInt(bitPattern: $0) } >= limit
    }
}

/// Per-thread stack bounds, found once per thread.
enum StackBounds {
    /// Kept free below the limit for the work done between checks and for unwinding.
    static let margin: UInt = 256 * 1024
    nonisolated(unsafe) static var cache: [UInt: (low: UInt, high: UInt)] = [:]
    /// The main thread's entry, kept apart: the first use of the dictionary's type costs
    /// the Swift runtime ~0.1 ms of metadata instantiation at every start.
    nonisolated(unsafe) static var mainThread: UInt = 0
    nonisolated(unsafe) static var mainLow: UInt = 0
    nonisolated(unsafe) static var mainHigh: UInt = 0
    static let lock = Mutex()
}

/// The current thread's stack (lowest and highest address), nil if unknown. Cached per
/// thread: on the main thread glibc reads /proc/self/maps to find it, which is slow and,
/// in a locked-down worker, forbidden. (The parser's stack guard and the collector's
/// conservative stack scan share it.)
public func currentThreadStack() -> (low: UInt, high: UInt)? {
    var here: UInt8 = 0
    let sp = withUnsafeMutablePointer(to: &here) { UInt(bitPattern: $0) }
    return threadStack(sp: sp).map { ($0.low, $0.high) }
}

/// The current thread's stack, and whether it came from the cache.
func threadStack(sp: UInt) -> (low: UInt, high: UInt, cached: Bool)? {
    #if canImport(Glibc)
    let me = pthread_self()
    StackBounds.lock.lock()
    defer { StackBounds.lock.unlock() }
    if UInt(me) == StackBounds.mainThread && sp > StackBounds.mainLow && sp <= StackBounds.mainHigh {
        return (StackBounds.mainLow, StackBounds.mainHigh, true)
    }
    if let cached = StackBounds.cache[UInt(me)], sp > cached.low && sp <= cached.high {
        return (cached.low, cached.high, true)
    }
    if let main = mainThreadStack(sp: sp) {
        (StackBounds.mainThread, StackBounds.mainLow, StackBounds.mainHigh) = (UInt(me), main.low, main.high)
        return (main.low, main.high, false)
    }
    var attr = pthread_attr_t()
    if sable_pthread_getattr_np(me, &attr) == 0 {
        defer { pthread_attr_destroy(&attr) }
        var addr: UnsafeMutableRawPointer? = nil
        var size = 0
        if pthread_attr_getstack(&attr, &addr, &size) == 0, let a = addr {
            let low = UInt(bitPattern: a)
            if StackBounds.cache.count > 1024 { StackBounds.cache.removeAll() }
            StackBounds.cache[UInt(me)] = (low, low + UInt(size))
            return (low, low + UInt(size), false)
        }
    }
    #endif
    return nil
}

#if canImport(Glibc)
/// The main thread's stack without reading /proc/self/maps (what `pthread_getattr_np`
/// does for the main thread, ~0.1 ms at every start): the kernel puts the executable's
/// name (`AT_EXECFN`) at the top of the initial stack, 8 bytes below the mapping's end,
/// so the page boundary above that string is the stack's top; the bottom is the top less
/// `RLIMIT_STACK`. Nil on another thread, with no finite limit, or if `sp` is not inside.
func mainThreadStack(sp: UInt) -> (low: UInt, high: UInt)? {
    guard getpid() == sable_gettid() else { return nil }
    var limit = rlimit()
    guard getrlimit(__rlimit_resource_t(RLIMIT_STACK.rawValue), &limit) == 0,
          limit.rlim_cur >= 1 << 20, limit.rlim_cur <= 1 << 32 else { return nil }
    let execfn = sable_getauxval(31) // AT_EXECFN
    guard execfn > sp, let name = UnsafePointer<CChar>(bitPattern: execfn) else { return nil }
    let page = UInt(getpagesize())
    let end = execfn + UInt(strlen(name)) + 1
    let high = (end + page - 1) & ~(page - 1)
    let low = high - UInt(limit.rlim_cur)
    // Not the layout described above (another loader, another kernel): ask glibc.
    guard high &- end == 8, sp > low else { return nil }
    return (low, high)
}
#endif

/// A minimal pthread mutex (JSSyntax has no dependencies).
final class Mutex: @unchecked Sendable {
    private var m = pthread_mutex_t()
    init() { pthread_mutex_init(&m, nil) }
    deinit { pthread_mutex_destroy(&m) }
    func lock() { pthread_mutex_lock(&m) }
    func unlock() { pthread_mutex_unlock(&m) }
}

/// What would be an error once we know whether a cover grammar is a pattern or an expression.
struct CoverErrors {
    /// `{a = 1}` (CoverInitializedName): an error unless this becomes a pattern.
    var shorthandAssign = -1
    /// A trailing comma after a spread element: an error if this becomes a pattern.
    var trailingComma = -1
    /// A parenthesized pattern-ish expression: an error if this becomes an assignment pattern.
    var parenthesizedAssign = -1
    /// A parenthesized expression: an error if this becomes a binding pattern.
    var parenthesizedBind = -1
    /// A duplicate `__proto__` property: an error unless this becomes a pattern.
    var doubleProto = -1
}

/// Scope flags, as in acorn.
struct ScopeFlags: OptionSet {
    let rawValue: UInt16
    static let top = ScopeFlags(rawValue: 1)
    static let function = ScopeFlags(rawValue: 2)
    static let async = ScopeFlags(rawValue: 4)
    static let generator = ScopeFlags(rawValue: 8)
    static let arrow = ScopeFlags(rawValue: 16)
    static let simpleCatch = ScopeFlags(rawValue: 32)
    static let superProperty = ScopeFlags(rawValue: 64)
    static let directSuper = ScopeFlags(rawValue: 128)
    static let classStaticBlock = ScopeFlags(rawValue: 256)
    static let classFieldInit = ScopeFlags(rawValue: 512)
    static let var_: ScopeFlags = [.top, .function, .classStaticBlock, .classFieldInit]

    static func functionFlags(async: Bool, generator: Bool) -> ScopeFlags {
        var f: ScopeFlags = .function
        if async { f.insert(.async) }
        if generator { f.insert(.generator) }
        return f
    }
}

struct ScopeFrame {
    var scope: Scope
    var flags: ScopeFlags
    /// The function this frame belongs to (nil for script and blocks use the outer one).
    var function: FunctionNode?
}

enum BindMode {
    case none
    case `var`
    case lexical
    case function
    case simpleCatch
    /// The name of a function expression (checked, not declared in the current scope).
    case outside
}

struct Label {
    var name: String
    var kind: LabelKind
    var statementStart: Int
}
enum LabelKind { case loop, `switch`, other }

/// Private names declared and used in one class body.
final class PrivateNameScope {
    /// name -> "get", "set", "both" (getter+setter pair), "other"; plus static-ness.
    var declared: [String: (kind: String, isStatic: Bool)] = [:]
    var used: [(name: String, offset: Int)] = []
}

final class Parser {
    /// The deepest expression tree the parser builds (deeper: RangeError).
    static let maxTreeDepth: UInt32 = 30_000
    let source: SourceFile
    let lexer: Lexer
    let options: ParseOptions

    var strict: Bool
    var scopeStack: [ScopeFrame] = []
    var labels: [Label] = []
    var privateNameStack: [PrivateNameScope] = []
    /// Parsing the Module goal (strict, `await` reserved, import/export declarations).
    var isModule = false
    /// The module's import/export entries while it is parsed.
    var moduleInfo: ModuleInfo?
    /// The scope depth of the switch whose case clauses are being parsed (a `using`
    /// declaration may not be directly in a case clause); -1 outside.
    var switchCaseScopeDepth = -1

    /// Positions of yield/await expressions in the current function (for arrow params).
    var yieldPos = -1
    var awaitPos = -1
    var awaitIdentPos = -1
    /// Start offset of an expression that may turn out to be arrow parameters.
    var potentialArrowAt = -1
    var potentialArrowInForAwait = false

    // Stack guard.
    var stackLimit: UInt = 0

    init(source: SourceFile, options: ParseOptions) throws(ParseError) {
        self.source = source
        self.options = options
        self.strict = options.strict
        do {
            self.lexer = try Lexer(bytes: source.bytes)
        } catch {
            let (line, column) = source.position(of: error.offset)
            throw ParseError(message: error.message, offset: error.offset, line: line, column: column, fileName: source.name)
        }
        self.stackLimit = Parser.computeStackLimit()
    }

    // MARK: - Errors

    func error(_ message: String, at offset: Int? = nil, kind: ParseError.Kind = .syntaxError) -> ParseError {
        let off = offset ?? lexer.s.start
        let (line, column) = source.position(of: off)
        return ParseError(kind: kind, message: message, offset: off, line: line, column: column, fileName: source.name)
    }

    func error(_ message: String, at offset: Int32, kind: ParseError.Kind = .syntaxError) -> ParseError {
        error(message, at: Int(offset), kind: kind)
    }

    func unexpected(_ offset: Int? = nil) -> ParseError {
        if offset == nil || offset == lexer.s.start {
            return error(unexpectedTokenMessage())
        }
        return error("Unexpected token", at: offset)
    }

    func unexpectedTokenMessage() -> String {
        switch lexer.s.type {
        case .eof: return "Unexpected end of input"
        case .name:
            if lexer.s.keyword.isAlwaysReserved { return "Unexpected token '\(lexer.nameValue)'" }
            if strict && lexer.s.keyword.isStrictReserved { return "Unexpected strict mode reserved word" }
            return "Unexpected identifier '\(lexer.nameValue)'"
        case .number, .bigint: return "Unexpected number"
        case .string: return "Unexpected string"
        case .template: return "Unexpected template string"
        default:
            let text = String(decoding: UnsafeBufferPointer(start: lexer.base + lexer.s.start, count: lexer.s.end - lexer.s.start), as: UTF8.self)
            return "Unexpected token '\(text)'"
        }
    }

    // MARK: - Stack guard

    /// The lowest usable stack address of the current thread (cached per thread: on the
    /// main thread glibc reads /proc/self/maps to find it, which is slow and, in a
    /// locked-down worker, forbidden).
    static func computeStackLimit() -> UInt {
        var here: UInt8 = 0
        let sp = withUnsafeMutablePointer(to: &here) { UInt(bitPattern: $0) }
        if let (low, _, cached) = threadStack(sp: sp), cached || sp > low + StackBounds.margin {
            return low + StackBounds.margin
        }
        // Unknown stack: allow 1 MiB below the current position.
        return sp > 1 << 20 ? sp - (1 << 20) : 0
    }

    /// The stack guard for walks after parsing (reports the node's position).
    func checkStack(at offset: Int32) throws(ParseError) {
        var here: UInt8 = 0
        let sp = withUnsafeMutablePointer(to: &here) { UInt(bitPattern: $0) }
        if sp < stackLimit {
            throw error("Maximum call stack size exceeded (nesting too deep)", at: offset, kind: .rangeError)
        }
    }

    @inline(__always)
    func checkStack() throws(ParseError) {
        var here: UInt8 = 0
        let sp = withUnsafeMutablePointer(to: &here) { UInt(bitPattern: $0) }
        if sp < stackLimit {
            throw error("Maximum call stack size exceeded (nesting too deep)", kind: .rangeError)
        }
    }

    // MARK: - Tokens

    @inline(__always) var type: TokenType { lexer.s.type }
    @inline(__always) var start: Int { lexer.s.start }
    @inline(__always) var end: Int { lexer.s.end }
    @inline(__always) var lastEnd: Int { lexer.s.lastEnd }
    @inline(__always) var keyword: Keyword { lexer.s.keyword }

    @inline(__always)
    func next() throws(ParseError) {
        do { try lexer.next() } catch { throw self.error(error.message, at: error.offset) }
    }

    func lexerError(_ e: LexError) -> ParseError { error(e.message, at: e.offset) }

    @inline(__always)
    func eat(_ t: TokenType) throws(ParseError) -> Bool {
        if type == t { try next(); return true }
        return false
    }

    func expect(_ t: TokenType) throws(ParseError) {
        if type != t { throw unexpected() }
        try next()
    }

    /// The current token is the (unescaped) contextual keyword `k`.
    @inline(__always)
    func isContextual(_ k: Keyword) -> Bool {
        type == .name && keyword == k && !lexer.s.containsEscape
    }

    func eatContextual(_ k: Keyword) throws(ParseError) -> Bool {
        if isContextual(k) { try next(); return true }
        return false
    }

    func expectContextual(_ k: Keyword) throws(ParseError) {
        if !(try eatContextual(k)) { throw unexpected() }
    }

    /// A keyword token written without escapes (escaped keywords are not keywords).
    @inline(__always)
    func isKeyword(_ k: Keyword) -> Bool {
        type == .name && keyword == k
    }

    func canInsertSemicolon() -> Bool {
        type == .eof || type == .braceR || lexer.s.newlineBefore
    }

    func semicolon() throws(ParseError) {
        if try eat(.semi) { return }
        if canInsertSemicolon() { return }
        throw unexpected()
    }

    /// Everything the lexer knows about the current token, for lookahead.
    struct Snapshot {
        var s: LexState
        var name: String
        var number: Double
        var string: [UInt16]
        var octal: Int
        var legacyOctal: Bool
    }

    func snapshot() -> Snapshot {
        Snapshot(s: lexer.s, name: lexer.nameValue, number: lexer.numberValue, string: lexer.stringValue,
                 octal: lexer.octalEscapeOffset, legacyOctal: lexer.numberIsLegacyOctal)
    }

    func restore(_ snap: Snapshot) {
        lexer.s = snap.s; lexer.nameValue = snap.name; lexer.numberValue = snap.number
        lexer.stringValue = snap.string; lexer.octalEscapeOffset = snap.octal; lexer.numberIsLegacyOctal = snap.legacyOctal
    }

    /// The state of the token after the current one (the lexer is left unchanged).
    func peek() throws(ParseError) -> LexState {
        let snap = snapshot()
        defer { restore(snap) }
        try next()
        return lexer.s
    }

    /// Peeks the next token: its type, keyword, escape flag, newline flag and start.
    func peekToken() throws(ParseError) -> (type: TokenType, keyword: Keyword, escaped: Bool, newline: Bool, start: Int) {
        let st = try peek()
        return (st.type, st.keyword, st.containsEscape, st.newlineBefore, st.start)
    }

    func sourceText(_ a: Int, _ b: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: lexer.base + a, count: max(0, b - a)), as: UTF8.self)
    }

    // MARK: - Scopes

    var currentScope: ScopeFrame { scopeStack[scopeStack.count - 1] }

    var currentVarScope: ScopeFrame {
        var i = scopeStack.count - 1
        while i > 0 && scopeStack[i].flags.intersection(.var_).isEmpty { i -= 1 }
        return scopeStack[i]
    }

    /// The scope that provides `this`: the nearest non-arrow var scope.
    var currentThisScope: ScopeFrame {
        var i = scopeStack.count - 1
        while i > 0 && (scopeStack[i].flags.intersection(.var_).isEmpty || scopeStack[i].flags.contains(.arrow)) { i -= 1 }
        return scopeStack[i]
    }

    var inFunction: Bool { currentVarScope.flags.contains(.function) }
    var inGenerator: Bool {
        let f = currentVarScope.flags
        return f.contains(.generator) && !f.contains(.classFieldInit)
    }
    var inAsync: Bool {
        let f = currentVarScope.flags
        return f.contains(.async) && !f.contains(.classFieldInit)
    }
    var inClassStaticBlock: Bool { currentVarScope.flags.contains(.classStaticBlock) }
    var inClassFieldInit: Bool { currentThisScope.flags.contains(.classFieldInit) }

    var canAwait: Bool {
        var i = scopeStack.count - 1
        while i >= 0 {
            let f = scopeStack[i].flags
            if f.contains(.classFieldInit) || f.contains(.classStaticBlock) { return false }
            if f.contains(.function) { return f.contains(.async) }
            if f.contains(.top) { return isModule }
            i -= 1
        }
        return false
    }

    /// At an `await` that may be outside every function: a module's top-level await.
    func noteTopLevelAwait() {
        guard let info = moduleInfo else { return }
        var i = scopeStack.count - 1
        while i >= 0 {
            let f = scopeStack[i].flags
            if f.contains(.function) || f.contains(.classFieldInit) || f.contains(.classStaticBlock) { return }
            i -= 1
        }
        info.hasTopLevelAwait = true
    }

    var allowSuper: Bool {
        let f = currentThisScope.flags
        return f.contains(.superProperty) || f.contains(.classFieldInit) || (f.contains(.top) && options.allowSuperProperty)
    }

    var allowDirectSuper: Bool {
        let f = currentThisScope.flags
        return f.contains(.directSuper) || (f.contains(.top) && options.allowSuperCall)
    }

    var allowNewDotTarget: Bool {
        var i = scopeStack.count - 1
        while i >= 0 {
            let f = scopeStack[i].flags
            if f.contains(.classStaticBlock) || f.contains(.classFieldInit) { return true }
            if f.contains(.function) && !f.contains(.arrow) { return true }
            i -= 1
        }
        return options.allowNewTarget
    }

    func treatFunctionsAsVar(_ frame: ScopeFrame) -> Bool {
        frame.flags.contains(.function) || frame.flags.contains(.top) || frame.flags.contains(.classStaticBlock)
            || frame.flags.contains(.classFieldInit)
    }

    @discardableResult
    func enterScope(_ kind: Scope.Kind, flags: ScopeFlags, function: FunctionNode? = nil) -> Scope {
        let parent = scopeStack.last?.scope
        let scope = Scope(kind: kind, parent: parent)
        parent?.children.append(scope)
        let fn = function ?? scopeStack.last?.function
        scopeStack.append(ScopeFrame(scope: scope, flags: flags, function: fn))
        return scope
    }

    /// Pushes an existing scope (used when a function scope is created before its frame).
    func pushScope(_ scope: Scope, flags: ScopeFlags, function: FunctionNode?) {
        if let parent = scopeStack.last?.scope {
            scope.parent = parent
            parent.children.append(scope)
        }
        scopeStack.append(ScopeFrame(scope: scope, flags: flags, function: function ?? scopeStack.last?.function))
    }

    func exitScope() {
        scopeStack.removeLast()
    }

    /// Declares `name` in the current scope, checking for redeclarations (acorn's declareName).
    func declareName(_ name: String, mode: BindMode, kind: BindingKind, at offset: Int) throws(ParseError) {
        var redeclared = false
        let top = scopeStack.count - 1
        if isModule && top == 0 && kind == .function {
            // A module's top-level functions are lexically scoped declarations.
            let s = scopeStack[0].scope
            if s.lexicalNames.contains(name) || s.varNames.contains(name) || s.functionNames.contains(name) {
                throw error("Identifier '\(name)' has already been declared", at: offset)
            }
            s.lexicalNames.insert(name)
            s.functionNames.insert(name)
            s.declaredVarNames.append(name)
            s.addBinding(name, kind: kind, offset: offset)
            return
        }
        switch mode {
        case .lexical:
            let s = scopeStack[top].scope
            redeclared = s.lexicalNames.contains(name) || s.functionNames.contains(name) || s.varNames.contains(name)
            s.lexicalNames.insert(name)
            s.addBinding(name, kind: kind, offset: offset)
        case .simpleCatch:
            let s = scopeStack[top].scope
            s.lexicalNames.insert(name)
            s.addBinding(name, kind: kind, offset: offset)
        case .function:
            let frame = scopeStack[top]
            let s = frame.scope
            if treatFunctionsAsVar(frame) {
                redeclared = s.lexicalNames.contains(name)
                s.declaredVarNames.append(name)
            } else {
                redeclared = s.lexicalNames.contains(name) || s.varNames.contains(name)
            }
            s.functionNames.insert(name)
            s.addBinding(name, kind: kind, offset: offset)
        case .var:
            var i = top
            while i >= 0 {
                let frame = scopeStack[i]
                let s = frame.scope
                if (s.lexicalNames.contains(name) && !(frame.flags.contains(.simpleCatch) && s.simpleCatchName == name))
                    || (!treatFunctionsAsVar(frame) && s.functionNames.contains(name)) {
                    redeclared = true
                    break
                }
                s.varNames.insert(name)
                if !frame.flags.intersection(.var_).isEmpty {
                    s.addBinding(name, kind: kind, offset: offset)
                    if kind != .parameter { s.declaredVarNames.append(name) }
                    break
                }
                i -= 1
            }
        case .none, .outside:
            break
        }
        if redeclared {
            throw error("Identifier '\(name)' has already been declared", at: offset)
        }
    }

    // MARK: - Entry

    func parseTopLevel() throws(ParseError) -> Program {
        let scope = enterScope(.script, flags: .top)
        for name in options.privateNames {
            let p = PrivateNameScope()
            p.declared[name] = ("other", false)
            privateNameStack.append(p)
        }
        try next()
        if !strict, try detectUseStrictDirective() { strict = true }
        var body: [Stmt] = []
        try parseDirectives(into: &body)
        while type != .eof {
            body.append(try parseStatement(context: .topLevel))
        }
        let program = Program(body: consume body, isStrict: strict, scope: scope, source: source)
        exitScope()
        try ScopeAnalyzer.analyze(program, parser: self)
        return program
    }

    /// Looks ahead through a directive prologue for an exact `"use strict"` directive.
    /// Leaves the lexer where it was.
    func detectUseStrictDirective() throws(ParseError) -> Bool {
        let snap = snapshot()
        defer { restore(snap) }
        while type == .string {
            let isUseStrict = end - start == 12 && sourceText(start + 1, end - 1) == "use strict"
            try next()
            if !isDirectiveEnd() { return false }
            if isUseStrict { return true }
            if type == .semi { try next() }
        }
        return false
    }

    /// After a string literal at the start of a statement: does the statement end here?
    func isDirectiveEnd() -> Bool {
        switch type {
        case .semi, .braceR, .eof: return true
        default: break
        }
        if !lexer.s.newlineBefore { return false }
        switch type {
        case .dot, .bracketL, .parenL, .template, .question, .questionDot, .comma, .eq, .assignOp,
             .plus, .minus, .star, .slash, .modulo, .starstar, .lt, .gt, .le, .ge, .eqeq, .ne, .eqeqeq, .nee,
             .shl, .sar, .shr, .bitAnd, .bitOr, .bitXor, .and, .or, .coalesce:
            return false
        case .name:
            return !(keyword == .in || keyword == .instanceof) || lexer.s.containsEscape
        default:
            return true
        }
    }

    /// Parses the directive prologue's statements (string-literal expression statements)
    /// and checks legacy octal escapes in them under strict mode.
    func parseDirectives(into body: inout [Stmt]) throws(ParseError) {
        while type == .string {
            let snap = snapshot()
            let octal = lexer.octalEscapeOffset
            try next()
            let isDirective = isDirectiveEnd()
            restore(snap)
            if !isDirective { return }
            if strict && octal >= 0 {
                throw error("Octal escape sequences are not allowed in strict mode.", at: octal)
            }
            body.append(try parseStatement(context: .topLevel))
        }
    }
}

/// Parses a script (ECMAScript `Script` goal).
///
/// Throws a `ParseError` of kind `.syntaxError` for any syntax or early error, and of
/// kind `.rangeError` when the nesting is too deep to parse without exhausting the stack.
public func parseScript(_ source: SourceFile, options: ParseOptions = ParseOptions()) throws(ParseError) -> Program {
    let parser = try Parser(source: source, options: options)
    return try parser.parseTopLevel()
}
