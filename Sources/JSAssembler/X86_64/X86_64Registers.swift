/// x86_64 general-purpose registers, numbered as in the encodings (Intel SDM vol. 2,
/// 2.2.1: the low three bits go in ModRM/SIB/opcode, the fourth in REX.R/X/B).
public enum X86GPR: UInt8, CaseIterable, Sendable {
    case rax, rcx, rdx, rbx, rsp, rbp, rsi, rdi, r8, r9, r10, r11, r12, r13, r14, r15

    @inline(__always) var low: UInt8 { rawValue & 7 }
    @inline(__always) var high: UInt8 { rawValue >> 3 }

    /// The name as llvm-mc prints it at `bits` (64, 32, 16 or 8).
    public func name(bits: Int = 64) -> String {
        let legacy = ["ax", "cx", "dx", "bx", "sp", "bp", "si", "di"]
        if rawValue >= 8 {
            let n = "r\(rawValue)"
            switch bits {
            case 64: return n
            case 32: return n + "d"
            case 16: return n + "w"
            default: return n + "b"
            }
        }
        let l = legacy[Int(rawValue)]
        switch bits {
        case 64: return "r" + l
        case 32: return "e" + l
        case 16: return l
        default: return rawValue < 4 ? String(l.first!) + "l" : l + "l"
        }
    }
}

/// SSE registers xmm0 … xmm15 (doubles in the low 64 bits).
public enum X86XMM: UInt8, CaseIterable, Sendable {
    case xmm0, xmm1, xmm2, xmm3, xmm4, xmm5, xmm6, xmm7, xmm8, xmm9, xmm10, xmm11, xmm12, xmm13, xmm14, xmm15

    @inline(__always) var low: UInt8 { rawValue & 7 }
    @inline(__always) var high: UInt8 { rawValue >> 3 }
    public var name: String { "xmm\(rawValue)" }
}

/// Condition codes, the `cc` of Jcc, SETcc and CMOVcc (Intel SDM vol. 1, appendix B).
public enum X86Condition: UInt8, CaseIterable, Sendable {
    case overflow = 0x0, noOverflow, below, aboveOrEqual, equal, notEqual, belowOrEqual, above
    case sign, notSign, parity, noParity, less, greaterOrEqual, lessOrEqual, greater

    /// The condition that holds exactly when this one does not.
    public var inverted: X86Condition { X86Condition(rawValue: rawValue ^ 1)! }

    /// The mnemonic suffix (`e` in `je`).
    public var suffix: String {
        ["o", "no", "b", "ae", "e", "ne", "be", "a", "s", "ns", "p", "np", "l", "ge", "le", "g"][Int(rawValue)]
    }
}

/// A memory operand: `[base + index * scale + displacement]`.
public struct X86Memory: Sendable, Equatable {
    public var base: X86GPR
    public var index: X86GPR?
    /// 1, 2, 4 or 8.
    public var scale: UInt8
    public var displacement: Int32

    public init(_ base: X86GPR, _ displacement: Int32 = 0) {
        self.base = base
        self.index = nil
        self.scale = 1
        self.displacement = displacement
    }

    public init(_ base: X86GPR, index: X86GPR, scale: UInt8, _ displacement: Int32 = 0) {
        precondition([1, 2, 4, 8].contains(scale), "scale must be 1, 2, 4 or 8")
        precondition(index != .rsp, "rsp cannot be an index register")
        self.base = base
        self.index = index
        self.scale = scale
        self.displacement = displacement
    }

    /// Intel syntax as llvm-mc prints it (`[rax + 8*rcx + 16]`), for golden tests.
    public func intel(_ size: String) -> String {
        var s = "\(size) ptr [\(base.name())"
        if let index { s += " + \(scale)*\(index.name())" }
        if displacement > 0 { s += " + \(displacement)" } else if displacement < 0 { s += " - \(-Int(displacement))" }
        return s + "]"
    }
}
