// The FFI keeps the sandbox whole: no W+X mapping while callbacks are live, and the
// worker's seccomp filter is the same with and without --ffi.
import Testing
#if canImport(Glibc)
import Glibc
#endif
import EngineIPC
import JSRunCLI
import Lockdown

@Suite struct FFISecurityTests {
    /// The worker's mappings: (start, end, permissions) from /proc/PID/maps.
    static func mappings(_ pid: Int32) -> [(start: UInt64, end: UInt64, perms: String)] {
        guard let f = fopen("/proc/\(pid)/maps", "r") else { return [] }
        defer { fclose(f) }
        var result: [(UInt64, UInt64, String)] = []
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), f) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let fields = text.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2 else { continue }
            let range = fields[0].split(separator: "-")
            guard range.count == 2, let a = UInt64(range[0], radix: 16), let b = UInt64(range[1], radix: 16) else { continue }
            result.append((a, b, String(fields[1])))
        }
        return result
    }

    @Test func noWritableExecutableMappingWhileCallbacksAreLive() throws {
        var options = LockedWorker.Options(executable: ffiWorkerPath)
        options.timeout = 60
        options.ffiLibraries = ["libc.so.6"]
        let w = try LockedWorker(options: options)
        defer { w.close() }
        // 300 callbacks (their trampolines span several pages), one of them used by qsort.
        let setup = try w.evaluate("""
            const c = Sable.dlopen("libc.so.6", { qsort: { parameters: ["buffer", "usize", "usize", "function"], result: "void" } });
            globalThis.callbacks = [];
            for (let i = 0; i < 300; i++)
                callbacks.push(new Sable.Callback({ parameters: ["pointer", "pointer"], result: "i32" }, (a, b) => a.readI32() - b.readI32()));
            const a = new Int32Array([3, 1, 2]);
            c.symbols.qsort(a, 3, 4, callbacks[299]);
            a.join() + " " + callbacks[0].pointer.address + " " + callbacks[299].pointer.address
            """)
        // The value comes back inspected: a quoted string.
        let fields = try #require(setup.value, "\(setup.exception ?? "")").filter { $0 != "'" }.split(separator: " ")
        #expect(fields.first == "1,2,3")
        let first = try #require(UInt64(fields[1])), last = try #require(UInt64(fields[2]))
        let maps = Self.mappings(w.pid)
        #expect(!maps.isEmpty)
        // No mapping is ever writable and executable.
        let wx = maps.filter { $0.perms.contains("w") && $0.perms.contains("x") }
        #expect(wx.isEmpty, "W+X mappings: \(wx)")
        // The trampolines are in read-execute pages (the JIT's code pool).
        for address in [first, last] {
            let m = maps.first { $0.start <= address && address < $0.end }
            #expect(m?.perms == "r-xp", "trampoline at 0x\(String(address, radix: 16)): \(String(describing: m))")
        }
        // The callbacks still work after the maps were read, and another foreign call is fine.
        let again = try w.evaluate("const b = new Int32Array([9, 8, 7]); c.symbols.qsort(b, 3, 4, callbacks[0]); b.join()")
        #expect(again.value == "'7,8,9'", "\(again)")
    }

    /// The paths mapped in a process (/proc/PID/maps).
    static func mappedPaths(_ pid: Int32) -> Set<String> {
        guard let f = fopen("/proc/\(pid)/maps", "r") else { return [] }
        defer { fclose(f) }
        var paths = Set<String>()
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), f) != nil {
            let text = String(decoding: line.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let slash = text.firstIndex(of: "/") { paths.insert(String(text[slash...])) }
        }
        return paths
    }

    /// close() really unloads: after the last Sable.dlopen of a library is closed, the locked
    /// worker no longer maps it (dlclose after lockdown only unmaps: munmap is in the policy),
    /// and opening it again is an error, not a forbidden open that would kill the worker.
    @Test func closeUnmapsTheLibrary() throws {
        let lib = try #require(testLibrary)
        var options = LockedWorker.Options(executable: ffiWorkerPath)
        options.timeout = 60
        options.ffiLibraries = [lib]
        let w = try LockedWorker(options: options)
        defer { w.close() }
        let open = try w.evaluate("globalThis.l = Sable.dlopen('\(lib)', { t_i32: { parameters: ['i32'], result: 'i32' } }); l.symbols.t_i32(8)")
        #expect(open.value == "7", "\(open)")
        #expect(Self.mappedPaths(w.pid).contains(lib))
        let closed = try w.evaluate("l.close(); try { Sable.dlopen('\(lib)', {}); 'opened' } catch (e) { e.message }")
        #expect(closed.value?.contains("cannot be loaded again") == true, "\(closed)")
        #expect(!Self.mappedPaths(w.pid).contains(lib), "still mapped after close()")
        // The worker lives on.
        let after = try w.evaluate("1 + 1")
        #expect(after.value == "2", "\(after)")
    }

    /// The filter a worker installs, as it printed it (SABLE_DUMP_SECCOMP_FILTER).
    static func installedFilter(_ args: [String]) throws -> (pid: Int32, region: ExecutableRegion, bpf: [UInt8]) {
        let r = jsrun(args + ["-e", "0"], environment: ["SABLE_DUMP_SECCOMP_FILTER=1"])
        #expect(r.status == 0, "\(r.stderr)")
        let line = try #require(r.stderr.split(separator: "\n").first { $0.hasPrefix("jsrun worker: seccomp filter ") })
        let f = line.split(separator: " ")
        // jsrun worker: seccomp filter pid P region 0xB span 0xS bpf HEX
        let pid = try #require(Int32(f[5])), base = try #require(UInt64(f[7].dropFirst(2), radix: 16))
        let span = try #require(UInt64(f[9].dropFirst(2), radix: 16))
        let hex = Array(f[11].utf8)
        var bpf: [UInt8] = []
        var i = 0
        while i + 1 < hex.count {
            bpf.append(UInt8(String(decoding: hex[i...i + 1], as: UTF8.self), radix: 16)!)
            i += 2
        }
        return (pid, ExecutableRegion(base: base, span: span), bpf)
    }

    /// The policy does not grow with --ffi: the filter the FFI worker installs is, byte for
    /// byte, the one jsrun's own worker installs (each is the worker policy compiled for its
    /// process id and executable region, the only two inputs, which differ per process).
    @Test func theSeccompFilterIsTheSameWithAndWithoutFFI() throws {
        let plain = try Self.installedFilter([])
        let ffi = try Self.installedFilter(["--ffi=libm.so.6,libc.so.6,libz.so.1"])
        #expect(!plain.bpf.isEmpty && plain.bpf.count == ffi.bpf.count)
        let plainPolicy = try Lockdown.compile(SystemCallPolicy.worker(pid: plain.pid, executable: plain.region))
        let ffiPolicy = try Lockdown.compile(SystemCallPolicy.worker(pid: ffi.pid, executable: ffi.region))
        #expect(plain.bpf == plainPolicy)
        #expect(ffi.bpf == ffiPolicy)
        // And the FFI worker's filter rebuilt for the plain worker's pid and region is the
        // plain worker's filter, byte for byte.
        #expect(try Lockdown.compile(SystemCallPolicy.worker(pid: plain.pid, executable: plain.region)) == plain.bpf)
        #expect(plain.region.span == ffi.region.span)
    }
}
