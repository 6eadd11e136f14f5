// The messages between a supervisor and a script worker.
//
//   worker -> supervisor   hello(pid)                 after the runtime is initialized
//   supervisor -> worker   lockdown(version, ...)     the worker installs its policy
//   worker -> supervisor   lockedDown                 from here on, only the allowlist
//   supervisor -> worker   evaluate(...) | probe(..) | sweep
//   worker -> supervisor   loadModule(...)            while evaluating: a module's source, please
//   supervisor -> worker   moduleSource(...)          the answer (bytes, or why not)
//   worker -> supervisor   result(...)                one per request
//   supervisor -> worker   shutdown                   the worker exits 0

/// How the worker's seccomp policy treats a forbidden call.
public enum ViolationMode: UInt8, Sendable {
    /// `SECCOMP_RET_TRAP`: a SIGSYS handler reports the call's number, then the worker
    /// dies by SIGSYS (the call is never executed).
    case reportAndKill = 0
    /// `SECCOMP_RET_KILL_PROCESS`: the kernel kills the worker; nothing is reported.
    case kill = 1
    /// `SECCOMP_RET_TRAP` with a handler that records the call and returns -ENOSYS:
    /// only for `--lockdown-sweep`, never for scripts.
    case record = 2
}

/// A request to run a script.
public struct EvaluateRequest: Equatable, Sendable {
    public var id: UInt32
    public var name: String
    /// The script's bytes (UTF-8 expected; the engine reports bad encoding itself).
    public var source: [UInt8]
    /// Print the completion value (`jsrun -p`), dump bytecode, GC stress, GC statistics
    /// (collection count on stderr at the end).
    public var printResult = false
    public var dumpBytecode = false
    public var gcStress = false
    public var gcStats = false
    /// Send console output back in the result instead of writing it to stdout/stderr.
    public var captureOutput = false
    /// The JS heap limit in bytes (0: none).
    public var maxHeapBytes: UInt64 = 0
    /// The baseline JIT: 0 on (tier up hot code), 1 off (interpret), 2 eager (compile at
    /// the first call), 3 warm (at the second); print JIT statistics at the end; print
    /// each body's machine code.
    public var jitMode: UInt8 = 0
    public var jitStats = false
    public var printCode = false
    /// Defines the global `scriptArgs` (a frozen array of these strings) before the
    /// script runs (jsrun's arguments: no separate request, no script to compile).
    public var scriptArgs: [String]?
    /// Run the source as the entry module of a module graph (`name` is its key, an
    /// absolute path); its imports come from the supervisor (`loadModule`).
    public var isModule = false

    public init(id: UInt32, name: String, source: [UInt8]) {
        self.id = id
        self.name = name
        self.source = source
    }

    public init(id: UInt32, name: String, source: String) {
        self.init(id: id, name: name, source: Array(source.utf8))
    }
}

/// The outcome of one request.
public struct EvaluateResult: Equatable, Sendable {
    public var id: UInt32
    /// jsrun's exit status for this script (0 ok, 1 uncaught exception, ...).
    public var status: Int32
    /// The completion value, inspected (with `printResult` or `captureOutput`).
    public var value: String?
    /// The uncaught exception, with its stack when it has one.
    public var exception: String?
    /// Captured console output (with `captureOutput`).
    public var output: String

    public init(id: UInt32, status: Int32, value: String? = nil, exception: String? = nil, output: String = "") {
        self.id = id
        self.status = status
        self.value = value
        self.exception = exception
        self.output = output
    }
}

/// The supervisor's answer to `loadModule`: the module's key (its canonical path) and
/// source, or an error message that names the path.
public struct ModuleSourceReply: Equatable, Sendable {
    public var key: String
    public var source: [UInt8]
    public var error: String?
    public init(key: String, source: [UInt8], error: String? = nil) {
        self.key = key; self.source = source; self.error = error
    }
}

public enum WorkerMessage: Equatable, Sendable {
    case hello(pid: Int32)
    /// `filter`: the policy compiled by the supervisor (a classic BPF program for the
    /// worker's pid and executable region), or empty: the worker compiles its own.
    case lockdown(policyVersion: UInt32, addressSpaceLimit: UInt64, mode: ViolationMode, filter: [UInt8] = [])
    case lockedDown
    case evaluate(EvaluateRequest)
    case result(EvaluateResult)
    /// Self-test: perform one named forbidden (or allowed) operation after lockdown.
    case probe(String)
    /// Self-test: try every system call number (worker locked down in `.record` mode).
    case sweep
    case shutdown
    /// The worker asks for the module `specifier` imported by `referrer` (a key, a script
    /// name, or empty for none).
    case loadModule(specifier: String, referrer: String)
    case moduleSource(ModuleSourceReply)

    enum Kind: UInt16 {
        case hello = 1, lockdown, lockedDown, evaluate, result, probe, sweep, shutdown, loadModule, moduleSource
    }

    public var frame: Frame {
        var w = ByteWriter()
        let kind: Kind
        switch self {
        case .hello(let pid): kind = .hello; w.i32(pid)
        case .lockdown(let version, let limit, let mode, let filter):
            kind = .lockdown; w.u32(version); w.u64(limit); w.u8(mode.rawValue); w.blob(filter)
        case .lockedDown: kind = .lockedDown
        case .evaluate(let e):
            kind = .evaluate
            w.u32(e.id)
            var flags: UInt32 = 0
            if e.printResult { flags |= 1 }
            if e.dumpBytecode { flags |= 2 }
            if e.gcStress { flags |= 4 }
            if e.captureOutput { flags |= 8 }
            if e.gcStats { flags |= 16 }
            flags |= UInt32(e.jitMode & 3) << 6
            if e.jitStats { flags |= 256 }
            if e.printCode { flags |= 512 }
            if e.scriptArgs != nil { flags |= 32 }
            if e.isModule { flags |= 1024 }
            w.u32(flags)
            w.u64(e.maxHeapBytes)
            w.string(e.name)
            w.blob(e.source)
            if let args = e.scriptArgs {
                w.u32(UInt32(args.count))
                for a in args { w.string(a) }
            }
        case .result(let r):
            kind = .result
            w.u32(r.id)
            w.i32(r.status)
            w.u8((r.value == nil ? 0 : 1) | (r.exception == nil ? 0 : 2))
            w.string(r.value ?? "")
            w.string(r.exception ?? "")
            w.string(r.output)
        case .probe(let name): kind = .probe; w.string(name)
        case .sweep: kind = .sweep
        case .shutdown: kind = .shutdown
        case .loadModule(let specifier, let referrer): kind = .loadModule; w.string(specifier); w.string(referrer)
        case .moduleSource(let reply):
            kind = .moduleSource
            w.string(reply.key)
            w.u8(reply.error == nil ? 0 : 1)
            w.string(reply.error ?? "")
            w.blob(reply.source)
        }
        return Frame(kind: kind.rawValue, payload: w.bytes)
    }

    /// Decodes and validates a frame (unknown kinds, bad flags and trailing bytes throw).
    public init(_ frame: Frame) throws(IPCError) {
        guard let kind = Kind(rawValue: frame.kind) else { throw .malformed("unknown message kind \(frame.kind)") }
        var r = ByteReader(frame.payload)
        switch kind {
        case .hello: self = .hello(pid: try r.i32())
        case .lockdown:
            let version = try r.u32()
            let limit = try r.u64()
            guard let mode = ViolationMode(rawValue: try r.u8()) else { throw .malformed("bad violation mode") }
            self = .lockdown(policyVersion: version, addressSpaceLimit: limit, mode: mode, filter: try r.blob())
        case .lockedDown: self = .lockedDown
        case .evaluate:
            let id = try r.u32()
            let flags = try r.u32()
            guard flags & ~2047 == 0 else { throw .malformed("bad evaluate flags") }
            let maxHeap = try r.u64()
            var e = EvaluateRequest(id: id, name: try r.string(), source: try r.blob())
            e.printResult = flags & 1 != 0
            e.dumpBytecode = flags & 2 != 0
            e.gcStress = flags & 4 != 0
            e.captureOutput = flags & 8 != 0
            e.gcStats = flags & 16 != 0
            e.jitMode = UInt8((flags >> 6) & 3)
            e.jitStats = flags & 256 != 0
            e.printCode = flags & 512 != 0
            e.maxHeapBytes = maxHeap
            e.isModule = flags & 1024 != 0
            if flags & 32 != 0 {
                let count = try r.u32()
                // Each string takes at least its 4-byte length: a bad count fails here.
                guard Int(count) <= r.remaining / 4 else { throw .malformed("bad scriptArgs count") }
                var args: [String] = []
                for _ in 0..<count { args.append(try r.string()) }
                e.scriptArgs = args
            }
            self = .evaluate(e)
        case .result:
            let id = try r.u32()
            let status = try r.i32()
            let present = try r.u8()
            guard present & ~3 == 0 else { throw .malformed("bad result flags") }
            let value = try r.string()
            let exception = try r.string()
            let output = try r.string()
            self = .result(EvaluateResult(id: id, status: status, value: present & 1 != 0 ? value : nil,
                                          exception: present & 2 != 0 ? exception : nil, output: output))
        case .probe: self = .probe(try r.string())
        case .sweep: self = .sweep
        case .shutdown: self = .shutdown
        case .loadModule: self = .loadModule(specifier: try r.string(), referrer: try r.string())
        case .moduleSource:
            let key = try r.string()
            let hasError = try r.u8()
            guard hasError <= 1 else { throw .malformed("bad module source flags") }
            let error = try r.string()
            self = .moduleSource(ModuleSourceReply(key: key, source: try r.blob(), error: hasError == 1 ? error : nil))
        }
        try r.finish()
    }
}

extension Connection {
    public func send(_ message: WorkerMessage) throws(IPCError) { try send(message.frame) }

    public func receiveMessage(deadline: UInt64? = nil, watching: Int32? = nil) throws(IPCError) -> WorkerMessage {
        try WorkerMessage(receive(deadline: deadline, watching: watching))
    }
}
