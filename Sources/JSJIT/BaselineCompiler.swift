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
    /// The realm's global object (one realm per runtime; it lives as long as the runtime).
    let globalObject: UnsafeMutableRawPointer
    /// The cell pointing to the global lexical bindings' values.
    let lexicalValues: UnsafeRawPointer
    /// The frame stack's count (a compiled return pops its frame) and the call stub's
    /// results (the callee's frame, registers and entry table).
    let frameCount: UnsafeRawPointer
    let callCell: UnsafeRawPointer
    /// The native stack pointer below which machine code stops calling machine code, and
    /// the end of the register file.
    let stackLimit: UnsafeRawPointer
    let registerFileEnd: UnsafeRawPointer
    /// The second-level property cache (`JITSharedCache`).
    let sharedCache: UnsafeRawPointer
    /// The atom "length" (arrays and strings answer it without a slot).
    let lengthAtom: UnsafeMutableRawPointer
    /// String.prototype (where a string receiver's properties are).
    let stringPrototype: UnsafeMutableRawPointer
    let masm = JITMacroAssembler()
    let runtime: Runtime
    /// The cache of the `getGlobal` or `getProp` that last wrote each register, in
    /// instruction order (where a call's callee may have come from: `likelyCallee`).
    var calleeLoads: [Int: (global: Bool, cache: Int)] = [:]
    /// Machine-code offset of each instruction start (-1 elsewhere).
    var offsets: [Int]
    /// Jumps to bytecode pcs, linked when every instruction has its offset.
    var pcJumps: [(Jump, Int)] = []
    /// Slow paths: the jumps that lead to them and the instruction they step.
    var valueStubPaths: [(jumps: [Jump], pc: Int, next: Int, stub: ValueStub)] = []
    /// Jumps to leave with -1 (an exception is pending).
    var exceptionJumps: [Jump] = []
    var slowPaths: [(jumps: [Jump], pc: Int, next: Int)] = []
    /// Exits: the jumps to `exit` (the epilogue with the pc in the result register).
    var exitJumps: [Jump] = []
    var dispatchJumps: [Jump] = []
    /// Instructions compiled inline, by stub, by exit (for `--jit-stats` and tests).
    var inlineCount = 0, stubCount = 0, exitCount = 0

    /// Exits out of line: the jumps to each and the instruction the interpreter runs.
    var exitPaths: [(jumps: [Jump], pc: Int)] = []
    /// Compare-and-jumps whose operands were not both int32 (`compareAndJump`).
    var compareOutOfLine: [(jumps: [Jump], opcode: Opcode, target: Int, pc: Int, next: Int)] = []
    /// Returns from a construct's frame: the jump out of line, where to continue.
    var constructReturns: [(jump: Jump, rejoin: Label)] = []
    /// Call instructions whose stub did not leave a compiled callee to enter.
    var callSpecials: [(jump: Jump, pc: Int, next: Int)] = []

    init(code: JITCodeView, table: UnsafeMutablePointer<UInt>, runtime: Runtime) {
        self.lexicalValues = runtime.lexicalValuesCell
        self.frameCount = runtime.frameCountAddress
        self.callCell = runtime.jitCallCellAddress
        self.stackLimit = runtime.jitStackLimitAddress
        self.registerFileEnd = runtime.registerFileEnd
        self.sharedCache = runtime.sharedCacheAddress
        self.lengthAtom = runtime.lengthAtomAddress
        self.stringPrototype = runtime.realm.stringPrototype.cell
        self.code = code
        self.table = table
        self.protoEpoch = runtime.protoEpochAddress
        self.globalObject = runtime.realm.global.cell
        self.runtime = runtime
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
        for path in compareOutOfLine {
            for j in path.jumps { masm.linkHere(j) }
            compareAndJumpSlowCases(path.opcode, target: path.target, path.pc, path.next)
        }
        emitSlowPaths()
        emitValueStubPaths()
        emitCallPaths()
        // The shared dispatch: a stub's result is -1 (exception: leave) or a pc (continue there).
        let dispatch = masm.label()
        for j in dispatchJumps { masm.link(j, to: dispatch) }
        let leave = masm.branch64(.lessThan, R.result, imm: 0)
        masm.load64(R.table, index: R.result, 0, R.t1)
        masm.jump(R.t1)
        // Leaving with an exception pending, or with what the body returns in the result
        // register (`JITEntry`).
        for j in exceptionJumps { masm.linkHere(j) }
        masm.move(imm: UInt64(bitPattern: Int64(JITEntryResult.exception)), R.result)
        let exitLabel = masm.label()
        for j in exitJumps { masm.link(j, to: exitLabel) }
        masm.link(leave, to: exitLabel)
        masm.ret()
        for (j, target) in pcJumps { masm.link(j, to: Label(offset: offsets[target])) }
        return masm.buffer
    }

    /// The entry from native code (`JITEntry`): saves the callee-saved registers, pins the
    /// JIT's registers and calls the body at `pc`, which returns (`ret`) what the entry
    /// returns. Machine code that calls a compiled callee enters its body the same way
    /// (`callInstruction`): bodies nest on the native stack, 16-byte aligned inside.
    func prologue() {
        masm.push(R.framePointer)
        masm.move(R.stackPointer, R.framePointer)
        // Five saves after the frame pointer, then the call's return address: aligned.
        for r in R.saved { masm.push(r) }
        masm.move(R.arguments[0], R.runtime)
        masm.move(R.arguments[1], R.frame)
        masm.move(R.arguments[2], R.registers)
        masm.move(imm: Value.numberTag, R.numberTag)
        masm.move(imm: UInt64(UInt(bitPattern: table)), R.table)
        masm.load64(R.table, index: R.arguments[3], 0, R.t1)
        masm.call(R.t1)
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
        dispatchJumps.append(masm.branch64(.notEqual, R.result, imm: Int32(next)))
        jump(to: next)
    }

    /// The slow paths that call a runtime operation on register values (`JITStubs`).
    enum ValueStub {
        case getElement(object: Int, key: Int, dst: Int)
        case setElement(object: Int, key: Int, value: Int, strict: Bool)
        case getNamed(object: Int, atom: Int, cache: Int, dst: Int)
        /// `Runtime.binaryOperation` / `unaryOperation` (`JITStubs.binary` / `unary`).
        case binary(opcode: Opcode, a: Int, b: Int, dst: Int)
        case unary(opcode: Opcode, src: Int, dst: Int)
        /// Instructions that allocate (`JITStubs.newObject`, `.newClosure`, `.arguments`).
        case newObject(dst: Int)
        case newClosure(constant: Int, dst: Int)
        case arguments(strict: Bool, dst: Int)

        /// The value stub that computes the instruction at `pc` (a value instruction), or nil.
        static func computing(_ opcode: Opcode, _ ins: UnsafePointer<Int32>, _ pc: Int) -> ValueStub? {
            if Runtime.isBinaryValueOpcode(opcode) {
                let op = Op.Binary(ins, pc)
                return .binary(opcode: opcode, a: op.a, b: op.b, dst: op.dst)
            }
            if Runtime.isUnaryValueOpcode(opcode) {
                let op = Op.DstSrc(ins, pc)
                return .unary(opcode: opcode, src: op.src, dst: op.dst)
            }
            return nil
        }
    }

    mutating func emitValueStubPaths() {
        for path in valueStubPaths {
            for j in path.jumps { masm.linkHere(j) }
            emitValueStub(path.stub, pc: path.pc)
            jump(to: path.next)
        }
    }

    /// The call of a value stub for the instruction at `pc` (its pc stored in the frame
    /// first, for exceptions and stack traces); the result in the instruction's register.
    mutating func emitValueStub(_ stub: ValueStub, pc: Int) {
        let a = R.arguments
        masm.store64(imm: Int32(pc), R.frame, Int32(JITFrameLayout.pc))
        masm.move(R.runtime, a[0])
        switch stub {
        case .binary(let opcode, let x, let y, let dst):
            masm.move(imm: UInt64(opcode.rawValue), a[1])
            load(x, a[2])
            load(y, a[3])
            masm.call(address: JITStubs.binaryAddress)
            exceptionJumps.append(masm.branch64(.equal, R.result, imm: 0))
            store(R.result, dst)
        case .unary(let opcode, let x, let dst):
            masm.move(imm: UInt64(opcode.rawValue), a[1])
            load(x, a[2])
            masm.call(address: JITStubs.unaryAddress)
            exceptionJumps.append(masm.branch64(.equal, R.result, imm: 0))
            store(R.result, dst)
        case .newObject(let dst):
            masm.call(address: JITStubs.newObjectAddress)
            exceptionJumps.append(masm.branch64(.equal, R.result, imm: 0))
            store(R.result, dst)
        case .newClosure(let constant, let dst):
            masm.move(imm: UInt64(constant), a[1])
            masm.call(address: JITStubs.newClosureAddress)
            exceptionJumps.append(masm.branch64(.equal, R.result, imm: 0))
            store(R.result, dst)
        case .arguments(let strict, let dst):
            masm.move(imm: strict ? 1 : 0, a[1])
            masm.call(address: JITStubs.argumentsAddress)
            exceptionJumps.append(masm.branch64(.equal, R.result, imm: 0))
            store(R.result, dst)
        case .getElement(let object, let key, let dst):
            load(object, a[1])
            load(key, a[2])
            masm.call(address: JITStubs.getElementAddress)
            exceptionJumps.append(masm.branch64(.equal, R.result, imm: 0))
            store(R.result, dst)
        case .setElement(let object, let key, let value, let strict):
            load(object, a[1])
            load(key, a[2])
            load(value, a[3])
            masm.move(imm: strict ? 1 : 0, R.t5)   // the fifth argument (r8)
            masm.call(address: JITStubs.setElementAddress)
            exceptionJumps.append(masm.branch64(.equal, R.result, imm: 0))
        case .getNamed(let object, let atom, let cache, let dst):
            load(object, a[1])
            masm.move(imm: UInt64(UInt(bitPattern: code.codeDataAddress)), a[2])
            masm.move(imm: UInt64(atom), a[3])
            masm.move(imm: UInt64(UInt(bitPattern: code.caches + cache * InlineCacheLayout.stride)), R.t5)
            masm.call(address: JITStubs.getNamedAddress)
            exceptionJumps.append(masm.branch64(.equal, R.result, imm: 0))
            store(R.result, dst)
        }
    }

    /// The slow paths: a value instruction calls its operation directly, the others step.
    mutating func emitSlowPaths() {
        let ins = code.instructions
        for path in slowPaths {
            for j in path.jumps { masm.linkHere(j) }
            let opcode = Opcode(rawValue: UInt8(truncatingIfNeeded: ins[path.pc]))!
            if let stub = ValueStub.computing(opcode, ins, path.pc) {
                emitValueStub(stub, pc: path.pc)
                jump(to: path.next)
            } else {
                stepStub(pc: path.pc, next: path.next)
            }
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

    // MARK: - Instructions

    mutating func emit(_ opcode: Opcode, _ ins: UnsafePointer<Int32>, _ pc: Int, _ next: Int) {
        switch opcode {
        // Exits: the interpreter pushes and pops frames.
        case .generatorStart, .yield, .yieldDelegate, .await:
            exitCount += 1
            exit(pc: pc)
            return
        case .construct:
            constructInstruction(pc, next)
        case .call, .callMethod:
            callInstruction(Op.Call(ins, pc), pc, next)
        case .ret:
            returnInstruction(pc, value: Op.Value(ins, pc).value)
        case .retUndefined:
            returnInstruction(pc, value: nil)
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
        case .bitAnd, .bitOr, .bitXor, .shl, .sar, .shr:
            binaryInt32(opcode, Op.Binary(ins, pc), pc, next)
        case .addImm, .subImm:
            let op = Op.ArithImm(ins, pc)
            addImmediate(src: op.src, dst: op.dst, op.imm, subtract: opcode == .subImm, pc, next)
        case .inc, .dec:
            let op = Op.DstSrc(ins, pc)
            addImmediate(src: op.src, dst: op.dst, 1, subtract: opcode == .dec, pc, next)
        case .lt, .le, .gt, .ge, .eq, .ne, .strictEq, .strictNe:
            comparison(opcode, Op.Binary(ins, pc), pc, next)
        case .mod:
            // Two int32s, the dividend not negative (else the result may be -0), the
            // divisor not zero; the rest through the stub.
            let op = Op.Binary(ins, pc)
            load(op.a, R.t0)
            load(op.b, R.t1)
            let misses = [branchNotInt32(R.t0), branchNotInt32(R.t1),
                          masm.branch32(.lessThan, R.t0, imm: 0), masm.branch32(.equal, R.t1, imm: 0)]
            masm.remainder32(R.t1, R.t0)
            boxInt32(R.t0)
            store(R.t0, op.dst)
            slowPaths.append((misses, pc, next))
        case .toPropertyKey:
            // Numbers, strings and symbols are keys as they are.
            let op = Op.DstSrc(ins, pc)
            load(op.src, R.t0)
            let number = masm.branchTest64(.nonZero, R.t0, R.numberTag)
            var misses = cellKind(R.t0, into: R.t1)
            let string = masm.branch32(.belowOrEqual, R.t1, imm: Int32(CellKind.rope.rawValue))
            misses.append(masm.branch32(.notEqual, R.t1, imm: Int32(CellKind.symbol.rawValue)))
            masm.linkHere(number)
            masm.linkHere(string)
            store(R.t0, op.dst)
            slowPaths.append((misses, pc, next))
        case .neg:
            // int32s but 0 (-0 is a double) and -2^31; doubles by their sign bit.
            let op = Op.DstSrc(ins, pc)
            load(op.src, R.t0)
            let notInt = branchNotInt32(R.t0)
            let zeroOrMin = masm.branchTest32(.zero, R.t0, imm: 0x7FFF_FFFF)
            masm.negate32(R.t0)
            boxInt32(R.t0)
            let done = masm.jump()
            masm.linkHere(notInt)
            let notNumber = masm.branchTest64(.zero, R.t0, R.numberTag)
            masm.move(imm: Value.doubleEncodeOffset, R.t5)
            masm.sub64(R.t5, R.t0)
            masm.move(imm: 1 << 63, R.t1)
            masm.xor64(R.t1, R.t0)
            masm.move64ToDouble(R.t0, Self.f0)
            boxDouble(Self.f0, R.t0)
            masm.linkHere(done)
            store(R.t0, op.dst)
            slowPaths.append(([zeroOrMin, notNumber], pc, next))
        case .plus, .toNumeric:
            // A number is its own value; the rest (ToNumber, ToNumeric) through the stub.
            let op = Op.DstSrc(ins, pc)
            load(op.src, R.t0)
            let notNumber = masm.branchTest64(.zero, R.t0, R.numberTag)
            store(R.t0, op.dst)
            slowPaths.append(([notNumber], pc, next))
        case .getScopeChecked:
            let op = Op.GetScopeChecked(ins, pc)
            masm.load64(R.t1, scopeSlot(depth: op.depth, slot: op.slot), R.t0)
            let uninitialized = masm.branch64(.equal, R.t0, imm: 0)
            store(R.t0, op.dst)
            slowPaths.append(([uninitialized], pc, next))
        case .setScopeChecked:
            let op = Op.SetScopeChecked(ins, pc)
            let slot = scopeSlot(depth: op.depth, slot: op.slot)
            masm.load64(R.t1, slot, R.t0)
            let uninitialized = masm.branch64(.equal, R.t0, imm: 0)
            load(op.value, R.t0)
            masm.store64(R.t0, R.t1, slot)
            slowPaths.append(([uninitialized], pc, next))
        case .jumpIfStrictEqConst, .jumpIfStrictNotEqConst:
            let op = Op.ConstJump(ins, pc)
            load(op.a, R.t0)
            masm.move(imm: UInt64(UInt(bitPattern: code.constants + op.constant)), R.t1)
            masm.load64(R.t1, 0, R.t1)
            let notMade = masm.branch64(.equal, R.t1, imm: 0)
            var equal: [Jump] = [], notEqual: [Jump] = []
            strictEquality(equal: &equal, notEqual: &notEqual)
            let undecided = masm.jump()
            let target = pc + op.offset
            let isEq = opcode == .jumpIfStrictEqConst
            for j in equal { branch(j, to: isEq ? target : next) }
            for j in notEqual { branch(j, to: isEq ? next : target) }
            slowPaths.append(([notMade, undecided], pc, next))
            inlineCount += 1
            return
        case .jmp:
            jump(to: pc + Op.Jmp(ins, pc).offset)
            inlineCount += 1
            return
        case .jumpIfLess, .jumpIfNotLess, .jumpIfLessEq, .jumpIfNotLessEq,
             .jumpIfGreater, .jumpIfNotGreater, .jumpIfGreaterEq, .jumpIfNotGreaterEq,
             .jumpIfStrictEq, .jumpIfStrictNotEq, .jumpIfEq, .jumpIfNotEq:
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
            compareAndJump(opcode, target: pc + op.offset, pc, next, secondIsInt32: true)
            inlineCount += 1
            return
        case .jumpIfTrue, .jumpIfFalse:
            // Booleans, int32s, null, undefined and objects inline; the rest (ToBoolean of
            // doubles and strings) through the stub.
            let op = Op.CondJump(ins, pc)
            let target = pc + op.offset
            load(op.value, R.t0)
            var whenTrue: [Jump] = [], whenFalse: [Jump] = []
            truth(true: &whenTrue, false: &whenFalse)
            let undecided = masm.jump()
            for j in whenTrue { branch(j, to: opcode == .jumpIfTrue ? target : next) }
            for j in whenFalse { branch(j, to: opcode == .jumpIfTrue ? next : target) }
            slowPaths.append(([undecided], pc, next))
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
            masm.load64(R.t1, scopeSlot(depth: op.depth, slot: op.slot), R.t0)
            store(R.t0, op.dst)
        case .setScope, .initScope:
            let op = Op.SetScope(ins, pc)
            let slot = scopeSlot(depth: op.depth, slot: op.slot)
            load(op.value, R.t0)
            masm.store64(R.t0, R.t1, slot)
        case .getProp:
            let op = Op.GetProp(ins, pc)
            calleeLoads[op.dst] = (false, op.cache)
            let atom = code.atom(op.name)
            if let atom, atom == lengthAtom {
                slowPaths.append((lengthProperty(object: op.object, dst: op.dst), pc, next))
            } else {
                valueStubPaths.append((getProp(object: op.object, cache: op.cache, dst: op.dst, atom: atom), pc, next,
                                       .getNamed(object: op.object, atom: op.name, cache: op.cache, dst: op.dst)))
            }
        case .getGlobal:
            let op = Op.GetGlobal(ins, pc)
            calleeLoads[op.dst] = (true, op.cache)
            slowPaths.append((getGlobal(cache: op.cache, dst: op.dst), pc, next))
        case .setGlobal, .setGlobalStrict:
            // A data property of the global object the site's cache found (as the
            // interpreter's setGlobal: a lexical binding goes through the stub).
            let op = Op.SetGlobal(ins, pc)
            var misses = globalOfCachedShape(cache: op.cache)
            masm.load64(R.t2, Int32(InlineCacheLayout.holder), R.t3)
            misses.append(masm.branch64(.notEqual, R.t3, imm: 0))
            masm.load32(R.t2, Int32(InlineCacheLayout.slot), R.t3)
            slotAddress()
            load(op.value, R.t1)
            masm.store64(R.t1, R.t0, 0)
            slowPaths.append((misses, pc, next))
        case .loadThis:
            // The frame's `this` when bound; the stub finds it (arrows, derived constructors).
            let op = Op.Dst(ins, pc)
            masm.load64(R.frame, Int32(FrameLayout.this), R.t0)
            let unbound = masm.branch64(.equal, R.t0, imm: 0)
            store(R.t0, op.dst)
            slowPaths.append(([unbound], pc, next))
        case .not:
            let op = Op.DstSrc(ins, pc)
            load(op.src, R.t0)
            var whenTrue: [Jump] = [], whenFalse: [Jump] = []
            truth(true: &whenTrue, false: &whenFalse)
            let undecided = masm.jump()
            for j in whenTrue { masm.linkHere(j) }
            storeConstant(Value.false.bits, op.dst)
            let done = masm.jump()
            for j in whenFalse { masm.linkHere(j) }
            storeConstant(Value.true.bits, op.dst)
            masm.linkHere(done)
            slowPaths.append(([undecided], pc, next))
        case .getElem:
            let op = Op.GetElem(ins, pc)
            let (element, misses) = denseElement(object: op.object, key: op.key)
            masm.load64(element, 0, R.t0)
            var all = misses
            all.append(masm.branch64(.equal, R.t0, imm: 0))   // a hole
            store(R.t0, op.dst)
            valueStubPaths.append((all, pc, next, .getElement(object: op.object, key: op.key, dst: op.dst)))
        case .setElem, .setElemStrict:
            let op = Op.SetElem(ins, pc)
            let (element, misses) = denseElement(object: op.object, key: op.key, forStore: true)
            masm.load64(element, 0, R.t0)
            var all = misses
            all.append(masm.branch64(.equal, R.t0, imm: 0))   // a hole: the slow path decides
            load(op.value, R.t0)
            masm.store64(R.t0, element, 0)
            valueStubPaths.append((all, pc, next, .setElement(object: op.object, key: op.key, value: op.value,
                                                              strict: opcode == .setElemStrict)))
        case .setProp, .setPropStrict, .initProp:
            let op = Op.SetProp(ins, pc)
            let misses = setProp(object: op.object, cache: op.cache, value: op.value, define: opcode == .initProp)
            slowPaths.append((misses, pc, next))
        case .newObject, .newClosure, .createArguments, .createMappedArguments:
            stubCount += 1
            switch opcode {
            case .newObject: emitValueStub(.newObject(dst: Op.Dst(ins, pc).dst), pc: pc)
            case .newClosure:
                let op = Op.NewClosure(ins, pc)
                emitValueStub(.newClosure(constant: op.code, dst: op.dst), pc: pc)
            default: emitValueStub(.arguments(strict: opcode == .createArguments, dst: Op.Arguments(ins, pc).dst), pc: pc)
            }
            return
        case .iteratorNext:
            // The next value, or a jump when the iterator is done (`JITStubs.iteratorNext`).
            stubCount += 1
            let op = Op.IteratorStep(ins, pc)
            masm.store64(imm: Int32(pc), R.frame, Int32(JITFrameLayout.pc))
            masm.move(R.runtime, R.arguments[0])
            masm.move(R.registers, R.arguments[1])
            masm.add64(imm: slot(op.record), R.arguments[1])
            masm.call(address: JITStubs.iteratorNextAddress)
            exceptionJumps.append(masm.branch64(.equal, R.result, imm: 0))
            branch(masm.branch64(.equal, R.result, imm: Int32(JITStubs.iteratorDone)), to: pc + op.done)
            store(R.result, op.dst)
            return
        default:
            stubCount += 1
            if let stub = ValueStub.computing(opcode, ins, pc) {
                // `instanceof`, `in`, `typeof` and the like: the operation, called directly.
                emitValueStub(stub, pc: pc)
            } else {
                stepStub(pc: pc, next: next)
            }
            return
        }
        inlineCount += 1
    }

    /// `& | ^ << >> >>>` on two int32s; anything else (or a `>>>` result past int32, a
    /// double) goes to the stub.
    mutating func binaryInt32(_ opcode: Opcode, _ op: Op.Binary, _ pc: Int, _ next: Int) {
        load(op.a, R.t0)
        load(op.b, R.t1)
        var misses = [branchNotInt32(R.t0), branchNotInt32(R.t1)]
        // 32-bit shifts take the count modulo 32, as JavaScript does.
        switch opcode {
        case .bitAnd: masm.and32(R.t1, R.t0)
        case .bitOr: masm.or32(R.t1, R.t0)
        case .bitXor: masm.xor32(R.t1, R.t0)
        case .shl: masm.shiftLeft32(R.t1, R.t0)
        case .sar: masm.shiftRightArithmetic32(R.t1, R.t0)
        default:
            masm.shiftRightLogical32(R.t1, R.t0)
            misses.append(masm.branchTest32(.signed, R.t0, imm: -1))   // >= 2^31: a double
        }
        boxInt32(R.t0)
        store(R.t0, op.dst)
        slowPaths.append((misses, pc, next))
    }

    /// `src + imm` (or `- imm`) on an int32 with an overflow check; the rest through the stub.
    mutating func addImmediate(src: Int, dst: Int, _ imm: Int32, subtract: Bool, _ pc: Int, _ next: Int) {
        load(src, R.t0)
        let notInt = branchNotInt32(R.t0)
        let overflow = subtract
            ? masm.branchSub32(.overflow, imm: imm, R.t0)
            : masm.branchAdd32(.overflow, imm: imm, R.t0)
        boxInt32(R.t0)
        store(R.t0, dst)
        slowPaths.append(([notInt, overflow], pc, next))
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
    /// else the stub. Strict equality compares int32s inline only. `secondIsInt32`: t1
    /// holds an immediate, an int32 without testing.
    mutating func compareAndJump(_ opcode: Opcode, target: Int, _ pc: Int, _ next: Int,
                                 secondIsInt32: Bool = false) {
        var notInt = [branchNotInt32(R.t0)]
        if !secondIsInt32 { notInt.append(branchNotInt32(R.t1)) }
        branch(masm.branch32(Self.jumpCondition(opcode), R.t0, R.t1), to: target)
        // The int32 case falls through to the next instruction; the others out of line.
        compareOutOfLine.append((notInt, opcode, target, pc, next))
    }

    /// The out-of-line part of a compare-and-jump: operands in t0 and t1, not both int32.
    mutating func compareAndJumpSlowCases(_ opcode: Opcode, target: Int, _ pc: Int, _ next: Int) {
        guard let cond = Self.doubleJumpCondition(opcode) else {
            // (In)equality, strict or loose.
            var equal: [Jump] = [], notEqual: [Jump] = []
            if opcode == .jumpIfEq || opcode == .jumpIfNotEq {
                looseEquality(equal: &equal, notEqual: &notEqual)
            } else {
                strictEquality(equal: &equal, notEqual: &notEqual)
            }
            let undecided = masm.jump()
            let isEq = opcode == .jumpIfStrictEq || opcode == .jumpIfStrictEqImm || opcode == .jumpIfEq
            for j in equal { branch(j, to: isEq ? target : next) }
            for j in notEqual { branch(j, to: isEq ? next : target) }
            slowPaths.append(([undecided], pc, next))
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
        load(object, obj)
        load(key, k)
        var misses = cellKind(obj, into: scratch)
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

    /// Loads the environment `depth` levels up from the frame's into t1; returns the
    /// offset of its `slot` there.
    func scopeSlot(depth: Int32, slot: Int32) -> Int32 {
        masm.load64(R.frame, Int32(FrameLayout.env), R.t1)
        for _ in 0..<depth { masm.load64(R.t1, Int32(EnvironmentLayout.parent), R.t1) }
        return Int32(EnvironmentLayout.slots) + slot * 8
    }

    /// The `CellKind` of the cell in `r` into `kind`; the jumps taken instead when `r` holds
    /// no cell (a tagged value or the empty value).
    func cellKind(_ r: GPR, into kind: GPR) -> [Jump] {
        masm.move(imm: Value.notCellMask, kind)
        let tagged = masm.branchTest64(.nonZero, r, kind)
        let empty = masm.branch64(.equal, r, imm: 0)
        masm.load8(r, Int32(CellHeaderLayout.kind), kind)
        return [tagged, empty]
    }

    /// Jumps away unless `r` (t0 by default) holds an object cell (a cell of a kind past
    /// symbol, as the interpreter's cache check has it). Clobbers `scratch`.
    func objectCellChecks(_ r: GPR = R.t0, scratch: GPR = R.t1, into misses: inout [Jump]) {
        misses += cellKind(r, into: scratch)
        misses.append(masm.branch32(.belowOrEqual, scratch, imm: Int32(CellKind.symbol.rawValue)))
    }

    /// The address of named slot t3 of the object in t0, into t0 (inline or out of line).
    /// Clobbers t3 and t4.
    func slotAddress() {
        masm.load32(R.t0, Int32(CellHeaderLayout.aux), R.t4)
        let outOfLine = masm.branch32(.aboveOrEqual, R.t3, R.t4)
        masm.shiftLeft64(imm: 3, R.t3)
        masm.add64(imm: Int32(ObjectLayout.inlineSlots), R.t3)
        masm.add64(R.t3, R.t0)
        let done = masm.jump()
        masm.linkHere(outOfLine)
        masm.sub64(R.t4, R.t3)
        masm.load64(R.t0, Int32(ObjectLayout.outOfLineSlots), R.t0)
        masm.shiftLeft64(imm: 3, R.t3)
        masm.add64(R.t3, R.t0)
        masm.linkHere(done)
    }

    /// The cache entry's address into t2.
    /// `.length` of an array or a string (no slot holds it); other receivers through the stub.
    func lengthProperty(object: Int, dst: Int) -> [Jump] {
        load(object, R.t0)
        var misses = cellKind(R.t0, into: R.t1)
        let notArray = masm.branch32(.notEqual, R.t1, imm: Int32(CellKind.array.rawValue))
        masm.load32(R.t0, Int32(ObjectLayout.arrayLength), R.t1)
        let loaded = masm.jump()
        masm.linkHere(notArray)
        misses.append(masm.branch32(.above, R.t1, imm: Int32(CellKind.rope.rawValue)))
        masm.load32(R.t0, Int32(CellHeaderLayout.aux), R.t1)
        masm.linkHere(loaded)
        misses.append(masm.branch32(.lessThan, R.t1, imm: 0))   // past int32: a double
        boxInt32(R.t1)
        store(R.t1, dst)
        return misses
    }

    /// The shared cache's entry for the shape in t1 and `atom`, into t2 (as an inline
    /// cache, like `cacheEntry`); jumps away when it holds another shape or key.
    func sharedCacheProbe(atom: UnsafeMutableRawPointer) -> [Jump] {
        let key = UInt64(UInt(bitPattern: atom))
        masm.move(imm: key &* Runtime.sharedCacheKeyMultiplier, R.t3)
        masm.xor64(R.t1, R.t3)
        masm.shiftRightLogical64(imm: 4, R.t3)
        masm.move(R.t3, R.t4)
        masm.shiftRightLogical64(imm: 17, R.t4)
        masm.xor64(R.t4, R.t3)
        masm.and64(imm: Int32(Runtime.sharedCacheSize - 1), R.t3)
        precondition(JITSharedCache.stride == 40, "SharedCacheEntry is 5 words")
        masm.move(R.t3, R.t4)
        masm.shiftLeft64(imm: 5, R.t3)
        masm.shiftLeft64(imm: 3, R.t4)
        masm.add64(R.t4, R.t3)
        masm.move(imm: UInt64(UInt(bitPattern: sharedCache)) + UInt64(JITSharedCache.cache), R.t2)
        masm.add64(R.t3, R.t2)
        masm.move(imm: key, R.t4)
        var misses = [masm.branch64(.notEqual, R.t2, Int32(JITSharedCache.key - JITSharedCache.cache), R.t4)]
        misses.append(masm.branch64(.notEqual, R.t2, Int32(InlineCacheLayout.shape), R.t1))
        return misses
    }
    func cacheEntry(_ cache: Int) {
        masm.move(imm: UInt64(UInt(bitPattern: code.caches + cache * InlineCacheLayout.stride)), R.t2)
    }

    /// Jumps away unless the cache entry in t2 is valid for the current prototype epoch.
    func epochCheck(into misses: inout [Jump]) {
        masm.load32(R.t2, Int32(InlineCacheLayout.epoch), R.t4)
        masm.move(imm: UInt64(UInt(bitPattern: protoEpoch)), R.t5)
        masm.load32(R.t5, 0, R.t5)
        misses.append(masm.branch32(.notEqual, R.t4, R.t5))
    }

    /// Loads register `object` into t0 and the site's cache entry into t2; the misses
    /// unless t0 is an object cell of the entry's shape.
    /// Loads the object in register `object` into t0, its shape into t1, the site's cache
    /// into t2; jumps away unless the shape is the cached one. With `strings`, a string
    /// receiver looks its properties up on String.prototype (as the interpreter's cache does).
    func objectOfCachedShape(object: Int, cache: Int, strings: Bool = false) -> [Jump] {
        var misses: [Jump] = []
        load(object, R.t0)
        if strings {
            misses += cellKind(R.t0, into: R.t1)
            let isObject = masm.branch32(.above, R.t1, imm: Int32(CellKind.symbol.rawValue))
            // Symbols and BigInts through the stub; strings and ropes on String.prototype.
            misses.append(masm.branch32(.above, R.t1, imm: Int32(CellKind.rope.rawValue)))
            masm.move(imm: UInt64(UInt(bitPattern: stringPrototype)), R.t0)
            masm.linkHere(isObject)
        } else {
            objectCellChecks(into: &misses)
        }
        masm.load64(R.t0, Int32(ObjectLayout.shape), R.t1)
        cacheEntry(cache)
        misses.append(masm.branch64(.notEqual, R.t2, Int32(InlineCacheLayout.shape), R.t1))
        return misses
    }

    /// `getProp` through the site's inline cache, as the interpreter's fast path: an
    /// object of the cached shape, the property its own or (epoch valid) the holder's.
    mutating func getProp(object: Int, cache: Int, dst: Int, atom: UnsafeMutableRawPointer? = nil) -> [Jump] {
        var misses = objectOfCachedShape(object: object, cache: cache, strings: true)
        if let atom {
            // The site's shape missed: the shared cache may know this shape (polymorphic sites).
            let siteMiss = misses.removeLast()
            let hit = masm.jump()
            masm.linkHere(siteMiss)
            misses += sharedCacheProbe(atom: atom)
            masm.linkHere(hit)
        }
        masm.load64(R.t2, Int32(InlineCacheLayout.holder), R.t3)
        let own = masm.branch64(.equal, R.t3, imm: 0)
        epochCheck(into: &misses)
        masm.move(R.t3, R.t0)
        masm.linkHere(own)
        masm.load32(R.t2, Int32(InlineCacheLayout.slot), R.t3)
        slotAddress()
        masm.load64(R.t0, 0, R.t1)
        store(R.t1, dst)
        return misses
    }

    /// The global object into t0 and the site's cache entry into t2; the misses unless the
    /// entry is for the global object's shape and valid for the prototype epoch.
    func globalOfCachedShape(cache: Int) -> [Jump] {
        var misses: [Jump] = []
        masm.move(imm: UInt64(UInt(bitPattern: globalObject)), R.t0)
        masm.load64(R.t0, Int32(ObjectLayout.shape), R.t1)
        cacheEntry(cache)
        misses.append(masm.branch64(.notEqual, R.t2, Int32(InlineCacheLayout.shape), R.t1))
        epochCheck(into: &misses)
        return misses
    }

    /// `getGlobal` through its cache: the global object's own data property, or a global
    /// lexical binding (initialized: the hole is a TDZ error, left to the stub).
    /// A site whose cache was filled when it was compiled first reads the binding where
    /// it was then (`JITGlobalBinding`): a lexical binding's value, or the property's slot
    /// while the global object's shape and the epoch are the ones seen; then the cache.
    mutating func getGlobal(cache: Int, dst: Int) -> [Jump] {
        var found: Jump?
        switch code.globalBinding(cache: cache, runtime: runtime) {
        case .lexical(let index):
            masm.move(imm: UInt64(UInt(bitPattern: lexicalValues)), R.t0)
            masm.load64(R.t0, 0, R.t0)
            masm.load64(R.t0, index * 8, R.t1)
            let hole = masm.branch64(.equal, R.t1, imm: 0)
            store(R.t1, dst)
            return [hole]
        case .property(let shape, let epoch, let inline, let offset):
            masm.move(imm: UInt64(UInt(bitPattern: globalObject)), R.t0)
            masm.move(imm: UInt64(UInt(bitPattern: shape)), R.t1)
            let otherShape = masm.branch64(.notEqual, R.t0, Int32(ObjectLayout.shape), R.t1)
            masm.move(imm: UInt64(UInt(bitPattern: protoEpoch)), R.t4)
            masm.load32(R.t4, 0, R.t4)
            let otherEpoch = masm.branch32(.notEqual, R.t4, imm: Int32(bitPattern: epoch))
            if !inline { masm.load64(R.t0, Int32(ObjectLayout.outOfLineSlots), R.t0) }
            masm.load64(R.t0, offset, R.t1)
            found = masm.jump()
            masm.linkHere(otherShape)
            masm.linkHere(otherEpoch)
        case nil:
            break
        }
        var misses = globalOfCachedShape(cache: cache)
        masm.load64(R.t2, Int32(InlineCacheLayout.holder), R.t3)
        let property = masm.branch64(.equal, R.t3, imm: 0)
        misses.append(masm.branch64(.notEqual, R.t3, imm: Int32(Runtime.lexicalHolderBits)))
        masm.load32(R.t2, Int32(InlineCacheLayout.slot), R.t3)
        masm.move(imm: UInt64(UInt(bitPattern: lexicalValues)), R.t0)
        masm.load64(R.t0, 0, R.t0)
        masm.load64(R.t0, index: R.t3, 0, R.t1)
        misses.append(masm.branch64(.equal, R.t1, imm: 0))
        let done = masm.jump()
        masm.linkHere(property)
        masm.load32(R.t2, Int32(InlineCacheLayout.slot), R.t3)
        slotAddress()
        masm.load64(R.t0, 0, R.t1)
        masm.linkHere(done)
        if let found { masm.linkHere(found) }
        store(R.t1, dst)
        return misses
    }

    /// `setProp` through the cache: an own data property of the cached shape, or the
    /// cached transition that adds it (epoch valid, extensible, not a prototype, the slot
    /// within the capacity; the shape changes with the store). `initProp` (`define`) defines
    /// on an object literal's object: no prototype chain to guard, so no epoch check.
    mutating func setProp(object: Int, cache: Int, value: Int, define: Bool = false) -> [Jump] {
        var misses = objectOfCachedShape(object: object, cache: cache)
        masm.load64(R.t2, Int32(InlineCacheLayout.newShape), R.t1)
        let plain = masm.branch64(.equal, R.t1, imm: 0)
        // A transition.
        if !define { epochCheck(into: &misses) }
        masm.load32(R.t0, Int32(CellHeaderLayout.flags), R.t4)
        misses.append(masm.branchTest32(.nonZero, R.t4, imm: Int32(ObjectFlags.nonExtensible | ObjectFlags.isPrototype)))
        masm.load32(R.t2, Int32(InlineCacheLayout.slot), R.t3)
        masm.load32(R.t0, Int32(CellHeaderLayout.aux), R.t4)
        let inline = masm.branch32(.below, R.t3, R.t4)
        masm.move(R.t3, R.t5)
        masm.sub64(R.t4, R.t5)
        masm.load32(R.t0, Int32(ObjectLayout.outOfLineCapacity), R.t4)
        misses.append(masm.branch32(.aboveOrEqual, R.t5, R.t4))
        masm.linkHere(inline)
        masm.store64(R.t1, R.t0, Int32(ObjectLayout.shape))
        let store = masm.jump()
        masm.linkHere(plain)
        masm.load64(R.t2, Int32(InlineCacheLayout.holder), R.t3)
        misses.append(masm.branch64(.notEqual, R.t3, imm: 0))
        masm.load32(R.t2, Int32(InlineCacheLayout.slot), R.t3)
        masm.linkHere(store)
        slotAddress()
        load(value, R.t1)
        masm.store64(R.t1, R.t0, 0)
        return misses
    }

    // MARK: - Equality and truth

    /// `< <= > >= == != === !==` as a boolean: int32s, then numbers as doubles for the
    /// relational ones and what the bits decide for the equalities; else the stub.
    mutating func comparison(_ opcode: Opcode, _ op: Op.Binary, _ pc: Int, _ next: Int) {
        load(op.a, R.t0)
        load(op.b, R.t1)
        var whenTrue: [Jump] = [], whenFalse: [Jump] = [], misses: [Jump] = []
        let aNotInt = branchNotInt32(R.t0)
        let bNotInt = branchNotInt32(R.t1)
        let cond: RelationalCondition
        switch opcode {
        case .lt: cond = .lessThan
        case .le: cond = .lessThanOrEqual
        case .gt: cond = .greaterThan
        case .ge: cond = .greaterThanOrEqual
        case .eq, .strictEq: cond = .equal
        default: cond = .notEqual
        }
        whenTrue.append(masm.branch32(cond, R.t0, R.t1))
        whenFalse.append(masm.jump())
        masm.linkHere(aNotInt)
        masm.linkHere(bNotInt)
        switch opcode {
        case .lt, .le, .gt, .ge:
            misses.append(unboxNumber(R.t0, Self.f0))
            misses.append(unboxNumber(R.t1, Self.f1))
            let d: DoubleCondition = opcode == .lt ? .lessThan : opcode == .le ? .lessThanOrEqual
                : opcode == .gt ? .greaterThan : .greaterThanOrEqual
            whenTrue += masm.branchDouble(d, Self.f0, Self.f1)
            whenFalse.append(masm.jump())
        default:
            var equal: [Jump] = [], notEqual: [Jump] = []
            if opcode == .eq || opcode == .ne {
                looseEquality(equal: &equal, notEqual: &notEqual)
            } else {
                strictEquality(equal: &equal, notEqual: &notEqual)
            }
            misses.append(masm.jump())
            let positive = opcode == .eq || opcode == .strictEq
            whenTrue += positive ? equal : notEqual
            whenFalse += positive ? notEqual : equal
        }
        for j in whenTrue { masm.linkHere(j) }
        storeConstant(Value.true.bits, op.dst)
        let done = masm.jump()
        for j in whenFalse { masm.linkHere(j) }
        storeConstant(Value.false.bits, op.dst)
        masm.linkHere(done)
        slowPaths.append((misses, pc, next))
    }

    /// Loose equality of t0 and t1 where it needs no conversion: equal bits (not a double),
    /// null and undefined (equal to each other, to nothing else), two different objects.
    /// Falls through when the stub must decide. Clobbers t2 and t3.
    func looseEquality(equal: inout [Jump], notEqual: inout [Jump]) {
        let different = masm.branch64(.notEqual, R.t0, R.t1)
        equal.append(masm.branch64(.aboveOrEqual, R.t0, R.numberTag))
        equal.append(masm.branchTest64(.zero, R.t0, R.numberTag))
        let undecided = masm.jump()
        masm.linkHere(different)
        // Nullish: bits & ~undefinedTag == null.
        masm.move(R.t0, R.t2)
        masm.and64(imm: ~Int32(Value.undefinedTag), R.t2)
        masm.move(R.t1, R.t3)
        masm.and64(imm: ~Int32(Value.undefinedTag), R.t3)
        var stub: [Jump] = []
        /// One side nullish, the other (`r`) not: not equal unless `r` is an object with
        /// [[IsHTMLDDA]] (the stub decides those).
        func nullishAgainst(_ r: GPR) {
            let notCell = cellKind(r, into: R.t2)
            let notObject = masm.branch32(.belowOrEqual, R.t2, imm: Int32(CellKind.shape.rawValue))
            stub.append(masm.branchTest8(.nonZero, r, Int32(CellHeaderLayout.flags), imm: UInt8(ObjectFlags.htmlDDA)))
            notEqual.append(masm.jump())
            masm.linkHere(notObject)
            for j in notCell { masm.linkHere(j) }
            notEqual.append(masm.jump())
        }
        let aNotNullish = masm.branch64(.notEqual, R.t2, imm: Int32(Value.null.bits))
        // a nullish: equal iff b is nullish too (or IsHTMLDDA).
        equal.append(masm.branch64(.equal, R.t3, imm: Int32(Value.null.bits)))
        nullishAgainst(R.t1)
        masm.linkHere(aNotNullish)
        let bNotNullish = masm.branch64(.notEqual, R.t3, imm: Int32(Value.null.bits))
        nullishAgainst(R.t0)
        masm.linkHere(bNotNullish)
        // Two objects (cells of kinds past the shape) with different bits.
        for r in [R.t0, R.t1] {
            stub += cellKind(r, into: R.t2)
            stub.append(masm.branch32(.belowOrEqual, R.t2, imm: Int32(CellKind.shape.rawValue)))
        }
        notEqual.append(masm.jump())
        masm.linkHere(undecided)
        for j in stub { masm.linkHere(j) }
    }

    /// Strict equality of t0 and t1 decided inline where the bits decide it: equal bits
    /// and not a double (NaN), or different bits and neither a number nor a string. Jumps
    /// to `equal`/`notEqual`; falls through when the stub must decide.
    func strictEquality(equal: inout [Jump], notEqual: inout [Jump]) {
        let different = masm.branch64(.notEqual, R.t0, R.t1)
        // Same bits: equal unless a double (NaN !== NaN).
        equal.append(masm.branch64(.aboveOrEqual, R.t0, R.numberTag))
        equal.append(masm.branchTest64(.zero, R.t0, R.numberTag))
        let undecided = masm.jump()
        masm.linkHere(different)
        // Different bits: a number may equal the other (int32 1 and a double 1.0) and
        // strings and BigInts compare by contents; anything else differs.
        var stub: [Jump] = []
        stub.append(masm.branchTest64(.nonZero, R.t0, R.numberTag))
        stub.append(masm.branchTest64(.nonZero, R.t1, R.numberTag))
        notEqual += cellKind(R.t0, into: R.t2)
        notEqual += cellKind(R.t1, into: R.t3)
        // Strings and BigInts (kinds up to bigint) compare by contents: anything else differs.
        notEqual.append(masm.branch32(.above, R.t2, imm: Int32(CellKind.bigint.rawValue)))
        notEqual.append(masm.branch32(.above, R.t3, imm: Int32(CellKind.bigint.rawValue)))
        // Two flat strings of different lengths differ, and so do two atoms.
        stub.append(masm.branch32(.notEqual, R.t2, imm: Int32(CellKind.string.rawValue)))
        stub.append(masm.branch32(.notEqual, R.t3, imm: Int32(CellKind.string.rawValue)))
        masm.load32(R.t0, Int32(CellHeaderLayout.aux), R.t2)
        masm.load32(R.t1, Int32(CellHeaderLayout.aux), R.t3)
        notEqual.append(masm.branch32(.notEqual, R.t2, R.t3))
        stub.append(masm.branchTest8(.zero, R.t0, Int32(CellHeaderLayout.flags), imm: UInt8(StringFlags.isAtom)))
        stub.append(masm.branchTest8(.zero, R.t1, Int32(CellHeaderLayout.flags), imm: UInt8(StringFlags.isAtom)))
        notEqual.append(masm.jump())
        masm.linkHere(undecided)
        for j in stub { masm.linkHere(j) }
    }

    /// ToBoolean of t0 decided inline for booleans, int32s, null, undefined and objects;
    /// falls through for doubles, strings and other cells.
    func truth(true whenTrue: inout [Jump], false whenFalse: inout [Jump]) {
        whenTrue.append(masm.branch64(.equal, R.t0, imm: Int32(Value.true.bits)))
        whenFalse.append(masm.branch64(.equal, R.t0, imm: Int32(Value.false.bits)))
        whenFalse.append(masm.branch64(.equal, R.t0, imm: Int32(Value.undefined.bits)))
        whenFalse.append(masm.branch64(.equal, R.t0, imm: Int32(Value.null.bits)))
        let notInt = branchNotInt32(R.t0)
        whenTrue.append(masm.branch32(.notEqual, R.t0, imm: 0))
        whenFalse.append(masm.jump())
        masm.linkHere(notInt)
        // A double: false for ±0 and NaN.
        let notDouble = masm.branchTest64(.zero, R.t0, R.numberTag)
        let never = unboxNumber(R.t0, Self.f0)   // (a number: it never jumps)
        masm.move(imm: 0, R.t1)
        masm.move64ToDouble(R.t1, Self.f1)
        whenTrue += masm.branchDouble(.notEqual, Self.f0, Self.f1)
        whenFalse.append(masm.jump())
        masm.linkHere(notDouble)
        masm.linkHere(never)
        let notCell = cellKind(R.t0, into: R.t1)
        // Objects (kinds past the shape) are true unless [[IsHTMLDDA]] (undecided here),
        // flat strings by their length; ropes and symbols undecided here.
        let notObject = masm.branch32(.belowOrEqual, R.t1, imm: Int32(CellKind.shape.rawValue))
        whenTrue.append(masm.branchTest8(.zero, R.t0, Int32(CellHeaderLayout.flags), imm: UInt8(ObjectFlags.htmlDDA)))
        let htmlDDA = masm.jump()
        masm.linkHere(notObject)
        let notFlat = masm.branch32(.notEqual, R.t1, imm: Int32(CellKind.string.rawValue))
        masm.load32(R.t0, Int32(CellHeaderLayout.aux), R.t1)
        whenTrue.append(masm.branch32(.notEqual, R.t1, imm: 0))
        whenFalse.append(masm.jump())
        masm.linkHere(notFlat)
        masm.linkHere(htmlDDA)
        for j in notCell { masm.linkHere(j) }
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
        case .jumpIfStrictEq, .jumpIfStrictEqImm, .jumpIfEq: return .equal
        default: return .notEqual
        }
    }
}
