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
        unowned(unsafe) let realm = self.realm!
        let thisArg = argc > 0 ? args[0] : .undefined
        if f.asCell == realm.functionCall?.cell {
            let rest = argc > 1 ? UnsafeBufferPointer(start: UnsafePointer(args + 1), count: argc - 1) : UnsafeBufferPointer(start: nil, count: 0)
            return (JSObject(thisValue), thisArg, rest)
        }
        if f.asCell == realm.functionApply?.cell {
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

    // swiftlint:disable:next function_body_length cyclomatic_complexity
    func runLoop(entryDepth: Int) throws(JSException) -> Value {
        var fi = frames.count - 1
        var fp = frames.pointer(fi)
        // CodeData objects live as long as the runtime (allCodeData): no ARC in the loop.
        unowned(unsafe) var data = fp.pointee.data.takeUnretainedValue()
        var ins = data.instructions
        var pc = fp.pointee.pc
        var r = fp.pointee.base

        while true {
            fp.pointee.pc = pc
            let opcode = unsafeBitCast(UInt8(truncatingIfNeeded: ins[pc]), to: Opcode.self)
            #if OPCODE_STATS
            OpcodeStats.counts[Int(opcode.rawValue)] += 1
            #endif
            switch opcode {
            case .mov:
                r[Int(ins[pc + 1])] = r[Int(ins[pc + 2])]
                pc += 3
            case .loadConst:
                let c = data.constants[Int(ins[pc + 2])]
                r[Int(ins[pc + 1])] = c.isEmpty ? try constantValue(data, Int(ins[pc + 2])) : c
                pc += 3
            case .loadInt:
                r[Int(ins[pc + 1])] = Value(int32: ins[pc + 2])
                pc += 3
            case .loadUndefined: r[Int(ins[pc + 1])] = .undefined; pc += 2
            case .loadNull: r[Int(ins[pc + 1])] = .null; pc += 2
            case .loadTrue: r[Int(ins[pc + 1])] = .true; pc += 2
            case .loadFalse: r[Int(ins[pc + 1])] = .false; pc += 2
            case .loadEmpty: r[Int(ins[pc + 1])] = .empty; pc += 2
            case .loadThis:
                let t = boundThis(fp)
                if t.isEmpty { throw try referenceError("Must call super constructor in derived class before accessing 'this'") }
                r[Int(ins[pc + 1])] = t
                pc += 2
            case .loadNewTarget: r[Int(ins[pc + 1])] = fp.pointee.newTarget; pc += 2
            case .loadCallee: r[Int(ins[pc + 1])] = fp.pointee.callee; pc += 2

            // MARK: Arithmetic
            case .add:
                let a = r[Int(ins[pc + 2])], b = r[Int(ins[pc + 3])]
                if a.isInt32 && b.isInt32 {
                    let (s, o) = a.asInt32.addingReportingOverflow(b.asInt32)
                    r[Int(ins[pc + 1])] = o ? Value(Double(a.asInt32) + Double(b.asInt32)) : Value(int32: s)
                } else if a.isNumber && b.isNumber {
                    r[Int(ins[pc + 1])] = Value(a.asNumber + b.asNumber)
                } else {
                    r[Int(ins[pc + 1])] = try addSlow(a, b)
                }
                pc += 4
            case .sub:
                let a = r[Int(ins[pc + 2])], b = r[Int(ins[pc + 3])]
                if a.isInt32 && b.isInt32 {
                    let (s, o) = a.asInt32.subtractingReportingOverflow(b.asInt32)
                    r[Int(ins[pc + 1])] = o ? Value(Double(a.asInt32) - Double(b.asInt32)) : Value(int32: s)
                } else if a.isNumber && b.isNumber {
                    r[Int(ins[pc + 1])] = Value(a.asNumber - b.asNumber)
                } else {
                    r[Int(ins[pc + 1])] = Value(try toNumber(a) - toNumber(b))
                }
                pc += 4
            case .mul:
                let a = r[Int(ins[pc + 2])], b = r[Int(ins[pc + 3])]
                if a.isInt32 && b.isInt32 {
                    let (m, o) = a.asInt32.multipliedReportingOverflow(by: b.asInt32)
                    if !o && m != 0 { r[Int(ins[pc + 1])] = Value(int32: m) } else { r[Int(ins[pc + 1])] = Value(Double(a.asInt32) * Double(b.asInt32)) }
                } else if a.isNumber && b.isNumber {
                    r[Int(ins[pc + 1])] = Value(a.asNumber * b.asNumber)
                } else {
                    r[Int(ins[pc + 1])] = Value(try toNumber(a) * toNumber(b))
                }
                pc += 4
            case .div:
                let a = r[Int(ins[pc + 2])], b = r[Int(ins[pc + 3])]
                r[Int(ins[pc + 1])] = a.isNumber && b.isNumber ? Value(a.asNumber / b.asNumber) : Value(try toNumber(a) / toNumber(b))
                pc += 4
            case .mod:
                let a = r[Int(ins[pc + 2])], b = r[Int(ins[pc + 3])]
                if a.isInt32 && b.isInt32 && a.asInt32 >= 0 && b.asInt32 > 0 {
                    r[Int(ins[pc + 1])] = Value(int32: a.asInt32 % b.asInt32)
                } else {
                    let x = try toNumber(a), y = try toNumber(b)
                    r[Int(ins[pc + 1])] = Value(jsRemainder(x, y))
                }
                pc += 4
            case .exp:
                let x = try toNumber(r[Int(ins[pc + 2])]), y = try toNumber(r[Int(ins[pc + 3])])
                r[Int(ins[pc + 1])] = Value(jsPow(x, y))
                pc += 4
            case .bitAnd, .bitOr, .bitXor, .shl, .sar, .shr:
                let a = r[Int(ins[pc + 2])], b = r[Int(ins[pc + 3])]
                let x = a.isInt32 ? a.asInt32 : try toInt32(a)
                let y = b.isInt32 ? b.asInt32 : try toInt32(b)
                switch opcode {
                case .bitAnd: r[Int(ins[pc + 1])] = Value(int32: x & y)
                case .bitOr: r[Int(ins[pc + 1])] = Value(int32: x | y)
                case .bitXor: r[Int(ins[pc + 1])] = Value(int32: x ^ y)
                case .shl: r[Int(ins[pc + 1])] = Value(int32: x << (y & 31))
                case .sar: r[Int(ins[pc + 1])] = Value(int32: x >> (y & 31))
                default: r[Int(ins[pc + 1])] = Value(Double(UInt32(bitPattern: x) >> UInt32(y & 31)))
                }
                pc += 4

            // MARK: Comparison
            case .eq: r[Int(ins[pc + 1])] = Value(try looseEquals(r[Int(ins[pc + 2])], r[Int(ins[pc + 3])])); pc += 4
            case .ne: r[Int(ins[pc + 1])] = Value(!(try looseEquals(r[Int(ins[pc + 2])], r[Int(ins[pc + 3])]))); pc += 4
            case .strictEq: r[Int(ins[pc + 1])] = Value(strictEquals(r[Int(ins[pc + 2])], r[Int(ins[pc + 3])])); pc += 4
            case .strictNe: r[Int(ins[pc + 1])] = Value(!strictEquals(r[Int(ins[pc + 2])], r[Int(ins[pc + 3])])); pc += 4
            case .lt, .le, .gt, .ge:
                r[Int(ins[pc + 1])] = Value(try relational(opcode, r[Int(ins[pc + 2])], r[Int(ins[pc + 3])]))
                pc += 4
            case .instanceOf: r[Int(ins[pc + 1])] = Value(try instanceOf(r[Int(ins[pc + 2])], r[Int(ins[pc + 3])])); pc += 4
            case .in:
                let o = r[Int(ins[pc + 3])]
                if !isObject(o) { throw try typeError("Cannot use 'in' operator to search for a key in \(try describeForError(o))") }
                r[Int(ins[pc + 1])] = Value(try hasProperty(JSObject(o), try toPropertyKey(r[Int(ins[pc + 2])])))
                pc += 4

            // MARK: Unary
            case .neg:
                let a = r[Int(ins[pc + 2])]
                if a.isInt32 && a.asInt32 != 0 && a.asInt32 != Int32.min { r[Int(ins[pc + 1])] = Value(int32: -a.asInt32) }
                else { r[Int(ins[pc + 1])] = Value(-(try toNumber(a))) }
                pc += 3
            case .plus, .toNumeric:
                let a = r[Int(ins[pc + 2])]
                r[Int(ins[pc + 1])] = a.isNumber ? a : Value(try toNumber(a))
                pc += 3
            case .not: r[Int(ins[pc + 1])] = Value(!toBoolean(r[Int(ins[pc + 2])])); pc += 3
            case .bitNot:
                let a = r[Int(ins[pc + 2])]
                r[Int(ins[pc + 1])] = Value(int32: ~(a.isInt32 ? a.asInt32 : try toInt32(a)))
                pc += 3
            case .typeOf: r[Int(ins[pc + 1])] = try typeOf(r[Int(ins[pc + 2])]); pc += 3
            case .inc, .dec:
                let a = r[Int(ins[pc + 2])]
                let d: Int32 = opcode == .inc ? 1 : -1
                if a.isInt32, case (let s, false) = a.asInt32.addingReportingOverflow(d) { r[Int(ins[pc + 1])] = Value(int32: s) }
                else { r[Int(ins[pc + 1])] = Value(try toNumber(a) + Double(d)) }
                pc += 3
            case .toPropertyKey:
                let a = r[Int(ins[pc + 2])]
                r[Int(ins[pc + 1])] = (isString(a) || isSymbol(a) || a.isNumber) ? a : try toPrimitive(a, .string)
                if !isString(r[Int(ins[pc + 1])]) && !isSymbol(r[Int(ins[pc + 1])]) && !r[Int(ins[pc + 1])].isNumber { r[Int(ins[pc + 1])] = try toString(r[Int(ins[pc + 1])]) }
                pc += 3
            case .toString: r[Int(ins[pc + 1])] = try toString(r[Int(ins[pc + 2])]); pc += 3
            case .toObject:
                let a = r[Int(ins[pc + 2])]
                if a.isNullish { throw try typeError("Cannot destructure '\(try describeForError(a))' as it is \(a.isNull ? "null" : "undefined").") }
                r[Int(ins[pc + 1])] = a
                pc += 3

            // MARK: Jumps
            case .jmp:
                pc += Int(ins[pc + 1])
            case .jumpIfTrue:
                pc += toBoolean(r[Int(ins[pc + 1])]) ? Int(ins[pc + 2]) : 3
            case .jumpIfFalse:
                pc += toBoolean(r[Int(ins[pc + 1])]) ? 3 : Int(ins[pc + 2])
            case .jumpIfNullish:
                pc += r[Int(ins[pc + 1])].isNullish ? Int(ins[pc + 2]) : 3
            case .jumpIfNotNullish:
                pc += r[Int(ins[pc + 1])].isNullish ? 3 : Int(ins[pc + 2])
            case .jumpIfUndefined:
                pc += r[Int(ins[pc + 1])].isUndefined ? Int(ins[pc + 2]) : 3
            case .jumpIfNotUndefined:
                pc += r[Int(ins[pc + 1])].isUndefined ? 3 : Int(ins[pc + 2])
            case .jumpIfLess, .jumpIfNotLess, .jumpIfLessEq, .jumpIfNotLessEq,
                 .jumpIfGreater, .jumpIfNotGreater, .jumpIfGreaterEq, .jumpIfNotGreaterEq:
                let (base, negated) = opcode.relationalJump
                let result = try relational(base, r[Int(ins[pc + 1])], r[Int(ins[pc + 2])])
                pc += result != negated ? Int(ins[pc + 3]) : 4
            case .jumpIfLessImm, .jumpIfNotLessImm, .jumpIfLessEqImm, .jumpIfNotLessEqImm,
                 .jumpIfGreaterImm, .jumpIfNotGreaterImm, .jumpIfGreaterEqImm, .jumpIfNotGreaterEqImm:
                let (base, negated) = opcode.relationalJump
                let result = try relational(base, r[Int(ins[pc + 1])], Value(int32: ins[pc + 2]))
                pc += result != negated ? Int(ins[pc + 3]) : 4
            case .jumpIfStrictEq:
                pc += strictEquals(r[Int(ins[pc + 1])], r[Int(ins[pc + 2])]) ? Int(ins[pc + 3]) : 4
            case .jumpIfStrictNotEq:
                pc += strictEquals(r[Int(ins[pc + 1])], r[Int(ins[pc + 2])]) ? 4 : Int(ins[pc + 3])
            case .jumpIfEq:
                pc += try looseEquals(r[Int(ins[pc + 1])], r[Int(ins[pc + 2])]) ? Int(ins[pc + 3]) : 4
            case .jumpIfNotEq:
                pc += try looseEquals(r[Int(ins[pc + 1])], r[Int(ins[pc + 2])]) ? 4 : Int(ins[pc + 3])
            case .jumpIfStrictEqImm, .jumpIfStrictNotEqImm:
                // An int32 immediate equals an int32 of that value or a double equal to it.
                let a = r[Int(ins[pc + 1])]
                let y = ins[pc + 2]
                var equal = a.isInt32 ? a.asInt32 == y : (a.isDouble && a.asDouble == Double(y))
                if opcode == .jumpIfStrictNotEqImm { equal = !equal }
                pc += equal ? Int(ins[pc + 3]) : 4
            case .jumpIfStrictEqConst, .jumpIfStrictNotEqConst:
                let a = r[Int(ins[pc + 1])]
                var c = data.constants[Int(ins[pc + 2])]
                if c.isEmpty { c = try constantValue(data, Int(ins[pc + 2])) }
                // String constants are atoms: the same atom, or a string of other contents.
                var equal = a.bits == c.bits || (a.isCell && strictEquals(a, c))
                if opcode == .jumpIfStrictNotEqConst { equal = !equal }
                pc += equal ? Int(ins[pc + 3]) : 4
            case .jumpIfNull:
                pc += r[Int(ins[pc + 1])].isNull ? Int(ins[pc + 2]) : 3
            case .jumpIfNotNull:
                pc += r[Int(ins[pc + 1])].isNull ? 3 : Int(ins[pc + 2])
            case .addImm:
                let a = r[Int(ins[pc + 2])]
                let y = ins[pc + 3]
                if a.isInt32 {
                    let (s, o) = a.asInt32.addingReportingOverflow(y)
                    r[Int(ins[pc + 1])] = o ? Value(Double(a.asInt32) + Double(y)) : Value(int32: s)
                } else if a.isNumber {
                    r[Int(ins[pc + 1])] = Value(a.asDouble + Double(y))
                } else {
                    r[Int(ins[pc + 1])] = try addSlow(a, Value(int32: y))
                }
                pc += 4
            case .subImm:
                let a = r[Int(ins[pc + 2])]
                let y = ins[pc + 3]
                if a.isInt32 {
                    let (s, o) = a.asInt32.subtractingReportingOverflow(y)
                    r[Int(ins[pc + 1])] = o ? Value(Double(a.asInt32) - Double(y)) : Value(int32: s)
                } else if a.isNumber {
                    r[Int(ins[pc + 1])] = Value(a.asDouble - Double(y))
                } else {
                    r[Int(ins[pc + 1])] = Value(try toNumber(a) - Double(y))
                }
                pc += 4
            case .loopHint:
                pc += 2

            // MARK: Globals
            case .getGlobal:
                let cache = data.caches + Int(ins[pc + 3])
                unowned(unsafe) let realm = self.realm!
                let g = realm.global!
                if cache.pointee.holder == nil && cache.pointee.shape == g.shape && cache.pointee.epoch == protoEpoch {
                    r[Int(ins[pc + 1])] = g.slot(Int(cache.pointee.slot))
                } else {
                    r[Int(ins[pc + 1])] = try getGlobal(fp.pointee.data, Int(ins[pc + 2]), cache: cache)
                }
                pc += 4
            case .setGlobal, .setGlobalStrict:
                try setGlobal(fp.pointee.data, Int(ins[pc + 1]), r[Int(ins[pc + 2])], strict: opcode == .setGlobalStrict, cache: data.caches + Int(ins[pc + 3]))
                pc += 4
            case .typeOfGlobal:
                let a = try atom(data, Int(ins[pc + 2]))
                if let v = try lookupGlobal(a) { r[Int(ins[pc + 1])] = try typeOf(v) } else { r[Int(ins[pc + 1])] = Value(cell: atom(static: "undefined")) }
                pc += 3
            case .declareGlobalVar:
                try declareGlobalVar(try atom(data, Int(ins[pc + 1])), isFunction: Int(ins[pc + 2]) != 0)
                pc += 3
            case .declareGlobalFunction:
                try declareGlobalFunction(try atom(data, Int(ins[pc + 1])), r[Int(ins[pc + 2])])
                pc += 3
            case .declareGlobalLexical:
                try declareGlobalLexical(try atom(data, Int(ins[pc + 1])), isConst: Int(ins[pc + 2]) == 1)
                pc += 3
            case .initGlobalLexical:
                let a = try atom(data, Int(ins[pc + 1]))
                if let i = realm.lexicalIndex[a] { realm.lexicalValues[i] = r[Int(ins[pc + 2])] }
                pc += 3

            // MARK: Scopes
            case .getScope:
                var e = fp.pointee.env!
                for _ in 0..<Int(ins[pc + 2]) { e = Environment(e).parent! }
                r[Int(ins[pc + 1])] = Environment(e).slots[Int(ins[pc + 3])]
                pc += 4
            case .getScopeChecked:
                var e = fp.pointee.env!
                for _ in 0..<Int(ins[pc + 2]) { e = Environment(e).parent! }
                let v = Environment(e).slots[Int(ins[pc + 3])]
                if v.isEmpty { throw try tdzError(data, Int(ins[pc + 4])) }
                r[Int(ins[pc + 1])] = v
                pc += 5
            case .setScope, .initScope:
                var e = fp.pointee.env!
                for _ in 0..<Int(ins[pc + 1]) { e = Environment(e).parent! }
                Environment(e).slots[Int(ins[pc + 2])] = r[Int(ins[pc + 3])]
                pc += 4
            case .setScopeChecked:
                var e = fp.pointee.env!
                for _ in 0..<Int(ins[pc + 1]) { e = Environment(e).parent! }
                if Environment(e).slots[Int(ins[pc + 2])].isEmpty { throw try tdzError(data, Int(ins[pc + 4])) }
                Environment(e).slots[Int(ins[pc + 2])] = r[Int(ins[pc + 3])]
                pc += 5
            case .checkTDZ:
                if r[Int(ins[pc + 1])].isEmpty { throw try tdzError(data, Int(ins[pc + 2])) }
                pc += 3
            case .pushScope:
                let env = try makeEnvironment(parent: fp.pointee.env, count: Int(ins[pc + 1]))
                if Int(ins[pc + 2]) < 0xFFFE { env.layout = data.layoutWord(Int(ins[pc + 2]) + 1) }
                fp.pointee.env = env.cell
                fp.pointee.envDepth += 1
                pc += 3
            case .popScope:
                fp.pointee.env = Environment(fp.pointee.env!).parent
                fp.pointee.envDepth -= 1
                pc += 1
            case .copyScope:
                let old = Environment(fp.pointee.env!)
                let env = try makeEnvironment(parent: old.parent, count: old.count)
                let cur = Environment(fp.pointee.env!)
                for i in 0..<cur.count { env.slots[i] = cur.slots[i] }
                env.layout = cur.layout
                fp.pointee.env = env.cell
                pc += 1
            case .pushWith:
                let v = r[Int(ins[pc + 1])]
                if v.isNullish { throw try typeError("Cannot convert \(v.isNull ? "null" : "undefined") to object") }
                let o = try toObject(v)
                heap.pushRoot(Value(cell: o.cell))
                let env = try makeEnvironment(parent: fp.pointee.env, count: 1)
                heap.popRoots(1)
                env.slots[0] = Value(cell: o.cell)
                env.layout = Runtime.withLayout
                fp.pointee.env = env.cell
                fp.pointee.envDepth += 1
                pc += 2
            case .getDynamic:
                r[Int(ins[pc + 1])] = try getDynamic(fp.pointee.env, try atom(data, Int(ins[pc + 2])), strict: data.code.isStrict).0
                pc += 3
            case .getDynamicCallee:
                let (f, t) = try getDynamic(fp.pointee.env, try atom(data, Int(ins[pc + 3])), strict: data.code.isStrict)
                r[Int(ins[pc + 1])] = f
                r[Int(ins[pc + 2])] = t
                pc += 4
            case .setDynamic:
                try setDynamic(fp.pointee.env, try atom(data, Int(ins[pc + 1])), r[Int(ins[pc + 2])], strict: data.code.isStrict)
                pc += 3
            case .typeOfDynamic:
                r[Int(ins[pc + 1])] = try typeOfDynamic(fp.pointee.env, try atom(data, Int(ins[pc + 2])))
                pc += 3
            case .deleteDynamic:
                r[Int(ins[pc + 1])] = Value(try deleteDynamic(fp.pointee.env, try atom(data, Int(ins[pc + 2]))))
                pc += 3
            case .initEvalVar:
                try initEvalVar(fp.pointee.env, try atom(data, Int(ins[pc + 1])), r[Int(ins[pc + 2])])
                pc += 3
            case .callEval:
                let f = r[Int(ins[pc + 2])]
                let argc = Int(ins[pc + 5])
                let isEval = realm.evalFunction.map { f.isCell && f.asCell == $0.cell } ?? false
                if argc < 0 {
                    // Spread arguments: an array.
                    let arr = JSObject(r[Int(ins[pc + 4])])
                    let n = Int(arr.arrayLength)
                    if isEval {
                        let x = n > 0 ? try get(arr, .index(0), receiver: Value(cell: arr.cell)) : Value.undefined
                        r[Int(ins[pc + 1])] = try performEval(x, caller: fp.pointee)
                    } else {
                        let result = try withSpreadArguments(arr) { args throws(JSException) in try callFunction(f, this: r[Int(ins[pc + 3])], args) }
                        r[Int(ins[pc + 1])] = result
                    }
                } else {
                    let args = UnsafeBufferPointer(start: UnsafePointer(r + Int(ins[pc + 4])), count: argc)
                    if isEval {
                        r[Int(ins[pc + 1])] = try performEval(argc > 0 ? args[0] : .undefined, caller: fp.pointee)
                    } else {
                        r[Int(ins[pc + 1])] = try callFunction(f, this: r[Int(ins[pc + 3])], args)
                    }
                }
                pc += 6
            case .throwConstAssign:
                throw try typeError("Assignment to constant variable '\(try atomString(data, Int(ins[pc + 1])))'.")

            // MARK: Properties
            case .getProp:
                // The cache hit inline (no call); everything else in getNamed.
                let base = r[Int(ins[pc + 2])]
                let cache = data.caches + Int(ins[pc + 4])
                if base.isCell && header(base.asCell).pointee.kind.rawValue > CellKind.symbol.rawValue
                    && JSObject(base).shape == cache.pointee.shape {
                    if let holder = cache.pointee.holder {
                        if cache.pointee.epoch == protoEpoch {
                            r[Int(ins[pc + 1])] = JSObject(holder).slot(Int(cache.pointee.slot))
                            pc += 5
                            continue
                        }
                    } else {
                        r[Int(ins[pc + 1])] = JSObject(base).slot(Int(cache.pointee.slot))
                        pc += 5
                        continue
                    }
                }
                r[Int(ins[pc + 1])] = try getNamed(base, fp.pointee.data, Int(ins[pc + 3]), cache: cache)
                pc += 5
            case .setProp, .setPropStrict:
                let base = r[Int(ins[pc + 1])]
                let cache = data.caches + Int(ins[pc + 4])
                if base.isCell && header(base.asCell).pointee.kind.rawValue > CellKind.symbol.rawValue
                    && JSObject(base).shape == cache.pointee.shape && cache.pointee.newShape == nil && cache.pointee.holder == nil {
                    JSObject(base).setSlot(Int(cache.pointee.slot), r[Int(ins[pc + 3])])
                    pc += 5
                    continue
                }
                try setNamed(base, fp.pointee.data, Int(ins[pc + 2]), r[Int(ins[pc + 3])], strict: opcode == .setPropStrict, cache: cache)
                pc += 5
            case .getElem:
                r[Int(ins[pc + 1])] = try getElement(r[Int(ins[pc + 2])], r[Int(ins[pc + 3])])
                pc += 5
            case .setElem, .setElemStrict:
                try setElement(r[Int(ins[pc + 1])], r[Int(ins[pc + 2])], r[Int(ins[pc + 3])], strict: opcode == .setElemStrict)
                pc += 5
            case .deleteProp:
                r[Int(ins[pc + 1])] = Value(try deleteValueProperty(r[Int(ins[pc + 2])], .named(PropertyKey(cell: try atom(data, Int(ins[pc + 3])))), strict: Int(ins[pc + 4]) != 0))
                pc += 5
            case .deleteElem:
                r[Int(ins[pc + 1])] = Value(try deleteValueProperty(r[Int(ins[pc + 2])], try toPropertyKey(r[Int(ins[pc + 3])]), strict: Int(ins[pc + 4]) != 0))
                pc += 5
            case .defineField:
                try createDataProperty(JSObject(r[Int(ins[pc + 1])]), try toPropertyKey(r[Int(ins[pc + 2])]), r[Int(ins[pc + 3])])
                pc += 4
            case .defineMethod:
                let k = try toPropertyKey(r[Int(ins[pc + 2])])
                JSObject(r[Int(ins[pc + 3])]).setExtraValue(2, r[Int(ins[pc + 1])])   // home object
                try defineOwnProperty(JSObject(r[Int(ins[pc + 1])]), k, .data(r[Int(ins[pc + 3])], Int(ins[pc + 4]) != 0 ? .all : .hidden))
                pc += 5
            case .defineGetter, .defineSetter:
                let k = try toPropertyKey(r[Int(ins[pc + 2])])
                let f = r[Int(ins[pc + 3])]
                try setFunctionName(JSObject(f), k, prefix: opcode == .defineGetter ? "get" : "set")
                var desc = PropertyDescriptor(enumerable: Int(ins[pc + 4]) != 0, configurable: true)
                if opcode == .defineGetter { desc.get = f } else { desc.set = f }
                try defineOwnProperty(JSObject(r[Int(ins[pc + 1])]), k, desc)
                pc += 5

            // MARK: Objects
            case .newObject:
                r[Int(ins[pc + 1])] = Value(cell: try newObject().cell)
                pc += 2
            case .newArray:
                let count = Int(ins[pc + 3])
                let a = try newArray(UnsafeBufferPointer(start: r + Int(ins[pc + 2]), count: count))
                r[Int(ins[pc + 1])] = Value(cell: a.cell)
                pc += 4
            case .arrayPush:
                let a = JSObject(r[Int(ins[pc + 1])])
                let n = Int(a.arrayLength)
                let v = r[Int(ins[pc + 2])]
                if v.isEmpty { a.arrayLength = UInt32(n + 1) } else { try createDataProperty(a, .index(UInt32(n)), v) }
                pc += 3
            case .arraySpread:
                try spreadInto(JSObject(r[Int(ins[pc + 1])]), r[Int(ins[pc + 2])])
                pc += 3
            case .copyDataProperties:
                try copyDataProperties(JSObject(r[Int(ins[pc + 1])]), r[Int(ins[pc + 2])], excluding: UnsafeBufferPointer(start: r + Int(ins[pc + 3]), count: Int(ins[pc + 4])))
                pc += 5
            case .setPrototypeOf:
                let p = r[Int(ins[pc + 2])]
                if isObject(p) || p.isNull { _ = try setPrototype(JSObject(r[Int(ins[pc + 1])]), p) }
                pc += 3
            case .newClosure:
                guard case .function(let code) = data.code.constants[Int(ins[pc + 2])] else { fatalError("bad closure constant") }
                r[Int(ins[pc + 1])] = try makeClosure(code, env: fp.pointee.env, frame: fp.pointee)
                pc += 3
            case .newRegExp:
                r[Int(ins[pc + 1])] = try newRegExpLiteral(data.code, Int(ins[pc + 2]), Int(ins[pc + 3]))
                pc += 4

            // MARK: Calls
            case .call, .callMethod:
                let f = r[Int(ins[pc + 2])]
                let argc = Int(ins[pc + 5])
                let args = r + Int(ins[pc + 4])
                let t = Int(ins[pc + 3])   // -1: undefined (a plain call)
                let thisValue = t < 0 ? Value.undefined : r[t]
                // A bytecode callee (directly, or through f.call / f.apply) gets its frame at
                // the caller's top and runs in this loop; arguments are copied in.
                let direct = f.isCell && header(f.asCell).pointee.kind == .function
                    ? (JSObject(f), thisValue, UnsafeBufferPointer(start: UnsafePointer(args), count: argc))
                    : forwardedCall(f, this: thisValue, args: args, count: argc)
                if let (callee, calleeThis, argBuf) = direct {
                    try pushFrame(function: callee, this: calleeThis, args: argBuf, base: fp.pointee.top,
                                  returnRegister: Int(ins[pc + 1]), newTarget: .undefined)
                    fi = frames.count - 1
                    fp = frames.pointer(fi)
                    data = fp.pointee.data.takeUnretainedValue()
                    ins = data.instructions
                    pc = 0
                    r = fp.pointee.base
                    continue
                }
                let result = try callFunction(f, this: thisValue, UnsafeBufferPointer(start: UnsafePointer(args), count: argc))
                r[Int(ins[pc + 1])] = result
                pc += 6
            case .callSpread:
                let f = r[Int(ins[pc + 2])]
                let arr = JSObject(r[Int(ins[pc + 4])])
                let t = Int(ins[pc + 3])
                let thisValue = t < 0 ? Value.undefined : r[t]
                let result = try withSpreadArguments(arr) { args throws(JSException) in try callFunction(f, this: thisValue, args) }
                r[Int(ins[pc + 1])] = result
                pc += 5
            case .construct:
                let f = r[Int(ins[pc + 2])]
                let args = UnsafeBufferPointer(start: UnsafePointer(r + Int(ins[pc + 3])), count: Int(ins[pc + 4]))
                let newTarget = r[Int(ins[pc + 5])]
                if f.isCell && header(f.asCell).pointee.kind == .function && JSObject(f).flags & ObjectFlags.constructor != 0 {
                    let fo = JSObject(f)
                    unowned(unsafe) let code = functionCodeData(fo).code
                    if !code.isDefaultDerivedConstructor {
                        let thisValue = try constructThis(fo, code, newTarget: newTarget)
                        try pushFrame(function: fo, this: thisValue, args: args, base: fp.pointee.top,
                                      returnRegister: Int(ins[pc + 1]), newTarget: newTarget)
                        fi = frames.count - 1
                        fp = frames.pointer(fi)
                        data = fp.pointee.data.takeUnretainedValue()
                        ins = data.instructions
                        pc = 0
                        r = fp.pointee.base
                        continue
                    }
                }
                r[Int(ins[pc + 1])] = try construct(f, args, newTarget: newTarget)
                pc += 6
            case .superCall, .superCallSpread:
                // In an arrow, super() is the enclosing derived constructor's (context slot 3).
                let arrowBox = arrowContext(of: fp.pointee)
                let callee = JSObject(arrowBox.map { Environment($0).slots[3] } ?? fp.pointee.callee)
                let parent = callee.prototype
                guard isObject(parent), JSObject(parent).flags & ObjectFlags.constructor != 0 else {
                    throw try typeError("Super constructor \(try describeForError(parent)) of anonymous class is not a constructor")
                }
                let result: Value
                if opcode == .superCall {
                    result = try construct(parent, UnsafeBufferPointer(start: UnsafePointer(r + Int(ins[pc + 2])), count: Int(ins[pc + 3])), newTarget: fp.pointee.newTarget)
                } else {
                    let arr = JSObject(r[Int(ins[pc + 2])])
                    let nt = fp.pointee.newTarget
                    result = try withSpreadArguments(arr) { args throws(JSException) in try construct(parent, args, newTarget: nt) }
                }
                if !boundThis(fp).isEmpty { throw try referenceError("Super constructor may only be called once") }
                fp.pointee.this = result
                if let box = fp.pointee.thisBox ?? arrowBox { Environment(box).slots[0] = result }
                try initializeFields(callee, result)
                r[Int(ins[pc + 1])] = result
                pc += opcode == .superCall ? 4 : 3
            case .getSuperElem:
                let home = fp.pointee.home
                guard isObject(home) else { throw try makeError(.syntaxError, "'super' keyword unexpected here") }
                let proto = JSObject(home).prototype
                let k = try toPropertyKey(r[Int(ins[pc + 2])])
                if !isObject(proto) { throw try typeError("Cannot read properties of \(proto.isNull ? "null" : "undefined")") }
                let thisValue = boundThis(fp)
                if thisValue.isEmpty { throw try referenceError("Must call super constructor in derived class before accessing 'this'") }
                r[Int(ins[pc + 1])] = try get(JSObject(proto), k, receiver: thisValue)
                pc += 3
            case .newClass:
                guard case .function(let code) = data.code.constants[Int(ins[pc + 2])] else { fatalError("bad class constant") }
                let (ctor, proto) = try makeClass(code, heritage: Int(ins[pc + 3]) >= 0 ? r[Int(ins[pc + 3])] : nil, env: fp.pointee.env, frame: fp.pointee)
                r[Int(ins[pc + 1])] = ctor
                r[Int(ins[pc + 1]) + 1] = proto
                pc += 4
            case .setClassFields:
                let ctor = JSObject(r[Int(ins[pc + 1])])
                let initializer = JSObject(r[Int(ins[pc + 2])])
                initializer.setWord(2, ctor.word(2))   // home object: the prototype
                try defineOwnProperty(ctor, .named(realm.classFieldsKey!), .data(r[Int(ins[pc + 2])], []))
                pc += 3
            case .ret, .retUndefined:
                let result = opcode == .ret ? r[Int(ins[pc + 1])] : .undefined
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

            // MARK: Exceptions
            case .throw:
                throw JSException(value: r[Int(ins[pc + 1])])
            case .throwTypeError:
                throw try typeError(try constantString(data, Int(ins[pc + 1])))
            case .throwReferenceError:
                throw try referenceError(try constantString(data, Int(ins[pc + 1])))
            case .loadException:
                r[Int(ins[pc + 1])] = fp.pointee.exception
                fp.pointee.exception = .undefined
                pc += 2

            // MARK: Iteration
            case .getIterator, .getAsyncIterator:
                let iterable = r[Int(ins[pc + 2])]
                let rec = opcode == .getIterator ? try getIterator(iterable) : try getAsyncIterator(iterable)
                let d = r + Int(ins[pc + 1])
                d[0] = rec.iterator
                d[1] = rec.next
                d[2] = .false
                pc += 3
            case .iteratorNext:
                if let v = try iteratorStepRegisters(r + Int(ins[pc + 2])) {
                    r[Int(ins[pc + 1])] = v
                    pc += 4
                } else {
                    pc += Int(ins[pc + 3])
                }
            case .iteratorClose:
                let rec = r + Int(ins[pc + 1])
                if rec[2].bits != Value.true.bits {
                    rec[2] = .true
                    let record = IteratorRecord(iterator: rec[0], next: rec[1], done: false)
                    if Int(ins[pc + 2]) == 1 { iteratorCloseOnThrow(record) } else { try iteratorClose(record) }
                }
                pc += 3
            case .iteratorValue:
                let a = try newArray()
                r[Int(ins[pc + 1])] = Value(cell: a.cell)
                var n: UInt32 = 0
                while let v = try iteratorStepRegisters(r + Int(ins[pc + 2])) {
                    try createDataProperty(a, .index(n), v)
                    n += 1
                }
                pc += 3
            case .constructSpread:
                let f = r[Int(ins[pc + 2])]
                let arr = JSObject(r[Int(ins[pc + 3])])
                let newTarget = r[Int(ins[pc + 4])]
                let result = try withSpreadArguments(arr) { args throws(JSException) in try construct(f, args, newTarget: newTarget) }
                r[Int(ins[pc + 1])] = result
                pc += 5

            // MARK: Private names
            case .newPrivateName:
                r[Int(ins[pc + 1])] = try newPrivateName(try constantValue(data, Int(ins[pc + 2])))
                pc += 3
            case .getPrivate:
                r[Int(ins[pc + 1])] = try getPrivate(r[Int(ins[pc + 2])], r[Int(ins[pc + 3])])
                pc += 4
            case .setPrivate:
                try setPrivate(r[Int(ins[pc + 1])], r[Int(ins[pc + 2])], r[Int(ins[pc + 3])])
                pc += 4
            case .hasPrivate:
                r[Int(ins[pc + 1])] = Value(try hasPrivate(r[Int(ins[pc + 2])], r[Int(ins[pc + 3])]))
                pc += 4
            case .definePrivate:
                try definePrivate(r[Int(ins[pc + 1])], r[Int(ins[pc + 2])], r[Int(ins[pc + 3])], kind: Int(ins[pc + 4]))
                pc += 5
            case .setHomeObject:
                JSObject(r[Int(ins[pc + 1])]).setExtraValue(2, r[Int(ins[pc + 2])])
                pc += 3

            // MARK: Generators
            case .generatorStart:
                var gen = try makeGeneratorObject(fp)
                r[Int(ins[pc + 1])] = gen
                try saveGeneratorFrame(JSObject(gen), fp, pc: pc + 2, resumeRegister: -1)
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
            case .yield, .yieldDelegate:
                let gen = JSObject(r[Int(ins[pc + 3])])
                try saveGeneratorFrame(gen, fp, pc: pc + 4, resumeRegister: Int(ins[pc + 1]))
                setGeneratorState(gen, .suspendedYield, raw: opcode == .yieldDelegate)
                let value = r[Int(ins[pc + 2])]
                frames.removeLast()
                return value
            case .await:
                let gen = JSObject(r[Int(ins[pc + 3])])
                try saveGeneratorFrame(gen, fp, pc: pc + 4, resumeRegister: Int(ins[pc + 1]))
                setGeneratorState(gen, .suspendedYield, awaiting: true)
                let value = r[Int(ins[pc + 2])]
                frames.removeLast()
                heap.pushRoot(value)
                defer { heap.popRoots(1) }
                try awaitValue(gen, value)
                return .undefined
            case .iteratorDone:
                if try delegateStep(r + Int(ins[pc + 1]), r + Int(ins[pc + 2])) { pc += Int(ins[pc + 3]) } else { pc += 4 }
            case .asyncIteratorResult:
                let res = r[Int(ins[pc + 2])]
                guard isObject(res) else { throw try typeError("Iterator result \(try describeForError(res)) is not an object") }
                if toBoolean(try get(JSObject(res), key(static: "done"), receiver: res)) {
                    pc += Int(ins[pc + 3])
                } else {
                    r[Int(ins[pc + 1])] = try get(JSObject(res), key(static: "value"), receiver: res)
                    pc += 4
                }
            case .asyncIteratorReturn:
                let rec = r + Int(ins[pc + 2])
                if let ret = try getMethod(rec[0], key(static: "return")) {
                    r[Int(ins[pc + 1])] = try call(ret, this: rec[0])
                    pc += 4
                } else {
                    pc += Int(ins[pc + 3])
                }
            case .throwIfNotObject:
                if !isObject(r[Int(ins[pc + 1])]) { throw try typeError("Iterator result \(try describeForError(r[Int(ins[pc + 1])])) is not an object") }
                pc += 2

            // MARK: for-in
            case .forInPrepare:
                r[Int(ins[pc + 1])] = try forInIterator(r[Int(ins[pc + 2])])
                pc += 3
            case .forInNext:
                if let k = try forInNext(r[Int(ins[pc + 2])]) {
                    r[Int(ins[pc + 1])] = k
                    pc += 4
                } else {
                    pc += Int(ins[pc + 3])
                }

            // MARK: Arguments
            case .createArguments, .createMappedArguments:
                let f = fp.pointee
                let p = data.code.parameterCount
                let n = f.argc
                let a = try newArray(capacity: n)
                for i in 0..<n {
                    a.elements![i] = i < p ? f.base[i] : f.base[data.code.registerCount + i - p]
                }
                a.elementsLength = n
                a.arrayLength = UInt32(n)
                r[Int(ins[pc + 1])] = try makeArgumentsObject(a, callee: f.callee, strict: opcode == .createArguments)
                pc += 2
            case .createRest:
                let f = fp.pointee
                let p = data.code.parameterCount
                let start = Int(ins[pc + 2])
                let n = max(0, f.argc - start)
                let a = try newArray(capacity: n)
                for i in 0..<n {
                    let index = start + i
                    a.elements![i] = index < p ? f.base[index] : f.base[data.code.registerCount + index - p]
                }
                a.elementsLength = n
                a.arrayLength = UInt32(n)
                r[Int(ins[pc + 1])] = Value(cell: a.cell)
                pc += 3
            case .debugger, .nop:
                pc += opcode.length
            default:
                throw try makeError(.syntaxError, "\(opcode.name) is not supported by the runtime yet")
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
