/// The portable assembler the JIT is written against (JavaScriptCore's `MacroAssembler`
/// design): operations on 32- and 64-bit integers and doubles, loads and stores, compares
/// fused with branches, calls. One implementation per architecture (`X86_64/`, and arm64
/// next); the JIT names registers only through `Register`/`FPRegister` and the ABI roles
/// below, so it never sees an instruction encoding.
///
/// Jumps: every branch returns a `Jump` to be linked later (`link(_:to:)`, `linkHere`);
/// a branch to an already-bound `Label` (a loop's back edge) is `jump(to:)`-style and
/// picks the short form when it fits.
public protocol MacroAssembler: AnyObject {
    associatedtype Register: Hashable
    associatedtype FPRegister: Hashable

    var buffer: AssemblerBuffer { get }

    // MARK: ABI roles
    /// Integer argument registers of the C calling convention, in order.
    static var argumentRegisters: [Register] { get }
    static var returnRegister: Register { get }
    /// Registers a callee must preserve (the JIT keeps its long-lived state there).
    static var calleeSavedRegisters: [Register] { get }
    /// Registers the JIT may use freely between calls (caller-saved, not reserved).
    static var temporaryRegisters: [Register] { get }
    static var stackPointer: Register { get }
    static var framePointer: Register { get }
    static var fpArgumentRegisters: [FPRegister] { get }
    static var fpTemporaryRegisters: [FPRegister] { get }

    // MARK: Positions
    func label() -> Label
    func link(_ jump: Jump, to label: Label)
    func linkHere(_ jump: Jump)

    // MARK: Moves, loads and stores
    func move(_ src: Register, _ dst: Register)
    func move(imm: UInt64, _ dst: Register)
    func load64(_ base: Register, _ offset: Int32, _ dst: Register)
    func load32(_ base: Register, _ offset: Int32, _ dst: Register)
    func load8(_ base: Register, _ offset: Int32, _ dst: Register)
    /// `dst = *(base + index * 8 + offset)`
    func load64(_ base: Register, index: Register, _ offset: Int32, _ dst: Register)
    func store64(_ src: Register, _ base: Register, _ offset: Int32)
    func store64(imm: Int32, _ base: Register, _ offset: Int32)
    func store32(_ src: Register, _ base: Register, _ offset: Int32)
    func store8(_ src: Register, _ base: Register, _ offset: Int32)
    /// `*(base + index * 8 + offset) = src`
    func store64(_ src: Register, _ base: Register, index: Register, _ offset: Int32)

    // MARK: Integer arithmetic (`dst op= src`)
    func add64(_ src: Register, _ dst: Register)
    func add64(imm: Int32, _ dst: Register)
    func sub64(_ src: Register, _ dst: Register)
    func sub64(imm: Int32, _ dst: Register)
    func and64(_ src: Register, _ dst: Register)
    func and64(imm: Int32, _ dst: Register)
    func or64(_ src: Register, _ dst: Register)
    func xor64(_ src: Register, _ dst: Register)
    func shiftLeft64(imm: UInt8, _ dst: Register)
    func shiftRightArithmetic64(imm: UInt8, _ dst: Register)
    func shiftRightLogical64(imm: UInt8, _ dst: Register)
    func add32(_ src: Register, _ dst: Register)
    func and32(_ src: Register, _ dst: Register)
    func or32(_ src: Register, _ dst: Register)
    func xor32(_ src: Register, _ dst: Register)
    /// 32-bit shifts by a register count (masked to 5 bits, as JS shifts are).
    func shiftLeft32(_ count: Register, _ dst: Register)
    func shiftRightArithmetic32(_ count: Register, _ dst: Register)
    func shiftRightLogical32(_ count: Register, _ dst: Register)
    /// Zero-extends the low 32 bits of `r` (clears bits 32–63).
    func zeroExtend32(_ r: Register)
    func negate32(_ dst: Register)
    /// `dst = dst % divisor`, signed 32-bit, the upper half zeroed. The caller rules out a
    /// zero divisor and `-2^31 % -1` (x86 faults on both).
    func remainder32(_ divisor: Register, _ dst: Register)

    /// `dst += src` (32-bit) and a jump taken when the condition holds on the result.
    func branchAdd32(_ cond: ResultCondition, _ src: Register, _ dst: Register) -> Jump
    func branchAdd32(_ cond: ResultCondition, imm: Int32, _ dst: Register) -> Jump
    func branchSub32(_ cond: ResultCondition, _ src: Register, _ dst: Register) -> Jump
    func branchSub32(_ cond: ResultCondition, imm: Int32, _ dst: Register) -> Jump
    func branchMul32(_ cond: ResultCondition, _ src: Register, _ dst: Register) -> Jump

    // MARK: Compares and branches
    func branch32(_ cond: RelationalCondition, _ a: Register, _ b: Register) -> Jump
    func branch32(_ cond: RelationalCondition, _ a: Register, imm: Int32) -> Jump
    func branch64(_ cond: RelationalCondition, _ a: Register, _ b: Register) -> Jump
    func branch64(_ cond: RelationalCondition, _ a: Register, imm: Int32) -> Jump
    /// Compares a 64-bit word in memory with a register (a shape check).
    func branch64(_ cond: RelationalCondition, _ base: Register, _ offset: Int32, _ b: Register) -> Jump
    /// Jumps if `a & mask` is zero / non-zero / negative ...
    func branchTest64(_ cond: ResultCondition, _ a: Register, _ mask: Register) -> Jump
    func branchTest32(_ cond: ResultCondition, _ a: Register, imm: Int32) -> Jump
    func branchTest8(_ cond: ResultCondition, _ base: Register, _ offset: Int32, imm: UInt8) -> Jump
    /// `dst = (a cond b) ? 1 : 0`
    func compare32(_ cond: RelationalCondition, _ a: Register, _ b: Register, _ dst: Register)
    func compare64(_ cond: RelationalCondition, _ a: Register, _ b: Register, _ dst: Register)
    func jump() -> Jump
    /// A jump to a bound label (a back edge): the short form when it fits.
    func jump(to label: Label)
    func branch32(_ cond: RelationalCondition, _ a: Register, _ b: Register, to label: Label)
    func jump(_ target: Register)

    // MARK: Calls and the stack
    func call(_ target: Register)
    /// Calls a function at an absolute address (through a scratch register).
    func call(address: UnsafeRawPointer)
    /// Calls a bound label of this buffer (pc-relative: a body calling itself).
    func call(to label: Label)
    func ret()
    func push(_ r: Register)
    func pop(_ r: Register)
    func breakpoint()

    // MARK: Doubles
    func loadDouble(_ base: Register, _ offset: Int32, _ dst: FPRegister)
    func storeDouble(_ src: FPRegister, _ base: Register, _ offset: Int32)
    func moveDouble(_ src: FPRegister, _ dst: FPRegister)
    func move64ToDouble(_ src: Register, _ dst: FPRegister)
    func moveDoubleTo64(_ src: FPRegister, _ dst: Register)
    func addDouble(_ src: FPRegister, _ dst: FPRegister)
    func subDouble(_ src: FPRegister, _ dst: FPRegister)
    func mulDouble(_ src: FPRegister, _ dst: FPRegister)
    func divDouble(_ src: FPRegister, _ dst: FPRegister)
    func sqrtDouble(_ src: FPRegister, _ dst: FPRegister)
    func convertInt32ToDouble(_ src: Register, _ dst: FPRegister)
    /// Jumps if `a cond b`; the `OrUnordered` conditions also jump when either is NaN.
    /// (Some conditions take two machine branches: link every jump returned.)
    func branchDouble(_ cond: DoubleCondition, _ a: FPRegister, _ b: FPRegister) -> [Jump]
    /// `dst = Int32(src)` when `src` is exactly an int32 (and not -0); otherwise jumps
    /// (the returned jumps are the failure cases).
    func branchConvertDoubleToInt32(_ src: FPRegister, _ dst: Register, scratch: FPRegister) -> [Jump]
}

/// Integer comparisons; signed and unsigned named as JavaScriptCore names them.
public enum RelationalCondition: Sendable, CaseIterable {
    case equal, notEqual
    /// Unsigned.
    case above, aboveOrEqual, below, belowOrEqual
    /// Signed.
    case greaterThan, greaterThanOrEqual, lessThan, lessThanOrEqual

    public var inverted: RelationalCondition {
        switch self {
        case .equal: return .notEqual
        case .notEqual: return .equal
        case .above: return .belowOrEqual
        case .aboveOrEqual: return .below
        case .below: return .aboveOrEqual
        case .belowOrEqual: return .above
        case .greaterThan: return .lessThanOrEqual
        case .greaterThanOrEqual: return .lessThan
        case .lessThan: return .greaterThanOrEqual
        case .lessThanOrEqual: return .greaterThan
        }
    }
}

/// Conditions on the result of an arithmetic or test operation.
public enum ResultCondition: Sendable, CaseIterable {
    case overflow, signed, positiveOrZero, zero, nonZero
}

/// Double comparisons: ordered ones are false when either operand is NaN; the
/// `OrUnordered` ones are true then.
public enum DoubleCondition: Sendable, CaseIterable {
    case equal, notEqual, greaterThan, greaterThanOrEqual, lessThan, lessThanOrEqual
    case equalOrUnordered, notEqualOrUnordered, greaterThanOrUnordered, greaterThanOrEqualOrUnordered
    case lessThanOrUnordered, lessThanOrEqualOrUnordered
}
