"""End to end: sable --headless --webdriver driven by the Selenium client through a small
site on a local HTTP server (127.0.0.1), as people drive real browsers. tools/browser-e2e.sh
sets up the venv and runs this. Prints 'N passed, N failed'; exits 1 on any failure."""

import http.server
import os
import socket
import struct
import subprocess
import sys
import threading
import time
import zlib

from selenium import webdriver
from selenium.common.exceptions import (JavascriptException, NoSuchElementException,
                                        StaleElementReferenceException, WebDriverException)
from selenium.webdriver.common.by import By
from selenium.webdriver.common.options import ArgOptions

SITE = os.path.dirname(os.path.abspath(__file__))
SABLE = sys.argv[1]
passed = failed = 0


def check(name, condition, detail=''):
    """Counts and prints one check (session.py and window.py use this tally too)."""
    global passed, failed
    if condition:
        passed += 1
        print('ok  ', name)
    else:
        failed += 1
        print('FAIL', name, detail)
    sys.stdout.flush()


class Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *a, **k):
        super().__init__(*a, directory=SITE, **k)

    def do_GET(self):
        if self.path == '/redirect':
            self.send_response(302)
            self.send_header('Location', '/page2.html')
            self.send_header('Content-Length', '0')
            self.end_headers()
            return
        super().do_GET()

    def log_message(self, *a):
        pass


class PageHandler(http.server.BaseHTTPRequestHandler):
    """A quiet handler for the test sites: `send_html` answers 200 with a page."""

    def send_html(self, body, headers=()):
        self.send_response(200)
        self.send_header('Content-Type', 'text/html; charset=utf-8')
        self.send_header('Content-Length', str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *a):
        pass


def wait_for_port(port, seconds=20, poll=0.05):
    """Until something listens on 127.0.0.1:port (or the time is up)."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            socket.create_connection(('127.0.0.1', port), timeout=1).close()
            return True
        except OSError:
            time.sleep(poll)
    return False


def free_port():
    s = socket.socket()
    s.bind(('127.0.0.1', 0))
    port = s.getsockname()[1]
    s.close()
    return port


def png_pixels(data):
    """(width, height, rows of RGBA tuples) of an 8-bit non-interlaced PNG (what Cairo writes)."""
    assert data[:8] == b'\x89PNG\r\n\x1a\n'
    pos, idat, width = 8, b'', 0
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b'IHDR':
            width, height, depth, color = struct.unpack('>IIBB', chunk[:10])
            assert depth == 8 and color in (2, 6)
            channels = 4 if color == 6 else 3
        elif kind == b'IDAT':
            idat += chunk
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b, c = prev[x], prev[x - channels] if x >= channels else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x:x + 3]) for x in range(0, stride, channels)])
        prev = line
    return width, height, rows


def count_color(png, rgb):
    _, _, rows = png_pixels(png)
    return sum(1 for row in rows for p in row if p == rgb)


def children(pid):
    out = []
    for entry in os.listdir('/proc'):
        if not entry.isdigit():
            continue
        try:
            with open(f'/proc/{entry}/stat') as f:
                stat = f.read()
            ppid = int(stat[stat.rindex(')') + 2:].split()[1])
            if ppid == pid:
                with open(f'/proc/{entry}/cmdline', 'rb') as f:
                    args = f.read().split(b'\0')
                role = args[args.index(b'--role') + 1].decode() if b'--role' in args else '?'
                out.append((int(entry), role))
        except (OSError, ValueError):
            pass
    return out


def status_field(pid, name):
    with open(f'/proc/{pid}/status') as f:
        for line in f:
            if line.startswith(name + ':'):
                return line.split(':', 1)[1].strip()
    return None


def wx_mappings(pid):
    with open(f'/proc/{pid}/maps') as f:
        return [l for l in f if 'w' in l.split()[1] and 'x' in l.split()[1]]


def main():
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f'http://127.0.0.1:{server.server_address[1]}'
    port = free_port()
    profile = os.path.join(os.environ.get('TMPDIR', '/tmp'), f'sable-e2e-profile-{os.getpid()}')
    host = subprocess.Popen([SABLE, '--headless', f'--webdriver={port}', f'--profile={profile}'],
                            stderr=open(os.path.join(os.environ.get('TMPDIR', '/tmp'), f'sable-e2e-{os.getpid()}.log'), 'w'))
    wait_for_port(port)
    driver = None
    try:
        options = ArgOptions()
        options.set_capability('browserName', 'sable')
        driver = webdriver.Remote(command_executor=f'http://127.0.0.1:{port}', options=options)
        check('new session', driver.session_id)

        driver.get(base + '/index.html')
        check('title', driver.title == 'Sable E2E Home', driver.title)
        check('current url', driver.current_url == base + '/index.html', driver.current_url)
        check('external script ran (DOMContentLoaded)', driver.find_element(By.ID, 'ext').text == 'external script ran',
              driver.find_element(By.ID, 'ext').text)
        check('attribute set by script', driver.find_element(By.ID, 'heading').get_dom_attribute('data-ready') == 'interactive')
        check('scripts inserted by a script ran', driver.execute_script('return [window.insertedRan, window.lateRan]') == [True, True]
              and driver.find_element(By.ID, 'late').text == 'late script loaded')
        computed = driver.execute_script('var s = getComputedStyle(document.querySelector(".framed")); return [s.backgroundColor, s.borderTopWidth, s.display]')
        check('getComputedStyle (linked and <style> sheets)', computed == ['rgb(255, 255, 0)', '4px', 'block'], str(computed))
        check('find elements', len(driver.find_elements(By.CSS_SELECTOR, 'ul > li a[href]')) == 3)
        check('execute script', driver.execute_script('return [1 + 1, document.querySelectorAll("li").length, appLoaded]') == [2, 3, True])
        heading = driver.find_element(By.CSS_SELECTOR, 'h1')
        same = driver.execute_script('return arguments[0] === document.getElementById("heading")', heading)
        check('element round trip (identity)', same is True)
        check('element returned by a script', driver.execute_script('return document.body.firstElementChild').text == 'Home page')
        png = driver.get_screenshot_as_png()
        red = count_color(png, (255, 0, 0))
        check('screenshot: the red box is painted', red > 2000, f'{red} red pixels')
        blue = count_color(png, (0, 0, 255))
        check('screenshot: the <style> border is painted', 1500 < blue < 4000, f'{blue} blue pixels')
        yellow = count_color(png, (255, 255, 0))
        check('screenshot: the linked style sheet applies', yellow > 5000, f'{yellow} yellow pixels')
        _, _, rows = png_pixels(png)
        dark = sum(1 for row in rows[:60] for p in row[:200] if p[0] < 100 and p[1] < 100 and p[2] < 100)
        check('screenshot: the heading text is painted', dark > 50, f'{dark} dark pixels')

        driver.find_element(By.ID, 'btn').click()
        check('click ran the listener', driver.find_element(By.ID, 'out').text == 'clicked 1 time')
        check('script changed the title', driver.title == 'Clicked', driver.title)
        png = driver.get_screenshot_as_png()
        green, red = count_color(png, (0, 128, 0)), count_color(png, (255, 0, 0))
        check('screenshot after the click: the box is green', green > 2000 and red == 0, f'{green} green, {red} red')
        driver.find_element(By.ID, 'btn').click()
        check('second click', driver.find_element(By.ID, 'out').text == 'clicked 2 times')

        try:
            driver.find_element(By.ID, 'nope')
            check('no such element', False)
        except NoSuchElementException:
            check('no such element', True)
        try:
            driver.execute_script('throw new TypeError("boom")')
            check('javascript error', False)
        except JavascriptException as e:
            check('javascript error', 'boom' in e.msg, e.msg)
        try:
            driver.find_element(By.CSS_SELECTOR, 'a[')
            check('invalid selector', False)
        except WebDriverException as e:
            check('invalid selector', 'invalid selector' in str(e).lower() or 'valid selector' in str(e), str(e))

        old = driver.find_element(By.ID, 'to2')
        old.click()
        check('link click navigates', driver.title == 'Second Page', driver.title)
        check('url after the link', driver.current_url == base + '/page2.html', driver.current_url)
        try:
            old.text
            check('stale element', False)
        except StaleElementReferenceException:
            check('stale element', True)
        driver.back()
        check('back', driver.title == 'Sable E2E Home', driver.title)
        driver.forward()
        check('forward', driver.title == 'Second Page', driver.title)
        driver.refresh()
        check('refresh', driver.find_element(By.ID, 'msg').text == 'You followed a link.')

        driver.get(base + '/redirect')
        check('redirect followed', driver.current_url == base + '/page2.html' and driver.title == 'Second Page',
              driver.current_url)
        driver.get(base + '/missing.html')
        check('404 page shown', '404' in driver.title or '404' in driver.page_source, driver.title)
        try:
            driver.get(f'http://127.0.0.1:{free_port()}/')
            check('unreachable port is an error', False)
        except WebDriverException as e:
            check('unreachable port is an error', 'refused' in str(e).lower() or 'connect' in str(e).lower(), str(e))
        driver.get(base + '/page2.html')
        check('page source', '<h1>Second page</h1>' in driver.page_source, driver.page_source[:200])

        # Process tree: four roles, the content processes locked, one per tab.
        first = driver.current_window_handle
        driver.switch_to.new_window('tab')
        driver.get(base + '/index.html')
        check('second tab', driver.title == 'Sable E2E Home' and len(driver.window_handles) == 2)
        tree = children(host.pid)
        roles = sorted(r for _, r in tree)
        check('process tree: networking, rendering, one content per tab',
              roles == ['content', 'content', 'networking', 'rendering'], str(tree))
        for pid, role in tree:
            if role == 'content':
                check(f'content {pid}: Seccomp: 2', status_field(pid, 'Seccomp') == '2', status_field(pid, 'Seccomp'))
                check(f'content {pid}: no wx mapping', not wx_mappings(pid), ''.join(wx_mappings(pid)))
        rect = driver.set_window_size(600, 400) or driver.get_window_size()
        width, height, _ = png_pixels(driver.get_screenshot_as_png())
        check('window rect: the viewport resized, the page laid out again at 600x400', (width, height) == (600, 400)
              and driver.execute_script('return innerWidth') == 600, f'{rect} {width}x{height}')
        driver.set_window_size(800, 600)
        driver.close()
        driver.switch_to.window(first)
        check('close tab', len(driver.window_handles) == 1 and driver.title == 'Second Page', driver.title)
        time.sleep(0.2)
        check('closed tab: its content process is gone',
              sorted(r for _, r in children(host.pid)) == ['content', 'networking', 'rendering'], str(children(host.pid)))
    except Exception as e:  # noqa: BLE001 - any failure is a failed check, with its text
        check('no unexpected exception', False, repr(e))
    finally:
        if driver:
            try:
                driver.quit()
            except Exception:  # noqa: BLE001
                pass
        host.terminate()
        try:
            host.wait(10)
        except subprocess.TimeoutExpired:
            host.kill()
        server.shutdown()
    print(f'{passed} passed, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
