import JSBytecode

/// The value instructions (`Op.Binary` and `Op.DstSrc` layouts whose result depends only
/// on their operands), each in one place: the interpreter's handlers inline these, and the
/// JIT's slow paths call them through `JITStubs.binary`/`JITStubs.unary` (a direct call,
/// not a step through the interpreter).
extension Runtime {
    /// The opcodes `binaryOperation` computes.
    public static func isBinaryValueOpcode(_ opcode: Opcode) -> Bool {
        switch opcode {
        case .add, .sub, .mul, .div, .mod, .exp, .bitAnd, .bitOr, .bitXor, .shl, .sar, .shr,
             .eq, .ne, .strictEq, .strictNe, .lt, .le, .gt, .ge, .instanceOf, .in:
            return true
        default:
            return false
        }
    }

    /// The opcodes `unaryOperation` computes.
    public static func isUnaryValueOpcode(_ opcode: Opcode) -> Bool {
        switch opcode {
        case .neg, .plus, .toNumeric, .not, .bitNot, .typeOf, .inc, .dec, .toPropertyKey, .toString:
            return true
        default:
            return false
        }
    }

    /// `a op b` for a binary value instruction.
    @inline(__always)
    func binaryOperation(_ opcode: Opcode, _ a: Value, _ b: Value) throws(JSException) -> Value {
        switch opcode {
        case .add:
            if a.isInt32 && b.isInt32 {
                let (s, o) = a.asInt32.addingReportingOverflow(b.asInt32)
                return o ? Value(Double(a.asInt32) + Double(b.asInt32)) : Value(int32: s)
            }
            if a.isNumber && b.isNumber { return Value(a.asNumber + b.asNumber) }
            return try addSlow(a, b)
        case .sub:
            if a.isInt32 && b.isInt32 {
                let (s, o) = a.asInt32.subtractingReportingOverflow(b.asInt32)
                return o ? Value(Double(a.asInt32) - Double(b.asInt32)) : Value(int32: s)
            }
            if a.isNumber && b.isNumber { return Value(a.asNumber - b.asNumber) }
            return try numericBinarySlow(.sub, a, b)
        case .mul:
            if a.isInt32 && b.isInt32 {
                let (m, o) = a.asInt32.multipliedReportingOverflow(by: b.asInt32)
                return !o && m != 0 ? Value(int32: m) : Value(Double(a.asInt32) * Double(b.asInt32))
            }
            if a.isNumber && b.isNumber { return Value(a.asNumber * b.asNumber) }
            return try numericBinarySlow(.mul, a, b)
        case .div:
            return a.isNumber && b.isNumber ? Value(a.asNumber / b.asNumber) : try numericBinarySlow(.div, a, b)
        case .mod:
            if a.isInt32 && b.isInt32 && a.asInt32 >= 0 && b.asInt32 > 0 { return Value(int32: a.asInt32 % b.asInt32) }
            if a.isNumber && b.isNumber { return Value(jsRemainder(a.asNumber, b.asNumber)) }
            return try numericBinarySlow(.mod, a, b)
        case .exp:
            return a.isNumber && b.isNumber ? Value(jsPow(a.asNumber, b.asNumber)) : try numericBinarySlow(.exp, a, b)
        case .bitAnd, .bitOr, .bitXor, .shl, .sar, .shr:
            if !(a.isNumber && b.isNumber) { return try numericBinarySlow(opcode, a, b) }
            let x = a.isInt32 ? a.asInt32 : doubleToInt32(a.asDouble)
            let y = b.isInt32 ? b.asInt32 : doubleToInt32(b.asDouble)
            switch opcode {
            case .bitAnd: return Value(int32: x & y)
            case .bitOr: return Value(int32: x | y)
            case .bitXor: return Value(int32: x ^ y)
            case .shl: return Value(int32: x << (y & 31))
            case .sar: return Value(int32: x >> (y & 31))
            default: return Value(Double(UInt32(bitPattern: x) >> UInt32(y & 31)))
            }
        case .eq: return Value(try looseEquals(a, b))
        case .ne: return Value(!(try looseEquals(a, b)))
        case .strictEq: return Value(strictEquals(a, b))
        case .strictNe: return Value(!strictEquals(a, b))
        case .lt, .le, .gt, .ge: return Value(try relational(opcode, a, b))
        case .instanceOf:
            // A plain function (prototype in slot 2, no own @@hasInstance): OrdinaryHasInstance
            // without lookups. For JS values, "past the symbol kind" means "an object".
            if b.isCell && isPastSymbolKind(b.asCell) && JSObject(b).shape == plainFunctionShape {
                let proto = JSObject(b).slot(2)
                if !(a.isCell && isPastSymbolKind(a.asCell)) { return .false }
                if proto.isCell && isPastSymbolKind(proto.asCell) {
                    return Value(try prototypeChainContains(JSObject(a), proto))
                }
            }
            return Value(try instanceOf(a, b))
        case .in:
            if !isObject(b) { throw try typeError("Cannot use 'in' operator to search for a key in \(try describeForError(b))") }
            return Value(try hasProperty(JSObject(b), try toPropertyKey(a)))
        default:
            fatalError("binaryOperation: \(opcode) is not a binary value instruction")
        }
    }

    /// `op a` for a unary value instruction.
    @inline(__always)
    func unaryOperation(_ opcode: Opcode, _ a: Value) throws(JSException) -> Value {
        switch opcode {
        case .neg:
            if a.isInt32 && a.asInt32 != 0 && a.asInt32 != Int32.min { return Value(int32: -a.asInt32) }
            if a.isNumber { return Value(-a.asNumber) }
            return try negateSlow(a)
        case .plus: return a.isNumber ? a : Value(try toNumber(a))
        case .toNumeric: return a.isNumber ? a : try toNumeric(a)
        case .not: return Value(!toBoolean(a))
        case .bitNot: return a.isInt32 ? Value(int32: ~a.asInt32) : try bitNotSlow(a)
        case .typeOf: return try typeOf(a)
        case .inc, .dec:
            let d: Int32 = opcode == .inc ? 1 : -1
            if a.isInt32, case (let s, false) = a.asInt32.addingReportingOverflow(d) { return Value(int32: s) }
            if a.isNumber { return Value(a.asNumber + Double(d)) }
            return try incDecSlow(a, d)
        case .toPropertyKey:
            if isString(a) || isSymbol(a) || a.isNumber { return a }
            let p = try toPrimitive(a, .string)
            return isString(p) || isSymbol(p) || p.isNumber ? p : try toString(p)
        case .toString: return try toString(a)
        default:
            fatalError("unaryOperation: \(opcode) is not a unary value instruction")
        }
    }
}

/// The values of instructions that read their frame (`newClosure`, `arguments`): the
/// interpreter's handlers and the JIT's stubs (`JITStubs.newClosure`, `.arguments`).
extension Runtime {
    /// The function constant `constant` of the frame's code block, closed over the frame.
    @inline(__always)
    func closureValue(_ fp: UnsafeMutablePointer<Frame>, _ data: CodeData, constant: Int) throws(JSException) -> Value {
        guard case .function(let code) = data.code.constants[constant] else { fatalError("bad closure constant") }
        return try makeClosure(code, env: fp.pointee.env, frame: fp.pointee)
    }

    /// The frame's `arguments` object (mapped unless `strict`).
    @inline(__always)
    func argumentsValue(_ fp: UnsafeMutablePointer<Frame>, _ data: CodeData, strict: Bool) throws(JSException) -> Value {
        unowned(unsafe) let code = data.code
        if !strict && code.mappedArgumentsSlot >= 0 { return try makeMappedArgumentsObject(fp, code) }
        return try makeArgumentsObject(fp, parameterCount: code.parameterCount, registerCount: code.registerCount,
                                       strict: strict)
    }
}
