#!/bin/sh
# Regenerates Sources/jsrun/startup.order: the functions `jsrun` runs while it starts and
# runs a small script, which the linker (lld --symbol-ordering-file, see Package.swift)
# places first in the text, so that start-up faults in a few dense 64 KiB windows of the
# binary instead of pages scattered over all of it (issue 16).
#
#   tools/startup-order.sh [JSRUN]      (default .build/release/jsrun; needs valgrind, perf optional)
#
# How: callgrind traces `jsrun -e ...` (supervisor and worker; valgrind cannot follow the
# worker past its seccomp call, so an in-process `--no-lockdown` run adds the runtime's
# side), and `perf record -e page-faults` adds the functions that fault text in the real,
# locked worker (libc's ifunc variants, which valgrind replaces). Order: functions both
# processes run, then the worker's, then the supervisor's; functions that live in a large
# unsplittable `.text` of a static archive (the Swift standard library's Swift.o) go last,
# so they do not pull that blob into the middle of the dense part. Then
# tools/startup-order-refine.py adds what the locked worker still faults in. The ordering
# works per function because every Swift module is compiled with -function-sections
# (Package.swift); functions without a symbol are grouped by Sources/jsrun/startup.ld. A
# stale list only costs memory, never correctness: names that no longer exist are ignored.
set -eu
cd "$(dirname "$0")/.."
JSRUN=${1:-.build/release/jsrun}
OUT=Sources/jsrun/startup.order
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
command -v valgrind >/dev/null || { echo "startup-order: valgrind is needed" >&2; exit 1; }
# valgrind cannot read the DWARF of Swift 6 binaries: trace a copy without it.
objcopy --strip-debug "$JSRUN" "$T/jsrun"
SCRIPT='var o = {a: 1, b: [1, 2, 3]}; print(JSON.stringify(o) + String(o.b.map(x => x * 2)))'
valgrind --tool=callgrind --demangle=no --callgrind-out-file="$T/lk.%p" "$T/jsrun" -e "$SCRIPT" >/dev/null 2>&1 || true
valgrind --tool=callgrind --demangle=no --callgrind-out-file="$T/nl.%p" "$T/jsrun" --no-lockdown -e "$SCRIPT" >/dev/null 2>&1
# What running real programs adds (the interpreter's slower paths, the builtins they call):
# each bench script, reduced as tools/gc-stress reduces it, traced in process (without the
# JIT, which runs only in the locked worker). These functions follow the start-up ones, the
# most widely used first, so a
# script's text is a few dense windows and not one 64 KiB window per function it calls
# (Richards ran ~210 functions outside the start-up list, 119 KB of code spread over ~40
# windows: 2.5 MB of its peak RSS).
BENCH=${BENCH:-../shared/bench}
[ -d "$BENCH/awfy" ] || BENCH=/work/shared/bench
if [ -d "$BENCH/awfy" ] && [ "${SKIP_BENCH:-0}" != 1 ]; then
    mkdir -p "$T/bench"
    python3 - "$BENCH" "$T/bench" <<'EOF2'
import importlib.machinery, importlib.util, os, sys
bench, out = sys.argv[1], sys.argv[2]
loader = importlib.machinery.SourceFileLoader('gc_stress', os.path.join('tools', 'gc-stress'))
spec = importlib.util.spec_from_loader('gc_stress', loader)
gc_stress = importlib.util.module_from_spec(spec)
loader.exec_module(gc_stress)
for suite in gc_stress.SUITES:
    for name in sorted(os.listdir(os.path.join(bench, suite))):
        if name.endswith('.js'):
            rel = suite + '/' + name
            text, _ = gc_stress.reduce_source(rel, open(os.path.join(bench, rel)).read())
            open(os.path.join(out, suite + '-' + name), 'w').write(text)
EOF2
    for f in "$T"/bench/*.js; do
        n=$(basename "$f" .js)
        timeout 600 valgrind --tool=callgrind --demangle=no \
            --callgrind-out-file="$T/bn.$n" "$T/jsrun" --no-lockdown "$f" >/dev/null 2>&1 || true
    done
fi
if command -v perf >/dev/null; then
    for i in 1 2 3; do
        perf record -q -e page-faults -c 1 -d -o "$T/pf$i.data" -- "$JSRUN" -e "$SCRIPT" >/dev/null 2>&1 || true
        perf script --no-demangle -i "$T/pf$i.data" -F pid,addr,ip,sym 2>/dev/null >> "$T/faults.txt" || true
    done
fi
# The baseline JIT runs only in the locked worker, which valgrind cannot trace: its functions
# (the JSJIT and JSAssembler modules, x86_64 and the shared parts) come after the bench
# scripts' as a block, in their current order. A script that never gets hot never touches
# that block; one that does finds it dense.
nm -n --defined-only "$JSRUN" 2>/dev/null | awk 'NF == 3 && ($2 == "t" || $2 == "T") {print $3}' > "$T/symbols.txt" || true
# Symbols in a plain `.text` over 16 KiB (not one section per function) of the static archives.
static=$(dirname "$(dirname "$(readlink -f "$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)")")")/lib/swift_static/linux
for a in "$static"/*.a; do
    [ -f "$a" ] && readelf -S -s -W "$a" 2>/dev/null
done > "$T/archives.txt" || true
python3 - "$T" "$OUT" <<'EOF'
import glob, re, sys
tmp, out = sys.argv[1], sys.argv[2]

def functions(path):
    """Functions of the traced binary in a callgrind profile, in order of first mention."""
    obs, fns, seen, order = {}, {}, set(), []
    cur_ob = cob = None
    for line in open(path, errors='replace'):
        m = re.match(r'^(c?)(ob|fn)=\((\d+)\)(?: (.*))?$', line.rstrip('\n'))
        if not m:
            continue
        call, kind, ident, name = m.groups()
        if kind == 'ob':
            if name is not None:
                obs[ident] = name
            if call:
                cob = obs[ident]
            else:
                cur_ob = obs[ident]
            continue
        if name is not None:
            fns[ident] = (name, cob if (call and cob) else cur_ob)
        if call:
            cob = None
        fn, ob = fns[ident]
        if ob and ob.endswith('/jsrun') and fn not in seen:
            seen.add(fn)
            order.append(fn)
    return order

traced = sorted(glob.glob(tmp + '/lk.*'), key=lambda p: int(p.rsplit('.', 1)[1]))
parent = functions(traced[0]) if traced else []
worker = []
for p in traced[1:] + glob.glob(tmp + '/nl.*'):
    worker += functions(p)
try:
    for line in open(tmp + '/faults.txt', errors='replace'):
        # pid, address, its symbol, instruction, its function: a fault on the page of the
        # instruction itself is a text fault.
        m = re.match(r'\s*\d+\s+([0-9a-f]+)\s+\S+\s+([0-9a-f]+)\s+(\S+)', line)
        if m and int(m.group(1), 16) >> 12 == int(m.group(2), 16) >> 12 and m.group(3) != '[unknown]':
            worker.append(m.group(3))
except FileNotFoundError:
    pass
worker = list(dict.fromkeys(worker))
in_parent, in_worker = set(parent), set(worker)
order = [f for f in worker if f in in_parent] + [f for f in worker if f not in in_parent] \
        + [f for f in parent if f not in in_worker]

# Symbols of large plain .text sections in the static archives (readelf -S -s output).
blob = set()
sections = {}
for line in open(tmp + '/archives.txt', errors='replace'):
    if line.startswith("File:"):
        sections = {}
        continue
    m = re.match(r'\s*\[\s*(\d+)\]\s+(\S+)\s+\S+\s+[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)', line)
    if m:
        if m.group(1) == '0':
            sections = {}
        sections[m.group(1)] = (m.group(2), int(m.group(3), 16))
        continue
    f = line.split()
    if len(f) == 8 and f[3] == 'FUNC' and f[6] in sections:
        name, size = sections[f[6]]
        if name == '.text' and size > 16384:
            blob.add(f[7])
# The bench scripts' functions, by the number of scripts that run each (then first use).
uses, first = {}, {}
for p in sorted(glob.glob(tmp + '/bn.*')):
    for f in functions(p):
        uses[f] = uses.get(f, 0) + 1
        first.setdefault(f, len(first))
in_order = set(order)
common = sorted((f for f in uses if f not in in_order), key=lambda f: (-uses[f], first[f]))
in_order.update(common)
def jit_function(f):
    """The JIT's modules, their specializations of generic code, and what of the runtime only
    the JIT calls: JIT* types, and the getters of the addresses compiled code embeds."""
    if 'Arm64' in f or 'ARM64' in f:
        return False
    if 'JSAssembler' in f or '5JSJIT' in f:
        return True
    return f.startswith('$s9JSRuntime') and ('JIT' in f or re.search(r'Address(SV|Sv)vg', f) is not None)
jit = [f for f in dict.fromkeys(l.strip() for l in open(tmp + '/symbols.txt'))
       if jit_function(f) and f not in in_order]
order = [f for f in order if f not in blob] + [f for f in common if f not in blob] + jit \
        + [f for f in order + common if f in blob]
open(out, 'w').write('\n'.join(order) + '\n')
print(f'{out}: {len(order)} functions ({len(parent)} in the supervisor, {len(worker)} in the worker, {len(common)} more in the bench scripts, {len(jit)} of the JIT)')
EOF
# Second pass: what the real, locked worker faults in that the traces missed (relinks and
# measures until nothing new shows up; see the script).
if command -v perf >/dev/null && [ "$JSRUN" = .build/release/jsrun ]; then
    set --
    for f in "$T"/bench/*.js; do [ -f "$f" ] && set -- "$@" --file "$f"; done
    python3 tools/startup-order-refine.py "$@"
fi
