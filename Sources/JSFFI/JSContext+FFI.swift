// The embedding API's FFI: a JSContext exposes a C function with a declared signature.

import JSEngine
import JSRuntime

/// The FFI of each context (the context's runtime keeps it alive; looked up by context).
nonisolated(unsafe) private var contextFFIs: [(context: Weak, ffi: FFIRuntime)] = []
private struct Weak { weak var context: JSContext? }

extension JSContext {
    /// This context's FFI, made on first use.
    func ffi() throws(JSException) -> FFIRuntime {
        contextFFIs.removeAll { $0.context.context == nil }
        if let e = contextFFIs.first(where: { $0.context.context === self }) { return e.ffi }
        let f = try FFIRuntime(runtime)
        f.trampolines = PageTrampolines()
        f.librariesOrigin = "enabled with JSContext.enableFFI(libraries:)"
        try f.installGlobal()
        contextFFIs.append((Weak(context: self), f))
        return f
    }

    /// Defines the global function `name` that calls the C function at `address` through
    /// libffi with the declared signature (Deno's types; see `FFIType`). Arguments are
    /// converted as `Sable.dlopen`'s functions convert them: anything that does not fit the
    /// declared type is a `TypeError`, i64/u64 results are BigInts, pointers are
    /// `Sable.Pointer`s. The first use also defines `Sable.Pointer` and `Sable.Callback`
    /// (trampolines in pages flipped RW then RX, never both, unless `trampolines` was set).
    ///
    ///     ctx.exposeCFunction("cos", address: dlsym(libm, "cos")!, parameters: [.f64], result: .f64)
    ///     ctx.evaluateScript("cos(0)")   // 1
    ///
    /// Throws `FFISignature.Invalid` for a signature libffi refuses (void parameters,
    /// more than 64 parameters).
    public func exposeCFunction(_ name: String, address: UnsafeRawPointer, parameters: [FFIType], result: FFIType) throws {
        let signature = try FFISignature(parameters: parameters, result: result)
        let rt = runtime
        do throws(JSException) {
            let ffi = try self.ffi()
            let f = FFIFunction(name: name, address: UnsafeMutableRawPointer(mutating: address), signature: signature, library: nil, ffi: ffi)
            let fn = try rt.makeNativeFunction(name, length: parameters.count) { rt, _, args, _ throws(JSException) in
                try f.call(rt, args)
            }
            try rt.put(rt.realm.global!, name, Value(cell: fn.cell))
        } catch {
            throw FFISignature.Invalid(description: "cannot define \(name): \((try? rt.describeForError(error.value)) ?? "error")")
        }
    }

    /// The FFI of this context: `Sable.dlopen` may open `libraries` (loaded now with dlopen).
    public func enableFFI(libraries: [String]) throws {
        let rt = runtime
        let ffi: FFIRuntime
        do throws(JSException) {
            ffi = try self.ffi()
        } catch {
            throw FFISignature.Invalid(description: "cannot install Sable: \((try? rt.describeForError(error.value)) ?? "error")")
        }
        try ffi.load(libraries: libraries)
    }
}
