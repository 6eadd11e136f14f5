/// Raw arm64 (A64) encoders: one method per instruction form, named after the Arm
/// Architecture Reference Manual's mnemonics, operands in assembly order (destination
/// first). Each doc comment gives the encoding class of the form. Every instruction is one
/// little-endian 32-bit word. Aliases (`mov`, `cmp`, `lsl`, `neg`, `cset`, …) emit the
/// instruction the manual defines them as, as assemblers do, so the words match llvm-mc
/// (the golden tests check every form).
public struct ARM64Assembler {
    public let buffer: AssemblerBuffer

    public init(buffer: AssemblerBuffer = AssemblerBuffer()) {
        self.buffer = buffer
    }

    @inline(__always) public var offset: Int { buffer.count }
    @inline(__always) func emit(_ word: UInt32) { buffer.emit32(word) }
    @inline(__always) static func sf(_ is64: Bool) -> UInt32 { is64 ? 1 << 31 : 0 }

    // MARK: - Add and subtract

    /// The add/subtract forms: op (0 add, 1 sub) and S (set flags).
    public enum AddSub: UInt32, Sendable { case add = 0, adds = 1, sub = 2, subs = 3 }

    /// ADD/ADDS/SUB/SUBS (immediate) — sf op S 100010 sh imm12 Rn Rd. `imm` is 0…4095, or
    /// a multiple of 4096 up to 4095 << 12 (the `lsl #12` form).
    public func addSub(_ op: AddSub, _ is64: Bool, _ rd: ARM64GPR, _ rn: ARM64GPR, imm: UInt32) {
        let shifted = imm > 4095
        precondition(!shifted || (imm & 0xFFF == 0 && imm >> 12 <= 4095), "immediate not encodable")
        let imm12 = shifted ? imm >> 12 : imm
        emit(Self.sf(is64) | op.rawValue << 29 | 0x1100_0000 | (shifted ? 1 << 22 : 0) | imm12 << 10 | rn.code << 5 | rd.code)
    }

    /// ADD/ADDS/SUB/SUBS (shifted register) — sf op S 01011 shift 0 Rm imm6 Rn Rd
    public func addSub(_ op: AddSub, _ is64: Bool, _ rd: ARM64GPR, _ rn: ARM64GPR, _ rm: ARM64GPR,
                       shift: ARM64Shift = .lsl, amount: UInt32 = 0) {
        emit(Self.sf(is64) | op.rawValue << 29 | 0x0B00_0000 | shift.rawValue << 22 | rm.code << 16 | amount << 10 | rn.code << 5 | rd.code)
    }

    /// Whether `imm` fits the add/subtract immediate forms.
    public static func isAddSubImmediate(_ imm: UInt64) -> Bool {
        imm <= 4095 || (imm & 0xFFF == 0 && imm >> 12 <= 4095)
    }

    // MARK: - Logical

    /// The logical forms: opc (and, orr, eor, ands).
    public enum Logical: UInt32, Sendable { case and = 0, orr = 1, eor = 2, ands = 3 }

    /// AND/ORR/EOR/ANDS (shifted register) — sf opc 01010 shift N Rm imm6 Rn Rd
    /// (`invert`: N = 1, the BIC/ORN/EON/BICS forms).
    public func logical(_ op: Logical, _ is64: Bool, _ rd: ARM64GPR, _ rn: ARM64GPR, _ rm: ARM64GPR,
                        shift: ARM64Shift = .lsl, amount: UInt32 = 0, invert: Bool = false) {
        emit(Self.sf(is64) | op.rawValue << 29 | 0x0A00_0000 | shift.rawValue << 22 | (invert ? 1 << 21 : 0)
             | rm.code << 16 | amount << 10 | rn.code << 5 | rd.code)
    }

    /// AND/ORR/EOR/ANDS (immediate) — sf opc 100100 N immr imms Rn Rd. `imm` must be a
    /// bitmask immediate (`encodeLogicalImmediate`).
    public func logical(_ op: Logical, _ is64: Bool, _ rd: ARM64GPR, _ rn: ARM64GPR, imm: UInt64) {
        guard let bits = Self.encodeLogicalImmediate(imm, width: is64 ? 64 : 32) else {
            preconditionFailure("not a bitmask immediate: \(imm)")
        }
        emit(Self.sf(is64) | op.rawValue << 29 | 0x1200_0000 | bits << 10 | rn.code << 5 | rd.code)
    }

    /// The N:immr:imms field of a bitmask immediate (a rotated run of ones, repeated in
    /// 2-, 4-, …, 64-bit elements), or nil if `imm` is not one (Arm ARM C3.4.2; the
    /// algorithm of LLVM's `processLogicalImmediate`).
    public static func encodeLogicalImmediate(_ value: UInt64, width: Int) -> UInt32? {
        var imm = width == 64 ? value : value & 0xFFFF_FFFF
        let ones: UInt64 = width == 64 ? ~0 : 0xFFFF_FFFF
        if imm == 0 || imm == ones { return nil }
        // The smallest element size the pattern repeats in.
        var size = width
        repeat {
            size /= 2
            let mask: UInt64 = (1 << UInt64(size)) - 1
            if imm & mask != (imm >> UInt64(size)) & mask {
                size *= 2
                break
            }
        } while size > 2
        let mask: UInt64 = size == 64 ? ~0 : (1 << UInt64(size)) - 1
        imm &= mask
        func isShiftedMask(_ v: UInt64) -> Bool {
            guard v != 0 else { return false }
            let filled = (v &- 1) | v           // ones below the lowest set bit filled in
            return (filled &+ 1) & filled == 0  // then it is 0…01…1
        }
        var rotation: Int, trailingOnes: Int
        if isShiftedMask(imm) {
            rotation = imm.trailingZeroBitCount
            trailingOnes = (~(imm >> UInt64(rotation))).trailingZeroBitCount
        } else {
            imm |= ~mask
            if !isShiftedMask(~imm) { return nil }
            let leadingOnes = (~imm).leadingZeroBitCount
            rotation = 64 - leadingOnes
            trailingOnes = leadingOnes + (~imm).trailingZeroBitCount - (64 - size)
        }
        let immr = UInt32((size - rotation) & (size - 1))
        var nImms = UInt32(truncatingIfNeeded: ~(size - 1) << 1)
        nImms |= UInt32(trailingOnes - 1)
        let n = ((nImms >> 6) & 1) ^ 1
        return n << 12 | immr << 6 | (nImms & 0x3F)
    }

    // MARK: - Moves

    /// MOVZ/MOVK/MOVN — sf opc 100101 hw imm16 Rd (opc: 00 movn, 10 movz, 11 movk)
    public enum Wide: UInt32, Sendable { case movn = 0, movz = 2, movk = 3 }

    public func moveWide(_ op: Wide, _ is64: Bool, _ rd: ARM64GPR, imm16: UInt16, shift: UInt32 = 0) {
        precondition(shift % 16 == 0 && shift < (is64 ? 64 : 32))
        emit(Self.sf(is64) | op.rawValue << 29 | 0x1280_0000 | (shift / 16) << 21 | UInt32(imm16) << 5 | rd.code)
    }

    /// MOV (register) — ORR Rd, ZR, Rm; MOV to or from SP — ADD Rd, Rn, #0.
    public func mov(_ is64: Bool, _ rd: ARM64GPR, _ rm: ARM64GPR) {
        if rd == .sp || rm == .sp { addSub(.add, is64, rd, rm, imm: 0) } else { logical(.orr, is64, rd, .zr, rm) }
    }

    /// A 64-bit constant in the fewest MOVZ/MOVN + MOVK instructions (or one ORR when it is
    /// a bitmask immediate).
    public func movImmediate64(_ rd: ARM64GPR, _ value: UInt64) {
        let halves = (0..<4).map { UInt16(truncatingIfNeeded: value >> UInt64($0 * 16)) }
        let zeroHalves = halves.filter { $0 == 0 }.count
        let onesHalves = halves.filter { $0 == 0xFFFF }.count
        if zeroHalves < 3 && onesHalves < 3, Self.encodeLogicalImmediate(value, width: 64) != nil {
            logical(.orr, true, rd, .zr, imm: value)
            return
        }
        let inverted = onesHalves > zeroHalves
        var first = true
        for (i, h) in halves.enumerated() where h != (inverted ? 0xFFFF : 0) {
            if first {
                moveWide(inverted ? .movn : .movz, true, rd, imm16: inverted ? ~h : h, shift: UInt32(i * 16))
                first = false
            } else {
                moveWide(.movk, true, rd, imm16: h, shift: UInt32(i * 16))
            }
        }
        if first { moveWide(inverted ? .movn : .movz, true, rd, imm16: 0) }
    }

    // MARK: - Bitfield, shifts, multiply, divide, conditional select

    /// UBFM/SBFM — sf opc 100110 N immr imms Rn Rd (opc: 00 sbfm, 10 ubfm)
    public func bitfield(unsigned: Bool, _ is64: Bool, _ rd: ARM64GPR, _ rn: ARM64GPR, immr: UInt32, imms: UInt32) {
        emit(Self.sf(is64) | (unsigned ? 2 : 0) << 29 | 0x1300_0000 | (is64 ? 1 << 22 : 0) | immr << 16 | imms << 10 | rn.code << 5 | rd.code)
    }
    /// LSL (immediate) — UBFM Rd, Rn, #(-s mod size), #(size - 1 - s)
    public func lsl(_ is64: Bool, _ rd: ARM64GPR, _ rn: ARM64GPR, _ s: UInt32) {
        let size: UInt32 = is64 ? 64 : 32
        bitfield(unsigned: true, is64, rd, rn, immr: (size - s) % size, imms: size - 1 - s)
    }
    /// LSR (immediate) — UBFM Rd, Rn, #s, #(size - 1)
    public func lsr(_ is64: Bool, _ rd: ARM64GPR, _ rn: ARM64GPR, _ s: UInt32) {
        bitfield(unsigned: true, is64, rd, rn, immr: s, imms: is64 ? 63 : 31)
    }
    /// ASR (immediate) — SBFM Rd, Rn, #s, #(size - 1)
    public func asr(_ is64: Bool, _ rd: ARM64GPR, _ rn: ARM64GPR, _ s: UInt32) {
        bitfield(unsigned: false, is64, rd, rn, immr: s, imms: is64 ? 63 : 31)
    }
    /// SXTW Xd, Wn — SBFM Xd, Xn, #0, #31
    public func sxtw(_ rd: ARM64GPR, _ rn: ARM64GPR) { bitfield(unsigned: false, true, rd, rn, immr: 0, imms: 31) }

    /// The data-processing (2 source) forms: LSLV, LSRV, ASRV, UDIV, SDIV.
    public enum TwoSource: UInt32, Sendable { case udiv = 0x0800, sdiv = 0x0C00, lslv = 0x2000, lsrv = 0x2400, asrv = 0x2800 }

    /// LSLV/LSRV/ASRV/UDIV/SDIV — sf 0 0 11010110 Rm opcode Rn Rd
    public func twoSource(_ op: TwoSource, _ is64: Bool, _ rd: ARM64GPR, _ rn: ARM64GPR, _ rm: ARM64GPR) {
        emit(Self.sf(is64) | 0x1AC0_0000 | rm.code << 16 | op.rawValue | rn.code << 5 | rd.code)
    }

    /// MADD/MSUB — sf 00 11011 000 Rm o0 Ra Rn Rd (MUL is MADD with Ra = ZR)
    public func multiplyAdd(subtract: Bool, _ is64: Bool, _ rd: ARM64GPR, _ rn: ARM64GPR, _ rm: ARM64GPR, _ ra: ARM64GPR) {
        emit(Self.sf(is64) | 0x1B00_0000 | rm.code << 16 | (subtract ? 1 << 15 : 0) | ra.code << 10 | rn.code << 5 | rd.code)
    }
    /// SMULL Xd, Wn, Wm — SMADDL with Ra = XZR: 1 00 11011 001 Rm 0 11111 Rn Rd
    public func smull(_ rd: ARM64GPR, _ rn: ARM64GPR, _ rm: ARM64GPR) {
        emit(0x9B20_7C00 | rm.code << 16 | rn.code << 5 | rd.code)
    }

    /// CSEL/CSINC/CSINV/CSNEG — sf op 0 11010100 Rm cond o2 Rn Rd
    public enum Select: UInt32, Sendable { case csel = 0, csinc = 0x400, csinv = 0x4000_0000, csneg = 0x4000_0400 }

    public func conditionalSelect(_ op: Select, _ is64: Bool, _ rd: ARM64GPR, _ rn: ARM64GPR, _ rm: ARM64GPR, _ cond: ARM64Condition) {
        emit(Self.sf(is64) | 0x1A80_0000 | op.rawValue | rm.code << 16 | UInt32(cond.rawValue) << 12 | rn.code << 5 | rd.code)
    }
    /// CSET Rd, cond — CSINC Rd, ZR, ZR, invert(cond)
    public func cset(_ is64: Bool, _ rd: ARM64GPR, _ cond: ARM64Condition) {
        conditionalSelect(.csinc, is64, rd, .zr, .zr, cond.inverted)
    }

    // MARK: - Loads and stores

    /// The sizes of the load/store forms (bits 31:30) and whether they load.
    public enum Access: Sendable { case strb, ldrb, strh, ldrh, strw, ldrw, strx, ldrx

        var size: UInt32 {
            switch self {
            case .strb, .ldrb: return 0
            case .strh, .ldrh: return 1
            case .strw, .ldrw: return 2
            case .strx, .ldrx: return 3
            }
        }
        var isLoad: Bool { self == .ldrb || self == .ldrh || self == .ldrw || self == .ldrx }
    }

    /// LDR/STR (unsigned offset) — size 111 0 01 opc imm12 Rn Rt; `offset` a multiple of
    /// the access size, 0 … 4095 × size.
    public func loadStore(_ a: Access, _ rt: ARM64GPR, _ rn: ARM64GPR, offset: UInt32) {
        let scale = a.size
        precondition(offset % (1 << scale) == 0 && offset >> scale <= 4095, "offset not encodable")
        emit(a.size << 30 | 0x3900_0000 | (a.isLoad ? 1 << 22 : 0) | (offset >> scale) << 10 | rn.code << 5 | rt.code)
    }
    /// LDUR/STUR (unscaled, signed 9-bit offset) — size 111 0 00 opc 0 imm9 00 Rn Rt
    public func loadStoreUnscaled(_ a: Access, _ rt: ARM64GPR, _ rn: ARM64GPR, offset: Int32) {
        precondition(offset >= -256 && offset <= 255)
        emit(a.size << 30 | 0x3800_0000 | (a.isLoad ? 1 << 22 : 0) | (UInt32(bitPattern: offset) & 0x1FF) << 12 | rn.code << 5 | rt.code)
    }
    /// LDR/STR (register offset, LSL by the access size when `scaled`) — size 111 0 00 opc 1
    /// Rm option(011) S 10 Rn Rt
    public func loadStoreIndexed(_ a: Access, _ rt: ARM64GPR, _ rn: ARM64GPR, _ rm: ARM64GPR, scaled: Bool) {
        emit(a.size << 30 | 0x3820_6800 | (a.isLoad ? 1 << 22 : 0) | rm.code << 16 | (scaled ? 1 << 12 : 0) | rn.code << 5 | rt.code)
    }

    /// The addressing of LDP/STP: signed offset, pre-index (writeback before), post-index.
    public enum PairMode: UInt32, Sendable { case postIndex = 1, offset = 2, preIndex = 3 }

    /// LDP/STP (64-bit) — 10 101 0 mode L imm7 Rt2 Rn Rt; `offset` a multiple of 8 in
    /// -512 … 504.
    public func loadStorePair(load: Bool, _ mode: PairMode, _ rt: ARM64GPR, _ rt2: ARM64GPR, _ rn: ARM64GPR, offset: Int32) {
        precondition(offset % 8 == 0 && offset >= -512 && offset <= 504)
        emit(0xA800_0000 | mode.rawValue << 23 | (load ? 1 << 22 : 0) | (UInt32(bitPattern: offset / 8) & 0x7F) << 15
             | rt2.code << 10 | rn.code << 5 | rt.code)
    }

    /// LDR/STR Dt (unsigned offset) — 11 111 1 01 opc imm12 Rn Rt
    public func loadStoreDouble(load: Bool, _ dt: ARM64FPR, _ rn: ARM64GPR, offset: UInt32) {
        precondition(offset % 8 == 0 && offset / 8 <= 4095)
        emit(0xFD00_0000 | (load ? 1 << 22 : 0) | (offset / 8) << 10 | rn.code << 5 | dt.code)
    }

    // MARK: - Branches

    /// B — 000101 imm26 (offset from this instruction, a multiple of 4 within ±128 MiB)
    public func b(offset: Int) { emit(0x1400_0000 | Self.field(offset, bits: 26)) }
    /// BL — 100101 imm26
    public func bl(offset: Int) { emit(0x9400_0000 | Self.field(offset, bits: 26)) }
    /// B.cond — 0101010 0 imm19 0 cond (±1 MiB)
    public func bcond(_ cond: ARM64Condition, offset: Int) { emit(0x5400_0000 | Self.field(offset, bits: 19) << 5 | UInt32(cond.rawValue)) }
    /// CBZ/CBNZ — sf 011010 op imm19 Rt
    public func cbz(_ is64: Bool, nonZero: Bool = false, _ rt: ARM64GPR, offset: Int) {
        emit(Self.sf(is64) | 0x3400_0000 | (nonZero ? 1 << 24 : 0) | Self.field(offset, bits: 19) << 5 | rt.code)
    }
    /// TBZ/TBNZ — b5 011011 op b40 imm14 Rt (±32 KiB)
    public func tbz(nonZero: Bool = false, _ rt: ARM64GPR, bit: UInt32, offset: Int) {
        emit((bit >> 5) << 31 | 0x3600_0000 | (nonZero ? 1 << 24 : 0) | (bit & 31) << 19 | Self.field(offset, bits: 14) << 5 | rt.code)
    }
    /// BR / BLR / RET — 1101011 0 0 op 11111 000000 Rn 00000
    public func br(_ rn: ARM64GPR) { emit(0xD61F_0000 | rn.code << 5) }
    public func blr(_ rn: ARM64GPR) { emit(0xD63F_0000 | rn.code << 5) }
    public func ret(_ rn: ARM64GPR = .lr) { emit(0xD65F_0000 | rn.code << 5) }
    /// NOP — D503201F; BRK #imm16 — 11010100 001 imm16 000 00
    public func nop() { emit(0xD503_201F) }
    public func brk(_ imm: UInt16 = 0) { emit(0xD420_0000 | UInt32(imm) << 5) }

    /// A branch displacement field (`bits` wide, in words).
    static func field(_ offset: Int, bits: Int) -> UInt32 {
        precondition(offset % 4 == 0, "branch offset not a multiple of 4")
        let words = offset / 4
        precondition(words >= -(1 << (bits - 1)) && words < (1 << (bits - 1)), "branch out of range")
        return UInt32(truncatingIfNeeded: words) & ((1 << UInt32(bits)) - 1)
    }

    /// A branch to be linked later: its offset and kind.
    public enum BranchKind: Sendable { case b, bcond, cbz, tbz }

    /// Points the branch at `at` (a B, B.cond, CB(N)Z or TB(N)Z word) to `target`.
    public func link(branchAt at: Int, kind: BranchKind, to target: Int) {
        let word = buffer.read32(at: at)
        let offset = target - at
        let patched: UInt32
        switch kind {
        case .b: patched = word & 0xFC00_0000 | Self.field(offset, bits: 26)
        case .bcond, .cbz: patched = word & 0xFF00_001F | Self.field(offset, bits: 19) << 5
        case .tbz: patched = word & 0xFFF8_001F | Self.field(offset, bits: 14) << 5
        }
        buffer.patch32(at: at, patched)
    }

    // MARK: - Floating point (double precision)

    /// FADD/FSUB/FMUL/FDIV Dd, Dn, Dm — 00011110 01 1 Rm opcode 10 Rn Rd
    public enum FPArith: UInt32, Sendable { case fmul = 0x0800, fdiv = 0x1800, fadd = 0x2800, fsub = 0x3800 }

    public func fpArith(_ op: FPArith, _ dd: ARM64FPR, _ dn: ARM64FPR, _ dm: ARM64FPR) {
        emit(0x1E60_0000 | dm.code << 16 | op.rawValue | dn.code << 5 | dd.code)
    }
    /// FSQRT Dd, Dn — 00011110 01 1 0000 11 10000 Rn Rd
    public func fsqrt(_ dd: ARM64FPR, _ dn: ARM64FPR) { emit(0x1E61_C000 | dn.code << 5 | dd.code) }
    /// FMOV Dd, Dn — 00011110 01 1 0000 00 10000 Rn Rd
    public func fmov(_ dd: ARM64FPR, _ dn: ARM64FPR) { emit(0x1E60_4000 | dn.code << 5 | dd.code) }
    /// FMOV Xd, Dn — 1 00 11110 01 1 00 110 000000 Rn Rd
    public func fmov(_ xd: ARM64GPR, _ dn: ARM64FPR) { emit(0x9E66_0000 | dn.code << 5 | xd.code) }
    /// FMOV Dd, Xn — 1 00 11110 01 1 00 111 000000 Rn Rd
    public func fmov(_ dd: ARM64FPR, _ xn: ARM64GPR) { emit(0x9E67_0000 | xn.code << 5 | dd.code) }
    /// FCMP Dn, Dm — 00011110 01 1 Rm 00 1000 Rn 00000
    public func fcmp(_ dn: ARM64FPR, _ dm: ARM64FPR) { emit(0x1E60_2000 | dm.code << 16 | dn.code << 5) }
    /// SCVTF Dd, Wn / Xn — sf 00 11110 01 1 00 010 000000 Rn Rd
    public func scvtf(_ is64: Bool, _ dd: ARM64FPR, _ rn: ARM64GPR) { emit(Self.sf(is64) | 0x1E62_0000 | rn.code << 5 | dd.code) }
    /// FCVTZS Wd / Xd, Dn — sf 00 11110 01 1 11 000 000000 Rn Rd
    public func fcvtzs(_ is64: Bool, _ rd: ARM64GPR, _ dn: ARM64FPR) { emit(Self.sf(is64) | 0x1E78_0000 | dn.code << 5 | rd.code) }
}
