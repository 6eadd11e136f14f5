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
    // Allowed: must succeed.
    case mmapReadWrite = "mmap-rw", mprotectReadExec = "mprotect-rx", getrandom, clock = "clock_gettime"
    case stdioPrint = "stdio-print"
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
        case .mmapWriteExec, .mmapExec: return "mmap"
        case .mprotectWriteExec: return "mprotect"
        case .writeOtherFD: return "write"
        case .x32, .i386: return "getpid"
        case .mmapReadWrite, .mprotectReadExec, .getrandom, .clock, .stdioPrint, .abort, .trap: return nil
        default: return rawValue
        }
    }

    /// Performs the operation; returns the kernel's result (negative: -errno) if the
    /// worker survives.
    public func perform() -> Int {
        func sys(_ name: String, _ a: [Int] = []) -> Int {
            let nr = Int(Lockdown.number(of: name) ?? -1)
            let x = a + [Int](repeating: 0, count: 6 - a.count)
            return sable_raw_syscall(nr, x[0], x[1], x[2], x[3], x[4], x[5])
        }
        let rwx = Int(PROT_READ | PROT_WRITE | PROT_EXEC)
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
        case .mprotectWriteExec, .mprotectReadExec:
            let page = sys("mmap", [0, 4096, Int(PROT_READ | PROT_WRITE), anon, -1, 0])
            if page < 0 && page > -4096 { return page }
            return sys("mprotect", [page, 4096, self == .mprotectReadExec ? Int(PROT_READ | PROT_EXEC) : rwx])
        case .mmapReadWrite:
            let page = sys("mmap", [0, 1 << 20, Int(PROT_READ | PROT_WRITE), anon, -1, 0])
            return page < 0 && page > -4096 ? page : 0
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
