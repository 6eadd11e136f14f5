#if canImport(Glibc)
import Glibc
#endif

/// A seccomp policy as data: rules over system-call names with argument conditions.
///
/// Rules for the same system call are alternatives (the first that matches decides);
/// the conditions of one rule must all hold. A call no rule matches gets
/// `defaultAction`. `SystemCallPolicy.worker` is the policy of script workers; its
/// rationale is in `POLICY.md` next to this file.
public struct SystemCallPolicy: Sendable {
    /// Bumped whenever the worker policy changes (the `lockdown` message carries it).
    public static let version: UInt32 = 4

    public enum Action: Equatable, Sendable {
        case allow
        /// The call fails with this errno without being executed.
        case fail(errno: Int32)
        /// The process dies (or, with a violation reporter, reports and then dies).
        case kill
    }

    /// A test on one argument (0-based) of the call, compared as 64 bits.
    public struct Condition: Equatable, Sendable {
        public enum Test: Equatable, Sendable {
            case equal(UInt64)
            case notEqual(UInt64)
            /// `(argument & mask) == value`
            case maskedEqual(mask: UInt64, value: UInt64)
        }
        public var argument: UInt32
        public var test: Test

        public init(argument: UInt32, _ test: Test) {
            self.argument = argument
            self.test = test
        }

        public func holds(_ arguments: [UInt64]) -> Bool {
            let a = Int(argument) < arguments.count ? arguments[Int(argument)] : 0
            switch test {
            case .equal(let v): return a == v
            case .notEqual(let v): return a != v
            case .maskedEqual(let mask, let v): return a & mask == v
            }
        }

        /// The condition as `jsrun --lockdown-policy` prints it (and `policy-probe.c` parses it).
        public var text: String {
            let a = "arg\(argument)"
            func hex(_ v: UInt64) -> String { "0x" + String(v, radix: 16) }
            switch test {
            case .equal(let v): return "\(a) == \(hex(v))"
            case .notEqual(let v): return "\(a) != \(hex(v))"
            case .maskedEqual(let m, let v): return "\(a) & \(hex(m)) == \(hex(v))"
            }
        }
    }

    public struct Rule: Sendable {
        public var name: String
        public var action: Action
        public var conditions: [Condition]
        /// Why the rule exists (printed by `jsrun --lockdown-policy`).
        public var reason: String

        public init(_ name: String, _ action: Action = .allow, when conditions: [Condition] = [], reason: String) {
            self.name = name
            self.action = action
            self.conditions = conditions
            self.reason = reason
        }
    }

    public var rules: [Rule]
    public var defaultAction: Action

    public init(rules: [Rule], defaultAction: Action = .kill) {
        self.rules = rules
        self.defaultAction = defaultAction
    }

    /// What the policy does with a call: the first rule for `name` whose conditions all
    /// hold, else the default. (The model the sweep checks the kernel against.)
    public func decision(for name: String, arguments: [UInt64]) -> Action {
        for rule in rules where rule.name == name && rule.conditions.allSatisfy({ $0.holds(arguments) }) {
            return rule.action
        }
        return defaultAction
    }

    /// Whether some rule allows `name` for every argument.
    public func allowsUnconditionally(_ name: String) -> Bool {
        rules.contains { $0.name == name && $0.action == .allow && $0.conditions.isEmpty }
    }
}

/// The descriptors a worker inherits (set up by `WorkerProcess.spawn`).
public enum WorkerDescriptors {
    /// The message socket to the supervisor.
    public static let socket: Int32 = 3
    /// The write end of the violation-report pipe.
    public static let report: Int32 = 4
}

extension SystemCallPolicy {
    /// The policy of a script worker: it talks only over inherited descriptors, maps only
    /// private anonymous memory, and may make memory executable only inside `executable`
    /// (the JIT's code pool, reserved before lockdown; nil: never).
    ///
    /// - `pid`: the worker's own pid (signals may only go to its own thread group).
    public static func worker(pid: Int32, executable: ExecutableRegion? = nil) -> SystemCallPolicy {
        let socket = UInt64(WorkerDescriptors.socket)
        let report = UInt64(WorkerDescriptors.report)
        func fd(_ n: UInt64) -> [Condition] { [Condition(argument: 0, .equal(n))] }
        /// An `int` argument: the kernel reads the low 32 bits only.
        func int32(_ argument: UInt32, _ value: UInt64, ignoring bits: UInt64 = 0) -> Condition {
            Condition(argument: argument, .maskedEqual(mask: 0xFFFF_FFFF & ~bits, value: value))
        }
        let write = UInt64(PROT_WRITE), exec = UInt64(PROT_EXEC)
        let wx = write | exec
        var rules: [Rule] = []
        // MARK: - Inherited descriptors
        rules.append(Rule("read", when: fd(socket), reason: "messages from the supervisor"))
        for n in [1, 2, socket, report] as [UInt64] {
            rules.append(Rule("write", when: fd(n), reason: "stdout, stderr, the socket, the violation report"))
        }
        for n in [1, 2] as [UInt64] {
            rules.append(Rule("writev", when: fd(n), reason: "libc and Swift runtime fatal-error messages"))
        }
        // MARK: - Memory
        // Private anonymous memory only: no MAP_SHARED (a shared mapping aliased by mremap
        // would give a writable and an executable view of the same pages), no file mappings.
        let privateAnonymous = UInt64(MAP_PRIVATE | MAP_ANONYMOUS)
        let mapType = UInt64(MAP_SHARED | MAP_PRIVATE | MAP_ANONYMOUS) // MAP_SHARED_VALIDATE = 3 included
        rules.append(Rule("mmap", when: [Condition(argument: 2, .maskedEqual(mask: exec, value: 0)),
                                         Condition(argument: 3, .maskedEqual(mask: mapType, value: privateAnonymous))],
                          reason: "malloc and the heap: private anonymous memory, never PROT_EXEC"))
        for prot in [0, write] as [UInt64] {
            rules.append(Rule("mprotect", when: [Condition(argument: 2, .maskedEqual(mask: wx, value: prot))],
                              reason: "guard pages, RX -> RW flips, read-only data; never PROT_EXEC here"))
        }
        if let region = executable {
            // addr in [base, base + span) and len < span: the pages changed lie inside the
            // reservation [base, base + 2 * span), whatever the arguments.
            let window = ~(region.span - 1)
            rules.append(Rule("mprotect", when: [Condition(argument: 0, .maskedEqual(mask: window, value: region.base)),
                                                 Condition(argument: 1, .maskedEqual(mask: window, value: 0)),
                                                 Condition(argument: 2, .maskedEqual(mask: wx, value: exec))],
                              reason: "RW -> RX flips of JIT code, only inside the JIT's reserved pool; never PROT_WRITE|PROT_EXEC"))
        }
        rules.append(Rule("munmap", reason: "freeing memory"))
        // mremap: no alias (old_size 0 duplicates a shared mapping), no MREMAP_FIXED or
        // MREMAP_DONTUNMAP (both place or keep a second copy), and never pages of the
        // executable reservation (moving JIT code out of it).
        let remap: [Condition] = [Condition(argument: 1, .notEqual(0)),
                                  Condition(argument: 3, .maskedEqual(mask: ~UInt64(LinuxABI.MREMAP_MAYMOVE), value: 0))]
        if let region = executable {
            // "Not inside the reservation" as masked equalities only (libseccomp 2.5's 64-bit
            // LT/GE comparisons proved unreliable, depending on the low word, so `Condition`
            // does not offer them): the address
            // differs from the reservation's base in some bit above its (aligned) size.
            // Only the bits of user-space addresses: below 47 (57 with five-level paging,
            // when the pool lies above 2^47). An address with a higher bit set is not
            // canonical, so no mremap of it can succeed: such calls are refused with the
            // rest. (Each rule costs libseccomp ~20 µs at every start; 20 rules, not 37.)
            let lowBit = (2 * region.span).trailingZeroBitCount
            let highBit = region.base < UInt64(1) << 47 ? 47 : 57
            for bit in lowBit..<highBit {
                let mask = UInt64(1) << UInt64(bit)
                rules.append(Rule("mremap", when: remap + [Condition(argument: 0, .maskedEqual(mask: mask, value: ~region.base & mask))],
                                  reason: "realloc of large blocks outside the JIT pool (address bit \(bit) differs from the pool's): move or resize, no alias, no fixed address"))
            }
        } else {
            rules.append(Rule("mremap", when: remap, reason: "realloc of large blocks: move or resize, no alias, no fixed address"))
        }
        for (advice, name) in [(MADV_DONTNEED, "MADV_DONTNEED"), (MADV_FREE, "MADV_FREE")] {
            rules.append(Rule("madvise", when: [int32(2, UInt64(advice))], reason: "returning free pages (\(name))"))
        }
        rules.append(Rule("brk", reason: "malloc's main arena"))
        // MARK: - Threads, time, randomness
        // Private wait and wake only (optionally with a CLOCK_REALTIME timeout): no
        // requeue, priority-inheritance, FUTEX_FD or shared-memory futexes.
        let privateFlag = UInt64(LinuxABI.FUTEX_PRIVATE_FLAG), realtime = UInt64(LinuxABI.FUTEX_CLOCK_REALTIME)
        for (op, name) in [(LinuxABI.FUTEX_WAIT, "WAIT"), (LinuxABI.FUTEX_WAKE, "WAKE"), (LinuxABI.FUTEX_WAIT_BITSET, "WAIT_BITSET"), (LinuxABI.FUTEX_WAKE_BITSET, "WAKE_BITSET")] {
            rules.append(Rule("futex", when: [int32(1, UInt64(op) | privateFlag, ignoring: realtime)],
                              reason: "locks in libc and the Swift runtime (FUTEX_\(name)_PRIVATE)"))
        }
        rules.append(Rule("sched_yield", reason: "spin-lock back-off"))
        for name in ["clock_gettime", "clock_getres", "gettimeofday", "time"] {
            rules.append(Rule(name, reason: "clocks (vDSO fallbacks)"))
        }
        rules.append(Rule("getrandom", reason: "hash seeds and random numbers"))
        rules.append(Rule("prctl", when: [int32(0, UInt64(LinuxABI.PR_GET_SECCOMP))],
                          reason: "the JIT checks that its process is locked down (PR_GET_SECCOMP only)"))
        // MARK: - Signals and exit
        rules.append(Rule("rt_sigreturn", reason: "returning from a signal handler"))
        rules.append(Rule("rt_sigprocmask", reason: "abort() and raise() block signals"))
        rules.append(Rule("getpid", reason: "raise() names its own process"))
        rules.append(Rule("gettid", reason: "raise() names its own thread"))
        rules.append(Rule("tgkill", when: fd(UInt64(UInt32(bitPattern: pid))),
                          reason: "raise()/abort() signal the worker itself, no other process"))
        rules.append(Rule("exit", reason: "thread exit"))
        rules.append(Rule("exit_group", reason: "process exit"))
        // MARK: - Refused, survivable (EPERM)
        // Observed under strace (`jsrun --lockdown-selftest`, probe stdio-print): glibc
        // stdio stats a stream on first use (Swift print()) to size its buffer and to
        // decide whether it is a terminal; refused, it uses BUFSIZ and full buffering.
        rules.append(Rule("newfstatat", .fail(errno: EPERM),
                          reason: "glibc stdio sizes a stream's buffer on first use (Swift print); refused: BUFSIZ, not a tty"))
        rules.append(Rule("fstat", .fail(errno: EPERM),
                          reason: "the same from glibc before 2.33"))
        return SystemCallPolicy(rules: rules, defaultAction: .kill)
    }
}

extension SystemCallPolicy {
    /// The policy of a test262 worker that runs the suite with the JIT: the script
    /// worker's policy (the same memory, W^X and executable-region rules) plus read-only
    /// access to files (the tests and the harness it is asked to run) and writes to
    /// stdout/stderr. Nothing else: no sockets, no processes, no writable files.
    /// `outputs`: the descriptors it writes (verdicts, its log).
    public static func conformanceWorker(pid: Int32, executable: ExecutableRegion, outputs: [Int32]) -> SystemCallPolicy {
        var rules = worker(pid: pid, executable: executable).rules.filter {
            !["read", "write", "writev", "newfstatat", "fstat"].contains($0.name)
        }
        // Read-only opens: the access mode O_RDONLY and none of the flags that create,
        // truncate or open something other than a file.
        let refused = UInt64(O_ACCMODE | O_CREAT | O_TRUNC | O_APPEND) | LinuxABI.O_PATH | LinuxABI.O_TMPFILE
        rules.append(Rule("openat", when: [Condition(argument: 2, .maskedEqual(mask: refused, value: UInt64(O_RDONLY)))],
                          reason: "reading a test and its harness files (read-only)"))
        for name in ["read", "pread64", "close", "lseek", "newfstatat", "fstat", "statx"] {
            rules.append(Rule(name, reason: "reading files"))
        }
        for fd in outputs {
            let n = UInt64(UInt32(bitPattern: fd))
            rules.append(Rule("write", when: [Condition(argument: 0, .equal(n))], reason: "verdicts and the log"))
            rules.append(Rule("writev", when: [Condition(argument: 0, .equal(n))], reason: "fatal-error messages"))
        }
        rules.append(Rule("getrusage", reason: "the worker reports its CPU time"))
        rules.append(Rule("pause", reason: "the main thread waits while the tests run on a thread with a large stack"))
        rules.append(Rule("sched_getaffinity", reason: "glibc's processor count (malloc arenas) in a fresh runtime per test"))
        return SystemCallPolicy(rules: rules, defaultAction: .kill)
    }
}

/// Linux constants Swift's Glibc module does not export (`<linux/futex.h>`, `<linux/mman.h>`).
enum LinuxABI {
    static let FUTEX_WAIT: Int32 = 0
    /// <asm-generic/fcntl.h> (x86_64 and arm64 agree).
    static let O_PATH: UInt64 = 0o10000000
    static let O_TMPFILE: UInt64 = 0o20000000 | 0o200000
    /// <linux/prctl.h>
    static let PR_GET_SECCOMP: Int32 = 21
    static let FUTEX_WAKE: Int32 = 1
    static let FUTEX_WAIT_BITSET: Int32 = 9
    static let FUTEX_WAKE_BITSET: Int32 = 10
    static let FUTEX_PRIVATE_FLAG: Int32 = 128
    static let FUTEX_CLOCK_REALTIME: Int32 = 256
    static let MREMAP_MAYMOVE: Int32 = 1
    static let MREMAP_FIXED: Int32 = 2
    static let MREMAP_DONTUNMAP: Int32 = 4
}
