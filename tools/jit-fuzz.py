#!/usr/bin/env python3
"""Differential fuzzer of the baseline JIT: random programs run with `jsrun --jit=off` and
with the JIT, `--jit=eager` for even seeds (compiled before their caches fill: the generic
paths) and `--jit=warm` for odd ones (compiled at the second call: the paths the caches
guide, known callees and global bindings); their output (and exit status) must be identical.

The generator writes programs that exercise what the JIT compiles inline and the edges of
its fast paths: int32 arithmetic at the overflow boundaries, doubles, -0, NaN, mixed types
(strings, null, undefined, booleans, objects) in arithmetic, comparisons and equality;
objects whose shapes change (property additions, deletions, prototype changes that move
the prototype epoch), getters and setters; arrays with holes, out-of-range and negative
indices; closures and captured variables (TDZ); global var/let/const; loops with breaks;
exceptions thrown from inside loops and caught; calls and recursion. Every value computed
is folded into a printed transcript.

Usage: tools/jit-fuzz.py [--jsrun PATH] [--seconds N] [--seed S] [--jobs 2] [--keep DIR]
A program whose outputs differ is written to DIR (default Tests/Scripts/jit-fuzz/) as
found-SEED.js, with both outputs, and the run exits 1.
"""
import argparse
import concurrent.futures
import os
import random
import subprocess
import sys
import time

INTERESTING_NUMBERS = ["0", "-0", "1", "-1", "2", "3", "7", "31", "32", "33", "255", "1024",
                       "2147483647", "-2147483648", "2147483646", "-2147483647", "4294967295",
                       "0.5", "-0.5", "1.5", "3.14159", "1e21", "-1e-7", "NaN", "Infinity",
                       "-Infinity", "65536", "46341", "-46341"]
OTHER_VALUES = ["null", "undefined", "true", "false", "''", "'1'", "'abc'", "'-0'", "[]",
                "[1]", "({})", "({ valueOf() { return 3 } })", "'12'", "' '"]
BINARY = ["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", ">>>", "**"]
COMPARE = ["<", "<=", ">", ">=", "==", "!=", "===", "!=="]


class Gen:
    def __init__(self, rng):
        self.r = rng
        self.vars = []
        self.depth = 0
        self.fresh = 0

    def name(self, prefix="v"):
        self.fresh += 1
        return f"{prefix}{self.fresh}"

    def literal(self):
        r = self.r.random()
        if r < 0.6:
            return self.r.choice(INTERESTING_NUMBERS)
        if r < 0.8:
            return str(self.r.randint(-100, 100))
        return self.r.choice(OTHER_VALUES)

    def expr(self, depth=0):
        r = self.r.random()
        if depth > 3 or r < 0.25:
            if self.vars and self.r.random() < 0.7:
                return self.r.choice(self.vars)
            return self.literal()
        if r < 0.5:
            return f"({self.expr(depth + 1)} {self.r.choice(BINARY)} {self.expr(depth + 1)})"
        if r < 0.62:
            return f"({self.expr(depth + 1)} {self.r.choice(COMPARE)} {self.expr(depth + 1)})"
        if r < 0.68:
            return f"(!{self.expr(depth + 1)})"
        if r < 0.72:
            return f"(-{self.expr(depth + 1)})"
        if r < 0.76:
            return f"({self.expr(depth + 1)} ? {self.expr(depth + 1)} : {self.expr(depth + 1)})"
        if r < 0.82:
            return f"o.{self.r.choice('abcxyz')}"
        if r < 0.88:
            return f"arr[{self.expr(depth + 1)} | 0]"
        if r < 0.92:
            return f"f{self.r.randint(0, 2)}({self.expr(depth + 1)}, {self.expr(depth + 1)})"
        if r < 0.95:
            return f"typeof {self.expr(depth + 1)}"
        return f"(+{self.expr(depth + 1)})"

    def statement(self, indent):
        pad = "    " * indent
        r = self.r.random()
        if r < 0.25 or not self.vars:
            v = self.name()
            kind = self.r.choice(["var", "let", "const"])
            line = f"{pad}{kind} {v} = {self.expr()};\n"
            self.vars.append(v)
            return line + f"{pad}out({v});\n"
        if r < 0.4:
            v = self.r.choice(self.vars)
            return f"{pad}try {{ {v} = {self.expr()}; }} catch (e) {{ out(e.name); }}\n{pad}out({v});\n"
        if r < 0.5:
            return f"{pad}o.{self.r.choice('abcxyz')} = {self.expr()};\n{pad}out(o.a, o.b, o.x);\n"
        if r < 0.56:
            return f"{pad}arr[{self.r.randint(-2, 12)}] = {self.expr()};\n{pad}out(arr.length, arr[3]);\n"
        if r < 0.6:
            return f"{pad}delete o.{self.r.choice('abcxyz')};\n"
        if r < 0.63:
            return f"{pad}Object.defineProperty(P, '{self.r.choice('abxq')}', {{ get() {{ return {self.literal()} }}, configurable: true }});\n"
        if r < 0.66:
            return f"{pad}P.{self.r.choice('abxq')} = {self.expr()};\n"
        if r < 0.8 and self.depth < 2:
            self.depth += 1
            i = self.name("i")
            n = self.r.choice(["3", "10", "50", "200"])
            outer = len(self.vars)
            acc = self.r.choice(self.vars)
            body = "".join(self.statement(indent + 1) for _ in range(self.r.randint(1, 4)))
            del self.vars[outer:]   # the body's declarations are block-scoped
            extra = ""
            if self.r.random() < 0.3:
                extra = f"{pad}    if ({i} === {self.r.randint(0, 60)}) break;\n"
            if self.r.random() < 0.2:
                extra += f"{pad}    if ({i} === {self.r.randint(0, 60)}) throw new RangeError('at ' + {i});\n"
            self.depth -= 1
            loop = (f"{pad}try {{\n{pad}for (let {i} = 0; {i} < {n}; {i}++) {{\n{body}{extra}"
                    f"{pad}    acc = (acc + (typeof {acc} === 'number' ? {acc} : 1)) | 0;\n{pad}}}\n"
                    f"{pad}}} catch (e) {{ out('caught', e.message); }}\n{pad}out('acc', acc);\n")
            return loop
        if r < 0.88:
            return f"{pad}out({self.expr()});\n"
        if r < 0.94:
            return f"{pad}while (w < {self.r.randint(1, 40)}) {{ w = (w + {self.r.choice(['1', '2', '1.5', '0.25'])}); }}\n{pad}out(w);\n"
        return f"{pad}out(rec({self.r.randint(0, 18)}));\n"

    def program(self):
        head = """'use strict';
var transcript = [];
function out(...xs) { for (const x of xs) transcript.push(typeof x === 'number' && Object.is(x, -0) ? '-0' : String(x)); }
function P() {}
const o = Object.create(P.prototype);
o.a = 1; o.b = 'two';
var arr = [1, 2, , 4, 5.5, 'six'];
var acc = 0, w = 0;
function f0(a, b) { return a + b }
function f1(a, b) { return a < b ? a * 2 : b - 1 }
function f2(a, b) { let t = 0; for (let k = 0; k < 5; k++) t += (a | 0) ^ k; return t + (b === undefined) }
function rec(n) { return n <= 1 ? 1 : rec(n - 1) + rec(n - 2) }
"""
        P = "P.prototype"
        body = "".join(self.statement(0) for _ in range(self.r.randint(8, 25)))
        body = body.replace("P.", f"{P}.").replace("(P,", f"({P},")
        tail = "console.log(transcript.join(','));\n"
        return head + body + tail


def run(jsrun, mode, source, timeout=20):
    p = subprocess.run([jsrun, f"--jit={mode}", f"--timeout={timeout}", "-"], input=source.encode(),
                       capture_output=True)
    return p.returncode, p.stdout, p.stderr


TIMED_OUT = 124


def jit_mode(seed):
    return "eager" if seed % 2 == 0 else "warm"


def trial(args, seed):
    prog = Gen(random.Random(seed)).program()
    off = run(args.jsrun, "off", prog)
    eager = run(args.jsrun, jit_mode(seed), prog)
    if TIMED_OUT in (off[0], eager[0]) and off != eager:
        # A loaded machine: give both runs time before calling it a difference.
        off = run(args.jsrun, "off", prog, timeout=300)
        eager = run(args.jsrun, jit_mode(seed), prog, timeout=300)
    return seed, prog, off, eager


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jsrun", default=".build/release/jsrun")
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--seed", type=int, default=int(time.time()))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep", default=os.path.join(os.path.dirname(__file__), "..", "Tests", "Scripts", "jit-fuzz"))
    args = ap.parse_args()
    end = time.time() + args.seconds
    tried = found = 0
    seed = args.seed
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        while time.time() < end:
            batch = [pool.submit(trial, args, seed + i) for i in range(args.jobs * 4)]
            seed += args.jobs * 4
            for f in batch:
                s, prog, off, eager = f.result()
                tried += 1
                if off != eager:
                    found += 1
                    os.makedirs(args.keep, exist_ok=True)
                    path = os.path.join(args.keep, f"found-{s}.js")
                    with open(path, "w") as fh:
                        fh.write(prog)
                        fh.write(f"\n// --jit=off:   status {off[0]}: {(off[1] + off[2]).decode(errors='replace')[:2000]!r}\n")
                        fh.write(f"// --jit={jit_mode(s)}: status {eager[0]}: {(eager[1] + eager[2]).decode(errors='replace')[:2000]!r}\n")
                    print(f"DIFF seed {s}: {path}", flush=True)
    print(f"jit-fuzz: {tried} programs, {found} differ (seeds {args.seed}..{seed - 1})")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
