#if canImport(Glibc)
import Glibc
#endif
import CSeccomp
import CLockdown
import EngineIPC

/// Installing a `SystemCallPolicy` in the calling process (irreversible).
public enum Lockdown {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Sets `PR_SET_NO_NEW_PRIVS`, compiles `policy` with libseccomp and loads it.
    ///
    /// The policy's `.kill` is installed per `mode`: `.kill` as
    /// `SECCOMP_RET_KILL_PROCESS`; `.reportAndKill` and `.record` as
    /// `SECCOMP_RET_TRAP` with a SIGSYS handler (see `CLockdown.h`) that writes the
    /// call's number to `reportFD` and dies, or records it. With TRAP the forbidden call
    /// is never executed either; only the handler runs before the process dies.
    /// Calls of another ABI (x32, i386 `int $0x80`) get the same action.
    /// `allThreads`: the filter is installed on every thread of the process at once
    /// (`SECCOMP_FILTER_FLAG_TSYNC`), for a process that made threads before lockdown.
    public static func install(_ policy: SystemCallPolicy, mode: ViolationMode = .reportAndKill,
                               reportFD: Int32 = -1, allThreads: Bool = false) throws(Failure) {
        try prepare(mode: mode, reportFD: reportFD)
        let ctx = try context(policy, mode: mode)
        if allThreads && seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1) != 0 {
            seccomp_release(ctx)
            throw Failure(description: "seccomp: cannot synchronize the filter over threads")
        }
        defer { seccomp_release(ctx) }
        let rc = seccomp_load(ctx)
        if rc != 0 { throw Failure(description: "seccomp_load: errno \(-rc)") }
    }

    /// `install` of a policy compiled by `compile(_:mode:)` for the same `mode` (the
    /// supervisor compiles a forked worker's policy while the worker starts its runtime).
    public static func install(compiled filter: [UInt8], mode: ViolationMode = .reportAndKill,
                               reportFD: Int32 = -1) throws(Failure) {
        guard !filter.isEmpty, filter.count % 8 == 0 else { throw Failure(description: "malformed filter (\(filter.count) bytes)") }
        try prepare(mode: mode, reportFD: reportFD)
        let rc = filter.withUnsafeBytes { sable_load_filter($0.baseAddress, UInt32($0.count / 8)) }
        if rc != 0 { throw Failure(description: "seccomp(SECCOMP_SET_MODE_FILTER): errno \(-rc)") }
    }

    /// The classic BPF program `install` would load for `policy` and `mode` (libseccomp's
    /// `seccomp_export_bpf`; at most BPF_MAXINSNS instructions, 32 KiB, which a pipe holds).
    public static func compile(_ policy: SystemCallPolicy, mode: ViolationMode = .reportAndKill) throws(Failure) -> [UInt8] {
        let ctx = try context(policy, mode: mode)
        defer { seccomp_release(ctx) }
        var fds: [Int32] = [-1, -1]
        guard sable_pipe_cloexec_nonblock(&fds) == 0 else { throw Failure(description: "pipe2: errno \(errno)") }
        defer { close(fds[0]) }
        let rc = seccomp_export_bpf(ctx, fds[1])
        close(fds[1])
        if rc != 0 { throw Failure(description: "seccomp_export_bpf: errno \(-rc)") }
        var filter: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            // Written in full before the write end closed: EAGAIN cannot happen before EOF.
            if n < 0 { throw Failure(description: "read: errno \(errno)") }
            if n == 0 { break }
            filter += chunk[0..<n]
        }
        return filter
    }

    /// The SIGSYS handler (unless `.kill`) and `PR_SET_NO_NEW_PRIVS`.
    static func prepare(mode: ViolationMode, reportFD: Int32) throws(Failure) {
        if mode != .kill {
            let rc = sable_install_sigsys_handler(reportFD, mode == .record ? SABLE_SIGSYS_RECORD : SABLE_SIGSYS_REPORT_AND_DIE)
            if rc != 0 { throw Failure(description: "sigaction(SIGSYS): errno \(-rc)") }
        }
        let nnp = sable_set_no_new_privs()
        if nnp != 0 { throw Failure(description: "prctl(PR_SET_NO_NEW_PRIVS): errno \(-nnp)") }
    }

    /// A libseccomp filter context holding `policy` with `.kill` as `mode` says.
    static func context(_ policy: SystemCallPolicy, mode: ViolationMode) throws(Failure) -> scmp_filter_ctx {
        let killAction = mode == .kill ? SCMP_ACT_KILL_PROCESS : SCMP_ACT_TRAP
        func action(_ a: SystemCallPolicy.Action) -> UInt32 {
            switch a {
            case .allow: return SCMP_ACT_ALLOW
            case .fail(let e): return 0x0005_0000 | (UInt32(e) & 0xFFFF) // SCMP_ACT_ERRNO(e)
            case .kill: return killAction
            }
        }
        guard let ctx = seccomp_init(action(policy.defaultAction)) else {
            throw Failure(description: "seccomp_init failed")
        }
        _ = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, action(.kill))
        for rule in policy.rules {
            let nr = seccomp_syscall_resolve_name(rule.name)
            if nr == __NR_SCMP_ERROR { seccomp_release(ctx); throw Failure(description: "unknown system call \(rule.name)") }
            if nr < 0 { continue } // not a system call on this architecture
            var cmps = rule.conditions.map { c -> scmp_arg_cmp in
                switch c.test {
                case .equal(let v): return scmp_arg_cmp(arg: c.argument, op: SCMP_CMP_EQ, datum_a: v, datum_b: 0)
                case .notEqual(let v): return scmp_arg_cmp(arg: c.argument, op: SCMP_CMP_NE, datum_a: v, datum_b: 0)
                case .maskedEqual(let mask, let v): return scmp_arg_cmp(arg: c.argument, op: SCMP_CMP_MASKED_EQ, datum_a: mask, datum_b: v)
                }
            }
            let rc = seccomp_rule_add_array(ctx, action(rule.action), nr, UInt32(cmps.count), &cmps)
            if rc != 0 {
                seccomp_release(ctx)
                throw Failure(description: "seccomp_rule_add_array(\(rule.name)): errno \(-rc)")
            }
        }
        return ctx
    }

    /// The system-call number of `name` on this machine (nil if it has none).
    public static func number(of name: String) -> Int32? {
        let nr = seccomp_syscall_resolve_name(name)
        return nr >= 0 ? nr : nil
    }

    /// The name of system call `nr` of the ABI `arch` (an AUDIT_ARCH value as in
    /// `siginfo.si_arch`; 0: this machine's).
    public static func name(of nr: Int32, arch: UInt32 = 0) -> String? {
        guard let p = seccomp_syscall_resolve_num_arch(arch, nr) else {
            let native = arch == 0 || arch == nativeArch
            return native && nativeArch == 0xC000_003E ? newerX86_64Names[nr] : nil
        }
        defer { free(p) }
        return String(cString: p)
    }

    /// x86_64 calls newer than the libseccomp tables (2.5.4: up to 450).
    static let newerX86_64Names: [Int32: String] = [
        335: "uretprobe", 336: "uprobe", 451: "cachestat", 452: "fchmodat2", 453: "map_shadow_stack",
        454: "futex_wake", 455: "futex_wait", 456: "futex_requeue", 457: "statmount", 458: "listmount",
        459: "lsm_get_self_attr", 460: "lsm_set_self_attr", 461: "lsm_list_modules", 462: "mseal",
        463: "setxattrat", 464: "getxattrat", 465: "listxattrat", 466: "removexattrat",
        467: "open_tree_attr", 468: "file_getattr", 469: "file_setattr",
    ]

    /// The ABI name of an AUDIT_ARCH value (for reports about x32 / i386 calls).
    public static func archName(_ arch: UInt32) -> String {
        switch arch {
        case 0, 0xC000_003E: return "x86_64"
        case 0x4000_0003: return "i386"
        case 0xC000_00B7: return "aarch64"
        default: return "arch 0x" + String(arch, radix: 16)
        }
    }

    /// The native architecture token.
    public static var nativeArch: UInt32 { seccomp_arch_native() }
}
