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
    /// Called without ffi_call (see `init`): the slots are then a register file (the
    /// integer registers, 8 floating-point ones) and the stack arguments.
    let direct: Bool
    /// Stack arguments of the direct call.
    let stackCount: Int32

    /// `SABLE_FFI_CALL=libffi` in the environment: every call through ffi_call (to measure
    /// and test libffi's path on signatures that would be called directly).
    static let forceLibffi: Bool = getenv("SABLE_FFI_CALL").map { String(cString: $0) == "libffi" } ?? false

    init(name: String, address: UnsafeMutableRawPointer, signature: FFISignature, library: FFILibrary?, ffi: FFIRuntime) {
        self.name = name
        self.address = address
        self.signature = signature
        self.library = library
        self.ffiRef = Unmanaged.passUnretained(ffi)
        count = signature.parameters.count
        kinds = signature.kinds
        // What libffi's ffi_call works out on every call, worked out once: integer-class
        // arguments (integers, bool, pointers) take the next integer register, floating-point
        // ones the next floating-point register (x86_64 SysV: 6 and 8; arm64 AAPCS64: 8 and
        // 8; the two files fill independently of the interleaving), and the rest go on the
        // stack in parameter order, 8 bytes each. Signatures with up to
        // `sable_direct_max_stack()` stack arguments are then called through a C function
        // pointer of that shape (`sable_direct_call`); longer ones through ffi_call.
        let iregs = Int(sable_direct_iregs())
        var nextInt = 0, nextFP = 0, stack = 0
        var layout: [Int] = []
        for t in signature.parameters {
            if t.isFloatingPoint && nextFP < 8 {
                layout.append(iregs + nextFP); nextFP += 1
            } else if !t.isFloatingPoint && nextInt < iregs {
                layout.append(nextInt); nextInt += 1
            } else {
                layout.append(-1 - stack); stack += 1
            }
        }
        #if (arch(x86_64) || arch(arm64)) && os(Linux)
        direct = stack <= Int(sable_direct_max_stack()) && !Self.forceLibffi
        #else
        direct = false
        #endif
        stackCount = Int32(stack)
        let slotCount = direct ? iregs + 8 + stack : max(count, 1)
        slots = .allocate(byteCount: slotCount * 8, alignment: 16)
        slots.initializeMemory(as: UInt64.self, repeating: 0, count: slotCount)
        slotPointers = .allocate(capacity: max(count, 1))
        for i in 0..<count {
            if !direct {
                slotPointers[i] = slots + i * 8
            } else if layout[i] >= 0 {
                slotPointers[i] = slots + layout[i] * 8
            } else {
                slotPointers[i] = slots + (iregs + 8 + (-1 - layout[i])) * 8
            }
        }
        result = .allocate(byteCount: 16, alignment: 16)
        cif = signature.cif
        resultKind = signature.result
        closedFlag = library?.closedFlag
        fpResult = signature.result.isFloatingPoint ? 1 : 0
    }
    let fpResult: Int32

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
        for i in 0..<count {
            let v = args[i], slot = slotPointers[i]!
            // The common cases inline; the rest (ranges, BigInts, pointers, buffers) in `store`.
            switch kinds[i] {
            case .i32 where v.isInt32: slot.storeBytes(of: Int64(v.asInt32), as: Int64.self)
            case .f64 where v.isNumber: slot.storeBytes(of: v.asNumber, as: Double.self)
            case .f32 where v.isNumber: slot.storeBytes(of: UInt64(Float(v.asNumber).bitPattern), as: UInt64.self)
            default:
                if !ffiRef._withUnsafeGuaranteedRef({ $0.store(v, kinds[i], slot) }) {
                    throw try rt.typeError("\(name): argument \(i + 1) must be \(kinds[i].expectation), got \(try rt.describeForError(v))")
                }
            }
        }
        if direct {
            // libffi's ffi_call classifies every argument on every call (about 30 ns here,
            // more than the rest of the call): the layout was worked out once (`init`), the
            // slots hold each argument as its register or stack slot would (`store`), unused
            // registers are zero, and the result register is stored as libffi would store it.
            sable_direct_call(address, slots.assumingMemoryBound(to: UInt64.self), stackCount, fpResult, result)
        } else {
            sable_ffi_call(cif, address, result, slotPointers)
        }
        if ffiRef._withUnsafeGuaranteedRef({ $0.attention }) { try ffiRef.takeUnretainedValue().afterForeignCall() }
        switch resultKind {
        case .void: return .undefined
        case .i32: return Value(int32: result.load(as: Int32.self))
        case .f64: return Value(result.load(as: Double.self))
        case .f32: return Value(Double(result.load(as: Float.self)))
        default: return try ffiRef.takeUnretainedValue().load(result, resultKind, isReturn: true)
        }
    }
}


extension FFIType {
    var isFloatingPoint: Bool { self == .f32 || self == .f64 }
}

extension FFIRuntime {
    /// Converts `v` to C type `t` into the 8-byte `slot`; false when it does not fit (never
    /// runs JS). The whole slot is written: integers sign- or zero-extended to 64 bits, an
    /// f32 in the low 4 bytes with the rest zero, as a register holds them (the direct call
    /// passes slots as registers; libffi reads the low bytes, little-endian).
    @inline(__always)
    func store(_ v: Value, _ t: FFIType, _ slot: UnsafeMutableRawPointer) -> Bool {
        switch t {
        case .i32:
            if v.isInt32 { slot.storeBytes(of: Int64(v.asInt32), as: Int64.self); return true }
            guard let i = Self.integer(v, Int64(Int32.min), Int64(Int32.max)) else { return false }
            slot.storeBytes(of: i, as: Int64.self)
        case .f64:
            guard v.isNumber else { return false }
            slot.storeBytes(of: v.asNumber, as: Double.self)
        case .f32:
            guard v.isNumber else { return false }
            slot.storeBytes(of: UInt64(Float(v.asNumber).bitPattern), as: UInt64.self)
        case .u32:
            guard let i = Self.integer(v, 0, Int64(UInt32.max)) else { return false }
            slot.storeBytes(of: UInt64(i), as: UInt64.self)
        case .i8:
            guard let i = Self.integer(v, Int64(Int8.min), Int64(Int8.max)) else { return false }
            slot.storeBytes(of: i, as: Int64.self)
        case .u8:
            guard let i = Self.integer(v, 0, Int64(UInt8.max)) else { return false }
            slot.storeBytes(of: UInt64(i), as: UInt64.self)
        case .i16:
            guard let i = Self.integer(v, Int64(Int16.min), Int64(Int16.max)) else { return false }
            slot.storeBytes(of: i, as: Int64.self)
        case .u16:
            guard let i = Self.integer(v, 0, Int64(UInt16.max)) else { return false }
            slot.storeBytes(of: UInt64(i), as: UInt64.self)
        case .bool:
            guard v.isBool else { return false }
            slot.storeBytes(of: v.asBool ? 1 : 0, as: UInt64.self)
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
