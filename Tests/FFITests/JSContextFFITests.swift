// The embedding API: a JSContext exposes C functions with declared signatures.
import Testing
#if canImport(Glibc)
import Glibc
#endif
import JSEngine
import JSFFI

private let scale: @convention(c) (Int32, Double, Float, UInt8) -> Double = { a, b, c, d in Double(a) * b + Double(c) - Double(d) }

@Suite struct JSContextFFITests {
    @Test func exposesCFunctions() throws {
        let ctx = JSContext()
        let libm = try #require(dlopen("libm.so.6", RTLD_NOW))
        try ctx.exposeCFunction("cos", address: try #require(dlsym(libm, "cos")), parameters: [.f64], result: .f64)
        try ctx.exposeCFunction("scale", address: unsafeBitCast(scale, to: UnsafeRawPointer.self),
                                parameters: [.i32, .f64, .f32, .u8], result: .f64)
        #expect(ctx.evaluateScript("cos(0)")?.toDouble() == 1)
        #expect(ctx.evaluateScript("scale(3, 1.5, 0.5, 2)")?.toDouble() == 3)
        #expect(ctx.evaluateScript("scale(3, 1.5, 0.5)") == nil)
        #expect(ctx.exception?.toString().contains("TypeError: scale: expected 4 arguments") == true, "\(String(describing: ctx.exception?.toString()))")
        #expect(ctx.evaluateScript("scale(3, 1.5, 0.5, 256)") == nil)
        #expect(ctx.exception?.toString().contains("argument 4 must be a u8") == true)
        #expect(throws: FFISignature.Invalid.self) { try ctx.exposeCFunction("bad", address: UnsafeRawPointer(bitPattern: 16)!, parameters: [.void], result: .i32) }
    }

    /// Callbacks in an embedder's process: trampolines in pages flipped RW then RX.
    @Test func callbacksWithQsort() throws {
        let ctx = JSContext()
        let qsortAddress = try #require(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "qsort"))
        try ctx.exposeCFunction("qsort", address: qsortAddress, parameters: [.buffer, .usize, .usize, .function], result: .void)
        let sorted = ctx.evaluateScript("""
            const a = new Float64Array([2.5, -1, 9, 0]);
            const cmp = new Sable.Callback({ parameters: ["pointer", "pointer"], result: "i32" }, (x, y) => Math.sign(x.readF64() - y.readF64()));
            qsort(a, 4, 8, cmp);
            a.join()
            """)
        #expect(sorted?.toString() == "-1,0,2.5,9", "\(String(describing: ctx.exception?.toString()))")
        let address = try #require(ctx.evaluateScript("cmp.pointer.address.toString()")?.toString())
        let maps = FFISecurityTests.mappings(getpid())
        let code = try #require(UInt64(address))
        #expect(maps.first { $0.start <= code && code < $0.end }?.perms == "r-xp")
        #expect(ctx.evaluateScript("cmp.close(); qsort(a, 4, 8, cmp)") == nil)
        #expect(ctx.exception?.toString().contains("called after close()") == true)
    }

    @Test func dlopenOfNamedLibraries() throws {
        let ctx = JSContext()
        try ctx.enableFFI(libraries: ["libz.so.1"])
        let crc = ctx.evaluateScript("""
            const z = Sable.dlopen("libz.so.1", { crc32: { parameters: ["u64", "buffer", "u32"], result: "u64" } });
            z.symbols.crc32(0n, new Uint8Array([97, 98, 99]), 3).toString(16)
            """)
        #expect(crc?.toString() == "352441c2", "\(String(describing: ctx.exception?.toString()))")
        #expect(ctx.evaluateScript("Sable.dlopen('libm.so.6', {})") == nil)
        #expect(ctx.exception?.toString().contains("was not enabled with JSContext.enableFFI") == true)
        #expect(throws: FFIRuntime.LoadFailure.self) { try ctx.enableFFI(libraries: ["libnope.so.0"]) }
    }
}
