#!/usr/bin/env python3
"""adblock-rust (PyPI `adblock`) on the same requests, for comparison with sable-contentblock.

Usage: tools/contentblock/adblock-rust-bench.py DATA_DIR   (DATA_DIR = ../shared/contentblock)
Loads EasyList + EasyPrivacy (ABP format, abp/), decides every row of requests.tsv and prints
median / p99 decision time (time.perf_counter_ns around Engine.check_network_urls; the
Python call overhead is measured and reported separately) and the number blocked.
"""
import os, statistics, sys, time
import adblock

data = sys.argv[1] if len(sys.argv) > 1 else "../shared/contentblock"
rules = []
for name in ("easylist.txt", "easyprivacy.txt"):
    with open(os.path.join(data, "abp", name), encoding="utf-8") as f:
        rules.extend(f.read().splitlines())
t0 = time.perf_counter()
fs = adblock.FilterSet()
fs.add_filters(rules)
engine = adblock.Engine(filter_set=fs, optimize=True)
load = time.perf_counter() - t0

TYPES = {"top-document": "document", "child-document": "subdocument", "image": "image", "style-sheet": "stylesheet",
         "script": "script", "font": "font", "media": "media", "fetch": "xmlhttprequest", "websocket": "websocket",
         "other": "other", "ping": "ping", "popup": "popup"}
rows = []
with open(os.path.join(data, "requests.tsv"), encoding="utf-8") as f:
    next(f)
    for line in f:
        parts = line.rstrip("\n").split("\t")
        if len(parts) >= 3:
            rows.append((parts[0], parts[2], TYPES.get(parts[1], "other")))
for url, src, typ in rows:  # warm-up
    engine.check_network_urls(url, src, typ)
times, blocked = [], 0
for url, src, typ in rows:
    a = time.perf_counter_ns()
    r = engine.check_network_urls(url, src, typ)
    b = time.perf_counter_ns()
    times.append(b - a)
    blocked += bool(r.matched and not r.exception)
overhead = []
noop = lambda *a: None
for url, src, typ in rows[:2000]:
    a = time.perf_counter_ns(); noop(url, src, typ); b = time.perf_counter_ns(); overhead.append(b - a)
times.sort()
print("adblock-rust %s: %d requests, blocked %d" % (getattr(adblock, "__version__", "?"), len(rows), blocked))
print("decision time (µs): median %.3f, p99 %.3f, mean %.3f (Python call overhead about %.3f µs, included)" % (
    times[len(times) // 2] / 1000, times[int(len(times) * 0.99)] / 1000, statistics.mean(times) / 1000,
    sorted(overhead)[len(overhead) // 2] / 1000))
print("engine build: %.3f s" % load)
