// The runtime's side of the baseline JIT (JSJIT/DESIGN.md): the hook a JIT fills in, what
// the compiler may read of a code block, the entry and stub conventions, tier-up.
//
// The runtime never imports the JIT (the layers point down): `Runtime.jit` is a
// `JITBackend` that a higher layer (the engine's entry point in a locked worker) installs.

import JSBytecode

/// Machine code's entry: `(runtime, frame, registers, pc) -> pc`. The body runs from `pc`
/// until an instruction it leaves to the interpreter (calls, returns, generator
/// suspension) and returns that instruction's pc; -1 when an exception is pending
/// (`Runtime.takeJITException`), with the frame's pc at the instruction that threw.
public typealias JITEntry = @convention(c) (UnsafeMutableRawPointer, UnsafeMutableRawPointer,
                                            UnsafeMutableRawPointer, Int) -> Int

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
    case off, on, eager
}

/// What the compiler may read of a code block while compiling it (its bytecode, constant
/// pool and inline caches stay at these addresses for the code block's life, which is
/// also its machine code's life).
public struct JITCodeView {
    unowned(unsafe) let data: CodeData

    init(_ data: CodeData) { self.data = data }

    public var instructions: UnsafePointer<Int32> { UnsafePointer(data.instructions) }
    public var instructionCount: Int { data.code.instructions.count }
    /// The constant pool: `Value.empty` for a constant not made yet (the stub makes it).
    public var constants: UnsafeMutablePointer<Value> { data.constants }
    public var constantCount: Int { data.constantCount }
    /// The inline caches (`InlineCacheLayout`).
    public var caches: UnsafeMutableRawPointer { UnsafeMutableRawPointer(data.caches) }
    public var name: String { data.code.name }
    public var isGeneratorOrAsync: Bool { data.code.isGenerator || data.code.isAsync }
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
}

extension Runtime {
    /// Installs a JIT (nil, or mode `.off`: interpret only). `threshold` is the hotness
    /// (calls plus loop back edges) at which a code block is compiled in mode `.on`.
    public func setJIT(_ backend: JITBackend?, mode: JITMode, threshold: Int32 = 500) {
        jit = backend
        jitThreshold = mode == .eager ? 0 : threshold
        jitActive = backend != nil && mode != .off
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
        let start = Heap.monotonicNanoseconds()
        if let body = jit.compile(JITCodeView(data), runtime: self) {
            data.jitBody = body
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
        guard let entry else { return pc }
        return try runJIT(entry, fp, pc)
    }

    @inline(never)
    func runJIT(_ entry: JITEntry, _ fp: UnsafeMutablePointer<Frame>, _ pc: Int) throws(JSException) -> Int {
        jitStats.entries += 1
        let next = entry(Unmanaged.passUnretained(self).toOpaque(), UnsafeMutableRawPointer(fp), UnsafeMutableRawPointer(fp.pointee.base), pc)
        if next < 0 { throw takeJITException() }
        return next
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
    }
}

enum JITState: UInt8 {
    case interpreted, compiled, refused
}
