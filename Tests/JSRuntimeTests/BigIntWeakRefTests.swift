// BigInt arithmetic and conversions; WeakMap/WeakSet ephemerons, WeakRef and
// FinalizationRegistry across collections.
import Testing
import JSSyntax
@testable import JSRuntime

@Suite struct BigIntTests {
    @Test func magnitudeAlgorithms() {
        // Karatsuba and schoolbook agree; division undoes multiplication.
        var a: [UInt64] = [], b: [UInt64] = []
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<300 { x = x &* 6364136223846793005 &+ 1442695040888963407; a.append(x) }
        for _ in 0..<170 { x = x &* 6364136223846793005 &+ 1442695040888963407; b.append(x) }
        let p = BigMag.mul(a, b)
        var school = [UInt64](repeating: 0, count: a.count + b.count)
        school.withUnsafeMutableBufferPointer { r in
            a.withUnsafeBufferPointer { ap in b.withUnsafeBufferPointer { bp in BigMag.mulSchool(ap, bp, r.baseAddress!) } }
        }
        BigMag.normalize(&school)
        #expect(p == school)
        let (q, r) = BigMag.divMod(BigMag.add(p, [12345]), b)
        #expect(q == a && r == [12345])
        // Text round trip through the divide-and-conquer conversion.
        let big = JSBigInt(negative: true, mag: p)
        for radix in [10, 7, 16, 36] {
            let s = big.toString(radix: radix)
            let back = JSBigInt.parse(digits: Array(s.dropFirst().utf16), radix: radix)
            #expect(back == -big)
        }
    }

    @Test func operators() throws {
        #expect(try evalToString("String([2n ** 64n, -7n / 2n, -7n % 2n, -5n >> 1n, ~5n, -5n & 3n, 1n << 70n])")
            == "18446744073709551616,-3,-1,-3,-6,3,1180591620717411303424")
        #expect(try evalToString("[typeof 1n, 1n == 1, 1n === 1n, 2n > 1.5, '10' > 9n, 0n ? 1 : 2, Object(3n) + 1n].join()")
            == "bigint,true,true,true,true,2,4")
        #expect(try evalToString("1n + 1").hasPrefix("threw TypeError"))
        #expect(try evalToString("1n >>> 0n").hasPrefix("threw TypeError"))
        #expect(try evalToString("1n / 0n").hasPrefix("threw RangeError"))
        #expect(try evalToString("JSON.stringify({a: 1n})").hasPrefix("threw TypeError"))
        #expect(try evalToString("[BigInt.asIntN(8, 255n), BigInt.asUintN(64, -1n), BigInt('0x1f'), Number(2n ** 70n)].join()")
            == "-1,18446744073709551615,31,1.1805916207174113e+21")
        #expect(try evalToString("var m = new Map([[1n, 'a']]); m.get(1n) + new Set([2n, 2n, 3n]).size") == "a2")
        #expect(try evalToString("var x = 5n; x++; ++x; x-- + ',' + x", gcStress: true) == "7,6")
    }

    @Test func largeNumbersAreFast() throws {
        let start = Heap.monotonicNanoseconds()
        #expect(try evalToString("String(2n ** 100000n).length + ',' + (7n ** 120000n).toString().length") == "30103,101412")
        #if !DEBUG
        #expect(Heap.monotonicNanoseconds() - start < 2_000_000_000)
        #endif
    }
}

@Suite struct WeakReferenceTests {
    @Test func weakMapDropsDeadKeysAndKeepsEphemerons() throws {
        let rt = Runtime()
        try rt.initializeRealm()
        let src = """
        var wm = new WeakMap(), ws = new WeakSet(), keep = {};
        wm.set(keep, {v: 1});
        (function () { for (var i = 0; i < 5000; i++) { var k = {}; wm.set(k, {back: k}); ws.add(k) } })();
        var head = {}, cur = head;
        for (var i = 0; i < 100; i++) { var n = {}; wm.set(cur, n); cur = n }
        """
        _ = try rt.evaluateScript(SourceFile(name: "t.js", bytes: Array(src.utf8)))
        rt.heap.collect()
        let wm = try rt.evaluateScript(SourceFile(name: "r.js", bytes: Array("wm".utf8)))
        let live = rt.collectionIndex(JSObject(wm)).live
        // keep + the 100-link chain (cycles through values do not keep keys alive).
        #expect(live <= 101 + 8)
        let check = "var c = head, n = 0; while (wm.has(c)) { c = wm.get(c); n++ } n + ',' + wm.get(keep).v"
        let v = try rt.evaluateScript(SourceFile(name: "c.js", bytes: Array(check.utf8)))
        #expect(try rt.flatten(try rt.toString(v)).swiftString == "100,1")
    }

    @Test func weakRefAndFinalizationRegistry() throws {
        // A thousand of each: the conservative stack scan may keep a few targets alive.
        let src = """
        var log = [], refs = [], kept = {};
        var reg = new FinalizationRegistry(h => log.push(h));
        (function () {
          for (var i = 0; i < 1000; i++) { refs.push(new WeakRef({})); reg.register({}, i); }
          refs.push(new WeakRef(kept)); reg.register(kept, 'kept');
        })();
        Promise.resolve().then(() => { $gc(); });
        """
        let rt = Runtime()
        try rt.initializeRealm()
        _ = try rt.method(rt.realm.global, "$gc", 0) { rt, _, _, _ throws(JSException) in rt.heap.collect(); return .undefined }
        _ = try rt.evaluateScript(SourceFile(name: "t.js", bytes: Array(src.utf8)))
        try rt.runJobs()
        let check = "[refs.filter(r => r.deref() === undefined).length >= 990, log.length >= 990, !log.includes('kept'), refs[1000].deref() === kept].join()"
        let v = try rt.evaluateScript(SourceFile(name: "r.js", bytes: Array(check.utf8)))
        #expect(try rt.flatten(try rt.toString(v)).swiftString == "true,true,true,true")
    }
}
