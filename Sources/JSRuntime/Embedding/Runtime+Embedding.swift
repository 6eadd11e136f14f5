// Entry points for embedders that drive parsing and compiling themselves (the test262
// runner tells a parse error from a compile error from a run-time error this way).

import JSBytecode

extension Runtime {
    /// Runs an already compiled script (`Compiler.compileScript`) in the current realm as a
    /// global Script; returns its completion value. A script's code block belongs to the
    /// runtime that first runs it: compile it again for another runtime.
    public func runScript(compiled code: CodeBlock) throws(JSException) -> Value {
        refreshStackLimit()
        return try runScript(code)
    }
}
