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
if command -v perf >/dev/null; then
    for i in 1 2 3; do
        perf record -q -e page-faults -c 1 -d -o "$T/pf$i.data" -- "$JSRUN" -e "$SCRIPT" >/dev/null 2>&1 || true
        perf script --no-demangle -i "$T/pf$i.data" -F pid,addr,ip,sym 2>/dev/null >> "$T/faults.txt" || true
    done
fi
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
order = [f for f in order if f not in blob] + [f for f in order if f in blob]
open(out, 'w').write('\n'.join(order) + '\n')
print(f'{out}: {len(order)} functions ({len(parent)} in the supervisor, {len(worker)} in the worker)')
EOF
# Second pass: what the real, locked worker faults in that the traces missed (relinks and
# measures until nothing new shows up; see the script).
if command -v perf >/dev/null && [ "$JSRUN" = .build/release/jsrun ]; then
    python3 tools/startup-order-refine.py
fi
