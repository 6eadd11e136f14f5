import Testing
#if canImport(Glibc)
import Glibc
#endif
import JSSyntax
import JSBytecode
import JSBytecompiler

private let repositoryRoot: String = {
    var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
}()

private func readText(_ path: String) -> String? {
    guard let f = fopen(path, "r") else { return nil }
    defer { fclose(f) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&buffer, 1, buffer.count, f)
        if n <= 0 { break }
        bytes += buffer[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}

private func compile(_ text: String, name: String = "test.js") throws -> CodeBlock {
    let program = try parseScript(SourceFile(name: name, text: text), options: ParseOptions(strict: false))
    return try Compiler.compileScript(program)
}

/// Programs that reach most of the compiler: classes, generators, async, destructuring,
/// spread, try/finally, with, eval, labels, private names, getters and setters.
private let snippets: [String] = [
    "var a = 1; let b = 2; const c = a + b * 3 - (a / b) % 2 ** 3; a <<= 2; b >>>= 1; c",
    "function f(x, ...rest) { return arguments.length + rest.length + x } f(1, 2, 3)",
    "class A { #p = 1; static s = 2; get p() { return this.#p } set p(v) { this.#p = v } static { this.t = 3 } m() { return #p in this } } class B extends A { constructor() { super(); super.m() } }",
    "function* g() { const x = yield 1; yield* [x, 2]; return 3 } for (const v of g()) {}",
    "async function h() { for await (const x of [1, 2]) { await x } try { await null } finally { } } h()",
    "var { a, b: [c, , ...d] = [], ...e } = { a: 1 }; [a, c] = [c, a]; ({ x: a = 5 } = {})",
    "label: for (var i = 0; i < 3; i++) { for (var j in { a: 1 }) { if (j) continue label; else break label } } switch (i) { case 1: i++; default: i-- }",
    "try { throw new Error('x') } catch ({ message }) { message } finally { void 0 }",
    "with ({ x: 1 }) { x + 1 } eval('var q = 2'); typeof undeclared; delete globalThis.q",
    "const o = { a, [1 + 1]: 2, m() { return super.toString() }, get g() { return 1 }, ...{ z: 3 } }; o?.a?.[0] ?? o.g",
    "const f2 = (a, b = a) => ({ a, b }); function nt() { return new.target } f2(...[1, 2]); new Date(...[0]); `t${f2}x`",
    "let n = 0; while (n < 10) n++; do { n-- } while (n > 0); n = n > 5 ? n : -n; !n && n || n",
    "var r = /a(b)c/gi; r.exec('abc'); 1e3; 0x10; .5; 'str'.length; typeof r === 'object'",
]

@Suite struct BytecodeTests {
    @Test func opcodeTableIsConsistent() {
        for op in Opcode.allCases {
            #expect(op.length == op.operands.count + 1, "\(op)")
            #expect(op.operandNames.count == op.operands.count, "\(op)")
            #expect(Set(op.operandNames).count == op.operandNames.count, "\(op): duplicate operand names")
            #expect(op.operands.filter { $0 == .jump }.count <= 1, "\(op): at most one jump operand")
        }
        // A returning frame resumes its caller at pc + callInstructionLength.
        for op in [Opcode.call, .callMethod, .callEval, .construct] {
            #expect(op.length == Opcode.callInstructionLength, "\(op)")
        }
    }

    @Test(arguments: snippets) func snippetsCompileToVerifiedBytecode(_ text: String) throws {
        let code = try compile(text)
        #expect(BytecodeVerifier.verify(code) == [])
    }

    /// Every benchmark script of ../shared/bench and the bundled examples compile to
    /// bytecode the verifier accepts.
    @Test func realProgramsCompileToVerifiedBytecode() throws {
        var files: [String] = []
        for dir in ["../shared/bench/awfy", "../shared/bench/octane", "../shared/bench/micro", "examples"] {
            let path = repositoryRoot + "/" + dir
            guard let d = opendir(path) else { continue }
            while let e = readdir(d) {
                let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name.hasSuffix(".js") { files.append(path + "/" + name) }
            }
            closedir(d)
        }
        // The bundled examples always; the bench scripts when ../shared is next to the checkout.
        #expect(files.contains { $0.hasSuffix("/examples/hello.js") })
        for file in files {
            guard let text = readText(file) else { continue }
            let code = try compile(text, name: file)
            let problems = BytecodeVerifier.verify(code)
            #expect(problems.isEmpty, "\(file): \(problems.prefix(5))")
        }
    }

    /// The disassembly of small functions, pinned: the compiler's output for them changes
    /// only on purpose (fused compare-and-jump, the inverted loop, registers read in place).
    @Test func disassemblyOfSmallFunctions() throws {
        let code = try compile("function add(a, b) { return a + b }\nfunction loop(n) { let s = 0; for (let i = 0; i < n; i++) s += i; return s }")
        let functions = code.constants.compactMap { c -> CodeBlock? in if case .function(let f) = c { return f } else { return nil } }
        #expect(functions.map { Disassembler.disassemble($0) } == [
            """
            function add: 3 registers, 2 parameters
            0000  add r2, r0, r1
            0004  ret r2
            0006  retUndefined

            """,
            """
            function loop: 4 registers, 1 parameters
            0000  loadInt r1, 0
            0003  loadInt r2, 0
            0006  jumpIfNotLess r2, r0, -> 0021
            0010  add r1, r1, r2
            0014  inc r2, r2
            0017  jumpIfLess r2, r0, -> 0010
            0021  ret r1
            0023  retUndefined

            """,
        ])
    }

    @Test func verifierFindsBrokenCode() throws {
        let code = try compile("var x = 1; if (x) x = 2")
        code.instructions.append(Int32(Opcode.jmp.rawValue))
        code.instructions.append(1)   // into the middle of itself
        #expect(!BytecodeVerifier.verify(code).isEmpty)
        code.instructions.append(255)
        #expect(BytecodeVerifier.verify(code).contains { $0.contains("bad opcode") })
    }
}
