import Testing
#if canImport(Glibc)
import Glibc
#endif
import JSAssembler
import JSJIT

/// Code that returns `value` (mov eax, imm32; ret), padded to `size` bytes with int3.
private func returning(_ value: Int32, size: Int = 0) -> AssemblerBuffer {
    let m = MacroAssemblerX86_64()
    m.move(imm: UInt64(UInt32(bitPattern: value)), .rax)
    m.ret()
    while m.buffer.count < size { m.breakpoint() }
    return m.buffer
}

/// The permissions of the mapping that contains `address`, from /proc/self/maps.
private func permissions(of address: UnsafeRawPointer) -> String? {
    guard let f = fopen("/proc/self/maps", "r") else { return nil }
    defer { fclose(f) }
    let a = UInt(bitPattern: address)
    var line: UnsafeMutablePointer<CChar>? = nil
    var cap = 0
    defer { free(line) }
    while getline(&line, &cap, f) > 0 {
        let text = String(cString: line!)
        let fields = text.split(separator: " ")
        let range = fields[0].split(separator: "-")
        if let lo = UInt(range[0], radix: 16), let hi = UInt(range[1], radix: 16), a >= lo && a < hi {
            return String(fields[1])
        }
    }
    return nil
}

@Suite struct ExecutableMemoryTests {
    @Test func installsABatchWithTwoFlipsAndRunsIt() throws {
        let pool = try ExecutableMemory.reserve(capacity: 1 << 20)
        let blocks = try pool.install([returning(1), returning(2, size: 5000), returning(3)])
        #expect(blocks.count == 3)
        #expect(pool.statistics.pageFlips == 2)
        for (i, b) in blocks.enumerated() {
            let f = unsafeBitCast(b.pointer, to: (@convention(c) () -> Int32).self)
            #expect(f() == Int32(i + 1))
            #expect(b.address % 16 == 0)
            // W^X: installed code is readable and executable, never writable.
            #expect(permissions(of: b.pointer)?.hasPrefix("r-x") == true)
        }
        #expect(pool.statistics.bytesInUse >= 5000 + 2 * 16)
    }

    @Test func freedMemoryIsReusedAndMerged() throws {
        let pool = try ExecutableMemory.reserve(capacity: 1 << 16)
        let a = try pool.install([returning(10, size: 100)])[0]
        let b = try pool.install([returning(20, size: 100)])[0]
        let c = try pool.install([returning(30, size: 100)])[0]
        pool.free(a)
        pool.free(b)
        // a and b merged: a 200-byte block fits where they were.
        let d = try pool.install([returning(40, size: 200)])[0]
        #expect(d.address == a.address)
        #expect(unsafeBitCast(d.pointer, to: (@convention(c) () -> Int32).self)() == 40)
        #expect(unsafeBitCast(c.pointer, to: (@convention(c) () -> Int32).self)() == 30)
        pool.free(c)
        pool.free(d)
        #expect(pool.statistics.bytesInUse == 0)
        // Everything free again: the next block starts at the pool's base.
        let e = try pool.install([returning(50)])[0]
        #expect(e.address == UInt(bitPattern: pool.base))
    }

    @Test func fullPoolIsAnError() throws {
        let pool = try ExecutableMemory.reserve(capacity: 4096)
        _ = try pool.install([returning(1, size: 4000)])
        #expect(throws: ExecutableMemory.Failure.self) { try pool.install([returning(2, size: 200)]) }
        // A failed batch leaves nothing behind: what fits still installs.
        let small = try pool.install([returning(3, size: 64)])
        #expect(unsafeBitCast(small[0].pointer, to: (@convention(c) () -> Int32).self)() == 3)
    }
}
