// Worker mode: `test262 --worker ROOT MAX_HEAP_BYTES MAX_MEMORY_BYTES`, started by the
// supervisor with requests on stdin and responses on stdout.
//
// Protocol, one line each way per test:
//   request:  <path relative to ROOT/test>\n
//   response: <verdict>\t<milliseconds>\t<process CPU milliseconds so far>\t<reason>\n
// The worker exits when stdin closes. Anything else that writes to stdout (a stray
// `print` in the runtime) is redirected to stderr, which the supervisor keeps in a log.

import Foundation
import Test262Support
import JSRuntime
import JSJIT
import Lockdown

func workerMain(_ args: [String]) -> Never {
    guard args.count >= 3, let maxHeap = Int(args[1]), let maxMemory = Int(args[2]) else {
        fail("usage: test262 --worker ROOT MAX_HEAP_BYTES MAX_MEMORY_BYTES [JIT_MODE]")
    }
    let jitMode = args.count > 3 ? JITMode(rawValue: args[3]) ?? .off : .off
    let root = args[0]
    // Runaway allocation outside the JS heap (Swift arrays, malloc) ends in a failed
    // allocation in this process, not in the machine running out of memory.
    if maxMemory > 0 {
        var limit = rlimit(rlim_cur: rlim_t(maxMemory), rlim_max: rlim_t(maxMemory))
        setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit)
    }
    // Every test makes a runtime with a multi-megabyte register file and frame stack:
    // serve them from the malloc heap (reused) rather than fresh mmaps (page faults).
    _ = mallopt(-3 /* M_MMAP_THRESHOLD */, 32 << 20)
    _ = mallopt(-1 /* M_TRIM_THRESHOLD */, 256 << 20)
    let responses = dup(1)
    dup2(2, 1)
    if responses < 0 { fail("worker: dup failed") }

    // Threads for `$262.agent` (Agents.swift), started now: the locked-down policy has no clone.
    AgentThreadPool.shared = AgentThreadPool(size: 8, stackSize: 16 << 20)

    // Deeply nested tests must hit the parser's and the interpreter's limits, not the
    // native stack's: run on a thread with a large stack. The runtime is created on it
    // (the collector scans the stack of the thread that made the heap).
    let thread = Thread {
        let executor = TestExecutor(root: root, maxHeapBytes: maxHeap)
        if jitMode != .off {
            // The JIT runs only locked down: the conformance policy (the script worker's,
            // plus reading files) on every thread, the JIT over the executable pool.
            let jit = lockDownForJIT(outputs: [responses, 2])
            executor.configureRuntime = { rt in rt.setJIT(jit, mode: jitMode) }
        }
        var reader = LineReader(fd: 0)
        while let rel = reader.next() {
            let t0 = monotonicSeconds()
            let (verdict, reason) = executor.run(rel)
            let ms = Int((monotonicSeconds() - t0) * 1000)
            let cpu = Int(cpuSeconds() * 1000)
            writeAll(responses, "\(verdict.rawValue)\t\(ms)\t\(cpu)\t\(oneLine(reason))\n")
        }
        exit(0)
    }
    thread.stackSize = 512 << 20
    thread.start()
    while true { pause() }
}

/// Reserves the executable region, locks the process down with the conformance policy
/// and returns the JIT over the region's pool (exits when any step fails: a run that was
/// asked for the JIT must not silently interpret).
func lockDownForJIT(outputs: [Int32]) -> BaselineJIT {
    guard let region = ExecutableRegion.reserve() else { fail("worker: cannot reserve the executable region") }
    let policy = SystemCallPolicy.conformanceWorker(pid: getpid(), executable: region, outputs: outputs)
    do {
        try Lockdown.install(policy, mode: .reportAndKill, reportFD: 2, allThreads: true)
    } catch {
        fail("worker: lockdown failed: \(error)")
    }
    let (jit, whyNot) = BaselineJIT.forLockedProcess(pool: region.pool, capacity: Int(region.span))
    guard let jit else { fail("worker: no JIT: \(whyNot)") }
    return jit
}

/// glibc's `mallopt` (declared in malloc.h, which the Glibc module does not export).
@_silgen_name("mallopt")
func mallopt(_ parameter: Int32, _ value: Int32) -> Int32

/// Reads lines from a file descriptor (without the newline). Nil at end of input.
struct LineReader {
    let fd: Int32
    var buffer: [UInt8] = []
    var start = 0

    init(fd: Int32) { self.fd = fd }

    mutating func next() -> String? {
        while true {
            if let nl = buffer[start...].firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[start..<nl], as: UTF8.self)
                start = nl + 1
                if start == buffer.count { buffer.removeAll(keepingCapacity: true); start = 0 }
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, 4096) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return nil }
            buffer += chunk[0..<n]
        }
    }
}

/// Writes all of `s`; false if the descriptor is gone.
@discardableResult
func writeAll(_ fd: Int32, _ s: String) -> Bool {
    var bytes = Array(s.utf8)
    var off = 0
    while off < bytes.count {
        let n = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress! + off, $0.count - off) }
        if n < 0 { if errno == EINTR { continue }; return false }
        off += n
    }
    return true
}

func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}
