import Testing
#if canImport(Glibc)
import Glibc
#endif
import JSAssembler

private let testsDirectory: String = {
    var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast()
    return parts.joined(separator: "/")
}()

/// `Golden/x86_64.txt`: `text<TAB>hex bytes`, one instruction a line, bytes from llvm-mc.
func loadGolden(_ name: String) -> [String: String] {
    guard let f = fopen(testsDirectory + "/Golden/" + name, "r") else { return [:] }
    defer { fclose(f) }
    var table: [String: String] = [:]
    var line: UnsafeMutablePointer<CChar>? = nil
    var capacity = 0
    while getline(&line, &capacity, f) > 0 {
        let text = String(cString: line!).split(separator: "\n").first.map(String.init) ?? ""
        let parts = text.split(separator: "\t", maxSplits: 1)
        if parts.count == 2 { table[String(parts[0])] = String(parts[1]) }
    }
    free(line)
    return table
}

func hex(_ bytes: [UInt8]) -> String {
    bytes.map { b in (b < 16 ? "0" : "") + String(b, radix: 16) }.joined(separator: " ")
}

func encode(_ c: EncodingCase) -> [UInt8] {
    let a = X86_64Assembler()
    c.emit(a)
    return a.buffer.array
}

@Suite struct X86_64EncodingTests {
    /// Every form the JIT uses, byte for byte against llvm-mc's encoding (the committed
    /// golden file; `tools/asm-golden.sh` regenerates it from the cases).
    @Test(arguments: ["x86_64", "arm64"]) func everyFormMatchesTheGoldenFile(_ arch: String) throws {
        let cases = arch == "x86_64" ? x86EncodingCases() : arm64EncodingCases()
        // tools/asm-golden.sh: write the texts for llvm-mc.
        if let dir = getenv("SABLE_ASM_CASES_DIR").map({ String(cString: $0) }), let f = fopen(dir + "/" + arch + ".s", "w") {
            for c in cases { fputs(c.text + "\n", f) }
            fclose(f)
        }
        let golden = loadGolden(arch + ".txt")
        try #require(!golden.isEmpty, "Golden/\(arch).txt is missing: run tools/asm-golden.sh")
        var mismatches: [String] = []
        var missing: [String] = []
        for c in cases {
            guard let want = golden[c.text] else { missing.append(c.text); continue }
            let got = hex(encode(c))
            if got != want { mismatches.append("\(c.text): ours \(got), llvm-mc \(want)") }
        }
        #expect(missing.isEmpty, "not in the golden file (run tools/asm-golden.sh): \(missing.prefix(10))")
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(cases.count) differ: \(mismatches.prefix(20).joined(separator: "\n"))")
        #expect(cases.count > 1000)
    }

    /// Displacements of jumps and labels: short and near forms, forward and backward.
    @Test func jumpsAndLabels() {
        let m = MacroAssemblerX86_64()
        let top = m.label()
        m.asm.nop()
        m.jump(to: top)                     // EB FD: back 3 bytes from the end
        #expect(hex(m.buffer.array) == "90 eb fd")
        let forward = m.jump()              // E9 rel32
        for _ in 0..<200 { m.asm.nop() }
        m.linkHere(forward)
        #expect(m.buffer.array[3] == 0xE9 && m.buffer.read32(at: 4) == 200)
        m.jump(to: top)                     // too far for rel8: E9 with a negative rel32
        let end = m.buffer.count
        #expect(m.buffer.array[end - 5] == 0xE9)
        #expect(Int32(bitPattern: m.buffer.read32(at: end - 4)) == Int32(-end))
        let j = m.branch32(.lessThan, .rax, .rcx)  // 39 C8, 0F 8C rel32
        m.linkHere(j)
        #expect(hex(Array(m.buffer.array.suffix(8))) == "39 c8 0f 8c 00 00 00 00")
        m.call(to: top)                     // E8 rel32 back to the start
        let callEnd = m.buffer.count
        #expect(m.buffer.array[callEnd - 5] == 0xE8)
        #expect(Int32(bitPattern: m.buffer.read32(at: callEnd - 4)) == Int32(-callEnd))
    }
}
