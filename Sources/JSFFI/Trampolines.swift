// Executable memory for callback trampolines: never writable and executable at once.

#if canImport(Glibc)
import Glibc
#endif

/// Where callback trampolines are installed: memory that is written while RW and then
/// flipped RX, never both. The locked worker uses the JIT's code pool (the only pages its
/// seccomp policy lets become executable, reserved before lockdown); a process that is
/// not locked down may use `PageTrampolines`.
public protocol TrampolineMemory: AnyObject {
    /// Copies `bytes` into executable memory; the address, or nil when out of memory.
    func install(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawPointer?
}

/// Trampolines in pages of their own, for processes that are not locked down (embedders,
/// the FFI's unit tests): each install flips one page RW, copies, and flips it back RX.
public final class PageTrampolines: TrampolineMemory {
    static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
    var page: UnsafeMutableRawPointer?
    var used = 0

    public init() {}

    public func install(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawPointer? {
        let size = (bytes.count + 15) & ~15
        guard size <= Self.pageSize else { return nil }
        if page == nil || used + size > Self.pageSize {
            guard let p = mmap(nil, Self.pageSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
                  p != MAP_FAILED else { return nil }
            page = p
            used = 0
        } else if mprotect(page, Self.pageSize, PROT_READ | PROT_WRITE) != 0 {
            return nil
        }
        let at = page! + used
        at.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        used += size
        guard mprotect(page, Self.pageSize, PROT_READ | PROT_EXEC) == 0 else { return nil }
        return UnsafeRawPointer(at)
    }
}
