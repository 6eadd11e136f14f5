import JSJIT
import JSRuntime
import Lockdown

/// The locked worker's baseline JIT: made after lockdown over the executable region (the
/// only pages the policy lets become executable), and only when the process really is
/// locked (`prctl(PR_GET_SECCOMP)`). Everywhere else — `--no-lockdown`, a test's own
/// runtime — `shared` is nil and the engine interprets.
enum WorkerJIT {
    nonisolated(unsafe) static var shared: BaselineJIT?
    nonisolated(unsafe) static var whyNot = "not in a locked worker"

    static func install(region: ExecutableRegion) {
        (shared, whyNot) = BaselineJIT.forLockedProcess(pool: region.pool, capacity: Int(region.span))
    }

    /// The executable memory of the locked process: the JIT's pool, or (no JIT backend) the
    /// same region on its own; nil where the process is not locked down.
    static func codeMemory(region: ExecutableRegion) -> ExecutableMemory? {
        if let shared { return shared.memory }
        guard BaselineJIT.processIsLockedDown else { return nil }
        return ExecutableMemory(base: region.pool, capacity: Int(region.span))
    }

    /// Applies a request's JIT options to the runtime.
    static func configure(_ rt: Runtime, mode: JITMode, printCode: Bool) {
        rt.setJIT(shared, mode: mode)
        shared?.printCode = printCode
    }

    static func mode(_ wire: UInt8) -> JITMode { [.on, .off, .eager, .warm][Int(min(wire, 3))] }
    static func wire(_ mode: JITMode) -> UInt8 {
        switch mode { case .on: 0; case .off: 1; case .eager: 2; case .warm: 3 }
    }
}
