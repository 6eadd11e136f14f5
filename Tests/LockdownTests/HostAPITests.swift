import Testing

/// jsrun's host APIs (JSHost): the event loop, timers, microtasks, structuredClone,
/// atob/btoa, TextEncoder/TextDecoder, URL/URLSearchParams, performance, DOMException, and
/// unhandled rejections, run as users run them (`jsrun -e`, in the locked worker). The
/// expected lines are node's output for the same programs (where the WHATWG specs and
/// node agree).
@Suite struct HostAPITests {
    func run(_ script: String) -> (Int32, String) { SupervisorCommandTests().jsrun(["-e", script]) }

    @Test func eventLoopOrder() {
        let (status, out) = run("""
            setTimeout((a, b) => console.log('timeout', a, b), 60, 1, 2);
            setTimeout(() => console.log('zero'), 0);
            let n = 0; const iv = setInterval(() => { console.log('tick', ++n); if (n === 2) clearInterval(iv) }, 10);
            const cancelled = setTimeout(() => console.log('cancelled'), 5); clearTimeout(cancelled);
            queueMicrotask(() => console.log('microtask'));
            Promise.resolve().then(() => console.log('promise'));
            setTimeout(() => { Promise.resolve().then(() => console.log('microtask after timer')); console.log('timer') }, 100);
            console.log('sync', typeof performance.now(), performance.now() >= 0);
            """)
        #expect(status == 0)
        #expect(out == "sync number true\nmicrotask\npromise\nzero\ntick 1\ntick 2\ntimeout 1 2\ntimer\nmicrotask after timer\n", "\(out)")
    }

    @Test func unhandledRejectionsEndTheRunWithStatus1() {
        let (status, out) = run("Promise.reject(new RangeError('boom'))")
        #expect(status == 1)
        #expect(out.hasPrefix("Uncaught (in promise) RangeError: boom"), "\(out)")
        let (handled, out2) = run("Promise.reject(new Error('x')).catch(e => console.log('caught', e.message))")
        #expect(handled == 0 && out2 == "caught x\n", "\(out2)")
        let (thrown, out3) = run("setTimeout(() => { throw new TypeError('in timer') }, 1); setTimeout(() => console.log('never'), 50)")
        #expect(thrown == 1 && out3.hasPrefix("Uncaught TypeError: in timer") && !out3.contains("never"), "\(out3)")
        let (micro, out4) = run("queueMicrotask(() => { throw new Error('in microtask') })")
        #expect(micro == 1 && out4.hasPrefix("Uncaught Error: in microtask"), "\(out4)")
    }

    @Test func encodingAndBase64() {
        let (status, out) = run("""
            const enc = new TextEncoder().encode('h€\\u{1F600}\\uD800');
            console.log(Array.from(enc).join(','), new TextDecoder().decode(enc));
            console.log(JSON.stringify(new TextDecoder().decode(new Uint8Array([0xEF, 0xBB, 0xBF, 0x41, 0xC3, 0x28, 0xE2, 0x82]))));
            const d = new TextDecoder(), parts = [d.decode(new Uint8Array([0xE2, 0x82]), { stream: true }), d.decode(new Uint8Array([0xAC]))];
            console.log(JSON.stringify(parts), new TextDecoder('utf-16le').decode(new Uint16Array([0x48, 0x69])));
            try { new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array([0xFF])) } catch (e) { console.log(e.name) }
            try { new TextDecoder('klingon') } catch (e) { console.log(e.name) }
            const into = new Uint8Array(4); console.log(JSON.stringify(new TextEncoder().encodeInto('a€b', into)), into.join(','));
            console.log(btoa('hello'), atob('aGVsbG8='), atob(' aGVs bG8 '), btoa(''), atob('YQ'));
            try { atob('a') } catch (e) { console.log(e.name, e.code, e instanceof DOMException) }
            try { btoa('\\u0100') } catch (e) { console.log(e.name) }
            """)
        #expect(status == 0)
        #expect(out == """
            104,226,130,172,240,159,152,128,239,191,189 h€😀�
            "A�(�"
            ["","€"] Hi
            TypeError
            RangeError
            {"read":2,"written":4} 97,226,130,172
            aGVsbG8= hello hello  a
            InvalidCharacterError 5 true
            InvalidCharacterError

            """, "\(out)")
    }

    @Test func structuredCloneAndURL() {
        let (status, out) = run("""
            const o = { a: 1, d: new Date(0), m: new Map([[1, { b: 2 }]]), s: new Set([1]), r: /x/gi, t: new Uint16Array([1, 2]), e: new RangeError('r') };
            o.self = o;
            const c = structuredClone(o);
            console.log(c !== o, c.self === c, c.d.getTime(), c.m.get(1).b, c.s.has(1), String(c.r), c.t[1], c.t instanceof Uint16Array, c.e instanceof RangeError, c.e.message);
            try { structuredClone(() => 1) } catch (e) { console.log(e.name, e instanceof DOMException, e.code) }
            try { structuredClone({ s: Symbol() }) } catch (e) { console.log(e.name) }
            const u = new URL('https://user:pw@EXAMPLE.com:8080/a/../b?x=1&y=2#frag');
            console.log(u.href, u.origin, u.host, u.pathname, u.search, u.hash, u.searchParams.get('y'));
            u.searchParams.append('z', 'a b'); console.log(u.href);
            u.search = '?q=1'; console.log(u.searchParams.get('q'), [...u.searchParams].join('|'));
            u.port = '443'; u.protocol = 'http'; console.log(u.href);
            console.log(URL.canParse('nope'), String(new URL('/x', 'http://h/')), URL.parse('::'), JSON.stringify({ u: new URL('http://a/') }));
            try { new URL('nope') } catch (e) { console.log(e.name) }
            const p = new URLSearchParams({ b: 'x y', a: '1' }); p.sort(); p.set('c', '&'); console.log(p.toString(), p.size, p.has('a', '1'));
            """)
        #expect(status == 0)
        #expect(out == """
            true true 0 2 true /x/gi 2 true true r
            DataCloneError true 25
            DataCloneError
            https://user:pw@example.com:8080/b?x=1&y=2#frag https://example.com:8080 example.com:8080 /b ?x=1&y=2 #frag 2
            https://user:pw@example.com:8080/b?x=1&y=2&z=a+b#frag
            1 q,1
            http://user:pw@example.com/b?q=1#frag
            false http://h/x null {"u":"http://a/"}
            TypeError
            a=1&b=x+y&c=%26 3 true

            """, "\(out)")
    }

    /// The embedding API's worker (`LockedWorker`) runs the same loop before it answers:
    /// timers fire, and an unhandled rejection is the request's exception.
    @Test func lockedWorkerRunsTheEventLoop() throws {
        let w = try makeWorker()
        defer { w.close() }
        let r = try w.evaluate("var log = []; setTimeout(() => log.push('timer'), 5); Promise.resolve().then(() => log.push('promise')); log")
        #expect(r.value == "[ 'promise', 'timer' ]", "\(String(describing: r.value)) \(String(describing: r.exception))")
        let rejected = try w.evaluate("Promise.reject(new TypeError('nope')); 1")
        #expect(rejected.value == nil)
        #expect(rejected.exception?.hasPrefix("Uncaught (in promise) TypeError: nope") == true, "\(String(describing: rejected.exception))")
        let after = try w.evaluate("typeof setTimeout")
        #expect(after.value == "'function'")
    }
}
