// The opcode table lives in `Opcodes.def`: `tools/gen-opcodes.py` generates the `Opcode`
// enum, each opcode's operand kinds, names and length, and the typed operand decoders
// (`Op.*`) from it (`Opcode+Generated.swift`). The interpreter, the disassembler and the
// JIT all decode through `Op`; the compiler's `emit` checks operand counts against it.
//
// Encoding: an instruction is a sequence of 32-bit words, the opcode followed by its
// operands. Register operands index the frame's registers (parameters first, then
// locals and temporaries). Jump operands are relative to the instruction's start.

public enum OperandKind: Sendable {
    /// A register.
    case reg
    /// A signed 32-bit immediate.
    case imm
    /// An index into the code block's constant pool.
    case const
    /// An index into the atom (property name) table.
    case atom
    /// A relative jump offset.
    case jump
    /// An inline-cache / profiling slot index.
    case ic
}

extension Opcode {
    /// A relational jump (register or immediate form) as its comparison (.lt, .le, .gt, .ge)
    /// and whether it jumps when the comparison is false.
    @inlinable @inline(__always) public var relationalJump: (base: Opcode, negated: Bool) {
        switch self {
        case .jumpIfLess, .jumpIfLessImm: return (.lt, false)
        case .jumpIfNotLess, .jumpIfNotLessImm: return (.lt, true)
        case .jumpIfLessEq, .jumpIfLessEqImm: return (.le, false)
        case .jumpIfNotLessEq, .jumpIfNotLessEqImm: return (.le, true)
        case .jumpIfGreater, .jumpIfGreaterImm: return (.gt, false)
        case .jumpIfNotGreater, .jumpIfNotGreaterImm: return (.gt, true)
        case .jumpIfGreaterEq, .jumpIfGreaterEqImm: return (.ge, false)
        default: return (.ge, true)
        }
    }

    /// The length of every call-like instruction (call, callMethod, callEval, construct and
    /// the spread forms): where a returning frame resumes its caller. Checked by a unit test.
    public static let callInstructionLength = 6

    public var name: String { String(describing: self) }
}
