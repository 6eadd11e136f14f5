// The FFI of one runtime: `Sable.dlopen`, `Sable.Pointer`, `Sable.Callback`, and the value
// conversions between JS and C that calls and callbacks share.

#if canImport(Glibc)
import Glibc
#endif
import CFFI
import JSRuntime

/// The FFI state of one runtime: the libraries it may open, the prototypes of its pointer
/// and callback objects, its live callbacks and the exception a callback left pending.
///
/// Single-threaded, like the runtime.
public final class FFIRuntime {
    unowned(unsafe) let rt: Runtime
    /// The libraries scripts may open (loaded before lockdown), by the name given.
    var libraries: [LoadedLibrary] = []
    /// How the allowed libraries were named, for the error about another one.
    public var librariesOrigin = "named with --ffi (libraries are loaded before the worker locks down)"
    /// Where callback trampolines go (nil: `Sable.Callback` is refused).
    public var trampolines: TrampolineMemory?
    var pointerPrototype: JSObject!
    var callbackPrototype: JSObject!
    /// Every callback made; closed ones stay (their trampolines answer with an error).
    var callbacks: [FFICallback] = []
    /// An exception thrown by a callback while C code ran: thrown when the foreign call
    /// that led to it returns.
    var pending = Value.empty
    /// Callbacks running now (JS called from inside a foreign call).
    var callbackDepth = 0
    /// Libraries closed while a foreign call was running (from a callback): dlclosed when
    /// the outermost foreign call returns, never under a C frame of theirs.
    var deferredCloses: [UnsafeMutableRawPointer] = []
    /// Set when a foreign call's return has work: a pending exception or deferred closes
    /// (the one flag the call path reads).
    var attention = false
    /// The thread the runtime runs on (a callback from another thread cannot enter it).
    let thread = pthread_self()

    static let pointerBrand: UInt64 = 0x5361_626C_6550_7472 // "SablePtr"
    static let callbackBrand: UInt64 = 0x5361_626C_6543_6273 // "SableCbs"

    /// Makes the FFI of `rt` (once per runtime: the runtime's heap keeps it alive, through
    /// the root marker that marks its prototypes, callbacks and pending exception).
    public init(_ rt: Runtime) throws(JSException) {
        self.rt = rt
        pointerPrototype = try rt.newObject()
        rt.heap.pushRoot(Value(cell: pointerPrototype.cell))
        callbackPrototype = try rt.newObject()
        rt.heap.pushRoot(Value(cell: callbackPrototype.cell))
        defer { rt.heap.popRoots(2) }
        // Strong: the heap (so the runtime) owns this object. Everything the FFI hands the
        // runtime (native functions, callbacks) refers back to it unowned(unsafe), with no
        // reference counting on the call path.
        rt.heap.addRootMarker { m in
            m.mark(cell: self.pointerPrototype.cell)
            m.mark(cell: self.callbackPrototype.cell)
            if !self.pending.isEmpty { m.mark(self.pending) }
            for c in self.callbacks where !c.closed { m.mark(c.function) }
        }
        try installPointerMethods()
        try installCallbackMethods()
    }

    // MARK: - Libraries

    /// Loads `names` with dlopen (before lockdown): the libraries `Sable.dlopen` may open.
    /// Throws the first that does not load, with dlerror's message.
    public func load(libraries names: [String]) throws(LoadFailure) {
        for name in names {
            let known = libraries.first { $0.name == name }
            if known?.handle != nil { continue }
            guard let h = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
                throw LoadFailure(library: name, message: dlerror().map { String(cString: $0) } ?? "unknown error")
            }
            // A closed library named again (an embedder, outside lockdown) is loaded again.
            if let known { known.handle = h } else { libraries.append(LoadedLibrary(name: name, handle: h)) }
        }
    }

    public struct LoadFailure: Error, CustomStringConvertible {
        public var library: String
        public var message: String
        public var description: String { "cannot load '\(library)': \(message)" }
    }

    /// Defines the global `Sable` (or adds to it): `dlopen`, `Pointer`, `Callback`.
    public func installGlobal() throws(JSException) {
        let global: JSObject = rt.realm.global
        var sable = try rt.get(global, "Sable")
        if !rt.isObject(sable) {
            let o = try rt.newObject()
            sable = Value(cell: o.cell)
            try rt.put(global, "Sable", sable)
        }
        let s = JSObject(sable)
        rt.heap.pushRoot(sable)
        defer { rt.heap.popRoots(1) }
        try rt.method(s, "dlopen", 2) { [unowned(unsafe) self] _, _, args, _ throws(JSException) in
            try self.openLibrary(args.count > 0 ? args[0] : .undefined, args.count > 1 ? args[1] : .undefined)
        }
        let pointer = try rt.makeNativeFunction("Pointer", length: 0, isConstructor: true) { rt, _, _, _ throws(JSException) in
            throw try rt.typeError("Sable.Pointer is not constructed: use Sable.Pointer.of(buffer), or pointers that C returns")
        }
        try link(pointer, pointerPrototype, in: s, "Pointer")
        try rt.method(pointer, "of", 1) { [unowned(unsafe) self] rt, _, args, _ throws(JSException) in
            let v = args.count > 0 ? args[0] : .undefined
            guard let bytes = try rt.binaryBytes(v) else {
                throw try rt.typeError("Sable.Pointer.of: expected an ArrayBuffer, a typed array or a DataView, got \(try rt.describeForError(v))")
            }
            return try self.pointerValue(bytes.baseAddress)
        }
        try rt.method(pointer, "unsafeFromAddress", 1) { [unowned(unsafe) self] rt, _, args, _ throws(JSException) in
            let v = args.count > 0 ? args[0] : .undefined
            guard rt.isBigInt(v), let a = rt.bigIntValue(v).asUInt64 else {
                throw try rt.typeError("Sable.Pointer.unsafeFromAddress: expected a BigInt from 0 to 2^64-1, got \(try rt.describeForError(v))")
            }
            return try self.pointerValue(UnsafeMutableRawPointer(bitPattern: UInt(a)))
        }
        let callback = try rt.makeNativeFunction("Callback", length: 2, isConstructor: true) { [unowned(unsafe) self] rt, _, args, newTarget throws(JSException) in
            if newTarget.isUndefined { throw try rt.typeError("Constructor Sable.Callback requires 'new'") }
            return try self.makeCallback(args.count > 0 ? args[0] : .undefined, args.count > 1 ? args[1] : .undefined)
        }
        try link(callback, callbackPrototype, in: s, "Callback")
    }

    func link(_ ctor: JSObject, _ proto: JSObject, in sable: JSObject, _ name: String) throws(JSException) {
        rt.heap.pushRoot(Value(cell: ctor.cell))
        defer { rt.heap.popRoots(1) }
        try rt.put(ctor, "prototype", Value(cell: proto.cell), [])
        try rt.put(proto, "constructor", Value(cell: ctor.cell))
        try rt.put(sable, name, Value(cell: ctor.cell))
        _ = try rt.defineOwnProperty(proto, .named(PropertyKey(cell: rt.wellKnown.toStringTag.asCell)),
                                     PropertyDescriptor(value: try rt.makeString("Sable." + name), writable: false,
                                                        enumerable: false, configurable: true))
    }

    /// `Sable.dlopen(name, symbols)`: `{ symbols: { name(...args) }, close() }`.
    func openLibrary(_ nameValue: Value, _ symbolsValue: Value) throws(JSException) -> Value {
        guard rt.isString(nameValue) else {
            throw try rt.typeError("Sable.dlopen: the library name must be a string, got \(try rt.describeForError(nameValue))")
        }
        let name = try rt.flatten(nameValue).swiftString
        guard let lib = libraries.first(where: { $0.name == name }) else {
            let named = libraries.isEmpty ? "none" : libraries.map { "'\($0.name)'" }.joined(separator: ", ")
            throw try rt.makeError(.error, "Sable.dlopen: '\(name)' was not \(librariesOrigin); named: \(named)")
        }
        guard let handle = lib.handle else {
            throw try rt.makeError(.error, "Sable.dlopen: '\(name)' was closed (every Sable.dlopen of it closed, so it was unloaded with dlclose); a library is loaded once, before lockdown, and cannot be loaded again")
        }
        guard rt.isObject(symbolsValue) else {
            throw try rt.typeError("Sable.dlopen: the symbols must be an object ({ name: { parameters: [...], result: ... } }), got \(try rt.describeForError(symbolsValue))")
        }
        let library = FFILibrary(name: name)
        let depth = rt.heap.rootDepth
        defer { rt.heap.popRoots(to: depth) }
        let result = try rt.newObject()
        rt.heap.pushRoot(Value(cell: result.cell))
        let symbols = try rt.newObject()
        rt.heap.pushRoot(Value(cell: symbols.cell))
        let defs = JSObject(symbolsValue)
        for key in try rt.ownKeys(defs) {
            guard case .named(let k) = key, !k.isSymbol else { continue }
            let symbolName = StringCell(k.cell).swiftString
            let def = try rt.get(defs, key, receiver: symbolsValue)
            let what = "Sable.dlopen: symbol '\(symbolName)'"
            guard rt.isObject(def) else { throw try rt.typeError("\(what): expected { parameters: [...], result: ... }, got \(try rt.describeForError(def))") }
            let signature = try parseSignature(JSObject(def), what)
            var cName = symbolName
            let nameField = try rt.get(JSObject(def), "name")
            if !nameField.isUndefined {
                guard rt.isString(nameField) else { throw try rt.typeError("\(what): 'name' must be a string") }
                cName = try rt.flatten(nameField).swiftString
            }
            let optional = rt.toBoolean(try rt.get(JSObject(def), "optional"))
            if rt.toBoolean(try rt.get(JSObject(def), "nonblocking")) {
                // Deno runs such a call on another thread and returns a Promise; the locked
                // worker may not start a thread (no clone in its policy; see README).
                throw try rt.typeError("\(what): nonblocking calls are not supported: they would need a thread, and the locked worker cannot start one")
            }
            dlerror()
            guard let address = dlsym(handle, cName) else {
                if optional {
                    try rt.put(symbols, symbolName, .null, [.writable, .enumerable, .configurable])
                    continue
                }
                throw try rt.makeError(.error, "Sable.dlopen: symbol '\(cName)' not found in '\(name)'")
            }
            let f = FFIFunction(name: symbolName, address: address, signature: signature, library: library, ffi: self)
            let fn = try rt.makeNativeFunction(symbolName, length: signature.parameters.count) { rt, _, args, _ throws(JSException) in
                try f.call(rt, args)
            }
            try rt.put(symbols, symbolName, Value(cell: fn.cell), [.writable, .enumerable, .configurable])
        }
        try rt.put(result, "symbols", Value(cell: symbols.cell), [.writable, .enumerable, .configurable])
        // Counted once the object is complete (a failed Sable.dlopen does not count).
        lib.opens += 1
        let close = try rt.makeNativeFunction("close", length: 0) { [unowned(unsafe) self] _, _, _, _ in
            if library.closed { return .undefined }
            library.closed = true
            self.release(lib)
            return .undefined
        }
        try rt.put(result, "close", Value(cell: close.cell), [.writable, .enumerable, .configurable])
        return Value(cell: result.cell)
    }

    /// `{ parameters: [types], result: type }`.
    func parseSignature(_ def: JSObject, _ what: String) throws(JSException) -> FFISignature {
        let params = try rt.get(def, "parameters")
        guard rt.isArrayObject(params) else {
            throw try rt.typeError("\(what): 'parameters' must be an array of type names, got \(try rt.describeForError(params))")
        }
        let count = try rt.toLength(try rt.get(JSObject(params), "length"))
        if count > FFISignature.maxParameters {
            throw try rt.typeError("\(what): \(count) parameters (at most \(FFISignature.maxParameters))")
        }
        var types: [FFIType] = []
        for i in 0..<count {
            let t = try rt.get(JSObject(params), .index(UInt32(i)), receiver: params)
            types.append(try parseType(t, "\(what): parameter \(i + 1)", allowVoid: false))
        }
        let r = try rt.get(def, "result")
        let result = r.isUndefined ? FFIType.void : try parseType(r, "\(what): result", allowVoid: true)
        do {
            return try FFISignature(parameters: types, result: result)
        } catch {
            throw try rt.typeError("\(what): \(error.description)")
        }
    }

    func parseType(_ v: Value, _ what: String, allowVoid: Bool) throws(JSException) -> FFIType {
        let names = FFIType.allCases.filter { allowVoid || $0 != .void }.map(\.name).joined(separator: " ")
        guard rt.isString(v), let t = FFIType(name: try rt.flatten(v).swiftString), allowVoid || t != .void else {
            throw try rt.typeError("\(what): unknown type \(try rt.describeForError(v)) (types: \(names))")
        }
        return t
    }

    // MARK: - Pointers

    /// A `Sable.Pointer` for `address` (null for the null pointer, as in Deno).
    func pointerValue(_ address: UnsafeMutableRawPointer?) throws(JSException) -> Value {
        guard let address else { return .null }
        let o = try rt.makeHostObject(prototype: pointerPrototype, brand: Self.pointerBrand,
                                      payload: UInt64(UInt(bitPattern: address)))
        return Value(cell: o.cell)
    }

    /// The address of a `Sable.Pointer` (nil when `v` is not one).
    @inline(__always) func pointerAddress(_ v: Value) -> UInt? {
        guard let o = rt.hostObject(v, brand: Self.pointerBrand) else { return nil }
        return UInt(o.word(1))
    }

    // MARK: - Exceptions from callbacks

    func setPending(_ error: JSException) {
        if pending.isEmpty { pending = error.value }
        attention = true
    }

    /// One `Sable.dlopen` of `lib` closed: the last one unloads it (dlclose), at once when no
    /// foreign call is running, else when the outermost one returns (a callback may close
    /// the library whose code called it).
    func release(_ lib: LoadedLibrary) {
        lib.opens -= 1
        guard lib.opens == 0, let handle = lib.handle else { return }
        lib.handle = nil
        if callbackDepth == 0 {
            dlclose(handle)
        } else {
            deferredCloses.append(handle)
            attention = true
        }
    }

    /// After a foreign call, when `attention` is set: unloads the libraries closed during it
    /// (when it was the outermost), then throws the exception a callback left pending.
    func afterForeignCall() throws(JSException) {
        if callbackDepth == 0 && !deferredCloses.isEmpty {
            for h in deferredCloses { dlclose(h) }
            deferredCloses.removeAll()
        }
        let e = pending
        pending = .empty
        attention = !deferredCloses.isEmpty
        if !e.isEmpty { throw JSException(throwing: e) }
    }
}

/// A library named before lockdown: its handle until the last `Sable.dlopen` of it closes
/// (then nil: it was unloaded and cannot be opened again).
final class LoadedLibrary {
    let name: String
    var handle: UnsafeMutableRawPointer?
    /// Open `Sable.dlopen` results of it.
    var opens = 0
    init(name: String, handle: UnsafeMutableRawPointer) {
        self.name = name
        self.handle = handle
    }
}

/// The result of `Sable.dlopen`: closing it makes every function of it throw.
final class FFILibrary {
    let name: String
    /// Read by every call of the library's functions (a raw flag: no reference counting).
    let closedFlag = UnsafeMutablePointer<Bool>.allocate(capacity: 1)
    var closed: Bool {
        get { closedFlag.pointee }
        set { closedFlag.pointee = newValue }
    }
    init(name: String) {
        self.name = name
        closedFlag.initialize(to: false)
    }
    deinit { closedFlag.deallocate() }
}

extension JSBigInt {
    var asUInt64: UInt64? {
        if isZero { return 0 }
        return !negative && mag.count == 1 ? mag[0] : nil
    }
}
