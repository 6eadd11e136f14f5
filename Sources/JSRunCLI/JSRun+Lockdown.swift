#if canImport(Glibc)
import Glibc
#endif
import EngineIPC
import Lockdown

extension JSRun {
    /// jsrun's lockdown settings.
    struct LockdownSettings {
        var enabled = true
        var timeout: Double?
        /// Where the worker's imports may be read from (nil: nowhere).
        var moduleHost: ModuleHost?
        /// Run the source as a module (`name` is then its canonical path).
        var isModule = false
        /// `--ffi=LIB[,LIB...]`: the libraries the worker loads before lockdown (empty: no FFI).
        var ffiLibraries: [String] = []

        /// The worker to start: jsrun's own image by fork, or with `--ffi` the dynamically
        /// linked `jsrun-ffi-worker` next to jsrun by posix_spawn (the static-PIE jsrun
        /// cannot dlopen), told the libraries to load.
        func apply(to s: inout Supervisor.Settings) {
            guard !ffiLibraries.isEmpty else { return }
            s.fork = false
            s.executable = JSRun.ffiWorkerPath
            s.extraArguments = ["--ffi=" + ffiLibraries.joined(separator: ",")]
        }
    }

    /// `jsrun-ffi-worker` in jsrun's directory.
    static var ffiWorkerPath: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let exe = n > 0 ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
        let dir = exe.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return (dir.isEmpty ? "." : dir) + "/jsrun-ffi-worker"
    }

    /// Runs a script in a locked worker: the worker starts (and initializes its runtime)
    /// while this process reads the script; the script goes over the socket; the
    /// worker's output goes straight to the inherited stdout/stderr.
    static func runLocked(name: String, args: [String], options: Execute.Options, printResult: Bool, settings: LockdownSettings,
                          source: () throws(FileIO.Failure) -> [UInt8]) -> Int32 {
        var s = Supervisor.Settings.forked
        s.timeout = settings.timeout
        s.handleSignals = true
        s.addressSpaceLimit = Supervisor.addressSpaceLimit(forHeap: UInt64(clamping: options.maxHeapBytes))
        settings.apply(to: &s)
        let supervisor: Supervisor
        do {
            supervisor = try Supervisor(s)
        } catch {
            return finish(error, s)
        }
        let bytes: [UInt8]
        do { bytes = try source() } catch {
            supervisor.worker.terminate()
            FileIO.err("jsrun: cannot read \(error.message)\n")
            return 2
        }
        var request = EvaluateRequest(id: 1, name: name, source: bytes)
        request.printResult = printResult
        request.dumpBytecode = options.dumpBytecode
        request.gcStress = options.gcStress
        request.gcStats = options.gcStats
        request.maxHeapBytes = UInt64(clamping: options.maxHeapBytes)
        request.jitMode = WorkerJIT.wire(options.jitMode)
        request.jitStats = options.jitStats
        request.printCode = options.printCode
        request.scriptArgs = args
        request.isModule = settings.isModule
        do throws(Supervisor.End) {
            // Queued behind `lockdown` on the socket: the worker reads it once locked down,
            // without waiting for this process to see `lockedDown` first (no round trip).
            try supervisor.send(.evaluate(request))
            try supervisor.awaitLockedDown()
            let result = try supervisor.awaitResult(host: settings.moduleHost)
            _ = supervisor.finish()
            if options.gcStats { FileIO.err(peakRSS()) }
            return result.status
        } catch {
            return finish(error, s)
        }
    }

    /// `--stats`: the peak RSS of the worker (reaped by now) and of this process.
    static func peakRSS() -> String {
        var worker = rusage(), me = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &worker)
        getrusage(RUSAGE_SELF.rawValue, &me)
        return "jsrun: stats: peak RSS \(worker.ru_maxrss) KiB worker, \(me.ru_maxrss) KiB jsrun\n"
    }

    static func finish(_ end: Supervisor.End, _ s: Supervisor.Settings) -> Int32 {
        let (message, status) = Supervisor.report(end, addressSpaceLimit: s.addressSpaceLimit)
        if let message { FileIO.err(message + "\n") }
        return status
    }
}
