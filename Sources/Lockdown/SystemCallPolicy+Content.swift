#if canImport(Glibc)
import Glibc
#endif

extension SystemCallPolicy {
    /// Bumped whenever the content policy changes (the host's `lockdown(version:)` carries it).
    public static let contentVersion: UInt32 = 1

    /// The policy of a web-content process: the script worker's (memory without W+X, the
    /// JIT's executable region, futex, clocks, signals to itself, exit) with the descriptor
    /// rules widened to the endpoints it is handed after lockdown. Those arrive with
    /// `SCM_RIGHTS` at numbers nobody knows in advance, so reads and writes are allowed on
    /// any descriptor; the process cannot make a new one (no open, socket, pipe, dup,
    /// memfd, accept): every descriptor it holds is one the host gave it.
    public static func content(pid: Int32, executable: ExecutableRegion?) -> SystemCallPolicy {
        var rules = worker(pid: pid, executable: executable).rules.filter { !["read", "write", "writev"].contains($0.name) }
        rules.append(Rule("read", reason: "messages from the host and from the endpoints it handed over"))
        rules.append(Rule("write", reason: "messages to the host and the endpoints; stdout, stderr"))
        rules.append(Rule("writev", reason: "libc and Swift runtime fatal-error messages"))
        rules.append(Rule("sendto", when: [Condition(argument: 4, .equal(0)), Condition(argument: 5, .equal(0))],
                          reason: "send(MSG_NOSIGNAL) on a connected endpoint (no address: never a new destination)"))
        rules.append(Rule("recvmsg", reason: "receiving the endpoints (SCM_RIGHTS) in bootstrap"))
        rules.append(Rule("poll", reason: "waiting for a reply with a deadline"))
        rules.append(Rule("ppoll", reason: "the same where libc uses ppoll"))
        rules.append(Rule("close", reason: "dropping an endpoint (a relaunched peer sends new ones)"))
        rules.append(Rule("shutdown", reason: "ending a connection to a peer that misbehaved"))
        return SystemCallPolicy(rules: rules, defaultAction: .kill)
    }
}
