"""Session history, the profile and zoom, end to end: sable --headless --webdriver driven by
Selenium through pages on a local HTTP server (two sites: 127.0.0.1 and localhost).
tools/browser-session-e2e.sh sets up the venv and runs this.

A -> B -> C, back, back, forward; a second tab on another site; one site zoomed to 150 %;
quit (ending the WebDriver session); started again on the same profile: the tabs, their
current entries, back-forward lists and zoom are back, a page of the zoomed site opens at
150 % and another site at 100 %. The same with the browser killed by SIGKILL. A corrupted
profile database, a read-only profile directory and a database of a future schema: a clear
message each, the user's file left as it was. Measured: a navigation's history write, and
restoring 20 tabs x 50 entries (the selected tab's page shown). Prints 'N passed, N failed'."""

import hashlib
import http.server
import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.common.options import ArgOptions

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import check, count_color, free_port  # noqa: E402
import e2e  # noqa: E402  (its check() keeps the tally: e2e.passed, e2e.failed)

SABLE = sys.argv[1]
WORK = tempfile.mkdtemp(prefix='sable-session-e2e-')
os.chmod(WORK, 0o755)

PAGES = {
    # A 100x50 CSS-pixel red box: 150x75 device pixels at 150 %.
    'a': 'Page A', 'b': 'Page B', 'c': 'Page C', 'd': 'Page D', 'e': 'Page E',
}


def page(name):
    return (f'<!doctype html><title>{PAGES[name]}</title><body style="margin:0">'
            f'<div style="width:100px;border-top:50px solid #ff0000"></div><p>{PAGES[name]}</p>'
            f'<p><a id="next" href="/b.html">next</a></p>'
            f'<div style="padding-bottom:1500px"></div><p>the end</p>').encode()


class Handler(e2e.PageHandler):
    def do_GET(self):
        if self.path.startswith('/to-127/'):
            # A redirect to the other site (localhost -> 127.0.0.1).
            self.send_response(302)
            self.send_header('Location', f'http://127.0.0.1:{self.server.server_address[1]}/{self.path[8:]}')
            self.send_header('Content-Length', '0')
            self.end_headers()
            return
        name = self.path.strip('/').removesuffix('.html')
        if name not in PAGES:
            self.send_error(404)
            return
        body = page(name)
        self.send_html(body)


class Host:
    """One sable --headless --webdriver process on a profile, and its stderr."""

    def __init__(self, profile, as_nobody=False):
        self.port = free_port()
        self.log_path = os.path.join(WORK, f'host-{self.port}.log')
        self.started = time.time()
        preexec = None
        if as_nobody:
            def preexec():
                os.setgid(65534)
                os.setuid(65534)
        self.process = subprocess.Popen([SABLE, '--headless', f'--webdriver={self.port}', f'--profile={profile}'],
                                        stderr=open(self.log_path, 'w'), preexec_fn=preexec)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                socket.create_connection(('127.0.0.1', self.port), timeout=1).close()
                break
            except OSError:
                if self.process.poll() is not None:
                    break
                time.sleep(0.02)
        self.ready = time.time() - self.started
        self.driver = None

    def session(self):
        options = ArgOptions()
        options.set_capability('browserName', 'sable')
        self.driver = webdriver.Remote(command_executor=f'http://127.0.0.1:{self.port}', options=options)
        return self.driver

    def vendor(self, method, path, body=None):
        url = f'http://127.0.0.1:{self.port}/session/{self.driver.session_id}/sable/{path}'
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(url, data=data, method=method, headers={'Content-Type': 'application/json'})
        with urllib.request.urlopen(request, timeout=60) as r:
            return json.loads(r.read())['value']

    def history(self):
        h = self.vendor('GET', 'history')
        return [e['title'] for e in h['entries']], h['index']

    def zoom(self, level=None):
        if level is None:
            return self.vendor('GET', 'zoom')['level']
        return self.vendor('POST', 'zoom', {'level': level})['level']

    def log(self):
        with open(self.log_path) as f:
            return f.read()

    def quit(self):
        """Ends the WebDriver session: the browser quits (the profile kept)."""
        self.driver.quit()
        try:
            return self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return None

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()


def red_box(driver):
    return count_color(driver.get_screenshot_as_png(), (255, 0, 0))


def first_run(profile, site1, site2, ending):
    host = Host(profile)
    d = host.session()
    check(f'{ending}: fresh profile, one tab', len(d.window_handles) == 1)
    for p in 'abc':
        d.get(f'{site1}/{p}.html')
    check(f'{ending}: A -> B -> C', d.title == 'Page C', d.title)
    host.vendor('POST', 'scroll', {'y': 120})
    check(f'{ending}: C scrolled to 120 (the box above the viewport)',
          d.execute_script('return scrollY') == 120 and red_box(d) == 0, f"{d.execute_script('return scrollY')} {red_box(d)}")
    d.back()
    d.back()
    d.forward()
    check(f'{ending}: back, back, forward: B', d.title == 'Page B', d.title)
    check(f'{ending}: the list', host.history() == (['Page A', 'Page B', 'Page C'], 1), str(host.history()))
    tab1 = d.current_window_handle
    d.switch_to.new_window('tab')
    tab2 = d.current_window_handle
    d.get(f'{site2}/d.html')
    d.get(f'{site2}/e.html')
    d.back()
    check(f'{ending}: second tab on another site', d.title == 'Page D', d.title)
    d.switch_to.window(tab1)
    check(f'{ending}: 100 %: the box is 100x50', red_box(d) == 5000, str(red_box(d)))
    check(f'{ending}: zoom 150 %', host.zoom(1.5) == 1.5 and host.zoom() == 1.5)
    check(f'{ending}: laid out at the zoomed CSS pixel size (innerWidth 800/1.5)',
          d.execute_script('return innerWidth') == 533, str(d.execute_script('return innerWidth')))
    check(f'{ending}: 150 %: the box is 150x75', red_box(d) == 150 * 75, str(red_box(d)))
    d.switch_to.window(tab2)
    check(f'{ending}: the other site stays at 100 %', host.zoom() == 1.0, str(host.zoom()))
    d.switch_to.window(tab1)
    return host, tab1, tab2


def second_run(profile, site1, site2, ending, handles):
    host = Host(profile)
    d = host.session()
    check(f'{ending}: restarted: both tabs are back', d.window_handles == handles, f'{d.window_handles} != {handles}')
    check(f'{ending}: the selected tab is current', d.current_window_handle == handles[0], d.current_window_handle)
    check(f'{ending}: current entry B', d.title == 'Page B' and d.current_url == f'{site1}/b.html', d.title + ' ' + d.current_url)
    check(f'{ending}: the list and index', host.history() == (['Page A', 'Page B', 'Page C'], 1), str(host.history()))
    check(f'{ending}: the scroll position kept', host.vendor('GET', 'history')['entries'][2]['scrollY'] == 120)
    check(f'{ending}: zoom 150 % restored', host.zoom() == 1.5 and red_box(d) == 150 * 75, f'{host.zoom()} {red_box(d)}')
    d.back()
    check(f'{ending}: back at once: A', d.title == 'Page A', d.title)
    d.forward()
    d.forward()
    check(f'{ending}: forward, forward: C', d.title == 'Page C', d.title)
    check(f'{ending}: C shown at its scroll position (the box above the viewport)',
          d.execute_script('return scrollY') == 120 and red_box(d) == 0, f"{d.execute_script('return scrollY')} {red_box(d)}")
    d.switch_to.window(handles[1])
    check(f'{ending}: second tab: D, with E forward', d.title == 'Page D' and host.history() == (['Page D', 'Page E'], 0),
          d.title + ' ' + str(host.history()))
    d.forward()
    check(f'{ending}: second tab forward: E at 100 %', d.title == 'Page E' and host.zoom() == 1.0)
    d.switch_to.window(handles[0])
    d.get(f'{site1}/e.html')
    check(f'{ending}: a new page of the zoomed site opens at 150 %', host.zoom() == 1.5 and red_box(d) == 150 * 75,
          f'{host.zoom()} {red_box(d)}')
    check(f'{ending}: navigating from the middle dropped nothing before it',
          host.history() == (['Page A', 'Page B', 'Page C', 'Page E'], 3), str(host.history()))
    d.get(f'{site2}/a.html')
    check(f'{ending}: another site opens at 100 %', host.zoom() == 1.0 and red_box(d) == 5000, f'{host.zoom()} {red_box(d)}')
    d.get(f'{site2}/to-127/d.html')
    check(f'{ending}: a redirect from it to the zoomed site: the page at 150 %', d.title == 'Page D' and host.zoom() == 1.5
          and red_box(d) == 150 * 75, f'{d.title} {host.zoom()} {red_box(d)}')
    code = host.quit()
    check(f'{ending}: quit ends the browser', code == 0, str(code))


def digest(path):
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


def bad_profiles(site1):
    # A corrupted database: moved aside (bytes intact), a clear message, an empty session.
    profile = os.path.join(WORK, 'corrupt')
    os.makedirs(profile)
    junk = b'this is not a SQLite database\n' * 200
    with open(os.path.join(profile, 'profile.sqlite'), 'wb') as f:
        f.write(junk)
    host = Host(profile)
    d = host.session()
    log = host.log()
    aside = [n for n in os.listdir(profile) if n.startswith('profile.sqlite.damaged-')]
    check('corrupted: a clear message', 'was damaged' in log and 'moved aside' in log, log)
    check('corrupted: the file moved aside intact', len(aside) == 1 and open(os.path.join(profile, aside[0]), 'rb').read() == junk, str(aside))
    check('corrupted: the browser starts empty and works', len(d.window_handles) == 1 and host.history() == ([], -1))
    d.get(f'{site1}/a.html')
    check('corrupted: a new database saves again', host.vendor('GET', 'profile')['saving'] is True)
    host.quit()

    # A database of a future schema version: refused, not overwritten.
    profile = os.path.join(WORK, 'future')
    os.makedirs(profile)
    path = os.path.join(profile, 'profile.sqlite')
    db = sqlite3.connect(path)
    db.executescript('PRAGMA journal_mode=WAL; CREATE TABLE tab(id INTEGER PRIMARY KEY, position, current_index, window);'
                     'INSERT INTO tab VALUES (1, 0, 0, 7); PRAGMA application_id = 1398891116; PRAGMA user_version = 99;')
    db.close()
    before = digest(path)
    host = Host(profile)
    d = host.session()
    d.get(f'{site1}/a.html')
    log = host.log()
    check('future schema: a clear message', 'newer Sable (schema version 99' in log and 'left as it is' in log, log)
    check('future schema: nothing saved', host.vendor('GET', 'profile')['saving'] is False)
    host.quit()
    names = sorted(os.listdir(profile))
    check('future schema: the database is untouched (no -wal, no -shm)', digest(path) == before and
          not any(n.startswith('profile.sqlite') and n != 'profile.sqlite' for n in names), str(names))

    # A read-only profile directory (holding a real session): a clear message, nothing written.
    profile = os.path.join(WORK, 'readonly')
    shutil.copytree(os.path.join(WORK, 'quit'), profile)
    for name in os.listdir(profile):
        os.chmod(os.path.join(profile, name), 0o444)
    os.chmod(profile, 0o555)
    listing = {n: digest(os.path.join(profile, n)) for n in os.listdir(profile) if os.path.isfile(os.path.join(profile, n))}
    host = Host(profile, as_nobody=os.getuid() == 0)  # root writes anywhere: run as nobody
    d = host.session()
    d.get(f'{site1}/c.html')
    log = host.log()
    check('read-only directory: a clear message', 'is read-only' in log and 'saves nothing' in log, log)
    check('read-only directory: the browser works', d.title == 'Page C' and host.vendor('GET', 'profile')['saving'] is False)
    host.quit()
    after = {n: digest(os.path.join(profile, n)) for n in os.listdir(profile) if os.path.isfile(os.path.join(profile, n))}
    check('read-only directory: nothing written', after == listing, f'{sorted(listing)} -> {sorted(after)}')
    os.chmod(profile, 0o755)


def measure(site1):
    # A navigation's history write (one transaction, WAL), after a list of 50 entries.
    profile = os.path.join(WORK, 'measure')
    host = Host(profile)
    d = host.session()
    times = []
    for i in range(60):
        d.get(f'{site1}/{"abcde"[i % 5]}.html')
        times.append(host.vendor('GET', 'profile')['lastWriteMilliseconds'])
    times.sort()
    median, worst = times[len(times) // 2], times[-1]
    print(f'measure: history write per navigation: median {median:.3f} ms, max {worst:.3f} ms (60 navigations)')
    check('a navigation commits its history write in < 5 ms (median)', median < 5, f'{median} ms')
    host.quit()

    # 20 tabs x 50 entries, written in the schema the browser reads (version 1).
    profile = os.path.join(WORK, 'big')
    os.makedirs(profile)
    db = sqlite3.connect(os.path.join(profile, 'profile.sqlite'))
    db.executescript('''
        PRAGMA journal_mode=WAL;
        CREATE TABLE tab(id INTEGER PRIMARY KEY, position INTEGER NOT NULL, current_index INTEGER NOT NULL);
        CREATE TABLE entry(tab INTEGER NOT NULL REFERENCES tab(id) ON DELETE CASCADE, position INTEGER NOT NULL,
                           url TEXT NOT NULL, title TEXT NOT NULL, scroll_y REAL NOT NULL, PRIMARY KEY(tab, position));
        CREATE TABLE setting(key TEXT PRIMARY KEY, value);
        CREATE TABLE site_zoom(site TEXT PRIMARY KEY, level REAL NOT NULL);
        PRAGMA application_id = 1398891116;
        PRAGMA user_version = 1;''')
    for t in range(20):
        db.execute('INSERT INTO tab VALUES (?, ?, ?)', (t + 1, t, 25))
        for e in range(50):
            p = 'abcde'[e % 5]
            db.execute('INSERT INTO entry VALUES (?, ?, ?, ?, 0)', (t + 1, e, f'{site1}/{p}.html', PAGES[p]))
    db.execute("INSERT INTO setting VALUES ('selected_tab', 7)")
    db.commit()
    db.close()
    host = Host(profile)
    log = host.log()
    m = re.search(r'restored 20 tabs \(1000 history entries\): the selected tab\'s page shown after ([\d.]+) ms, all tabs after ([\d.]+) ms', log)
    shown = float(m.group(1)) if m else 1e9
    print(f'measure: restoring 20 tabs x 50 entries: selected page shown {shown} ms after start, '
          f'all tabs {m.group(2) if m else "?"} ms; WebDriver ready {host.ready * 1000:.0f} ms after launch')
    check('restore 20 x 50: the selected tab\'s page shown in < 1 s', shown < 1000, log)
    d = host.session()
    check('restore 20 x 50: 20 tabs, the selected one current', len(d.window_handles) == 20 and
          d.current_window_handle == d.window_handles[6], d.current_window_handle)
    check('restore 20 x 50: its list', host.history() == ([PAGES['abcde'[e % 5]] for e in range(50)], 25) and d.title == 'Page A')
    d.back()
    check('restore 20 x 50: back at once', d.title == 'Page E', d.title)
    host.quit()


def main():
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    site1, site2 = f'http://127.0.0.1:{port}', f'http://localhost:{port}'
    try:
        for ending in ['quit', 'SIGKILL']:
            profile = os.path.join(WORK, ending)
            host, tab1, tab2 = first_run(profile, site1, site2, ending)
            if ending == 'quit':
                code = host.quit()
                check('quit: the browser ends with the session', code == 0, str(code))
            else:
                host.kill()
            second_run(profile, site1, site2, ending, [tab1, tab2])
        bad_profiles(site1)
        measure(site1)
    finally:
        server.shutdown()
    print(f'{e2e.passed} passed, {e2e.failed} failed')
    if e2e.failed == 0:
        shutil.rmtree(WORK, ignore_errors=True)
    else:
        print('logs kept in', WORK)
    return 1 if e2e.failed else 0


if __name__ == '__main__':
    sys.exit(main())
