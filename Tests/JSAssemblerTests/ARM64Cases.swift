import JSAssembler

/// arm64 forms with their llvm-mc text; `Golden/arm64.txt` holds llvm-mc's words.
func arm64EncodingCases() -> [EncodingCase] {
    var cases: [EncodingCase] = []
    func add(_ text: String, _ emit: @escaping (ARM64Assembler) -> Void) {
        cases.append(EncodingCase(text: text) { x86 in
            // The case runner hands in an x86 assembler for its buffer; arm64 writes to it.
            emit(ARM64Assembler(buffer: x86.buffer))
        })
    }
    let regs: [ARM64GPR] = [.x0, .x1, .x7, .x15, .x16, .x28, .x29, .x30]
    let addSubs: [(String, ARM64Assembler.AddSub)] = [("add", .add), ("adds", .adds), ("sub", .sub), ("subs", .subs)]
    for (name, op) in addSubs {
        for d in regs { for n in [ARM64GPR.x2, .x19, .sp] where !(n == .sp && (op == .adds || op == .subs) && false) {
            for imm in [0, 1, 4095, 4096, 0xFFF000] as [UInt32] {
                let dst = (op == .adds || op == .subs) ? d : d
                add("\(name) \(dst.name()), \(n.name()), #\(imm)") { $0.addSub(op, true, dst, n, imm: imm) }
                add("\(name) \(dst.name(bits: 32)), \(n.name(bits: 32)), #\(imm)") { $0.addSub(op, false, dst, n, imm: imm) }
            }
        } }
        for d in regs { for m in [ARM64GPR.x3, .x30] {
            add("\(name) \(d.name()), \(ARM64GPR.x9.name()), \(m.name())") { $0.addSub(op, true, d, .x9, m) }
            add("\(name) \(d.name(bits: 32)), w9, \(m.name(bits: 32)), lsl #3") { $0.addSub(op, false, d, .x9, m, shift: .lsl, amount: 3) }
            add("\(name) \(d.name()), x9, \(m.name()), asr #63") { $0.addSub(op, true, d, .x9, m, shift: .asr, amount: 63) }
        } }
    }
    let logicals: [(String, ARM64Assembler.Logical)] = [("and", .and), ("orr", .orr), ("eor", .eor), ("ands", .ands)]
    let masks64: [UInt64] = [0xFF, 0xFF00, 0x5555_5555_5555_5555, 0xFFFF_0000_FFFF_0000, 0x8000_0000_0000_0000, 0x7FFF_FFFF_FFFF_FFFF,
                             0x0F0F_0F0F_0F0F_0F0F, 0xFFFE_0000_0000_0000, 0x1, 0x3FFF_C000, 0xFFFF_FFFF_0000_0001]
    let masks32: [UInt64] = [0xFF, 0xFFFF_0000, 0x5555_5555, 0x8000_0000, 0x7FFF_FFFF, 0x0F0F_0F0F, 0xFFFF_FFFE, 0x1]
    for (name, op) in logicals {
        for d in regs {
            add("\(name) \(d.name()), x5, x6") { $0.logical(op, true, d, .x5, .x6) }
            add("\(name) \(d.name(bits: 32)), w5, w6, lsr #7") { $0.logical(op, false, d, .x5, .x6, shift: .lsr, amount: 7) }
        }
        for m in masks64 { add("\(name) x1, x2, #0x\(String(m, radix: 16))") { $0.logical(op, true, .x1, .x2, imm: m) } }
        for m in masks32 { add("\(name) w1, w2, #0x\(String(m, radix: 16))") { $0.logical(op, false, .x1, .x2, imm: m) } }
    }
    add("orn x1, x2, x3") { $0.logical(.orr, true, .x1, .x2, .x3, invert: true) }
    add("bic w1, w2, w3") { $0.logical(.and, false, .x1, .x2, .x3, invert: true) }
    for d in regs {
        add("mov \(d.name()), x12") { $0.mov(true, d, .x12) }
        add("mov \(d.name(bits: 32)), w12") { $0.mov(false, d, .x12) }
        add("mov sp, \(d.name())") { $0.mov(true, .sp, d) }
        add("mov \(d.name()), sp") { $0.mov(true, d, .sp) }
        for shift in [0, 16, 32, 48] as [UInt32] {
            add("movz \(d.name()), #0xbeef, lsl #\(shift)") { $0.moveWide(.movz, true, d, imm16: 0xBEEF, shift: shift) }
            add("movk \(d.name()), #0x1234, lsl #\(shift)") { $0.moveWide(.movk, true, d, imm16: 0x1234, shift: shift) }
            add("movn \(d.name()), #0x7, lsl #\(shift)") { $0.moveWide(.movn, true, d, imm16: 7, shift: shift) }
        }
        add("movz \(d.name(bits: 32)), #0xffff, lsl #16") { $0.moveWide(.movz, false, d, imm16: 0xFFFF, shift: 16) }
        for s in [1, 3, 31, 63] as [UInt32] {
            add("lsl \(d.name()), x4, #\(s)") { $0.lsl(true, d, .x4, s) }
            add("lsr \(d.name()), x4, #\(s)") { $0.lsr(true, d, .x4, s) }
            add("asr \(d.name()), x4, #\(s)") { $0.asr(true, d, .x4, s) }
            if s < 32 {
                add("lsl \(d.name(bits: 32)), w4, #\(s)") { $0.lsl(false, d, .x4, s) }
                add("lsr \(d.name(bits: 32)), w4, #\(s)") { $0.lsr(false, d, .x4, s) }
                add("asr \(d.name(bits: 32)), w4, #\(s)") { $0.asr(false, d, .x4, s) }
            }
        }
        add("sxtw \(d.name()), w8") { $0.sxtw(d, .x8) }
        let two: [(String, ARM64Assembler.TwoSource)] = [("lsl", .lslv), ("lsr", .lsrv), ("asr", .asrv), ("sdiv", .sdiv), ("udiv", .udiv)]
        for (name, op) in two {
            add("\(name) \(d.name()), x10, x11") { $0.twoSource(op, true, d, .x10, .x11) }
            add("\(name) \(d.name(bits: 32)), w10, w11") { $0.twoSource(op, false, d, .x10, .x11) }
        }
        add("mul \(d.name()), x13, x14") { $0.multiplyAdd(subtract: false, true, d, .x13, .x14, .zr) }
        add("mul \(d.name(bits: 32)), w13, w14") { $0.multiplyAdd(subtract: false, false, d, .x13, .x14, .zr) }
        add("msub \(d.name()), x13, x14, x15") { $0.multiplyAdd(subtract: true, true, d, .x13, .x14, .x15) }
        add("smull \(d.name()), w13, w14") { $0.smull(d, .x13, .x14) }
        for c in ARM64Condition.allCases where c != .al {
            add("csel \(d.name()), x1, x2, \(c.name)") { $0.conditionalSelect(.csel, true, d, .x1, .x2, c) }
            add("cset \(d.name(bits: 32)), \(c.name)") { $0.cset(false, d, c) }
        }
        add("csinc \(d.name()), x1, x2, ne") { $0.conditionalSelect(.csinc, true, d, .x1, .x2, .ne) }
    }
    // Loads and stores
    let accesses: [(String, String, ARM64Assembler.Access, Int)] = [("strb", "w", .strb, 1), ("ldrb", "w", .ldrb, 1), ("strh", "w", .strh, 2), ("ldrh", "w", .ldrh, 2),
                                                                    ("str", "w", .strw, 4), ("ldr", "w", .ldrw, 4), ("str", "x", .strx, 8), ("ldr", "x", .ldrx, 8)]
    for (name, width, a, size) in accesses {
        for base in [ARM64GPR.x0, .x19, .sp] {
            for k in [0, 1, 100, 4095] {
                let off = k * size
                add("\(name) \(width)3, [\(base.name()), #\(off)]") { $0.loadStore(a, .x3, base, offset: UInt32(off)) }
            }
            for off in [-256, -8, 1, 255] as [Int32] {
                let un = name == "ldr" ? "ldur" : name == "str" ? "stur" : name == "ldrb" ? "ldurb" : name == "strb" ? "sturb" : name == "ldrh" ? "ldurh" : "sturh"
                add("\(un) \(width)3, [\(base.name()), #\(off)]") { $0.loadStoreUnscaled(a, .x3, base, offset: off) }
            }
        }
        let shift = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3
        add("\(name) \(width)5, [x6, x7, lsl #\(shift)]") { $0.loadStoreIndexed(a, .x5, .x6, .x7, scaled: true) }
        add("\(name) \(width)5, [x6, x7]") { $0.loadStoreIndexed(a, .x5, .x6, .x7, scaled: false) }
    }
    for off in [-512, -16, 0, 16, 504] as [Int32] {
        add("stp x29, x30, [sp, #\(off)]") { $0.loadStorePair(load: false, .offset, .fp, .lr, .sp, offset: off) }
        add("ldp x19, x20, [x1, #\(off)]") { $0.loadStorePair(load: true, .offset, .x19, .x20, .x1, offset: off) }
        add("stp x29, x30, [sp, #\(off)]!") { $0.loadStorePair(load: false, .preIndex, .fp, .lr, .sp, offset: off) }
        add("ldp x29, x30, [sp], #\(off)") { $0.loadStorePair(load: true, .postIndex, .fp, .lr, .sp, offset: off) }
    }
    for d in [ARM64FPR.d0, .d7, .d31] {
        for off in [0, 8, 32760] as [UInt32] {
            add("ldr \(d.name), [x2, #\(off)]") { $0.loadStoreDouble(load: true, d, .x2, offset: off) }
            add("str \(d.name), [sp, #\(off)]") { $0.loadStoreDouble(load: false, d, .sp, offset: off) }
        }
    }
    // Branches (offsets from the branch itself)
    for off in [0, 4, -4, 1024, -134217728, 134217724] {
        add("b #\(off)") { $0.b(offset: off) }
        add("bl #\(off)") { $0.bl(offset: off) }
    }
    for off in [8, -8, 1048572, -1048576] {
        for c in ARM64Condition.allCases where c != .al { add("b.\(c.name) #\(off)") { $0.bcond(c, offset: off) } }
        add("cbz x3, #\(off)") { $0.cbz(true, .x3, offset: off) }
        add("cbnz w3, #\(off)") { $0.cbz(false, nonZero: true, .x3, offset: off) }
    }
    for (bit, off) in [(0, 8), (31, -8), (32, 32764), (63, -32768)] as [(UInt32, Int)] {
        let r = bit < 32 ? "w9" : "x9"
        add("tbz \(r), #\(bit), #\(off)") { $0.tbz(.x9, bit: bit, offset: off) }
        add("tbnz \(r), #\(bit), #\(off)") { $0.tbz(nonZero: true, .x9, bit: bit, offset: off) }
    }
    for r in regs {
        add("br \(r.name())") { $0.br(r) }
        add("blr \(r.name())") { $0.blr(r) }
        add("ret \(r.name())") { $0.ret(r) }
    }
    add("ret") { $0.ret() }
    add("nop") { $0.nop() }
    add("brk #0") { $0.brk() }
    add("brk #0x3e8") { $0.brk(1000) }
    // Doubles
    let fps: [ARM64FPR] = [.d0, .d1, .d15, .d31]
    let fpOps: [(String, ARM64Assembler.FPArith)] = [("fadd", .fadd), ("fsub", .fsub), ("fmul", .fmul), ("fdiv", .fdiv)]
    for d in fps {
        for (name, op) in fpOps { add("\(name) \(d.name), d2, d30") { $0.fpArith(op, d, .d2, .d30) } }
        add("fsqrt \(d.name), d3") { $0.fsqrt(d, .d3) }
        add("fmov \(d.name), d4") { $0.fmov(d, .d4) }
        add("fmov x5, \(d.name)") { $0.fmov(.x5, d) }
        add("fmov \(d.name), x6") { $0.fmov(d, .x6) }
        add("fcmp \(d.name), d9") { $0.fcmp(d, .d9) }
        add("scvtf \(d.name), w7") { $0.scvtf(false, d, .x7) }
        add("scvtf \(d.name), x7") { $0.scvtf(true, d, .x7) }
        add("fcvtzs w8, \(d.name)") { $0.fcvtzs(false, .x8, d) }
        add("fcvtzs x8, \(d.name)") { $0.fcvtzs(true, .x8, d) }
    }
    return cases
}
