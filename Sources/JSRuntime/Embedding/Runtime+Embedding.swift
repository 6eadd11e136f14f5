// Entry points for embedders that drive parsing and compiling themselves (the test262
// runner tells a parse error from a compile error from a run-time error this way).

import JSBytecode

extension Runtime {
    /// Runs an already compiled script (`Compiler.compileScript`) in the current realm as a
    /// global Script; returns its completion value. A script's code block belongs to the
    /// runtime that first runs it (its constants and inline caches then point into that
    /// runtime's heap): running it, or any function code nested in it, in another runtime
    /// is a `TypeError`. Compile the source again for another runtime.
    public func runScript(compiled code: CodeBlock) throws(JSException) -> Value {
        refreshStackLimit()
        try claim(code)
        return try runScript(code)
    }

    /// Makes `code` and every code block nested in it this runtime's, or throws if any
    /// of them belongs to another runtime (alive or gone) or was run by one.
    func claim(_ code: CodeBlock) throws(JSException) {
        var blocks: [CodeBlock] = []
        var pending = [code]
        var visited = Set<ObjectIdentifier>()
        while let b = pending.popLast() {
            guard visited.insert(ObjectIdentifier(b)).inserted else { continue }
            if b.owner !== self && (b.owner != nil || b.runtimeData != nil) {
                throw try typeError("this compiled code belongs to another runtime; compile it again for this one")
            }
            blocks.append(b)
            for c in b.constants {
                switch c {
                case .function(let f): pending.append(f)
                case .classTemplate(let t): pending.append(t.constructor)
                default: break
                }
            }
        }
        for b in blocks { b.owner = self }
    }

    /// Whether `v` may be used in this runtime: a primitive, or a live cell of this
    /// runtime's heap (not one of another runtime's, nor a freed one). For embedding
    /// APIs that accept raw values; the interpreter never needs to ask.
    public func owns(_ v: Value) -> Bool {
        !v.isCell || heap.isCellStart(UInt(bitPattern: v.asCell))
    }
}
