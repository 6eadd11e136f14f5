import JSAssembler

/// One instruction form with operands, its Intel-syntax text (as llvm-mc reads it) and the
/// call that emits it. The golden file `Golden/x86_64.txt` holds llvm-mc's bytes for every
/// text (`tools/asm-golden.sh` rewrites it); the tests compare.
struct EncodingCase {
    let text: String
    let emit: (X86_64Assembler) -> Void
}

/// The forms the JIT uses, over registers and addressing modes that reach every REX,
/// ModRM, SIB and displacement rule (rsp/r12 bases need a SIB, rbp/r13 bases a disp8 of
/// 0, r8–r15 REX.B/R/X, 8-bit spl/bpl/sil/dil a bare REX).
func x86EncodingCases() -> [EncodingCase] {
    var cases: [EncodingCase] = []
    func add(_ text: String, _ emit: @escaping (X86_64Assembler) -> Void) { cases.append(EncodingCase(text: text, emit: emit)) }
    let regs = X86GPR.allCases
    let someRegs: [X86GPR] = [.rax, .rcx, .rsp, .rbp, .rsi, .r8, .r12, .r13, .r15]
    let displacements: [Int32] = [0, 8, -8, 127, 128, -129, 0x12345]
    var memories: [X86Memory] = []
    for base in regs { for d in displacements { memories.append(X86Memory(base, d)) } }
    for base in [X86GPR.rax, .rsp, .rbp, .r12, .r13] {
        for index in [X86GPR.rcx, .rbp, .r9, .r13] {
            for scale in [1, 2, 4, 8] as [UInt8] {
                memories.append(X86Memory(base, index: index, scale: scale, 16))
            }
            memories.append(X86Memory(base, index: index, scale: 8, 0))
            memories.append(X86Memory(base, index: index, scale: 8, -1024))
        }
    }
    let someMemories = stride(from: 0, to: memories.count, by: 3).map { memories[$0] }
    let imms: [Int32] = [0, 1, -1, 127, -128, 128, -129, 0x7FFF_FFFF, Int32.min]

    // Moves
    for d in regs { for s in regs {
        add("mov \(d.name()), \(s.name())") { $0.mov64(d, s) }
    } }
    for d in regs { for s in [X86GPR.rax, .rsp, .r9, .r15] {
        add("mov \(d.name(bits: 32)), \(s.name(bits: 32))") { $0.mov32(d, s) }
    } }
    for m in memories {
        for r in [X86GPR.rax, .r10] {
            add("mov \(r.name()), \(m.intel("qword"))") { $0.mov64(r, m) }
            add("mov \(m.intel("qword")), \(r.name())") { $0.mov64(m, r) }
        }
    }
    for m in someMemories {
        add("mov \(X86GPR.rdx.name(bits: 32)), \(m.intel("dword"))") { $0.mov32(.rdx, m) }
        add("mov \(m.intel("dword")), \(X86GPR.r11.name(bits: 32))") { $0.mov32(m, .r11) }
        add("mov \(m.intel("word")), \(X86GPR.rcx.name(bits: 16))") { $0.mov16(m, .rcx) }
        add("mov \(m.intel("qword")), -7") { $0.mov64(m, imm: -7) }
        add("mov \(m.intel("dword")), 305419896") { $0.mov32(m, imm: 0x1234_5678) }
        add("mov \(m.intel("byte")), 65") { $0.mov8(m, imm: 65) }
        add("movzx eax, \(m.intel("byte"))") { $0.movzx8(.rax, m) }
        add("movzx r9d, \(m.intel("word"))") { $0.movzx16(.r9, m) }
        add("lea \(X86GPR.rsi.name()), \(m.intel("qword"))") { $0.lea64(.rsi, m) }
        add("test \(m.intel("byte")), 4") { $0.test8(m, imm: 4) }
        add("add \(m.intel("qword")), 1") { $0.add64(m, imm: 1) }
        add("add \(m.intel("dword")), 1000") { $0.add32(m, imm: 1000) }
        add("cmp \(m.intel("qword")), -3") { $0.cmp64(m, imm: -3) }
        add("cmp \(m.intel("dword")), 100000") { $0.cmp32(m, imm: 100_000) }
        add("cmp \(m.intel("qword")), r14") { $0.cmp64(m, .r14) }
        add("cmp rbx, \(m.intel("qword"))") { $0.cmp64(.rbx, m) }
        add("cmp r8d, \(m.intel("dword"))") { $0.cmp32(.r8, m) }
        add("add rdi, \(m.intel("qword"))") { $0.add64(.rdi, m) }
        add("add r12d, \(m.intel("dword"))") { $0.add32(.r12, m) }
        add("call \(m.intel("qword"))") { $0.call(m) }
        add("jmp \(m.intel("qword"))") { $0.jmp(m) }
        add("movsd xmm3, \(m.intel("qword"))") { $0.movsd(.xmm3, m) }
        add("movsd \(m.intel("qword")), xmm12") { $0.movsd(m, .xmm12) }
        add("addsd xmm9, \(m.intel("qword"))") { $0.arithsd(.add, .xmm9, m) }
    }
    for r in regs {
        add("mov byte ptr [rax], \(r.name(bits: 8))") { $0.mov8(X86Memory(.rax), r) }
        add("movzx \(X86GPR.rdx.name(bits: 32)), \(r.name(bits: 8))") { $0.movzx8(.rdx, r) }
        add("movzx \(r.name(bits: 32)), \(r.name(bits: 8))") { $0.movzx8(r, r) }
        add("movsxd \(r.name()), \(X86GPR.r10.name(bits: 32))") { $0.movsxd(r, .r10) }
        add("movsxd rax, \(r.name(bits: 32))") { $0.movsxd(.rax, r) }
        for c in X86Condition.allCases {
            if r == .rax || r == .rsi || r == .r9 || r == .rsp {
                add("set\(c.suffix) \(r.name(bits: 8))") { $0.setcc(c, r) }
                add("cmov\(c.suffix) \(r.name()), r13") { $0.cmov64(c, r, .r13) }
            }
        }
        for value in [0, 1, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF] as [UInt32] {
            add("mov \(r.name(bits: 32)), \(value)") { $0.mov32(r, imm: value) }
        }
        for value in [-1, Int32.min, 5] as [Int32] {
            add("mov \(r.name()), \(value)") { $0.mov64(r, simm32: value) }
        }
        add("movabs \(r.name()), 0x1234567800000000") { $0.mov64(r, imm64: 0x1234_5678_0000_0000) }
        add("movabs \(r.name()), 0xffff000000000000") { $0.mov64(r, imm64: 0xFFFF_0000_0000_0000) }
    }
    // The ALU group, shifts, multiply, divide
    let alus: [(String, X86_64Assembler.ALU)] = [("add", .add), ("or", .or), ("and", .and), ("sub", .sub), ("xor", .xor), ("cmp", .cmp), ("adc", .adc), ("sbb", .sbb)]
    for (name, op) in alus {
        for d in someRegs { for s in someRegs where s != d || d == .rax {
            add("\(name) \(d.name()), \(s.name())") { $0.alu(op, true, d, s) }
            add("\(name) \(d.name(bits: 32)), \(s.name(bits: 32))") { $0.alu(op, false, d, s) }
        } }
        for d in someRegs { for imm in imms {
            add("\(name) \(d.name()), \(imm)") { $0.alu(op, true, d, imm: imm) }
            add("\(name) \(d.name(bits: 32)), \(imm)") { $0.alu(op, false, d, imm: imm) }
        } }
    }
    for d in regs {
        add("test \(d.name()), \(X86GPR.r9.name())") { $0.test64(d, .r9) }
        add("test \(d.name(bits: 32)), \(d.name(bits: 32))") { $0.test32(d, d) }
        add("test \(d.name()), 65536") { $0.test64(d, imm: 65536) }
        add("test \(d.name(bits: 32)), -2") { $0.test32(d, imm: -2) }
        add("test \(d.name(bits: 8)), 1") { $0.test8(d, imm: 1) }
        add("imul \(d.name()), \(X86GPR.r14.name())") { $0.imul64(d, .r14) }
        add("imul \(X86GPR.rcx.name()), \(d.name())") { $0.imul64(.rcx, d) }
        add("imul \(d.name(bits: 32)), \(X86GPR.rbp.name(bits: 32))") { $0.imul32(d, .rbp) }
        add("imul \(d.name(bits: 32)), \(X86GPR.r12.name(bits: 32)), 10") { $0.imul32(d, .r12, imm: 10) }
        add("imul \(d.name(bits: 32)), \(X86GPR.rsi.name(bits: 32)), 1000") { $0.imul32(d, .rsi, imm: 1000) }
        add("neg \(d.name())") { $0.neg64(d) }
        add("neg \(d.name(bits: 32))") { $0.neg32(d) }
        add("not \(d.name())") { $0.not64(d) }
        add("not \(d.name(bits: 32))") { $0.not32(d) }
        add("idiv \(d.name())") { $0.idiv64(d) }
        add("idiv \(d.name(bits: 32))") { $0.idiv32(d) }
        let shifts: [(String, X86_64Assembler.Shift)] = [("shl", .shl), ("shr", .shr), ("sar", .sar), ("rol", .rol), ("ror", .ror)]
        for (name, op) in shifts {
            for n in [1, 3, 31, 63] as [UInt8] {
                add("\(name) \(d.name()), \(n)") { $0.shift(op, true, d, imm: n) }
                if n < 32 { add("\(name) \(d.name(bits: 32)), \(n)") { $0.shift(op, false, d, imm: n) } }
            }
            add("\(name) \(d.name()), cl") { $0.shiftByCL(op, true, d) }
            add("\(name) \(d.name(bits: 32)), cl") { $0.shiftByCL(op, false, d) }
        }
        add("push \(d.name())") { $0.push(d) }
        add("pop \(d.name())") { $0.pop(d) }
        add("call \(d.name())") { $0.call(d) }
        add("jmp \(d.name())") { $0.jmp(d) }
    }
    add("cdq") { $0.cdq() }
    add("cqo") { $0.cqo() }
    add("ret") { $0.ret() }
    add("int3") { $0.int3() }
    add("ud2") { $0.ud2() }
    add("nop") { $0.nop() }
    // SSE2
    let xmms = X86XMM.allCases
    let someXMMs: [X86XMM] = [.xmm0, .xmm1, .xmm7, .xmm8, .xmm15]
    let sse: [(String, X86_64Assembler.SSEArith)] = [("addsd", .add), ("subsd", .sub), ("mulsd", .mul), ("divsd", .div), ("sqrtsd", .sqrt)]
    for d in xmms { for s in someXMMs {
        for (name, op) in sse { add("\(name) \(d.name), \(s.name)") { $0.arithsd(op, d, s) } }
        add("ucomisd \(d.name), \(s.name)") { $0.ucomisd(d, s) }
        add("xorpd \(d.name), \(s.name)") { $0.xorpd(d, s) }
        add("movapd \(d.name), \(s.name)") { $0.movapd(d, s) }
    } }
    for x in xmms { for r in someRegs {
        add("movq \(x.name), \(r.name())") { $0.movq(x, r) }
        add("movq \(r.name()), \(x.name)") { $0.movq(r, x) }
        add("cvtsi2sd \(x.name), \(r.name(bits: 32))") { $0.cvtsi2sd32(x, r) }
        add("cvtsi2sd \(x.name), \(r.name())") { $0.cvtsi2sd64(x, r) }
        add("cvttsd2si \(r.name(bits: 32)), \(x.name)") { $0.cvttsd2si32(r, x) }
        add("cvttsd2si \(r.name()), \(x.name)") { $0.cvttsd2si64(r, x) }
    } }
    return cases
}
