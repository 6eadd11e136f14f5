#!/usr/bin/env python3
"""Start-up of jsrun binaries side by side (issue 16): `BINARY -e ''` run N times each,
interleaved (A B B A A B ...), so that a shared, noisy machine slows them alike.

    tools/startup-compare.py [--runs 300] [--rss 15] BINARY [BINARY...]

Prints per binary the median and first quartile of the wall time, the median CPU time of
the whole process tree (jsrun and its worker, from wait4's rusage), and with --rss the median
peak RSS of jsrun and its worker, the larger (`/usr/bin/time -f %M`: a child of this Python
would start its high-water mark at Python's own ~15 MB). Peak RSS depends on how the
binary's pages sit in the page cache (a file just written by the linker or cp is held in
large folios, and faults map more of it): when run as root the page cache is dropped first
(`echo 3 > /proc/sys/vm/drop_caches`), else copy every binary the same way before comparing.
"""
import argparse
import os
import statistics
import time


def peak_rss(binary):
    r, w = os.pipe()
    pid = os.posix_spawn('/usr/bin/time', ['/usr/bin/time', '-f', '%M', binary, '-e', ''], os.environ,
                         file_actions=[(os.POSIX_SPAWN_DUP2, w, 2), (os.POSIX_SPAWN_CLOSE, r)])
    os.close(w)
    out = os.read(r, 4096).decode()
    os.close(r)
    os.waitpid(pid, 0)
    return int(out.split()[-1])


def run(binary):
    t = time.perf_counter()
    pid = os.posix_spawn(binary, [binary, '-e', ''], os.environ)
    _, status, ru = os.wait4(pid, 0)
    wall = (time.perf_counter() - t) * 1000
    if status != 0:
        raise SystemExit(f'{binary} -e \'\' exited with status {status}')
    return wall, (ru.ru_utime + ru.ru_stime) * 1000


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--runs', type=int, default=300)
    ap.add_argument('--rss', type=int, default=15, help='runs for the peak RSS (0: skip)')
    ap.add_argument('binaries', nargs='+')
    args = ap.parse_args()
    bins = [os.path.abspath(b) for b in args.binaries]
    if args.rss and os.geteuid() == 0:
        try:
            os.sync()
            with open('/proc/sys/vm/drop_caches', 'w') as f:
                f.write('3\n')
        except OSError:
            pass
    rss = {b: [] for b in bins}
    for i in range(args.rss):
        for b in bins:
            rss[b].append(peak_rss(b))
    for b in bins:  # warm-up
        for _ in range(5):
            run(b)
    wall = {b: [] for b in bins}
    cpu = {b: [] for b in bins}
    for i in range(args.runs):
        for b in (bins if i % 2 == 0 else bins[::-1]):
            w, c = run(b)
            wall[b].append(w)
            cpu[b].append(c)
    for b in bins:
        line = (f'{b}: wall median {statistics.median(wall[b]):.2f} ms '
                f'(first quartile {statistics.quantiles(wall[b], n=4)[0]:.2f}), '
                f'CPU median {statistics.median(cpu[b]):.2f} ms')
        if args.rss:
            line += f', peak RSS median {statistics.median(rss[b]):.0f} KB'
        print(line)


if __name__ == '__main__':
    main()
