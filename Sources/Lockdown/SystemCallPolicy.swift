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
    public static let version: UInt32 = 1

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
            case .maskedEqual(let mask, let v): return a & mask == v
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
    /// The policy of a script worker: it talks only over inherited descriptors.
    ///
    /// - `pid`: the worker's own pid (signals may only go to its own thread group).
    public static func worker(pid: Int32) -> SystemCallPolicy {
        let socket = UInt64(WorkerDescriptors.socket)
        let report = UInt64(WorkerDescriptors.report)
        func fd(_ n: UInt64) -> [Condition] { [Condition(argument: 0, .equal(n))] }
        let write = UInt64(PROT_WRITE), exec = UInt64(PROT_EXEC)
        let wx = write | exec
        var rules: [Rule] = []
        // MARK: - Inherited descriptors
        rules.append(Rule("read", when: fd(socket), reason: "messages from the supervisor"))
        rules.append(Rule("read", when: fd(0), reason: "stdin (inherited)"))
        for n in [1, 2, socket, report] as [UInt64] {
            rules.append(Rule("write", when: fd(n), reason: "stdout, stderr, the socket, the violation report"))
        }
        for n in [1, 2] as [UInt64] {
            rules.append(Rule("writev", when: fd(n), reason: "libc and Swift runtime fatal-error messages"))
        }
        // MARK: - Memory
        rules.append(Rule("mmap", when: [Condition(argument: 2, .maskedEqual(mask: exec, value: 0))],
                          reason: "malloc and the heap; never PROT_EXEC"))
        for prot in [0, write, exec] as [UInt64] {
            rules.append(Rule("mprotect", when: [Condition(argument: 2, .maskedEqual(mask: wx, value: prot))],
                              reason: "W^X flips (RW <-> RX), guard pages; never PROT_WRITE|PROT_EXEC"))
        }
        rules.append(Rule("munmap", reason: "freeing memory"))
        rules.append(Rule("mremap", reason: "realloc of large blocks (keeps protections)"))
        rules.append(Rule("madvise", reason: "malloc returning memory"))
        rules.append(Rule("brk", reason: "malloc's main arena"))
        // MARK: - Threads, time, randomness
        rules.append(Rule("futex", reason: "locks in libc and the Swift runtime"))
        rules.append(Rule("sched_yield", reason: "spin-lock back-off"))
        for name in ["clock_gettime", "clock_getres", "gettimeofday", "time"] {
            rules.append(Rule(name, reason: "clocks (vDSO fallbacks)"))
        }
        rules.append(Rule("getrandom", reason: "hash seeds and random numbers"))
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
