import JSJIT
import JSRuntime

/// What a worker executable adds to jsrun's worker (the FFI worker, `jsrun-ffi-worker`,
/// loads its libraries and defines `Sable` here). Unset in jsrun itself: its worker
/// runs exactly as before.
public enum WorkerExtensions {
    /// Runs in the worker after its runtime is made and before it locks down (dlopen
    /// happens here): nil to go on, or an exit status after printing why.
    nonisolated(unsafe) public static var beforeLockdown: ((Runtime) -> Int32?)?
    /// Runs right after lockdown with the code memory the process may make executable
    /// (the JIT's pool; nil where the process is not locked down).
    nonisolated(unsafe) public static var afterLockdown: ((Runtime, ExecutableMemory?) -> Void)?
}
