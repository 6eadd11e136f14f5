/// arm64 general-purpose registers. Register number 31 means the stack pointer in some
/// operand positions and the zero register in others (Arm ARM C1.2.5): `sp` and `zr` are
/// distinct cases here, both encoded as 31, and each encoder takes the one its operand
/// position allows.
public enum ARM64GPR: UInt8, CaseIterable, Sendable {
    case x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15
    case x16, x17, x18, x19, x20, x21, x22, x23, x24, x25, x26, x27, x28, x29, x30
    case sp, zr

    /// The 5-bit register field.
    @inline(__always) var code: UInt32 { self == .zr ? 31 : UInt32(rawValue) }

    /// The frame pointer and link register (AAPCS64 names).
    public static let fp = ARM64GPR.x29
    public static let lr = ARM64GPR.x30

    /// The name as llvm-mc prints it, 64- or 32-bit.
    public func name(bits: Int = 64) -> String {
        switch self {
        case .sp: return bits == 64 ? "sp" : "wsp"
        case .zr: return bits == 64 ? "xzr" : "wzr"
        default: return (bits == 64 ? "x" : "w") + String(rawValue)
        }
    }
}

/// The SIMD/FP registers, used as doubles (`d0` … `d31`).
public enum ARM64FPR: UInt8, CaseIterable, Sendable {
    case d0, d1, d2, d3, d4, d5, d6, d7, d8, d9, d10, d11, d12, d13, d14, d15
    case d16, d17, d18, d19, d20, d21, d22, d23, d24, d25, d26, d27, d28, d29, d30, d31

    @inline(__always) var code: UInt32 { UInt32(rawValue) }
    public var name: String { "d\(rawValue)" }
}

/// Condition codes (Arm ARM C1.2.4).
public enum ARM64Condition: UInt8, CaseIterable, Sendable {
    case eq = 0, ne, hs, lo, mi, pl, vs, vc, hi, ls, ge, lt, gt, le, al

    /// The condition that holds exactly when this one does not (not for `al`).
    public var inverted: ARM64Condition { ARM64Condition(rawValue: rawValue ^ 1)! }
    public var name: String { "\(self)" }
}

/// The shift of a shifted-register operand.
public enum ARM64Shift: UInt32, Sendable {
    case lsl = 0, lsr, asr
}
