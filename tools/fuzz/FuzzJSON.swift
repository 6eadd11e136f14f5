// libFuzzer harness for JSON.parse (and JSON.stringify of what it returns), through the
// runtime. Built by tools/fuzz/run.sh json against the engine's modules.
//
// The input bytes, as Latin-1 or UTF-16 code units (first byte odd: pairs of bytes),
// become a string literal of \uXXXX escapes, so every input reaches JSON.parse intact.
// What JSON.parse accepts must stringify, and parse back to the same text (the harness
// traps otherwise); what it rejects must be a SyntaxError.
import JSSyntax
import JSRuntime

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let body = UnsafeBufferPointer(start: data + 1, count: size - 1)
    var units: [UInt16] = []
    if data[0] & 1 == 1 {
        var i = 0
        while i + 1 < body.count { units.append(UInt16(body[i]) | UInt16(body[i + 1]) << 8); i += 2 }
    } else {
        units = body.map { UInt16($0) }
    }
    let hex = Array("0123456789abcdef".utf8)
    var literal: [UInt8] = Array("\"".utf8)
    literal.reserveCapacity(units.count * 6 + 2)
    for u in units {
        literal += [UInt8(ascii: "\\"), UInt8(ascii: "u"), hex[Int(u >> 12)], hex[Int(u >> 8 & 15)], hex[Int(u >> 4 & 15)], hex[Int(u & 15)]]
    }
    literal += Array("\"".utf8)
    // A reviver on every other input (selected by the second bit): it rebuilds values.
    let reviver = data[0] & 2 == 2 ? ", function (k, v) { return Array.isArray(v) ? v.slice() : v }" : ""
    let script = "var s = " + String(decoding: literal, as: UTF8.self) + """
        , v;
        try { v = JSON.parse(s\(reviver)) } catch (e) { if (!(e instanceof SyntaxError) && !(e instanceof RangeError)) throw 'INVARIANT: ' + e; v = undefined }
        if (v !== undefined) {
            var t = JSON.stringify(v);
            if (t !== undefined && JSON.stringify(JSON.parse(t)) !== t) throw 'INVARIANT: round trip of ' + t;
        }
        """
    let rt = Runtime()
    do throws(JSException) { try rt.initializeRealm() } catch { fatalError("realm failed to initialize") }
    rt.heap.maxHeapBytes = 64 << 20
    rt.setStepBudget(1_000_000)
    do throws(JSException) {
        _ = try rt.evaluateScript(SourceFile(name: "<json>", text: script))
    } catch {
        let text = (try? rt.describeForError(error.value)) ?? ""
        if text.contains("INVARIANT") { fatalError(text) }
    }
    return 0
}
