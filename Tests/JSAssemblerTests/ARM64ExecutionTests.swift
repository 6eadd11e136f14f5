import Testing
#if canImport(Glibc)
import Glibc
#endif
import JSAssembler

/// A new temporary file: its descriptor and path.
private func temporaryFile(_ prefix: String) -> (fd: Int32, path: String) {
    var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { b in
        let fd = mkstemp(b.baseAddress!)
        return (fd, String(decoding: b.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}

/// Runs `argv` with `input` on stdin; returns the exit status and stdout + stderr.
private func run(_ argv: [String], input: String = "") -> (status: Int32, output: String) {
    let (fd, inputPath) = temporaryFile("sable-a64-in")
    defer { unlink(inputPath) }
    _ = input.withCString { write(fd, $0, strlen($0)) }
    close(fd)
    var fds: [Int32] = [0, 0]
    pipe(&fds)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, inputPath, O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
    posix_spawn_file_actions_adddup2(&actions, fds[1], 2)
    let args: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
    defer { for a in args { free(a) } }
    var pid: pid_t = 0
    let rc = posix_spawnp(&pid, argv[0], &actions, nil, args, environ)
    close(fds[1])
    guard rc == 0 else { close(fds[0]); return (127, "cannot start \(argv[0])") }
    var out: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = read(fds[0], &buf, buf.count)
        if n <= 0 { break }
        out += buf[0..<n]
    }
    close(fds[0])
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    return ((status >> 8) & 0xFF, String(decoding: out, as: UTF8.self))
}

/// The loader (Tests/JSAssemblerTests/ARM64Loader/loader.c), built once with the aarch64
/// cross compiler; nil when the cross tools are missing (tools/deps.sh installs them).
private let loader: String? = {
    let dir = String(#filePath).split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    let out = "/tmp/sable-arm64-loader-\(getpid())"
    let r = run(["aarch64-linux-gnu-gcc", "-O1", "-static", "-o", out, dir + "/ARM64Loader/loader.c"])
    return r.status == 0 ? out : nil
}()

private typealias A = MacroAssemblerARM64

/// Runs the code `m` assembled under qemu-aarch64, one call per input line.
private func execute(_ m: A, _ signature: String, _ lines: [String]) throws -> [String] {
    let loaderPath = try #require(loader, "aarch64-linux-gnu-gcc and qemu-aarch64 are needed (tools/deps.sh)")
    let (fd, codePath) = temporaryFile("sable-a64-code")
    defer { unlink(codePath) }
    _ = write(fd, m.buffer.bytes, m.buffer.count)
    close(fd)
    let r = run(["qemu-aarch64", loaderPath, codePath, signature], input: lines.joined(separator: "\n") + "\n")
    try #require(r.status == 0, "loader: \(r.output)")
    return r.output.split(separator: "\n").map(String.init)
}

@Suite struct ARM64ExecutionTests {
    @Test func int32AddWithOverflowCheck() throws {
        let m = A()
        let overflow = m.branchAdd32(.overflow, .x1, .x0)
        m.ret()
        m.linkHere(overflow)
        m.move(imm: UInt64(bitPattern: -1), .x0)
        m.ret()
        let out = try execute(m, "ii>i", ["2 3", "\(UInt32(bitPattern: -7)) 3", "\(Int32.max) 1", "\(UInt32(bitPattern: Int32.min)) \(UInt32.max)"])
        #expect(out == ["5", "\(UInt32(bitPattern: -4))", "-1", "-1"])
    }

    /// `a % b` as the JIT's `mod` makes it (signed 32-bit, the sign of the dividend).
    @Test func remainder32() throws {
        let m = A()
        m.remainder32(.x1, .x0)
        m.ret()
        let out = try execute(m, "ii>i", ["17 5", "5 17", "\(UInt32(bitPattern: -17)) 5", "\(Int32.max) 10", "0 3"])
        #expect(out == ["2", "5", "\(UInt32(bitPattern: -2))", "7", "0"])
    }

    /// `call(to:)` (BL to a bound label), recursive: sum of 1...n, the link register
    /// saved around each nested call.
    @Test func recursiveCallToLabel() throws {
        let m = A()
        let over = m.jump()
        let sum = m.label()
        let done = m.branch64(.lessThanOrEqual, .x0, imm: 0)
        m.push(.x30)
        m.push(.x0)
        m.sub64(imm: 1, .x0)
        m.call(to: sum)
        m.pop(.x1)
        m.pop(.x30)
        m.add64(.x1, .x0)
        m.ret()
        m.linkHere(done)
        m.move(imm: 0, .x0)
        m.ret()
        m.linkHere(over)
        m.push(.x30)
        m.call(to: sum)
        m.pop(.x30)
        m.ret()
        #expect(try execute(m, "i>i", ["0", "10", "1000"]) == ["0", "55", "500500"])
    }

    @Test func loopWithBackEdgeAndLargeConstants() throws {
        let m = A()
        m.move(imm: 0, .x2)
        m.move(imm: 0, .x3)
        let skip = m.branch64(.lessThanOrEqual, .x0, imm: 0)
        let top = m.label()
        m.add64(.x0, .x2)
        m.sub64(imm: 1, .x0)
        m.branch32(.notEqual, .x0, .x3, to: top)
        m.linkHere(skip)
        m.move(.x2, .x0)
        m.move(imm: 0x1234_5678_9ABC_DEF0, .x4)
        m.xor64(.x4, .x0)
        m.xor64(.x4, .x0)       // twice: the sum again, through a 4-instruction constant
        m.add64(imm: 100_000, .x0)
        m.sub64(imm: 100_000, .x0)
        m.ret()
        #expect(try execute(m, "i>i", ["0", "10", "100000"]) == ["0", "55", "5000050000"])
    }

    @Test func relationalConditions() throws {
        let values: [Int64] = [0, 1, -1, Int64(Int32.max), Int64(Int32.min), Int64.max, Int64.min, 1 << 40]
        let pairs = values.flatMap { a in values.map { (a, $0) } }
        for cond in RelationalCondition.allCases {
            for wide in [false, true] {
                let m = A()
                if wide { m.compare64(cond, .x0, .x1, .x0) } else { m.compare32(cond, .x0, .x1, .x0) }
                m.ret()
                let out = try execute(m, "ii>i", pairs.map { "\($0.0) \($0.1)" })
                let want = pairs.map { a, b -> String in
                    let holds = wide ? X86_64ExecutionTests.holds(cond, a, b)
                        : X86_64ExecutionTests.holds(cond, Int64(Int32(truncatingIfNeeded: a)), Int64(Int32(truncatingIfNeeded: b)), unsigned32: true)
                    return holds ? "1" : "0"
                }
                #expect(out == want, "\(cond) \(wide ? 64 : 32)")
            }
        }
    }

    @Test func doubleConditions() throws {
        let values = ["0", "-0", "1", "-1", "0.5", "inf", "-inf", "nan"]
        let numbers: [Double] = [0, -0.0, 1, -1, 0.5, .infinity, -.infinity, .nan]
        for cond in DoubleCondition.allCases {
            let m = A()
            m.move(imm: 1, .x0)
            let taken = m.branchDouble(cond, .d0, .d1)
            m.move(imm: 0, .x0)
            for j in taken { m.linkHere(j) }
            m.ret()
            var lines: [String] = [], want: [String] = []
            for (i, a) in numbers.enumerated() { for (k, b) in numbers.enumerated() {
                lines.append("\(values[i]) \(values[k])")
                let holds = X86_64ExecutionTests.holds(cond, a, b)
                want.append(holds ? "1" : "0")
            } }
            #expect(try execute(m, "dd>i", lines) == want, "\(cond)")
        }
    }

    @Test func doubleArithmeticAndConversions() throws {
        let m = A()
        m.moveDouble(.d0, .d3)
        m.mulDouble(.d1, .d3)
        m.addDouble(.d2, .d3)
        m.divDouble(.d0, .d3)
        m.sqrtDouble(.d3, .d0)
        m.ret()
        #expect(try execute(m, "ddd>d", ["2 7 4"]) == ["3"])

        let c = A()
        let failures = c.branchConvertDoubleToInt32(.d0, .x0, scratch: .d1)
        c.ret()
        for j in failures { c.linkHere(j) }
        c.move(imm: UInt64(bitPattern: -1), .x0)
        c.ret()
        #expect(try execute(c, "d>i", ["0", "-0", "42", "-7", "1.5", "nan", "2147483648", "2147483647", "-2147483648"])
                == ["0", "-1", "42", "\(UInt32(bitPattern: -7))", "-1", "-1", "-1", "2147483647", "\(UInt32(bitPattern: Int32.min))"])

        let i = A()
        i.convertInt32ToDouble(.x0, .d0)
        i.move64ToDouble(.x1, .d1)
        i.addDouble(.d1, .d0)
        i.ret()
        #expect(try execute(i, "iu>d", ["\(UInt32(bitPattern: -3)) \((0.25).bitPattern)"]) == ["-2.75"])
    }

    @Test func memoryPushPopAndShifts() throws {
        let m = A()
        m.push(.x19)
        m.load64(.x0, index: .x1, 0, .x19)
        m.move(.x19, .x2)
        m.add64(.x2, .x2)
        m.add64(imm: 1, .x2)
        m.store64(.x2, .x0, index: .x1, 0)
        m.store64(imm: -5, .x0, 16)
        m.load64(.x0, 8, .x3)
        m.move(.x19, .x0)
        m.pop(.x19)
        m.ret()
        #expect(try execute(m, "mem", ["1", "0"]) == ["20 10 41 -5", "10 21 20 -5"])

        let s = A()
        s.shiftLeft32(.x1, .x0)
        s.ret()
        #expect(try execute(s, "ii>i", ["3 4", "1 33"]) == ["48", "2"])
    }
}
