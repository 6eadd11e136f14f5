// jsrun-ffi-worker: jsrun's worker when `jsrun --ffi=LIB[,LIB...]` is given, started by the
// supervisor as `jsrun-ffi-worker --lockdown-worker PID --ffi=LIBS`. It is jsrun's worker
// (WorkerMain) plus the FFI: before lockdown it loads LIBS with dlopen and defines
// `Sable`; after lockdown callback trampolines go into the JIT's code pool. Dynamically
// linked, unlike the static-PIE jsrun, because dlopen needs the dynamic loader.

#if canImport(Glibc)
import Glibc
#endif
import JSAssembler
import JSFFI
import JSJIT
import JSRunCLI
import JSRuntime

/// Trampolines in the JIT's executable memory (the worker's executable region).
final class CodePoolTrampolines: TrampolineMemory {
    let memory: ExecutableMemory
    init(_ memory: ExecutableMemory) { self.memory = memory }

    func install(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawPointer? {
        let buffer = AssemblerBuffer(capacity: bytes.count)
        for b in bytes { buffer.emit8(b) }
        return (try? memory.install([buffer]))?.first?.pointer
    }
}

func fail(_ message: String) -> Int32 {
    _ = message.withCString { write(2, $0, strlen($0)) }
    return 2
}

let arguments = CommandLine.arguments
var libraries: [String] = []
for a in arguments.dropFirst(3) where a.hasPrefix("--ffi=") {
    libraries += a.dropFirst("--ffi=".count).split(separator: ",").map(String.init)
}
nonisolated(unsafe) var ffi: FFIRuntime?

WorkerExtensions.beforeLockdown = { rt in
    let f: FFIRuntime
    do throws(JSException) {
        f = try FFIRuntime(rt)
        try f.installGlobal()
    } catch {
        return fail("jsrun: --ffi: cannot define Sable\n")
    }
    do {
        try f.load(libraries: libraries)
    } catch {
        return fail("jsrun: --ffi: \(error)\n")
    }
    ffi = f
    return nil
}
WorkerExtensions.afterLockdown = { _, memory in
    if let memory { ffi?.trampolines = CodePoolTrampolines(memory) }
}

if let status = WorkerMain.runIfRequested(arguments) { exit(status) }
exit(fail("jsrun-ffi-worker: started by jsrun --ffi=LIB[,LIB...] only (--lockdown-worker PID --ffi=LIBS)\n"))
