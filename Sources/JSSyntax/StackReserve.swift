#if canImport(Glibc)
import Glibc
#endif

extension StackGuard {
    /// The main-thread stack an engine process asks for (64 MiB): deep but legitimate
    /// programs (a 10,000-term `+` chain, 5,000 nested array literals, a few thousand nested
    /// functions) are compiled by recursive walks, ~1 KiB of native stack per level.
    public static let preferredMainThreadStack: UInt = 64 << 20

    /// Raises the main thread's stack limit (the `RLIMIT_STACK` soft limit, never above the
    /// hard limit) to `bytes`, so the walks reach `StackGuard`'s limit later. Linux grows the
    /// main thread's stack on demand up to the current soft limit, and the gap kept below the
    /// stack at exec time is at least 128 MiB, so raising it in the running process is
    /// enough. Call it first thing in `main`, before the stack bounds are cached
    /// (`StackGuard.limit`, the collector's stack scan); a no-op on another thread, once the
    /// bounds are cached, or when the limit is already as large. Returns the limit in effect.
    @discardableResult
    public static func reserveMainThreadStack(_ bytes: UInt = preferredMainThreadStack) -> UInt {
        #if canImport(Glibc)
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_STACK.rawValue), &limit) == 0 else { return 0 }
        guard getpid() == sable_gettid(), StackBounds.mainThread == 0, limit.rlim_cur != rlim_t.max,
              UInt(limit.rlim_cur) < bytes else { return UInt(limit.rlim_cur) }
        let wanted = limit.rlim_max == rlim_t.max ? rlim_t(bytes) : min(rlim_t(bytes), limit.rlim_max)
        guard wanted > limit.rlim_cur else { return UInt(limit.rlim_cur) }
        var raised = rlimit(rlim_cur: wanted, rlim_max: limit.rlim_max)
        guard setrlimit(__rlimit_resource_t(RLIMIT_STACK.rawValue), &raised) == 0 else { return UInt(limit.rlim_cur) }
        return UInt(wanted)
        #else
        return 0
        #endif
    }
}
