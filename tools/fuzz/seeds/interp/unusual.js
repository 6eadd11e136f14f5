label: for (const [a, {b = a, ...c}] of [[1, {d: 2}]]) { with ({}) { if (a) continue label; else break label } }
class A extends (class { static #p = 1; static has(o) { return #p in o } }) { static { this.x = super.has?.(this) } [`k${1}`]() { return new.target } }
async function* g() { yield* [await 1, ...(function* () { yield 2 })()] }
(async () => { for await (const x of g()) x ?? void typeof x })();
var o = { valueOf() { return 1 }, toString() { return '2' }, [Symbol.toPrimitive]: undefined }; o + `${o}` - o ** 2;
/(?<n>a)|\k<n>/dgimsuy.exec?.('a')?.indices;
