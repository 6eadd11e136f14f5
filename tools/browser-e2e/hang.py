"""A page that hangs, in the window (GTK 4 under Xvfb, driven with xdotool): a tab whose script
never ends (at load, or in a click handler after it) must not block the window. While it hangs,
the other tab switches, scrolls, loads and goes back at once; after a few seconds the hung tab
shows "This page is not responding" with Wait and Stop page; Wait asks again later; back from
the hung page works (a new content process takes the navigation); Stop page ends its content
process and shows why in that tab only; a hung tab closes at once. Also: the window's title
follows document.title, including a script's later change. tools/browser-hang-e2e.sh starts
Xvfb and runs this. Prints 'N passed, N failed'."""

import http.server
import os
import shutil
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import check, children, png_pixels  # noqa: E402
import e2e  # noqa: E402
import window  # noqa: E402  (the Window driver: xdotool, SABLE_WINDOW_LOG, screenshots)
from window import Window, xdo  # noqa: E402

TALL = '<div style="padding-bottom:2000px"></div><p>end</p>'
PAGES = {
    '/a.html': ('<!doctype html><title>Page A</title><body style="margin:0">'
                '<div style="width:100px;border-top:50px solid #ff0000"></div><p>page A</p>' + TALL),
    '/b.html': ('<!doctype html><title>Page B</title><body style="margin:0">'
                '<div style="width:100px;border-top:50px solid #0000ff"></div><p>page B</p>' + TALL),
    '/hang.html': '<!doctype html><title>Hang</title><p>this page never finishes</p><script>for (;;) {}</script>',
    '/busy.html': ('<!doctype html><title>Busy</title><body style="margin:0">'
                   '<div id="go" style="background-color:#00ff00;width:300px">click: a loop</div>' + TALL
                   + '<script>document.getElementById("go").onclick = function () { for (;;) {} };</script>'),
    '/title.html': ('<!doctype html><title>First title</title><p>the title changes</p>'
                    '<script>setTimeout(function () { document.title = "Changed by a script"; }, 300);</script>'),
}


class Handler(e2e.PageHandler):
    def do_GET(self):
        body = PAGES.get(self.path)
        if body is None:
            self.send_error(404)
            return
        self.send_html(body.encode())


def contents(w):
    return sorted(c for c, r in children(w.process.pid) if r == 'content')


def timed(w, what, action, condition, timeout=5):
    """Runs `action`, then waits for `condition` on the window's state: (seconds, state)."""
    start = time.time()
    action()
    s = w.wait(what, condition, timeout)
    return time.time() - start, s


def go(w, url):
    w.key('ctrl+l')
    xdo('type', '--delay', '5', url)
    w.key('Return')


def main():
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    site = f'http://127.0.0.1:{server.server_address[1]}'
    profile = os.path.join(window.WORK, 'profile')
    w = None
    try:
        w = Window(profile)
        check('the window opens', w.id is not None, w.log())
        if not w.id:
            return 1
        w.wait('blank', lambda s: s.get('tabs') == '1')
        go(w, site + '/a.html')
        s = w.wait('A', lambda s: s.get('title') == 'Page A')
        check('tab 1: page A', s.get('title') == 'Page A', str(s))
        shot = w.screenshot('h1-page-a')
        box = w.red_box(shot)
        origin = box[:2] if box else (0, 0)

        # Tab 2: page B, then a page whose script never ends.
        w.key('ctrl+t')
        w.wait('tab 2', lambda s: s.get('tabs') == '2' and s.get('selected') == '2')
        go(w, site + '/b.html')
        w.wait('B', lambda s: s.get('title') == 'Page B')
        go(w, site + '/hang.html')
        s = w.wait('hang', lambda s: s.get('url', '').endswith('/hang.html'))
        hang_started = time.time()
        check('tab 2 starts the page that never ends (back enabled)', s.get('url', '').endswith('/hang.html') and s.get('back') == '1',
              str(s))

        # While it hangs: the other tab switches, scrolls, loads, goes back, at once.
        took, s = timed(w, 'ctrl+tab', lambda: w.key('ctrl+Tab'), lambda s: s.get('selected') == '1')
        check(f'while tab 2 hangs, Ctrl+Tab shows tab 1 at once ({took:.2f} s)', s.get('selected') == '1'
              and s.get('title') == 'Page A' and took < 1.5, str(s))
        took, s = timed(w, 'End', lambda: w.key('End'), lambda s: int(s.get('scroll', '0')) > 1000)
        shot = w.screenshot('h2-other-tab-scrolled')
        check(f'tab 1 scrolls ({took:.2f} s): End shows its bottom', int(s.get('scroll', '0')) > 1000 and took < 1.5
              and w.red_box(shot) is None, str(s))
        w.key('Home')
        took, s = timed(w, 'load B in tab 1', lambda: go(w, site + '/b.html'), lambda s: s.get('title') == 'Page B')
        check(f'tab 1 loads another page ({took:.2f} s)', s.get('title') == 'Page B' and s.get('selected') == '1' and took < 4, str(s))
        took, s = timed(w, 'back in tab 1', lambda: w.key('alt+Left'), lambda s: s.get('title') == 'Page A')
        check(f'and goes back ({took:.2f} s)', s.get('title') == 'Page A' and took < 3, str(s))

        # The hung tab: after a few seconds it says so, with Wait and Stop page.
        w.key('ctrl+Tab')
        s = w.wait('hung', lambda s: s.get('selected') == '2' and s.get('hung') == '1', timeout=12)
        flagged = time.time() - hang_started
        check(f'the hung tab shows "not responding" ({flagged:.1f} s after its load started)', s.get('hung') == '1'
              and 3 < flagged < 12, str(s))
        shot = w.screenshot('h3-not-responding')
        bar = w.log().split('window: hangbar ')[-1].split('\n')[0] if 'window: hangbar ' in w.log() else ''
        check('the bar with Wait and Stop page is laid out', bar.startswith('wait='), w.log()[-800:])
        coords = dict(part.split('=') for part in bar.split()) if bar else {}
        wait_at = [int(v) for v in coords.get('wait', '0,0').split(',')]
        stop_at = [int(v) for v in coords.get('stop', '0,0').split(',')]
        with open(shot, 'rb') as f:
            _, _, rows = png_pixels(f.read())
        bar_row = rows[origin[1] + wait_at[1]] if origin[1] + wait_at[1] < len(rows) else []
        dark = sum(1 for p in bar_row if max(p[:3]) < 140 and max(p[:3]) - min(p[:3]) < 8)
        check('the screenshot shows the bar over the page (its gray on the buttons\' row)', dark > 150, str(dark))
        content_before = contents(w)

        took, s = timed(w, 'wait', lambda: w.click(origin[0] + wait_at[0], origin[1] + wait_at[1]), lambda s: s.get('hung') == '0')
        check(f'Wait: the bar goes away ({took:.2f} s)', s.get('hung') == '0' and took < 1.5, str(s))
        s = w.wait('hung again', lambda s: s.get('hung') == '1', timeout=10)
        check('and comes back when the page still does not answer', s.get('hung') == '1', str(s))

        took, s = timed(w, 'back from the hung page', lambda: w.key('alt+Left'),
                        lambda s: s.get('title') == 'Page B' and s.get('url', '').endswith('/b.html') and s.get('hung') == '0')
        check(f'Alt+Left on the hung tab: page B again ({took:.2f} s), the bar gone', s.get('title') == 'Page B'
              and s.get('hung') == '0' and s.get('forward') == '1' and took < 4, str(s))
        check('by a new content process (the hung one ended)', len(contents(w)) == 2 and contents(w) != content_before,
              f'{content_before} -> {contents(w)}')
        w.screenshot('h4-back-from-hung')

        # Forward into the hang again, then Stop page.
        w.key('alt+Right')
        s = w.wait('hung', lambda s: s.get('hung') == '1', timeout=12)
        check('Alt+Right: the page hangs again and says so', s.get('hung') == '1' and s.get('url', '').endswith('/hang.html'), str(s))
        hung_pids = contents(w)
        took, s = timed(w, 'stop', lambda: w.click(origin[0] + stop_at[0], origin[1] + stop_at[1]),
                        lambda s: 'stopped' in s.get('title', ''))
        shot = w.screenshot('h5-stopped')
        with open(shot, 'rb') as f:
            _, _, rows = png_pixels(f.read())
        accent = sum(1 for row in rows for p in row if p[:3] == (176, 0, 32))
        check(f'Stop page: the tab shows why ({took:.2f} s), its content process ended', 'stopped' in s.get('title', '')
              and s.get('hung') == '0' and s.get('reload') == '1' and accent > 1000 and len(contents(w)) == 1,
              f'{s} accent={accent} {hung_pids} -> {contents(w)}')
        took, s = timed(w, 'tab 1 after stop', lambda: w.key('ctrl+Tab'), lambda s: s.get('selected') == '1')
        check('tab 1 is untouched', s.get('title') == 'Page A' and w.red_box(w.screenshot('h6-tab1-after-stop')) is not None, str(s))

        # A hung tab closes at once.
        w.key('ctrl+Tab')
        w.wait('tab 2', lambda s: s.get('selected') == '2')
        w.key('F5')
        time.sleep(1.5)
        before = contents(w)
        took, s = timed(w, 'close the hung tab', lambda: w.key('ctrl+w'), lambda s: s.get('tabs') == '1')
        time.sleep(0.3)
        check(f'Ctrl+W closes a hung tab at once ({took:.2f} s; its content process ended)', s.get('tabs') == '1'
              and took < 1.5 and len(contents(w)) == len(before) - 1, f'{s} {before} -> {contents(w)}')

        # A page that hangs after its load (a click handler that never returns): the window goes on.
        go(w, site + '/busy.html')
        w.wait('busy', lambda s: s.get('title') == 'Busy')
        shot = w.screenshot('h7-busy')
        green = w.box(shot, (0, 255, 0))
        if green:
            w.click(green[0] + 20, green[1] + green[3] // 2)
        time.sleep(0.3)
        took, s = timed(w, 'new tab while busy', lambda: w.key('ctrl+t'), lambda s: s.get('tabs') == '2')
        check(f'a click handler that never returns: Ctrl+T still opens a tab at once ({took:.2f} s)', s.get('tabs') == '2'
              and took < 1.5 and green is not None, f'{s} {green}')
        took, s = timed(w, 'close it', lambda: w.key('ctrl+w'), lambda s: s.get('tabs') == '1')
        w.wheel(origin[0] + 300, origin[1] + 300, 2)
        s = w.wait('hung after click', lambda s: s.get('hung') == '1', timeout=12)
        check('the busy page is reported as not responding', s.get('hung') == '1' and s.get('title') == 'Busy', str(s))
        took, s = timed(w, 'stop busy', lambda: w.click(origin[0] + stop_at[0], origin[1] + stop_at[1]),
                        lambda s: 'stopped' in s.get('title', ''))
        check('Stop page ends it', 'stopped' in s.get('title', ''), str(s))
        took, s = timed(w, 'reload after stop', lambda: w.key('F5'), lambda s: s.get('title') == 'Busy' and s.get('hung') == '0',
                        timeout=8)
        check(f'F5 after a stop: the page loads again in a new process ({took:.2f} s)', s.get('title') == 'Busy', str(s))

        # A content process that stops answering (SIGSTOP): the same, Stop page ends it.
        stuck = contents(w)
        if stuck:
            os.kill(stuck[0], signal.SIGSTOP)
        w.wheel(origin[0] + 300, origin[1] + 300, 2)
        took, s = timed(w, 'ctrl+t while stopped', lambda: w.key('ctrl+t'), lambda s: s.get('tabs') == '2')
        check(f'a stopped content process: Ctrl+T answers at once ({took:.2f} s)', s.get('tabs') == '2' and took < 1.5, str(s))
        w.key('ctrl+w')
        s = w.wait('hung: stopped process', lambda s: s.get('tabs') == '1' and s.get('hung') == '1', timeout=12)
        check('and its tab is reported as not responding', s.get('hung') == '1', str(s))
        w.click(origin[0] + stop_at[0], origin[1] + stop_at[1])
        s = w.wait('stopped', lambda s: 'stopped' in s.get('title', ''))
        time.sleep(0.3)
        check('Stop page ends the stopped process', 'stopped' in s.get('title', '') and stuck and stuck[0] not in contents(w),
              f'{s} {stuck} {contents(w)}')

        # The window's title follows document.title, a script's later change included.
        go(w, site + '/title.html')
        s = w.wait('title', lambda s: s.get('title') == 'Changed by a script')
        name = xdo('getwindowname', w.id)
        check('the window title follows document.title, changed by a script after the load',
              s.get('title') == 'Changed by a script' and name == 'Changed by a script — Sable', f'{s} {name!r}')
        code = w.close()
        check('the window closes normally', code == 0, str(code))
    finally:
        if w and w.process.poll() is None:
            w.process.kill()
        server.shutdown()
    print(f'{e2e.passed} passed, {e2e.failed} failed (screenshots in {window.SHOTS})')
    if e2e.failed == 0:
        shutil.rmtree(window.WORK, ignore_errors=True)
    else:
        print('logs kept in', window.WORK)
    return 1 if e2e.failed else 0


if __name__ == '__main__':
    sys.exit(main())
