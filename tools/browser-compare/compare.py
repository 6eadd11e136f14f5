"""Sable next to Chromium headless, in one run (issue 11): navigate -> load of a local page of
1 MB of HTML (WebDriver's navigate, which answers once the page has loaded), start-up to a
first rendered page (the one-shot screenshot commands, from exec to the PNG written), and the
memory of every process of each browser (RSS and PSS from /proc/PID/smaps_rollup), idle with
one tab and with 10 tabs. tools/browser-compare.sh sets up the venv and runs this.

Usage: compare.py SABLE CHROMIUM CHROMEDRIVER [--runs N]"""

import http.server
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.options import ArgOptions

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'browser-e2e'))
from e2e import PageHandler, free_port, wait_for_port  # noqa: E402

SABLE, CHROMIUM, CHROMEDRIVER = sys.argv[1:4]
RUNS = int(sys.argv[sys.argv.index('--runs') + 1]) if '--runs' in sys.argv else 7
WORK = tempfile.mkdtemp(prefix='sable-compare-')


def big_page():
    """About 1 MB of ordinary HTML: headings, paragraphs with inline markup, lists, links."""
    parts = ['<!doctype html><html><head><title>One megabyte</title><style>p { margin: 8px 0 } .n { color: #555 }</style>'
             '</head><body><h1>One megabyte of HTML</h1>']
    i = 0
    while sum(len(p) for p in parts) < 1_000_000:
        parts.append(f'<h2>Section {i}</h2><p class="n">Paragraph {i}: the quick brown fox jumps over the lazy dog, '
                     f'<b>bold words</b>, <i>italic words</i> and <a href="#s{i}">a link</a> in a line of ordinary text '
                     f'that wraps in the viewport.</p><ul><li>first item {i}</li><li>second item</li><li>third item</li></ul>')
        i += 1
    parts.append('</body></html>')
    return ''.join(parts).encode()


SMALL = (b'<!doctype html><title>Small</title><body><h1>Hello</h1><p>A small page with a '
         b'<a href="/big.html">link</a>.</p><div style="background-color:#ff0000;width:100px">box</div>')
PAGES = {'/big.html': big_page(), '/small.html': SMALL}


class Handler(PageHandler):
    protocol_version = 'HTTP/1.1'

    def do_GET(self):
        body = PAGES.get(self.path.split('?')[0])
        if body is None:
            self.send_error(404)
            return
        self.send_html(body, headers=[('Cache-Control', 'no-store')])


def descendants(pid):
    """pid and every process below it."""
    parents = {}
    for d in os.listdir('/proc'):
        if d.isdigit():
            try:
                with open(f'/proc/{d}/stat') as f:
                    parents[int(d)] = int(f.read().rsplit(')', 1)[1].split()[1])
            except OSError:
                pass
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo += [c for c, pp in parents.items() if pp == p]
    return out


def memory(pid):
    """(RSS, PSS) in MB from smaps_rollup."""
    fields = {}
    try:
        with open(f'/proc/{pid}/smaps_rollup') as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 2 and parts[0].endswith(':') and parts[1].isdigit():
                    fields[parts[0][:-1]] = int(parts[1])
    except OSError:
        return None
    return fields.get('Rss', 0) / 1024, fields.get('Pss', 0) / 1024


def role(pid):
    try:
        with open(f'/proc/{pid}/cmdline', 'rb') as f:
            args = [a for a in f.read().decode(errors='replace').split('\0') if a]
    except OSError:
        return '?'
    if len(args) == 1:
        args = args[0].split(' ')  # Chromium's children rewrite their command line as one string
    name = os.path.basename(args[0]) if args else '?'
    if '--role' in args:
        return 'sable ' + args[args.index('--role') + 1]
    if name.startswith('sable'):
        return 'sable host'
    for a in args:
        if a.startswith('--utility-sub-type='):
            return 'chromium utility ' + a.split('=', 1)[1].split('.')[0]
    for a in args:
        if a.startswith('--type='):
            return 'chromium ' + a.split('=', 1)[1]
    if 'chromedriver' in name:
        return 'chromedriver'
    return 'chromium browser' if 'chrom' in name else name


def table(pid, skip=()):
    rows = []
    for p in sorted(descendants(pid)):
        r = role(p)
        if r in skip or r in ('chromium crashpad-handler',) or 'crashpad' in r:
            continue
        m = memory(p)
        if m:
            rows.append((r, p, m[0], m[1]))
    return rows


def report_memory(title, rows):
    print(f'  {title}: {len(rows)} processes, RSS {sum(r[2] for r in rows):.0f} MB, PSS {sum(r[3] for r in rows):.0f} MB')
    for r, p, rss, pss in rows:
        print(f'    {r:34s} pid {p:7d}  RSS {rss:6.1f} MB  PSS {pss:6.1f} MB')


def median_ms(values):
    return f'{statistics.median(values) * 1000:7.1f} ms (min {min(values) * 1000:.1f}, max {max(values) * 1000:.1f}, n={len(values)})'


def sable_driver():
    port = free_port()
    process = subprocess.Popen([SABLE, '--headless', f'--webdriver={port}', f'--profile={WORK}/sable-profile'],
                               stderr=open(f'{WORK}/sable.log', 'w'))
    wait_for_port(port, seconds=30, poll=0.02)
    options = ArgOptions()
    options.set_capability('browserName', 'sable')
    return webdriver.Remote(command_executor=f'http://127.0.0.1:{port}', options=options), process.pid, process


def chromium_driver():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for a in ['--headless=new', '--no-sandbox', '--disable-gpu', '--window-size=800,600', '--no-first-run',
              '--disable-extensions', f'--user-data-dir={WORK}/chromium-profile-{time.time()}']:
        options.add_argument(a)
    service = Service(CHROMEDRIVER, log_output=f'{WORK}/chromedriver.log')
    driver = webdriver.Chrome(options=options, service=service)
    return driver, service.process.pid, None


def measure(name, make, site):
    print(f'\n{name}')
    driver, root, process = make()
    try:
        driver.get(f'{site}/small.html')
        time.sleep(3)
        skip = ('chromedriver',)
        report_memory('idle, one tab (a small page)', table(root, skip))
        first = driver.current_window_handle
        for _ in range(9):
            driver.switch_to.new_window('tab')
            driver.get(f'{site}/small.html')
        time.sleep(3)
        report_memory(f'10 tabs (a small page each; {len(driver.window_handles)} handles)', table(root, skip))
        for handle in driver.window_handles:
            if handle != first:
                driver.switch_to.window(handle)
                driver.close()
        driver.switch_to.window(first)
        # navigate -> load of the 1 MB page (the first load warms the server and caches up).
        driver.get(f'{site}/big.html?warm')
        times = []
        for i in range(RUNS):
            driver.get(f'{site}/small.html')
            start = time.perf_counter()
            driver.get(f'{site}/big.html?{i}')
            times.append(time.perf_counter() - start)
        title = driver.title
        print(f'  navigate -> load, 1 MB page ({len(PAGES["/big.html"]):,} bytes; title {title!r}): {median_ms(times)}')
        time.sleep(2)
        report_memory(f'after it, one tab (the 1 MB page loaded and left {RUNS + 1} times)', table(root, skip))
    finally:
        driver.quit()
        if process:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
    return times


def startup(name, argv_for):
    times = []
    for i in range(RUNS):
        out = f'{WORK}/{name}-{i}.png'
        start = time.perf_counter()
        subprocess.run(argv_for(out), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
        elapsed = time.perf_counter() - start
        if os.path.exists(out) and os.path.getsize(out) > 0:
            times.append(elapsed)
    print(f'  {name}: start-up to a first rendered page (exec -> PNG written, small page): '
          + (median_ms(times) if times else 'FAILED'))


def main():
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    site = f'http://127.0.0.1:{server.server_address[1]}'
    version = subprocess.run([CHROMIUM, '--version'], capture_output=True, text=True).stdout.strip()
    print(f'Sable ({SABLE}) and {version}, headless, viewport 800x600, {os.cpu_count()} cores, load '
          f'{os.getloadavg()[0]:.2f}; medians of {RUNS} runs')
    try:
        print('\nStart-up')
        startup('sable', lambda out: [SABLE, '--headless', '--screenshot', out, f'{site}/small.html'])
        startup('chromium', lambda out: [CHROMIUM, '--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run',
                                         '--window-size=800,600', f'--user-data-dir={WORK}/chromium-shot', f'--screenshot={out}',
                                         f'{site}/small.html'])
        measure('Sable (sable --headless --webdriver)', sable_driver, site)
        measure('Chromium (chromedriver, --headless=new)', chromium_driver, site)
    finally:
        server.shutdown()
        shutil.rmtree(WORK, ignore_errors=True)


if __name__ == '__main__':
    main()
