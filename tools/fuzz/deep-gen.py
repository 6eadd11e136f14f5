#!/usr/bin/env python3
"""Structure-aware generator of deeply nested, unusual but valid JS programs (issue 15), run
three ways and compared: `jsrun` (interpreter), `jsrun --gc-stress` (a collection before every
allocation) and `jsrun --jit=eager`. Every run must end normally or with a JS error (never a
signal), and the three transcripts must agree.

Each program nests random wrappers around a value expression -- blocks, each statement kind,
closures (arrow/function/generator/async/class members), calls, member chains, templates,
destructuring, every operator, try/finally, labels, spread, optional chains -- at a random
depth (mostly small, sometimes thousands), in a function whose value is printed; then runs
a few recursive builtins on values it built (flat, join, JSON.stringify/parse with reviver,
sort with comparator, bound functions, proxies).

Usage: tools/fuzz/deep-gen.py [--jsrun PATH] [--seconds N] [--seed S] [--keep DIR]
A differing or crashing program is written to DIR (default tools/fuzz/out/deep-gen/) and the
run exits 1.
"""
import argparse, os, random, subprocess, sys, time

# (wrapper around expression E) -> expression; '#' marks where E goes. Values stay numbers
# or things whose String() is deterministic.
EXPR_WRAPPERS = [
    "(#)", "(0, #)", "-(-#)", "+#", "~~#", "!!# ? # : 0", "(# + 1 - 1)", "(# * 1)", "(# | 0)",
    "(# ?? 0)", "(# || 0)", "(1 && #)", "[#][0]", "[...[#]][0]", "({ v: # }).v", "({ ['v']: # }).v",
    "({ get v() { return # } }).v", "(() => #)()", "(function () { return # })()",
    "(function* () { yield # })().next().value", "((a = #) => a)()", "(({ a } = { a: # }) => a)()",
    "(([a, ...r]) => a)([#])", "(class { static v = # }).v", "(class { static m() { return # } }).m()",
    "new (class { constructor() { this.v = # } })().v", "`${#}`.length >= 0 ? # : 0",
    "String.raw`${#}`.length >= 0 ? # : 0", "Math.max(#, -Infinity)", "[#].map(x => x)[0]",
    "[#].reduce((a, b) => b, 0)", "Reflect.apply((x) => x, null, [#])", "((x) => x).call(null, #)",
    "((x) => x).bind(null)(#)", "new Proxy({ v: # }, {}).v", "Object.assign({}, { v: # }).v",
    "JSON.parse(JSON.stringify([#]))[0]", "(typeof # === 'number' ? # : 0)", "(void 0, #)",
    "(x => { try { return x } finally { } })(#)", "({ v: # })?.v", "[[#]]?.[0]?.[0]",
    "(async () => #, #)", "eval('(' + # + ')')",
]
STMT_WRAPPERS = [
    "{ # }", "if (1) { # } else { }", "if (0) { } else { # }", "do { # } while (0);",
    "for (let i = 0; i < 1; i++) { # }", "for (const k of [0]) { # }", "for (const k in { a: 0 }) { # }",
    "L: { # }", "try { # } finally { }", "try { # } catch (e) { throw e }", "switch (1) { case 1: # }",
    "while (true) { # break; }", "(() => { # })();", "(function () { # }).call(this);",
]

def expr(r, depth):
    e = r.choice(["1", "2.5", "-0", "0x10", "1e3", "'7' * 1", "[1, 2].length", "(3n ? 3 : 0)"])
    for _ in range(depth):
        w = r.choice(EXPR_WRAPPERS)
        # Wrappers that repeat the hole double the size: use them only near the leaf.
        if w.count("#") > 1 and len(e) > 200:
            w = "(#)"
        e = w.replace("#", e)
    return e

def stmt(r, depth, inner):
    s = inner
    for i in range(depth):
        s = r.choice(STMT_WRAPPERS).replace("L: ", f"L{i}: ").replace("#", s)
    return s

RUNTIME = [
    "var a = [1]; for (var i = 0; i < {n}; i++) a = [a]; out.push(a.flat(Infinity).length);",
    "var a = []; for (var i = 0; i < {n}; i++) a = [a]; try { out.push(String(a).length) } catch (e) { out.push(e.name) }",
    "var o = {}; for (var i = 0; i < {n}; i++) o = { o }; try { out.push(JSON.stringify(o).length) } catch (e) { out.push(e.name) }",
    "try { out.push(JSON.stringify(JSON.parse('['.repeat({n}) + ']'.repeat({n}), (k, v) => v)).length) } catch (e) { out.push(e.name) }",
    "var f = (x) => x; for (var i = 0; i < {n}; i++) f = f.bind(null); try { out.push(f(5)) } catch (e) { out.push(e.name) }",
    "var p = { v: 3 }; for (var i = 0; i < {n}; i++) p = new Proxy(p, {}); try { out.push(p.v) } catch (e) { out.push(e.name) }",
    "var d = 0; try { [3, 1, 2].sort(function c(x, y) { if (d++ < {n}) [2, 1].sort(c); return x - y }); out.push(d) } catch (e) { out.push(e.name) }",
]

def program(r):
    depth = r.choice([1, 2, 5, 10, 30, 100, 300, 1000, 3000]) if r.random() < 0.8 else r.randint(1, 12000)
    lines = ["var out = [];"]
    for _ in range(r.randint(1, 4)):
        d = max(1, depth // r.randint(1, 4))
        e = expr(r, min(d, 400) if r.random() < 0.7 else d)
        body = stmt(r, r.randint(0, min(d, 2000)), f"out.push(String({e}));")
        lines.append(f"try {{ {body} }} catch (e) {{ out.push(e.name) }}")
    for t in r.sample(RUNTIME, r.randint(1, 3)):
        lines.append(t.replace("{n}", str(r.choice([10, 1000, 5000, depth]))))
    lines.append("console.log(out.join(' '));")
    return "\n".join(lines)

def run(jsrun, extra, src, timeout):
    try:
        p = subprocess.run([jsrun] + extra + ["-"], input=src.encode(), capture_output=True, timeout=timeout)
        return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return "timeout", "", ""

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jsrun", default=os.path.join(os.path.dirname(__file__), "../../.build/release/jsrun"))
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--keep", default=os.path.join(os.path.dirname(__file__), "out/deep-gen"))
    ap.add_argument("--timeout", type=float, default=120)
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else random.randrange(1 << 30)
    end = time.time() + a.seconds
    n = bad = 0
    while time.time() < end:
        r = random.Random(seed + n)
        src = program(r)
        results = [run(a.jsrun, x, src, a.timeout) for x in ([], ["--gc-stress"], ["--jit=eager"])]
        n += 1
        crashed = [x for x in results if x[0] not in (0, 1, "timeout")]
        outs = {x[1] for x in results if x[0] != "timeout"}
        if crashed or len(outs) > 1:
            bad += 1
            os.makedirs(a.keep, exist_ok=True)
            path = os.path.join(a.keep, f"found-{seed + n - 1}.js")
            with open(path, "w") as f:
                f.write(src)
            with open(path + ".out", "w") as f:
                for name, x in zip(["interpreter", "--gc-stress", "--jit=eager"], results):
                    f.write(f"== {name}: {x[0]}\n{x[1]}{x[2][-2000:]}\n")
            print(f"program {seed + n - 1}: {'crash' if crashed else 'outputs differ'}: {path}", flush=True)
    print(f"deep-gen: {n} programs (seed {seed}), {bad} failing")
    sys.exit(1 if bad else 0)

if __name__ == "__main__":
    main()
