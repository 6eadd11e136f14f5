import JSRuntime

extension BaselineJIT {
    /// The JIT of a locked-down process, over its executable pool (the pages its seccomp
    /// policy lets become executable, reserved before lockdown): the one way the engine's
    /// entry points (jsrun's worker, `LockedWorker`, the test262 workers) get a JIT. Nil,
    /// with the reason, where the engine must interpret: no backend for this machine, or a
    /// process that is not locked down (`prctl(PR_GET_SECCOMP)` is not 2).
    public static func forLockedProcess(pool: UnsafeMutableRawPointer, capacity: Int) -> (BaselineJIT?, String) {
        guard isSupported else { return (nil, "no JIT backend for this architecture yet") }
        guard processIsLockedDown else { return (nil, "the process is not locked down") }
        return (BaselineJIT(memory: ExecutableMemory(base: pool, capacity: capacity)), "")
    }
}
