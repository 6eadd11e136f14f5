// The dispatch loop.

import JSBytecode
#if OPCODE_STATS
import Glibc
#endif

extension Runtime {
    /// Calls `body` with the elements of a spread-argument array (built by `arraySpread`)
    /// in a temporary buffer on the native stack (scanned by the collector).
    func withSpreadArguments(_ arr: JSObject, _ body: (UnsafeBufferPointer<Value>) throws(JSException) -> Value) throws(JSException) -> Value {
        let n = Int(arr.arrayLength)
        return try withUnsafeTemporaryAllocation(of: Value.self, capacity: max(n, 1)) { buf throws(JSException) in
            for i in 0..<n { buf[i] = try get(arr, .index(UInt32(i)), receiver: Value(cell: arr.cell)) }
            return try body(UnsafeBufferPointer(start: buf.baseAddress, count: n))
        }
    }

    /// Runs frames until the frame at `entryDepth` returns; returns its result.
    func run(entryDepth: Int) throws(JSException) -> Value {
        while true {
            do {
                return try runLoop(entryDepth: entryDepth)
            } catch {
                // Unwind to a handler in a frame at or above entryDepth.
                if !(try unwind(error.value, entryDepth: entryDepth)) {
                    throw error
                }
                // Resuming at the handler is not an entry: under a step budget it must not
                // spend a step (with none left it would throw again at the handler's pc).
                if stepBudgetArmed { resumingAtHandler = true }
            }
        }
    }

    /// Finds a handler for `exception`; pops frames that have none. False if the entry
    /// frame was popped (the exception propagates to the native caller).
    func unwind(_ exception: Value, entryDepth: Int) throws(JSException) -> Bool {
        while frames.count > entryDepth {
            let i = frames.count - 1
            let data = frames[i].data.takeUnretainedValue()
            let pc = frames[i].pc
            for h in data.code.handlers where Int(h.start) <= pc && pc < Int(h.end) {
                // Restore the environment depth of the handler.
                while frames[i].envDepth > Int(h.scopeDepth) {
                    frames[i].env = Environment(frames[i].env!).parent
                    frames[i].envDepth -= 1
                }
                frames[i].pc = Int(h.target)
                frames[i].exception = exception
                return true
            }
            frames.removeLast()
        }
        return false
    }

    @inline(__always) func fail(_ e: JSException) -> JSException { e }

    /// `f.call(x, ...)` / `f.apply(x, list)` with the intrinsic call or apply and a bytecode
    /// `f` (a dense array or untouched arguments object as the list): the function, `this`
    /// and arguments to run it with directly, or nil.
    @inline(__always)
    func forwardedCall(_ f: Value, this thisValue: Value, args: UnsafeMutablePointer<Value>,
                       count argc: Int) -> (JSObject, Value, UnsafeBufferPointer<Value>)? {
        guard f.isCell && header(f.asCell).pointee.kind == .nativeFunction && thisValue.isCell
            && header(thisValue.asCell).pointee.kind == .function else { return nil }
        let thisArg = argc > 0 ? args[0] : .undefined
        if f.bits == functionCallBits {
            let rest = argc > 1 ? UnsafeBufferPointer(start: UnsafePointer(args + 1), count: argc - 1) : UnsafeBufferPointer(start: nil, count: 0)
            return (JSObject(thisValue), thisArg, rest)
        }
        if f.bits == functionApplyBits {
            let list = argc > 1 ? args[1] : .undefined
            if list.isNullish { return (JSObject(thisValue), thisArg, UnsafeBufferPointer(start: nil, count: 0)) }
            if isObject(list), let elements = denseElements(JSObject(list)) { return (JSObject(thisValue), thisArg, elements) }
        }
        return nil
    }

    /// `a < b`, `a <= b`, `a > b`, `a >= b` (`op` is .lt, .le, .gt or .ge): numbers inline,
    /// everything else through the spec's IsLessThan.
    @inline(__always)
    func relational(_ op: Opcode, _ a: Value, _ b: Value) throws(JSException) -> Bool {
        if a.isInt32 && b.isInt32 {
            let x = a.asInt32, y = b.asInt32
            switch op { case .lt: return x < y; case .le: return x <= y; case .gt: return x > y; default: return x >= y }
        }
        if a.isNumber && b.isNumber {
            let x = a.asNumber, y = b.asNumber
            switch op { case .lt: return x < y; case .le: return x <= y; case .gt: return x > y; default: return x >= y }
        }
        return try compare(op, a, b)
    }

    /// Runs frames until the frame at `entryDepth` returns (the interpreter proper).
    func runLoop(entryDepth: Int) throws(JSException) -> Value {
        try interpret(entryDepth: entryDepth, step: false)
    }

    /// The dispatch loop. With `step` (the JIT's step stub, `jitStep`) it runs exactly one
    /// instruction of the top frame and returns, its frame's pc at the next instruction;
    /// the JIT never steps an instruction that pushes or pops a frame. The two uses are
    /// two specializations (`step` is a constant in each), so the interpreter pays nothing.
    // swiftlint:disable:next function_body_length cyclomatic_complexity
    @inline(__always)
    func interpret(entryDepth: Int, step: Bool) throws(JSException) -> Value {
        var fi = frames.count - 1
        var fp = frames.pointer(fi)
        // A frame keeps its CodeData alive (markFrames): unretained here, no ARC in the loop.
        unowned(unsafe) var data = fp.pointee.data.takeUnretainedValue()
        var ins = data.instructions
        var pc = fp.pointee.pc
        var r = fp.pointee.base
        var stepped = false
        // Entered (or re-entered after an exception was caught): machine code if it has any.
        if !step && jitActive {
            (pc, fi, fp, ins, r) = try topFrameAfter(enterJIT(fp, pc, hotness: 1))
            data = fp.pointee.data.takeUnretainedValue()
        }

        while true {
            fp.pointee.pc = pc
            if step {
                if stepped { return .undefined }
                stepped = true
            }
            let opcode = unsafeBitCast(UInt8(truncatingIfNeeded: ins[pc]), to: Opcode.self)
            #if OPCODE_STATS
            OpcodeStats.counts[Int(opcode.rawValue)] += 1
            #endif
            switch opcode {
            case .mov:
                let op = Op.DstSrc(ins, pc)
                r[op.dst] = r[op.src]
                pc += Op.DstSrc.length
            case .loadConst:
                let op = Op.LoadConst(ins, pc)
                let c = data.constants[op.index]
                r[op.dst] = c.isEmpty ? try constantValue(data, op.index) : c
                pc += Op.LoadConst.length
            case .loadInt:
                let op = Op.LoadInt(ins, pc)
                r[op.dst] = Value(int32: op.value)
                pc += Op.LoadInt.length
            case .loadUndefined: let op = Op.Dst(ins, pc); r[op.dst] = .undefined; pc += Op.Dst.length
            case .loadNull: let op = Op.Dst(ins, pc); r[op.dst] = .null; pc += Op.Dst.length
            case .loadTrue: let op = Op.Dst(ins, pc); r[op.dst] = .true; pc += Op.Dst.length
            case .loadFalse: let op = Op.Dst(ins, pc); r[op.dst] = .false; pc += Op.Dst.length
            case .loadEmpty: let op = Op.Dst(ins, pc); r[op.dst] = .empty; pc += Op.Dst.length
            case .loadThis:
                let op = Op.Dst(ins, pc)
                let t = boundThis(fp)
                if t.isEmpty { throw try referenceError("Must call super constructor in derived class before accessing 'this'") }
                r[op.dst] = t
                pc += Op.Dst.length
            case .loadNewTarget: let op = Op.Dst(ins, pc); r[op.dst] = fp.pointee.newTarget; pc += Op.Dst.length
            case .loadCallee: let op = Op.Dst(ins, pc); r[op.dst] = fp.pointee.callee; pc += Op.Dst.length

            // MARK: Arithmetic, comparison, unary (one definition each: ValueOperations.swift)
            case .add:
                let op = Op.Binary(ins, pc)
                r[op.dst] = try binaryOperation(.add, r[op.a], r[op.b])
                pc += Op.Binary.length
            case .sub:
                let op = Op.Binary(ins, pc)
                r[op.dst] = try binaryOperation(.sub, r[op.a], r[op.b])
                pc += Op.Binary.length
            case .mul:
                let op = Op.Binary(ins, pc)
                r[op.dst] = try binaryOperation(.mul, r[op.a], r[op.b])
                pc += Op.Binary.length
            case .div:
                let op = Op.Binary(ins, pc)
                r[op.dst] = try binaryOperation(.div, r[op.a], r[op.b])
                pc += Op.Binary.length
            case .mod:
                let op = Op.Binary(ins, pc)
                r[op.dst] = try binaryOperation(.mod, r[op.a], r[op.b])
                pc += Op.Binary.length
            case .exp:
                let op = Op.Binary(ins, pc)
                r[op.dst] = try binaryOperation(.exp, r[op.a], r[op.b])
                pc += Op.Binary.length
            case .bitAnd, .bitOr, .bitXor, .shl, .sar, .shr:
                let op = Op.Binary(ins, pc)
                r[op.dst] = try binaryOperation(opcode, r[op.a], r[op.b])
                pc += Op.Binary.length
            case .eq:
                let op = Op.Binary(ins, pc)
                r[op.dst] = try binaryOperation(.eq, r[op.a], r[op.b])
                pc += Op.Binary.length
            case .ne:
                let op = Op.Binary(ins, pc)
                r[op.dst] = try binaryOperation(.ne, r[op.a], r[op.b])
                pc += Op.Binary.length
            case .strictEq:
                let op = Op.Binary(ins, pc)
                r[op.dst] = try binaryOperation(.strictEq, r[op.a], r[op.b])
                pc += Op.Binary.length
            case .strictNe:
                let op = Op.Binary(ins, pc)
                r[op.dst] = try binaryOperation(.strictNe, r[op.a], r[op.b])
                pc += Op.Binary.length
            case .lt, .le, .gt, .ge:
                let op = Op.Binary(ins, pc)
                r[op.dst] = try binaryOperation(opcode, r[op.a], r[op.b])
                pc += Op.Binary.length
            case .instanceOf:
                let op = Op.Binary(ins, pc)
                r[op.dst] = try binaryOperation(.instanceOf, r[op.a], r[op.b])
                pc += Op.Binary.length
            case .in:
                let op = Op.Binary(ins, pc)
                r[op.dst] = try binaryOperation(.in, r[op.a], r[op.b])
                pc += Op.Binary.length
            case .neg:
                let op = Op.DstSrc(ins, pc)
                r[op.dst] = try unaryOperation(.neg, r[op.src])
                pc += Op.DstSrc.length
            case .plus:
                let op = Op.DstSrc(ins, pc)
                r[op.dst] = try unaryOperation(.plus, r[op.src])
                pc += Op.DstSrc.length
            case .toNumeric:
                let op = Op.DstSrc(ins, pc)
                r[op.dst] = try unaryOperation(.toNumeric, r[op.src])
                pc += Op.DstSrc.length
            case .not:
                let op = Op.DstSrc(ins, pc)
                r[op.dst] = try unaryOperation(.not, r[op.src])
                pc += Op.DstSrc.length
            case .bitNot:
                let op = Op.DstSrc(ins, pc)
                r[op.dst] = try unaryOperation(.bitNot, r[op.src])
                pc += Op.DstSrc.length
            case .typeOf:
                let op = Op.DstSrc(ins, pc)
                r[op.dst] = try unaryOperation(.typeOf, r[op.src])
                pc += Op.DstSrc.length
            case .inc, .dec:
                let op = Op.DstSrc(ins, pc)
                r[op.dst] = try unaryOperation(opcode, r[op.src])
                pc += Op.DstSrc.length
            case .toPropertyKey:
                let op = Op.DstSrc(ins, pc)
                r[op.dst] = try unaryOperation(.toPropertyKey, r[op.src])
                pc += Op.DstSrc.length
            case .toString:
                let op = Op.DstSrc(ins, pc)
                r[op.dst] = try unaryOperation(.toString, r[op.src])
                pc += Op.DstSrc.length
            case .toObject:
                let op = Op.DstSrc(ins, pc)
                let a = r[op.src]
                if a.isNullish { throw try typeError("Cannot destructure '\(try describeForError(a))' as it is \(a.isNull ? "null" : "undefined").") }
                r[op.dst] = a
                pc += Op.DstSrc.length

            // MARK: Jumps
            case .jmp:
                let op = Op.Jmp(ins, pc)
                let jumped = op.offset
                pc += jumped
                if jumped <= 0 && !step && jitActive {
                    (pc, fi, fp, ins, r) = try topFrameAfter(enterJIT(fp, pc, hotness: 1))
                    data = fp.pointee.data.takeUnretainedValue()
                }
            case .jumpIfTrue:
                let op = Op.CondJump(ins, pc)
                let jumped = toBoolean(r[op.value]) ? op.offset : Op.CondJump.length
                pc += jumped
                if jumped <= 0 && !step && jitActive {
                    (pc, fi, fp, ins, r) = try topFrameAfter(enterJIT(fp, pc, hotness: 1))
                    data = fp.pointee.data.takeUnretainedValue()
                }
            case .jumpIfFalse:
                let op = Op.CondJump(ins, pc)
                let jumped = toBoolean(r[op.value]) ? Op.CondJump.length : op.offset
                pc += jumped
                if jumped <= 0 && !step && jitActive {
                    (pc, fi, fp, ins, r) = try topFrameAfter(enterJIT(fp, pc, hotness: 1))
                    data = fp.pointee.data.takeUnretainedValue()
                }
            case .jumpIfNullish:
                let op = Op.CondJump(ins, pc)
                let jumped = r[op.value].isNullish ? op.offset : Op.CondJump.length
                pc += jumped
                if jumped <= 0 && !step && jitActive {
                    (pc, fi, fp, ins, r) = try topFrameAfter(enterJIT(fp, pc, hotness: 1))
                    data = fp.pointee.data.takeUnretainedValue()
                }
            case .jumpIfNotNullish:
                let op = Op.CondJump(ins, pc)
                let jumped = r[op.value].isNullish ? Op.CondJump.length : op.offset
                pc += jumped
                if jumped <= 0 && !step && jitActive {
                    (pc, fi, fp, ins, r) = try topFrameAfter(enterJIT(fp, pc, hotness: 1))
                    data = fp.pointee.data.takeUnretainedValue()
                }
            case .jumpIfUndefined:
                let op = Op.CondJump(ins, pc)
                let jumped = r[op.value].isUndefined ? op.offset : Op.CondJump.length
                pc += jumped
                if jumped <= 0 && !step && jitActive {
                    (pc, fi, fp, ins, r) = try topFrameAfter(enterJIT(fp, pc, hotness: 1))
                    data = fp.pointee.data.takeUnretainedValue()
                }
            case .jumpIfNotUndefined:
                let op = Op.CondJump(ins, pc)
                let jumped = r[op.value].isUndefined ? Op.CondJump.length : op.offset
                pc += jumped
                if jumped <= 0 && !step && jitActive {
                    (pc, fi, fp, ins, r) = try topFrameAfter(enterJIT(fp, pc, hotness: 1))
                    data = fp.pointee.data.takeUnretainedValue()
                }
            case .jumpIfLess, .jumpIfNotLess, .jumpIfLessEq, .jumpIfNotLessEq,
                 .jumpIfGreater, .jumpIfNotGreater, .jumpIfGreaterEq, .jumpIfNotGreaterEq:
                let op = Op.CompareJump(ins, pc)
                let (base, negated) = opcode.relationalJump
                let result = try relational(base, r[op.a], r[op.b])
                let jumped = result != negated ? op.offset : Op.CompareJump.length
                pc += jumped
                if jumped <= 0 && !step && jitActive {
                    (pc, fi, fp, ins, r) = try topFrameAfter(enterJIT(fp, pc, hotness: 1))
                    data = fp.pointee.data.takeUnretainedValue()
                }
            case .jumpIfLessImm, .jumpIfNotLessImm, .jumpIfLessEqImm, .jumpIfNotLessEqImm,
                 .jumpIfGreaterImm, .jumpIfNotGreaterImm, .jumpIfGreaterEqImm, .jumpIfNotGreaterEqImm:
                let op = Op.CompareImmJump(ins, pc)
                let (base, negated) = opcode.relationalJump
                let result = try relational(base, r[op.a], Value(int32: op.imm))
                let jumped = result != negated ? op.offset : Op.CompareImmJump.length
                pc += jumped
                if jumped <= 0 && !step && jitActive {
                    (pc, fi, fp, ins, r) = try topFrameAfter(enterJIT(fp, pc, hotness: 1))
                    data = fp.pointee.data.takeUnretainedValue()
                }
            case .jumpIfStrictEq:
                let op = Op.CompareJump(ins, pc)
                let jumped = strictEquals(r[op.a], r[op.b]) ? op.offset : Op.CompareJump.length
                pc += jumped
                if jumped <= 0 && !step && jitActive {
                    (pc, fi, fp, ins, r) = try topFrameAfter(enterJIT(fp, pc, hotness: 1))
                    data = fp.pointee.data.takeUnretainedValue()
                }
            case .jumpIfStrictNotEq:
                let op = Op.CompareJump(ins, pc)
                let jumped = strictEquals(r[op.a], r[op.b]) ? Op.CompareJump.length : op.offset
                pc += jumped
                if jumped <= 0 && !step && jitActive {
                    (pc, fi, fp, ins, r) = try topFrameAfter(enterJIT(fp, pc, hotness: 1))
                    data = fp.pointee.data.takeUnretainedValue()
                }
            case .jumpIfEq:
                let op = Op.CompareJump(ins, pc)
                let jumped = try looseEquals(r[op.a], r[op.b]) ? op.offset : Op.CompareJump.length
                pc += jumped
                if jumped <= 0 && !step && jitActive {
                    (pc, fi, fp, ins, r) = try topFrameAfter(enterJIT(fp, pc, hotness: 1))
                    data = fp.pointee.data.takeUnretainedValue()
                }
            case .jumpIfNotEq:
                let op = Op.CompareJump(ins, pc)
                let jumped = try looseEquals(r[op.a], r[op.b]) ? Op.CompareJump.length : op.offset
                pc += jumped
                if jumped <= 0 && !step && jitActive {
                    (pc, fi, fp, ins, r) = try topFrameAfter(enterJIT(fp, pc, hotness: 1))
                    data = fp.pointee.data.takeUnretainedValue()
                }
            case .jumpIfStrictEqImm, .jumpIfStrictNotEqImm:
                let op = Op.CompareImmJump(ins, pc)
                // An int32 immediate equals an int32 of that value or a double equal to it.
                let a = r[op.a]
                let y = op.imm
                var equal = a.isInt32 ? a.asInt32 == y : (a.isDouble && a.asDouble == Double(y))
                if opcode == .jumpIfStrictNotEqImm { equal = !equal }
                let jumped = equal ? op.offset : Op.CompareImmJump.length
                pc += jumped
                if jumped <= 0 && !step && jitActive {
                    (pc, fi, fp, ins, r) = try topFrameAfter(enterJIT(fp, pc, hotness: 1))
                    data = fp.pointee.data.takeUnretainedValue()
                }
            case .jumpIfStrictEqConst, .jumpIfStrictNotEqConst:
                let op = Op.ConstJump(ins, pc)
                let a = r[op.a]
                var c = data.constants[op.constant]
                if c.isEmpty { c = try constantValue(data, op.constant) }
                // String constants are atoms: the same atom, or a string of other contents.
                var equal = a.bits == c.bits || (a.isCell && strictEquals(a, c))
                if opcode == .jumpIfStrictNotEqConst { equal = !equal }
                let jumped = equal ? op.offset : Op.ConstJump.length
                pc += jumped
                if jumped <= 0 && !step && jitActive {
                    (pc, fi, fp, ins, r) = try topFrameAfter(enterJIT(fp, pc, hotness: 1))
                    data = fp.pointee.data.takeUnretainedValue()
                }
            case .jumpIfNull:
                let op = Op.CondJump(ins, pc)
                let jumped = r[op.value].isNull ? op.offset : Op.CondJump.length
                pc += jumped
                if jumped <= 0 && !step && jitActive {
                    (pc, fi, fp, ins, r) = try topFrameAfter(enterJIT(fp, pc, hotness: 1))
                    data = fp.pointee.data.takeUnretainedValue()
                }
            case .jumpIfNotNull:
                let op = Op.CondJump(ins, pc)
                let jumped = r[op.value].isNull ? Op.CondJump.length : op.offset
                pc += jumped
                if jumped <= 0 && !step && jitActive {
                    (pc, fi, fp, ins, r) = try topFrameAfter(enterJIT(fp, pc, hotness: 1))
                    data = fp.pointee.data.takeUnretainedValue()
                }
            case .addImm:
                let op = Op.ArithImm(ins, pc)
                let a = r[op.src]
                let y = op.imm
                if a.isInt32 {
                    let (s, o) = a.asInt32.addingReportingOverflow(y)
                    r[op.dst] = o ? Value(Double(a.asInt32) + Double(y)) : Value(int32: s)
                } else if a.isNumber {
                    r[op.dst] = Value(a.asDouble + Double(y))
                } else {
                    r[op.dst] = try addSlow(a, Value(int32: y))
                }
                pc += Op.ArithImm.length
            case .subImm:
                let op = Op.ArithImm(ins, pc)
                let a = r[op.src]
                let y = op.imm
                if a.isInt32 {
                    let (s, o) = a.asInt32.subtractingReportingOverflow(y)
                    r[op.dst] = o ? Value(Double(a.asInt32) - Double(y)) : Value(int32: s)
                } else if a.isNumber {
                    r[op.dst] = Value(a.asDouble - Double(y))
                } else {
                    r[op.dst] = try numericBinarySlow(.sub, a, Value(int32: y))
                }
                pc += Op.ArithImm.length

            // MARK: Globals
            case .getGlobal:
                let op = Op.GetGlobal(ins, pc)
                let cache = data.caches + op.cache
                let g = JSObject(globalCell)
                if cache.pointee.holder == nil && cache.pointee.shape == g.shape && cache.pointee.epoch == protoEpoch {
                    r[op.dst] = g.slot(Int(cache.pointee.slot))
                } else {
                    r[op.dst] = try getGlobal(fp.pointee.data, op.name, cache: cache)
                }
                pc += Op.GetGlobal.length
            case .setGlobal, .setGlobalStrict:
                let op = Op.SetGlobal(ins, pc)
                try setGlobal(fp.pointee.data, op.name, r[op.value], strict: opcode == .setGlobalStrict, cache: data.caches + op.cache)
                pc += Op.SetGlobal.length
            case .typeOfGlobal:
                let op = Op.DstName(ins, pc)
                let a = try atom(data, op.name)
                if let v = try lookupGlobal(a) { r[op.dst] = try typeOf(v) } else { r[op.dst] = Value(cell: atom(static: "undefined")) }
                pc += Op.DstName.length
            case .declareGlobalVar:
                let op = Op.NameFlag(ins, pc)
                try declareGlobalVar(try atom(data, op.name), isFunction: Int(op.flag) != 0)
                pc += Op.NameFlag.length
            case .declareGlobalFunction:
                let op = Op.NameValue(ins, pc)
                try declareGlobalFunction(try atom(data, op.name), r[op.value])
                pc += Op.NameValue.length
            case .declareGlobalLexical:
                let op = Op.NameFlag(ins, pc)
                try declareGlobalLexical(try atom(data, op.name), isConst: Int(op.flag) == 1)
                pc += Op.NameFlag.length
            case .initGlobalLexical:
                let op = Op.NameValue(ins, pc)
                let a = try atom(data, op.name)
                if let i = realm.lexicalIndex[a] { realm.lexicalValues[i] = r[op.value] }
                pc += Op.NameValue.length

            // MARK: Scopes
            case .getScope:
                let op = Op.GetScope(ins, pc)
                var e = fp.pointee.env!
                for _ in 0..<Int(op.depth) { e = Environment(e).parent! }
                r[op.dst] = Environment(e).slots[Int(op.slot)]
                pc += Op.GetScope.length
            case .getScopeChecked:
                let op = Op.GetScopeChecked(ins, pc)
                var e = fp.pointee.env!
                for _ in 0..<Int(op.depth) { e = Environment(e).parent! }
                let v = Environment(e).slots[Int(op.slot)]
                if v.isEmpty { throw try tdzError(data, op.name) }
                r[op.dst] = v
                pc += Op.GetScopeChecked.length
            case .setScope, .initScope:
                let op = Op.SetScope(ins, pc)
                var e = fp.pointee.env!
                for _ in 0..<Int(op.depth) { e = Environment(e).parent! }
                Environment(e).slots[Int(op.slot)] = r[op.value]
                pc += Op.SetScope.length
            case .setScopeChecked:
                let op = Op.SetScopeChecked(ins, pc)
                var e = fp.pointee.env!
                for _ in 0..<Int(op.depth) { e = Environment(e).parent! }
                if Environment(e).slots[Int(op.slot)].isEmpty { throw try tdzError(data, op.name) }
                Environment(e).slots[Int(op.slot)] = r[op.value]
                pc += Op.SetScopeChecked.length
            case .getImport:
                let op = Op.GetImport(ins, pc)
                r[op.dst] = try importBinding(data, Int(op.index), Int(op.name))
                pc += Op.GetImport.length
            case .dynamicImport:
                let op = Op.DynamicImport(ins, pc)
                r[op.dst] = try dynamicImport(data, r[op.specifier], r[op.options])
                pc += Op.DynamicImport.length
            case .importMeta:
                let op = Op.Dst(ins, pc)
                r[op.dst] = try importMeta(data)
                pc += Op.Dst.length
            case .checkTDZ:
                let op = Op.CheckTDZ(ins, pc)
                if r[op.value].isEmpty { throw try tdzError(data, op.name) }
                pc += Op.CheckTDZ.length
            case .pushScope:
                let op = Op.PushScope(ins, pc)
                let env = try makeEnvironment(parent: fp.pointee.env, count: Int(op.count))
                if op.layout < 0xFFFE { env.layout = data.layoutWord(op.layout + 1) }
                fp.pointee.env = env.cell
                fp.pointee.envDepth += 1
                pc += Op.PushScope.length
            case .popScope:
                fp.pointee.env = Environment(fp.pointee.env!).parent
                fp.pointee.envDepth -= 1
                pc += Op.NoOperands.length
            case .copyScope:
                let old = Environment(fp.pointee.env!)
                let env = try makeEnvironment(parent: old.parent, count: old.count)
                let cur = Environment(fp.pointee.env!)
                for i in 0..<cur.count { env.slots[i] = cur.slots[i] }
                env.layout = cur.layout
                fp.pointee.env = env.cell
                pc += Op.NoOperands.length
            case .pushWith:
                let op = Op.Value(ins, pc)
                let v = r[op.value]
                if v.isNullish { throw try typeError("Cannot convert \(v.isNull ? "null" : "undefined") to object") }
                let o = try toObject(v)
                heap.pushRoot(Value(cell: o.cell))
                let env = try makeEnvironment(parent: fp.pointee.env, count: 1)
                heap.popRoots(1)
                env.slots[0] = Value(cell: o.cell)
                env.layout = Runtime.withLayout
                fp.pointee.env = env.cell
                fp.pointee.envDepth += 1
                pc += Op.Value.length
            case .getDynamic:
                let op = Op.DstName(ins, pc)
                r[op.dst] = try getDynamic(fp.pointee.env, try atom(data, op.name), strict: data.code.isStrict).0
                pc += Op.DstName.length
            case .getDynamicCallee:
                let op = Op.GetDynamicCallee(ins, pc)
                let (f, t) = try getDynamic(fp.pointee.env, try atom(data, op.name), strict: data.code.isStrict)
                r[op.function] = f
                r[op.this] = t
                pc += Op.GetDynamicCallee.length
            case .setDynamic:
                let op = Op.NameValue(ins, pc)
                try setDynamic(fp.pointee.env, try atom(data, op.name), r[op.value], strict: data.code.isStrict)
                pc += Op.NameValue.length
            case .typeOfDynamic:
                let op = Op.DstName(ins, pc)
                r[op.dst] = try typeOfDynamic(fp.pointee.env, try atom(data, op.name))
                pc += Op.DstName.length
            case .deleteDynamic:
                let op = Op.DstName(ins, pc)
                r[op.dst] = Value(try deleteDynamic(fp.pointee.env, try atom(data, op.name)))
                pc += Op.DstName.length
            case .initEvalVar:
                let op = Op.NameValue(ins, pc)
                try initEvalVar(fp.pointee.env, try atom(data, op.name), r[op.value])
                pc += Op.NameValue.length
            case .resolveRef:
                let op = Op.DstName(ins, pc)
                r[op.dst] = try resolveRef(fp.pointee.env, try atom(data, op.name))
                pc += Op.DstName.length
            case .getRef:
                let op = Op.GetRef(ins, pc)
                r[op.dst] = try getRef(r[op.ref], try atom(data, op.name), strict: data.code.isStrict)
                pc += Op.GetRef.length
            case .setRef:
                let op = Op.SetRef(ins, pc)
                try setRef(r[op.ref], try atom(data, op.name), r[op.value], strict: data.code.isStrict)
                pc += Op.SetRef.length
            case .setEvalVar:
                let op = Op.NameValue(ins, pc)
                try setEvalVar(fp.pointee.env, try atom(data, op.name), r[op.value])
                pc += Op.NameValue.length
            case .callEval:
                let op = Op.Call(ins, pc)
                let f = r[op.callee]
                let argc = Int(op.argc)
                let isEval = realm.evalFunction.map { f.isCell && f.asCell == $0.cell } ?? false
                if argc < 0 {
                    // Spread arguments: an array.
                    let arr = JSObject(r[op.args])
                    let n = Int(arr.arrayLength)
                    if isEval {
                        let x = n > 0 ? try get(arr, .index(0), receiver: Value(cell: arr.cell)) : Value.undefined
                        r[op.dst] = try performEval(x, caller: fp.pointee)
                    } else {
                        let result = try withSpreadArguments(arr) { args throws(JSException) in try callFunction(f, this: r[op.this], args) }
                        r[op.dst] = result
                    }
                } else {
                    let args = UnsafeBufferPointer(start: UnsafePointer(r + op.args), count: argc)
                    if isEval {
                        r[op.dst] = try performEval(argc > 0 ? args[0] : .undefined, caller: fp.pointee)
                    } else {
                        r[op.dst] = try callFunction(f, this: r[op.this], args)
                    }
                }
                pc += Op.Call.length
            case .throwConstAssign:
                let op = Op.ThrowConstAssign(ins, pc)
                throw try typeError("Assignment to constant variable '\(try atomString(data, op.name))'.")

            // MARK: Properties
            case .getProp:
                let op = Op.GetProp(ins, pc)
                // The cache hit inline (no call); everything else in getNamed.
                let base = r[op.object]
                let cache = data.caches + op.cache
                if base.isCell && isPastSymbolKind(base.asCell)
                    && JSObject(base).shape == cache.pointee.shape {
                    if let holder = cache.pointee.holder {
                        if cache.pointee.epoch == protoEpoch {
                            r[op.dst] = JSObject(holder).slot(Int(cache.pointee.slot))
                            pc += Op.GetProp.length
                            continue
                        }
                    } else {
                        r[op.dst] = JSObject(base).slot(Int(cache.pointee.slot))
                        pc += Op.GetProp.length
                        continue
                    }
                }
                r[op.dst] = try getNamed(base, fp.pointee.data, op.name, cache: cache)
                pc += Op.GetProp.length
            case .setProp, .setPropStrict:
                let op = Op.SetProp(ins, pc)
                let base = r[op.object]
                let cache = data.caches + op.cache
                if base.isCell && isPastSymbolKind(base.asCell)
                    && JSObject(base).shape == cache.pointee.shape && cache.pointee.newShape == nil && cache.pointee.holder == nil {
                    JSObject(base).setSlot(Int(cache.pointee.slot), r[op.value])
                    pc += Op.SetProp.length
                    continue
                }
                try setNamed(base, fp.pointee.data, op.name, r[op.value], strict: opcode == .setPropStrict, cache: cache)
                pc += Op.SetProp.length
            case .getElem:
                let op = Op.GetElem(ins, pc)
                r[op.dst] = try getElement(r[op.object], r[op.key])
                pc += Op.GetElem.length
            case .setElem, .setElemStrict:
                let op = Op.SetElem(ins, pc)
                try setElement(r[op.object], r[op.key], r[op.value], strict: opcode == .setElemStrict)
                pc += Op.SetElem.length
            case .deleteProp:
                let op = Op.DeleteProp(ins, pc)
                r[op.dst] = Value(try deleteValueProperty(r[op.object], .named(PropertyKey(cell: try atom(data, op.name))), strict: Int(op.strict) != 0))
                pc += Op.DeleteProp.length
            case .deleteElem:
                let op = Op.DeleteElem(ins, pc)
                r[op.dst] = Value(try deleteValueProperty(r[op.object], try toPropertyKey(r[op.key]), strict: Int(op.strict) != 0))
                pc += Op.DeleteElem.length
            case .defineField:
                let op = Op.DefineField(ins, pc)
                try createDataProperty(JSObject(r[op.object]), try toPropertyKey(r[op.key]), r[op.value])
                pc += Op.DefineField.length
            case .initProp:
                let op = Op.SetProp(ins, pc)
                let o = JSObject(r[op.object])
                let cache = data.caches + op.cache
                if o.shape == cache.pointee.shape && cache.pointee.holder == nil {
                    let slot = Int(cache.pointee.slot)
                    if let newShape = cache.pointee.newShape {
                        // The transition that adds the key (define: no prototype chain to guard).
                        try o.ensureSlotCapacity(slot + 1, self)
                        o.shape = newShape
                        o.setSlot(slot, r[op.value])
                        pc += Op.SetProp.length
                        continue
                    } else {
                        o.setSlot(slot, r[op.value])
                        pc += Op.SetProp.length
                        continue
                    }
                }
                try initNamed(o, fp.pointee.data, op.name, r[op.value], cache: cache)
                pc += Op.SetProp.length
            case .defineMethod:
                let op = Op.DefineAccessor(ins, pc)
                let k = try toPropertyKey(r[op.key])
                JSObject(r[op.function]).setExtraValue(2, r[op.object])   // home object
                // DefineMethodProperty: DefinePropertyOrThrow (a class's static `prototype` fails).
                if !(try defineOwnProperty(JSObject(r[op.object]), k, .data(r[op.function], Int(op.enumerable) != 0 ? .all : .hidden))) {
                    throw try typeError("Cannot redefine property: \(keyDescription(k))")
                }
                pc += Op.DefineAccessor.length
            case .defineGetter, .defineSetter:
                let op = Op.DefineAccessor(ins, pc)
                let k = try toPropertyKey(r[op.key])
                let f = r[op.function]
                try setFunctionName(JSObject(f), k, prefix: opcode == .defineGetter ? "get" : "set")
                JSObject(f).setExtraValue(2, r[op.object])   // home object
                var desc = PropertyDescriptor(enumerable: Int(op.enumerable) != 0, configurable: true)
                if opcode == .defineGetter { desc.get = f } else { desc.set = f }
                if !(try defineOwnProperty(JSObject(r[op.object]), k, desc)) {
                    throw try typeError("Cannot redefine property: \(keyDescription(k))")
                }
                pc += Op.DefineAccessor.length

            // MARK: Objects
            case .newObject:
                let op = Op.Dst(ins, pc)
                r[op.dst] = Value(cell: try newObject().cell)
                pc += Op.Dst.length
            case .newArray:
                let op = Op.NewArray(ins, pc)
                let count = Int(op.count)
                let a = try newArray(UnsafeBufferPointer(start: r + op.first, count: count))
                r[op.dst] = Value(cell: a.cell)
                pc += Op.NewArray.length
            case .arrayPush:
                let op = Op.ArrayPush(ins, pc)
                let a = JSObject(r[op.array])
                let n = Int(a.arrayLength)
                let v = r[op.value]
                if v.isEmpty { a.arrayLength = UInt32(n + 1) } else { try createDataProperty(a, .index(UInt32(n)), v) }
                pc += Op.ArrayPush.length
            case .arraySpread:
                let op = Op.ArraySpread(ins, pc)
                try spreadInto(JSObject(r[op.array]), r[op.iterable])
                pc += Op.ArraySpread.length
            case .copyDataProperties:
                let op = Op.CopyDataProperties(ins, pc)
                try copyDataProperties(JSObject(r[op.target]), r[op.source], excluding: UnsafeBufferPointer(start: r + op.excluded, count: Int(op.excludedCount)))
                pc += Op.CopyDataProperties.length
            case .setPrototypeOf:
                let op = Op.SetPrototypeOf(ins, pc)
                let p = r[op.proto]
                if isObject(p) || p.isNull { _ = try setPrototype(JSObject(r[op.object]), p) }
                pc += Op.SetPrototypeOf.length
            case .newClosure:
                let op = Op.NewClosure(ins, pc)
                r[op.dst] = try closureValue(fp, data, constant: op.code)
                pc += Op.NewClosure.length
            case .newRegExp:
                let op = Op.NewRegExp(ins, pc)
                r[op.dst] = try newRegExpLiteral(data, op.pattern, op.flags)
                pc += Op.NewRegExp.length

            // MARK: Calls
            case .call, .callMethod:
                let op = Op.Call(ins, pc)
                let f = r[op.callee]
                let argc = Int(op.argc)
                let args = r + op.args
                let t = op.this   // -1: undefined (a plain call)
                let thisValue = t < 0 ? Value.undefined : r[t]
                // A bytecode callee (directly, or through f.call / f.apply) gets its frame at
                // the caller's top and runs in this loop; arguments are copied in.
                let direct = f.isCell && header(f.asCell).pointee.kind == .function
                    ? (JSObject(f), thisValue, UnsafeBufferPointer(start: UnsafePointer(args), count: argc))
                    : forwardedCall(f, this: thisValue, args: args, count: argc)
                if let (callee, calleeThis, argBuf) = direct,
                   try pushFrame(function: callee, this: calleeThis, args: argBuf, base: fp.pointee.top,
                                 returnRegister: op.dst, newTarget: .undefined) {
                    fi = frames.count - 1
                    fp = frames.pointer(fi)
                    data = fp.pointee.data.takeUnretainedValue()
                    ins = data.instructions
                    pc = 0
                    r = fp.pointee.base
                    if jitActive {
                        (pc, fi, fp, ins, r) = try topFrameAfter(enterJIT(fp, pc, hotness: 1))
                        data = fp.pointee.data.takeUnretainedValue()
                    }
                    continue
                }
                let result = try callFunction(f, this: thisValue, UnsafeBufferPointer(start: UnsafePointer(args), count: argc))
                r[op.dst] = result
                pc += Op.Call.length
            case .callSpread:
                let op = Op.CallSpread(ins, pc)
                let f = r[op.callee]
                let arr = JSObject(r[op.array])
                let t = op.this
                let thisValue = t < 0 ? Value.undefined : r[t]
                let result = try withSpreadArguments(arr) { args throws(JSException) in try callFunction(f, this: thisValue, args) }
                r[op.dst] = result
                pc += Op.CallSpread.length
            case .construct:
                let op = Op.Construct(ins, pc)
                let f = r[op.callee]
                let args = UnsafeBufferPointer(start: UnsafePointer(r + op.args), count: Int(op.argc))
                let newTarget = r[op.newTarget]
                if f.isCell && header(f.asCell).pointee.kind == .function && JSObject(f).flags & ObjectFlags.constructor != 0 {
                    let fo = JSObject(f)
                    unowned(unsafe) let calleeData = functionCodeData(fo)
                    unowned(unsafe) let code = calleeData.code
                    // (A constructor of another realm: `construct` enters its realm.)
                    if !code.isDefaultDerivedConstructor && calleeData.realmKey == realmKey {
                        let thisValue = try constructThis(fo, code.kind, newTarget: newTarget)
                        try pushFrame(function: fo, this: thisValue, args: args, base: fp.pointee.top,
                                      returnRegister: op.dst, newTarget: newTarget)
                        fi = frames.count - 1
                        fp = frames.pointer(fi)
                        data = fp.pointee.data.takeUnretainedValue()
                        ins = data.instructions
                        pc = 0
                        r = fp.pointee.base
                        if jitActive {
                            (pc, fi, fp, ins, r) = try topFrameAfter(enterJIT(fp, pc, hotness: 1))
                            data = fp.pointee.data.takeUnretainedValue()
                        }
                        continue
                    }
                }
                r[op.dst] = try construct(f, args, newTarget: newTarget)
                pc += Op.Construct.length
            case .superCall, .superCallSpread:
                // In an arrow, super() is the enclosing derived constructor's (context slot 3).
                let arrowBox = arrowContext(of: fp.pointee)
                let callee = JSObject(arrowBox.map { Environment($0).slots[3] } ?? fp.pointee.callee)
                let parent = callee.prototype
                guard isObject(parent), JSObject(parent).flags & ObjectFlags.constructor != 0 else {
                    throw try typeError("Super constructor \(try describeForError(parent)) of anonymous class is not a constructor")
                }
                let result: Value
                let dst: Int
                if opcode == .superCall {
                    let op = Op.SuperCall(ins, pc)
                    dst = op.dst
                    result = try construct(parent, UnsafeBufferPointer(start: UnsafePointer(r + op.args), count: Int(op.argc)), newTarget: fp.pointee.newTarget)
                } else {
                    let op = Op.SuperCallSpread(ins, pc)
                    dst = op.dst
                    let arr = JSObject(r[op.array])
                    let nt = fp.pointee.newTarget
                    result = try withSpreadArguments(arr) { args throws(JSException) in try construct(parent, args, newTarget: nt) }
                }
                if !boundThis(fp).isEmpty { throw try referenceError("Super constructor may only be called once") }
                fp.pointee.this = result
                if let box = fp.pointee.thisBox ?? arrowBox { Environment(box).slots[0] = result }
                try initializeFields(callee, result)
                r[dst] = result
                pc += opcode == .superCall ? Op.SuperCall.length : Op.SuperCallSpread.length
            case .getSuperBase:
                let op = Op.Dst(ins, pc)
                r[op.dst] = try superBase(fp.pointee.home)
                pc += Op.Dst.length
            case .getSuperValue:
                let op = Op.GetSuperValue(ins, pc)
                let base = r[op.base]
                if !isObject(base) { throw try typeError("Cannot read properties of \(base.isNull ? "null" : "undefined")") }
                let kv = try unaryOperation(.toPropertyKey, r[op.key])
                r[op.key] = kv
                let k = try toPropertyKey(kv)
                let thisValue = boundThis(fp)
                if thisValue.isEmpty { throw try referenceError("Must call super constructor in derived class before accessing 'this'") }
                r[op.dst] = try get(JSObject(base), k, receiver: thisValue)
                pc += Op.GetSuperValue.length
            case .setSuperValue:
                let op = Op.SetSuperValue(ins, pc)
                try setSuperValue(r[op.base], r[op.key], r[op.value], this: boundThis(fp), strict: data.code.isStrict)
                pc += Op.SetSuperValue.length
            case .newClass:
                let op = Op.NewClass(ins, pc)
                guard case .function(let code) = data.code.constants[op.code] else { fatalError("bad class constant") }
                let (ctor, proto) = try makeClass(code, heritage: op.heritage >= 0 ? r[op.heritage] : nil, env: fp.pointee.env, frame: fp.pointee)
                r[op.dst] = ctor
                r[op.dst + 1] = proto
                pc += Op.NewClass.length
            case .setClassFields:
                let op = Op.SetClassFields(ins, pc)
                let ctor = JSObject(r[op.constructor])
                let initializer = JSObject(r[op.initializer])
                initializer.setWord(2, ctor.word(2))   // home object: the prototype
                try defineOwnProperty(ctor, .named(realm.classFieldsKey!), .data(r[op.initializer], []))
                pc += Op.SetClassFields.length
            case .ret, .retUndefined:
                let result = opcode == .ret ? r[Op.Value(ins, pc).value] : .undefined
                var value = result
                if fp.pointee.isConstruct && !isObject(result) {
                    if data.code.kind == .derivedConstructor && !result.isUndefined {
                        throw try typeError("Derived constructors may only return object or undefined")
                    }
                    value = boundThis(fp)
                    if value.isEmpty {
                        throw try referenceError("Must call super constructor in derived class before accessing 'this' or returning from derived constructor")
                    }
                }
                let returnRegister = fp.pointee.returnRegister
                frames.removeLast()
                if fi == entryDepth || returnRegister < 0 {
                    return value
                }
                fi -= 1
                fp = frames.pointer(fi)
                data = fp.pointee.data.takeUnretainedValue()
                ins = data.instructions
                pc = fp.pointee.pc + Opcode.callInstructionLength
                r = fp.pointee.base
                r[returnRegister] = value
                // Back into a compiled caller: its machine code continues after the call.
                if let entry = data.jitEntry {
                    (pc, fi, fp, ins, r) = try topFrameAfter(runJIT(entry, fp, pc))
                    data = fp.pointee.data.takeUnretainedValue()
                }

            // MARK: Exceptions
            case .throw:
                let op = Op.Value(ins, pc)
                throw JSException(value: r[op.value])
            case .throwTypeError:
                let op = Op.ThrowTypeError(ins, pc)
                throw try typeError(try constantString(data, op.message))
            case .throwReferenceError:
                let op = Op.ThrowReferenceError(ins, pc)
                throw try referenceError(try constantString(data, op.message))
            case .loadException:
                let op = Op.Dst(ins, pc)
                r[op.dst] = fp.pointee.exception
                fp.pointee.exception = .undefined
                pc += Op.Dst.length

            // MARK: Iteration
            case .getIterator, .getAsyncIterator:
                let op = Op.Iterator(ins, pc)
                let iterable = r[op.iterable]
                let rec = opcode == .getIterator ? try getIterator(iterable) : try getAsyncIterator(iterable)
                let d = r + op.record
                d[0] = rec.iterator
                d[1] = rec.next
                d[2] = .false
                pc += Op.Iterator.length
            case .iteratorNext:
                let op = Op.IteratorStep(ins, pc)
                if let v = try iteratorStepRegisters(r + op.record) {
                    r[op.dst] = v
                    pc += Op.IteratorStep.length
                } else {
                    pc += op.done
                }
            case .iteratorClose:
                let op = Op.IteratorClose(ins, pc)
                let rec = r + op.record
                if rec[2].bits != Value.true.bits {
                    rec[2] = .true
                    let record = IteratorRecord(iterator: rec[0], next: rec[1], done: false)
                    if Int(op.mode) == 1 { iteratorCloseOnThrow(record) } else { try iteratorClose(record) }
                }
                pc += Op.IteratorClose.length
            case .iteratorValue:
                let op = Op.IteratorValue(ins, pc)
                let a = try newArray()
                r[op.dst] = Value(cell: a.cell)
                var n: UInt32 = 0
                while let v = try iteratorStepRegisters(r + op.record) {
                    try createDataProperty(a, .index(n), v)
                    n += 1
                }
                pc += Op.IteratorValue.length
            case .constructSpread:
                let op = Op.ConstructSpread(ins, pc)
                let f = r[op.callee]
                let arr = JSObject(r[op.array])
                let newTarget = r[op.newTarget]
                let result = try withSpreadArguments(arr) { args throws(JSException) in try construct(f, args, newTarget: newTarget) }
                r[op.dst] = result
                pc += Op.ConstructSpread.length

            // MARK: Private names
            case .newPrivateName:
                let op = Op.NewPrivateName(ins, pc)
                r[op.dst] = try newPrivateName(try constantValue(data, op.description))
                pc += Op.NewPrivateName.length
            case .getPrivate:
                let op = Op.GetPrivate(ins, pc)
                r[op.dst] = try getPrivate(r[op.object], r[op.name])
                pc += Op.GetPrivate.length
            case .setPrivate:
                let op = Op.SetPrivate(ins, pc)
                try setPrivate(r[op.object], r[op.name], r[op.value])
                pc += Op.SetPrivate.length
            case .hasPrivate:
                let op = Op.HasPrivate(ins, pc)
                r[op.dst] = Value(try hasPrivate(r[op.object], r[op.name]))
                pc += Op.HasPrivate.length
            case .definePrivate:
                let op = Op.DefinePrivate(ins, pc)
                try definePrivate(r[op.object], r[op.name], r[op.value], kind: Int(op.kind))
                pc += Op.DefinePrivate.length
            case .setHomeObject:
                let op = Op.SetHomeObject(ins, pc)
                JSObject(r[op.function]).setExtraValue(2, r[op.home])
                pc += Op.SetHomeObject.length

            // MARK: Generators
            case .generatorStart:
                let op = Op.GeneratorStart(ins, pc)
                var gen = try makeGeneratorObject(fp)
                r[op.generator] = gen
                try saveGeneratorFrame(JSObject(gen), fp, pc: pc + Op.GeneratorStart.length, resumeRegister: -1)
                let returnRegister = fp.pointee.returnRegister
                let isAsync = data.code.isAsync && !data.code.isGenerator
                frames.removeLast()
                if isAsync {
                    // Run the body to its first await; the call's value is the promise.
                    gen = try startAsyncFunction(JSObject(gen))
                }
                if fi == entryDepth || returnRegister < 0 { return gen }
                fi -= 1
                fp = frames.pointer(fi)
                data = fp.pointee.data.takeUnretainedValue()
                ins = data.instructions
                pc = fp.pointee.pc + Opcode.callInstructionLength
                r = fp.pointee.base
                r[returnRegister] = gen
                if let entry = data.jitEntry {
                    (pc, fi, fp, ins, r) = try topFrameAfter(runJIT(entry, fp, pc))
                    data = fp.pointee.data.takeUnretainedValue()
                }
            case .yield, .yieldDelegate:
                let op = Op.Suspend(ins, pc)
                let gen = JSObject(r[op.generator])
                try saveGeneratorFrame(gen, fp, pc: pc + Op.Suspend.length, resumeRegister: op.pair)
                setGeneratorState(gen, .suspendedYield, raw: opcode == .yieldDelegate)
                let value = r[op.value]
                frames.removeLast()
                return value
            case .await:
                let op = Op.Suspend(ins, pc)
                let gen = JSObject(r[op.generator])
                try saveGeneratorFrame(gen, fp, pc: pc + Op.Suspend.length, resumeRegister: op.pair)
                setGeneratorState(gen, .suspendedYield, awaiting: true)
                let value = r[op.value]
                frames.removeLast()
                heap.pushRoot(value)
                defer { heap.popRoots(1) }
                try awaitValue(gen, value)
                return .undefined
            case .iteratorDone:
                let op = Op.IteratorDone(ins, pc)
                if try delegateStep(r + op.pair, r + op.record) { pc += op.done } else { pc += Op.IteratorDone.length }
            case .asyncIteratorResult:
                let op = Op.AsyncIteratorResult(ins, pc)
                let res = r[op.result]
                guard isObject(res) else { throw try typeError("Iterator result \(try describeForError(res)) is not an object") }
                if toBoolean(try get(JSObject(res), key(static: "done"), receiver: res)) {
                    pc += op.done
                } else {
                    r[op.dst] = try get(JSObject(res), key(static: "value"), receiver: res)
                    pc += Op.AsyncIteratorResult.length
                }
            case .asyncIteratorReturn:
                let op = Op.AsyncIteratorReturn(ins, pc)
                let rec = r + op.record
                if let ret = try getMethod(rec[0], key(static: "return")) {
                    r[op.dst] = try call(ret, this: rec[0])
                    pc += Op.AsyncIteratorReturn.length
                } else {
                    pc += op.noReturn
                }
            case .asyncDelegateCall:
                let op = Op.AsyncDelegateCall(ins, pc)
                if let v = try asyncDelegateCall(r + op.pair, r + op.record) {
                    r[op.dst] = v
                    pc += Op.AsyncDelegateCall.length
                } else {
                    pc += op.noMethod
                }
            case .asyncDelegateResult:
                let op = Op.AsyncDelegateResult(ins, pc)
                if try asyncDelegateResult(r + op.pair, r[op.result]) { pc += op.done } else { pc += Op.AsyncDelegateResult.length }
            case .throwIfNotObject:
                let op = Op.Value(ins, pc)
                if !isObject(r[op.value]) { throw try typeError("Iterator result \(try describeForError(r[op.value])) is not an object") }
                pc += Op.Value.length

            // MARK: for-in
            case .forInPrepare:
                let op = Op.ForInPrepare(ins, pc)
                r[op.dst] = try forInIterator(r[op.object])
                pc += Op.ForInPrepare.length
            case .forInNext:
                let op = Op.ForInNext(ins, pc)
                if let k = try forInNext(r[op.iterator]) {
                    r[op.dst] = k
                    pc += Op.ForInNext.length
                } else {
                    pc += op.exit
                }

            // MARK: Arguments
            case .createArguments, .createMappedArguments:
                let op = Op.Arguments(ins, pc)
                r[op.dst] = try argumentsValue(fp, data, strict: opcode == .createArguments)
                pc += Op.Arguments.length
            case .createRest:
                let op = Op.CreateRest(ins, pc)
                let f = fp.pointee
                let p = data.code.parameterCount
                let start = Int(op.skip)
                let n = max(0, f.argc - start)
                let a = try newArray(capacity: n)
                for i in 0..<n {
                    let index = start + i
                    a.elements![i] = index < p ? f.base[index] : f.base[data.code.registerCount + index - p]
                }
                a.elementsLength = n
                a.arrayLength = UInt32(n)
                r[op.dst] = Value(cell: a.cell)
                pc += Op.CreateRest.length
            case .addDisposable:
                let op = Op.AddDisposable(ins, pc)
                try addDisposableResource(r[op.list], r[op.value], async: op.hint != 0)
                pc += Op.AddDisposable.length
            case .disposeResources:
                let op = Op.DisposeResources(ins, pc)
                try disposeUsingScope(r[op.list], kind: r[op.kind], value: r[op.value])
                pc += Op.DisposeResources.length
            case .disposeResourcesAsync:
                let op = Op.DisposeResourcesAsync(ins, pc)
                r[op.dst] = try disposeUsingScopeAsync(r[op.list], kind: r[op.kind], value: r[op.value])
                pc += Op.DisposeResourcesAsync.length
            case .debugger, .nop:
                pc += Op.NoOperands.length
            }
        }
    }
}

#if OPCODE_STATS
/// Dynamic opcode counts (a build with -DOPCODE_STATS; printed to stderr at exit).
enum OpcodeStats {
    nonisolated(unsafe) static var counts: [Int] = {
        atexit {
            let total = OpcodeStats.counts.reduce(0, +)
            var rows: [(Int, Int)] = OpcodeStats.counts.enumerated().map { ($0.offset, $0.element) }
            rows.sort { $0.1 > $1.1 }
            for (op, n) in rows.prefix(40) where n > 0 {
                let name = Opcode(rawValue: UInt8(op)).map { "\($0)" } ?? "?"
                let pct = Double(n) * 100 / Double(max(total, 1))
                print("\(name) \(n) \((pct * 10).rounded() / 10)%")
            }
            print("total \(total)")
        }
        return Array(repeating: 0, count: 256)
    }()
}
#endif
