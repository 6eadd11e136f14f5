/// `MacroAssembler` for arm64 (AAPCS64), over `ARM64Assembler`.
///
/// `x16` and `x17` (IP0/IP1, the intra-procedure-call scratch registers) belong to the
/// macro assembler (large constants and offsets, absolute calls, the -0 check), `d31` is
/// its floating-point scratch, and `x18` (the platform register) is never used.
public final class MacroAssemblerARM64: MacroAssembler {
    public typealias Register = ARM64GPR
    public typealias FPRegister = ARM64FPR

    public let buffer: AssemblerBuffer
    /// The raw encoder, for the rare instruction the portable interface lacks.
    public let asm: ARM64Assembler
    static let scratch: ARM64GPR = .x16
    static let scratch2: ARM64GPR = .x17
    static let fpScratch: ARM64FPR = .d31

    public init(buffer: AssemblerBuffer = AssemblerBuffer()) {
        self.buffer = buffer
        asm = ARM64Assembler(buffer: buffer)
    }

    // MARK: ABI roles (AAPCS64)
    public static let argumentRegisters: [ARM64GPR] = [.x0, .x1, .x2, .x3, .x4, .x5, .x6, .x7]
    public static let returnRegister: ARM64GPR = .x0
    public static let calleeSavedRegisters: [ARM64GPR] = [.x19, .x20, .x21, .x22, .x23, .x24, .x25, .x26, .x27, .x28]
    public static let temporaryRegisters: [ARM64GPR] = [.x0, .x1, .x2, .x3, .x4, .x5, .x6, .x7, .x8, .x9, .x10, .x11, .x12, .x13, .x14, .x15]
    public static let stackPointer: ARM64GPR = .sp
    public static let framePointer: ARM64GPR = .x29
    public static let fpArgumentRegisters: [ARM64FPR] = [.d0, .d1, .d2, .d3, .d4, .d5, .d6, .d7]
    public static let fpTemporaryRegisters: [ARM64FPR] = [.d0, .d1, .d2, .d3, .d4, .d5, .d6, .d7] + ARM64FPR.allCases.filter { $0.rawValue >= 16 && $0 != .d31 }

    static func cc(_ c: RelationalCondition) -> ARM64Condition {
        switch c {
        case .equal: return .eq
        case .notEqual: return .ne
        case .above: return .hi
        case .aboveOrEqual: return .hs
        case .below: return .lo
        case .belowOrEqual: return .ls
        case .greaterThan: return .gt
        case .greaterThanOrEqual: return .ge
        case .lessThan: return .lt
        case .lessThanOrEqual: return .le
        }
    }

    static func cc(_ c: ResultCondition) -> ARM64Condition {
        switch c {
        case .overflow: return .vs
        case .signed: return .mi
        case .positiveOrZero: return .pl
        case .zero: return .eq
        case .nonZero: return .ne
        }
    }

    // MARK: Positions and branches
    public func label() -> Label { Label(offset: buffer.count) }

    /// Patches the branch word just before `jump.end` (B, B.cond, CB(N)Z or TB(N)Z, told
    /// apart by their encodings) to land on `target`.
    func link(_ jump: Jump, target: Int) {
        let at = jump.end - 4
        let word = buffer.read32(at: at)
        let kind: ARM64Assembler.BranchKind
        if word & 0x7C00_0000 == 0x1400_0000 { kind = .b }
        else if word & 0xFF00_0010 == 0x5400_0000 { kind = .bcond }
        else if word & 0x7E00_0000 == 0x3400_0000 { kind = .cbz }
        else { kind = .tbz }
        asm.link(branchAt: at, kind: kind, to: target)
    }
    public func link(_ jump: Jump, to label: Label) { link(jump, target: label.offset) }
    public func linkHere(_ jump: Jump) { link(jump, target: buffer.count) }

    func pendingBranch(_ emit: () -> Void) -> Jump {
        emit()
        return Jump(end: buffer.count, width: 4)
    }
    func branch(_ cond: ARM64Condition) -> Jump { pendingBranch { asm.bcond(cond, offset: 0) } }

    // MARK: Moves, loads and stores
    public func move(_ src: ARM64GPR, _ dst: ARM64GPR) { if src != dst { asm.mov(true, dst, src) } }
    public func move(imm: UInt64, _ dst: ARM64GPR) { asm.movImmediate64(dst, imm) }

    /// A memory access at `base + offset`: the scaled unsigned form, the unscaled signed
    /// form, or the offset in the scratch register and the register form.
    func access(_ a: ARM64Assembler.Access, _ rt: ARM64GPR, _ base: ARM64GPR, _ offset: Int32, size: Int32) {
        if offset >= 0 && offset % size == 0 && offset / size <= 4095 {
            asm.loadStore(a, rt, base, offset: UInt32(offset))
        } else if offset >= -256 && offset <= 255 {
            asm.loadStoreUnscaled(a, rt, base, offset: offset)
        } else {
            asm.movImmediate64(Self.scratch, UInt64(bitPattern: Int64(offset)))
            asm.loadStoreIndexed(a, rt, base, Self.scratch, scaled: false)
        }
    }
    public func load64(_ base: ARM64GPR, _ offset: Int32, _ dst: ARM64GPR) { access(.ldrx, dst, base, offset, size: 8) }
    public func load32(_ base: ARM64GPR, _ offset: Int32, _ dst: ARM64GPR) { access(.ldrw, dst, base, offset, size: 4) }
    public func load8(_ base: ARM64GPR, _ offset: Int32, _ dst: ARM64GPR) { access(.ldrb, dst, base, offset, size: 1) }
    public func load64(_ base: ARM64GPR, index: ARM64GPR, _ offset: Int32, _ dst: ARM64GPR) {
        if offset == 0 {
            asm.loadStoreIndexed(.ldrx, dst, base, index, scaled: true)
        } else {
            addressPlusOffset(base, offset)
            asm.loadStoreIndexed(.ldrx, dst, Self.scratch, index, scaled: true)
        }
    }
    public func store64(_ src: ARM64GPR, _ base: ARM64GPR, _ offset: Int32) { access(.strx, src, base, offset, size: 8) }
    public func store64(imm: Int32, _ base: ARM64GPR, _ offset: Int32) {
        if imm == 0 {
            access(.strx, .zr, base, offset, size: 8)
        } else {
            asm.movImmediate64(Self.scratch2, UInt64(bitPattern: Int64(imm)))
            access(.strx, Self.scratch2, base, offset, size: 8)
        }
    }
    public func store32(_ src: ARM64GPR, _ base: ARM64GPR, _ offset: Int32) { access(.strw, src, base, offset, size: 4) }
    public func store8(_ src: ARM64GPR, _ base: ARM64GPR, _ offset: Int32) { access(.strb, src, base, offset, size: 1) }
    public func store64(_ src: ARM64GPR, _ base: ARM64GPR, index: ARM64GPR, _ offset: Int32) {
        if offset == 0 {
            asm.loadStoreIndexed(.strx, src, base, index, scaled: true)
        } else {
            addressPlusOffset(base, offset)
            asm.loadStoreIndexed(.strx, src, Self.scratch, index, scaled: true)
        }
    }

    /// scratch = base + offset
    func addressPlusOffset(_ base: ARM64GPR, _ offset: Int32) {
        let magnitude = UInt64(abs(Int64(offset)))
        if ARM64Assembler.isAddSubImmediate(magnitude) {
            asm.addSub(offset < 0 ? .sub : .add, true, Self.scratch, base, imm: UInt32(magnitude))
        } else {
            asm.movImmediate64(Self.scratch, UInt64(bitPattern: Int64(offset)))
            asm.addSub(.add, true, Self.scratch, base, Self.scratch)
        }
    }

    // MARK: Integer arithmetic
    /// dst = dst op imm, through the immediate form when it encodes, else the scratch register.
    func addSubImmediate(_ op: ARM64Assembler.AddSub, _ is64: Bool, _ imm: Int64, _ dst: ARM64GPR) {
        let flipped: ARM64Assembler.AddSub
        switch op {
        case .add: flipped = .sub
        case .sub: flipped = .add
        case .adds: flipped = .subs
        case .subs: flipped = .adds
        }
        let magnitude = imm.magnitude
        if ARM64Assembler.isAddSubImmediate(magnitude) && imm != Int64.min {
            asm.addSub(imm < 0 ? flipped : op, is64, dst, dst, imm: UInt32(magnitude))
        } else {
            asm.movImmediate64(Self.scratch, UInt64(bitPattern: imm))
            asm.addSub(op, is64, dst, dst, Self.scratch)
        }
    }
    func logicalImmediate(_ op: ARM64Assembler.Logical, _ is64: Bool, _ imm: UInt64, _ dst: ARM64GPR) {
        if ARM64Assembler.encodeLogicalImmediate(imm, width: is64 ? 64 : 32) != nil {
            asm.logical(op, is64, dst, dst, imm: imm)
        } else {
            asm.movImmediate64(Self.scratch, imm)
            asm.logical(op, is64, dst, dst, Self.scratch)
        }
    }
    public func add64(_ src: ARM64GPR, _ dst: ARM64GPR) { asm.addSub(.add, true, dst, dst, src) }
    public func add64(imm: Int32, _ dst: ARM64GPR) { addSubImmediate(.add, true, Int64(imm), dst) }
    public func sub64(_ src: ARM64GPR, _ dst: ARM64GPR) { asm.addSub(.sub, true, dst, dst, src) }
    public func sub64(imm: Int32, _ dst: ARM64GPR) { addSubImmediate(.sub, true, Int64(imm), dst) }
    public func and64(_ src: ARM64GPR, _ dst: ARM64GPR) { asm.logical(.and, true, dst, dst, src) }
    public func and64(imm: Int32, _ dst: ARM64GPR) { logicalImmediate(.and, true, UInt64(bitPattern: Int64(imm)), dst) }
    public func or64(_ src: ARM64GPR, _ dst: ARM64GPR) { asm.logical(.orr, true, dst, dst, src) }
    public func xor64(_ src: ARM64GPR, _ dst: ARM64GPR) { asm.logical(.eor, true, dst, dst, src) }
    public func shiftLeft64(imm: UInt8, _ dst: ARM64GPR) { asm.lsl(true, dst, dst, UInt32(imm & 63)) }
    public func shiftRightArithmetic64(imm: UInt8, _ dst: ARM64GPR) { asm.asr(true, dst, dst, UInt32(imm & 63)) }
    public func shiftRightLogical64(imm: UInt8, _ dst: ARM64GPR) { asm.lsr(true, dst, dst, UInt32(imm & 63)) }
    public func add32(_ src: ARM64GPR, _ dst: ARM64GPR) { asm.addSub(.add, false, dst, dst, src) }
    public func and32(_ src: ARM64GPR, _ dst: ARM64GPR) { asm.logical(.and, false, dst, dst, src) }
    public func or32(_ src: ARM64GPR, _ dst: ARM64GPR) { asm.logical(.orr, false, dst, dst, src) }
    public func xor32(_ src: ARM64GPR, _ dst: ARM64GPR) { asm.logical(.eor, false, dst, dst, src) }
    /// The variable shifts use the count modulo 32 for W registers, as JS shifts do.
    public func shiftLeft32(_ count: ARM64GPR, _ dst: ARM64GPR) { asm.twoSource(.lslv, false, dst, dst, count) }
    public func shiftRightArithmetic32(_ count: ARM64GPR, _ dst: ARM64GPR) { asm.twoSource(.asrv, false, dst, dst, count) }
    public func shiftRightLogical32(_ count: ARM64GPR, _ dst: ARM64GPR) { asm.twoSource(.lsrv, false, dst, dst, count) }
    public func zeroExtend32(_ r: ARM64GPR) { asm.mov(false, r, r) }
    public func negate32(_ dst: ARM64GPR) { asm.addSub(.sub, false, dst, .zr, dst) }
    public func remainder32(_ divisor: ARM64GPR, _ dst: ARM64GPR) {
        asm.twoSource(.sdiv, false, Self.scratch, dst, divisor)
        asm.multiplyAdd(subtract: true, false, dst, Self.scratch, divisor, dst)
    }

    public func branchAdd32(_ cond: ResultCondition, _ src: ARM64GPR, _ dst: ARM64GPR) -> Jump {
        asm.addSub(.adds, false, dst, dst, src)
        return branch(Self.cc(cond))
    }
    public func branchAdd32(_ cond: ResultCondition, imm: Int32, _ dst: ARM64GPR) -> Jump {
        addSubImmediate(.adds, false, Int64(imm), dst)
        return branch(Self.cc(cond))
    }
    public func branchSub32(_ cond: ResultCondition, _ src: ARM64GPR, _ dst: ARM64GPR) -> Jump {
        asm.addSub(.subs, false, dst, dst, src)
        return branch(Self.cc(cond))
    }
    public func branchSub32(_ cond: ResultCondition, imm: Int32, _ dst: ARM64GPR) -> Jump {
        addSubImmediate(.subs, false, Int64(imm), dst)
        return branch(Self.cc(cond))
    }
    /// The 64-bit product, then overflow = it differs from its low word sign-extended.
    public func branchMul32(_ cond: ResultCondition, _ src: ARM64GPR, _ dst: ARM64GPR) -> Jump {
        asm.smull(Self.scratch, dst, src)
        asm.mov(false, dst, Self.scratch)
        if cond == .overflow {
            asm.sxtw(Self.scratch2, Self.scratch)
            asm.addSub(.subs, true, .zr, Self.scratch, Self.scratch2)
            return branch(.ne)
        }
        asm.addSub(.subs, false, .zr, dst, imm: 0)
        return branch(Self.cc(cond))
    }

    // MARK: Compares and branches
    /// Sets the flags for `a - imm` (CMP or CMN, or through the scratch register).
    func compareImmediate(_ is64: Bool, _ a: ARM64GPR, _ imm: Int64) {
        let magnitude = imm.magnitude
        if ARM64Assembler.isAddSubImmediate(magnitude) && imm != Int64.min {
            asm.addSub(imm < 0 ? .adds : .subs, is64, .zr, a, imm: UInt32(magnitude))
        } else {
            asm.movImmediate64(Self.scratch, UInt64(bitPattern: imm))
            asm.addSub(.subs, is64, .zr, a, Self.scratch)
        }
    }
    public func branch32(_ cond: RelationalCondition, _ a: ARM64GPR, _ b: ARM64GPR) -> Jump {
        asm.addSub(.subs, false, .zr, a, b)
        return branch(Self.cc(cond))
    }
    public func branch32(_ cond: RelationalCondition, _ a: ARM64GPR, imm: Int32) -> Jump {
        compareImmediate(false, a, Int64(imm))
        return branch(Self.cc(cond))
    }
    public func branch64(_ cond: RelationalCondition, _ a: ARM64GPR, _ b: ARM64GPR) -> Jump {
        asm.addSub(.subs, true, .zr, a, b)
        return branch(Self.cc(cond))
    }
    public func branch64(_ cond: RelationalCondition, _ a: ARM64GPR, imm: Int32) -> Jump {
        compareImmediate(true, a, Int64(imm))
        return branch(Self.cc(cond))
    }
    public func branch64(_ cond: RelationalCondition, _ base: ARM64GPR, _ offset: Int32, _ b: ARM64GPR) -> Jump {
        access(.ldrx, Self.scratch2, base, offset, size: 8)
        asm.addSub(.subs, true, .zr, Self.scratch2, b)
        return branch(Self.cc(cond))
    }
    public func branchTest64(_ cond: ResultCondition, _ a: ARM64GPR, _ mask: ARM64GPR) -> Jump {
        asm.logical(.ands, true, .zr, a, mask)
        return branch(Self.cc(cond))
    }
    public func branchTest32(_ cond: ResultCondition, _ a: ARM64GPR, imm: Int32) -> Jump {
        let mask = UInt64(UInt32(bitPattern: imm))
        if ARM64Assembler.encodeLogicalImmediate(mask, width: 32) != nil {
            asm.logical(.ands, false, .zr, a, imm: mask)
        } else {
            asm.movImmediate64(Self.scratch, mask)
            asm.logical(.ands, false, .zr, a, Self.scratch)
        }
        return branch(Self.cc(cond))
    }
    public func branchTest8(_ cond: ResultCondition, _ base: ARM64GPR, _ offset: Int32, imm: UInt8) -> Jump {
        access(.ldrb, Self.scratch2, base, offset, size: 1)
        return branchTest32(cond, Self.scratch2, imm: Int32(imm))
    }
    public func compare32(_ cond: RelationalCondition, _ a: ARM64GPR, _ b: ARM64GPR, _ dst: ARM64GPR) {
        asm.addSub(.subs, false, .zr, a, b)
        asm.cset(true, dst, Self.cc(cond))
    }
    public func compare64(_ cond: RelationalCondition, _ a: ARM64GPR, _ b: ARM64GPR, _ dst: ARM64GPR) {
        asm.addSub(.subs, true, .zr, a, b)
        asm.cset(true, dst, Self.cc(cond))
    }
    public func jump() -> Jump { pendingBranch { asm.b(offset: 0) } }
    public func jump(to label: Label) { asm.b(offset: label.offset - buffer.count) }
    public func branch32(_ cond: RelationalCondition, _ a: ARM64GPR, _ b: ARM64GPR, to label: Label) {
        asm.addSub(.subs, false, .zr, a, b)
        asm.bcond(Self.cc(cond), offset: label.offset - buffer.count)
    }
    public func jump(_ target: ARM64GPR) { asm.br(target) }

    // MARK: Calls and the stack
    public func call(_ target: ARM64GPR) { asm.blr(target) }
    public func call(address: UnsafeRawPointer) {
        asm.movImmediate64(Self.scratch, UInt64(UInt(bitPattern: address)))
        asm.blr(Self.scratch)
    }
    public func call(to label: Label) { asm.bl(offset: label.offset - buffer.count) }
    public func ret() { asm.ret() }
    /// The stack pointer stays 16-byte aligned (AAPCS64): a push takes 16 bytes.
    public func push(_ r: ARM64GPR) { asm.loadStorePair(load: false, .preIndex, r, .zr, .sp, offset: -16) }
    public func pop(_ r: ARM64GPR) { asm.loadStorePair(load: true, .postIndex, r, .zr, .sp, offset: 16) }
    public func breakpoint() { asm.brk() }

    // MARK: Doubles
    public func loadDouble(_ base: ARM64GPR, _ offset: Int32, _ dst: ARM64FPR) {
        if offset >= 0 && offset % 8 == 0 && offset / 8 <= 4095 {
            asm.loadStoreDouble(load: true, dst, base, offset: UInt32(offset))
        } else {
            addressPlusOffset(base, offset)
            asm.loadStoreDouble(load: true, dst, Self.scratch, offset: 0)
        }
    }
    public func storeDouble(_ src: ARM64FPR, _ base: ARM64GPR, _ offset: Int32) {
        if offset >= 0 && offset % 8 == 0 && offset / 8 <= 4095 {
            asm.loadStoreDouble(load: false, src, base, offset: UInt32(offset))
        } else {
            addressPlusOffset(base, offset)
            asm.loadStoreDouble(load: false, src, Self.scratch, offset: 0)
        }
    }
    public func moveDouble(_ src: ARM64FPR, _ dst: ARM64FPR) { if src != dst { asm.fmov(dst, src) } }
    public func move64ToDouble(_ src: ARM64GPR, _ dst: ARM64FPR) { asm.fmov(dst, src) }
    public func moveDoubleTo64(_ src: ARM64FPR, _ dst: ARM64GPR) { asm.fmov(dst, src) }
    public func addDouble(_ src: ARM64FPR, _ dst: ARM64FPR) { asm.fpArith(.fadd, dst, dst, src) }
    public func subDouble(_ src: ARM64FPR, _ dst: ARM64FPR) { asm.fpArith(.fsub, dst, dst, src) }
    public func mulDouble(_ src: ARM64FPR, _ dst: ARM64FPR) { asm.fpArith(.fmul, dst, dst, src) }
    public func divDouble(_ src: ARM64FPR, _ dst: ARM64FPR) { asm.fpArith(.fdiv, dst, dst, src) }
    public func sqrtDouble(_ src: ARM64FPR, _ dst: ARM64FPR) { asm.fsqrt(dst, src) }
    public func convertInt32ToDouble(_ src: ARM64GPR, _ dst: ARM64FPR) { asm.scvtf(false, dst, src) }

    /// After `fcmp a, b`: unordered sets C and V; a < b sets N; a == b sets Z and C;
    /// a > b sets C.
    public func branchDouble(_ cond: DoubleCondition, _ a: ARM64FPR, _ b: ARM64FPR) -> [Jump] {
        asm.fcmp(a, b)
        switch cond {
        case .equal: return [branch(.eq)]
        case .notEqual:
            let unordered = branch(.vs)
            let taken = branch(.ne)
            linkHere(unordered)
            return [taken]
        case .greaterThan: return [branch(.gt)]
        case .greaterThanOrEqual: return [branch(.ge)]
        case .lessThan: return [branch(.mi)]
        case .lessThanOrEqual: return [branch(.ls)]
        case .equalOrUnordered: return [branch(.eq), branch(.vs)]
        case .notEqualOrUnordered: return [branch(.ne)]
        case .greaterThanOrUnordered: return [branch(.hi)]
        case .greaterThanOrEqualOrUnordered: return [branch(.hs)]
        case .lessThanOrUnordered: return [branch(.lt)]
        case .lessThanOrEqualOrUnordered: return [branch(.le)]
        }
    }

    public func branchConvertDoubleToInt32(_ src: ARM64FPR, _ dst: ARM64GPR, scratch: ARM64FPR) -> [Jump] {
        var failures: [Jump] = []
        asm.fcvtzs(false, dst, src)
        // Zero: 0 or -0 (or a fraction that truncated to 0): -0 has the sign bit.
        let nonZero = pendingBranch { asm.cbz(false, nonZero: true, dst, offset: 0) }
        asm.fmov(Self.scratch, src)
        failures.append(pendingBranch { asm.tbz(nonZero: true, Self.scratch, bit: 63, offset: 0) })
        linkHere(nonZero)
        // Round trip: a fraction, NaN (unordered: ne) or a saturated value does not convert back.
        asm.scvtf(false, scratch, dst)
        asm.fcmp(scratch, src)
        failures.append(branch(.ne))
        return failures
    }
}

#if arch(arm64)
/// The macro assembler of the machine this code runs on.
public typealias HostMacroAssembler = MacroAssemblerARM64
#endif
