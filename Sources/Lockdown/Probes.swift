#if canImport(Glibc)
import Glibc
#endif
import CLockdown

/// Operations the lockdown self-test performs inside a locked worker, with the
/// outcome the policy must produce. Each runs in a fresh worker.
public enum Probe: String, CaseIterable, Sendable {
    // Forbidden: must kill the worker (reporting the call) or fail with EPERM.
    case openat, socket, connect, execve, fork, vfork, clone, clone3, ptrace
    case killOther = "kill-other", tgkillOther = "tgkill-other"
    case mmapWriteExec = "mmap-wx", mprotectWriteExec = "mprotect-wx", mmapExec = "mmap-x"
    case writeOtherFD = "write-fd9", x32 = "x32-getpid", i386 = "i386-getpid"
    case readStdin = "read-stdin"
    /// Escapes from W^X: executable memory outside the JIT's pool, and the dual mapping
    /// (a shared mapping aliased by mremap: one writable and one executable view).
    case mprotectExec = "mprotect-x", mprotectExecPastPool = "mprotect-x-past-pool"
    case dualMapping = "dual-mapping", mmapShared = "mmap-shared", mmapFile = "mmap-file"
    case mremapAlias = "mremap-alias", mremapFixed = "mremap-fixed", mremapDontUnmap = "mremap-dontunmap"
    case mremapPool = "mremap-pool"
    case futexShared = "futex-shared", futexRequeue = "futex-requeue"
    case madviseDontFork = "madvise-dontfork", capset
    /// prctl beyond PR_GET_SECCOMP (here PR_SET_DUMPABLE: make the worker ptrace-able).
    case prctlOther = "prctl-other"
    // Allowed: must succeed.
    case mmapReadWrite = "mmap-rw", getrandom, clock = "clock_gettime"
    case stdioPrint = "stdio-print"
    /// What the JIT does: write code into the pool (RW), flip it to RX, call it, flip back.
    case jitPool = "jit-pool"
    case mremapGrow = "mremap-grow", madviseDontNeed = "madvise-dontneed", futexPrivate = "futex-private"
    /// The JIT's check that its process is locked: prctl(PR_GET_SECCOMP) answers 2.
    case prctlSeccomp = "prctl-seccomp"
    // Crashes: must be reported as the crash they are, not as a forbidden call.
    case abort, trap

    /// The signal a crash probe must die of.
    public var crashSignal: Int32? {
        switch self {
        case .abort: return SIGABRT
        case .trap: return SIGILL
        default: return nil
        }
    }

    /// The system call the policy must stop (nil: the probe must succeed).
    public var forbiddenCall: String? {
        switch self {
        case .killOther: return "kill"
        case .tgkillOther: return "tgkill"
        case .mmapWriteExec, .mmapExec, .dualMapping, .mmapShared, .mmapFile: return "mmap"
        case .mprotectWriteExec, .mprotectExec, .mprotectExecPastPool: return "mprotect"
        case .mremapAlias, .mremapFixed, .mremapDontUnmap, .mremapPool: return "mremap"
        case .futexShared, .futexRequeue: return "futex"
        case .madviseDontFork: return "madvise"
        case .prctlOther: return "prctl"
        case .writeOtherFD: return "write"
        case .readStdin: return "read"
        case .x32, .i386: return "getpid"
        case .mmapReadWrite, .getrandom, .clock, .stdioPrint, .jitPool, .mremapGrow, .madviseDontNeed,
             .futexPrivate, .prctlSeccomp, .abort, .trap: return nil
        default: return rawValue
        }
    }

    /// Performs the operation; returns the kernel's result (negative: -errno) if the
    /// worker survives. `region` is the worker's executable region (the JIT's pool).
    public func perform(region: ExecutableRegion?) -> Int {
        func sys(_ name: String, _ a: [Int] = []) -> Int {
            let nr = Int(Lockdown.number(of: name) ?? -1)
            let x = a + [Int](repeating: 0, count: 6 - a.count)
            return sable_raw_syscall(nr, x[0], x[1], x[2], x[3], x[4], x[5])
        }
        let rwx = Int(PROT_READ | PROT_WRITE | PROT_EXEC)
        let rx = Int(PROT_READ | PROT_EXEC)
        /// A raw call's result that is an error (-errno), not an address.
        func failed(_ rc: Int) -> Bool { rc < 0 && rc > -4096 }
        /// A fresh private RW mapping, or mmap's -errno.
        func privatePages(_ size: Int) -> Int { sys("mmap", [0, size, Int(PROT_READ | PROT_WRITE), anon, -1, 0]) }
        let anon = Int(MAP_PRIVATE | MAP_ANONYMOUS)
        switch self {
        case .openat:
            return "/etc/passwd".withCString { sys("openat", [Int(AT_FDCWD), Int(bitPattern: $0), Int(O_RDONLY)]) }
        case .socket: return sys("socket", [Int(AF_INET), Int(SOCK_STREAM.rawValue), 0])
        case .connect:
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = UInt16(80).bigEndian
            addr.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            return withUnsafePointer(to: &addr) { sys("connect", [Int(WorkerDescriptors.socket), Int(bitPattern: $0), MemoryLayout<sockaddr_in>.size]) }
        case .execve:
            return "/bin/true".withCString { path in sys("execve", [Int(bitPattern: path), 0, 0]) }
        case .fork: return sys("fork")
        case .vfork: return sys("vfork")
        case .clone: return sys("clone", [Int(SIGCHLD), 0, 0, 0, 0])
        case .clone3:
            var args = [UInt64](repeating: 0, count: 11)
            args[4] = UInt64(SIGCHLD) // exit_signal
            return args.withUnsafeBytes { sys("clone3", [Int(bitPattern: $0.baseAddress), $0.count]) }
        case .ptrace: return sys("ptrace", [0 /* PTRACE_TRACEME */])
        case .killOther: return sys("kill", [1, 0]) // pid 1: another process
        case .tgkillOther: return sys("tgkill", [1, 1, 0])
        case .mmapWriteExec: return sys("mmap", [0, 4096, rwx, anon, -1, 0])
        case .mmapExec: return sys("mmap", [0, 4096, Int(PROT_READ | PROT_EXEC), anon, -1, 0])
        case .mprotectWriteExec, .mprotectExec:
            let page = privatePages(4096)
            if failed(page) { return page }
            return sys("mprotect", [page, 4096, self == .mprotectExec ? rx : rwx])
        case .mprotectExecPastPool:
            // From inside the pool, but long enough to reach past the reservation.
            guard let region else { return -Int(EINVAL) }
            return sys("mprotect", [Int(region.base + region.span - 4096), Int(region.span + 8192), rx])
        case .readStdin:
            var b: UInt8 = 0
            return withUnsafeMutablePointer(to: &b) { sys("read", [0, Int(bitPattern: $0), 1]) }
        case .dualMapping:
            // The whole attack: a shared page, an alias of it, one view RW and one RX.
            let shared = sys("mmap", [0, 4096, Int(PROT_READ | PROT_WRITE), Int(MAP_SHARED | MAP_ANONYMOUS), -1, 0])
            if failed(shared) { return shared }
            let alias = sys("mremap", [shared, 0, 4096, Int(LinuxABI.MREMAP_MAYMOVE)])
            if failed(alias) { return alias }
            return sys("mprotect", [alias, 4096, rx])
        case .mmapShared: return sys("mmap", [0, 4096, Int(PROT_READ | PROT_WRITE), Int(MAP_SHARED | MAP_ANONYMOUS), -1, 0])
        case .mmapFile: return sys("mmap", [0, 4096, Int(PROT_READ), Int(MAP_PRIVATE), 1, 0])
        case .mremapAlias, .mremapFixed, .mremapDontUnmap, .mremapGrow:
            let page = privatePages(8192)
            if failed(page) { return page }
            let mayMove = Int(LinuxABI.MREMAP_MAYMOVE)
            switch self {
            case .mremapAlias: return sys("mremap", [page, 0, 4096, mayMove])
            case .mremapFixed: return sys("mremap", [page, 4096, 4096, mayMove | Int(LinuxABI.MREMAP_FIXED), page + 4096])
            case .mremapDontUnmap: return sys("mremap", [page, 4096, 4096, mayMove | Int(LinuxABI.MREMAP_DONTUNMAP)])
            default:
                let moved = sys("mremap", [page, 8192, 1 << 20, mayMove])
                return failed(moved) ? moved : 0
            }
        case .mremapPool:
            guard let region else { return -Int(EINVAL) }
            return sys("mremap", [Int(region.base), 4096, 8192, Int(LinuxABI.MREMAP_MAYMOVE)])
        case .futexShared, .futexRequeue, .futexPrivate:
            var word: UInt32 = 0
            let op: Int32
            switch self {
            case .futexShared: op = LinuxABI.FUTEX_WAKE
            case .futexRequeue: op = 4 /* FUTEX_CMP_REQUEUE */ | LinuxABI.FUTEX_PRIVATE_FLAG
            default: op = LinuxABI.FUTEX_WAKE | LinuxABI.FUTEX_PRIVATE_FLAG
            }
            return withUnsafeMutablePointer(to: &word) { sys("futex", [Int(bitPattern: $0), Int(op), 1, 0, Int(bitPattern: $0), 0]) }
        case .madviseDontFork, .madviseDontNeed:
            let page = privatePages(4096)
            if failed(page) { return page }
            return sys("madvise", [page, 4096, self == .madviseDontFork ? 10 /* MADV_DONTFORK */ : Int(MADV_DONTNEED)])
        case .capset:
            // Ask for every capability back (v3 header, all bits set).
            var header: [UInt32] = [0x2008_0522, 0]
            var data = [UInt32](repeating: ~0, count: 6)
            return header.withUnsafeMutableBytes { h in
                data.withUnsafeMutableBytes { d in sys("capset", [Int(bitPattern: h.baseAddress), Int(bitPattern: d.baseAddress)]) }
            }
        case .jitPool:
            guard let region else { return -Int(EINVAL) }
            let code = Int(region.base)
            var rc = sys("mprotect", [code, 4096, Int(PROT_READ | PROT_WRITE)])
            if rc != 0 { return rc }
            // mov eax, 42; ret (x86_64) / mov w0, #42; ret (arm64)
            #if arch(x86_64)
            let bytes: [UInt8] = [0xB8, 42, 0, 0, 0, 0xC3]
            #elseif arch(arm64)
            let bytes: [UInt8] = [0x40, 0x05, 0x80, 0x52, 0xC0, 0x03, 0x5F, 0xD6]
            #endif
            region.pool.copyMemory(from: bytes, byteCount: bytes.count)
            rc = sys("mprotect", [code, 4096, rx])
            if rc != 0 { return rc }
            #if arch(arm64)
            sable_probe_flush_instruction_cache(region.pool, bytes.count)
            #endif
            let function = unsafeBitCast(region.pool, to: (@convention(c) () -> Int32).self)
            let result = function()
            rc = sys("mprotect", [code, 4096, Int(PROT_READ | PROT_WRITE)])
            return rc != 0 ? rc : (result == 42 ? 0 : -Int(EFAULT))
        case .prctlOther: return sys("prctl", [4 /* PR_SET_DUMPABLE */, 1])
        case .prctlSeccomp:
            let mode = sys("prctl", [Int(LinuxABI.PR_GET_SECCOMP)])
            return mode == 2 ? 0 : (mode < 0 ? mode : -Int(EINVAL))
        case .mmapReadWrite:
            let page = privatePages(1 << 20)
            return failed(page) ? page : 0
        case .writeOtherFD: return "x".withCString { sys("write", [9, Int(bitPattern: $0), 1]) }
        case .x32: return sable_raw_syscall(0x4000_0000 | 39 /* getpid */, 0, 0, 0, 0, 0, 0)
        case .i386: return sable_raw_syscall_i386(20 /* getpid */, 0, 0, 0)
        case .getrandom:
            var b = [UInt8](repeating: 0, count: 16)
            return b.withUnsafeMutableBytes { sys("getrandom", [Int(bitPattern: $0.baseAddress), 16, 0]) }
        case .stdioPrint:
            // stdio's first use of stdout (buffer sizing, isatty) after lockdown.
            print("stdio-print: ok")
            return Int(fflush(nil))
        case .abort: Glibc.abort()
        case .trap: fatalError("lockdown probe: deliberate trap")
        case .clock:
            var ts = timespec()
            return withUnsafeMutablePointer(to: &ts) { sys("clock_gettime", [Int(CLOCK_MONOTONIC), Int(bitPattern: $0)]) }
        }
    }
}

/// The sweep over every system-call number, run in ONE worker locked down with
/// `ViolationMode.record`: the installed filter is the worker policy compiled by the
/// same code, with the kill action as SECCOMP_RET_TRAP — exactly what script workers
/// get — but the SIGSYS handler records the call and returns -ENOSYS instead of
/// dying. A trap proves the kernel refused the call before executing it, so no fork
/// per number is needed.
public enum Sweep {
    /// The highest x86_64 system-call number tried (the table ends below 470 in Linux 6.x).
    public static let lastNumber: Int32 = 470

    /// Calls `nr` with all arguments -1 (the sweep's probe call).
    public static func call(_ nr: Int32) -> Int {
        sable_raw_syscall(Int(nr), -1, -1, -1, -1, -1, -1)
    }

    /// The numbers the sweep tries and what the policy says about each (nil: not tried).
    public static func plan(policy: SystemCallPolicy) -> [(nr: Int32, name: String, expected: SystemCallPolicy.Action?)] {
        var numbers = Array(0...lastNumber)
        numbers += [0x4000_0000, 0x4000_0000 | 39, 0x4000_0000 | 59]
        return numbers.map { nr in
            let base = Lockdown.name(of: nr & 0x3FFF_FFFF) ?? "#\(nr & 0x3FFF_FFFF)"
            if nr & 0x4000_0000 != 0 { return (nr, base, .kill) }
            if (nr == 335 || nr == 336) && Lockdown.nativeArch == 0xC000_003E { return (nr, base, nil) }
            if policy.allowsUnconditionally(base) { return (nr, base, nil) }
            return (nr, base, policy.decision(for: base, arguments: [UInt64](repeating: ~0, count: 6)))
        }
    }

    /// One line per finding; the last line is the summary `sweep: ...`.
    /// Calls the policy allows for every argument are not executed. Calls allowed only
    /// for some arguments are made with all arguments -1 (matching no condition);
    /// every other call with all arguments -1 too.
    public static func run(policy: SystemCallPolicy) -> [String] {
        var lines: [String] = []
        var skipped = 0, trapped = 0, refused = 0, conditional = 0, failures = 0
        let bad: [UInt64] = [UInt64](repeating: ~0, count: 6)
        var numbers = Array(0...lastNumber)
        // x32 ABI numbers (bit 30) go to the bad-architecture action.
        numbers += [0x4000_0000, 0x4000_0000 | 39, 0x4000_0000 | 59]
        var exempt: [String] = []
        for nr in numbers {
            // uretprobe and uprobe (x86_64 335, 336) bypass seccomp by kernel design
            // (6.13+/6.16+): they act only from a uprobe trampoline; called from
            // anywhere else they raise SIGILL or fail with ENXIO.
            if (nr == 335 || nr == 336) && Lockdown.nativeArch == 0xC000_003E {
                exempt.append("\(Lockdown.name(of: nr) ?? "#")(\(nr))")
                continue
            }
            let name = Lockdown.name(of: nr & 0x3FFF_FFFF).map { nr & 0x4000_0000 != 0 ? "x32 " + $0 : $0 } ?? "#\(nr)"
            let plainName = nr & 0x4000_0000 != 0 ? "" : name
            if policy.allowsUnconditionally(plainName) { skipped += 1; continue }
            let expected = policy.decision(for: plainName, arguments: bad)
            if policy.rules.contains(where: { $0.name == plainName && !$0.conditions.isEmpty }) { conditional += 1 }
            let before = sable_trapped_count()
            let rc = sable_raw_syscall(Int(nr), -1, -1, -1, -1, -1, -1)
            let didTrap = sable_trapped_count() == before + 1 && sable_last_trapped_nr() == nr
            switch expected {
            case .kill:
                if didTrap { trapped += 1 } else {
                    failures += 1
                    lines.append("FAIL \(name) (\(nr)): not trapped, returned \(rc)")
                }
            case .fail(let e):
                if !didTrap && rc == -Int(e) { refused += 1 } else {
                    failures += 1
                    lines.append("FAIL \(name) (\(nr)): expected -\(e), returned \(rc)\(didTrap ? " (trapped)" : "")")
                }
            case .allow:
                failures += 1
                lines.append("FAIL \(name) (\(nr)): model allows the probe arguments")
            }
        }
        if !exempt.isEmpty { lines.append("not tried: \(exempt.joined(separator: ", ")) (the kernel exempts them from seccomp; useless outside a uprobe trampoline)") }
        lines.append("sweep: \(numbers.count) numbers: \(skipped) allowed (not executed), \(exempt.count) kernel-exempt, \(trapped) denied (trapped before execution, \(conditional) of them allowed only for other arguments), \(refused) refused with EPERM, \(failures) failures")
        return lines
    }
}
