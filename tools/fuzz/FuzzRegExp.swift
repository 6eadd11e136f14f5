// libFuzzer harness for the RegExp compiler and matcher (JSRegExp). Built by
// tools/fuzz/run.sh regexp against the JSSyntax and JSRegExp modules.
//
// Input: one byte of flags (i m s u v y d g as bits), then the pattern and the subject
// separated by the first 0 byte (both UTF-8, invalid bytes replaced). The pattern is
// compiled; a syntax error is fine. A compiled program is matched against the subject
// from a few start positions, as UTF-16 and (when it fits) Latin-1; the backtrack limit
// and the backtrack budget (a step budget, as a runtime under one sets) are fine; a crash, trap or timeout is a bug, and so are captures outside the subject.
import JSSyntax
import JSRegExp

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let f = data[0]
    let flags = RegExpFlags(ignoreCase: f & 1 != 0, multiline: f & 2 != 0, dotAll: f & 4 != 0,
                            unicode: f & 8 != 0 && f & 16 == 0, unicodeSets: f & 16 != 0,
                            sticky: f & 32 != 0, hasIndices: f & 64 != 0)
    let rest = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let cut = rest.firstIndex(of: 0) ?? rest.count
    let pattern = Array(String(decoding: rest[..<cut], as: UTF8.self).utf16)
    let subject = cut < rest.count ? String(decoding: rest[(cut + 1)...], as: UTF8.self) : "aaaa-bbbb abab 0123"
    let program: RegExpProgram
    do throws(RegExpSyntaxError) { program = try RegExpProgram.compile(pattern: pattern, flags: flags) } catch { return 0 }
    let units = Array(subject.utf16)
    let scratch = RegExpScratch()
    // 2^19 backtracks per exec (8 execs an input): a pathological pattern stays well under
    // the 10 s timeout under ASan on a loaded machine (2^21 took 3.7 s, and timed out).
    scratch.backtrackBudget = 1 << 19
    func lastCaptures() -> [Int] { Array(UnsafeBufferPointer(start: scratch.captures, count: program.groupCount * 2)) }
    for start in Set([0, 1, units.count / 2, units.count]) where start <= units.count {
        var captures: [Int] = []
        let matched: Bool
        do throws(RegExpMatchError) {
            matched = try units.withUnsafeBufferPointer { (p) throws(RegExpMatchError) -> Bool in try program.exec(p, from: start, scratch: scratch) }
            if matched { captures = lastCaptures() }
        } catch { continue }
        if matched {
            for c in captures where c < -1 || c > units.count { fatalError("capture \(c) outside 0...\(units.count) for /\(String(decoding: pattern, as: UTF16.self))/") }
        }
        if units.allSatisfy({ $0 < 256 }) {
            let latin1 = units.map { UInt8($0) }
            var captures1: [Int] = []
            let matched1: Bool
            do throws(RegExpMatchError) {
                matched1 = try latin1.withUnsafeBufferPointer { (p) throws(RegExpMatchError) -> Bool in try program.exec(latin1: p, from: start, scratch: scratch) }
                if matched1 { captures1 = lastCaptures() }
            } catch { continue }
            if matched1 != matched || (matched && captures1 != captures) {
                fatalError("Latin-1 and UTF-16 matching differ for /\(String(decoding: pattern, as: UTF16.self))/ at \(start): \(captures1) vs \(captures)")
            }
        }
    }
    return 0
}
