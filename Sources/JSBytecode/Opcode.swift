// The opcode table: one row per opcode (its operands), the single source of truth for
// the encoder, the disassembler, the interpreter's decoding and (later) the JIT.
//
// Encoding: an instruction is a sequence of 32-bit words, the opcode followed by its
// operands. Register operands index the frame's registers (parameters first, then
// locals and temporaries). Jump operands are relative to the instruction's start.

public enum OperandKind: Sendable {
    /// A register.
    case reg
    /// A signed 32-bit immediate.
    case imm
    /// An index into the code block's constant pool.
    case const
    /// An index into the atom (property name) table.
    case atom
    /// A relative jump offset.
    case jump
    /// An inline-cache / profiling slot index.
    case ic
}

public enum Opcode: UInt8, CaseIterable, Sendable {
    // Moves and constants
    case mov, loadConst, loadInt, loadUndefined, loadNull, loadTrue, loadFalse, loadEmpty
    case loadThis, loadNewTarget, loadCallee
    // Arithmetic and logic: dst, a, b
    case add, sub, mul, div, mod, exp, bitAnd, bitOr, bitXor, shl, sar, shr
    // Comparison: dst, a, b
    case eq, ne, strictEq, strictNe, lt, le, gt, ge, instanceOf, `in`
    // Unary: dst, a
    case neg, plus, not, bitNot, typeOf, toNumeric, toPropertyKey, inc, dec, toString, toObject
    // Control flow
    case jmp, jumpIfTrue, jumpIfFalse, jumpIfNullish, jumpIfNotNullish, jumpIfUndefined, jumpIfNotUndefined
    case jumpIfLess, jumpIfNotLess, jumpIfLessEq, jumpIfNotLessEq
    case jumpIfGreater, jumpIfNotGreater, jumpIfGreaterEq, jumpIfNotGreaterEq
    // Fused equality tests: a, b, target
    case jumpIfStrictEq, jumpIfStrictNotEq, jumpIfEq, jumpIfNotEq
    // Comparisons with an int32 immediate: a, imm, target
    case jumpIfLessImm, jumpIfNotLessImm, jumpIfLessEqImm, jumpIfNotLessEqImm
    case jumpIfGreaterImm, jumpIfNotGreaterImm, jumpIfGreaterEqImm, jumpIfNotGreaterEqImm
    case jumpIfStrictEqImm, jumpIfStrictNotEqImm
    // Strict equality with a constant (a string literal): a, constant, target
    case jumpIfStrictEqConst, jumpIfStrictNotEqConst
    // x === null / x !== null: a, target
    case jumpIfNull, jumpIfNotNull
    // dst, a, int32 immediate (a + imm, a - imm with the full semantics of + and -)
    case addImm, subImm
    case loopHint
    // Variables
    case getGlobal, setGlobal, setGlobalStrict, typeOfGlobal, declareGlobalVar, declareGlobalFunction, declareGlobalLexical
    case initGlobalLexical
    case getScope, setScope, initScope, checkTDZ, getScopeChecked, setScopeChecked
    case pushScope, popScope, copyScope
    case throwConstAssign
    // Dynamic names (inside `with`, free names of eval code), object environments
    case getDynamic, setDynamic, typeOfDynamic, deleteDynamic, getDynamicCallee, initEvalVar, pushWith
    // Properties
    case getProp, setProp, setPropStrict, getElem, setElem, setElemStrict
    case deleteProp, deleteElem, defineField, defineGetter, defineSetter, defineMethod
    case getSuper, setSuper, getSuperElem, setSuperElem
    case getPrivate, setPrivate, hasPrivate, definePrivate, newPrivateName, setHomeObject
    case asyncIteratorResult, asyncIteratorReturn, throwIfNotObject
    // Objects
    case newObject, newArray, arrayPush, arraySpread, copyDataProperties, setPrototypeOf, newRegExp
    case newClosure, newClass, newTemplateObject, setClassFields
    // Calls
    case call, callMethod, construct, callSpread, constructSpread, superCall, superCallSpread, callEval
    case ret, retUndefined
    // Exceptions
    case `throw`, throwTypeError, throwReferenceError, loadException
    // Iteration
    case getIterator, getAsyncIterator, iteratorNext, iteratorClose, iteratorValue, iteratorDone
    case forInPrepare, forInNext
    // Generators and async
    case generatorStart, yield, yieldDelegate, await, asyncReturn
    // Arguments and rest
    case createArguments, createMappedArguments, createRest
    // Misc
    case debugger, nop

    /// The operands of each opcode, in order.
    public var operands: [OperandKind] {
        switch self {
        case .mov: return [.reg, .reg]
        case .loadConst: return [.reg, .const]
        case .loadInt: return [.reg, .imm]
        case .loadUndefined, .loadNull, .loadTrue, .loadFalse, .loadEmpty, .loadThis, .loadNewTarget, .loadCallee:
            return [.reg]
        case .add, .sub, .mul, .div, .mod, .exp, .bitAnd, .bitOr, .bitXor, .shl, .sar, .shr,
             .eq, .ne, .strictEq, .strictNe, .lt, .le, .gt, .ge, .instanceOf, .in:
            return [.reg, .reg, .reg]
        case .neg, .plus, .not, .bitNot, .typeOf, .toNumeric, .toPropertyKey, .inc, .dec, .toString, .toObject:
            return [.reg, .reg]
        case .jmp: return [.jump]
        case .jumpIfTrue, .jumpIfFalse, .jumpIfNullish, .jumpIfNotNullish, .jumpIfUndefined, .jumpIfNotUndefined:
            return [.reg, .jump]
        case .jumpIfLess, .jumpIfNotLess, .jumpIfLessEq, .jumpIfNotLessEq,
             .jumpIfGreater, .jumpIfNotGreater, .jumpIfGreaterEq, .jumpIfNotGreaterEq,
             .jumpIfStrictEq, .jumpIfStrictNotEq, .jumpIfEq, .jumpIfNotEq:
            return [.reg, .reg, .jump]
        case .jumpIfLessImm, .jumpIfNotLessImm, .jumpIfLessEqImm, .jumpIfNotLessEqImm,
             .jumpIfGreaterImm, .jumpIfNotGreaterImm, .jumpIfGreaterEqImm, .jumpIfNotGreaterEqImm,
             .jumpIfStrictEqImm, .jumpIfStrictNotEqImm:
            return [.reg, .imm, .jump]
        case .jumpIfNull, .jumpIfNotNull: return [.reg, .jump]
        case .jumpIfStrictEqConst, .jumpIfStrictNotEqConst: return [.reg, .const, .jump]
        case .addImm, .subImm: return [.reg, .reg, .imm]
        case .loopHint: return [.ic]
        case .getGlobal: return [.reg, .atom, .ic]
        case .setGlobal, .setGlobalStrict: return [.atom, .reg, .ic]
        case .typeOfGlobal: return [.reg, .atom]
        case .declareGlobalVar, .declareGlobalLexical: return [.atom, .imm]
        case .declareGlobalFunction: return [.atom, .reg]
        case .initGlobalLexical: return [.atom, .reg]
        // getScope dst, depth, slot (checked: TDZ error naming the atom)
        case .getScope: return [.reg, .imm, .imm]
        case .getScopeChecked: return [.reg, .imm, .imm, .atom]
        // setScope depth, slot, src
        case .setScope, .initScope: return [.imm, .imm, .reg]
        case .setScopeChecked: return [.imm, .imm, .reg, .atom]
        case .checkTDZ: return [.reg, .atom]
        // pushScope slotCount, layout constant
        case .pushScope: return [.imm, .const]
        case .popScope, .copyScope: return []
        case .throwConstAssign: return [.atom]
        // getDynamic dst, name: resolves name through the environment chain, then globals
        case .getDynamic, .typeOfDynamic, .deleteDynamic: return [.reg, .atom]
        // setDynamic name, value (strictness from the code block)
        case .setDynamic: return [.atom, .reg]
        // getDynamicCallee function, this, name: `this` is the object of a with environment
        // the name was found in, else undefined
        case .getDynamicCallee: return [.reg, .reg, .atom]
        // initEvalVar name, value: sets a sloppy eval's function declaration in the
        // caller's variable environment
        case .initEvalVar: return [.atom, .reg]
        // pushWith object: pushes an object environment (ToObject of the value)
        case .pushWith: return [.reg]
        case .getProp: return [.reg, .reg, .atom, .ic]
        case .setProp, .setPropStrict: return [.reg, .atom, .reg, .ic]
        case .getElem: return [.reg, .reg, .reg, .ic]
        case .setElem, .setElemStrict: return [.reg, .reg, .reg, .ic]
        case .deleteProp: return [.reg, .reg, .atom, .imm]
        case .deleteElem: return [.reg, .reg, .reg, .imm]
        // defineField object, key register, value (enumerable data property)
        case .defineField: return [.reg, .reg, .reg]
        // defineGetter/defineSetter/defineMethod object, key register, function, enumerable flag
        case .defineGetter, .defineSetter, .defineMethod: return [.reg, .reg, .reg, .imm]
        case .getSuper: return [.reg, .atom]
        case .setSuper: return [.atom, .reg]
        case .getSuperElem: return [.reg, .reg]
        case .setSuperElem: return [.reg, .reg]
        case .getPrivate: return [.reg, .reg, .reg]
        case .setPrivate: return [.reg, .reg, .reg]
        case .hasPrivate: return [.reg, .reg, .reg]
        // definePrivate object, key, value, kind (0 field, 1 method, 2 getter, 3 setter)
        case .definePrivate: return [.reg, .reg, .reg, .imm]
        // newPrivateName dst, description: a fresh private name (a hidden symbol)
        case .newPrivateName: return [.reg, .const]
        // asyncIteratorResult dst, result, jump-when-done: IteratorComplete/IteratorValue of an
        // awaited next() result (TypeError if not an object)
        case .asyncIteratorResult: return [.reg, .reg, .jump]
        // asyncIteratorReturn dst, record, jump-if-no-return-method: dst = iterator.return()
        case .asyncIteratorReturn: return [.reg, .reg, .jump]
        case .throwIfNotObject: return [.reg]
        // setHomeObject function, home
        case .setHomeObject: return [.reg, .reg]
        case .newObject: return [.reg]
        // newArray dst, first register, count
        case .newArray: return [.reg, .reg, .imm]
        case .arrayPush, .arraySpread: return [.reg, .reg]
        // copyDataProperties target, source, excluded-keys start register, count
        case .copyDataProperties: return [.reg, .reg, .reg, .imm]
        case .setPrototypeOf: return [.reg, .reg]
        case .newRegExp: return [.reg, .const, .const]
        case .newClosure: return [.reg, .const]
        // newClass dst, constructor code constant, heritage register (or -1); the prototype goes to dst+1
        case .newClass: return [.reg, .const, .reg]
        // setClassFields constructor, instance-field initializer function
        case .setClassFields: return [.reg, .reg]
        case .newTemplateObject: return [.reg, .const]
        // call dst, callee, this, first argument register, count
        case .call, .callMethod, .callEval: return [.reg, .reg, .reg, .reg, .imm]
        // construct dst, callee, first argument register, count, new.target
        case .construct: return [.reg, .reg, .reg, .imm, .reg]
        // spread calls take an array of arguments
        case .callSpread: return [.reg, .reg, .reg, .reg]
        // constructSpread dst, callee, argument array, newTarget
        case .constructSpread: return [.reg, .reg, .reg, .reg]
        case .superCall: return [.reg, .reg, .imm]
        case .superCallSpread: return [.reg, .reg]
        case .ret: return [.reg]
        case .retUndefined: return []
        case .throw: return [.reg]
        case .throwTypeError, .throwReferenceError: return [.const]
        case .loadException: return [.reg]
        // An iterator record lives in three consecutive registers: iterator, next method, done.
        // getIterator record, iterable
        case .getIterator, .getAsyncIterator: return [.reg, .reg]
        // iteratorNext dst, record, jump-when-done (a done record jumps without calling next)
        case .iteratorNext: return [.reg, .reg, .jump]
        // iteratorClose record, mode (0: normal completion, 1: throw completion, errors ignored)
        case .iteratorClose: return [.reg, .imm]
        // iteratorValue dst (array of the remaining values), record
        case .iteratorValue: return [.reg, .reg]
        // iteratorDone pair, record, jump: yield* steps the inner iterator with the value in
        // `pair` and the mode in `pair + 1` (next/throw/return); when the inner result is done
        // it puts its value in `pair` (mode 2: a return to continue) and jumps, else the
        // inner result object in `pair`.
        case .iteratorDone: return [.reg, .reg, .jump]
        case .forInPrepare: return [.reg, .reg]
        // forInNext dst, iterator, exit jump
        case .forInNext: return [.reg, .reg, .jump]
        // generatorStart genReg: creates the generator, suspends, returns it to the caller
        case .generatorStart: return [.reg]
        // yield pair, value, genReg: suspends; on resume pair = value sent, pair + 1 = mode
        case .yield: return [.reg, .reg, .reg]
        // yieldDelegate: the same, but the value is an iterator result passed through as is
        case .yieldDelegate: return [.reg, .reg, .reg]
        // await pair, value, genReg: like yield; resumed by the job queue when value settles
        case .await: return [.reg, .reg, .reg]
        case .asyncReturn: return [.reg]
        case .createArguments, .createMappedArguments: return [.reg]
        case .createRest: return [.reg, .imm]
        case .debugger, .nop: return []
        }
    }

    /// Instruction length in words (opcode included).
    public var length: Int { operands.count + 1 }

    /// A relational jump (register or immediate form) as its comparison (.lt, .le, .gt, .ge)
    /// and whether it jumps when the comparison is false.
    @inlinable @inline(__always) public var relationalJump: (base: Opcode, negated: Bool) {
        switch self {
        case .jumpIfLess, .jumpIfLessImm: return (.lt, false)
        case .jumpIfNotLess, .jumpIfNotLessImm: return (.lt, true)
        case .jumpIfLessEq, .jumpIfLessEqImm: return (.le, false)
        case .jumpIfNotLessEq, .jumpIfNotLessEqImm: return (.le, true)
        case .jumpIfGreater, .jumpIfGreaterImm: return (.gt, false)
        case .jumpIfNotGreater, .jumpIfNotGreaterImm: return (.gt, true)
        case .jumpIfGreaterEq, .jumpIfGreaterEqImm: return (.ge, false)
        default: return (.ge, true)
        }
    }

    /// The length of every call-like instruction (call, callMethod, callEval, construct and
    /// the spread forms): where a returning frame resumes its caller. Checked by a unit test.
    public static let callInstructionLength = 6

    /// Lengths indexed by raw value (for fast decoding).
    public static let lengths: [Int] = Opcode.allCases.map { $0.length }

    public var name: String { String(describing: self) }
}
