"""Issue 11's bad input, end to end against sable --headless --webdriver: a 50 MB page, a page
whose script never ends (the tab reports it and can be closed; the other tabs keep working),
(garbage and oversized frames written into each process's socket are BrowserProcessTests').
tools/browser-badinput.sh runs this (not in
CI: the 50 MB page takes ~1 GB and tens of seconds). Prints 'N passed, N failed'."""

import http.server
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.options import ArgOptions

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import check, children, free_port, wait_for_port  # noqa: E402
import e2e  # noqa: E402

SABLE = sys.argv[1]
WORK = tempfile.mkdtemp(prefix='sable-badinput-')


def fifty_mb():
    chunk = ('<div class="row"><p>Row of the fifty megabyte page: <b>bold</b> <i>italic</i> '
             '<a href="#x">a link</a> and some more words to wrap.</p></div>\n')
    n = 50_000_000 // len(chunk)
    return ('<!doctype html><title>Fifty</title><body><h1 id="top">Fifty megabytes</h1>' + chunk * n
            + '<p id="last">the last paragraph</p>').encode()


PAGES = {
    '/ok.html': b'<!doctype html><title>OK</title><p id="p">fine</p>',
    '/loop.html': b'<!doctype html><title>Loop</title><p>never ends</p><script>for (;;) {}</script>',
    '/loop-later.html': (b'<!doctype html><title>Later</title><p id="p">a timer that never ends</p>'
                         b'<script>setTimeout(function () { for (;;) {} }, 10)</script>'),
}


class Handler(e2e.PageHandler):
    protocol_version = 'HTTP/1.1'

    def do_GET(self):
        if self.path == '/fifty.html':
            body = PAGES.setdefault('/fifty.html', fifty_mb())
        else:
            body = PAGES.get(self.path)
        if body is None:
            self.send_error(404)
            return
        self.send_html(body)


def role_pids(host):
    out = {}
    for pid, role in children(host):
        out.setdefault(role, []).append(pid)
    return out


def rss_mb(pid):
    try:
        with open(f'/proc/{pid}/status') as f:
            for line in f:
                if line.startswith('VmHWM:'):
                    return int(line.split()[1]) / 1024
    except OSError:
        return 0
    return 0


def main():
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f'http://127.0.0.1:{server.server_address[1]}'
    port = free_port()
    log_path = os.path.join(WORK, 'host.log')
    host = subprocess.Popen([SABLE, '--headless', f'--webdriver={port}', f'--profile={WORK}/profile'],
                            stderr=open(log_path, 'w'))
    wait_for_port(port)
    options = ArgOptions()
    options.set_capability('browserName', 'sable')
    d = webdriver.Remote(command_executor=f'http://127.0.0.1:{port}', options=options)
    d.set_page_load_timeout(120)
    try:
        d.get(base + '/ok.html')
        first = d.current_window_handle

        # A script that never ends, in a second tab: the navigation reports it (WebDriver's page
        # load timeout; the host stops the process at its own load timeout), the other tab
        # works meanwhile, and the stuck tab can be closed.
        d.switch_to.new_window('tab')
        loop_tab = d.current_window_handle
        d.set_page_load_timeout(4)
        start = time.time()
        try:
            d.get(base + '/loop.html')
            failed = None
        except Exception as error:  # noqa: BLE001
            failed = str(error).split('\n')[0]
        took = time.time() - start
        d.set_page_load_timeout(120)
        check(f'a script that never ends: the navigation reports it ({took:.1f} s)', failed is not None and 'load' in failed,
              f'{failed}')
        d.switch_to.window(first)
        start = time.time()
        check('the other tab keeps working meanwhile', d.find_element(By.ID, 'p').text == 'fine' and time.time() - start < 2)
        # The stuck tab navigates again: a new content process takes the navigation at once.
        d.switch_to.window(loop_tab)
        start = time.time()
        try:
            d.get(base + '/ok.html')
            again = d.title
        except Exception as error:  # noqa: BLE001
            again = str(error).split('\n')[0]
        took = time.time() - start
        check(f'the stuck tab navigates elsewhere at once ({took:.1f} s; a new content process)', again == 'OK' and took < 5, again)
        d.set_page_load_timeout(2)
        try:
            d.get(base + '/loop.html')
        except Exception:  # noqa: BLE001
            pass
        d.set_page_load_timeout(120)
        stuck = [c for c, r in children(host.pid) if r == 'content']
        d.close()
        d.switch_to.window(first)
        left = [c for c, r in children(host.pid) if r == 'content']
        check('the stuck tab closes (its content process ended)', len(d.window_handles) == 1 and d.title == 'OK'
              and len(left) == len(stuck) - 1, f'{d.window_handles} {stuck} {left}')
        # A timer that never ends, after the load: the next command times out, the tab says so.
        d.switch_to.new_window('tab')
        later = d.current_window_handle
        d.get(base + '/loop-later.html')
        d.set_script_timeout(3)
        try:
            d.execute_script('return 1')
            hung = None
        except Exception as error:  # noqa: BLE001
            hung = str(error).split('\n')[0]
        check('a timer that never ends: the next command fails, the tab shows why', hung is not None, f'{hung} / {d.title}')
        d.close()
        d.switch_to.window(first)
        check('and the first tab still works', d.find_element(By.ID, 'p').text == 'fine')


        # The 50 MB page.
        start = time.time()
        try:
            d.get(base + '/fifty.html')
            ok = d.title == 'Fifty'
            why = d.title
        except Exception as error:  # noqa: BLE001
            ok, why = False, str(error).split('\n')[0]
        took = time.time() - start
        content = role_pids(host.pid).get('content', [])
        peak = max((rss_mb(c) for c in content), default=0)
        check(f'a 50 MB page loads and shows (took {took:.1f} s, content process peak RSS {peak:.0f} MB)', ok, why)
        if ok:
            png = d.get_screenshot_as_png()
            check('the 50 MB page is painted', len(png) > 2000)
            last = d.execute_script('return document.getElementById("last").textContent')
            check('its DOM is whole', last == 'the last paragraph', str(last))
        try:
            d.get(base + '/ok.html')
            again = d.title
        except Exception as error:  # noqa: BLE001
            again = str(error).split('\n')[0]
        check('after it, the tab loads a page again', again == 'OK', again)
        check('the host is alive', host.poll() is None)
    finally:
        try:
            d.quit()
        except Exception:  # noqa: BLE001
            pass
        try:
            host.wait(10)
        except subprocess.TimeoutExpired:
            host.kill()
        server.shutdown()
    print(f'{e2e.passed} passed, {e2e.failed} failed')
    with open(log_path) as f:
        tail = f.read()[-6000:]
    if e2e.failed:
        print('host log:\n' + tail)
    shutil.rmtree(WORK, ignore_errors=True)
    return 1 if e2e.failed else 0


if __name__ == '__main__':
    sys.exit(main())
