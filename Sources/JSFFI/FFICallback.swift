// Callbacks: C function pointers that call JS on the runtime's thread.
//
// A callback is an `ffi_closure` whose bytes (the trampoline, then cif, fun and
// user_data) are prepared in ordinary memory and copied into executable memory
// (`TrampolineMemory`: in the locked worker the JIT's code pool). The trampoline is
// position-independent and finds the closure data right after itself. Nothing is ever
// mapped writable and executable at once.

#if canImport(Glibc)
import Glibc
#endif
import CFFI
import JSRuntime

/// One `Sable.Callback`.
final class FFICallback {
    unowned(unsafe) let ffi: FFIRuntime
    let signature: FFISignature
    /// The JS function (marked while the callback is open).
    var function: Value
    var closed = false
    /// The trampoline: the C function pointer.
    var code: UnsafeRawPointer?

    init(ffi: FFIRuntime, signature: FFISignature, function: Value) {
        self.ffi = ffi
        self.signature = signature
        self.function = function
    }

    /// Called by libffi's closure entry with the C arguments; writes the C result.
    func invoke(_ ret: UnsafeMutableRawPointer, _ args: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        if pthread_equal(ffi.thread, pthread_self()) == 0 {
            let message = "Sable.Callback called from a thread other than the script's: the JS runtime is single-threaded\n"
            _ = message.withCString { write(2, $0, strlen($0)) }
            abort()
        }
        ret.storeBytes(of: 0, as: UInt64.self)
        let rt = ffi.rt
        // An earlier callback of this foreign call threw: the rest return 0 until it returns.
        if !ffi.pending.isEmpty { return }
        ffi.callbackDepth += 1
        defer { ffi.callbackDepth -= 1 }
        do throws(JSException) {
            if closed { throw try rt.typeError("a Sable.Callback \(signature.description) was called after close()") }
            let depth = rt.heap.rootDepth
            defer { rt.heap.popRoots(to: depth) }
            let n = signature.parameters.count
            let fn = function
            rt.heap.pushRoot(fn)
            // The arguments on the stack (no array per call), each rooted as it is made.
            let outcome = withUnsafeTemporaryAllocation(of: Value.self, capacity: max(n, 1)) { values -> Result<Value, JSException> in
                do throws(JSException) {
                    for i in 0..<n {
                        let v = try ffi.load(args[i]!, signature.kinds[i], isReturn: false)
                        values.initializeElement(at: i, to: v)
                        rt.heap.pushRoot(v)
                    }
                    return .success(try rt.call(fn, this: .undefined, UnsafeBufferPointer(rebasing: values[0..<n])))
                } catch {
                    return .failure(error)
                }
            }
            let result = try outcome.get()
            if signature.result == .void { return }
            var slot: UInt64 = 0
            let ok = withUnsafeMutableBytes(of: &slot) { ffi.store(result, signature.result, $0.baseAddress!) }
            if !ok {
                throw try rt.typeError("a Sable.Callback returned \(try rt.describeForError(result)); its result must be \(signature.result.expectation)")
            }
            // Small integers are widened to a full register (ffi_arg), as libffi expects.
            let widened: UInt64
            switch signature.result {
            case .i8: widened = UInt64(bitPattern: Int64(Int8(truncatingIfNeeded: slot)))
            case .i16: widened = UInt64(bitPattern: Int64(Int16(truncatingIfNeeded: slot)))
            case .i32: widened = UInt64(bitPattern: Int64(Int32(truncatingIfNeeded: slot)))
            case .u8, .bool: widened = slot & 0xFF
            case .u16: widened = slot & 0xFFFF
            case .u32: widened = slot & 0xFFFF_FFFF
            default: widened = slot
            }
            ret.storeBytes(of: widened, as: UInt64.self)
        } catch {
            ffi.setPending(error)
        }
    }
}

/// libffi's closure function: `user_data` is the (unretained) FFICallback.
let callbackEntry: @convention(c) (UnsafeMutablePointer<ffi_cif>?, UnsafeMutableRawPointer?,
                                    UnsafeMutablePointer<UnsafeMutableRawPointer?>?, UnsafeMutableRawPointer?) -> Void = { _, ret, args, user in
    let callback = Unmanaged<FFICallback>.fromOpaque(user!).takeUnretainedValue()
    callback.invoke(ret!, args ?? UnsafeMutablePointer(bitPattern: 8)!)
}

extension FFIRuntime {
    /// `new Sable.Callback({ parameters, result }, fn)`.
    func makeCallback(_ definition: Value, _ fn: Value) throws(JSException) -> Value {
        guard rt.isObject(definition) else {
            throw try rt.typeError("Sable.Callback: the definition must be { parameters: [...], result: ... }, got \(try rt.describeForError(definition))")
        }
        guard rt.isCallable(fn) else {
            throw try rt.typeError("Sable.Callback: the second argument must be a function, got \(try rt.describeForError(fn))")
        }
        let signature = try parseSignature(JSObject(definition), "Sable.Callback")
        guard let trampolines else {
            throw try rt.makeError(.error, "Sable.Callback: no executable memory for trampolines in this process")
        }
        let callback = FFICallback(ffi: self, signature: signature, function: fn)
        let size = sable_ffi_closure_size()
        let staging = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { staging.deallocate() }
        guard sable_ffi_prepare_closure(staging, signature.cif, callbackEntry, Unmanaged.passUnretained(callback).toOpaque()) == 0,
              let code = trampolines.install(UnsafeRawBufferPointer(start: staging, count: size)) else {
            throw try rt.rangeError("Sable.Callback: out of executable memory for trampolines")
        }
        callback.code = code
        // Kept for the life of the runtime: a closed callback's trampoline stays and answers
        // every call with an error, so a stale C pointer never runs other code.
        callbacks.append(callback)
        let o = try rt.makeHostObject(prototype: callbackPrototype, brand: Self.callbackBrand, payload: UInt64(UInt(bitPattern: code)),
                                      payload2: UInt64(callbacks.count - 1))
        return Value(cell: o.cell)
    }

    /// The code address of a `Sable.Callback` (nil when `v` is not one).
    @inline(__always) func callbackAddress(_ v: Value) -> UInt? {
        guard let o = rt.hostObject(v, brand: Self.callbackBrand) else { return nil }
        return UInt(o.word(1))
    }

    func thisCallback(_ this: Value, _ name: String) throws(JSException) -> FFICallback {
        guard let o = rt.hostObject(this, brand: Self.callbackBrand) else {
            throw try rt.typeError("Sable.Callback.prototype.\(name) called on \(try rt.describeForError(this)), not a Sable.Callback")
        }
        return callbacks[Int(o.word(2))]
    }

    func installCallbackMethods() throws(JSException) {
        let p = callbackPrototype!
        try rt.getter(p, "pointer") { [unowned(unsafe) self] _, this, _, _ throws(JSException) in
            let c = try self.thisCallback(this, "pointer")
            return try self.pointerValue(UnsafeMutableRawPointer(mutating: c.code))
        }
        try rt.getter(p, "closed") { [unowned(unsafe) self] _, this, _, _ throws(JSException) in
            Value(try self.thisCallback(this, "closed").closed)
        }
        try rt.method(p, "close", 0) { [unowned(unsafe) self] _, this, _, _ throws(JSException) in
            let c = try self.thisCallback(this, "close")
            c.closed = true
            c.function = .undefined
            return .undefined
        }
    }
}
