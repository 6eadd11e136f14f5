import Testing
import JSSyntax
@testable import JSRuntime

/// Evaluates `fill` then `recover` (two scripts, as a REPL would) in a fresh realm whose
/// heap is limited to `maxHeap` bytes.
private func evalLimited(_ fill: String, then recover: String, maxHeap: Int) throws -> (String, String, Heap) {
    let rt = Runtime()
    try rt.initializeRealm()
    rt.heap.maxHeapBytes = maxHeap
    let a = try rt.evaluateScript(SourceFile(name: "fill.js", text: fill))
    let first = try rt.flatten(try rt.toString(a)).swiftString
    let b = try rt.evaluateScript(SourceFile(name: "recover.js", text: recover))
    return (first, try rt.flatten(try rt.toString(b)).swiftString, rt.heap)
}

/// `--max-heap` counts everything the engine holds for JS, not only cells: each filler
/// ends in a catchable out-of-memory RangeError near the limit, and the catch allocates.
@Suite struct MemoryLimit {
    static let fillers: [(String, String)] = [
        ("elements", "var keep = []; for (;;) { var a = []; for (var i = 0; i < 1e5; i++) a.push(i + 0.5); keep.push(a); }"),
        ("map", "var keep = new Map(); for (var i = 0; ; i++) keep.set(i, i);"),
        ("set", "var keep = new Set(); for (var i = 0; ; i++) keep.add(i);"),
        ("strings", "var keep = []; for (var i = 0; ; i++) keep.push(('x' + i).repeat(20000));"),
        ("dictionary", "var keep = {}; for (var i = 0; ; i++) keep['k' + i] = i;"),
        ("slots", "var keep = []; for (;;) { var o = {}; for (var i = 0; i < 200; i++) o['p' + i] = i; keep.push(o); }"),
    ]

    @Test(arguments: fillers.map(\.0))
    func fillerEndsInRangeErrorAndRecovers(_ name: String) throws {
        let filler = MemoryLimit.fillers.first { $0.0 == name }!.1
        let limit = 12 << 20
        let (caught, recovered, heap) = try evalLimited("""
            var caught;
            try { \(filler) } catch (e) { caught = e; }
            keep = null;
            caught instanceof RangeError
            """, then: """
            var z = []; for (var i = 0; i < 20000; i++) z.push({ i });
            z.length
            """, maxHeap: limit)
        #expect(caught == "true")
        #expect(recovered == "20000")
        // Everything counted stayed near the limit (storage counted after the fact, such
        // as a shape's lazily built key table, may pass it by a little), and most was used.
        #expect(heap.peakBytes <= limit + limit / 64)
        #expect(heap.peakBytes > limit / 3)
    }

    @Test func externalBytesReturnToZeroWhenGarbage() throws {
        let rt = Runtime()
        try rt.initializeRealm()
        rt.heap.collect()
        let base = rt.heap.externalBytes
        _ = try rt.evaluateScript(SourceFile(name: "g.js", text: """
            (function () {
                var a = []; for (var i = 0; i < 100000; i++) a.push(i);
                var m = new Map(); for (var i = 0; i < 10000; i++) m.set(i, i);
                var o = {}; for (var i = 0; i < 1000; i++) o['q' + i] = i;
                var f = Math.max.bind(null, 1, 2, 3, 4);
            })();
            """))
        #expect(rt.heap.externalBytes > base + 800_000)
        for _ in 0..<2 { rt.heap.collect() }
        // Conservative stack roots may keep a little alive; the big buffers are gone.
        #expect(rt.heap.externalBytes < base + 200_000)
    }
}

/// Sparse elements: storage follows the number of elements, not the largest index.
@Suite struct SparseElements {
    private func eval(_ source: String) throws -> (String, Heap) {
        let rt = Runtime()
        try rt.initializeRealm()
        let v = try rt.evaluateScript(SourceFile(name: "sparse.js", text: source))
        return (try rt.flatten(try rt.toString(v)).swiftString, rt.heap)
    }

    @Test func flagEnumKeysStaySmall() throws {
        let (r, heap) = try eval("""
            var o = {}; for (var i = 0; i <= 30; i++) o[1 << i] = i;
            var k = Object.keys(o); k.length + ' ' + k[0] + ' ' + k[30] + ' ' + o[1 << 30]
            """)
        #expect(r == "31 1 1073741824 30")
        #expect(heap.peakBytes < 16 << 20)
    }

    @Test func hugeIndicesAndArrayMethods() throws {
        let (r, heap) = try eval("""
            var a = []; a[4e9 - 2] = 1; var b = []; b[1e9] = 'z'; b[5] = 2; b[100] = 3;
            delete b[100];
            var c = []; for (var i = 0; i < 10; i++) c[i * 5000] = i;
            var s = 0; c.forEach(function (x) { s += x; });
            [a.length, a[4e9 - 2], (4e9 - 3) in a, Object.keys(b).join('/'), b.length,
             s, c.filter(function (x) { return x > 7; }).join('/'), c.indexOf(9), c.lastIndexOf(1)].join()
            """)
        #expect(r == "3999999999,1,false,5/1000000000,1000000001,45,8/9,45000,5000")
        #expect(heap.peakBytes < 16 << 20)
    }

    /// indexOf, lastIndexOf and includes walk a sparse array's keys, not every index up to
    /// its length (a billion holes), with every observable step of the spec's loop kept.
    @Test func searchesWalkOnlyTheElements() throws {
        let (r, _) = try eval("""
            var a = []; a[5] = 'x'; a[2e9] = 'y'; a[3e9] = undefined;
            var out = [a.indexOf('y'), a.lastIndexOf('x'), a.indexOf('z'), a.includes('y'),
                       a.includes('z'), a.includes(undefined), a.indexOf(undefined),
                       a.lastIndexOf('y', 1e9), a.indexOf('x', 6), a.includes(undefined, 2e9 + 1)];
            // includes(undefined) finds the first hole; indexOf skips holes.
            var h = []; h[0] = 1; h[1] = undefined; h[1e6] = 2;
            out.push(h.includes(undefined), h.indexOf(undefined));
            // A getter that adds an element further on: the rest of the loop sees it.
            var g = []; g[1e6] = 0;
            Object.defineProperty(g, 10, { get: function () { g[5e5] = 'late'; return 1; } });
            out.push(g.indexOf('late'));
            var gd = []; gd[1e6] = 0;
            Object.defineProperty(gd, 9e5, { get: function () { gd[5e5] = 'early'; return 1; } });
            out.push(gd.lastIndexOf('early'));
            // An index on the prototype is found through the hole (the plain loop).
            var p = []; p[1e5] = 1; var q = Object.create(p); q.length = 2e5; q[3] = 'own';
            out.push(Array.prototype.indexOf.call(q, 1), Array.prototype.includes.call(q, 1));
            // An array-like with a huge length.
            out.push(Array.prototype.indexOf.call({ length: 2 ** 52, 7: 'n', 4e15: 'm' }, 'm'));
            out.join()
            """)
        #expect(r == "2000000000,5,-1,true,false,true,3000000000,-1,-1,true,true,1,500000,500000,100000,true,4000000000000000")
    }

    @Test func denseArraysStayDense() throws {
        let rt = Runtime()
        try rt.initializeRealm()
        let v = try rt.evaluateScript(SourceFile(name: "dense.js", text: """
            var a = []; for (var i = 0; i < 5000; i += 3) a[i] = i;      // gaps, stays dense
            var b = new Array(100000); for (var i = 99999; i >= 0; i--) b[i] = i;  // presized, filled backwards
            var c = [1, 2, 3]; c[3000] = 4;                                 // far past three elements: sparse
            [a, b, c]
            """))
        let arrays = JSObject(v)
        let a = JSObject(arrays.elements![0]), b = JSObject(arrays.elements![1]), c = JSObject(arrays.elements![2])
        #expect(a.flags & ObjectFlags.sparseElements == 0)
        #expect(b.flags & ObjectFlags.sparseElements == 0)
        #expect(c.flags & ObjectFlags.sparseElements != 0)
    }
}
