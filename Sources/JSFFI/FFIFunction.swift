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
    /// Called without ffi_call (see `init`): the slots are then a register file, 6 integer
    /// registers and 8 floating-point ones, each argument in the next of its kind.
    let direct: Bool

    init(name: String, address: UnsafeMutableRawPointer, signature: FFISignature, library: FFILibrary?, ffi: FFIRuntime) {
        self.name = name
        self.address = address
        self.signature = signature
        self.library = library
        self.ffiRef = Unmanaged.passUnretained(ffi)
        count = signature.parameters.count
        kinds = signature.kinds
        // Integer-class arguments (integers, bool, pointers) and floating-point ones each
        // take the next register of their own file on x86_64 (SysV: 6 and 8) and arm64
        // (AAPCS64: 8 and 8), whatever the interleaving: a signature whose arguments all fit
        // is called directly as `(6 integer registers, 8 floating-point registers)`.
        let ints = signature.parameters.filter { !$0.isFloatingPoint }.count
        let fps = signature.parameters.count - ints
        #if (arch(x86_64) || arch(arm64)) && os(Linux)
        direct = ints <= 6 && fps <= 8
        #else
        direct = false
        #endif
        let slotCount = direct ? 14 : max(count, 1)
        slots = .allocate(byteCount: slotCount * 8, alignment: 16)
        slots.initializeMemory(as: UInt64.self, repeating: 0, count: slotCount)
        slotPointers = .allocate(capacity: max(count, 1))
        var nextInt = 0, nextFP = 6
        for i in 0..<count {
            if !direct {
                slotPointers[i] = slots + i * 8
            } else if signature.parameters[i].isFloatingPoint {
                slotPointers[i] = slots + nextFP * 8
                nextFP += 1
            } else {
                slotPointers[i] = slots + nextInt * 8
                nextInt += 1
            }
        }
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
        for i in 0..<count {
            let v = args[i], slot = slotPointers[i]!
            // The common cases inline; the rest (ranges, BigInts, pointers, buffers) in `store`.
            switch kinds[i] {
            case .i32 where v.isInt32: slot.storeBytes(of: Int64(v.asInt32), as: Int64.self)
            case .f64 where v.isNumber: slot.storeBytes(of: v.asNumber, as: Double.self)
            default:
                if !ffiRef._withUnsafeGuaranteedRef({ $0.store(v, kinds[i], slot) }) {
                    throw try rt.typeError("\(name): argument \(i + 1) must be \(kinds[i].expectation), got \(try rt.describeForError(v))")
                }
            }
        }
        if direct {
            // libffi's ffi_call examines every argument's type on every call (about 30 ns
            // here, more than the rest of the call): a signature that fits the registers is
            // called through a function pointer of the register shape instead. The slots hold
            // each argument as its register would (`store`), unused registers are zero, and
            // the result register is stored as libffi would store it.
            let r = UnsafeRawPointer(slots)
            @inline(__always) func i(_ n: Int) -> UInt64 { r.load(fromByteOffset: n * 8, as: UInt64.self) }
            @inline(__always) func d(_ n: Int) -> Double { r.load(fromByteOffset: n * 8, as: Double.self) }
            if resultKind.isFloatingPoint {
                let f = unsafeBitCast(address, to: DirectFloatResult.self)
                result.storeBytes(of: f(i(0), i(1), i(2), i(3), i(4), i(5), d(6), d(7), d(8), d(9), d(10), d(11), d(12), d(13)), as: Double.self)
            } else {
                let f = unsafeBitCast(address, to: DirectIntegerResult.self)
                result.storeBytes(of: f(i(0), i(1), i(2), i(3), i(4), i(5), d(6), d(7), d(8), d(9), d(10), d(11), d(12), d(13)), as: UInt64.self)
            }
        } else {
            sable_ffi_call(cif, address, result, slotPointers)
        }
        if ffiRef._withUnsafeGuaranteedRef({ !$0.pending.isEmpty }) { try ffiRef.takeUnretainedValue().throwPending() }
        switch resultKind {
        case .void: return .undefined
        case .i32: return Value(int32: result.load(as: Int32.self))
        case .f64: return Value(result.load(as: Double.self))
        default: return try ffiRef.takeUnretainedValue().load(result, resultKind, isReturn: true)
        }
    }
}

typealias DirectIntegerResult = @convention(c) (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                                                Double, Double, Double, Double, Double, Double, Double, Double) -> UInt64
typealias DirectFloatResult = @convention(c) (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                                              Double, Double, Double, Double, Double, Double, Double, Double) -> Double

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
