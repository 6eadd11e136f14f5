// Sable.Pointer.prototype: the address, offsets, and typed reads and writes (Deno's
// UnsafePointerView, as methods of the pointer).

#if canImport(Glibc)
import Glibc
#endif
import JSRuntime

extension FFIRuntime {
    func installPointerMethods() throws(JSException) {
        let p = pointerPrototype!
        try rt.getter(p, "address") { [unowned(unsafe) self] rt, this, _, _ throws(JSException) in
            try rt.bigIntValue(uint64: UInt64(try self.thisPointer(this, "address")))
        }
        try rt.method(p, "offset", 1) { [unowned(unsafe) self] rt, this, args, _ throws(JSException) in
            let a = try self.thisPointer(this, "offset")
            let n = try self.offsetArgument(args, 0, "offset")
            return try self.pointerValue(UnsafeMutableRawPointer(bitPattern: UInt(bitPattern: Int(bitPattern: a) &+ n)))
        }
        try rt.method(p, "equals", 1) { [unowned(unsafe) self] rt, this, args, _ throws(JSException) in
            let a = try self.thisPointer(this, "equals")
            return Value(args.count > 0 && self.pointerAddress(args[0]) == a)
        }
        try rt.method(p, "toString", 0) { [unowned(unsafe) self] rt, this, _, _ throws(JSException) in
            try rt.makeString("Sable.Pointer(0x\(String(try self.thisPointer(this, "toString"), radix: 16)))")
        }
        let numeric: [(String, FFIType)] = [("I8", .i8), ("U8", .u8), ("I16", .i16), ("U16", .u16), ("I32", .i32), ("U32", .u32),
                                            ("I64", .i64), ("U64", .u64), ("F32", .f32), ("F64", .f64), ("Pointer", .pointer)]
        for (suffix, t) in numeric {
            let size = t == .i8 || t == .u8 ? 1 : t == .i16 || t == .u16 ? 2 : t == .i32 || t == .u32 || t == .f32 ? 4 : 8
            try rt.method(p, "read" + suffix, 1) { [unowned(unsafe) self] rt, this, args, _ throws(JSException) in
                let at = try self.address(this, args, 0, "read" + suffix)
                // Arguments are not widened: load reads exactly `size` bytes, unaligned-safe.
                var slot: UInt64 = 0
                withUnsafeMutableBytes(of: &slot) { $0.baseAddress!.copyMemory(from: at, byteCount: size) }
                return try withUnsafeBytes(of: &slot) { b throws(JSException) in try self.load(b.baseAddress!, t, isReturn: false) }
            }
            try rt.method(p, "write" + suffix, 2) { [unowned(unsafe) self] rt, this, args, _ throws(JSException) in
                let at = try self.address(this, args, 0, "write" + suffix)
                let v = args.count > 1 ? args[1] : .undefined
                var slot: UInt64 = 0
                let ok = withUnsafeMutableBytes(of: &slot) { self.store(v, t, $0.baseAddress!) }
                if !ok { throw try rt.typeError("Sable.Pointer.prototype.write\(suffix): the value must be \(t.expectation), got \(try rt.describeForError(v))") }
                withUnsafeBytes(of: &slot) { at.copyMemory(from: $0.baseAddress!, byteCount: size) }
                return .undefined
            }
        }
        try rt.method(p, "readCString", 1) { [unowned(unsafe) self] rt, this, args, _ throws(JSException) in
            let at = try self.address(this, args, 0, "readCString")
            let n = strlen(at.assumingMemoryBound(to: CChar.self))
            return try rt.makeString(String(decoding: UnsafeRawBufferPointer(start: at, count: n), as: UTF8.self))
        }
        // copyInto(destination, offset = 0): copies destination's length in bytes from the pointer.
        try rt.method(p, "copyInto", 2) { [unowned(unsafe) self] rt, this, args, _ throws(JSException) in
            let dest = args.count > 0 ? args[0] : .undefined
            let at = try self.address(this, args, 1, "copyInto")
            guard let bytes = try rt.binaryBytes(dest) else {
                throw try rt.typeError("Sable.Pointer.prototype.copyInto: the destination must be an ArrayBuffer, a typed array or a DataView, got \(try rt.describeForError(dest))")
            }
            if bytes.count > 0 { bytes.baseAddress!.copyMemory(from: at, byteCount: bytes.count) }
            return .undefined
        }
    }

    func thisPointer(_ this: Value, _ name: String) throws(JSException) -> UInt {
        guard let a = pointerAddress(this) else {
            throw try rt.typeError("Sable.Pointer.prototype.\(name) called on \(try rt.describeForError(this)), not a Sable.Pointer")
        }
        return a
    }

    /// A byte offset argument (default 0): an integral Number.
    func offsetArgument(_ args: UnsafeBufferPointer<Value>, _ i: Int, _ name: String) throws(JSException) -> Int {
        let v = args.count > i ? args[i] : .undefined
        if v.isUndefined { return 0 }
        guard let n = Self.integer(v, -(1 << 53) + 1, (1 << 53) - 1) else {
            throw try rt.typeError("Sable.Pointer.prototype.\(name): the offset must be an integer, got \(try rt.describeForError(v))")
        }
        return Int(n)
    }

    /// `this` plus the offset argument `i`.
    func address(_ this: Value, _ args: UnsafeBufferPointer<Value>, _ i: Int, _ name: String) throws(JSException) -> UnsafeMutableRawPointer {
        let a = try thisPointer(this, name)
        let n = try offsetArgument(args, i, name)
        guard let p = UnsafeMutableRawPointer(bitPattern: UInt(bitPattern: Int(bitPattern: a) &+ n)) else {
            throw try rt.typeError("Sable.Pointer.prototype.\(name): the address is null")
        }
        return p
    }
}
