import JSAssembler

// The machine registers the baseline compiler uses, per architecture. Everything else in
// the compiler is written against the `MacroAssembler` interface.

#if arch(x86_64)
typealias JITMacroAssembler = MacroAssemblerX86_64
typealias GPR = X86GPR

enum JITRegisters {
    /// Pinned while in machine code (callee-saved, so stubs keep them): the register file,
    /// the frame, the runtime, the number tag, the entry table.
    static let registers: GPR = .rbx
    static let frame: GPR = .r12
    static let runtime: GPR = .r13
    static let numberTag: GPR = .r14
    static let table: GPR = .r15
    /// Saved by the prologue, in push order (with the frame pointer first).
    static let saved: [GPR] = [.rbx, .r12, .r13, .r14, .r15]
    /// Temporaries (caller-saved; nothing lives in them across a stub call).
    static let t0: GPR = .rax
    static let t1: GPR = .rcx
    static let t2: GPR = .rdx
    static let t3: GPR = .rsi
    static let t4: GPR = .rdi
    static let t5: GPR = .r8
    /// The C convention: arguments and result.
    static let arguments: [GPR] = [.rdi, .rsi, .rdx, .rcx]
    static let result: GPR = .rax
    static let framePointer: GPR = .rbp
    static let stackPointer: GPR = .rsp
    /// The entry's incoming arguments are in registers the prologue reads before it uses
    /// any temporary other than these.
    static let isSupported = true
}
#else
typealias JITMacroAssembler = HostMacroAssembler

enum JITRegisters {
    /// The arm64 backend of the compiler comes next (the assembler exists); until then the
    /// engine interprets there.
    static let isSupported = false
}
#endif
