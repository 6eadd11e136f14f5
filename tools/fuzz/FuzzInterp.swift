// libFuzzer harness for the bytecode compiler plus interpreter: source in, a result or a
// JavaScript error out. Built by tools/fuzz/run.sh interp against the engine's modules
// (JSSyntax, JSBytecode, JSBytecompiler, JSRegExp, JSRuntime).
//
// Each input is a script (raw bytes, invalid UTF-8 included) run in a fresh runtime with
// a step budget (loop back edges: an endless loop ends in a RangeError), a 64 MiB heap
// and its promise jobs drained; the result and any exception are printed to a string (the
// conversions run user code too). Every outcome is fine except a crash, a trap, a
// sanitizer report or a timeout.
import JSSyntax
import JSRuntime

let stepBudget = 200_000

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let source = SourceFile(name: "<fuzz>", bytes: Array(UnsafeBufferPointer(start: data, count: size)))
    runScript(source)
    return 0
}

func runScript(_ source: SourceFile) {
    let rt = Runtime()
    do throws(JSException) { try rt.initializeRealm() } catch { fatalError("realm failed to initialize") }
    rt.heap.maxHeapBytes = 64 << 20
    rt.outputHook = { _ in }
    rt.errorOutputHook = { _ in }
    rt.setStepBudget(stepBudget)
    do throws(JSException) {
        let result = try rt.evaluateScript(source)
        try rt.runJobs()
        _ = try? rt.inspect(result, depth: 0, top: false)
    } catch {
        _ = try? rt.describeForError(error.value)
    }
}
