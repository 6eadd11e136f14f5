import JSAssembler
import JSBytecode
import JSRuntime

// Calls and returns in machine code (JSJIT/DESIGN.md, "Calls"). A call asks the call stub
// (`JITStubs.call`) to push the callee's frame, as the interpreter would, then enters the
// callee's body with a native call; the callee's compiled return stores the result in the
// caller's register, pops its frame and returns `JITEntryResult.returned`, and the caller
// continues after the call. Anything else a callee returns (a pc to interpret at in the
// top frame, an exception) goes up unchanged to the interpreter, which continues in the
// top frame: the callers' frames are at their calls, so the interpreter's returns resume them.
extension BaselineCompiler {
    /// `call` / `callMethod`: a compiled bytecode callee whose frame machine code can make
    /// (`pushFrameInline`) is entered at once; anything else asks the call stub. When the
    /// instruction that loaded the callee has a function in its cache now, a first path
    /// assumes that function's code (`JITKnownCallee`: its frame facts are constants, a
    /// recursive call calls the body's own start) once it has checked the callee's code.
    mutating func callInstruction(_ op: Op.Call, _ pc: Int, _ next: Int) {
        var misses: [Jump] = []
        if let infoOffset = code.calleeInfoOffset {
            if let known = likelyCallee(op.callee), op.argc <= known.parameterCount {
                let generic = pushFrameInline(op, pc, infoOffset: infoOffset, known: known)
                enterCallee(next: next, known: known)
                for j in generic { masm.linkHere(j) }
            }
            misses = pushFrameInline(op, pc, infoOffset: infoOffset)
            enterCallee(next: next)
        }
        let stub = masm.label()
        for j in misses { masm.link(j, to: stub) }
        stubCall(JITStubs.callAddress, pc, next)
    }

    /// The callee the instruction that last loaded register `reg` (in instruction order)
    /// finds in its cache now, if any. Only a guess: the code that uses it checks it.
    func likelyCallee(_ reg: Int) -> JITKnownCallee? {
        guard let load = calleeLoads[reg] else { return nil }
        return load.global ? code.likelyCallee(globalCache: load.cache, runtime: runtime)
                           : code.likelyCallee(propertyCache: load.cache, runtime: runtime)
    }

    /// `construct`: through the construct stub, which pushes a compiled constructor's frame.
    mutating func constructInstruction(_ pc: Int, _ next: Int) {
        stubCall(JITStubs.constructAddress, pc, next)
    }

    /// A call or construct stub: -1, done or interpret out of line; else it pushed a
    /// compiled callee's frame and left its frame, registers and entry table in the call cell.
    mutating func stubCall(_ stub: UnsafeRawPointer, _ pc: Int, _ next: Int) {
        masm.move(R.runtime, R.arguments[0])
        masm.move(imm: UInt64(pc), R.arguments[1])
        masm.call(address: stub)
        let special = masm.branch64(.lessThanOrEqual, R.result, imm: Int32(JITStubs.callInterpret))
        callSpecials.append((special, pc, next))
        masm.move(R.result, R.t2)
        masm.move(imm: UInt64(UInt(bitPattern: callCell)), R.t1)
        masm.load64(R.t1, 8, R.t5)
        masm.load64(R.t1, 16, R.t3)
        enterCallee(next: next, frameInCallCell: true)
        inlineCount += 1
    }

    /// Enters a callee whose frame was pushed: its machine code at pc 0 in t2 (a `known`
    /// callee's in its info; this body's own start for a recursive call), its registers in
    /// t5, its entry table in t3 (a known callee's is read here); its frame the one
    /// `pushFrameInline` wrote above this one, or (`frameInCallCell`) the one a stub left
    /// in the call cell, whose address is in t1.
    mutating func enterCallee(next: Int, frameInCallCell: Bool = false, known: JITKnownCallee? = nil) {
        // Three saves keep the callee's body 16-byte aligned (it runs after a return address).
        masm.push(R.frame)
        masm.push(R.registers)
        masm.push(R.table)
        if frameInCallCell {
            masm.load64(R.t1, 0, R.frame)
        } else {
            masm.add64(imm: Int32(JITFrameLayout.stride), R.frame)
        }
        masm.move(R.t5, R.registers)
        if let known, known.isSelf {
            masm.move(imm: UInt64(UInt(bitPattern: table)), R.table)
            masm.call(to: Label(offset: offsets[0]))
        } else {
            if let known {
                masm.move(imm: UInt64(UInt(bitPattern: known.calleeInfo)), R.t3)
                masm.load64(R.t3, Int32(JITCalleeInfo.tableOffset), R.table)
            } else {
                masm.move(R.t3, R.table)
            }
            masm.call(R.t2)
        }
        masm.pop(R.table)
        masm.pop(R.registers)
        masm.pop(R.frame)
        // Returned: continue after the call; anything else goes up as it is.
        exitJumps.append(masm.branch64(.notEqual, R.result, imm: Int32(JITEntryResult.returned)))
        jump(to: next)
    }

    /// Pushes the frame of a call in machine code, as `Runtime.pushFrame` does, when the
    /// callee is a compiled bytecode function with a plain frame (no arrow, no function
    /// environment, not a class constructor), with no more arguments than parameters, a
    /// `this` it takes as it is, room in the frame stack, register file and native stack.
    /// Leaves the callee's machine code in t2, its registers in t5, its entry table in t3.
    /// With `known`, only for a callee with that code, whose facts are then constants (no
    /// machine code or table left: `enterCallee` finds them).
    func pushFrameInline(_ op: Op.Call, _ pc: Int, infoOffset: Int, known: JITKnownCallee? = nil) -> [Jump] {
        typealias F = JITFrameLayout
        typealias I = JITCalleeInfo
        let argc = Int32(op.argc)
        let newFrame = Int32(F.stride)
        var misses: [Jump] = []
        // The callee: a bytecode function, not a class constructor, compiled, plain.
        load(op.callee, R.t0)
        misses += cellKind(R.t0, into: R.t1)
        misses.append(masm.branch32(.notEqual, R.t1, imm: Int32(CellKind.function.rawValue)))
        if let known {
            // This code (so never a class constructor's), compiled unless it is this body.
            masm.move(imm: UInt64(UInt(bitPattern: known.codeData)), R.t1)
            misses.append(masm.branch64(.notEqual, R.t0, Int32(ObjectLayout.functionCode), R.t1))
            if !known.isSelf {
                masm.move(imm: UInt64(UInt(bitPattern: known.calleeInfo)), R.t2)
                masm.load64(R.t2, Int32(I.entryOffset), R.t2)
                misses.append(masm.branch64(.equal, R.t2, imm: 0))
            }
        } else {
            misses.append(masm.branchTest8(.nonZero, R.t0, Int32(CellHeaderLayout.flags), imm: UInt8(ObjectFlags.classConstructor)))
            masm.load64(R.t0, Int32(ObjectLayout.functionCode), R.t1)
            masm.load64(R.t1, Int32(infoOffset), R.t1)
            masm.load64(R.t1, Int32(I.entryOffset), R.t2)
            misses.append(masm.branch64(.equal, R.t2, imm: 0))
            misses.append(masm.branchTest8(.nonZero, R.t1, Int32(I.flagsOffset), imm: UInt8(I.needsStub)))
            masm.load32(R.t1, Int32(I.parameterCountOffset), R.t3)
            misses.append(masm.branch32(.lessThan, R.t3, imm: argc))
        }
        // Room: frames, native stack, registers (the callee's top below the file's end).
        masm.move(imm: UInt64(UInt(bitPattern: frameCount)), R.t3)
        masm.load64(R.t3, 0, R.t3)
        misses.append(masm.branch64(.greaterThanOrEqual, R.t3, imm: Int32(JITFrameLayout.maxFrames)))
        masm.move(imm: UInt64(UInt(bitPattern: stackLimit)), R.t3)
        masm.load64(R.t3, 0, R.t3)
        misses.append(masm.branch64(.below, R.stackPointer, R.t3))
        masm.load64(R.frame, Int32(F.top), R.t5)
        if let known {
            masm.move(R.t5, R.t3)
            masm.add64(imm: Int32(known.registerCount * 8), R.t3)
        } else {
            masm.load32(R.t1, Int32(I.registerCountOffset), R.t3)
            masm.shiftLeft64(imm: 3, R.t3)
            masm.add64(R.t5, R.t3)
        }
        masm.move(imm: UInt64(UInt(bitPattern: registerFileEnd)), R.t4)
        misses.append(masm.branch64(.aboveOrEqual, R.t3, R.t4))
        masm.store64(R.t3, R.frame, newFrame + Int32(F.top))
        // `this`: as given to strict code; sloppy code takes the global object for none
        // and an object as it is (anything else: the stub boxes it).
        if let known {
            if op.this < 0 {
                masm.move(imm: known.isStrict ? Value.undefined.bits : Value(cell: globalObject).bits, R.t4)
            } else {
                load(op.this, R.t4)
                if !known.isStrict { objectCellChecks(R.t4, scratch: R.t3, into: &misses) }
            }
        } else if op.this < 0 {
            masm.move(imm: Value.undefined.bits, R.t4)
            let strict = masm.branchTest8(.nonZero, R.t1, Int32(I.flagsOffset), imm: UInt8(I.strict))
            masm.move(imm: Value(cell: globalObject).bits, R.t4)
            masm.linkHere(strict)
        } else {
            load(op.this, R.t4)
            let strict = masm.branchTest8(.nonZero, R.t1, Int32(I.flagsOffset), imm: UInt8(I.strict))
            objectCellChecks(R.t4, scratch: R.t3, into: &misses)
            masm.linkHere(strict)
        }
        masm.store64(R.t4, R.frame, newFrame + Int32(F.this))
        // The rest of the frame.
        if known == nil {
            masm.load64(R.t1, Int32(I.tableOffset), R.t3)
            masm.push(R.t3)   // the table, while t3 counts registers
            masm.load64(R.t0, Int32(ObjectLayout.functionCode), R.t1)
        }
        masm.store64(R.t1, R.frame, newFrame + Int32(F.data))
        masm.store64(R.t0, R.frame, newFrame + Int32(F.callee))
        masm.load64(R.t0, Int32(ObjectLayout.functionEnvironment), R.t3)
        masm.store64(R.t3, R.frame, newFrame + Int32(F.env))
        masm.load64(R.t0, Int32(ObjectLayout.functionHome), R.t3)
        masm.move(imm: Value.undefined.bits, R.t4)
        let noHome = masm.branch64(.equal, R.t3, imm: 0)
        masm.move(R.t3, R.t4)
        masm.linkHere(noHome)
        masm.store64(R.t4, R.frame, newFrame + Int32(F.home))
        masm.move(imm: Value.undefined.bits, R.t4)
        masm.store64(R.t4, R.frame, newFrame + Int32(F.newTarget))
        masm.store64(R.t4, R.frame, newFrame + Int32(F.exception))
        masm.store64(R.t5, R.frame, newFrame + Int32(F.base))
        masm.store64(imm: argc, R.frame, newFrame + Int32(F.argc))
        masm.store64(imm: Int32(op.dst), R.frame, newFrame + Int32(F.returnRegister))
        masm.move(imm: 0, R.t3)
        masm.store64(R.t3, R.frame, newFrame + Int32(F.pc))
        masm.store64(R.t3, R.frame, newFrame + Int32(F.envDepth))
        masm.store64(R.t3, R.frame, newFrame + Int32(F.thisBox))
        masm.store8(R.t3, R.frame, newFrame + Int32(F.isConstruct))
        // The registers: the arguments (unless already in place), then undefined.
        if argc > 0 {
            masm.move(R.registers, R.t3)
            masm.add64(imm: slot(op.args), R.t3)
            let inPlace = masm.branch64(.equal, R.t3, R.t5)
            for i in 0..<argc {
                load(op.args + Int(i), R.t0)
                masm.store64(R.t0, R.t5, i * 8)
            }
            masm.linkHere(inPlace)
        }
        if let known, known.registerCount - Int(argc) <= 16 {
            for i in Int(argc)..<max(Int(argc), known.registerCount) { masm.store64(R.t4, R.t5, Int32(i * 8)) }
        } else {
            masm.move(R.t5, R.t3)
            masm.add64(imm: argc * 8, R.t3)
            masm.load64(R.frame, newFrame + Int32(F.top), R.t0)
            let filled = masm.branch64(.aboveOrEqual, R.t3, R.t0)
            let fill = masm.label()
            masm.store64(R.t4, R.t3, 0)
            masm.add64(imm: 8, R.t3)
            masm.link(masm.branch64(.below, R.t3, R.t0), to: fill)
            masm.linkHere(filled)
        }
        if known == nil { masm.pop(R.t3) }
        // The caller stops at its call (exceptions and the interpreter's returns find it there).
        masm.store64(imm: Int32(pc), R.frame, Int32(F.pc))
        // One more frame.
        masm.move(imm: UInt64(UInt(bitPattern: frameCount)), R.t0)
        masm.load64(R.t0, 0, R.t1)
        masm.add64(imm: 1, R.t1)
        masm.store64(R.t1, R.t0, 0)
        return misses
    }

    /// `ret` / `retUndefined`: a frame a call instruction pushed (its return register is a
    /// register of the caller, the frame below) returns in machine code unless it is a
    /// construct's; the others (entered from native code) through the interpreter.
    mutating func returnInstruction(_ pc: Int, value: Int?) {
        if let value { load(value, R.t0) } else { masm.move(imm: Value.undefined.bits, R.t0) }
        masm.load64(R.frame, Int32(JITFrameLayout.returnRegister), R.t1)
        let native = masm.branch64(.lessThan, R.t1, imm: 0)
        let construct = masm.branchTest8(.nonZero, R.frame, Int32(JITFrameLayout.isConstruct), imm: 1)
        if code.isDerivedConstructor {
            exitPaths.append(([native, construct], pc))
        } else {
            // A base constructor's frame returns an object it returns, else its `this`
            // (out of line: `emitCallPaths`).
            exitPaths.append(([native], pc))
            constructReturns.append((construct, masm.label()))
        }
        masm.load64(R.frame, Int32(JITFrameLayout.base - JITFrameLayout.stride), R.t2)
        masm.store64(R.t0, R.t2, index: R.t1, 0)
        masm.move(imm: UInt64(UInt(bitPattern: frameCount)), R.t3)
        masm.load64(R.t3, 0, R.t1)
        masm.sub64(imm: 1, R.t1)
        masm.store64(R.t1, R.t3, 0)
        masm.move(imm: UInt64(bitPattern: Int64(JITEntryResult.returned)), R.result)
        masm.ret()
        inlineCount += 1
    }

    /// The out-of-line ends of calls and returns.
    mutating func emitCallPaths() {
        for path in constructReturns {
            masm.linkHere(path.jump)
            var notObject: [Jump] = []
            objectCellChecks(R.t0, scratch: R.t2, into: &notObject)
            masm.jump(to: path.rejoin)
            for j in notObject { masm.linkHere(j) }
            masm.load64(R.frame, Int32(JITFrameLayout.this), R.t0)
            masm.jump(to: path.rejoin)
        }
        for path in callSpecials {
            masm.linkHere(path.jump)
            branch(masm.branch64(.equal, R.result, imm: Int32(JITStubs.callDone)), to: path.next)
            exitJumps.append(masm.branch64(.lessThan, R.result, imm: 0))
            exit(pc: path.pc)   // the interpreter makes the call
        }
        for path in exitPaths {
            for j in path.jumps { masm.linkHere(j) }
            exitCount += 1
            exit(pc: path.pc)
        }
    }
}
