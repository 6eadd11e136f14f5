// Deep-nesting stress suite (issue 15). For every syntactic construct that nests and every
// recursive builtin, at each depth of DEPTHS: the program must run, or throw a RangeError or
// SyntaxError the script catches. A crash of the worker (a signal) fails the suite; the last
// "case" line printed names the culprit. Usage: jsrun nesting.js [FILTER] [DEPTHS...]
// (scriptArgs: an optional substring of case names, then depths; default 10 1000 10000 100000).
'use strict';
var args = typeof scriptArgs === 'undefined' ? [] : scriptArgs.slice();
var filter = args.length && !/^\d+$/.test(args[0]) ? args.shift() : '';
// 'alloc': only the allocation cases (for runs with --max-heap).
var heapOnly = filter === 'alloc';
if (heapOnly) filter = '';
var DEPTHS = args.length ? args.map(Number) : [10, 1000, 10000, 100000];

function rep(s, n) { return s.repeat(n); }
// open^n mid close^n
function nest(open, mid, close) { return function (n) { return rep(open, n) + mid + rep(close, n); }; }
// first (op second)^n, left-associated chains
function chain(first, op) { return function (n) { return first + rep(op, n); }; }
function indexed(f) { return function (n) { var s = ''; for (var i = 0; i < n; i++) s = f(i, s); return s; }; }

var syntax = [
    ['block', nest('{', '', '}')],
    ['if', nest('if (1) ', ';', '')],
    ['if-else', nest('if (0) ; else ', ';', '')],
    ['else-if', nest('if (0) {} else ', ';', '')],
    ['while', nest('while (0) ', ';', '')],
    ['do-while', nest('do ', ';', ' while (0);')],
    ['for', nest('for (;0;) ', ';', '')],
    ['for-let', nest('for (let i = 0; i < 0; i++) ', ';', '')],
    ['for-in', nest('for (var k in {}) ', ';', '')],
    ['for-of', nest('for (const k of []) ', ';', '')],
    ['labeled', function (n) { var s = ''; for (var i = 0; i < n; i++) s += 'L' + i + ': '; return s + ';'; }],
    ['labeled-block-break', function (n) { var s = ''; for (var i = 0; i < n; i++) s += 'L' + i + ': {'; s += 'break L0;'; return s + rep('}', n); }],
    ['with', nest('with ({}) ', ';', ''), true],
    ['try-finally', nest('try {', '', '} finally {}')],
    ['try-catch', nest('try {', '', '} catch (e) {}')],
    ['catch-body', nest('try {} catch (e) {', '', '}')],
    ['finally-body', nest('try {} finally {', '', '}')],
    ['switch', nest('switch (1) { case 1: ', '', '}')],
    ['function-decl', nest('function f() {', '', '}')],
    ['function-expr', nest('(function () { return ', '0', '})')],
    ['function-call-iife', nest('(function () { return ', '0', '})()')],
    ['arrow', nest('() => ', '0', '')],
    ['arrow-call', nest('(() => ', '0', ')()')],
    ['arrow-block', nest('() => {', '', '}')],
    ['async-arrow', nest('async () => ', '0', '')],
    ['generator', nest('function* g() {', '', '}')],
    ['async-function', nest('async function f() { await ', '0', '}')],
    ['class-method', nest('class A { m() {', '', '} }')],
    ['class-expr-extends', nest('(class extends ', 'Object', ' {})')],
    ['class-static-block', nest('class A { static {', '', '} }')],
    ['class-field', nest('(class { x = ', '0', ' })')],
    ['class-computed-key', nest('(class { [', '"k"', '] () {} })')],
    ['object-literal', nest('({a: ', '0', '})')],
    ['object-computed', nest('({[', '"k"', ']: 0})')],
    ['object-method', nest('({m() { return ', '0', '}})')],
    ['object-getter', nest('({get m() { return ', '0', '}})')],
    ['array-literal', nest('[', '', ']')],
    ['array-literal-elem', nest('[0, ', '0', ']')],
    ['spread-array', nest('[...', '[]', ']')],
    ['spread-call', nest('Array.of(...', '[]', ')')],
    ['parens', nest('(', '0', ')')],
    ['comma-parens', nest('(0, ', '0', ')')],
    ['unary-minus-plus', nest('-+', '0', '')],
    ['unary-minus-spaced', nest('- ', '0', '')],
    ['unary-not', nest('!', '0', '')],
    ['unary-bitnot', nest('~', '0', '')],
    ['unary-plus', nest('+ ', '0', '')],
    ['typeof', nest('typeof ', '0', '')],
    ['void', nest('void ', '0', '')],
    ['delete', nest('delete ', '0', ''), true],
    ['await', nest('(async () => ', '0', ')') /* placeholder replaced below */],
    ['new', nest('new ', 'self.F', '')],
    ['new-call', nest('new (', 'self.F', ')')],
    ['call-nested', nest('String(', '', ')')],
    ['call-chain', chain('self.f', '()')],
    ['call-arg-chain', nest('Math.max(0, ', '0', ')')],
    ['member-dot', chain('self', '.s')],
    ['member-index', chain('self', '[0]')],
    ['member-optional', chain('self', '?.s')],
    ['optional-call', chain('self.f', '?.()')],
    ['computed-member-nested', nest('({}[', '0', '])')],
    ['template', nest('`${', '0', '}`')],
    ['template-tagged-chain', chain('self.f', '`x`')],
    ['template-tag-nested', nest('String.raw`${', '0', '}`')],
    ['conditional-right', chain('0', ' ? 0 : 0')],
    ['conditional-test', nest('(', '0', ' ? 0 : 0)')],
    ['conditional-middle', nest('1 ? ', '0', ' : 0')],
    ['assign-right', chain('x', ' = x') /* x = x = x ... */],
    ['assign-compound', nest('x += ', '1', '')],
    ['assign-logical', nest('x ??= ', '1', '')],
    ['assign-paren-right', nest('x = (', '1', ')')],
    ['regexp-literal-groups', function (n) { return '/' + rep('(', n) + 'a' + rep(')', n) + '/.exec("a")'; }],
    ['destructure-array', function (n) { return 'var ' + rep('[', n) + 'x' + rep(' = []]', n) + ' = []'; }],
    ['destructure-object', function (n) { return 'var ' + rep('{a: ', n) + 'x' + rep(' = {}}', n) + ' = {}'; }],
    ['destructure-assign-array', function (n) { return 'var x; (' + rep('[', n) + 'x' + rep(' = []]', n) + ' = [])'; }],
    ['destructure-assign-object', function (n) { return 'var x; (' + rep('{a: ', n) + 'x' + rep(' = {}}', n) + ' = {})'; }],
    ['destructure-param', function (n) { return '(function (' + rep('[', n) + 'x' + rep(' = []]', n) + ') {})([])'; }],
    ['destructure-arrow-param', function (n) { return '((' + rep('[', n) + 'x' + rep(' = []]', n) + ') => x)([])'; }],
    ['destructure-for-of', function (n) { return 'for (var ' + rep('[', n) + 'x' + rep(' = []]', n) + ' of []) ;'; }],
    ['yield', function (n) { return '(function* () { ' + rep('yield ', n) + '0 })'; }],
    ['yield-star', function (n) { return '(function* () { ' + rep('yield* ', n) + '[] })'; }],
    ['super-call', function (n) { return '(class extends Object { constructor() { ' + rep('super(', n) + '0' + rep(')', n) + ' } })'; }],
    ['super-member', function (n) { return '({ m() { return ' + rep('super[', n) + '0' + rep(']', n) + ' } })'; }],
    ['private-in', function (n) { return '(class { #x; m(o) { return ' + rep('#x in (', n) + 'o' + rep(')', n) + ' } })'; }],
    ['dynamic-import', function (n) { return '() => ' + rep('import(', n) + '"x"' + rep(')', n); }],
    ['default-param-nested-fn', nest('(function (a = ', '0', ') { return a })()')],
];
var binops = ['+', '-', '*', '/', '%', '**', '<<', '>>', '>>>', '&', '|', '^', '&&', '||', '??', ',',
              '==', '!=', '===', '!==', '<', '>', '<=', '>=', 'instanceof', 'in'];
binops.forEach(function (op) {
    var rhs = op === 'instanceof' ? 'Object' : op === 'in' ? '({})' : '1';
    syntax.push(['binary-left ' + op, chain('1', ' ' + op + ' ' + rhs)]);
    if (op !== 'instanceof' && op !== 'in') syntax.push(['binary-right ' + op, nest('1 ' + op + ' (', rhs, ')')]);
    syntax.push(['binary-leftparen ' + op, nest('(', '1', ' ' + op + ' ' + rhs + ')')]);
});
syntax.push(['string-concat-vars', chain('"a"', ' + x')]);
syntax.push(['await', nest('(async () => { await ', '0', ' })()')]);
syntax = syntax.filter(function (c) { return c[0] !== 'await' || c[1].length === 1; });

// Programs that recurse at run time: f(n) is source to evaluate.
var runtime = [
    ['flat', function (n) { return 'var a = [1]; for (var i = 0; i < ' + n + '; i++) a = [a]; a.flat(Infinity).length'; }],
    ['join', function (n) { return 'var a = []; for (var i = 0; i < ' + n + '; i++) a = [a]; String(a).length'; }],
    ['toLocaleString', function (n) { return 'var a = []; for (var i = 0; i < ' + n + '; i++) a = [a]; a.toLocaleString().length'; }],
    ['stringify', function (n) { return 'var o = {}; for (var i = 0; i < ' + n + '; i++) o = {o}; JSON.stringify(o).length'; }],
    ['stringify-array', function (n) { return 'var o = []; for (var i = 0; i < ' + n + '; i++) o = [o]; JSON.stringify(o).length'; }],
    ['stringify-toJSON', function (n) { return 'var d = 0; var o = { toJSON() { return d++ < ' + n + ' ? JSON.parse(JSON.stringify(o)) : 1 } }; JSON.stringify(o).length'; }],
    ['parse-deep', function (n) { return 'JSON.parse("' + rep('[', n) + rep(']', n) + '")'; }],
    ['parse-deep-object', function (n) { return 'JSON.parse(\'' + rep('{"a":', n) + '0' + rep('}', n) + '\')'; }],
    ['parse-reviver', function (n) { return 'JSON.parse("' + rep('[', n) + rep(']', n) + '", function (k, v) { return v })'; }],
    ['parse-reviver-reentrant', function (n) { return 'var c = 0; JSON.parse("[1]", function r(k, v) { return c++ < ' + n + ' ? JSON.parse("[1]", r) : v })'; }],
    ['bound-call', function (n) { return 'var f = function () { return 1 }; for (var i = 0; i < ' + n + '; i++) f = f.bind(null); f()'; }],
    ['bound-construct', function (n) { return 'var f = function () { this.x = 1 }; for (var i = 0; i < ' + n + '; i++) f = f.bind(null); new f().x'; }],
    ['apply-recursion', function (n) { return 'function f(k) { return k ? f.apply(null, [k - 1]) : 0 } f(' + n + ')'; }],
    ['call-recursion', function (n) { return 'function f(k) { return k ? f.call(null, k - 1) : 0 } f(' + n + ')'; }],
    ['reflect-apply', function (n) { return 'function f(k) { return k ? Reflect.apply(f, null, [k - 1]) : 0 } f(' + n + ')'; }],
    ['reflect-construct', function (n) { return 'function F(k) { if (k) Reflect.construct(F, [k - 1]) } new F(' + n + ')'; }],
    ['plain-recursion', function (n) { return 'function f(k) { return k ? f(k - 1) + 1 : 0 } f(' + n + ')'; }],
    ['new-recursion', function (n) { return 'function F(k) { if (k) new F(k - 1) } new F(' + n + ')'; }],
    ['super-constructor-chain', function (n) { return 'var C = class {}; for (var i = 0; i < ' + Math.min(n, 20000) + '; i++) C = class extends C {}; new C()'; }],
    ['proto-chain-lookup', function (n) { return 'var o = {}; for (var i = 0; i < ' + n + '; i++) o = Object.create(o); o.x'; }],
    ['proto-chain-instanceof', function (n) { return 'function F() {} var o = new F(); for (var i = 0; i < ' + n + '; i++) o = Object.create(o); o instanceof Array'; }],
    ['proxy-chain-get', function (n) { return 'var p = {}; for (var i = 0; i < ' + n + '; i++) p = new Proxy(p, {}); p.x'; }],
    ['proxy-chain-set', function (n) { return 'var p = {}; for (var i = 0; i < ' + n + '; i++) p = new Proxy(p, {}); p.x = 1'; }],
    ['proxy-chain-has', function (n) { return 'var p = {}; for (var i = 0; i < ' + n + '; i++) p = new Proxy(p, {}); "x" in p'; }],
    ['proxy-chain-keys', function (n) { return 'var p = {}; for (var i = 0; i < ' + n + '; i++) p = new Proxy(p, {}); Object.keys(p)'; }],
    ['proxy-chain-call', function (n) { return 'var p = function () {}; for (var i = 0; i < ' + n + '; i++) p = new Proxy(p, {}); p()'; }],
    ['proxy-chain-construct', function (n) { return 'var p = function () {}; for (var i = 0; i < ' + n + '; i++) p = new Proxy(p, {}); new p()'; }],
    ['proxy-chain-proto', function (n) { return 'var p = {}; for (var i = 0; i < ' + n + '; i++) p = new Proxy(p, {}); Object.getPrototypeOf(p)'; }],
    ['proxy-in-proto-chain', function (n) { return 'var p = {}; for (var i = 0; i < ' + n + '; i++) p = Object.create(new Proxy(p, {})); p.x'; }],
    ['getter-chain', function (n) { return 'var o = {}; for (var i = 0; i < ' + n + '; i++) o = Object.defineProperty({}, "x", { get: (function (n) { return function () { return n.x } })(o) }); o.x'; }],
    ['setter-recursion', function (n) { return 'var c = 0; var o = { set x(v) { if (c++ < ' + n + ') this.x = v } }; o.x = 1'; }],
    ['valueOf-chain', function (n) { return 'var c = 0; var o = { valueOf() { return c++ < ' + n + ' ? +o : 1 } }; +o'; }],
    ['toString-recursion', function (n) { return 'var c = 0; var o = { toString() { return c++ < ' + n + ' ? String(o) : "" } }; String(o)'; }],
    ['toPrimitive-recursion', function (n) { return 'var c = 0; var o = { [Symbol.toPrimitive]() { return c++ < ' + n + ' ? o + 1 : 1 } }; o + 1'; }],
    ['sort-comparator', function (n) { return 'var d = 0; function cmp(a, b) { if (d++ < ' + n + ') [2, 1].sort(cmp); return a - b } [2, 1].sort(cmp)'; }],
    ['map-callback', function (n) { return 'function f(k) { return k ? [k - 1].map(f)[0] : 0 } f(' + n + ')'; }],
    ['forEach-callback', function (n) { return 'function f(k) { if (k) [k - 1].forEach(f) } f(' + n + ')'; }],
    ['reduce-callback', function (n) { return 'function f(k) { return k ? [0, k - 1].reduce(function (a, b) { return f(b) }) : 0 } f(' + n + ')'; }],
    ['replace-callback', function (n) { return 'function f(k) { return k ? "a".replace("a", function () { return f(k - 1) }) : "" } f(' + n + ')'; }],
    ['regexp-replace-callback', function (n) { return 'function f(k) { return k ? "a".replace(/a/g, function () { return f(k - 1) }) : "" } f(' + n + ')'; }],
    ['array-from-iter', function (n) { return 'function f(k) { return k ? Array.from({ [Symbol.iterator]() { var d = false; return { next() { if (d) return { done: true }; d = true; return { value: f(k - 1), done: false } } } } }) : 0 } f(' + n + ')'; }],
    ['for-of-iter-recursion', function (n) { return 'function f(k) { if (!k) return; for (var x of { [Symbol.iterator]() { f(k - 1); return [][Symbol.iterator]() } }) ; } f(' + n + ')'; }],
    ['generator-yield-star', function (n) { return 'function* g(k) { if (k) yield* g(k - 1); else yield 1 } [...g(' + n + ')]'; }],
    ['generator-next-recursion', function (n) { return 'function* g(k) { yield k ? g(k - 1).next().value : 0 } g(' + n + ').next().value'; }],
    ['async-await-chain', function (n) { return 'async function f(k) { return k ? await f(k - 1) : 0 } f(' + n + ').catch(function (e) { if (!(e instanceof RangeError)) throw e })'; }],
    ['promise-then-chain', function (n) { return 'var p = Promise.resolve(0); for (var i = 0; i < ' + n + '; i++) p = p.then(function (x) { return x + 1 }); p'; }],
    ['promise-resolve-nested', function (n) { return 'var p = 0; for (var i = 0; i < ' + Math.min(n, 20000) + '; i++) p = Promise.resolve(p); p'; }],
    ['eval-recursion', function (n) { return 'function f(k) { return k ? eval("f(k - 1)") : 0 } f(' + n + ')'; }],
    ['indirect-eval-recursion', function (n) { return 'var g = eval; globalThis.evalRecursion = function (k) { return k ? g("evalRecursion(" + (k - 1) + ")") : 0 }; evalRecursion(' + n + ')'; }],
    ['function-ctor-recursion', function (n) { return 'function f(k) { return k ? Function("f", "k", "return f(k)")(f, k - 1) : 0 } f(' + n + ')'; }],
    ['error-cause-chain-tostring', function (n) { return 'var e = new Error("x"); for (var i = 0; i < ' + n + '; i++) e = new Error("y", { cause: e }); String(e)'; }],
    ['error-stack-recursion', function (n) { return 'function f(k) { return k ? f(k - 1) : new Error("x").stack.length } f(' + Math.min(n, 1000) + ')'; }],
    ['array-concat-spreadable', function (n) { return 'var a = [1]; for (var i = 0; i < ' + n + '; i++) a = [a]; [].concat(a).length'; }],
    ['object-assign-getter', function (n) { return 'function f(k) { return k ? Object.assign({}, { get x() { return f(k - 1) } }) : 0 } f(' + n + ')'; }],
    ['structured-keys-nested', function (n) { return 'var o = {}; for (var i = 0; i < ' + n + '; i++) o = { o }; Object.entries(o).length'; }],
    ['regexp-nested-groups', function (n) { return 'new RegExp("' + rep('(', n) + 'a' + rep(')', n) + '").exec("a")'; }],
    ['regexp-nested-noncapture', function (n) { return 'new RegExp("' + rep('(?:', n) + 'a' + rep(')', n) + '").exec("a")'; }],
    ['regexp-nested-lookahead', function (n) { return 'new RegExp("' + rep('(?=', n) + 'a' + rep(')', n) + '").exec("a")'; }],
    ['regexp-nested-quantified', function (n) { return 'new RegExp("' + rep('(?:', n) + 'a' + rep(')?', n) + '").exec("a")'; }],
    ['regexp-nested-alternation', function (n) { return 'new RegExp("' + rep('(?:b|', n) + 'a' + rep(')', n) + '").exec("a")'; }],
    ['regexp-nested-class', function (n) { return 'new RegExp("' + rep('[', n) + 'a' + rep(']', n) + '", "v").exec("a")'; }],
    ['regexp-star-long-input', function (n) { return '/(a|b)*/.exec("ab".repeat(' + n + '))[0].length'; }],
    ['regexp-star-group-long', function (n) { return '/(?:a|b)*c/.exec("ab".repeat(' + n + ') + "c")[0].length'; }],
    ['regexp-lazy-long', function (n) { return '/(?:a|b)*?c/.exec("ab".repeat(' + n + ') + "c")[0].length'; }],
    ['regexp-backref-long', function (n) { return '/(a)(?:\\1)*/.exec("a".repeat(' + n + '))[0].length'; }],
    ['regexp-lookbehind-long', function (n) { return '/(?<=(?:a|b)*)c/.exec("ab".repeat(' + n + ') + "c")'; }],
    ['regexp-dotall-plus-long', function (n) { return '/(.)+$/s.exec("x".repeat(' + n + '))[0].length'; }],
    ['string-repeat-big', function (n) { return '"ab".repeat(' + n + ').repeat(' + n + ').length'; }, 'alloc'],
    ['array-length-big', function (n) { return 'new Array(' + n + ' * ' + n + ').fill(0).length'; }, 'alloc'],
    ['string-concat-doubling', function (n) { return 'var s = "ab"; for (var i = 0; i < ' + Math.min(n, 64) + '; i++) s += s; s.length'; }, 'alloc'],
    ['array-push-loop', function (n) { return 'var a = []; for (var i = 0; i < ' + n + ' * 10; i++) a.push([i]); a.length'; }, 'alloc'],
    ['join-big', function (n) { return 'new Array(' + n + ').fill("x".repeat(' + n + ')).join("").length'; }, 'alloc'],
    ['padStart-big', function (n) { return '"".padStart(' + n + ' * ' + n + ' * 100, "ab").length'; }, 'alloc'],
    ['stringify-long-string', function (n) { return 'JSON.stringify("\\"".repeat(Math.min(' + n + ' * ' + n + ' * 8, 2 ** 29))).length'; }, 'alloc'],
    ['stringify-string-growth', function (n) { return 'var s = "\\""; for (var i = 0; i < ' + Math.min(n, 40) + '; i++) s = JSON.stringify(s); s.length'; }, 'slow'],
    ['array-of-strings-split', function (n) { return '"x".repeat(' + n + ' * 10).split("").length'; }, 'alloc'],
];

var x, self = [];
self[0] = self.s = self;
self.f = function f() { return f; };
self.F = function F() { return F; };
var results = { ok: 0, RangeError: 0, SyntaxError: 0, other: 0 };
var geval = (0, eval);
function runCase(name, make, n, wrap) {
    if (filter && name.indexOf(filter) < 0) return;
    var outcome;
    try {
        // Run-time cases in a function of their own: their variables die with it.
        var src = make(n);
        geval(wrap ? '(function () {\n' + src + '\n})()' : src);
        outcome = 'ok';
    } catch (e) {
        outcome = e && (e.name === 'RangeError' || e.name === 'SyntaxError') ? e.name : 'other';
        if (outcome === 'other' || e.message.indexOf('Maximum call stack') < 0 && outcome === 'RangeError' && !/length|memory|too (long|large|many|deep)|heap|Invalid|nested/i.test(e.message))
            console.log('  ' + name + ': ' + (e && e.name) + ': ' + (e && e.message));
    }
    results[outcome]++;
    return outcome;
}
var line = [];
DEPTHS.forEach(function (n) {
    syntax.forEach(function (c) {
        if (filter && c[0].indexOf(filter) < 0 || heapOnly) return;
        var o = runCase(c[0] + '@' + n, c[1], n, false);
        if (o !== 'ok') line.push(c[0] + '@' + n + '=' + o);
    });
    runtime.forEach(function (c) {
        if (filter && c[0].indexOf(filter) < 0) return;
        // 'slow' cases (seconds each) run only when named exactly.
        if (c[2] === 'slow' && filter !== c[0]) return;
        if (heapOnly && c[2] !== 'alloc') return;
        var o = runCase(c[0] + '@' + n, c[1], n, true);
        if (o !== 'ok') line.push(c[0] + '@' + n + '=' + o);
    });
});
console.log(line.join('\n'));
console.log('ok ' + results.ok + ', RangeError ' + results.RangeError + ', SyntaxError ' + results.SyntaxError + ', other ' + results.other);
