/// `MacroAssembler` for x86_64 (System V ABI), over `X86_64Assembler`.
///
/// `r11` is the macro assembler's scratch register (large constants, absolute calls,
/// the -0 check) and `xmm15` its floating-point scratch: the JIT never allocates them.
public final class MacroAssemblerX86_64: MacroAssembler {
    public typealias Register = X86GPR
    public typealias FPRegister = X86XMM

    public let buffer: AssemblerBuffer
    /// The raw encoder, for the rare instruction the portable interface lacks.
    public let asm: X86_64Assembler
    static let scratch: X86GPR = .r11
    static let fpScratch: X86XMM = .xmm15

    public init(buffer: AssemblerBuffer = AssemblerBuffer()) {
        self.buffer = buffer
        asm = X86_64Assembler(buffer: buffer)
    }

    // MARK: ABI roles (System V AMD64)
    public static let argumentRegisters: [X86GPR] = [.rdi, .rsi, .rdx, .rcx, .r8, .r9]
    public static let returnRegister: X86GPR = .rax
    public static let calleeSavedRegisters: [X86GPR] = [.rbx, .r12, .r13, .r14, .r15]
    public static let temporaryRegisters: [X86GPR] = [.rax, .rcx, .rdx, .rsi, .rdi, .r8, .r9, .r10]
    public static let stackPointer: X86GPR = .rsp
    public static let framePointer: X86GPR = .rbp
    public static let fpArgumentRegisters: [X86XMM] = [.xmm0, .xmm1, .xmm2, .xmm3, .xmm4, .xmm5, .xmm6, .xmm7]
    public static let fpTemporaryRegisters: [X86XMM] = X86XMM.allCases.filter { $0 != .xmm15 }

    static func cc(_ c: RelationalCondition) -> X86Condition {
        switch c {
        case .equal: return .equal
        case .notEqual: return .notEqual
        case .above: return .above
        case .aboveOrEqual: return .aboveOrEqual
        case .below: return .below
        case .belowOrEqual: return .belowOrEqual
        case .greaterThan: return .greater
        case .greaterThanOrEqual: return .greaterOrEqual
        case .lessThan: return .less
        case .lessThanOrEqual: return .lessOrEqual
        }
    }

    static func cc(_ c: ResultCondition) -> X86Condition {
        switch c {
        case .overflow: return .overflow
        case .signed: return .sign
        case .positiveOrZero: return .notSign
        case .zero: return .equal
        case .nonZero: return .notEqual
        }
    }

    // MARK: Positions
    public func label() -> Label { Label(offset: buffer.count) }
    public func link(_ jump: Jump, to label: Label) { asm.link(jump, to: label.offset) }
    public func linkHere(_ jump: Jump) { asm.link(jump, to: buffer.count) }

    // MARK: Moves, loads and stores
    public func move(_ src: X86GPR, _ dst: X86GPR) { if src != dst { asm.mov64(dst, src) } }
    public func move(imm: UInt64, _ dst: X86GPR) {
        if imm == 0 { asm.xor32(dst, dst) } else { asm.movImmediate64(dst, imm) }
    }
    public func load64(_ base: X86GPR, _ offset: Int32, _ dst: X86GPR) { asm.mov64(dst, X86Memory(base, offset)) }
    public func load32(_ base: X86GPR, _ offset: Int32, _ dst: X86GPR) { asm.mov32(dst, X86Memory(base, offset)) }
    public func load8(_ base: X86GPR, _ offset: Int32, _ dst: X86GPR) { asm.movzx8(dst, X86Memory(base, offset)) }
    public func load64(_ base: X86GPR, index: X86GPR, _ offset: Int32, _ dst: X86GPR) {
        asm.mov64(dst, X86Memory(base, index: index, scale: 8, offset))
    }
    public func store64(_ src: X86GPR, _ base: X86GPR, _ offset: Int32) { asm.mov64(X86Memory(base, offset), src) }
    public func store64(imm: Int32, _ base: X86GPR, _ offset: Int32) { asm.mov64(X86Memory(base, offset), imm: imm) }
    public func store32(_ src: X86GPR, _ base: X86GPR, _ offset: Int32) { asm.mov32(X86Memory(base, offset), src) }
    public func store8(_ src: X86GPR, _ base: X86GPR, _ offset: Int32) { asm.mov8(X86Memory(base, offset), src) }
    public func store64(_ src: X86GPR, _ base: X86GPR, index: X86GPR, _ offset: Int32) {
        asm.mov64(X86Memory(base, index: index, scale: 8, offset), src)
    }

    // MARK: Integer arithmetic
    public func add64(_ src: X86GPR, _ dst: X86GPR) { asm.add64(dst, src) }
    public func add64(imm: Int32, _ dst: X86GPR) { asm.add64(dst, imm: imm) }
    public func sub64(_ src: X86GPR, _ dst: X86GPR) { asm.sub64(dst, src) }
    public func sub64(imm: Int32, _ dst: X86GPR) { asm.sub64(dst, imm: imm) }
    public func and64(_ src: X86GPR, _ dst: X86GPR) { asm.and64(dst, src) }
    public func and64(imm: Int32, _ dst: X86GPR) { asm.and64(dst, imm: imm) }
    public func or64(_ src: X86GPR, _ dst: X86GPR) { asm.or64(dst, src) }
    public func xor64(_ src: X86GPR, _ dst: X86GPR) { asm.xor64(dst, src) }
    public func shiftLeft64(imm: UInt8, _ dst: X86GPR) { asm.shift(.shl, true, dst, imm: imm) }
    public func shiftRightArithmetic64(imm: UInt8, _ dst: X86GPR) { asm.shift(.sar, true, dst, imm: imm) }
    public func shiftRightLogical64(imm: UInt8, _ dst: X86GPR) { asm.shift(.shr, true, dst, imm: imm) }
    public func add32(_ src: X86GPR, _ dst: X86GPR) { asm.add32(dst, src) }
    public func and32(_ src: X86GPR, _ dst: X86GPR) { asm.and32(dst, src) }
    public func or32(_ src: X86GPR, _ dst: X86GPR) { asm.or32(dst, src) }
    public func xor32(_ src: X86GPR, _ dst: X86GPR) { asm.xor32(dst, src) }
    public func shiftLeft32(_ count: X86GPR, _ dst: X86GPR) { shift32(.shl, count, dst) }
    public func shiftRightArithmetic32(_ count: X86GPR, _ dst: X86GPR) { shift32(.sar, count, dst) }
    public func shiftRightLogical32(_ count: X86GPR, _ dst: X86GPR) { shift32(.shr, count, dst) }

    /// x86 shifts by a count only in CL: swap the count into rcx around the shift.
    func shift32(_ op: X86_64Assembler.Shift, _ count: X86GPR, _ dst: X86GPR) {
        if count == .rcx {
            asm.shiftByCL(op, false, dst)
        } else if dst == .rcx {
            // The value lives in rcx: shift a copy in the scratch register.
            asm.mov64(Self.scratch, .rcx)
            asm.mov64(.rcx, count)
            asm.shiftByCL(op, false, Self.scratch)
            asm.mov32(.rcx, Self.scratch)
        } else {
            asm.mov64(Self.scratch, .rcx)
            asm.mov64(.rcx, count)
            asm.shiftByCL(op, false, dst)
            asm.mov64(.rcx, Self.scratch)
        }
    }
    public func zeroExtend32(_ r: X86GPR) { asm.mov32(r, r) }
    public func negate32(_ dst: X86GPR) { asm.neg32(dst) }
    /// `idiv` divides edx:eax: both are saved around it unless one is `dst`.
    public func remainder32(_ divisor: X86GPR, _ dst: X86GPR) {
        asm.mov64(Self.scratch, divisor)
        if dst != .rax { asm.push(.rax) }
        if dst != .rdx { asm.push(.rdx) }
        asm.mov32(.rax, dst)
        asm.cdq()
        asm.idiv32(Self.scratch)
        asm.mov32(dst, .rdx)
        if dst != .rdx { asm.pop(.rdx) }
        if dst != .rax { asm.pop(.rax) }
    }

    public func branchAdd32(_ cond: ResultCondition, _ src: X86GPR, _ dst: X86GPR) -> Jump {
        asm.add32(dst, src)
        return asm.jccRel32(Self.cc(cond))
    }
    public func branchAdd32(_ cond: ResultCondition, imm: Int32, _ dst: X86GPR) -> Jump {
        asm.add32(dst, imm: imm)
        return asm.jccRel32(Self.cc(cond))
    }
    public func branchSub32(_ cond: ResultCondition, _ src: X86GPR, _ dst: X86GPR) -> Jump {
        asm.sub32(dst, src)
        return asm.jccRel32(Self.cc(cond))
    }
    public func branchSub32(_ cond: ResultCondition, imm: Int32, _ dst: X86GPR) -> Jump {
        asm.sub32(dst, imm: imm)
        return asm.jccRel32(Self.cc(cond))
    }
    public func branchMul32(_ cond: ResultCondition, _ src: X86GPR, _ dst: X86GPR) -> Jump {
        asm.imul32(dst, src)
        return asm.jccRel32(Self.cc(cond))
    }

    // MARK: Compares and branches
    public func branch32(_ cond: RelationalCondition, _ a: X86GPR, _ b: X86GPR) -> Jump {
        asm.cmp32(a, b)
        return asm.jccRel32(Self.cc(cond))
    }
    public func branch32(_ cond: RelationalCondition, _ a: X86GPR, imm: Int32) -> Jump {
        if imm == 0 && (cond == .equal || cond == .notEqual) { asm.test32(a, a) } else { asm.cmp32(a, imm: imm) }
        return asm.jccRel32(Self.cc(cond))
    }
    public func branch64(_ cond: RelationalCondition, _ a: X86GPR, _ b: X86GPR) -> Jump {
        asm.cmp64(a, b)
        return asm.jccRel32(Self.cc(cond))
    }
    public func branch64(_ cond: RelationalCondition, _ a: X86GPR, imm: Int32) -> Jump {
        if imm == 0 && (cond == .equal || cond == .notEqual) { asm.test64(a, a) } else { asm.cmp64(a, imm: imm) }
        return asm.jccRel32(Self.cc(cond))
    }
    public func branch64(_ cond: RelationalCondition, _ base: X86GPR, _ offset: Int32, _ b: X86GPR) -> Jump {
        asm.cmp64(X86Memory(base, offset), b)
        return asm.jccRel32(Self.cc(cond))
    }
    public func branchTest64(_ cond: ResultCondition, _ a: X86GPR, _ mask: X86GPR) -> Jump {
        asm.test64(a, mask)
        return asm.jccRel32(Self.cc(cond))
    }
    public func branchTest32(_ cond: ResultCondition, _ a: X86GPR, imm: Int32) -> Jump {
        asm.test32(a, imm: imm)
        return asm.jccRel32(Self.cc(cond))
    }
    public func branchTest8(_ cond: ResultCondition, _ base: X86GPR, _ offset: Int32, imm: UInt8) -> Jump {
        asm.test8(X86Memory(base, offset), imm: imm)
        return asm.jccRel32(Self.cc(cond))
    }
    public func compare32(_ cond: RelationalCondition, _ a: X86GPR, _ b: X86GPR, _ dst: X86GPR) {
        asm.cmp32(a, b)
        asm.setcc(Self.cc(cond), dst)
        asm.movzx8(dst, dst)
    }
    public func compare64(_ cond: RelationalCondition, _ a: X86GPR, _ b: X86GPR, _ dst: X86GPR) {
        asm.cmp64(a, b)
        asm.setcc(Self.cc(cond), dst)
        asm.movzx8(dst, dst)
    }
    public func jump() -> Jump { asm.jmpRel32() }
    public func jump(to label: Label) {
        let short = label.offset - (buffer.count + 2)
        if short >= -128 && short <= 127 {
            asm.link(asm.jmpRel8(), to: label.offset)
        } else {
            asm.link(asm.jmpRel32(), to: label.offset)
        }
    }
    public func branch32(_ cond: RelationalCondition, _ a: X86GPR, _ b: X86GPR, to label: Label) {
        asm.cmp32(a, b)
        let short = label.offset - (buffer.count + 2)
        if short >= -128 && short <= 127 {
            asm.link(asm.jccRel8(Self.cc(cond)), to: label.offset)
        } else {
            asm.link(asm.jccRel32(Self.cc(cond)), to: label.offset)
        }
    }
    public func jump(_ target: X86GPR) { asm.jmp(target) }

    // MARK: Calls and the stack
    public func call(_ target: X86GPR) { asm.call(target) }
    public func call(address: UnsafeRawPointer) {
        asm.movImmediate64(Self.scratch, UInt64(UInt(bitPattern: address)))
        asm.call(Self.scratch)
    }
    public func call(to label: Label) { asm.link(asm.callRel32(), to: label.offset) }
    public func ret() { asm.ret() }
    public func push(_ r: X86GPR) { asm.push(r) }
    public func pop(_ r: X86GPR) { asm.pop(r) }
    public func breakpoint() { asm.int3() }

    // MARK: Doubles
    public func loadDouble(_ base: X86GPR, _ offset: Int32, _ dst: X86XMM) { asm.movsd(dst, X86Memory(base, offset)) }
    public func storeDouble(_ src: X86XMM, _ base: X86GPR, _ offset: Int32) { asm.movsd(X86Memory(base, offset), src) }
    public func moveDouble(_ src: X86XMM, _ dst: X86XMM) { if src != dst { asm.movapd(dst, src) } }
    public func move64ToDouble(_ src: X86GPR, _ dst: X86XMM) { asm.movq(dst, src) }
    public func moveDoubleTo64(_ src: X86XMM, _ dst: X86GPR) { asm.movq(dst, src) }
    public func addDouble(_ src: X86XMM, _ dst: X86XMM) { asm.arithsd(.add, dst, src) }
    public func subDouble(_ src: X86XMM, _ dst: X86XMM) { asm.arithsd(.sub, dst, src) }
    public func mulDouble(_ src: X86XMM, _ dst: X86XMM) { asm.arithsd(.mul, dst, src) }
    public func divDouble(_ src: X86XMM, _ dst: X86XMM) { asm.arithsd(.div, dst, src) }
    public func sqrtDouble(_ src: X86XMM, _ dst: X86XMM) { asm.arithsd(.sqrt, dst, src) }
    public func convertInt32ToDouble(_ src: X86GPR, _ dst: X86XMM) {
        // cvtsi2sd merges into the destination's upper half: clear it first, so the
        // instruction does not wait on the register's previous value.
        asm.xorpd(dst, dst)
        asm.cvtsi2sd32(dst, src)
    }

    /// After `ucomisd a, b`: unordered sets ZF, PF and CF; a < b sets CF; a == b sets ZF.
    public func branchDouble(_ cond: DoubleCondition, _ a: X86XMM, _ b: X86XMM) -> [Jump] {
        switch cond {
        case .equal:
            // ZF = 1 and PF = 0: skip over the je when unordered.
            asm.ucomisd(a, b)
            let unordered = asm.jccRel8(.parity)
            let taken = asm.jccRel32(.equal)
            asm.link(unordered, to: buffer.count)
            return [taken]
        case .notEqual:
            asm.ucomisd(a, b)   // unordered sets ZF: jne is not taken
            return [asm.jccRel32(.notEqual)]
        case .greaterThan:
            asm.ucomisd(a, b)
            return [asm.jccRel32(.above)]
        case .greaterThanOrEqual:
            asm.ucomisd(a, b)
            return [asm.jccRel32(.aboveOrEqual)]
        case .lessThan:
            asm.ucomisd(b, a)
            return [asm.jccRel32(.above)]
        case .lessThanOrEqual:
            asm.ucomisd(b, a)
            return [asm.jccRel32(.aboveOrEqual)]
        case .equalOrUnordered:
            asm.ucomisd(a, b)
            return [asm.jccRel32(.equal)]
        case .notEqualOrUnordered:
            asm.ucomisd(a, b)
            return [asm.jccRel32(.notEqual), asm.jccRel32(.parity)]
        case .greaterThanOrUnordered:
            asm.ucomisd(b, a)
            return [asm.jccRel32(.below)]
        case .greaterThanOrEqualOrUnordered:
            asm.ucomisd(b, a)
            return [asm.jccRel32(.belowOrEqual)]
        case .lessThanOrUnordered:
            asm.ucomisd(a, b)
            return [asm.jccRel32(.below)]
        case .lessThanOrEqualOrUnordered:
            asm.ucomisd(a, b)
            return [asm.jccRel32(.belowOrEqual)]
        }
    }

    public func branchConvertDoubleToInt32(_ src: X86XMM, _ dst: X86GPR, scratch: X86XMM) -> [Jump] {
        var failures: [Jump] = []
        asm.cvttsd2si32(dst, src)
        // Zero: either 0 or -0 (or a fraction that truncated to 0): -0 has the sign bit.
        asm.test32(dst, dst)
        let nonZero = asm.jccRel8(.notEqual)
        asm.movq(Self.scratch, src)
        asm.test64(Self.scratch, Self.scratch)
        failures.append(asm.jccRel32(.sign))
        asm.link(nonZero, to: buffer.count)
        // Round trip: a fraction, NaN or an out-of-range value does not convert back.
        asm.xorpd(scratch, scratch)
        asm.cvtsi2sd32(scratch, dst)
        asm.ucomisd(scratch, src)
        failures.append(asm.jccRel32(.parity))
        failures.append(asm.jccRel32(.notEqual))
        return failures
    }
}

#if arch(x86_64)
/// The macro assembler of the machine this code runs on.
public typealias HostMacroAssembler = MacroAssemblerX86_64
#endif
