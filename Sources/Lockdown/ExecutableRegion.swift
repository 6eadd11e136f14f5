#if canImport(Glibc)
import Glibc
#endif

/// The one address range in which a locked worker can ever have executable pages: the
/// JIT's code pool, reserved before lockdown.
///
/// The reservation is `2 * span` bytes of `PROT_NONE` memory (no commit charge), aligned
/// to `2 * span`. The worker policy allows `mprotect(addr, len, PROT_READ|PROT_EXEC)` only
/// when `addr` lies in the pool `[base, base + span)` and `len < span` — two masked
/// compares a seccomp filter can make — so whatever a compromised worker passes, the
/// pages it turns executable lie inside `[base, base + 2 * span)`. The JIT writes code
/// only in the pool (RW), then flips it to RX; the upper half is a guard that is never
/// used. No mapping inside the reservation may be moved out of it (`mremap` is refused
/// there), and `mmap` never maps anything executable.
public struct ExecutableRegion: Sendable, Equatable {
    /// The reservation's start, aligned to `2 * span`.
    public let base: UInt64
    /// The pool's size: a power of two; the reservation is twice as long.
    public let span: UInt64

    public init(base: UInt64, span: UInt64) {
        precondition(span.nonzeroBitCount == 1 && base % (2 * span) == 0, "misaligned executable region")
        self.base = base
        self.span = span
    }

    /// The end of the reservation (exclusive).
    public var end: UInt64 { base + 2 * span }
    /// The pool the JIT may use: `[base, base + span)`.
    public var pool: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: UInt(base))! }

    /// The default pool size: 64 MiB of code (V8's code range is 128 MiB; a baseline JIT's
    /// code is a few times the bytecode's size).
    public static let defaultSpan: UInt64 = 64 << 20

    /// Reserves a region at an address the kernel picks (randomized by ASLR): maps
    /// `4 * span` bytes `PROT_NONE` and unmaps what lies outside the aligned `2 * span`.
    public static func reserve(span: UInt64 = defaultSpan) -> ExecutableRegion? {
        precondition(span.nonzeroBitCount == 1 && span >= UInt64(sysconf(Int32(_SC_PAGESIZE))))
        let length = Int(4 * span)
        guard let raw = mmap(nil, length, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0),
              raw != MAP_FAILED else { return nil }
        let start = UInt64(UInt(bitPattern: raw))
        let base = (start + 2 * span - 1) & ~(2 * span - 1)
        let head = Int(base - start)
        if head > 0 { munmap(raw, head) }
        let tail = length - head - Int(2 * span)
        if tail > 0 { munmap(raw + head + Int(2 * span), tail) }
        return ExecutableRegion(base: base, span: span)
    }
}
