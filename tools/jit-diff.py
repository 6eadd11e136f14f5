#!/usr/bin/env python3
"""Differential check of the baseline JIT against the interpreter on test262 files.

Each selected test262 test (scripts only: no modules, no async, no negative tests, no
raw tests) is run as one script (harness assert.js + sta.js + its includes + the test)
through `jsrun --jit=off` and `jsrun --jit=eager` (the locked worker, where the JIT runs);
stdout, stderr and the exit status must be identical. Prints the differences and a
summary; exits 1 when any test differs.

Usage: tools/jit-diff.py [--jsrun PATH] [--root ../shared/test262] [--jobs 2]
                         [--limit N] [--shard K/N] [PATH-PREFIX ...]
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

FRONTMATTER = re.compile(r"/\*---(.*?)---\*/", re.S)


def meta(text):
    m = FRONTMATTER.search(text)
    if not m:
        return None
    body = m.group(1)
    flags = re.search(r"flags:\s*\[(.*?)\]", body)
    includes = re.search(r"includes:\s*\[(.*?)\]", body, re.S)
    inc_list = re.findall(r"^\s*-\s*(\S+)", body.split("includes:")[1], re.M) if "includes:" in body and not includes else []
    return {
        "flags": [f.strip() for f in flags.group(1).split(",")] if flags else [],
        "includes": ([i.strip() for i in includes.group(1).split(",") if i.strip()] if includes else inc_list),
        "negative": "negative:" in body,
        "features": body,
    }


def run(jsrun, mode, source):
    p = subprocess.run([jsrun, f"--jit={mode}", "--timeout=20", "-"], input=source,
                       capture_output=True)
    return p.returncode, p.stdout, p.stderr


def check(args, path):
    text = open(path, encoding="utf-8", errors="replace").read()
    m = meta(text)
    if m is None or m["negative"] or {"module", "async", "raw", "CanBlockIsTrue"} & set(m["flags"]):
        return None
    harness = os.path.join(args.root, "harness")
    parts = []
    for name in ["assert.js", "sta.js"] + m["includes"]:
        try:
            parts.append(open(os.path.join(harness, name), encoding="utf-8").read())
        except OSError:
            return None
    strict = "onlyStrict" in m["flags"]
    source = ("'use strict';\n" if strict else "") + "\n".join(parts) + "\n" + text
    data = source.encode()
    off = run(args.jsrun, "off", data)
    eager = run(args.jsrun, "eager", data)
    return (path, off, eager)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jsrun", default=".build/release/jsrun")
    ap.add_argument("--root", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "test262"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--shard", default="1/1")
    ap.add_argument("prefixes", nargs="*", default=["test/language", "test/built-ins"])
    args = ap.parse_args()
    k, n = (int(x) for x in args.shard.split("/"))
    files = []
    for prefix in args.prefixes:
        base = os.path.join(args.root, prefix)
        for d, _, names in os.walk(base):
            for name in names:
                if name.endswith(".js") and "_FIXTURE" not in name:
                    files.append(os.path.join(d, name))
    files.sort()
    files = [f for i, f in enumerate(files) if i % n == k - 1]
    if args.limit:
        files = files[: args.limit]
    tried = differ = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for result in pool.map(lambda f: check(args, f), files):
            if result is None:
                continue
            tried += 1
            path, off, eager = result
            if off != eager:
                differ += 1
                rel = os.path.relpath(path, args.root)
                print(f"DIFF {rel}: off status {off[0]}, eager status {eager[0]}")
                for label, r in (("off", off), ("eager", eager)):
                    print(f"  {label}: {(r[1] + r[2]).decode(errors='replace').strip()[:300]}")
    print(f"jit-diff: {tried} tests run both ways, {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
