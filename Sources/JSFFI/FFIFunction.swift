// Calls from JS into C: argument conversion by declared type, ffi_call, the result back.

#if canImport(Glibc)
import Glibc
#endif
import CFFI
import JSRuntime

/// One foreign function of a `Sable.dlopen` library (or one an embedder exposed): its
/// address, its prepared signature, and storage for the arguments of a call, allocated
/// once (no JS runs between converting the arguments and `ffi_call`, which copies them
/// into registers and the stack, so nested calls of the same function cannot disturb it).
final class FFIFunction {
    let name: String
    let address: UnsafeMutableRawPointer
    let signature: FFISignature
    let library: FFILibrary?
    /// The runtime's FFI (which outlives this function), read through a guaranteed
    /// reference: no retain and release per call.
    let ffiRef: Unmanaged<FFIRuntime>
    let count: Int
    let kinds: UnsafeMutablePointer<FFIType>
    /// One 8-byte slot per argument, the pointers to them, and the result (16 bytes).
    let slots: UnsafeMutableRawPointer
    let slotPointers: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    let result: UnsafeMutableRawPointer
    // The call path reads only these (no reference counting per call).
    let cif: UnsafeMutablePointer<ffi_cif>
    let resultKind: FFIType
    let closedFlag: UnsafeMutablePointer<Bool>?

    init(name: String, address: UnsafeMutableRawPointer, signature: FFISignature, library: FFILibrary?, ffi: FFIRuntime) {
        self.name = name
        self.address = address
        self.signature = signature
        self.library = library
        self.ffiRef = Unmanaged.passUnretained(ffi)
        count = signature.parameters.count
        kinds = signature.kinds
        slots = .allocate(byteCount: max(count, 1) * 8, alignment: 16)
        slotPointers = .allocate(capacity: max(count, 1))
        for i in 0..<count { slotPointers[i] = slots + i * 8 }
        result = .allocate(byteCount: 16, alignment: 16)
        cif = signature.cif
        resultKind = signature.result
        closedFlag = library?.closedFlag
    }

    deinit {
        slots.deallocate()
        slotPointers.deallocate()
        result.deallocate()
    }

    func call(_ rt: Runtime, _ args: UnsafeBufferPointer<Value>) throws(JSException) -> Value {
        if let closedFlag, closedFlag.pointee {
            throw try rt.typeError("\(name): the library '\(library?.name ?? "")' was closed")
        }
        if args.count != count {
            throw try rt.typeError("\(name): expected \(count) argument\(count == 1 ? "" : "s") \(signature.description), got \(args.count)")
        }
        let ok = ffiRef._withUnsafeGuaranteedRef { ffi in
            for i in 0..<count where !ffi.store(args[i], kinds[i], slots + i * 8) { return i }
            return -1
        }
        if ok >= 0 {
            throw try rt.typeError("\(name): argument \(ok + 1) must be \(kinds[ok].expectation), got \(try rt.describeForError(args[ok]))")
        }
        sable_ffi_call(cif, address, result, slotPointers)
        if ffiRef._withUnsafeGuaranteedRef({ !$0.pending.isEmpty }) { try ffiRef.takeUnretainedValue().throwPending() }
        switch resultKind {
        case .void: return .undefined
        case .i32: return Value(int32: result.load(as: Int32.self))
        case .f64: return Value(result.load(as: Double.self))
        default: return try ffiRef.takeUnretainedValue().load(result, resultKind, isReturn: true)
        }
    }
}

extension FFIRuntime {
    /// Converts `v` to C type `t` into `slot`; false when it does not fit (never runs JS).
    @inline(__always)
    func store(_ v: Value, _ t: FFIType, _ slot: UnsafeMutableRawPointer) -> Bool {
        switch t {
        case .i32:
            if v.isInt32 { slot.storeBytes(of: v.asInt32, as: Int32.self); return true }
            guard let i = Self.integer(v, Int64(Int32.min), Int64(Int32.max)) else { return false }
            slot.storeBytes(of: Int32(i), as: Int32.self)
        case .f64:
            guard v.isNumber else { return false }
            slot.storeBytes(of: v.asNumber, as: Double.self)
        case .f32:
            guard v.isNumber else { return false }
            slot.storeBytes(of: Float(v.asNumber), as: Float.self)
        case .u32:
            guard let i = Self.integer(v, 0, Int64(UInt32.max)) else { return false }
            slot.storeBytes(of: UInt32(i), as: UInt32.self)
        case .i8:
            guard let i = Self.integer(v, Int64(Int8.min), Int64(Int8.max)) else { return false }
            slot.storeBytes(of: Int8(i), as: Int8.self)
        case .u8:
            guard let i = Self.integer(v, 0, Int64(UInt8.max)) else { return false }
            slot.storeBytes(of: UInt8(i), as: UInt8.self)
        case .i16:
            guard let i = Self.integer(v, Int64(Int16.min), Int64(Int16.max)) else { return false }
            slot.storeBytes(of: Int16(i), as: Int16.self)
        case .u16:
            guard let i = Self.integer(v, 0, Int64(UInt16.max)) else { return false }
            slot.storeBytes(of: UInt16(i), as: UInt16.self)
        case .bool:
            guard v.isBool else { return false }
            slot.storeBytes(of: v.asBool ? 1 : 0, as: UInt8.self)
        case .i64, .isize:
            if rt.isBigInt(v) {
                guard let i = rt.bigIntValue(v).int64 else { return false }
                slot.storeBytes(of: i, as: Int64.self)
            } else {
                guard let i = Self.integer(v, -(1 << 53) + 1, (1 << 53) - 1) else { return false }
                slot.storeBytes(of: i, as: Int64.self)
            }
        case .u64, .usize:
            if rt.isBigInt(v) {
                guard let u = rt.bigIntValue(v).asUInt64 else { return false }
                slot.storeBytes(of: u, as: UInt64.self)
            } else {
                guard let i = Self.integer(v, 0, (1 << 53) - 1) else { return false }
                slot.storeBytes(of: UInt64(i), as: UInt64.self)
            }
        case .pointer:
            if v.isNull { slot.storeBytes(of: 0, as: UInt.self); return true }
            guard let a = pointerAddress(v) ?? callbackAddress(v) else { return false }
            slot.storeBytes(of: a, as: UInt.self)
        case .buffer:
            if v.isNull { slot.storeBytes(of: 0, as: UInt.self); return true }
            // Detached or out-of-bounds views do not fit either.
            guard rt.isBinaryData(v), let bytes = try? rt.binaryBytes(v) else { return false }
            slot.storeBytes(of: UInt(bitPattern: bytes.baseAddress), as: UInt.self)
        case .function:
            if v.isNull { slot.storeBytes(of: 0, as: UInt.self); return true }
            guard let a = callbackAddress(v) ?? pointerAddress(v) else { return false }
            slot.storeBytes(of: a, as: UInt.self)
        case .void:
            return false
        }
        return true
    }

    /// An integral Number in `[lo, hi]`.
    @inline(__always)
    static func integer(_ v: Value, _ lo: Int64, _ hi: Int64) -> Int64? {
        if v.isInt32 {
            let i = Int64(v.asInt32)
            return i >= lo && i <= hi ? i : nil
        }
        guard v.isNumber else { return nil }
        let d = v.asDouble
        guard d >= Double(lo), d <= Double(hi), d.rounded(.towardZero) == d else { return nil }
        return Int64(d)
    }

    /// The JS value of a C value of type `t` at `p`. Results of small integer types are
    /// widened to a full register by libffi (`isReturn`); arguments are not.
    @inline(__always)
    func load(_ p: UnsafeRawPointer, _ t: FFIType, isReturn: Bool) throws(JSException) -> Value {
        switch t {
        case .void: return .undefined
        case .i32: return Value(int32: p.load(as: Int32.self))
        case .f64: return Value(p.load(as: Double.self))
        case .f32: return Value(Double(p.load(as: Float.self)))
        case .u32: return Value(Int(p.load(as: UInt32.self)))
        case .i8: return Value(int32: Int32(p.load(as: Int8.self)))
        case .u8: return Value(int32: Int32(p.load(as: UInt8.self)))
        case .i16: return Value(int32: Int32(p.load(as: Int16.self)))
        case .u16: return Value(int32: Int32(p.load(as: UInt16.self)))
        case .bool: return Value(p.load(as: UInt8.self) != 0)
        case .i64, .isize: return try rt.bigIntValue(int64: p.load(as: Int64.self))
        case .u64, .usize: return try rt.bigIntValue(uint64: p.load(as: UInt64.self))
        case .pointer, .buffer, .function: return try pointerValue(UnsafeMutableRawPointer(bitPattern: p.load(as: UInt.self)))
        }
    }
}
