#!/usr/bin/env python3
"""Refines Sources/jsrun/startup.order against the real, locked-down worker (issue 16).

The first pass (tools/startup-order.sh) traces jsrun under callgrind, which cannot follow the
worker past its seccomp policy, and `perf record -e page-faults` sees only the first fault in
each 64 KiB window (the kernel maps the rest of the window with it: "fault-around"), so
functions the real worker runs are missing from the list, and each one left out keeps a
whole window of text resident. This pass closes the gap: it relinks jsrun with the current
list (SwiftPM's own link command, from .build/release.yaml, into a temporary file), records
the text page faults of `jsrun -e SCRIPT` for a few small scripts and of `jsrun FILE` for the
files given (supervisor and worker), adds every function that
faulted outside the ordered part, and repeats until no new function shows up.

    tools/startup-order-refine.py [--rounds N] [--script JS]...

Needs a release build (`swift build -c release --product jsrun`), perf and nm.
"""
import argparse
import bisect
import json
import os
import re
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORDER = os.path.join(REPO, 'Sources', 'jsrun', 'startup.order')
WINDOW = 1 << 16
# What start-up and small programs run: nothing, a little of everything, and a function and a
# loop hot enough for the baseline JIT (its compiler and stubs).
SCRIPTS = [
    '',
    'var o = {a: 1, b: [1, 2, 3]}; print(JSON.stringify(o) + String(o.b.map(x => x * 2)))',
    'function f(n) { return n < 2 ? n : f(n - 1) + f(n - 2) } var s = 0; '
    'for (var i = 0; i < 5000; i++) s += i % 7; print(f(18) + s)',
]


def link_command():
    text = open(os.path.join(REPO, '.build', 'release.yaml')).read()
    i = text.find('"C.jsrun-x86_64-unknown-linux-gnu-release.exe"')
    if i < 0:
        sys.exit('startup-order-refine: no jsrun link step in .build/release.yaml (build jsrun in release first)')
    m = re.search(r'args: (\[.*?\])\n', text[i:])
    return json.loads(m.group(1))


def relink(args, order, binary):
    out = []
    for a in args:
        if a.endswith('/release/jsrun') and not a.startswith('-'):
            a = binary
        elif a.startswith('--symbol-ordering-file='):
            a = '--symbol-ordering-file=' + order
        out.append(a)
    r = subprocess.run(out, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit('startup-order-refine: link failed:\n' + r.stderr[-3000:])


def symbols(binary):
    """(start, size, name) of every function symbol, sorted; and the address of _start."""
    syms, start = [], None
    for line in subprocess.run(['nm', '-n', '-S', '--defined-only', binary], capture_output=True, text=True).stdout.splitlines():
        p = line.split()
        if len(p) == 4 and p[2] in 'tTwW':
            syms.append((int(p[0], 16), int(p[1], 16), p[3]))
            if p[3] == '_start':
                start = int(p[0], 16)
    syms.sort()
    return syms, start


def text_faults(binary, script, data):
    """Addresses of the instruction fetches that faulted (supervisor and worker), in order.
    `script` is source text, or ('file', PATH) for a script file."""
    run = [binary, script[1]] if isinstance(script, tuple) else [binary, '-e', script]
    subprocess.run(['perf', 'record', '-q', '-e', 'page-faults', '-c', '1', '-d', '-o', data, '--'] + run,
                   capture_output=True)
    out = subprocess.run(['perf', 'script', '-i', data, '-F', 'addr,ip'], capture_output=True, text=True).stdout
    rows = []
    for line in out.splitlines():
        p = line.split()
        if len(p) == 2:
            a, ip = int(p[0], 16), int(p[1], 16)
            if a == ip:
                rows.append(a)
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--rounds', type=int, default=40)
    ap.add_argument('--script', action='append', help='a script to run (repeatable; default: an empty one, '
                    'a small one and one hot enough for the JIT)')
    ap.add_argument('--file', action='append', default=[],
                    help='a script file to run as well (repeatable; tools/startup-order.sh passes the '
                    'reduced bench scripts)')
    opts = ap.parse_args()
    scripts = (opts.script or SCRIPTS) + [('file', f) for f in opts.file]
    args = link_command()
    order = [l.strip() for l in open(ORDER) if l.strip()]
    tmp = tempfile.mkdtemp()
    binary, order_file, data = os.path.join(tmp, 'jsrun'), os.path.join(tmp, 'order'), os.path.join(tmp, 'pf.data')
    added_total = 0
    for rnd in range(opts.rounds):
        open(order_file, 'w').write('\n'.join(order) + '\n')
        relink(args, order_file, binary)
        syms, start = symbols(binary)
        starts = [s[0] for s in syms]
        known = set(order)
        added, windows = [], set()
        rels = []
        for i, script in enumerate(scripts):
            faults = text_faults(binary, script, data)
            if not faults or start is None:
                sys.exit('startup-order-refine: perf recorded no text faults (is perf allowed here?)')
            # The first text fault is the supervisor's `_start`: it gives the load address.
            base = faults[0] - start
            rels += [(i, a - base) for a in faults]
        for i, rel in rels:
            k = bisect.bisect_right(starts, rel) - 1
            if k < 0:
                continue
            s, size, name = syms[k]
            windows.add((i, rel // WINDOW))
            if rel < s + max(size, 1) and name not in known:
                known.add(name)
                added.append(name)
        print(f'round {rnd + 1}: {len(windows)} text windows faulted over {len(scripts)} runs, {len(added)} functions added: {" ".join(added[:6])}{" ..." if len(added) > 6 else ""}')
        if not added:
            break
        # After the list: right behind the ordered part (whose end is the Swift standard
        # library's one large `.text`, which the first pass put last).
        order = order + added
        added_total += len(added)
    open(ORDER, 'w').write('\n'.join(order) + '\n')
    print(f'{ORDER}: {len(order)} functions ({added_total} added by refinement)')


if __name__ == '__main__':
    main()
