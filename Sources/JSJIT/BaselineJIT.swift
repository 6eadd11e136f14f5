#if canImport(Glibc)
import Glibc
#endif
import JSAssembler
import JSRuntime
import CSableSupport

/// The baseline JIT as the runtime sees it (`Runtime.setJIT`): compiles code blocks into
/// the executable memory pool and gives the memory back when they die.
///
/// Installed only in a locked-down process (`BaselineJIT.install`), whose seccomp policy
/// confines executable pages to the pool.
public final class BaselineJIT: JITBackend {
    public let memory: ExecutableMemory
    /// `--print-code`: each compiled body's bytecode with its machine code, to stderr.
    public var printCode = false
    public var output: (String) -> Void = { FileHandleless.err($0) }
    /// Instructions compiled inline, through the step stub, as exits (all bodies so far).
    public private(set) var inlineInstructions = 0, stubInstructions = 0, exitInstructions = 0

    public init(memory: ExecutableMemory) {
        self.memory = memory
    }

    /// Whether this machine has a backend (x86_64 today; arm64 interprets for now).
    public static var isSupported: Bool { JITRegisters.isSupported }

    /// Whether this process is locked down (`prctl(PR_GET_SECCOMP)` is 2, a filter): the
    /// JIT never runs anywhere else.
    public static var processIsLockedDown: Bool { sable_seccomp_mode() == 2 }

    public func compile(_ code: JITCodeView, runtime: Runtime) -> JITBody? {
        #if arch(x86_64)
        let count = code.instructionCount
        let table = UnsafeMutablePointer<UInt>.allocate(capacity: count + 1)
        table.initialize(repeating: 0, count: count + 1)
        var compiler = BaselineCompiler(code: code, table: table, runtime: runtime)
        let buffer = compiler.compile()
        let block: ExecutableMemory.Block
        do {
            guard let b = try memory.install([buffer]).first else { table.deallocate(); return nil }
            block = b
        } catch {
            table.deallocate()
            return nil
        }
        for pc in 0...count where compiler.offsets[pc] >= 0 {
            table[pc] = block.address + UInt(compiler.offsets[pc])
        }
        inlineInstructions += compiler.inlineCount
        stubInstructions += compiler.stubCount
        exitInstructions += compiler.exitCount
        if printCode { output(Self.listing(code, compiler.offsets, buffer, address: block.address)) }
        let entry = unsafeBitCast(block.pointer, to: JITEntry.self)
        return JITBody(entry: entry, address: block.address, size: block.size, table: table)
        #else
        return nil
        #endif
    }

    public func release(_ body: JITBody) {
        memory.free(ExecutableMemory.Block(address: body.address, size: body.size))
        body.table.deallocate()
    }

    /// The bytecode of a body, each instruction followed by its machine code as bytes
    /// (`llvm-mc --disassemble` reads the `.byte`-free hex lines; see tools/print-code.sh).
    static func listing(_ code: JITCodeView, _ offsets: [Int], _ buffer: AssemblerBuffer, address: UInt) -> String {
        let lines = code.disassembly.split(separator: "\n", omittingEmptySubsequences: false)
        var out = "; machine code for \(code.name.isEmpty ? "<anonymous>" : code.name) at 0x\(String(address, radix: 16)), \(buffer.count) bytes\n"
        var starts: [(pc: Int, offset: Int)] = []
        for (pc, o) in offsets.enumerated() where o >= 0 { starts.append((pc, o)) }
        func hex(_ from: Int, _ to: Int) -> String {
            guard from < to else { return "" }
            var s = ""
            for i in from..<to {
                s += "0x" + String(buffer.bytes[i], radix: 16) + (i + 1 < to ? " " : "")
            }
            return s + "\n"
        }
        out += "; prologue\n" + hex(0, starts.first?.offset ?? buffer.count)
        for (i, start) in starts.enumerated() {
            let end = i + 1 < starts.count ? starts[i + 1].offset : buffer.count
            let pcText = String(start.pc)
            let text = lines.first { $0.hasPrefix(String(repeating: "0", count: max(0, 4 - pcText.count)) + pcText + " ") }
            out += "; " + (text.map(String.init) ?? "\(start.pc) (end)") + "\n" + hex(start.offset, end)
        }
        return out
    }
}

/// stderr without Foundation.
enum FileHandleless {
    static func err(_ s: String) {
        var s = s
        s.withUTF8 { b in _ = write(2, b.baseAddress, b.count) }
    }
}
