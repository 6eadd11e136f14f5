"""The window (GTK 4) under Xvfb, driven with xdotool: start sable, type a URL and Enter,
click a link, the back button, Alt+Right, Ctrl+plus, mouse button 8, Ctrl+T / Ctrl+Tab /
Ctrl+W, then close and restart on the same profile. Screenshots of the window (ImageMagick's
`import`) show the page and its zoom (a 100x50 CSS-pixel red box at the page's top left);
the buttons' enabled state is read back from GTK (SABLE_WINDOW_LOG). tools/browser-window-e2e.sh
starts Xvfb and runs this. Prints 'N passed, N failed'."""

import http.server
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import check, png_pixels  # noqa: E402
import e2e  # noqa: E402  (its check() keeps the tally: e2e.passed, e2e.failed)

SABLE = sys.argv[1]
SHOTS = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp(prefix='sable-window-shots-')
WORK = tempfile.mkdtemp(prefix='sable-window-e2e-')
TITLES = {'a': 'Page A', 'b': 'Page B', 'c': 'Page C'}


class Handler(e2e.PageHandler):
    def do_GET(self):
        if self.path == '/to-a':
            # A redirect to another site (localhost -> 127.0.0.1): the page opens at that site's zoom.
            self.send_response(302)
            self.send_header('Location', f'http://127.0.0.1:{self.server.server_address[1]}/a.html')
            self.send_header('Content-Length', '0')
            self.end_headers()
            return
        if self.path == '/wide.html':
            self.send_html(b'<!doctype html><title>Wide</title><body style="margin:0"><div style="width:2000px">'
                           b'<div style="margin-left:900px;width:100px;background-color:#0080ff">far right</div></div>'
                           b'<p>a page wider than the window</p>')
            return
        name = self.path.strip('/').removesuffix('.html')
        if name not in TITLES:
            self.send_error(404)
            return
        nxt = {'a': 'b', 'b': 'c', 'c': 'a'}[name]
        body = (f'<!doctype html><title>{TITLES[name]}</title><body style="margin:0">'
                f'<div style="width:100px;border-top:50px solid #ff0000"></div>'
                f'<a href="/{nxt}.html">go to the next page</a><p>{TITLES[name]}</p>'
                # A listener's target (blue), a link whose click handler cancels it (on yellow),
                # the box they color (magenta), a full-width band (olive), and far below, teal.
                f'<div id="hit" style="background-color:#0000ff;color:#ffffff;width:200px">listener</div>'
                f'<div style="background-color:#ffff00;width:200px"><a id="stay" href="/c.html">stay here</a></div>'
                f'<div id="flag" style="background-color:#ff00ff;width:100px">flag</div>'
                f'<div style="background-color:#808000">wide</div>'
                f'<div style="padding-bottom:1200px"></div><div style="width:100px;border-top:40px solid #008080"></div><p>end</p>'
                f'<script>var flag = document.getElementById("flag");'
                f'document.getElementById("hit").addEventListener("click", function () {{ flag.style.backgroundColor = "rgb(0, 255, 0)"; }});'
                f'document.getElementById("stay").onclick = function (e) {{ e.preventDefault(); flag.style.backgroundColor = "rgb(255, 128, 0)"; }};'
                f'</script>').encode()
        self.send_html(body)


def xdo(*args):
    return subprocess.run(['xdotool', *args], capture_output=True, text=True, timeout=20).stdout.strip()


class Window:
    def __init__(self, profile):
        self.log_path = os.path.join(WORK, f'window-{time.time():.0f}.log')
        env = dict(os.environ, SABLE_WINDOW_LOG='1', GSK_RENDERER='cairo', GDK_BACKEND='x11', NO_AT_BRIDGE='1', GTK_A11Y='none')
        self.process = subprocess.Popen([SABLE, f'--profile={profile}'], stderr=open(self.log_path, 'w'), env=env)
        self.id = None
        self.find(30)
        self.layout = None

    def find(self, seconds):
        """The window's X id (a loaded machine may take long to map it)."""
        deadline = time.time() + seconds
        while time.time() < deadline and not self.id and self.process.poll() is None:
            out = xdo('search', '--onlyvisible', '--pid', str(self.process.pid), '--name', 'Sable')
            self.id = out.split('\n')[0] if out else None
            time.sleep(0.2)
        return self.id

    def log(self):
        with open(self.log_path) as f:
            return f.read()

    def state(self):
        lines = [l for l in self.log().split('\n') if l.startswith('window: tabs=')]
        if not lines:
            return {}
        return dict(re.findall(r'(\w+)=(\S*)', lines[-1].split(' url=')[0])) | {
            'url': lines[-1].split(' url=')[1].split(' title=')[0], 'title': lines[-1].split(' title=')[1]}

    def wait(self, what, condition, timeout=15):
        deadline = time.time() + timeout
        while time.time() < deadline:
            s = self.state()
            if s and condition(s):
                return s
            time.sleep(0.1)
        return self.state()

    def buttons(self):
        m = re.search(r'window: layout back=(-?\d+),(-?\d+) forward=(-?\d+),(-?\d+) reload=(-?\d+),(-?\d+)', self.log())
        return m and [int(v) for v in m.groups()]

    def screenshot(self, name):
        time.sleep(0.4)  # the frame after the last change
        if not self.find(30):
            raise RuntimeError(f'no window to take {name} of: ' + self.log()[-2000:])
        path = os.path.join(SHOTS, name + '.png')
        subprocess.run(['import', '-window', self.id, '-depth', '8', 'png24:' + path], check=True, timeout=20)
        return path

    def red_box(self, path):
        """The red box's bounding box (x, y, width, height) in the window's screenshot."""
        return self.box(path, (255, 0, 0))

    def box(self, path, color):
        """The bounding box (x, y, width, height) of `color`'s pixels in a screenshot (None: none)."""
        with open(path, 'rb') as f:
            _, _, rows = png_pixels(f.read())
        xs, ys = [], []
        for y, row in enumerate(rows):
            for x, p in enumerate(row):
                if p[:3] == color:
                    xs.append(x)
                    ys.append(y)
        if not xs:
            return None
        return min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1

    def wheel(self, x, y, clicks, button='5'):
        xdo('mousemove', '--window', self.id, str(x), str(y))
        time.sleep(0.1)
        xdo('click', '--repeat', str(clicks), '--delay', '30', button)

    def key(self, *keys):
        xdo('windowactivate', '--sync', self.id)
        xdo('key', '--window', self.id, '--clearmodifiers', *keys)

    def click(self, x, y, button='1'):
        xdo('mousemove', '--window', self.id, str(x), str(y))
        time.sleep(0.1)
        xdo('click', button)

    def close(self):
        """Ctrl+W on the last tab: the window closes, the browser quits (the session kept)."""
        self.key('ctrl+w')
        try:
            return self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.terminate()
            return self.process.wait(10)


def main():
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    site = f'http://127.0.0.1:{server.server_address[1]}'
    profile = os.path.join(WORK, 'profile')
    try:
        w = Window(profile)
        check('the window opens', w.id is not None, w.log())
        if not w.id:
            return 1
        s = w.wait('blank', lambda s: s.get('tabs') == '1')
        check('one empty tab: back, forward and reload disabled', (s.get('back'), s.get('forward'), s.get('reload')) == ('0', '0', '0'), str(s))

        # Type a URL, press Enter.
        w.key('ctrl+l')
        xdo('type', '--delay', '5', site + '/a.html')
        w.key('Return')
        s = w.wait('A', lambda s: s.get('title') == 'Page A')
        check('typed URL + Enter: page A', s.get('title') == 'Page A' and s.get('reload') == '1' and s.get('back') == '0', str(s))
        shot = w.screenshot('1-page-a')
        box = w.red_box(shot)
        check('screenshot: page A shown (the 100x50 box)', box is not None and box[2:] == (100, 50), str(box))
        origin = box[:2] if box else (0, 0)

        # Click the link (the line under the box).
        w.click(origin[0] + 30, origin[1] + 58)
        s = w.wait('B', lambda s: s.get('title') == 'Page B')
        check('a click on the link: page B, back enabled', s.get('title') == 'Page B' and s.get('back') == '1' and s.get('forward') == '0', str(s))
        w.screenshot('2-page-b')

        # The back button.
        b = w.buttons()
        check('the buttons are laid out', b is not None, w.log()[-500:])
        if b:
            w.click(origin[0] + b[0], origin[1] + b[1])
        s = w.wait('back', lambda s: s.get('title') == 'Page A')
        check('the back button: page A, forward enabled, back disabled',
              s.get('title') == 'Page A' and s.get('back') == '0' and s.get('forward') == '1', str(s))
        w.screenshot('3-back')

        w.key('alt+Right')
        s = w.wait('forward', lambda s: s.get('title') == 'Page B')
        check('Alt+Right: page B', s.get('title') == 'Page B' and s.get('forward') == '0' and s.get('back') == '1', str(s))

        w.key('ctrl+plus')
        s = w.wait('zoom', lambda s: s.get('zoom') == '110')
        box = w.red_box(w.screenshot('4-zoom-110'))
        check('Ctrl+plus: 110 %, the box 110x55', s.get('zoom') == '110' and box and box[2:] == (110, 55), f'{s} {box}')

        w.click(origin[0] + 400, origin[1] + 300, button='8')
        s = w.wait('button 8', lambda s: s.get('title') == 'Page A')
        box = w.red_box(w.screenshot('5-button-8'))
        check('mouse button 8: back to A, at the site\'s 110 %', s.get('title') == 'Page A' and s.get('zoom') == '110'
              and box and box[2:] == (110, 55), f'{s} {box}')
        w.click(origin[0] + 400, origin[1] + 300, button='9')
        s = w.wait('button 9', lambda s: s.get('title') == 'Page B')
        check('mouse button 9: forward to B', s.get('title') == 'Page B', str(s))

        # A click runs the page's listeners: addEventListener on a div, then a link whose
        # onclick cancels the navigation (the page stays, the handler's change shows).
        shot = w.screenshot('8-before-clicks')
        hit, flag = w.box(shot, (0, 0, 255)), w.box(shot, (255, 0, 255))
        check('page B at 110 %: the listener target and the flag are there', hit is not None and flag is not None, f'{hit} {flag}')
        if hit and flag:
            w.click(hit[0] + hit[2] // 2, hit[1] + hit[3] // 2)
            time.sleep(0.5)
            green = w.box(w.screenshot('9-listener'), (0, 255, 0))
            check('a click in the window runs the page\'s click listener (the flag turns green)',
                  green is not None and green[:2] == flag[:2] and green[2] == flag[2], f'{green} {flag}')
            w.click(hit[0] + 12, hit[1] + hit[3] + hit[3] // 2)  # the link's text, on the yellow line below
            time.sleep(0.8)
            s = w.state()
            orange = w.box(w.screenshot('10-prevented'), (255, 128, 0))
            check('a link whose handler calls preventDefault: the handler ran, no navigation',
                  orange is not None and s.get('title') == 'Page B' and s.get('forward') == '0' and s.get('index') == '1',
                  f'{orange} {s}')

        # Scrolling: the wheel (3 clicks, 48 CSS px each), back and forward restore it, End, Home, Space.
        w.wheel(origin[0] + 400, origin[1] + 300, 3)
        s = w.wait('wheel', lambda s: s.get('scroll') == '144')
        shot = w.screenshot('11-wheel')
        moved = w.box(shot, (255, 0, 255)) or w.box(shot, (255, 128, 0))
        check('the wheel scrolls the page: 144 CSS px, the page moved up 158 device px at 110 %, the box gone',
              s.get('scroll') == '144' and w.red_box(shot) is None and flag is not None and moved is not None
              and abs((flag[1] - moved[1]) - 158) <= 1, f'{s} {flag} {moved}')
        w.key('alt+Left')
        s = w.wait('back to A', lambda s: s.get('title') == 'Page A')
        box = w.red_box(w.screenshot('12-back-top'))
        check('back: A at the top', s.get('title') == 'Page A' and s.get('scroll') == '0' and box is not None, f'{s} {box}')
        w.key('alt+Right')
        s = w.wait('forward to B', lambda s: s.get('title') == 'Page B')
        time.sleep(0.3)
        shot = w.screenshot('13-forward-restored')
        again = w.box(shot, (255, 0, 255))
        check('forward: B back at its scroll position (shown: the box gone, the page where it was)',
              s.get('scroll') == '144' and w.red_box(shot) is None and again is not None and moved is not None and again[1] == moved[1],
              f'{s} {again} {moved}')
        w.key('End')
        s = w.wait('End', lambda s: int(s.get('scroll', '0')) > 700)
        teal = w.box(w.screenshot('14-end'), (0, 128, 128))
        check('End: the bottom of the page (the teal box far below shows)', int(s.get('scroll', '0')) > 700 and teal is not None,
              f'{s} {teal}')
        w.key('Home')
        s = w.wait('Home', lambda s: s.get('scroll') == '0')
        check('Home: the top again', s.get('scroll') == '0' and w.red_box(w.screenshot('15-home')) is not None, str(s))
        w.key('space')
        s = w.wait('Space', lambda s: int(s.get('scroll', '0')) > 300)
        check('Space: a page down', int(s.get('scroll', '0')) > 300, str(s))
        w.key('Home')
        w.wait('Home', lambda s: s.get('scroll') == '0')

        # The vertical scrollbar (an overlay one): the pointer near the right edge shows it, a
        # click near its bottom scrolls the page there; it hides again when the pointer leaves.
        xdo('mousemove', '--window', w.id, str(origin[0] + 795), str(origin[1] + 300))
        deadline = time.time() + 5
        m = None
        while time.time() < deadline and not m:
            m = re.findall(r'window: vbar center=(-?\d+),(-?\d+) height=(\d+)', w.log())
            time.sleep(0.1)
        if m:
            cx, cy, height = (int(v) for v in m[-1])
            w.click(origin[0] + cx, origin[1] + cy + height * 45 // 100)
        s = w.wait('vertical scrollbar', lambda s: int(s.get('scroll', '0')) > 700)
        shot = w.screenshot('15b-vertical-scrollbar')
        check('the vertical scrollbar shows under the pointer, a click near its bottom scrolls there',
              bool(m) and int(s.get('scroll', '0')) > 700 and w.box(shot, (0, 128, 128)) is not None, f'{m[-1:] if m else m} {s}')
        xdo('mousemove', '--window', w.id, str(origin[0] + 400), str(origin[1] + 300))
        w.key('Home')
        w.wait('Home', lambda s: s.get('scroll') == '0')
        time.sleep(1.3)  # (the bar fades a second after the last scroll)

        # A page wider than the window scrolls sideways: Shift+wheel (48 CSS px a click) and
        # Right (40); back and forward bring the position back, as the vertical one.
        check('pages as wide as the window (at 110 %: 727.3 CSS px) have no horizontal scrollbar', 'window: hbar' not in w.log())
        w.key('ctrl+l')
        xdo('type', '--delay', '5', site + '/wide.html')
        w.key('Return')
        s = w.wait('wide', lambda s: s.get('title') == 'Wide')
        before = w.box(w.screenshot('19-wide'), (0, 128, 255))
        xdo('mousemove', '--window', w.id, str(origin[0] + 400), str(origin[1] + 300))
        time.sleep(0.1)
        xdo('keydown', 'shift')
        xdo('click', '--repeat', '6', '--delay', '30', '5')
        xdo('keyup', 'shift')
        s = w.wait('shift+wheel', lambda s: s.get('scrollx') == '288')
        w.key('Right')
        s = w.wait('Right', lambda s: s.get('scrollx') == '328')
        after = w.box(w.screenshot('20-wide-scrolled'), (0, 128, 255))
        check('Shift+wheel and Right scroll a wide page sideways: 328 CSS px, the box moved left 361 device px at 110 %',
              s.get('scrollx') == '328' and s.get('scroll') == '0' and before is None and after is not None
              and abs(after[0] - (origin[0] + round(900 * 1.1) - round(328 * 1.1))) <= 2, f'{s} {before} {after}')
        w.key('alt+Left')
        s = w.wait('back to B', lambda s: s.get('title') == 'Page B')
        check('back from the wide page: B at its own position', s.get('scrollx') == '0', str(s))
        w.key('alt+Right')
        s = w.wait('forward to wide', lambda s: s.get('title') == 'Wide')
        time.sleep(0.3)
        again = w.box(w.screenshot('21-wide-restored'), (0, 128, 255))
        check('forward: the wide page back at its horizontal position', s.get('scrollx') == '328' and again == after,
              f'{s} {again} {after}')
        m = re.findall(r'window: hbar center=(-?\d+),(-?\d+) width=(\d+)', w.log())
        if m:
            cx, cy, width = (int(v) for v in m[-1])
            w.click(origin[0] + cx + width * 45 // 100, origin[1] + cy)
        s = w.wait('scrollbar', lambda s: int(s.get('scrollx', '0')) > 900)
        shot = w.screenshot('22-wide-scrollbar')
        check('the horizontal scrollbar is there and a click near its right end scrolls the page there',
              bool(m) and int(s.get('scrollx', '0')) > 900 and w.box(shot, (0, 128, 255)) is None, f'{m} {s}')
        w.key('alt+Left')
        w.wait('back to B', lambda s: s.get('title') == 'Page B')

        # Resize: the page is laid out again at the page area's width (the olive band spans it).
        time.sleep(1.3)  # (no scrollbar over its edge: it fades a second after the last scroll)
        before = w.box(w.screenshot('16-before-resize'), (128, 128, 0))
        xdo('windowsize', w.id, '640', '560')
        m = None
        deadline = time.time() + 10
        while time.time() < deadline and not m:
            m = re.findall(r'window: viewport (\d+)x(\d+)', w.log())
            m = m and [v for v in m if int(v[0]) < 700]
            time.sleep(0.1)
        time.sleep(0.3)
        after = w.box(w.screenshot('17-resized'), (128, 128, 0))
        check('a resize lays the page out again: the full-width band follows the page area',
              bool(m) and before is not None and after is not None and before[2] > 700 and after[2] == int(m[-1][0]),
              f'{m} {before} {after}')

        w.key('ctrl+t')
        s = w.wait('new tab', lambda s: s.get('tabs') == '2')
        check('Ctrl+T: a second tab, selected, nothing to go back to', s.get('tabs') == '2' and s.get('selected') == '2'
              and s.get('back') == '0' and s.get('reload') == '0', str(s))
        w.key('ctrl+Tab')
        s = w.wait('ctrl+tab', lambda s: s.get('selected') == '1')
        check('Ctrl+Tab: the first tab again', s.get('selected') == '1' and s.get('title') == 'Page B', str(s))
        w.key('F5')
        time.sleep(0.5)
        s = w.state()
        check('F5: reloads, still B', s.get('title') == 'Page B', str(s))
        w.key('ctrl+Tab')
        w.wait('ctrl+tab', lambda s: s.get('selected') == '2')
        w.key('ctrl+w')
        s = w.wait('ctrl+w', lambda s: s.get('tabs') == '1')
        check('Ctrl+W: the empty tab closed', s.get('tabs') == '1' and s.get('title') == 'Page B', str(s))
        w.key('ctrl+0')
        s = w.wait('ctrl+0', lambda s: s.get('zoom') == '100')
        check('Ctrl+0: 100 %', s.get('zoom') == '100', str(s))
        w.key('ctrl+plus')
        w.key('ctrl+plus')
        s = w.wait('zoom 125', lambda s: s.get('zoom') == '125')
        check('Ctrl+plus twice: 125 %', s.get('zoom') == '125', str(s))
        # A redirect to another site (localhost -> 127.0.0.1, zoomed): the page opens at the final site's zoom.
        w.key('ctrl+l')
        xdo('type', '--delay', '5', site.replace('127.0.0.1', 'localhost') + '/to-a')
        w.key('Return')
        s = w.wait('redirect', lambda s: s.get('title') == 'Page A')
        box = w.red_box(w.screenshot('18-redirect'))
        check('a cross-site redirect: the page at the final site\'s zoom (125 %)', s.get('title') == 'Page A'
              and s.get('zoom') == '125' and box is not None and box[2:] == (125, 62), f'{s} {box}')
        w.key('alt+Left')
        w.wait('back to B', lambda s: s.get('title') == 'Page B')
        # A load that fails: the tab shows the error page (its accent bar), with reload enabled.
        w.key('ctrl+l')
        xdo('type', '--delay', '5', 'http://127.0.0.1:1/')
        w.key('Return')
        s = w.wait('error', lambda s: "can't open" in s.get('title', ''))
        with open(w.screenshot('7-error'), 'rb') as f:
            _, _, rows = png_pixels(f.read())
        accent = sum(1 for row in rows for p in row if p[:3] == (176, 0, 32))
        check('a failed load shows the error page', "can't open" in s.get('title', '') and s.get('reload') == '1'
              and accent > 1000, f'{s} {accent}')
        w.key('alt+Left')
        s = w.wait('back from the error', lambda s: s.get('title') == 'Page B')
        check('back from the error page: B', s.get('title') == 'Page B' and s.get('forward') == '1', str(s))
        code = w.close()
        check('closing the window quits', code == 0, str(code))

        w = Window(profile)
        s = w.wait('restored', lambda s: s.get('title') == 'Page B')
        box = w.red_box(w.screenshot('6-restored'))
        check('restarted: the tab, its entry and zoom are back', s.get('title') == 'Page B' and s.get('back') == '1'
              and s.get('zoom') == '125' and box and box[2:] == (125, 62), f'{s} {box}')
        w.key('alt+Left')
        s = w.wait('back', lambda s: s.get('title') == 'Page A')
        check('restarted: Alt+Left goes back at once', s.get('title') == 'Page A', str(s))
        w.close()
    finally:
        server.shutdown()
    print(f'{e2e.passed} passed, {e2e.failed} failed (screenshots in {SHOTS})')
    if e2e.failed == 0:
        shutil.rmtree(WORK, ignore_errors=True)
    else:
        print('logs kept in', WORK)
    return 1 if e2e.failed else 0


if __name__ == '__main__':
    sys.exit(main())
