// Tagged templates, `using`/`await using` declarations, AsyncDisposableStack and `yield*`
// in async generators (with a GC at every allocation as well).
import Testing
@testable import JSRuntime

@Suite struct LanguageFeatureTests {
    @Test(arguments: [false, true]) func taggedTemplates(stress: Bool) throws {
        let src = """
        function tag(s, ...v) { return s.raw.join('|') + ':' + s.join('|') + ':' + v.join() }
        const o = { p: 'x', m(s) { return this.p + s[0] } };
        const sites = []; function site(s) { return s }
        for (let i = 0; i < 2; i++) sites.push(site`a${i}b`);
        [tag`a\\n${1}b${2}`, o.m`y`, sites[0] === sites[1], Object.isFrozen(sites[0]),
         Object.isFrozen(sites[0].raw), site`\\unicode`[0], (new (function (s) { return function () { this.s = s[0] } })`q`).s].join(';')
        """
        #expect(try evalToString(src, gcStress: stress) == "a\\n|b|:a\n|b|:1,2;xy;true;true;true;;q")
    }

    @Test(arguments: [false, true]) func usingDeclarations(stress: Bool) throws {
        let src = """
        var log = [];
        const r = (n) => ({ [Symbol.dispose]() { log.push('d' + n) } });
        { using a = r(1), b = r(2); using c = null; log.push('body') }
        function f() { using x = r(3); return 'ret' } log.push(f());
        for (using y of [r(4), r(5)]) log.push('it');
        try { using z = { [Symbol.dispose]() { throw 'e2' } }; throw 'e1' } catch (e) { log.push(e.constructor.name, e.error, e.suppressed) }
        try { using w = 1 } catch (e) { log.push(e.constructor.name) }
        outer: for (const i of [1]) { using q = r(6); continue outer }
        log.join()
        """
        #expect(try evalToString(src, gcStress: stress) == "body,d2,d1,d3,ret,it,d4,it,d5,SuppressedError,e2,e1,TypeError,d6")
    }

    @Test(arguments: [false, true]) func asyncDisposal(stress: Bool) throws {
        let src = """
        var log = [];
        const ar = (n) => ({ async [Symbol.asyncDispose]() { await null; log.push('a' + n) } });
        async function f() {
          { await using a = ar(1); using b = { [Symbol.dispose]() { log.push('s2') } }; await using n = null; log.push('body') }
          const s = new AsyncDisposableStack();
          s.defer(async () => log.push('deferred'));
          s.use(ar(3));
          await s.disposeAsync();
          log.push(s.disposed);
          async function* inner() { yield 'i1'; yield 'i2'; return 'r' }
          async function* outer() { const v = yield* inner(); yield v; yield* ['s1', 's2'] }
          for await (const v of outer()) log.push(v);
        }
        f().then(() => log.push('done'), (e) => log.push('error ' + e));
        """
        #expect(try evalAfterJobs(src, "log.join()", gcStress: stress)
                == "body,s2,a1,a3,deferred,true,i1,i2,r,s1,s2,done")
    }
}
