import JSAssembler
import JSBytecode
import JSRuntime

/// Bytecode to machine code in one pass (JSJIT/DESIGN.md): the interpreter's frame and
/// register file kept, inline fast paths for the common cases with the interpreter's own
/// handler (the step stub) behind each, and an exit back to the interpreter for the
/// instructions that push or pop frames.
///
/// The body's calling convention (`JITEntry`): `(runtime, frame, registers, pc) -> pc`.
/// The prologue pins the runtime, frame, registers, number tag and entry table, then jumps
/// through the table to `pc`. Every instruction start is in the table, so any pc the
/// interpreter or a stub hands over is a place to continue.
struct BaselineCompiler {
    typealias R = JITRegisters
    let code: JITCodeView
    let table: UnsafeMutablePointer<UInt>
    /// The runtime's prototype epoch (inherited cache entries are valid while it matches).
    let protoEpoch: UnsafeRawPointer
    let masm = JITMacroAssembler()
    /// Machine-code offset of each instruction start (-1 elsewhere).
    var offsets: [Int]
    /// Jumps to bytecode pcs, linked when every instruction has its offset.
    var pcJumps: [(Jump, Int)] = []
    /// Slow paths: the jumps that lead to them and the instruction they step.
    var slowPaths: [(jumps: [Jump], pc: Int, next: Int)] = []
    /// Exits: the jumps to `exit` (the epilogue with the pc in the result register).
    var exitJumps: [Jump] = []
    var dispatchJumps: [Jump] = []
    /// Instructions compiled inline, by stub, by exit (for `--jit-stats` and tests).
    var inlineCount = 0, stubCount = 0, exitCount = 0

    init(code: JITCodeView, table: UnsafeMutablePointer<UInt>, protoEpoch: UnsafeRawPointer) {
        self.code = code
        self.table = table
        self.protoEpoch = protoEpoch
        offsets = Array(repeating: -1, count: code.instructionCount + 1)
    }

    // MARK: - Registers of the frame

    @inline(__always) func slot(_ reg: Int) -> Int32 { Int32(reg * 8) }
    func load(_ reg: Int, _ dst: GPR) { masm.load64(R.registers, slot(reg), dst) }
    func store(_ src: GPR, _ reg: Int) { masm.store64(src, R.registers, slot(reg)) }
    func storeConstant(_ bits: UInt64, _ reg: Int) {
        masm.move(imm: bits, R.t0)
        store(R.t0, reg)
    }

    // MARK: - The body

    mutating func compile() -> AssemblerBuffer {
        prologue()
        let ins = code.instructions
        var pc = 0
        let count = code.instructionCount
        while pc < count {
            offsets[pc] = masm.buffer.count
            let opcode = Opcode(rawValue: UInt8(truncatingIfNeeded: ins[pc]))!
            let next = pc + opcode.length
            emit(opcode, ins, pc, next)
            pc = next
        }
        // Falling off the end cannot happen (every body ends in a return); an exit at
        // `count` keeps the table total.
        offsets[count] = masm.buffer.count
        exit(pc: count)
        emitSlowPaths()
        // The shared dispatch: a stub's result is -1 (exception: leave) or a pc (continue there).
        let dispatch = masm.label()
        for j in dispatchJumps { masm.link(j, to: dispatch) }
        let leave = masm.branch64(.lessThan, R.result, imm: 0)
        masm.load64(R.table, index: R.result, 0, R.t1)
        masm.jump(R.t1)
        // The exit: the pc (or -1) in the result register.
        let exitLabel = masm.label()
        for j in exitJumps { masm.link(j, to: exitLabel) }
        masm.link(leave, to: exitLabel)
        epilogue()
        for (j, target) in pcJumps { masm.link(j, to: Label(offset: offsets[target])) }
        return masm.buffer
    }

    /// Saves the callee-saved registers, pins the JIT's registers, enters at `pc`.
    func prologue() {
        masm.push(R.framePointer)
        masm.move(R.stackPointer, R.framePointer)
        for r in R.saved { masm.push(r) }
        // Five saves after the frame pointer: realign the stack to 16 for calls.
        masm.sub64(imm: 8, R.stackPointer)
        masm.move(R.arguments[0], R.runtime)
        masm.move(R.arguments[1], R.frame)
        masm.move(R.arguments[2], R.registers)
        masm.move(imm: Value.numberTag, R.numberTag)
        masm.move(imm: UInt64(UInt(bitPattern: table)), R.table)
        masm.load64(R.table, index: R.arguments[3], 0, R.t1)
        masm.jump(R.t1)
    }

    func epilogue() {
        masm.add64(imm: 8, R.stackPointer)
        for r in R.saved.reversed() { masm.pop(r) }
        masm.pop(R.framePointer)
        masm.ret()
    }

    /// Leaves to the interpreter at `pc`.
    mutating func exit(pc: Int) {
        masm.move(imm: UInt64(pc), R.result)
        exitJumps.append(masm.jump())
    }

    /// Calls the step stub for the instruction at `pc`; continues at `next` when that is
    /// where it went, else through the dispatch.
    mutating func stepStub(pc: Int, next: Int) {
        masm.move(R.runtime, R.arguments[0])
        masm.move(imm: UInt64(pc), R.arguments[1])
        masm.call(address: JITStubs.stepAddress)
        let other = masm.branch64(.notEqual, R.result, imm: Int32(next))
        pcJumps.append((masm.jump(), next))
        dispatchJumps.append(other)
    }

    mutating func emitSlowPaths() {
        for path in slowPaths {
            for j in path.jumps { masm.linkHere(j) }
            stepStub(pc: path.pc, next: path.next)
        }
    }

    /// A jump to the instruction at `target`.
    mutating func jump(to target: Int) { pcJumps.append((masm.jump(), target)) }
    mutating func branch(_ j: Jump, to target: Int) { pcJumps.append((j, target)) }

    // MARK: - Value tests

    /// Jumps away unless `r` holds an int32 (`bits >= numberTag`).
    func branchNotInt32(_ r: GPR) -> Jump { masm.branch64(.below, r, R.numberTag) }

    /// Boxes the int32 in the low half of `r` (32-bit operations zero the upper half).
    func boxInt32(_ r: GPR) {
        masm.zeroExtend32(r)
        masm.or64(R.numberTag, r)
    }

    /// A boolean Value from a 0/1 in `r`.
    func boxBoolean(_ r: GPR) { masm.add64(imm: Int32(truncatingIfNeeded: Value.false.bits), r) }

    // MARK: - Instructions

    mutating func emit(_ opcode: Opcode, _ ins: UnsafePointer<Int32>, _ pc: Int, _ next: Int) {
        switch opcode {
        // Exits: the interpreter pushes and pops frames.
        case .call, .callMethod, .construct, .ret, .retUndefined,
             .generatorStart, .yield, .yieldDelegate, .await:
            exitCount += 1
            exit(pc: pc)
            return
        case .mov:
            let op = Op.DstSrc(ins, pc)
            load(op.src, R.t0)
            store(R.t0, op.dst)
        case .loadInt:
            let op = Op.LoadInt(ins, pc)
            storeConstant(Value(int32: op.value).bits, op.dst)
        case .loadUndefined: storeConstant(Value.undefined.bits, Op.Dst(ins, pc).dst)
        case .loadNull: storeConstant(Value.null.bits, Op.Dst(ins, pc).dst)
        case .loadTrue: storeConstant(Value.true.bits, Op.Dst(ins, pc).dst)
        case .loadFalse: storeConstant(Value.false.bits, Op.Dst(ins, pc).dst)
        case .loadEmpty: storeConstant(Value.empty.bits, Op.Dst(ins, pc).dst)
        case .loadConst:
            // Made on first use by the interpreter: until then, the stub makes it.
            let op = Op.LoadConst(ins, pc)
            masm.move(imm: UInt64(UInt(bitPattern: code.constants + op.index)), R.t1)
            masm.load64(R.t1, 0, R.t0)
            let missing = masm.branch64(.equal, R.t0, imm: 0)
            store(R.t0, op.dst)
            slowPaths.append(([missing], pc, next))
        case .add, .sub, .mul, .div:
            arithmetic(opcode, Op.Binary(ins, pc), pc, next)
        case .bitAnd, .bitOr, .bitXor:
            binaryInt32(opcode, Op.Binary(ins, pc), pc, next)
        case .addImm, .subImm:
            let op = Op.ArithImm(ins, pc)
            load(op.src, R.t0)
            let notInt = branchNotInt32(R.t0)
            let overflow = opcode == .addImm
                ? masm.branchAdd32(.overflow, imm: op.imm, R.t0)
                : masm.branchSub32(.overflow, imm: op.imm, R.t0)
            boxInt32(R.t0)
            store(R.t0, op.dst)
            slowPaths.append(([notInt, overflow], pc, next))
        case .inc, .dec:
            let op = Op.DstSrc(ins, pc)
            load(op.src, R.t0)
            let notInt = branchNotInt32(R.t0)
            let overflow = opcode == .inc
                ? masm.branchAdd32(.overflow, imm: 1, R.t0)
                : masm.branchSub32(.overflow, imm: 1, R.t0)
            boxInt32(R.t0)
            store(R.t0, op.dst)
            slowPaths.append(([notInt, overflow], pc, next))
        case .lt, .le, .gt, .ge, .strictEq, .strictNe:
            let op = Op.Binary(ins, pc)
            load(op.a, R.t0)
            load(op.b, R.t1)
            let aNotInt = branchNotInt32(R.t0)
            let bNotInt = branchNotInt32(R.t1)
            let cond: RelationalCondition
            switch opcode {
            case .lt: cond = .lessThan
            case .le: cond = .lessThanOrEqual
            case .gt: cond = .greaterThan
            case .ge: cond = .greaterThanOrEqual
            case .strictEq: cond = .equal
            default: cond = .notEqual
            }
            masm.compare32(cond, R.t0, R.t1, R.t2)
            boxBoolean(R.t2)
            store(R.t2, op.dst)
            slowPaths.append(([aNotInt, bNotInt], pc, next))
        case .jmp:
            jump(to: pc + Op.Jmp(ins, pc).offset)
            inlineCount += 1
            return
        case .jumpIfLess, .jumpIfNotLess, .jumpIfLessEq, .jumpIfNotLessEq,
             .jumpIfGreater, .jumpIfNotGreater, .jumpIfGreaterEq, .jumpIfNotGreaterEq,
             .jumpIfStrictEq, .jumpIfStrictNotEq:
            let op = Op.CompareJump(ins, pc)
            load(op.a, R.t0)
            load(op.b, R.t1)
            compareAndJump(opcode, target: pc + op.offset, pc, next)
            inlineCount += 1
            return
        case .jumpIfLessImm, .jumpIfNotLessImm, .jumpIfLessEqImm, .jumpIfNotLessEqImm,
             .jumpIfGreaterImm, .jumpIfNotGreaterImm, .jumpIfGreaterEqImm, .jumpIfNotGreaterEqImm,
             .jumpIfStrictEqImm, .jumpIfStrictNotEqImm:
            let op = Op.CompareImmJump(ins, pc)
            load(op.a, R.t0)
            masm.move(imm: Value(int32: op.imm).bits, R.t1)
            compareAndJump(opcode, target: pc + op.offset, pc, next)
            inlineCount += 1
            return
        case .jumpIfTrue, .jumpIfFalse:
            // Booleans and int32s inline; other values through the stub (ToBoolean).
            let op = Op.CondJump(ins, pc)
            let target = pc + op.offset
            let whenTrue = opcode == .jumpIfTrue ? target : next
            let whenFalse = opcode == .jumpIfTrue ? next : target
            load(op.value, R.t0)
            branch(masm.branch64(.equal, R.t0, imm: Int32(Value.true.bits)), to: whenTrue)
            branch(masm.branch64(.equal, R.t0, imm: Int32(Value.false.bits)), to: whenFalse)
            let notInt = branchNotInt32(R.t0)
            branch(masm.branch32(.notEqual, R.t0, imm: 0), to: whenTrue)
            jump(to: whenFalse)
            slowPaths.append(([notInt], pc, next))
            inlineCount += 1
            return
        case .jumpIfNull, .jumpIfNotNull, .jumpIfUndefined, .jumpIfNotUndefined:
            let op = Op.CondJump(ins, pc)
            load(op.value, R.t0)
            let bits = opcode == .jumpIfNull || opcode == .jumpIfNotNull ? Value.null.bits : Value.undefined.bits
            let cond: RelationalCondition = opcode == .jumpIfNull || opcode == .jumpIfUndefined ? .equal : .notEqual
            branch(masm.branch64(cond, R.t0, imm: Int32(bits)), to: pc + op.offset)
            inlineCount += 1
            return
        case .jumpIfNullish, .jumpIfNotNullish:
            // null (otherTag) and undefined (otherTag | undefinedTag) differ in one bit.
            let op = Op.CondJump(ins, pc)
            load(op.value, R.t0)
            masm.and64(imm: ~Int32(Value.undefinedTag), R.t0)
            let cond: RelationalCondition = opcode == .jumpIfNullish ? .equal : .notEqual
            branch(masm.branch64(cond, R.t0, imm: Int32(Value.null.bits)), to: pc + op.offset)
            inlineCount += 1
            return
        case .getScope:
            let op = Op.GetScope(ins, pc)
            environment(depth: Int(op.depth), into: R.t1)
            masm.load64(R.t1, Int32(EnvironmentLayout.slots) + Int32(op.slot) * 8, R.t0)
            store(R.t0, op.dst)
        case .setScope, .initScope:
            let op = Op.SetScope(ins, pc)
            environment(depth: Int(op.depth), into: R.t1)
            load(op.value, R.t0)
            masm.store64(R.t0, R.t1, Int32(EnvironmentLayout.slots) + Int32(op.slot) * 8)
        case .getProp:
            let op = Op.GetProp(ins, pc)
            let misses = ownSlot(object: op.object, cache: op.cache, store: false, valueReg: op.dst)
            slowPaths.append((misses, pc, next))
        case .getElem:
            let op = Op.GetElem(ins, pc)
            let (element, misses) = denseElement(object: op.object, key: op.key)
            masm.load64(element, 0, R.t0)
            var all = misses
            all.append(masm.branch64(.equal, R.t0, imm: 0))   // a hole
            store(R.t0, op.dst)
            slowPaths.append((all, pc, next))
        case .setElem, .setElemStrict:
            let op = Op.SetElem(ins, pc)
            let (element, misses) = denseElement(object: op.object, key: op.key, forStore: true)
            masm.load64(element, 0, R.t0)
            var all = misses
            all.append(masm.branch64(.equal, R.t0, imm: 0))   // a hole: the slow path decides
            load(op.value, R.t0)
            masm.store64(R.t0, element, 0)
            slowPaths.append((all, pc, next))
        case .setProp, .setPropStrict:
            let op = Op.SetProp(ins, pc)
            let misses = ownSlot(object: op.object, cache: op.cache, store: true, valueReg: op.value)
            slowPaths.append((misses, pc, next))
        default:
            stubCount += 1
            stepStub(pc: pc, next: next)
            return
        }
        inlineCount += 1
    }

    /// The int32 fast path of a binary operator; anything else (or an overflow, or a zero
    /// product, which may be -0) goes to the stub.
    mutating func binaryInt32(_ opcode: Opcode, _ op: Op.Binary, _ pc: Int, _ next: Int) {
        load(op.a, R.t0)
        load(op.b, R.t1)
        var misses = [branchNotInt32(R.t0), branchNotInt32(R.t1)]
        switch opcode {
        case .add: misses.append(masm.branchAdd32(.overflow, R.t1, R.t0))
        case .sub: misses.append(masm.branchSub32(.overflow, R.t1, R.t0))
        case .mul:
            misses.append(masm.branchMul32(.overflow, R.t1, R.t0))
            misses.append(masm.branch32(.equal, R.t0, imm: 0))
        case .bitAnd: masm.and32(R.t1, R.t0)
        case .bitOr: masm.or32(R.t1, R.t0)
        default: masm.xor32(R.t1, R.t0)
        }
        boxInt32(R.t0)
        store(R.t0, op.dst)
        slowPaths.append((misses, pc, next))
    }

    // MARK: - Numbers

    typealias FPR = JITMacroAssembler.FPRegister
    static let f0 = JITMacroAssembler.fpTemporaryRegisters[0]
    static let f1 = JITMacroAssembler.fpTemporaryRegisters[1]
    static let f2 = JITMacroAssembler.fpTemporaryRegisters[2]

    /// The number in `r` (int32 or double) as a double in `f`; a jump for anything else.
    /// Clobbers `r` and t5.
    func unboxNumber(_ r: GPR, _ f: FPR) -> Jump {
        let isInt = masm.branch64(.aboveOrEqual, r, R.numberTag)
        let notNumber = masm.branchTest64(.zero, r, R.numberTag)
        masm.move(imm: Value.doubleEncodeOffset, R.t5)
        masm.sub64(R.t5, r)
        masm.move64ToDouble(r, f)
        let done = masm.jump()
        masm.linkHere(isInt)
        masm.convertInt32ToDouble(r, f)
        masm.linkHere(done)
        return notNumber
    }

    /// Boxes the double in `f` into `r` as `Value(Double)` does: an int32 when it is one
    /// (not -0), else the double's bits plus the encode offset.
    func boxDouble(_ f: FPR, _ r: GPR) {
        let notInt = masm.branchConvertDoubleToInt32(f, r, scratch: Self.f2)
        boxInt32(r)
        let done = masm.jump()
        for j in notInt { masm.linkHere(j) }
        masm.moveDoubleTo64(f, r)
        masm.move(imm: Value.doubleEncodeOffset, R.t5)
        masm.add64(R.t5, r)
        masm.linkHere(done)
    }

    /// `+ - * /`: int32 inline with overflow checks, then numbers as doubles; everything
    /// else (strings, objects, ...) through the stub.
    mutating func arithmetic(_ opcode: Opcode, _ op: Op.Binary, _ pc: Int, _ next: Int) {
        load(op.a, R.t0)
        load(op.b, R.t1)
        var misses: [Jump] = []
        var toDouble: [Jump] = []
        var done: Jump?
        if opcode != .div {
            toDouble.append(branchNotInt32(R.t0))
            toDouble.append(branchNotInt32(R.t1))
            masm.move(R.t0, R.t2)
            switch opcode {
            case .add: toDouble.append(masm.branchAdd32(.overflow, R.t1, R.t2))
            case .sub: toDouble.append(masm.branchSub32(.overflow, R.t1, R.t2))
            default:
                toDouble.append(masm.branchMul32(.overflow, R.t1, R.t2))
                toDouble.append(masm.branch32(.equal, R.t2, imm: 0))   // maybe -0
            }
            boxInt32(R.t2)
            store(R.t2, op.dst)
            done = masm.jump()
        }
        for j in toDouble { masm.linkHere(j) }
        misses.append(unboxNumber(R.t0, Self.f0))
        misses.append(unboxNumber(R.t1, Self.f1))
        switch opcode {
        case .add: masm.addDouble(Self.f1, Self.f0)
        case .sub: masm.subDouble(Self.f1, Self.f0)
        case .mul: masm.mulDouble(Self.f1, Self.f0)
        default: masm.divDouble(Self.f1, Self.f0)
        }
        boxDouble(Self.f0, R.t0)
        store(R.t0, op.dst)
        if let done { masm.linkHere(done) }
        slowPaths.append((misses, pc, next))
    }

    /// A compare-and-jump on the values in t0 and t1: int32s, then numbers as doubles,
    /// else the stub. Strict equality compares int32s inline only.
    mutating func compareAndJump(_ opcode: Opcode, target: Int, _ pc: Int, _ next: Int) {
        let aNotInt = branchNotInt32(R.t0)
        let bNotInt = branchNotInt32(R.t1)
        branch(masm.branch32(Self.jumpCondition(opcode), R.t0, R.t1), to: target)
        jump(to: next)
        masm.linkHere(aNotInt)
        masm.linkHere(bNotInt)
        guard let cond = Self.doubleJumpCondition(opcode) else {
            slowPaths.append(([masm.jump()], pc, next))
            return
        }
        let misses = [unboxNumber(R.t0, Self.f0), unboxNumber(R.t1, Self.f1)]
        for j in masm.branchDouble(cond, Self.f0, Self.f1) { branch(j, to: target) }
        jump(to: next)
        slowPaths.append((misses, pc, next))
    }

    static func doubleJumpCondition(_ opcode: Opcode) -> DoubleCondition? {
        switch opcode {
        case .jumpIfLess, .jumpIfLessImm: return .lessThan
        case .jumpIfNotLess, .jumpIfNotLessImm: return .greaterThanOrEqualOrUnordered
        case .jumpIfLessEq, .jumpIfLessEqImm: return .lessThanOrEqual
        case .jumpIfNotLessEq, .jumpIfNotLessEqImm: return .greaterThanOrUnordered
        case .jumpIfGreater, .jumpIfGreaterImm: return .greaterThan
        case .jumpIfNotGreater, .jumpIfNotGreaterImm: return .lessThanOrEqualOrUnordered
        case .jumpIfGreaterEq, .jumpIfGreaterEqImm: return .greaterThanOrEqual
        case .jumpIfNotGreaterEq, .jumpIfNotGreaterEqImm: return .lessThanOrUnordered
        default: return nil
        }
    }

    // MARK: - Elements

    /// The address of a stored element `object[key]` of an ordinary object or array with
    /// an int32 key inside its dense elements (in t3), and the misses. Stores also need
    /// extensible, non-sparse elements.
    func denseElement(object: Int, key: Int, forStore: Bool = false) -> (GPR, [Jump]) {
        let obj = R.t0, k = R.t1, scratch = R.t2, element = R.t3
        var misses: [Jump] = []
        load(object, obj)
        load(key, k)
        masm.move(imm: Value.notCellMask, scratch)
        misses.append(masm.branchTest64(.nonZero, obj, scratch))
        misses.append(masm.branch64(.equal, obj, imm: 0))
        masm.load8(obj, Int32(CellHeaderLayout.kind), scratch)
        let isArray = masm.branch32(.equal, scratch, imm: Int32(CellKind.array.rawValue))
        misses.append(masm.branch32(.notEqual, scratch, imm: Int32(CellKind.object.rawValue)))
        masm.linkHere(isArray)
        if forStore {
            masm.load32(obj, Int32(CellHeaderLayout.flags), scratch)
            misses.append(masm.branchTest32(.nonZero, scratch, imm: Int32(ObjectFlags.sparseElements | ObjectFlags.nonExtensible)))
        }
        misses.append(branchNotInt32(k))
        masm.zeroExtend32(k)
        masm.load32(obj, Int32(ObjectLayout.elementsLength), scratch)
        // Unsigned: a negative int32 is a large index, past any length.
        misses.append(masm.branch32(.aboveOrEqual, k, scratch))
        masm.load64(obj, Int32(ObjectLayout.elements), element)
        masm.shiftLeft64(imm: 3, k)
        masm.add64(k, element)
        return (element, misses)
    }

    /// The environment `depth` levels up from the frame's.
    func environment(depth: Int, into dst: GPR) {
        masm.load64(R.frame, Int32(FrameLayout.env), dst)
        for _ in 0..<depth { masm.load64(dst, Int32(EnvironmentLayout.parent), dst) }
    }

    /// A named property in the object's own slots through the site's inline cache (the
    /// interpreter's fast path: an object of the cached shape, own property, no
    /// transition); loads into or stores from register `valueReg`. Returns the misses.
    mutating func ownSlot(object: Int, cache: Int, store isStore: Bool, valueReg: Int) -> [Jump] {
        let obj = R.t0, shape = R.t1, entry = R.t2, index = R.t3, capacity = R.t4
        var misses: [Jump] = []
        load(object, obj)
        // A cell: no tag bits, not empty.
        masm.move(imm: Value.notCellMask, shape)
        misses.append(masm.branchTest64(.nonZero, obj, shape))
        misses.append(masm.branch64(.equal, obj, imm: 0))
        masm.load8(obj, Int32(CellHeaderLayout.kind), shape)
        misses.append(masm.branch32(.belowOrEqual, shape, imm: Int32(CellKind.symbol.rawValue)))
        masm.load64(obj, Int32(ObjectLayout.shape), shape)
        masm.move(imm: UInt64(UInt(bitPattern: code.caches + cache * InlineCacheLayout.stride)), entry)
        misses.append(masm.branch64(.notEqual, entry, Int32(InlineCacheLayout.shape), shape))
        masm.load64(entry, Int32(InlineCacheLayout.holder), index)
        if isStore {
            misses.append(masm.branch64(.notEqual, index, imm: 0))
        } else {
            // Inherited (a prototype holds it): valid while the prototype epoch matches.
            let own = masm.branch64(.equal, index, imm: 0)
            masm.load32(entry, Int32(InlineCacheLayout.epoch), capacity)
            masm.move(imm: UInt64(UInt(bitPattern: protoEpoch)), R.t5)
            masm.load32(R.t5, 0, R.t5)
            misses.append(masm.branch32(.notEqual, capacity, R.t5))
            masm.move(index, obj)
            masm.linkHere(own)
        }
        if isStore {
            masm.load64(entry, Int32(InlineCacheLayout.newShape), index)
            misses.append(masm.branch64(.notEqual, index, imm: 0))
        }
        masm.load32(entry, Int32(InlineCacheLayout.slot), index)
        masm.load32(obj, Int32(CellHeaderLayout.aux), capacity)
        let outOfLine = masm.branch32(.aboveOrEqual, index, capacity)
        if isStore {
            load(valueReg, shape)
            masm.store64(shape, obj, index: index, Int32(ObjectLayout.inlineSlots))
        } else {
            masm.load64(obj, index: index, Int32(ObjectLayout.inlineSlots), shape)
            store(shape, valueReg)
        }
        let done = masm.jump()
        masm.linkHere(outOfLine)
        masm.sub64(capacity, index)
        masm.load64(obj, Int32(ObjectLayout.outOfLineSlots), obj)
        if isStore {
            load(valueReg, shape)
            masm.store64(shape, obj, index: index, 0)
        } else {
            masm.load64(obj, index: index, 0, shape)
            store(shape, valueReg)
        }
        masm.linkHere(done)
        return misses
    }

    static func jumpCondition(_ opcode: Opcode) -> RelationalCondition {
        switch opcode {
        case .jumpIfLess, .jumpIfLessImm: return .lessThan
        case .jumpIfNotLess, .jumpIfNotLessImm: return .greaterThanOrEqual
        case .jumpIfLessEq, .jumpIfLessEqImm: return .lessThanOrEqual
        case .jumpIfNotLessEq, .jumpIfNotLessEqImm: return .greaterThan
        case .jumpIfGreater, .jumpIfGreaterImm: return .greaterThan
        case .jumpIfNotGreater, .jumpIfNotGreaterImm: return .lessThanOrEqual
        case .jumpIfGreaterEq, .jumpIfGreaterEqImm: return .greaterThanOrEqual
        case .jumpIfNotGreaterEq, .jumpIfNotGreaterEqImm: return .lessThan
        case .jumpIfStrictEq, .jumpIfStrictEqImm: return .equal
        default: return .notEqual
        }
    }
}
