import Testing
#if canImport(Glibc)
import Glibc
#endif
import Lockdown

/// Runs `argv[0]` (an absolute path) with stdout and stderr captured; returns the exit
/// status (128 + signal when killed) and the output.
private func spawnCapturing(_ argv: [String], stdoutFile: String? = nil) -> (status: Int32, output: String) {
    var fds: [Int32] = [0, 0]
    pipe(&fds)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let stdoutFile {
        posix_spawn_file_actions_addopen(&actions, 1, stdoutFile, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    } else {
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
    }
    posix_spawn_file_actions_adddup2(&actions, fds[1], 2)
    let args: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
    defer { for p in args { free(p) } }
    var pid: pid_t = 0
    let rc = posix_spawnp(&pid, argv[0], &actions, nil, args, environ)
    close(fds[1])
    guard rc == 0 else { close(fds[0]); return (127, "cannot start \(argv[0])") }
    var out: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = read(fds[0], &buf, buf.count)
        if n <= 0 { break }
        out += buf[0..<n]
    }
    close(fds[0])
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    return (code, String(decoding: out, as: UTF8.self))
}

@Suite struct PolicyProbeTests {
    /// A C program installs the policy `jsrun --lockdown-policy` prints, on its own, and
    /// tries the escapes (dual mapping, executable memory outside the JIT pool, mremap
    /// aliases, shared futexes, ...) in fresh children: each must die by SIGSYS, the
    /// JIT's own W^X flips must work, and the two memory escapes must work without it.
    @Test func printedPolicyStopsEscapesInAnotherProgram() throws {
        let dir = String(#filePath).split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let source = dir + "/PolicyProbe/policy-probe.c"
        var template = Array("/tmp/sable-policy-probe-XXXXXX".utf8CString)
        let tmp = try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) })
        defer { _ = spawnCapturing(["rm", "-rf", tmp]) }
        let policy = tmp + "/policy.txt", binary = tmp + "/policy-probe"
        let printed = spawnCapturing([jsrunPath, "--lockdown-policy"], stdoutFile: policy)
        #expect(printed.status == 0, "\(printed.output)")
        let cc = spawnCapturing(["cc", "-O1", "-Wall", "-Werror", "-o", binary, source, "-lseccomp"])
        try #require(cc.status == 0, "cc: \(cc.output)")
        let run = spawnCapturing([binary, policy])
        #expect(run.status == 0 && run.output.contains("policy-probe: all passed"), "\(run.output)")
        #expect(run.output.contains("dual-mapping           (escape) killed by signal \(SIGSYS)"), "\(run.output)")
    }

    /// The policy model (`decision`, which the sweep checks the kernel against) on the
    /// argument tests the worker policy uses.
    @Test func modelOfTheMemoryRules() throws {
        let region = ExecutableRegion(base: 0x7f00_0000_0000, span: 64 << 20)
        let policy = SystemCallPolicy.worker(pid: 1234, executable: region)
        let rw = UInt64(PROT_READ | PROT_WRITE), rx = UInt64(PROT_READ | PROT_EXEC)
        let privateAnon = UInt64(MAP_PRIVATE | MAP_ANONYMOUS)
        #expect(policy.decision(for: "mmap", arguments: [0, 4096, rw, privateAnon, ~0, 0]) == .allow)
        #expect(policy.decision(for: "mmap", arguments: [0, 4096, rw, UInt64(MAP_SHARED | MAP_ANONYMOUS), ~0, 0]) == .kill)
        #expect(policy.decision(for: "mmap", arguments: [0, 4096, rw, 3 | UInt64(MAP_ANONYMOUS), ~0, 0]) == .kill)
        #expect(policy.decision(for: "mmap", arguments: [0, 4096, rw, UInt64(MAP_PRIVATE), 1, 0]) == .kill)
        #expect(policy.decision(for: "mmap", arguments: [0, 4096, rx, privateAnon, ~0, 0]) == .kill)
        // RX only inside the pool, with a length that cannot leave the reservation.
        #expect(policy.decision(for: "mprotect", arguments: [region.base + 4096, 8192, rx]) == .allow)
        #expect(policy.decision(for: "mprotect", arguments: [region.base + region.span - 4096, region.span, rx]) == .kill)
        #expect(policy.decision(for: "mprotect", arguments: [region.base + region.span, 4096, rx]) == .kill)
        #expect(policy.decision(for: "mprotect", arguments: [region.base - 4096, 4096, rx]) == .kill)
        #expect(policy.decision(for: "mprotect", arguments: [region.base, 4096, rx | rw]) == .kill)
        #expect(policy.decision(for: "mprotect", arguments: [0x1000, 4096, rw]) == .allow)
        // mremap: no alias, no fixed address, nothing from inside the reservation.
        #expect(policy.decision(for: "mremap", arguments: [0x1000, 4096, 8192, 1, 0]) == .allow)
        #expect(policy.decision(for: "mremap", arguments: [0x1000, 0, 8192, 1, 0]) == .kill)
        #expect(policy.decision(for: "mremap", arguments: [0x1000, 4096, 8192, 3, 0x9000]) == .kill)
        #expect(policy.decision(for: "mremap", arguments: [region.base + 4096, 4096, 8192, 1, 0]) == .kill)
        #expect(policy.decision(for: "mremap", arguments: [region.end, 4096, 8192, 1, 0]) == .allow)
        // futex: private wait/wake only; madvise: the allocator's advice only.
        #expect(policy.decision(for: "futex", arguments: [0x1000, 129, 1]) == .allow)
        #expect(policy.decision(for: "futex", arguments: [0x1000, 128 | 256 | 9, 1]) == .allow)
        #expect(policy.decision(for: "futex", arguments: [0x1000, 1, 1]) == .kill)
        #expect(policy.decision(for: "futex", arguments: [0x1000, 128 | 4, 1]) == .kill)
        #expect(policy.decision(for: "madvise", arguments: [0x1000, 4096, 4]) == .allow)
        #expect(policy.decision(for: "madvise", arguments: [0x1000, 4096, 10]) == .kill)
        // Descriptor 0 is /dev/null in a worker: no rule reads it.
        #expect(policy.decision(for: "read", arguments: [0, 0x1000, 1]) == .kill)
        // Without a region nothing may become executable.
        let noJIT = SystemCallPolicy.worker(pid: 1234)
        #expect(noJIT.decision(for: "mprotect", arguments: [region.base, 4096, rx]) == .kill)
    }
}
