import Testing
#if canImport(Glibc)
import Glibc
#endif
import JSAssembler

/// Machine code copied into its own pages, written while RW, run while RX (never both).
final class ExecutableCode {
    let base: UnsafeMutableRawPointer
    let size: Int

    init(_ m: MacroAssemblerX86_64) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        size = (m.buffer.count + page - 1) / page * page
        base = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)!
        base.copyMemory(from: m.buffer.bytes, byteCount: m.buffer.count)
        precondition(mprotect(base, size, PROT_READ | PROT_EXEC) == 0)
    }

    deinit { munmap(base, size) }

    func callAsFunction<F>(as type: F.Type) -> F { unsafeBitCast(base, to: type) }
}

typealias M = MacroAssemblerX86_64
let arg0 = M.argumentRegisters[0], arg1 = M.argumentRegisters[1], arg2 = M.argumentRegisters[2]
let ret0 = M.returnRegister

private func add3(_ a: Int64, _ b: Int64, _ c: Int64) -> Int64 { a + b * c }
private let add3Pointer: @convention(c) (Int64, Int64, Int64) -> Int64 = { add3($0, $1, $2) }

@Suite struct X86_64ExecutionTests {
    /// `a + b` as int32, or -1 on overflow (the JIT's int32 fast path).
    @Test func int32AddWithOverflowCheck() {
        let m = M()
        m.move(arg0, ret0)
        let overflow = m.branchAdd32(.overflow, arg1, ret0)
        m.zeroExtend32(ret0)
        m.ret()
        m.linkHere(overflow)
        m.move(imm: UInt64(bitPattern: -1), ret0)
        m.ret()
        let code = ExecutableCode(m)
        let f = code(as: (@convention(c) (Int64, Int64) -> Int64).self)
        #expect(f(2, 3) == 5)
        #expect(f(Int64(UInt32(bitPattern: -7)), 3) == Int64(UInt32(bitPattern: -4)))
        #expect(f(Int64(Int32.max), 1) == -1)
        #expect(f(Int64(UInt32(bitPattern: Int32.min)), Int64(UInt32(bitPattern: -1))) == -1)
    }

    /// `a % b` (signed 32-bit) into each destination, with the divisor in each of the
    /// registers `idiv` uses: rax and rdx come back unchanged unless they are the destination.
    @Test func remainder32InEveryPlace() {
        for (dst, divisor) in [(X86GPR.rax, X86GPR.rcx), (.rdx, .rcx), (.rdi, .rsi), (.r8, .rax), (.r9, .rdx)] {
            let m = M()
            m.push(.rbx)
            m.move(imm: 0x1111, .rax)
            m.move(imm: 0x2222, .rdx)
            m.move(arg0, .r10)
            m.move(arg1, .rbx)
            if dst != .rax && dst != .rdx { m.move(.r10, dst) }
            if divisor != .rax && divisor != .rdx { m.move(.rbx, divisor) }
            if divisor == .rax || divisor == .rdx { m.move(.rbx, divisor) }
            if dst == .rax || dst == .rdx { m.move(.r10, dst) }
            let keptRax = divisor == .rax ? UInt64(0) : 0x1111, keptRdx = divisor == .rdx ? UInt64(0) : 0x2222
            m.remainder32(divisor, dst)
            // The result, plus 2^32 and 2^33 when rax and rdx were kept.
            m.move(dst, .r10)
            if dst != .rax && divisor != .rax {
                m.move(imm: keptRax, .rbx)
                let changed = m.branch64(.notEqual, .rax, .rbx)
                m.move(imm: 1 << 32, .rbx)
                m.add64(.rbx, .r10)
                m.linkHere(changed)
            }
            if dst != .rdx && divisor != .rdx {
                m.move(imm: keptRdx, .rbx)
                let changed = m.branch64(.notEqual, .rdx, .rbx)
                m.move(imm: 1 << 33, .rbx)
                m.add64(.rbx, .r10)
                m.linkHere(changed)
            }
            m.move(.r10, ret0)
            m.pop(.rbx)
            m.ret()
            let code = ExecutableCode(m)
            let f = code(as: (@convention(c) (Int64, Int64) -> Int64).self)
            let kept: Int64 = (dst != .rax && divisor != .rax ? 1 << 32 : 0) + (dst != .rdx && divisor != .rdx ? 1 << 33 : 0)
            #expect(f(17, 5) == 2 + kept, "\(dst) % \(divisor)")
            #expect(f(Int64(UInt32(bitPattern: -17)), 5) == Int64(UInt32(bitPattern: -2)) + kept, "\(dst) % \(divisor)")
            #expect(f(Int64(Int32.max), 10) == 7 + kept, "\(dst) % \(divisor)")
        }
    }

    /// A pc-relative call to a bound label (`call(to:)`, E8 rel32), recursive as a body
    /// that calls its own start: sum of 1...n, one nested call per step.
    @Test func recursiveCallToLabel() {
        let m = M()
        let over = m.jump()
        let sum = m.label()
        m.move(imm: 0, ret0)
        let done = m.branch64(.lessThanOrEqual, arg0, imm: 0)
        m.push(arg0)
        m.sub64(imm: 1, arg0)
        m.call(to: sum)
        m.pop(arg0)
        m.add64(arg0, ret0)
        m.linkHere(done)
        m.ret()
        m.linkHere(over)
        m.call(to: sum)
        m.ret()
        let code = ExecutableCode(m)
        let f = code(as: (@convention(c) (Int64) -> Int64).self)
        #expect(f(0) == 0)
        #expect(f(10) == 55)
        #expect(f(1000) == 500_500)
    }

    /// A counted loop with a back edge to a bound label: sum of 1...n.
    @Test func loopWithBackEdge() {
        let n = M()
        n.move(imm: 0, ret0)
        n.move(imm: 0, .r10)
        let skip = n.branch64(.lessThanOrEqual, arg0, imm: 0)
        let loop = n.label()
        n.add64(arg0, ret0)
        n.sub64(imm: 1, arg0)
        n.branch32(.notEqual, arg0, .r10, to: loop)
        n.linkHere(skip)
        n.ret()
        let code = ExecutableCode(n)
        let f = code(as: (@convention(c) (Int64) -> Int64).self)
        #expect(f(0) == 0)
        #expect(f(10) == 55)
        #expect(f(100_000) == 5_000_050_000)
    }

    /// Every relational condition, 32 and 64 bits, against Swift's comparison.
    @Test func relationalConditions() {
        let values: [Int64] = [0, 1, -1, 5, Int64(Int32.max), Int64(Int32.min), Int64.max, Int64.min, 1 << 40]
        for cond in RelationalCondition.allCases {
            for wide in [false, true] {
                let m = M()
                if wide { m.compare64(cond, arg0, arg1, ret0) } else { m.compare32(cond, arg0, arg1, ret0) }
                m.ret()
                let code = ExecutableCode(m)
                let f = code(as: (@convention(c) (Int64, Int64) -> Int64).self)
                for a in values { for b in values {
                    let want: Bool
                    if wide {
                        want = Self.holds(cond, a, b)
                    } else {
                        want = Self.holds(cond, Int64(Int32(truncatingIfNeeded: a)), Int64(Int32(truncatingIfNeeded: b)), unsigned32: true)
                    }
                    #expect(f(a, b) == (want ? 1 : 0), "\(cond) \(wide ? 64 : 32) \(a) \(b)")
                } }
            }
        }
    }

    /// IEEE comparison: ordered conditions are false when either is NaN, the
    /// `OrUnordered` ones true.
    static func holds(_ cond: DoubleCondition, _ a: Double, _ b: Double) -> Bool {
        let u = a.isNaN || b.isNaN
        switch cond {
        case .equal: return a == b
        case .notEqual: return !u && a != b
        case .greaterThan: return a > b
        case .greaterThanOrEqual: return a >= b
        case .lessThan: return a < b
        case .lessThanOrEqual: return a <= b
        case .equalOrUnordered: return u || a == b
        case .notEqualOrUnordered: return u || a != b
        case .greaterThanOrUnordered: return u || a > b
        case .greaterThanOrEqualOrUnordered: return u || a >= b
        case .lessThanOrUnordered: return u || a < b
        case .lessThanOrEqualOrUnordered: return u || a <= b
        }
    }

    static func holds(_ c: RelationalCondition, _ a: Int64, _ b: Int64, unsigned32: Bool = false) -> Bool {
        let ua = unsigned32 ? UInt64(UInt32(truncatingIfNeeded: a)) : UInt64(bitPattern: a)
        let ub = unsigned32 ? UInt64(UInt32(truncatingIfNeeded: b)) : UInt64(bitPattern: b)
        switch c {
        case .equal: return a == b
        case .notEqual: return a != b
        case .above: return ua > ub
        case .aboveOrEqual: return ua >= ub
        case .below: return ua < ub
        case .belowOrEqual: return ua <= ub
        case .greaterThan: return a > b
        case .greaterThanOrEqual: return a >= b
        case .lessThan: return a < b
        case .lessThanOrEqual: return a <= b
        }
    }

    /// Every double condition, NaN included, against IEEE comparison in Swift.
    @Test func doubleConditions() {
        let values: [Double] = [0, -0.0, 1, -1, 0.5, .infinity, -.infinity, .nan, 1e300]
        for cond in DoubleCondition.allCases {
            let m = M()
            m.move(imm: 1, ret0)
            let taken = m.branchDouble(cond, .xmm0, .xmm1)
            m.move(imm: 0, ret0)
            for j in taken { m.linkHere(j) }
            m.ret()
            let code = ExecutableCode(m)
            let f = code(as: (@convention(c) (Double, Double) -> Int64).self)
            for a in values { for b in values {
                let want = Self.holds(cond, a, b)
                #expect(f(a, b) == (want ? 1 : 0), "\(cond) \(a) \(b)")
            } }
        }
    }

    /// Double arithmetic and int32 <-> double conversions.
    @Test func doubleArithmeticAndConversions() {
        let m = M()
        // (a * b + c) / a, then sqrt
        m.moveDouble(.xmm0, .xmm3)
        m.mulDouble(.xmm1, .xmm3)
        m.addDouble(.xmm2, .xmm3)
        m.divDouble(.xmm0, .xmm3)
        m.sqrtDouble(.xmm3, .xmm0)
        m.ret()
        let code = ExecutableCode(m)
        let f = code(as: (@convention(c) (Double, Double, Double) -> Double).self)
        #expect(f(2, 7, 4) == (9.0).squareRoot())

        let c = M()
        let failures = c.branchConvertDoubleToInt32(.xmm0, ret0, scratch: .xmm1)
        c.zeroExtend32(ret0)
        c.ret()
        for j in failures { c.linkHere(j) }
        c.move(imm: UInt64(bitPattern: -1), ret0)
        c.ret()
        let convert = ExecutableCode(c)
        let g = convert(as: (@convention(c) (Double) -> Int64).self)
        #expect(g(0) == 0)
        #expect(g(-0.0) == -1)          // -0 is not an int32
        #expect(g(42) == 42)
        #expect(g(-7) == Int64(UInt32(bitPattern: -7)))
        #expect(g(1.5) == -1)
        #expect(g(.nan) == -1)
        #expect(g(2147483648) == -1)
        #expect(g(2147483647) == 2147483647)
        #expect(g(-2147483648) == Int64(UInt32(bitPattern: Int32.min)))

        let i = M()
        i.convertInt32ToDouble(arg0, .xmm0)
        i.move64ToDouble(arg1, .xmm1)
        i.addDouble(.xmm1, .xmm0)
        i.ret()
        let toDouble = ExecutableCode(i)
        let h = toDouble(as: (@convention(c) (Int64, UInt64) -> Double).self)
        #expect(h(Int64(UInt32(bitPattern: -3)), (0.25).bitPattern) == -2.75)
    }

    /// A call to a C function at an absolute address, through the scratch register, with
    /// the stack kept 16-byte aligned.
    @Test func callsAbsoluteAddress() {
        let m = M()
        m.push(M.framePointer)        // aligns the stack for the call
        m.call(address: unsafeBitCast(add3Pointer, to: UnsafeRawPointer.self))
        m.add64(imm: 1, ret0)
        m.pop(M.framePointer)
        m.ret()
        let code = ExecutableCode(m)
        let f = code(as: (@convention(c) (Int64, Int64, Int64) -> Int64).self)
        #expect(f(1, 2, 3) == 8)
    }

    /// Loads and stores with an index register, and 32-bit shifts by a register count
    /// whichever register holds the count or the value.
    @Test func memoryAndShifts() {
        let m = M()
        // slots[i] = slots[i] * 2 + 1; returns the old value
        m.load64(arg0, index: arg1, 0, ret0)
        m.move(ret0, .r8)
        m.add64(.r8, .r8)
        m.add64(imm: 1, .r8)
        m.store64(.r8, arg0, index: arg1, 0)
        m.ret()
        let code = ExecutableCode(m)
        let f = code(as: (@convention(c) (UnsafeMutablePointer<Int64>, Int64) -> Int64).self)
        var slots: [Int64] = [10, 20, 30]
        slots.withUnsafeMutableBufferPointer { b in
            #expect(f(b.baseAddress!, 1) == 20)
        }
        #expect(slots == [10, 41, 30])

        for (valueReg, countReg) in [(X86GPR.rax, X86GPR.rcx), (.rcx, .rdx), (.rdx, .rsi), (.r9, .r10)] {
            let s = M()
            s.move(arg1, .r10)       // the inputs out of the way first
            s.move(arg0, .r8)
            s.move(.r8, valueReg)
            s.move(.r10, countReg)
            s.shiftLeft32(countReg, valueReg)
            s.move(valueReg, ret0)
            s.zeroExtend32(ret0)
            s.ret()
            let shift = ExecutableCode(s)
            let g = shift(as: (@convention(c) (Int64, Int64) -> Int64).self)
            #expect(g(3, 4) == 48, "value in \(valueReg), count in \(countReg)")
            #expect(g(1, 33) == 2, "count masked to 5 bits")
        }
    }
}
