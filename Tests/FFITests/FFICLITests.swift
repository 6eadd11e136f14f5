// jsrun --ffi end to end: real Debian libraries, the test library's every type, misuse,
// crashes in libraries.
import Testing

@Suite struct FFICLITests {
    static let debian = "--ffi=libm.so.6,libc.so.6,libz.so.1"

    @Test(arguments: ["on", "off", "eager"])
    func debianLibraries(jit: String) {
        let r = jsrun(["--jit=" + jit, Self.debian, fixtures + "debian.js"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "debian: 24 checks passed\n", "\(r.stderr)")
    }

    @Test(arguments: ["on", "off", "eager"])
    func everyTypeOfTheTestLibrary(jit: String) throws {
        let lib = try #require(testLibrary, "cc could not build Fixtures/ffitest.c")
        let r = jsrun(["--jit=" + jit, "--ffi=" + lib, fixtures + "types.js", lib])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "types: 97 checks passed\n", "\(r.stderr)")
    }

    /// Every call through libffi's ffi_call (SABLE_FFI_CALL=libffi): the path of signatures
    /// with more stack arguments than the direct call takes, on every signature of the tests.
    @Test(arguments: ["on", "off"])
    func everyCallThroughFFICall(jit: String) throws {
        let lib = try #require(testLibrary)
        let env = ["SABLE_FFI_CALL=libffi"]
        let types = jsrun(["--jit=" + jit, "--ffi=" + lib, fixtures + "types.js", lib], environment: env)
        #expect(types.status == 0 && types.stdout == "types: 97 checks passed\n", "\(types.stderr)")
        let debian = jsrun(["--jit=" + jit, Self.debian, fixtures + "debian.js"], environment: env)
        #expect(debian.status == 0 && debian.stdout == "debian: 24 checks passed\n", "\(debian.stderr)")
    }

    /// close() unloads the library when its last Sable.dlopen closes (at once, or when the
    /// foreign call running a callback that closed it returns); it cannot be opened again.
    /// `nonblocking` is refused.
    @Test(arguments: ["on", "off", "eager"])
    func closeUnloads(jit: String) throws {
        let lib = try #require(testLibrary)
        let r = jsrun(["--jit=" + jit, "--ffi=" + lib, fixtures + "close.js", lib])
        #expect(r.status == 0 && r.stdout == "close: 7 checks passed\n", "\(r.stderr)")
    }

    @Test func underGCStress() throws {
        let lib = try #require(testLibrary)
        let r = jsrun(["--gc-stress", "--ffi=" + lib, fixtures + "types.js", lib])
        #expect(r.status == 0 && r.stdout == "types: 97 checks passed\n", "\(r.stderr)")
    }

    /// Without --ffi there is no Sable, and jsrun runs its own static worker.
    @Test func noFFIWithoutTheOption() {
        let r = jsrun(["-p", "typeof Sable"])
        #expect(r.status == 0 && r.stdout == "'undefined'\n", "\(r.stderr)")
    }

    @Test func aLibraryNotNamedOnTheCommandLine() {
        let r = jsrun(["--ffi=libm.so.6", "-e", "Sable.dlopen('libz.so.1', { crc32: { parameters: ['u64', 'buffer', 'u32'], result: 'u64' } })"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("Uncaught Error: Sable.dlopen: 'libz.so.1' was not named with --ffi"), "\(r.stderr)")
        // Not by another spelling of a named one either: the name is matched as given.
        let path = jsrun(["--ffi=libm.so.6", "-e", "Sable.dlopen('/lib/x86_64-linux-gnu/libm.so.6', {})"])
        #expect(path.status == 1 && path.stderr.contains("was not named with --ffi"), "\(path.stderr)")
    }

    @Test func optionMisuse() {
        let missing = jsrun(["--ffi=libnosuchlibrary.so.9", "-e", "1"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("jsrun: --ffi: cannot load 'libnosuchlibrary.so.9'"), "\(missing.stderr)")
        let empty = jsrun(["--ffi=libm.so.6,", "-e", "1"])
        #expect(empty.status == 2 && empty.stderr.contains("expected library names"), "\(empty.stderr)")
        let bare = jsrun(["--ffi", "-e", "1"])
        #expect(bare.status == 2 && bare.stderr.contains("--ffi needs libraries"), "\(bare.stderr)")
        let inProcess = jsrun(["--no-lockdown", "--ffi=libm.so.6", "-e", "1"])
        #expect(inProcess.status == 2 && inProcess.stderr.contains("cannot be used with --no-lockdown"), "\(inProcess.stderr)")
    }

    /// A library that crashes ends the worker; the supervisor names the signal.
    @Test func aCrashingLibraryIsAReportedWorkerDeath() throws {
        let lib = try #require(testLibrary)
        let r = jsrun(["--ffi=" + lib, "-e", "Sable.dlopen('\(lib)', { crash: { parameters: [], result: 'i32' } }).symbols.crash()"])
        #expect(r.status == 139)
        #expect(r.stderr.contains("jsrun: worker crashed: SIGSEGV"), "\(r.stderr)")
    }

    /// A library that makes a system call outside the policy (starting a thread: glibc's
    /// pthread_create blocks signals with rt_sigaction/rt_sigprocmask, then clone3) is killed
    /// like any worker that does, and the supervisor names the call.
    @Test func aLibraryOutsideThePolicyIsKilled() throws {
        let lib = try #require(testLibrary)
        let script = """
            const l = Sable.dlopen('\(lib)', { call_from_thread: { parameters: ['function'], result: 'i32' } });
            l.symbols.call_from_thread(new Sable.Callback({ parameters: [], result: 'void' }, () => {}));
            """
        let r = jsrun(["--ffi=" + lib, "-e", script])
        #expect(r.status == 159)
        #expect(r.stderr.contains("jsrun: worker killed: forbidden system call "), "\(r.stderr)")
    }

    /// Modules run in the FFI worker too.
    @Test func modules() {
        let r = jsrun(["--ffi=libm.so.6", "--module", fixtures + "module.mjs"])
        #expect(r.status == 0 && r.stdout == "1024\n", "\(r.stderr)")
    }
}
