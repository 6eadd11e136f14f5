// The runtime's side of the baseline JIT (JSJIT/DESIGN.md): the hook a JIT fills in, what
// the compiler may read of a code block, the entry and stub conventions, tier-up.
//
// The runtime never imports the JIT (the layers point down): `Runtime.jit` is a
// `JITBackend` that a higher layer (the engine's entry point in a locked worker) installs.

import JSBytecode
import JSSyntax

/// Machine code's entry: `(runtime, frame, registers, pc) -> pc`. The body runs from `pc`
/// until an instruction it leaves to the interpreter (constructs, generator suspension,
/// calls it could not make itself) and returns that instruction's pc — in the *top*
/// frame, which calls made in machine code may have pushed since; -1 when an exception is
/// pending (`Runtime.takeJITException`), with the top frame's pc at the instruction that
/// threw; `JITEntryResult.returned` when the frame it was entered for returned into its
/// caller (a call instruction's frame: the result is in the caller's register, the frame
/// popped). `Runtime.runJIT` turns all of these into the top frame's pc.
public typealias JITEntry = @convention(c) (UnsafeMutableRawPointer, UnsafeMutableRawPointer,
                                            UnsafeMutableRawPointer, Int) -> Int

/// What a body returns besides a pc (`JITEntry`).
public enum JITEntryResult {
    public static let exception = -1
    public static let returned = -2
}

/// Offsets in a frame (`Frame`, in the frame stack) that machine code reads and writes.
public enum JITFrameLayout {
    public static let data = MemoryLayout<Frame>.offset(of: \Frame.data)!
    public static let pc = MemoryLayout<Frame>.offset(of: \Frame.pc)!
    public static let base = MemoryLayout<Frame>.offset(of: \Frame.base)!
    public static let top = MemoryLayout<Frame>.offset(of: \Frame.top)!
    public static let argc = MemoryLayout<Frame>.offset(of: \Frame.argc)!
    public static let this = MemoryLayout<Frame>.offset(of: \Frame.this)!
    public static let callee = MemoryLayout<Frame>.offset(of: \Frame.callee)!
    public static let newTarget = MemoryLayout<Frame>.offset(of: \Frame.newTarget)!
    public static let env = MemoryLayout<Frame>.offset(of: \Frame.env)!
    public static let envDepth = MemoryLayout<Frame>.offset(of: \Frame.envDepth)!
    public static let returnRegister = MemoryLayout<Frame>.offset(of: \Frame.returnRegister)!
    public static let isConstruct = MemoryLayout<Frame>.offset(of: \Frame.isConstruct)!
    public static let exception = MemoryLayout<Frame>.offset(of: \Frame.exception)!
    public static let home = MemoryLayout<Frame>.offset(of: \Frame.home)!
    public static let thisBox = MemoryLayout<Frame>.offset(of: \Frame.thisBox)!
    public static let stride = MemoryLayout<Frame>.stride
    /// A frame is pushed while fewer than this many are (`Runtime.pushFrame`).
    public static let maxFrames = FrameStack.capacity - 1
}

/// What machine code reads of a code block it calls (`CodeData.calleeInfo`).
public struct JITCalleeInfo {
    /// The machine code of the body at pc 0 (0 while not compiled) and its entry table.
    public var entry: UInt
    public var table: UInt
    public var parameterCount: Int32
    public var registerCount: Int32
    public var flags: UInt32
    /// The frame needs more than machine code makes (an arrow's lexical `this`, a function
    /// environment): calls go through the stub.
    public static let needsStub: UInt32 = 1
    /// Strict code (`this` as given; sloppy code boxes it or takes the global object).
    public static let strict: UInt32 = 2

    public static let entryOffset = MemoryLayout<JITCalleeInfo>.offset(of: \JITCalleeInfo.entry)!
    public static let tableOffset = MemoryLayout<JITCalleeInfo>.offset(of: \JITCalleeInfo.table)!
    public static let parameterCountOffset = MemoryLayout<JITCalleeInfo>.offset(of: \JITCalleeInfo.parameterCount)!
    public static let registerCountOffset = MemoryLayout<JITCalleeInfo>.offset(of: \JITCalleeInfo.registerCount)!
    public static let flagsOffset = MemoryLayout<JITCalleeInfo>.offset(of: \JITCalleeInfo.flags)!
}

/// One compiled body, as the backend made it.
public struct JITBody {
    public var entry: JITEntry
    /// The installed code (given back to the backend when the code block dies).
    public var address: UInt
    public var size: Int
    /// The entry table (pc -> machine-code address; the body jumps through it), owned by
    /// the body: the backend frees it in `release`.
    public var table: UnsafeMutablePointer<UInt>

    public init(entry: JITEntry, address: UInt, size: Int, table: UnsafeMutablePointer<UInt>) {
        self.entry = entry
        self.address = address
        self.size = size
        self.table = table
    }
}

/// A baseline compiler the runtime can tier up to.
public protocol JITBackend: AnyObject {
    /// Compiles a code block; nil leaves it to the interpreter for good.
    func compile(_ code: JITCodeView, runtime: Runtime) -> JITBody?
    /// The code block died (or the runtime is going away): its machine code and table are free.
    func release(_ body: JITBody)
}

/// When code is compiled: never, after `threshold` calls and loop iterations, or at once.
public enum JITMode: String, Sendable {
    /// `warm`: at the second call or loop iteration, once the interpreter has filled the
    /// code's caches (what `on` compiles with, sooner: for testing the cache-guided paths).
    case off, on, eager, warm
}

/// What the compiler may read of a code block while compiling it (its bytecode, constant
/// pool and inline caches stay at these addresses for the code block's life, which is
/// also its machine code's life).
public struct JITCodeView {
    unowned(unsafe) let data: CodeData

    init(_ data: CodeData) { self.data = data }

    public var instructions: UnsafePointer<Int32> { UnsafePointer(data.instructions) }
    /// The code block's `CodeData` (unretained; the value stubs take it).
    public var codeDataAddress: UnsafeMutableRawPointer { Unmanaged.passUnretained(data).toOpaque() }
    /// The atom of a name operand if the interpreter has made it (nil: not yet).
    public func atom(_ index: Int) -> UnsafeMutableRawPointer? { data.atoms[index] }
    public var instructionCount: Int { data.code.instructions.count }
    /// The constant pool: `Value.empty` for a constant not made yet (the stub makes it).
    public var constants: UnsafeMutablePointer<Value> { data.constants }
    public var constantCount: Int { data.constantCount }
    /// The inline caches (`InlineCacheLayout`).
    public var caches: UnsafeMutableRawPointer { UnsafeMutableRawPointer(data.caches) }
    public var name: String { data.code.name }
    /// Where `CodeData.calleeInfo` is in the code block's object, if one word past the
    /// header as machine code assumes (nil: calls from machine code go through the stub).
    public var calleeInfoOffset: Int? {
        let object = Unmanaged.passUnretained(data).toOpaque()
        let offset = 16
        return object.load(fromByteOffset: offset, as: UInt.self) == UInt(bitPattern: data.calleeInfo) ? offset : nil
    }
    public var isGeneratorOrAsync: Bool { data.code.isGenerator || data.code.isAsync }
    /// A derived class's constructor (its `this` is bound by `super()`; its returns are the
    /// interpreter's).
    public var isDerivedConstructor: Bool { data.code.kind == .derivedConstructor }
    /// The code block's disassembly (for `--print-code`).
    public var disassembly: String { Disassembler.disassemble(data.code, recursive: false) }
}

/// Offsets in an inline cache (`InlineCache`, in the code block's cache array).
public enum InlineCacheLayout {
    public static let shape = MemoryLayout<InlineCache>.offset(of: \InlineCache.shape)!
    public static let holder = MemoryLayout<InlineCache>.offset(of: \InlineCache.holder)!
    public static let newShape = MemoryLayout<InlineCache>.offset(of: \InlineCache.newShape)!
    public static let slot = MemoryLayout<InlineCache>.offset(of: \InlineCache.slot)!
    public static let epoch = MemoryLayout<InlineCache>.offset(of: \InlineCache.epoch)!
    public static let stride = MemoryLayout<InlineCache>.stride
}

/// The second-level property cache as machine code probes it (`SharedCacheEntry`):
/// index `((shape ^ key * multiplier) >> 4) ^ (that >> 17)` masked, key = the atom's address.
public enum JITSharedCache {
    public static let key = MemoryLayout<SharedCacheEntry>.offset(of: \SharedCacheEntry.key)!
    public static let cache = MemoryLayout<SharedCacheEntry>.offset(of: \SharedCacheEntry.cache)!
    public static let stride = MemoryLayout<SharedCacheEntry>.stride
}

/// What `--jit-stats` prints.
public struct JITStatistics: Sendable {
    public var functionsCompiled = 0
    public var functionsRefused = 0
    public var bytecodeBytes = 0
    public var codeBytes = 0
    public var compileNanoseconds: UInt64 = 0
    public var entries = 0
    public var stubCalls = 0
    public init() {}
}

/// The runtime functions machine code calls (C convention; the runtime pointer first).
public enum JITStubs {
    /// Runs the one instruction at `pc` in the top frame through the interpreter's own
    /// handler; returns the next pc, or -1 with an exception pending.
    public static let step: @convention(c) (UnsafeMutableRawPointer, Int) -> Int = { rt, pc in
        // The runtime is alive (it is running this code): no retain and release per call.
        Unmanaged<Runtime>.fromOpaque(rt)._withUnsafeGuaranteedRef { $0.jitStep(pc: pc) }
    }
    public static var stepAddress: UnsafeRawPointer { unsafeBitCast(step, to: UnsafeRawPointer.self) }

    /// Makes the call instruction at `pc` in the top frame (`call`, `callMethod`). Returns
    /// `callDone` (a native function ran, or a callee through the interpreter: the result is
    /// in its register), `callInterpret` (the interpreter must make this call: it pushes a
    /// frame for a callee without machine code), -1 (an exception is pending), or the
    /// machine-code address of a compiled callee whose frame it pushed (its frame, registers
    /// and entry table are in `Runtime.jitCallCellAddress`, words 0, 1 and 2).
    public static let call: @convention(c) (UnsafeMutableRawPointer, Int) -> Int = { rt, pc in
        Unmanaged<Runtime>.fromOpaque(rt)._withUnsafeGuaranteedRef { $0.jitCall(pc: pc) }
    }
    public static var callAddress: UnsafeRawPointer { unsafeBitCast(call, to: UnsafeRawPointer.self) }
    /// The `construct` instruction at `pc`, with `call`'s results.
    public static let construct: @convention(c) (UnsafeMutableRawPointer, Int) -> Int = { rt, pc in
        Unmanaged<Runtime>.fromOpaque(rt)._withUnsafeGuaranteedRef { $0.jitConstruct(pc: pc) }
    }
    public static var constructAddress: UnsafeRawPointer { unsafeBitCast(construct, to: UnsafeRawPointer.self) }
    /// Value stubs: a runtime operation on register values, for an instruction's slow path
    /// (the interpreter's handler calls the same operation). The body stores the pc in its
    /// frame first (exceptions and stack traces find it there). They return a value's bits
    /// (`undefined` when there is no result); 0 (`Value.empty`, never a JS value): an
    /// exception is pending.
    public static let getElement: @convention(c) (UnsafeMutableRawPointer, UInt64, UInt64) -> UInt64 = { rt, o, k in
        Unmanaged<Runtime>.fromOpaque(rt)._withUnsafeGuaranteedRef { r in
            r.valueStub(.getElem) { () throws(JSException) in try r.getElement(Value(bits: o), Value(bits: k)) }
        }
    }
    public static let setElement: @convention(c) (UnsafeMutableRawPointer, UInt64, UInt64, UInt64, Int) -> UInt64 = { rt, o, k, v, strict in
        Unmanaged<Runtime>.fromOpaque(rt)._withUnsafeGuaranteedRef { r in
            r.valueStub(.setElem) { () throws(JSException) in
                try r.setElement(Value(bits: o), Value(bits: k), Value(bits: v), strict: strict != 0)
                return .undefined
            }
        }
    }
    /// `getProp` past the inline caches: (runtime, object, code data, atom index, cache).
    public static let getNamed: @convention(c) (UnsafeMutableRawPointer, UInt64, UnsafeMutableRawPointer, Int, UnsafeMutableRawPointer) -> UInt64 = { rt, o, data, atom, cache in
        Unmanaged<Runtime>.fromOpaque(rt)._withUnsafeGuaranteedRef { r in
            r.valueStub(.getProp) { () throws(JSException) in
                try r.getNamed(Value(bits: o), Unmanaged<CodeData>.fromOpaque(data), atom,
                               cache: cache.assumingMemoryBound(to: InlineCache.self))
            }
        }
    }
    /// A binary value instruction (`Runtime.isBinaryValueOpcode`): (runtime, opcode, a, b).
    public static let binary: @convention(c) (UnsafeMutableRawPointer, Int, UInt64, UInt64) -> UInt64 = { rt, opcode, a, b in
        Unmanaged<Runtime>.fromOpaque(rt)._withUnsafeGuaranteedRef { r in
            let op = Opcode(rawValue: UInt8(truncatingIfNeeded: opcode))!
            return r.valueStub(op) { () throws(JSException) in try r.binaryOperation(op, Value(bits: a), Value(bits: b)) }
        }
    }
    /// A unary value instruction (`Runtime.isUnaryValueOpcode`): (runtime, opcode, a).
    public static let unary: @convention(c) (UnsafeMutableRawPointer, Int, UInt64) -> UInt64 = { rt, opcode, a in
        Unmanaged<Runtime>.fromOpaque(rt)._withUnsafeGuaranteedRef { r in
            let op = Opcode(rawValue: UInt8(truncatingIfNeeded: opcode))!
            return r.valueStub(op) { () throws(JSException) in try r.unaryOperation(op, Value(bits: a)) }
        }
    }
    /// `newObject`: (runtime).
    public static let newObject: @convention(c) (UnsafeMutableRawPointer) -> UInt64 = { rt in
        Unmanaged<Runtime>.fromOpaque(rt)._withUnsafeGuaranteedRef { r in
            r.valueStub(.newObject) { () throws(JSException) in Value(cell: try r.newObject().cell) }
        }
    }
    /// `newClosure` in the top frame: (runtime, constant index).
    public static let newClosure: @convention(c) (UnsafeMutableRawPointer, Int) -> UInt64 = { rt, constant in
        Unmanaged<Runtime>.fromOpaque(rt)._withUnsafeGuaranteedRef { r in
            r.valueStub(.newClosure) { () throws(JSException) in
                let fp = r.frames.pointer(r.frames.count - 1)
                return try r.closureValue(fp, fp.pointee.data.takeUnretainedValue(), constant: constant)
            }
        }
    }
    /// `createArguments` (strict 1) / `createMappedArguments` (0) in the top frame.
    public static let arguments: @convention(c) (UnsafeMutableRawPointer, Int) -> UInt64 = { rt, strict in
        Unmanaged<Runtime>.fromOpaque(rt)._withUnsafeGuaranteedRef { r in
            r.valueStub(strict != 0 ? .createArguments : .createMappedArguments) { () throws(JSException) in
                let fp = r.frames.pointer(r.frames.count - 1)
                return try r.argumentsValue(fp, fp.pointee.data.takeUnretainedValue(), strict: strict != 0)
            }
        }
    }
    /// `iteratorNext` on the record at the pointer (three registers): the value, or
    /// `iteratorDone` when the iterator is done (0: an exception is pending).
    public static let iteratorNext: @convention(c) (UnsafeMutableRawPointer, UnsafeMutableRawPointer) -> UInt64 = { rt, record in
        Unmanaged<Runtime>.fromOpaque(rt)._withUnsafeGuaranteedRef { r in
            r.valueStub(.iteratorNext) { () throws(JSException) in
                try r.iteratorStepRegisters(record.assumingMemoryBound(to: Value.self)) ?? Value(bits: iteratorDone)
            }
        }
    }
    /// What `iteratorNext` returns when the iterator is done: bits no value has.
    public static let iteratorDone: UInt64 = 1
    public static var newObjectAddress: UnsafeRawPointer { unsafeBitCast(newObject, to: UnsafeRawPointer.self) }
    public static var newClosureAddress: UnsafeRawPointer { unsafeBitCast(newClosure, to: UnsafeRawPointer.self) }
    public static var argumentsAddress: UnsafeRawPointer { unsafeBitCast(arguments, to: UnsafeRawPointer.self) }
    public static var iteratorNextAddress: UnsafeRawPointer { unsafeBitCast(iteratorNext, to: UnsafeRawPointer.self) }
    public static var binaryAddress: UnsafeRawPointer { unsafeBitCast(binary, to: UnsafeRawPointer.self) }
    public static var unaryAddress: UnsafeRawPointer { unsafeBitCast(unary, to: UnsafeRawPointer.self) }
    public static var getElementAddress: UnsafeRawPointer { unsafeBitCast(getElement, to: UnsafeRawPointer.self) }
    public static var setElementAddress: UnsafeRawPointer { unsafeBitCast(setElement, to: UnsafeRawPointer.self) }
    public static var getNamedAddress: UnsafeRawPointer { unsafeBitCast(getNamed, to: UnsafeRawPointer.self) }

    public static let callDone = 0
    public static let callInterpret = 1
}

extension Runtime {
    /// Native stack kept free above the limit when machine code calls machine code (each
    /// such call nests: 32 bytes), for what runs on top of the deepest compiled frame.
    static let jitStackMargin: UInt = 256 * 1024

    /// Installs a JIT (nil, or mode `.off`: interpret only). `threshold` is the hotness
    /// (calls plus loop back edges) at which a code block is compiled in mode `.on`.
    public func setJIT(_ backend: JITBackend?, mode: JITMode, threshold: Int32 = 500) {
        jit = backend
        jitCallCell[3] = stackLimit &+ Runtime.jitStackMargin
        jitThreshold = mode == .eager ? 0 : mode == .warm ? 2 : threshold
        jitActive = (backend != nil && mode != .off) || stepBudgetArmed
    }

    public var jitStatistics: JITStatistics {
        var s = jitStats
        s.stubCalls = (0..<256).reduce(0) { $0 + jitStubCounts[$1] }
        return s
    }

    /// The opcodes the step stub ran most, with their counts (`--jit-stats`).
    public func jitStubProfile(top n: Int) -> [(String, Int)] {
        var rows: [(String, Int)] = []
        for i in 0..<256 where jitStubCounts[i] > 0 {
            rows.append((Opcode(rawValue: UInt8(i)).map { "\($0)" } ?? "?", jitStubCounts[i]))
        }
        return Array(rows.sorted { $0.1 > $1.1 }.prefix(n))
    }

    /// The cell that points to the global lexical bindings' values (`LexicalValues`).
    public var lexicalValuesCell: UnsafeRawPointer { UnsafeRawPointer(realm.lexicalValues.cell) }
    /// The holder value a global cache entry has for a lexical binding (its slot indexes
    /// the lexical values).
    public static var lexicalHolderBits: UInt64 { UInt64(UInt(bitPattern: lexicalHolder)) }

    /// The atom "length".
    public var lengthAtomAddress: UnsafeMutableRawPointer { lengthAtom }
    /// The second-level property cache (`JITSharedCache`; cleared at every collection).
    public var sharedCacheAddress: UnsafeRawPointer { UnsafeRawPointer(sharedCache) }

    /// The frame count (Int) that a compiled return decrements when it pops its frame.
    public var frameCountAddress: UnsafeRawPointer { UnsafeRawPointer(frames.countCell) }
    /// The call stub's results for the machine code that enters a callee (`JITStubs.call`).
    public var jitCallCellAddress: UnsafeRawPointer { UnsafeRawPointer(jitCallCell) }
    /// The lowest native stack pointer at which machine code still calls machine code (word
    /// 3 of the call cell; `Runtime.jitStackMargin` above the thread's limit).
    public var jitStackLimitAddress: UnsafeRawPointer { UnsafeRawPointer(jitCallCell + 3) }
    /// One past the register file (machine code that pushes a frame checks its top).
    public var registerFileEnd: UnsafeRawPointer { UnsafeRawPointer(registers + Runtime.registerFileSize) }

    /// The prototype epoch (UInt32) that inherited inline-cache entries are valid for.
    public var protoEpochAddress: UnsafeRawPointer { UnsafeRawPointer(protoEpochCell) }

    /// The exception a body returned -1 for (taken once).
    func takeJITException() -> JSException {
        let e = jitPendingException
        jitPendingException = .undefined
        return JSException(value: e)
    }

    /// Compiles `data` (hot enough: `enterJIT` checked) unless it was compiled or refused.
    @inline(never) func tierUp(_ data: CodeData) {
        guard data.jitState == .interpreted, let jit else { return }
        // Machine code embeds the first realm's global object and intrinsics (Realms.swift).
        guard data.realm === primaryRealm else {
            data.jitState = .refused
            return
        }
        if realm !== primaryRealm { return }
        let start = Heap.monotonicNanoseconds()
        if let body = jit.compile(JITCodeView(data), runtime: self) {
            data.jitBody = body
            data.calleeInfo.pointee.entry = body.table[0]
            data.calleeInfo.pointee.table = UInt(bitPattern: body.table)
            data.jitState = .compiled
            jitStats.functionsCompiled += 1
            jitStats.bytecodeBytes += data.code.instructions.count * 4
            jitStats.codeBytes += body.size
        } else {
            data.jitState = .refused
            jitStats.functionsRefused += 1
        }
        jitStats.compileNanoseconds += Heap.monotonicNanoseconds() - start
    }

    /// Enters the machine code of the top frame's code block at `pc` if it has any
    /// (compiling it first when it has become hot); returns the pc the interpreter
    /// continues at. (The code block as `Unmanaged`: no retain and release per call.)
    @inline(__always)
    func enterJIT(_ fp: UnsafeMutablePointer<Frame>, _ pc: Int, hotness: Int32) throws(JSException) -> Int {
        let entry = fp.pointee.data._withUnsafeGuaranteedRef { data -> JITEntry? in
            if let entry = data.jitEntry { return entry }
            data.hotness &+= hotness
            if data.hotness < jitThreshold || data.jitState != .interpreted { return nil }
            tierUp(data)
            return data.jitEntry
        }
        guard let entry else {
            if stepBudgetArmed { try spendStep() }
            return pc
        }
        return try runJIT(entry, fp, pc)
    }

    /// Arms a step budget (nil: none): every loop back edge and interpreter entry the
    /// interpreter takes spends a step, and 64 backtracks of a regexp search cost one; when
    /// none is left each one throws `RangeError: step budget exhausted` (a catch cannot
    /// resume a loop: its next back edge throws again), so every script ends (an
    /// embedding's watchdog: the fuzzers run each input with one). Counted where the JIT
    /// counts hotness, so an unarmed runtime pays nothing more; compiled code does not count.
    public func setStepBudget(_ steps: Int?) {
        stepsLeft = steps ?? .max
        stepBudgetArmed = steps != nil
        if stepBudgetArmed { jitActive = true }
    }

    @inline(never) func spendStep() throws(JSException) {
        if resumingAtHandler { resumingAtHandler = false; return }
        stepsLeft &-= 1
        if stepsLeft < 0 {
            stepsLeft = 0
            throw try rangeError("step budget exhausted")
        }
    }

    /// The interpreter's state for the top frame after machine code ran (`pc` in it): calls
    /// made in machine code may have pushed or popped frames since it was entered.
    @inline(__always)
    func topFrameAfter(_ pc: Int) -> (Int, Int, UnsafeMutablePointer<Frame>, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Value>) {
        let fi = frames.count &- 1
        let fp = frames.pointer(fi)
        return (pc, fi, fp, fp.pointee.data._withUnsafeGuaranteedRef { $0.instructions }, fp.pointee.base)
    }

    /// Runs machine code from `pc` in `fp`; returns the pc to interpret at in the top frame
    /// (which calls made in machine code may have changed: the interpreter reloads it).
    @inline(never)
    func runJIT(_ entry: JITEntry, _ fp: UnsafeMutablePointer<Frame>, _ pc: Int) throws(JSException) -> Int {
        jitStats.entries += 1
        let rt = Unmanaged.passUnretained(self).toOpaque()
        var next = entry(rt, UnsafeMutableRawPointer(fp), UnsafeMutableRawPointer(fp.pointee.base), pc)
        while next == JITEntryResult.returned {
            // The frame returned into its caller, now the top frame, stopped at its call:
            // its machine code (if any) continues after the call.
            let top = frames.pointer(frames.count - 1)
            let resume = top.pointee.pc + Opcode.callInstructionLength
            guard let callerEntry = top.pointee.data._withUnsafeGuaranteedRef({ $0.jitEntry }) else { return resume }
            jitStats.entries += 1
            next = callerEntry(rt, UnsafeMutableRawPointer(top), UnsafeMutableRawPointer(top.pointee.base), resume)
        }
        if next < 0 { throw takeJITException() }
        return next
    }

    /// The machine code a stub's callee is to be entered with (compiled now if it has become
    /// hot); nil: the interpreter makes the call — the callee has none, or the native stack,
    /// on which machine code's calls nest, is near its end (the interpreter's do not nest).
    @inline(__always) func compiledBodyToEnter(_ data: CodeData) -> JITBody? {
        if data.jitBody == nil {
            data.hotness &+= 1
            if data.hotness >= jitThreshold && data.jitState == .interpreted { tierUp(data) }
        }
        guard let body = data.jitBody, StackGuard.hasRoom(jitCallCell[3]) else { return nil }
        return body
    }

    /// Leaves the frame a stub just pushed in the call cell for the machine code that enters
    /// it; returns where it enters.
    func enterPushedFrame(_ body: JITBody) -> Int {
        let new = frames.pointer(frames.count - 1)
        jitCallCell[0] = UInt(bitPattern: new)
        jitCallCell[1] = UInt(bitPattern: new.pointee.base)
        jitCallCell[2] = UInt(bitPattern: body.table)
        return Int(bitPattern: body.table[0])
    }

    /// The call stub (`JITStubs.call`): the interpreter's call, without its loop.
    func jitCall(pc: Int) -> Int {
        let fp = frames.pointer(frames.count - 1)
        fp.pointee.pc = pc
        let ins = fp.pointee.data._withUnsafeGuaranteedRef { $0.instructions }
        let op = Op.Call(ins, pc)
        let r = fp.pointee.base
        let f = r[op.callee]
        let argc = Int(op.argc)
        let args = r + op.args
        let thisValue = op.this < 0 ? Value.undefined : r[op.this]
        do {
            let direct = f.isCell && header(f.asCell).pointee.kind == .function
                ? (JSObject(f), thisValue, UnsafeBufferPointer(start: UnsafePointer(args), count: argc))
                : forwardedCall(f, this: thisValue, args: args, count: argc)
            guard let (callee, calleeThis, argBuf) = direct else {
                r[op.dst] = try callFunction(f, this: thisValue, UnsafeBufferPointer(start: UnsafePointer(args), count: argc))
                return JITStubs.callDone
            }
            guard let body = compiledBodyToEnter(functionCodeData(callee)),
                  try pushFrame(function: callee, this: calleeThis, args: argBuf, base: fp.pointee.top,
                                returnRegister: op.dst, newTarget: .undefined) else { return JITStubs.callInterpret }
            return enterPushedFrame(body)
        } catch {
            jitPendingException = error.value
            return JITEntryResult.exception
        }
    }

    /// The construct stub (`JITStubs.construct`): the interpreter's `construct`, without its loop.
    func jitConstruct(pc: Int) -> Int {
        let fp = frames.pointer(frames.count - 1)
        fp.pointee.pc = pc
        let ins = fp.pointee.data._withUnsafeGuaranteedRef { $0.instructions }
        let op = Op.Construct(ins, pc)
        let r = fp.pointee.base
        let f = r[op.callee]
        let args = UnsafeBufferPointer(start: UnsafePointer(r + op.args), count: Int(op.argc))
        let newTarget = r[op.newTarget]
        do {
            if f.isCell && header(f.asCell).pointee.kind == .function && JSObject(f).flags & ObjectFlags.constructor != 0 {
                let fo = JSObject(f)
                // Read through a guaranteed reference (no retain and release of the code data
                // per construct); decided before `this` is made (its prototype lookup may run code).
                let entry: (body: JITBody?, kind: FunctionKind)? = functionCodeDataRef(fo)._withUnsafeGuaranteedRef { data in
                    data.code.isDefaultDerivedConstructor || data.realmKey != realmKey ? nil : (compiledBodyToEnter(data), data.code.kind)
                }
                if let entry {
                    guard let body = entry.body else { return JITStubs.callInterpret }
                    let thisValue = try constructThis(fo, entry.kind, newTarget: newTarget)
                    try pushFrame(function: fo, this: thisValue, args: args, base: fp.pointee.top,
                                  returnRegister: op.dst, newTarget: newTarget)
                    return enterPushedFrame(body)
                }
            }
            r[op.dst] = try construct(f, args, newTarget: newTarget)
            return JITStubs.callDone
        } catch {
            jitPendingException = error.value
            return JITEntryResult.exception
        }
    }

    /// A value stub's body (`JITStubs.getElement` and the others): counted under `opcode`
    /// for `--jit-stats`; its value's bits, or 0 with the exception pending.
    @inline(__always)
    func valueStub(_ opcode: Opcode, _ body: () throws(JSException) -> Value) -> UInt64 {
        jitStubCounts[Int(opcode.rawValue)] += 1
        do throws(JSException) { return try body().bits } catch {
            jitPendingException = error.value
            return 0
        }
    }

    /// The step stub: one instruction in the top frame, the interpreter's handler.
    func jitStep(pc: Int) -> Int {
        let top = frames.count - 1
        let fp = frames.pointer(top)
        fp.pointee.pc = pc
        jitStubCounts[Int(UInt8(truncatingIfNeeded: fp.pointee.data._withUnsafeGuaranteedRef { $0.instructions[pc] }))] += 1
        do {
            _ = try interpret(entryDepth: top, step: true)
            return frames.pointer(top).pointee.pc
        } catch {
            jitPendingException = error.value
            return -1
        }
    }

    /// Gives a dead code block's machine code back.
    func releaseJIT(_ data: CodeData) {
        if let body = data.jitBody, let jit {
            jit.release(body)
        }
        data.jitBody = nil
        data.calleeInfo.pointee.entry = 0
        data.calleeInfo.pointee.table = 0
    }
}

enum JITState: UInt8 {
    case interpreted, compiled, refused
}
