// libFuzzer harness for the parser. Compiled into the JSSyntax module itself (no import):
// tools/fuzz/run.sh builds it with
//   swiftc -sanitize=fuzzer,address -parse-as-library -module-name JSSyntax \
//          Sources/JSSyntax/**/*.swift tools/fuzz/FuzzParser.swift
//
// Each input is taken as raw bytes (invalid UTF-8 included) and parsed as a script in
// sloppy and in strict mode. A crash, trap, sanitizer report, timeout or stack overflow
// is a bug; so is a broken invariant below (define FUZZ_NO_INVARIANTS to skip them).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let source = SourceFile(name: "<fuzz>", bytes: Array(UnsafeBufferPointer(start: data, count: size)))
    for strict in [false, true] {
        do throws(ParseError) {
            let program = try parseScript(source, options: ParseOptions(strict: strict))
            #if !FUZZ_NO_INVARIANTS
            if strict && !program.isStrict { fuzzInvariant("strict parse produced a non-strict program") }
            #endif
            _ = program
        } catch {
            #if !FUZZ_NO_INVARIANTS
            checkError(error, source)
            #endif
        }
    }
    return 0
}

#if !FUZZ_NO_INVARIANTS
/// A ParseError points into the source, and its line/column agree with its offset.
func checkError(_ e: ParseError, _ source: SourceFile) {
    guard e.offset >= 0 && e.offset <= source.bytes.count else {
        fuzzInvariant("error offset \(e.offset) outside 0...\(source.bytes.count): \(e)")
    }
    guard e.line >= 1 && e.column >= 1 else { fuzzInvariant("error position below 1:1: \(e)") }
    let (line, column) = source.position(of: e.offset)
    guard line == e.line && column == e.column else {
        fuzzInvariant("error at offset \(e.offset) says \(e.line):\(e.column), the source says \(line):\(column): \(e)")
    }
    guard !e.message.isEmpty else { fuzzInvariant("empty error message: \(e)") }
}

func fuzzInvariant(_ message: String) -> Never {
    fatalError("fuzz invariant: \(message)")
}
#endif
