/// Raw x86_64 encoders: one method per instruction form, named after the Intel manual's
/// mnemonic with the operand width (`add64`, `mov32`), operands in Intel order
/// (destination first). Each doc comment gives the form and its opcode as the Intel SDM
/// vol. 2 writes them. Nothing here knows about JavaScript values; the JIT uses
/// `MacroAssemblerX86_64` above this.
///
/// Where the manual has several encodings of one form, the shortest is chosen, as
/// assemblers do (imm8 before imm32, the `rax` short forms, `shl r, 1`), so the bytes
/// match `llvm-mc` (the golden tests check every form).
public struct X86_64Assembler {
    public let buffer: AssemblerBuffer

    public init(buffer: AssemblerBuffer = AssemblerBuffer()) {
        self.buffer = buffer
    }

    /// The offset of the next instruction.
    @inline(__always) public var offset: Int { buffer.count }

    // MARK: - Encoding helpers (Intel SDM vol. 2, chapter 2)

    /// The r/m operand of a ModRM byte: a register (mod = 11) or memory.
    enum RM {
        case reg(UInt8)
        case mem(X86Memory)

        var b: UInt8 {
            switch self {
            case .reg(let r): return r >> 3
            case .mem(let m): return m.base.high
            }
        }
        var x: UInt8 {
            if case .mem(let m) = self, let index = m.index { return index.high }
            return 0
        }
    }

    /// Legacy prefix (0x66, 0xF2, 0xF3 or none), REX, opcode bytes (1 to 3, big-endian in
    /// `opcode`), ModRM with `reg` (a register number or an opcode extension), SIB and
    /// displacement. `byteRegister`: an 8-bit operand register 4…7 needs a REX prefix to
    /// mean spl/bpl/sil/dil instead of ah/ch/dh/bh.
    @inline(__always)
    func emit(prefix: UInt8 = 0, w: Bool, opcode: UInt32, length: Int, reg: UInt8, rm: RM, byteRegister: Bool = false) {
        buffer.reserve(16)
        if prefix != 0 { buffer.emit8(prefix) }
        let rex = (w ? 8 : 0) | ((reg >> 3) & 1) << 2 | rm.x << 1 | rm.b
        var forceREX = false
        if byteRegister {
            if case .reg(let r) = rm, r >= 4 && r < 8 { forceREX = true }
            if reg >= 4 && reg < 8 { forceREX = true }
        }
        if rex != 0 || forceREX { buffer.emit8(0x40 | rex) }
        var shift = (length - 1) * 8
        while shift >= 0 {
            buffer.emit8(UInt8(truncatingIfNeeded: opcode >> UInt32(shift)))
            shift -= 8
        }
        modRM(reg: reg & 7, rm: rm)
    }

    @inline(__always)
    func modRM(reg: UInt8, rm: RM) {
        switch rm {
        case .reg(let r):
            buffer.emit8(0xC0 | reg << 3 | (r & 7))
        case .mem(let m):
            let disp = m.displacement
            // mod 00 has no displacement, except that base 101 (rbp/r13) means RIP/disp32
            // there: those bases take a zero disp8.
            let mod: UInt8
            if disp == 0 && m.base.low != 5 { mod = 0 } else if disp >= -128 && disp <= 127 { mod = 1 } else { mod = 2 }
            if let index = m.index {
                let scaleBits: UInt8 = m.scale == 1 ? 0 : m.scale == 2 ? 1 : m.scale == 4 ? 2 : 3
                buffer.emit8(mod << 6 | reg << 3 | 4)
                buffer.emit8(scaleBits << 6 | index.low << 3 | m.base.low)
            } else if m.base.low == 4 {
                // rsp/r12 as a base need a SIB byte (index 100: none).
                buffer.emit8(mod << 6 | reg << 3 | 4)
                buffer.emit8(0x24)
            } else {
                buffer.emit8(mod << 6 | reg << 3 | m.base.low)
            }
            if mod == 1 { buffer.emit8(UInt8(bitPattern: Int8(disp))) } else if mod == 2 { buffer.emit32(UInt32(bitPattern: disp)) }
        }
    }

    @inline(__always) static func fitsInt8(_ v: Int32) -> Bool { v >= -128 && v <= 127 }
    @inline(__always) static func fitsInt8(_ v: Int64) -> Bool { v >= -128 && v <= 127 }

    // MARK: - Moves

    /// MOV r/m64, r64 — REX.W 89 /r
    public func mov64(_ dst: X86GPR, _ src: X86GPR) { emit(w: true, opcode: 0x89, length: 1, reg: src.rawValue, rm: .reg(dst.rawValue)) }
    /// MOV r/m32, r32 — 89 /r (zero-extends into the 64-bit register)
    public func mov32(_ dst: X86GPR, _ src: X86GPR) { emit(w: false, opcode: 0x89, length: 1, reg: src.rawValue, rm: .reg(dst.rawValue)) }
    /// MOV r64, m64 — REX.W 8B /r
    public func mov64(_ dst: X86GPR, _ src: X86Memory) { emit(w: true, opcode: 0x8B, length: 1, reg: dst.rawValue, rm: .mem(src)) }
    /// MOV r32, m32 — 8B /r
    public func mov32(_ dst: X86GPR, _ src: X86Memory) { emit(w: false, opcode: 0x8B, length: 1, reg: dst.rawValue, rm: .mem(src)) }
    /// MOV m64, r64 — REX.W 89 /r
    public func mov64(_ dst: X86Memory, _ src: X86GPR) { emit(w: true, opcode: 0x89, length: 1, reg: src.rawValue, rm: .mem(dst)) }
    /// MOV m32, r32 — 89 /r
    public func mov32(_ dst: X86Memory, _ src: X86GPR) { emit(w: false, opcode: 0x89, length: 1, reg: src.rawValue, rm: .mem(dst)) }
    /// MOV m16, r16 — 66 89 /r
    public func mov16(_ dst: X86Memory, _ src: X86GPR) { emit(prefix: 0x66, w: false, opcode: 0x89, length: 1, reg: src.rawValue, rm: .mem(dst)) }
    /// MOV m8, r8 — 88 /r (REX for spl/bpl/sil/dil)
    public func mov8(_ dst: X86Memory, _ src: X86GPR) { emit(w: false, opcode: 0x88, length: 1, reg: src.rawValue, rm: .mem(dst), byteRegister: true) }
    /// MOV m64, imm32 (sign-extended) — REX.W C7 /0 id
    public func mov64(_ dst: X86Memory, imm: Int32) {
        emit(w: true, opcode: 0xC7, length: 1, reg: 0, rm: .mem(dst))
        buffer.emit32(UInt32(bitPattern: imm))
    }
    /// MOV m32, imm32 — C7 /0 id
    public func mov32(_ dst: X86Memory, imm: Int32) {
        emit(w: false, opcode: 0xC7, length: 1, reg: 0, rm: .mem(dst))
        buffer.emit32(UInt32(bitPattern: imm))
    }
    /// MOV m8, imm8 — C6 /0 ib
    public func mov8(_ dst: X86Memory, imm: Int8) {
        emit(w: false, opcode: 0xC6, length: 1, reg: 0, rm: .mem(dst))
        buffer.emit8(UInt8(bitPattern: imm))
    }
    /// MOV r32, imm32 — B8+rd id (zero-extends)
    public func mov32(_ dst: X86GPR, imm: UInt32) {
        buffer.reserve(6)
        if dst.high != 0 { buffer.emit8(0x41) }
        buffer.emit8(0xB8 + dst.low)
        buffer.emit32(imm)
    }
    /// MOV r/m64, imm32 (sign-extended) — REX.W C7 /0 id
    public func mov64(_ dst: X86GPR, simm32: Int32) {
        emit(w: true, opcode: 0xC7, length: 1, reg: 0, rm: .reg(dst.rawValue))
        buffer.emit32(UInt32(bitPattern: simm32))
    }
    /// MOV r64, imm64 — REX.W B8+rd io
    public func mov64(_ dst: X86GPR, imm64: UInt64) {
        buffer.reserve(10)
        buffer.emit8(0x48 | dst.high)
        buffer.emit8(0xB8 + dst.low)
        buffer.emit64(imm64)
    }
    /// The shortest move of a 64-bit constant: `mov r32, imm32` when it zero-extends,
    /// `mov r/m64, imm32` when it sign-extends, else `mov r64, imm64`.
    public func movImmediate64(_ dst: X86GPR, _ value: UInt64) {
        if value <= UInt64(UInt32.max) { mov32(dst, imm: UInt32(value)) }
        else if Int64(bitPattern: value) >= Int64(Int32.min) && Int64(bitPattern: value) < 0 { mov64(dst, simm32: Int32(truncatingIfNeeded: Int64(bitPattern: value))) }
        else { mov64(dst, imm64: value) }
    }
    /// MOVZX r32, r/m8 — 0F B6 /r
    public func movzx8(_ dst: X86GPR, _ src: X86Memory) { emit(w: false, opcode: 0x0FB6, length: 2, reg: dst.rawValue, rm: .mem(src)) }
    /// MOVZX r32, r8 — 0F B6 /r (REX for spl/bpl/sil/dil)
    public func movzx8(_ dst: X86GPR, _ src: X86GPR) { emit(w: false, opcode: 0x0FB6, length: 2, reg: dst.rawValue, rm: .reg(src.rawValue), byteRegister: true) }
    /// MOVZX r32, r/m16 — 0F B7 /r
    public func movzx16(_ dst: X86GPR, _ src: X86Memory) { emit(w: false, opcode: 0x0FB7, length: 2, reg: dst.rawValue, rm: .mem(src)) }
    /// MOVSXD r64, r/m32 — REX.W 63 /r
    public func movsxd(_ dst: X86GPR, _ src: X86GPR) { emit(w: true, opcode: 0x63, length: 1, reg: dst.rawValue, rm: .reg(src.rawValue)) }
    /// LEA r64, m — REX.W 8D /r
    public func lea64(_ dst: X86GPR, _ src: X86Memory) { emit(w: true, opcode: 0x8D, length: 1, reg: dst.rawValue, rm: .mem(src)) }
    /// CMOVcc r64, r/m64 — REX.W 0F 40+cc /r
    public func cmov64(_ cc: X86Condition, _ dst: X86GPR, _ src: X86GPR) {
        emit(w: true, opcode: 0x0F40 | UInt32(cc.rawValue), length: 2, reg: dst.rawValue, rm: .reg(src.rawValue))
    }
    /// SETcc r/m8 — 0F 90+cc /0 (REX for spl/bpl/sil/dil)
    public func setcc(_ cc: X86Condition, _ dst: X86GPR) {
        emit(w: false, opcode: 0x0F90 | UInt32(cc.rawValue), length: 2, reg: 0, rm: .reg(dst.rawValue), byteRegister: true)
    }

    // MARK: - Integer arithmetic: the ALU group (ADD OR ADC SBB AND SUB XOR CMP)

    /// The ALU group's opcode extension (/digit) and row: `row * 8 + 1` is `op r/m, r`,
    /// `+ 3` is `op r, r/m`, `+ 5` is `op rAX, imm32`; 83 /digit ib and 81 /digit id.
    public enum ALU: UInt8, Sendable { case add = 0, or, adc, sbb, and, sub, xor, cmp }

    /// OP r/m, r — REX.W? (row*8+1) /r
    public func alu(_ op: ALU, _ w: Bool, _ dst: X86GPR, _ src: X86GPR) {
        emit(w: w, opcode: UInt32(op.rawValue) * 8 + 1, length: 1, reg: src.rawValue, rm: .reg(dst.rawValue))
    }
    /// OP r, r/m — REX.W? (row*8+3) /r
    public func alu(_ op: ALU, _ w: Bool, _ dst: X86GPR, _ src: X86Memory) {
        emit(w: w, opcode: UInt32(op.rawValue) * 8 + 3, length: 1, reg: dst.rawValue, rm: .mem(src))
    }
    /// OP r/m, r — REX.W? (row*8+1) /r with a memory destination
    public func alu(_ op: ALU, _ w: Bool, _ dst: X86Memory, _ src: X86GPR) {
        emit(w: w, opcode: UInt32(op.rawValue) * 8 + 1, length: 1, reg: src.rawValue, rm: .mem(dst))
    }
    /// OP r/m, imm8 — REX.W? 83 /digit ib; OP rAX, imm32 — REX.W? (row*8+5) id;
    /// OP r/m, imm32 — REX.W? 81 /digit id
    public func alu(_ op: ALU, _ w: Bool, _ dst: X86GPR, imm: Int32) {
        if Self.fitsInt8(imm) {
            emit(w: w, opcode: 0x83, length: 1, reg: op.rawValue, rm: .reg(dst.rawValue))
            buffer.emit8(UInt8(bitPattern: Int8(imm)))
        } else if dst == .rax {
            if w { buffer.emit8(0x48) }
            buffer.emit8(op.rawValue * 8 + 5)
            buffer.emit32(UInt32(bitPattern: imm))
        } else {
            emit(w: w, opcode: 0x81, length: 1, reg: op.rawValue, rm: .reg(dst.rawValue))
            buffer.emit32(UInt32(bitPattern: imm))
        }
    }
    /// OP m, imm8 — REX.W? 83 /digit ib; OP m, imm32 — REX.W? 81 /digit id
    public func alu(_ op: ALU, _ w: Bool, _ dst: X86Memory, imm: Int32) {
        if Self.fitsInt8(imm) {
            emit(w: w, opcode: 0x83, length: 1, reg: op.rawValue, rm: .mem(dst))
            buffer.emit8(UInt8(bitPattern: Int8(imm)))
        } else {
            emit(w: w, opcode: 0x81, length: 1, reg: op.rawValue, rm: .mem(dst))
            buffer.emit32(UInt32(bitPattern: imm))
        }
    }

    public func add64(_ dst: X86GPR, _ src: X86GPR) { alu(.add, true, dst, src) }
    public func add32(_ dst: X86GPR, _ src: X86GPR) { alu(.add, false, dst, src) }
    public func add64(_ dst: X86GPR, imm: Int32) { alu(.add, true, dst, imm: imm) }
    public func add32(_ dst: X86GPR, imm: Int32) { alu(.add, false, dst, imm: imm) }
    public func add64(_ dst: X86GPR, _ src: X86Memory) { alu(.add, true, dst, src) }
    public func add32(_ dst: X86GPR, _ src: X86Memory) { alu(.add, false, dst, src) }
    public func add64(_ dst: X86Memory, imm: Int32) { alu(.add, true, dst, imm: imm) }
    public func add32(_ dst: X86Memory, imm: Int32) { alu(.add, false, dst, imm: imm) }
    public func sub64(_ dst: X86GPR, _ src: X86GPR) { alu(.sub, true, dst, src) }
    public func sub32(_ dst: X86GPR, _ src: X86GPR) { alu(.sub, false, dst, src) }
    public func sub64(_ dst: X86GPR, imm: Int32) { alu(.sub, true, dst, imm: imm) }
    public func sub32(_ dst: X86GPR, imm: Int32) { alu(.sub, false, dst, imm: imm) }
    public func and64(_ dst: X86GPR, _ src: X86GPR) { alu(.and, true, dst, src) }
    public func and32(_ dst: X86GPR, _ src: X86GPR) { alu(.and, false, dst, src) }
    public func and64(_ dst: X86GPR, imm: Int32) { alu(.and, true, dst, imm: imm) }
    public func and32(_ dst: X86GPR, imm: Int32) { alu(.and, false, dst, imm: imm) }
    public func or64(_ dst: X86GPR, _ src: X86GPR) { alu(.or, true, dst, src) }
    public func or32(_ dst: X86GPR, _ src: X86GPR) { alu(.or, false, dst, src) }
    public func or64(_ dst: X86GPR, imm: Int32) { alu(.or, true, dst, imm: imm) }
    public func or32(_ dst: X86GPR, imm: Int32) { alu(.or, false, dst, imm: imm) }
    public func xor64(_ dst: X86GPR, _ src: X86GPR) { alu(.xor, true, dst, src) }
    public func xor32(_ dst: X86GPR, _ src: X86GPR) { alu(.xor, false, dst, src) }
    public func xor32(_ dst: X86GPR, imm: Int32) { alu(.xor, false, dst, imm: imm) }
    public func cmp64(_ a: X86GPR, _ b: X86GPR) { alu(.cmp, true, a, b) }
    public func cmp32(_ a: X86GPR, _ b: X86GPR) { alu(.cmp, false, a, b) }
    public func cmp64(_ a: X86GPR, imm: Int32) { alu(.cmp, true, a, imm: imm) }
    public func cmp32(_ a: X86GPR, imm: Int32) { alu(.cmp, false, a, imm: imm) }
    public func cmp64(_ a: X86GPR, _ b: X86Memory) { alu(.cmp, true, a, b) }
    public func cmp32(_ a: X86GPR, _ b: X86Memory) { alu(.cmp, false, a, b) }
    public func cmp64(_ a: X86Memory, _ b: X86GPR) { alu(.cmp, true, a, b) }
    public func cmp64(_ a: X86Memory, imm: Int32) { alu(.cmp, true, a, imm: imm) }
    public func cmp32(_ a: X86Memory, imm: Int32) { alu(.cmp, false, a, imm: imm) }

    /// TEST r/m, r — REX.W? 85 /r
    public func test64(_ a: X86GPR, _ b: X86GPR) { emit(w: true, opcode: 0x85, length: 1, reg: b.rawValue, rm: .reg(a.rawValue)) }
    public func test32(_ a: X86GPR, _ b: X86GPR) { emit(w: false, opcode: 0x85, length: 1, reg: b.rawValue, rm: .reg(a.rawValue)) }
    /// TEST r/m, imm32 — REX.W? F7 /0 id; TEST rAX, imm32 — REX.W? A9 id
    public func test64(_ a: X86GPR, imm: Int32) { testImm(true, a, imm) }
    public func test32(_ a: X86GPR, imm: Int32) { testImm(false, a, imm) }
    func testImm(_ w: Bool, _ a: X86GPR, _ imm: Int32) {
        if a == .rax {
            if w { buffer.emit8(0x48) }
            buffer.emit8(0xA9)
        } else {
            emit(w: w, opcode: 0xF7, length: 1, reg: 0, rm: .reg(a.rawValue))
        }
        buffer.emit32(UInt32(bitPattern: imm))
    }
    /// TEST r/m8, imm8 — F6 /0 ib; TEST AL, imm8 — A8 ib
    public func test8(_ a: X86GPR, imm: UInt8) {
        if a == .rax { buffer.emit8(0xA8) } else { emit(w: false, opcode: 0xF6, length: 1, reg: 0, rm: .reg(a.rawValue), byteRegister: true) }
        buffer.emit8(imm)
    }
    /// TEST m8, imm8 — F6 /0 ib
    public func test8(_ a: X86Memory, imm: UInt8) {
        emit(w: false, opcode: 0xF6, length: 1, reg: 0, rm: .mem(a))
        buffer.emit8(imm)
    }

    /// IMUL r64, r/m64 — REX.W 0F AF /r
    public func imul64(_ dst: X86GPR, _ src: X86GPR) { emit(w: true, opcode: 0x0FAF, length: 2, reg: dst.rawValue, rm: .reg(src.rawValue)) }
    /// IMUL r32, r/m32 — 0F AF /r
    public func imul32(_ dst: X86GPR, _ src: X86GPR) { emit(w: false, opcode: 0x0FAF, length: 2, reg: dst.rawValue, rm: .reg(src.rawValue)) }
    /// IMUL r32, r/m32, imm8 — 6B /r ib; IMUL r32, r/m32, imm32 — 69 /r id
    public func imul32(_ dst: X86GPR, _ src: X86GPR, imm: Int32) {
        if Self.fitsInt8(imm) {
            emit(w: false, opcode: 0x6B, length: 1, reg: dst.rawValue, rm: .reg(src.rawValue))
            buffer.emit8(UInt8(bitPattern: Int8(imm)))
        } else {
            emit(w: false, opcode: 0x69, length: 1, reg: dst.rawValue, rm: .reg(src.rawValue))
            buffer.emit32(UInt32(bitPattern: imm))
        }
    }
    /// NEG r/m — REX.W? F7 /3
    public func neg64(_ r: X86GPR) { emit(w: true, opcode: 0xF7, length: 1, reg: 3, rm: .reg(r.rawValue)) }
    public func neg32(_ r: X86GPR) { emit(w: false, opcode: 0xF7, length: 1, reg: 3, rm: .reg(r.rawValue)) }
    /// NOT r/m — REX.W? F7 /2
    public func not64(_ r: X86GPR) { emit(w: true, opcode: 0xF7, length: 1, reg: 2, rm: .reg(r.rawValue)) }
    public func not32(_ r: X86GPR) { emit(w: false, opcode: 0xF7, length: 1, reg: 2, rm: .reg(r.rawValue)) }
    /// IDIV r/m — REX.W? F7 /7 (rdx:rax / r)
    public func idiv64(_ r: X86GPR) { emit(w: true, opcode: 0xF7, length: 1, reg: 7, rm: .reg(r.rawValue)) }
    public func idiv32(_ r: X86GPR) { emit(w: false, opcode: 0xF7, length: 1, reg: 7, rm: .reg(r.rawValue)) }
    /// CDQ — 99 (sign-extends eax into edx)
    public func cdq() { buffer.emit8(0x99) }
    /// CQO — REX.W 99
    public func cqo() { buffer.emit8(0x48); buffer.emit8(0x99) }

    /// Shift and rotate group extensions: D1 /digit (by 1), C1 /digit ib, D3 /digit (by CL).
    public enum Shift: UInt8, Sendable { case rol = 0, ror = 1, shl = 4, shr = 5, sar = 7 }

    /// SHL/SHR/SAR/ROL/ROR r/m, imm8 — REX.W? C1 /digit ib (D1 /digit when imm is 1)
    public func shift(_ op: Shift, _ w: Bool, _ r: X86GPR, imm: UInt8) {
        if imm == 1 {
            emit(w: w, opcode: 0xD1, length: 1, reg: op.rawValue, rm: .reg(r.rawValue))
        } else {
            emit(w: w, opcode: 0xC1, length: 1, reg: op.rawValue, rm: .reg(r.rawValue))
            buffer.emit8(imm)
        }
    }
    /// SHL/SHR/SAR r/m, CL — REX.W? D3 /digit
    public func shiftByCL(_ op: Shift, _ w: Bool, _ r: X86GPR) {
        emit(w: w, opcode: 0xD3, length: 1, reg: op.rawValue, rm: .reg(r.rawValue))
    }

    // MARK: - Stack, calls and jumps

    /// PUSH r64 — 50+rd
    public func push(_ r: X86GPR) {
        if r.high != 0 { buffer.emit8(0x41) }
        buffer.emit8(0x50 + r.low)
    }
    /// POP r64 — 58+rd
    public func pop(_ r: X86GPR) {
        if r.high != 0 { buffer.emit8(0x41) }
        buffer.emit8(0x58 + r.low)
    }
    /// RET — C3
    public func ret() { buffer.emit8(0xC3) }
    /// INT3 — CC
    public func int3() { buffer.emit8(0xCC) }
    /// UD2 — 0F 0B
    public func ud2() { buffer.emit8(0x0F); buffer.emit8(0x0B) }
    /// NOP — 90
    public func nop() { buffer.emit8(0x90) }
    /// CALL r/m64 — FF /2
    public func call(_ r: X86GPR) { emit(w: false, opcode: 0xFF, length: 1, reg: 2, rm: .reg(r.rawValue)) }
    /// CALL m64 — FF /2
    public func call(_ m: X86Memory) { emit(w: false, opcode: 0xFF, length: 1, reg: 2, rm: .mem(m)) }
    /// JMP r/m64 — FF /4
    public func jmp(_ r: X86GPR) { emit(w: false, opcode: 0xFF, length: 1, reg: 4, rm: .reg(r.rawValue)) }
    /// JMP m64 — FF /4
    public func jmp(_ m: X86Memory) { emit(w: false, opcode: 0xFF, length: 1, reg: 4, rm: .mem(m)) }

    /// CALL rel32 — E8 cd (displacement 0 until linked)
    public func callRel32() -> Jump {
        buffer.emit8(0xE8)
        buffer.emit32(0)
        return Jump(end: offset, width: 4)
    }
    /// JMP rel32 — E9 cd
    public func jmpRel32() -> Jump {
        buffer.emit8(0xE9)
        buffer.emit32(0)
        return Jump(end: offset, width: 4)
    }
    /// JMP rel8 — EB cb
    public func jmpRel8() -> Jump {
        buffer.emit8(0xEB)
        buffer.emit8(0)
        return Jump(end: offset, width: 1)
    }
    /// Jcc rel32 — 0F 80+cc cd
    public func jccRel32(_ cc: X86Condition) -> Jump {
        buffer.emit8(0x0F)
        buffer.emit8(0x80 | cc.rawValue)
        buffer.emit32(0)
        return Jump(end: offset, width: 4)
    }
    /// Jcc rel8 — 70+cc cb
    public func jccRel8(_ cc: X86Condition) -> Jump {
        buffer.emit8(0x70 | cc.rawValue)
        buffer.emit8(0)
        return Jump(end: offset, width: 1)
    }

    /// Sets the displacement of `jump` so that it lands on `target`.
    public func link(_ jump: Jump, to target: Int) {
        let disp = target - jump.end
        if jump.width == 1 {
            precondition(disp >= -128 && disp <= 127, "rel8 jump out of range")
            buffer.patch8(at: jump.end - 1, UInt8(bitPattern: Int8(disp)))
        } else {
            precondition(disp >= Int(Int32.min) && disp <= Int(Int32.max), "rel32 jump out of range")
            buffer.patch32(at: jump.end - 4, UInt32(bitPattern: Int32(disp)))
        }
    }

    // MARK: - SSE2 scalar doubles

    /// MOVSD xmm1, m64 — F2 0F 10 /r
    public func movsd(_ dst: X86XMM, _ src: X86Memory) { emit(prefix: 0xF2, w: false, opcode: 0x0F10, length: 2, reg: dst.rawValue, rm: .mem(src)) }
    /// MOVSD m64, xmm1 — F2 0F 11 /r
    public func movsd(_ dst: X86Memory, _ src: X86XMM) { emit(prefix: 0xF2, w: false, opcode: 0x0F11, length: 2, reg: src.rawValue, rm: .mem(dst)) }
    /// MOVAPD xmm1, xmm2 — 66 0F 28 /r (a register copy)
    public func movapd(_ dst: X86XMM, _ src: X86XMM) { emit(prefix: 0x66, w: false, opcode: 0x0F28, length: 2, reg: dst.rawValue, rm: .reg(src.rawValue)) }
    /// MOVQ xmm, r/m64 — 66 REX.W 0F 6E /r
    public func movq(_ dst: X86XMM, _ src: X86GPR) { emit(prefix: 0x66, w: true, opcode: 0x0F6E, length: 2, reg: dst.rawValue, rm: .reg(src.rawValue)) }
    /// MOVQ r/m64, xmm — 66 REX.W 0F 7E /r
    public func movq(_ dst: X86GPR, _ src: X86XMM) { emit(prefix: 0x66, w: true, opcode: 0x0F7E, length: 2, reg: src.rawValue, rm: .reg(dst.rawValue)) }

    /// The scalar-double arithmetic forms F2 0F op /r: ADDSD 58, MULSD 59, SUBSD 5C,
    /// DIVSD 5E, SQRTSD 51.
    public enum SSEArith: UInt8, Sendable { case add = 0x58, mul = 0x59, sub = 0x5C, div = 0x5E, sqrt = 0x51 }

    /// ADDSD/SUBSD/MULSD/DIVSD/SQRTSD xmm1, xmm2 — F2 0F op /r
    public func arithsd(_ op: SSEArith, _ dst: X86XMM, _ src: X86XMM) {
        emit(prefix: 0xF2, w: false, opcode: 0x0F00 | UInt32(op.rawValue), length: 2, reg: dst.rawValue, rm: .reg(src.rawValue))
    }
    /// ADDSD/SUBSD/MULSD/DIVSD/SQRTSD xmm1, m64 — F2 0F op /r
    public func arithsd(_ op: SSEArith, _ dst: X86XMM, _ src: X86Memory) {
        emit(prefix: 0xF2, w: false, opcode: 0x0F00 | UInt32(op.rawValue), length: 2, reg: dst.rawValue, rm: .mem(src))
    }
    /// UCOMISD xmm1, xmm2 — 66 0F 2E /r (unordered: ZF = PF = CF = 1)
    public func ucomisd(_ a: X86XMM, _ b: X86XMM) { emit(prefix: 0x66, w: false, opcode: 0x0F2E, length: 2, reg: a.rawValue, rm: .reg(b.rawValue)) }
    /// XORPD xmm1, xmm2 — 66 0F 57 /r
    public func xorpd(_ dst: X86XMM, _ src: X86XMM) { emit(prefix: 0x66, w: false, opcode: 0x0F57, length: 2, reg: dst.rawValue, rm: .reg(src.rawValue)) }
    /// CVTSI2SD xmm1, r/m32 — F2 0F 2A /r
    public func cvtsi2sd32(_ dst: X86XMM, _ src: X86GPR) { emit(prefix: 0xF2, w: false, opcode: 0x0F2A, length: 2, reg: dst.rawValue, rm: .reg(src.rawValue)) }
    /// CVTSI2SD xmm1, r/m64 — F2 REX.W 0F 2A /r
    public func cvtsi2sd64(_ dst: X86XMM, _ src: X86GPR) { emit(prefix: 0xF2, w: true, opcode: 0x0F2A, length: 2, reg: dst.rawValue, rm: .reg(src.rawValue)) }
    /// CVTTSD2SI r32, xmm1/m64 — F2 0F 2C /r (0x80000000 when it does not fit)
    public func cvttsd2si32(_ dst: X86GPR, _ src: X86XMM) { emit(prefix: 0xF2, w: false, opcode: 0x0F2C, length: 2, reg: dst.rawValue, rm: .reg(src.rawValue)) }
    /// CVTTSD2SI r64, xmm1/m64 — F2 REX.W 0F 2C /r
    public func cvttsd2si64(_ dst: X86GPR, _ src: X86XMM) { emit(prefix: 0xF2, w: true, opcode: 0x0F2C, length: 2, reg: dst.rawValue, rm: .reg(src.rawValue)) }
}
