import Testing
import JSSyntax
@testable import JSRuntime

/// Evaluates `source` in a fresh realm and returns the completion value as a Swift string.
private func eval(_ source: String, stress: Bool = false, maxHeap: Int = 0) throws -> String {
    let rt = Runtime()
    try rt.initializeRealm()
    rt.heap.gcStress = stress
    rt.heap.maxHeapBytes = maxHeap
    do {
        let v = try rt.evaluateScript(SourceFile(name: "test.js", text: source))
        return try rt.flatten(try rt.toString(v)).swiftString
    } catch {
        let e = error
        return "threw " + (try rt.flatten(try rt.toString(e.value)).swiftString)
    }
}

@Suite struct TypedArrays {
    @Test func elementConversions() throws {
        #expect(try eval("var a = new Uint8Array([1, 300, -1, 1.7]); a.join()") == "1,44,255,1")
        #expect(try eval("var c = new Uint8ClampedArray([300, -5, 1.5, 2.5, NaN]); c.join()") == "255,0,2,2,0")
        #expect(try eval("var u = new Uint32Array(1); u[0] = -1; u[0]") == "4294967295")
        #expect(try eval("var f = new Float32Array([0.1]); f[0]") == "0.10000000149011612")
        #expect(try eval("var h = new Float16Array([65520, 0.1, 1e-8]); h.join()") == "Infinity,0.0999755859375,0")
        #expect(try eval("Math.f16round(1.0009765625 + 2 ** -20)") == "1.0009765625")
    }

    @Test func integerIndexedKeys() throws {
        #expect(try eval("var a = new Int8Array(2); a['-0'] = 1; a[2] = 1; a[1.5] = 1; Object.keys(a).join() + ':' + a['-0']") == "0,1:undefined")
        #expect(try eval("var a = new Int8Array(2); Reflect.defineProperty(a, '0', {value: 7, configurable: true, enumerable: true, writable: true}) + ',' + a[0]") == "true,7")
        #expect(try eval("var a = new Int8Array(2); Reflect.defineProperty(a, '0', {value: 7, writable: false})") == "false")
        #expect(try eval("var a = new Int8Array(2); delete a[5] && !delete a[0] && (1 in a) && !(2 in a)") == "true")
        #expect(try eval("var o = Object.create(new Int8Array(1)); o[0] = 3; o[5] = 1; o.hasOwnProperty(0) + ',' + o.hasOwnProperty(5)") == "true,false")
    }

    @Test func resizableAndDetached() throws {
        #expect(try eval("""
            var b = new ArrayBuffer(4, {maxByteLength: 16}); var t = new Int16Array(b); var f = new Int16Array(b, 0, 2);
            var s = [t.length]; b.resize(12); s.push(t.length, f.length); b.resize(2); s.push(t.length, f.length, f.byteOffset); s.join()
            """) == "2,6,2,1,0,0")
        #expect(try eval("var b = new ArrayBuffer(8); var t = new Uint8Array(b); var n = b.transfer(); [b.detached, t.length, n.byteLength, t[0]].join()") == "true,0,8,")
        #expect(try eval("try { new ArrayBuffer(2 ** 53) } catch (e) { e.name }") == "RangeError")
    }

    @Test func heapLimitCountsBuffers() throws {
        let r = try eval("try { var keep = []; for (var i = 0; i < 100; i++) keep.push(new ArrayBuffer(1 << 20)); 'no' } catch (e) { e.name }",
                         maxHeap: 32 << 20)
        #expect(r == "RangeError")
        // Garbage buffers are freed (their bytes stop counting) by a collection.
        #expect(try eval("for (var i = 0; i < 200; i++) new Float64Array(1 << 17); 'ok'", maxHeap: 32 << 20) == "ok")
    }

    @Test func dataViewAndBase64() throws {
        #expect(try eval("var d = new DataView(new ArrayBuffer(8)); d.setUint16(0, 0x1234); d.setFloat16(2, 1.5, true); [d.getUint8(0), d.getUint16(0, true), d.getFloat16(2, true)].join()") == "18,13330,1.5")
        #expect(try eval("new Uint8Array([251, 255]).toBase64({alphabet: 'base64url', omitPadding: true})") == "-_8")
        #expect(try eval("var t = new Uint8Array(4); var r = t.setFromBase64('AQID'); [r.read, r.written, t.join()].join(';')") == "4;3;1,2,3,0")
        #expect(try eval("try { Uint8Array.fromHex('abc') } catch (e) { e.name }") == "SyntaxError")
    }

    @Test func methodsUnderGCStress() throws {
        #expect(try eval("""
            var a = Float64Array.from([3, 1, 2], x => x * 2).sort(); var m = a.map(x => x + 1).filter(x => x > 3);
            var s = a.subarray(1); [a.join(), m.join(), s.join(), [...a.entries()].join(';'), a.with(0, 9).join()].join('|')
            """, stress: true) == "2,4,6|5,7|4,6|0,2;1,4;2,6|9,4,6")
    }

    @Test func atomics() throws {
        #expect(try eval("var i = new Int32Array(new SharedArrayBuffer(8)); [Atomics.add(i, 0, 5), Atomics.compareExchange(i, 0, 5, 7), Atomics.load(i, 0), Atomics.wait(i, 0, 1), Atomics.notify(i, 0)].join()") == "0,5,7,not-equal,0")
    }
}
