#if canImport(Glibc)
import Glibc
#endif
import EngineIPC
import Lockdown

/// `jsrun --lockdown-selftest` and `jsrun --lockdown-sweep`: the policy checked
/// against the kernel from inside real locked workers.
enum SelfTest {
    /// Each probe in a fresh worker: forbidden operations must kill the worker (with
    /// the right call reported) or fail with EPERM; allowed ones must succeed. Also
    /// checks /proc of a locked worker and the kernel-kill mode.
    static func run() -> Int32 {
        var failures = 0
        func check(_ ok: Bool, _ what: String) {
            FileIO.out((ok ? "ok   " : "FAIL ") + what + "\n")
            if !ok { failures += 1 }
        }
        for probe in Probe.allCases {
            let (ok, what) = runProbe(probe, mode: .reportAndKill)
            check(ok, what)
        }
        // Without the reporter, the kernel kills outright (SECCOMP_RET_KILL_PROCESS).
        let (ok, what) = runProbe(.openat, mode: .kill)
        check(ok, what + " [kill mode]")
        // A worker locked down in the diagnostic record mode refuses to run scripts.
        do {
            var settings = Supervisor.Settings.forked
            settings.mode = .record
            settings.timeout = 10
            let s = try Supervisor(settings)
            try s.awaitLockedDown()
            let r = try s.request(.evaluate(EvaluateRequest(id: 1, name: "[selftest]", source: "1 + 1")))
            let end = s.finish()
            check(r.status != 0 && r.value == nil && end == .exited(71),
                  "record mode       script refused: \(r.exception ?? "no message"), worker \(end)")
        } catch {
            check(false, "record mode       \(Supervisor.report(error).message ?? "failed")")
        }
        // /proc of a locked worker.
        do {
            let s = try Supervisor(Supervisor.Settings.forked)
            try s.awaitLockedDown()
            if let info = ProcessInspection.inspect(pid: s.pid) {
                check(info.isLockedDown, "/proc/\(s.pid): Seccomp: \(info.seccompMode ?? -1), NoNewPrivs: \(info.noNewPrivs ?? -1), capabilities \(info.capabilitySummary), \(info.mappingCount) mappings, \(info.writableExecutableMappings.count) writable+executable, \(info.anonymousExecutableMappings.count) anonymous executable")
            } else {
                check(false, "/proc/\(s.pid) unreadable")
            }
            _ = s.finish()
        } catch {
            check(false, "worker for /proc check: \(Supervisor.report(error).message ?? "failed")")
        }
        FileIO.out(failures == 0 ? "lockdown self-test: all passed\n" : "lockdown self-test: \(failures) failed\n")
        return failures == 0 ? 0 : 1
    }

    static func runProbe(_ probe: Probe, mode: ViolationMode) -> (Bool, String) {
        let label = probe.rawValue.padding(16)
        var settings = Supervisor.Settings.forked
        settings.mode = mode
        settings.timeout = 10
        do {
            let s = try Supervisor(settings)
            try s.awaitLockedDown()
            let r = try s.request(.probe(probe.rawValue))
            _ = s.finish()
            let rc = Int(r.value ?? "") ?? Int.min
            if probe.forbiddenCall == nil { return (rc >= 0, "\(label) allowed, returned \(rc)") }
            return (rc == -Int(EPERM), "\(label) returned \(rc)" + (rc == -Int(EPERM) ? " (EPERM)" : " (should be denied)"))
        } catch {
            switch error {
            case .died(.signaled(let sig), _) where probe == .i386 && sig == SIGSEGV:
                return (true, "\(label) no i386 ABI in this kernel (int $0x80 faults)")
            case .died(.signaled(let sig), _) where probe.crashSignal != nil:
                return (sig == probe.crashSignal, "\(label) crashed: \(signalName(sig))")
            case .died(.signaled(let sig), let violation) where sig == SIGSYS:
                guard let expected = probe.forbiddenCall else { return (false, "\(label) killed: \(violation ?? "?") (should be allowed)") }
                if mode == .kill { return (violation == nil, "\(label) killed by SIGSYS (kernel)") }
                let reported = violation ?? "nothing"
                let ok = reported == expected || reported.hasPrefix(expected + " (")
                return (ok, "\(label) killed: forbidden system call \(reported)" + (ok ? "" : " (expected \(expected))"))
            default:
                return (false, "\(label) \(Supervisor.report(error).message ?? "\(error)")")
            }
        }
    }

    /// Every system-call number in one worker locked down in record mode (see `Sweep`).
    static func sweep() -> Int32 {
        var settings = Supervisor.Settings.forked
        settings.mode = .record
        settings.timeout = 30
        do {
            let s = try Supervisor(settings)
            try s.awaitLockedDown()
            let r = try s.request(.sweep)
            _ = s.finish()
            let text = r.value ?? ""
            FileIO.out(text + "\n")
            return text.hasSuffix(" 0 failures") ? 0 : 1
        } catch {
            FileIO.err((Supervisor.report(error).message ?? "jsrun: sweep failed") + "\n")
            return 1
        }
    }

    /// `jsrun --lockdown-sweep=fresh`: each denied number in a fresh worker in the
    /// production mode (report, then die): the worker must die by SIGSYS with that
    /// call's name reported; EPERM calls must return -EPERM. Slower (one process per
    /// number); a cross-check of the fork-free sweep, not run in CI.
    static func sweepFresh() -> Int32 {
        let plan = Sweep.plan(policy: SystemCallPolicy.worker(pid: getpid()))
        var killed = 0, refused = 0, failures = 0, skipped = 0
        for (nr, name, expected) in plan {
            guard let expected else { skipped += 1; continue }
            var settings = Supervisor.Settings.forked
            settings.timeout = 10
            let x32 = nr & 0x4000_0000 != 0
            let want = x32 ? "\(name) (x32 ABI)" : name
            do {
                let s = try Supervisor(settings)
                try s.awaitLockedDown()
                let r = try s.request(.probe("syscall:\(nr)"))
                _ = s.finish()
                if case .fail(let e) = expected, r.value == String(-Int(e)) { refused += 1; continue }
                failures += 1
                FileIO.out("FAIL \(want) (\(nr)): returned \(r.value ?? "?")\n")
            } catch {
                if case .died(.signaled(let sig), let v) = error, sig == SIGSYS, expected == .kill,
                   v == want || (name.hasPrefix("#") && v != nil) {
                    killed += 1
                } else {
                    failures += 1
                    FileIO.out("FAIL \(want) (\(nr)): \(Supervisor.report(error).message ?? "\(error)")\n")
                }
            }
        }
        FileIO.out("fresh sweep: \(plan.count) numbers: \(skipped) not tried (allowed or kernel-exempt), \(killed) killed the worker with the right name reported, \(refused) refused with EPERM, \(failures) failures\n")
        return failures == 0 ? 0 : 1
    }

    /// `jsrun --lockdown-policy`: the worker policy, one rule a line, for people and for
    /// programs (`Tests/LockdownTests/policy-probe.c` installs it on its own): `ACTION NAME
    /// [if CONDITION && ...]  # reason`, conditions `argN OP 0xV` or `argN & 0xM == 0xV`.
    /// The executable region is the one this process reserves (a worker reserves its own,
    /// at an address ASLR picks; only base and size differ).
    static func printPolicy() -> Int32 {
        let region = ExecutableRegion.reserve()
        let policy = SystemCallPolicy.worker(pid: getpid(), executable: region)
        FileIO.out("# Sable worker system-call policy, version \(SystemCallPolicy.version)\n")
        FileIO.out("# pid \(getpid())\n")
        if let region {
            FileIO.out("# executable-region base 0x\(String(region.base, radix: 16)) span 0x\(String(region.span, radix: 16))\n")
        }
        for rule in policy.rules {
            let action: String
            switch rule.action {
            case .allow: action = "allow"
            case .fail(let e): action = e == EPERM ? "EPERM" : "errno \(e)"
            case .kill: action = "kill"
            }
            let cond = rule.conditions.map(\.text).joined(separator: " && ")
            FileIO.out("\(action.padding(6)) \(rule.name.padding(18)) \(cond.isEmpty ? "" : "if " + cond + "  ")# \(rule.reason)\n")
        }
        FileIO.out("kill   *                  # everything else (worker: SIGSYS handler reports the call, then dies)\n")
        return 0
    }
}

extension String {
    func padding(_ width: Int) -> String { count >= width ? self + " " : self + String(repeating: " ", count: width - count) }
}
