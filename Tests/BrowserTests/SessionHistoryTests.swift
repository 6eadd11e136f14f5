import Testing
#if canImport(Glibc)
import Glibc
#endif
import DisplayList
import EngineIPC
import HostCore

/// A fresh directory under TMPDIR (or /tmp).
func temporaryDirectory(_ name: String) -> String {
    let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    var template = Array((base + "/sable-\(name)-XXXXXX").utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    return made.map { String(cString: $0) } ?? base
}

func writeFile(_ path: String, _ bytes: [UInt8]) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
}

func listing(_ directory: String) -> [String] {
    guard let dir = opendir(directory) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let e = readdir(dir) {
        let name = withUnsafeBytes(of: e.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
        if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
}

@Suite struct ProfileDatabaseTests {
    @Test func roundTrip() throws {
        let dir = temporaryDirectory("profile")
        let opened = ProfileDatabase.open(directory: dir)
        #expect(opened.messages.isEmpty)
        let db = try #require(opened.database)
        #expect(opened.session == ProfileDatabase.Session())
        let a = HistoryEntry(url: "http://a.example/", title: "A")
        var b = HistoryEntry(url: "http://b.example/", title: "B", scrollY: 40)
        b.scrollX = 25  // (schema 2)
        try db.addTab(id: 1, entries: [], index: -1)
        try db.updateTab(id: 1, entries: [a], index: 0, changedFrom: 0)
        try db.updateTab(id: 1, entries: [a, b], index: 1, changedFrom: 1)
        try db.addTab(id: 5, entries: [b], index: 0)
        try db.setSelected(5)
        try db.setZoom(site: "example.com", level: 1.5)
        try db.setZoom(site: "other.org", level: 2)
        try db.setZoom(site: "other.org", level: 1)
        var session = try db.readSession()
        #expect(session.tabs == [.init(entries: [a, b], index: 1), .init(entries: [b], index: 0)])
        #expect(session.selected == 1)
        #expect(session.zoom == ["example.com": 1.5])
        // From the middle: the forward entry goes.
        try db.updateTab(id: 1, entries: [a, b], index: 0, changedFrom: 2)
        try db.updateTab(id: 1, entries: [a], index: 0, changedFrom: 1)
        try db.removeTab(id: 5, selected: 1)
        session = try db.readSession()
        #expect(session.tabs == [.init(entries: [a], index: 0)])
        #expect(session.selected == 0)
    }

    @Test func inUseByAnotherBrowser() throws {
        let dir = temporaryDirectory("profile-lock")
        let first = ProfileDatabase.open(directory: dir)
        #expect(first.database != nil)
        let second = ProfileDatabase.open(directory: dir)
        #expect(second.database == nil)
        #expect(second.messages.first?.contains("in use by another Sable") == true)
    }

    @Test func damagedDatabaseMovedAside() throws {
        let dir = temporaryDirectory("profile-damaged")
        let junk = Array("not a database at all\n".utf8) + [UInt8](repeating: 7, count: 5000)
        writeFile(dir + "/profile.sqlite", junk)
        let opened = ProfileDatabase.open(directory: dir)
        #expect(opened.database != nil)
        #expect(opened.session.tabs.isEmpty)
        #expect(opened.messages.count == 1 && opened.messages[0].contains("moved aside"))
        let aside = listing(dir).filter { $0.hasPrefix("profile.sqlite.damaged-") }
        #expect(aside.count == 1)
        #expect(aside.first.flatMap { Headless.readFile(dir + "/" + $0) } == junk)
    }

    @Test func schema1IsBroughtUpTo2() throws {
        // A profile of the first version (no scroll_x), as sqlite3 writes it.
        let dir = temporaryDirectory("profile-v1")
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1] + '/profile.sqlite')
            db.executescript('''
                CREATE TABLE tab(id INTEGER PRIMARY KEY, position INTEGER NOT NULL, current_index INTEGER NOT NULL);
                CREATE TABLE entry(tab INTEGER NOT NULL REFERENCES tab(id) ON DELETE CASCADE, position INTEGER NOT NULL,
                                   url TEXT NOT NULL, title TEXT NOT NULL, scroll_y REAL NOT NULL, PRIMARY KEY(tab, position));
                CREATE TABLE setting(key TEXT PRIMARY KEY, value);
                CREATE TABLE site_zoom(site TEXT PRIMARY KEY, level REAL NOT NULL);
                INSERT INTO tab VALUES (3, 0, 0); INSERT INTO entry VALUES (3, 0, 'http://a.example/', 'A', 12);
                PRAGMA application_id = 1398891116; PRAGMA user_version = 1;''')
            db.commit()
            """
        var pid: pid_t = 0
        let args = ["python3", "-c", script, dir]
        var argv = args.map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        #expect(posix_spawnp(&pid, "python3", nil, nil, &argv, environ) == 0)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        #expect(status == 0)
        do {
            let opened = ProfileDatabase.open(directory: dir)
            #expect(opened.messages.isEmpty)
            let db = try #require(opened.database)
            #expect(opened.session.tabs == [.init(entries: [HistoryEntry(url: "http://a.example/", title: "A", scrollY: 12)], index: 0)])
            var e = HistoryEntry(url: "http://a.example/", title: "A", scrollY: 12)
            e.scrollX = 30
            try db.updateTab(id: 3, entries: [e], index: 0, changedFrom: 0)
        }
        let again = ProfileDatabase.open(directory: dir)
        #expect(again.session.tabs.first?.entries.first?.scrollX == 30)
        // (The header's user_version, bytes 60...63: now 2.)
        let bytes = try #require(Headless.readFile(dir + "/profile.sqlite"))
        #expect(Array(bytes[60...63]) == [0, 0, 0, 2])
    }

    @Test func newerSchemaRefused() throws {
        let dir = temporaryDirectory("profile-future")
        do {
            let opened = ProfileDatabase.open(directory: dir)
            let db = try #require(opened.database)
            try db.addTab(id: 1, entries: [HistoryEntry(url: "http://a.example/")], index: 0)
        }
        // A later Sable's database: `user_version` (the header's bytes 60...63, big-endian) is 7.
        var bytes = try #require(Headless.readFile(dir + "/profile.sqlite"))
        #expect(listing(dir).filter { $0.hasPrefix("profile.sqlite-") }.isEmpty)  // checkpointed at close
        bytes[60...63] = [0, 0, 0, 7]
        writeFile(dir + "/profile.sqlite", bytes)
        let before = bytes
        let opened = ProfileDatabase.open(directory: dir)
        #expect(opened.database == nil)
        #expect(opened.messages.first?.contains("newer Sable (schema version 7") == true)
        #expect(Headless.readFile(dir + "/profile.sqlite") == before)
    }
}

@Suite struct SessionHistoryTests {
    @Test func sitesAndZoomSteps() {
        #expect(siteOf("https://www.example.co.uk/a") == "example.co.uk")
        #expect(siteOf("http://127.0.0.1:8000/") == "127.0.0.1")
        #expect(siteOf("http://localhost:1/") == "localhost")
        #expect(siteOf("about:blank") == nil)
        #expect(siteOf("file:///tmp/x.html") == "file:")
        #expect(ZoomLevels.step(up: 1) == 1.1 && ZoomLevels.step(down: 1) == 0.9)
        #expect(ZoomLevels.step(up: 3) == 3 && ZoomLevels.step(down: 0.3) == 0.3)
        #expect(ZoomLevels.step(up: 1.3) == 1.5)
    }

    @Test func backForwardAndZoom() throws {
        let browser = try makeBrowser()
        let dir = temporaryDirectory("profile-nav")
        let opened = ProfileDatabase.open(directory: dir)
        browser.attach(profile: opened.database, zoom: [:])
        let tab = try browser.openTab()
        func page(_ name: String) -> LoadDestination {
            .html("<title>\(name)</title><body style='margin:0'><div style='width:100px;border-top:50px solid #ff0000'></div>"
                  + "<div style='padding-bottom:2000px'></div>", baseURL: "http://\(name.lowercased()).example/")
        }
        for name in ["A", "B", "C"] {
            browser.go(tab, .to(page(name)))
            #expect(browser.waitForPage(tab, timeout: 30))
        }
        #expect(tab.history.map(\.title) == ["A", "B", "C"] && tab.historyIndex == 2)
        browser.setScroll(tab, y: 33)
        #expect(browser.go(tab, .back) && browser.waitForPage(tab, timeout: 30))
        #expect(browser.go(tab, .back) && browser.waitForPage(tab, timeout: 30))
        #expect(!browser.go(tab, .back))
        #expect(tab.title == "A" && tab.canGoForward && !tab.canGoBack)
        #expect(browser.go(tab, .traverse(2)) && browser.waitForPage(tab, timeout: 30))
        #expect(tab.title == "C" && tab.scrollY == 33)
        #expect(browser.go(tab, .back) && browser.waitForPage(tab, timeout: 30))
        browser.go(tab, .to(page("D")))
        #expect(browser.waitForPage(tab, timeout: 30))
        #expect(tab.history.map(\.title) == ["A", "B", "D"] && tab.historyIndex == 2)
        // The profile has it, write for write.
        let saved = try #require(try opened.database?.readSession())
        #expect(saved.tabs.first?.entries.map(\.title) == ["A", "B", "D"] && saved.tabs.first?.index == 2)

        // Zoom: 150 % lays the page out at 150 %: the 100x50 box becomes 150x75.
        func red(_ x: Int, _ y: Int) -> Bool { tab.layer.map { $0.pixel(x: x, y: y) == (255, 0, 0, 255) } ?? false }
        #expect(red(99, 49) && !red(101, 20) && !red(20, 51))
        #expect(browser.setZoom(tab, level: 1.5))
        #expect(tab.zoom == 1.5 && browser.siteZoom == ["d.example": 1.5])
        #expect(red(148, 73) && !red(152, 20) && !red(20, 76))
        #expect(try opened.database?.readSession().zoom == ["d.example": 1.5])
        browser.zoomIn(tab)
        #expect(tab.zoom == 1.75)
        browser.resetZoom(tab)
        #expect(tab.zoom == 1 && browser.siteZoom.isEmpty)
        browser.quit()
    }
}

/// The touchpad's events for a two-finger swipe, as GTK's scroll controller delivers them.
@Suite struct SwipeTrackerTests {
    /// `steps` scroll events of `dx` each, 10 ms apart, then the end.
    func swipe(_ t: inout SwipeTracker, dx: Double, dy: Double = 0, steps: Int, back: Bool = true, forward: Bool = true) -> Navigation? {
        for i in 0..<steps {
            _ = t.scroll(dx: dx, dy: dy, time: Double(i * 10), canGoBack: back, canGoForward: forward)
        }
        return t.end()
    }

    @Test func fingersRightGoBackLeftGoForward() {
        var t = SwipeTracker(width: 800)
        #expect(swipe(&t, dx: -20, steps: 20) == .back)            // 400 px right
        #expect(swipe(&t, dx: 20, steps: 20) == .forward)
        #expect(t.phase == .idle && t.offset == 0)
    }

    @Test func slidesWithTheFingers() {
        var t = SwipeTracker(width: 800)
        for i in 0..<10 {
            let used = t.scroll(dx: -10, dy: 0, time: Double(i * 16), canGoBack: true, canGoForward: false)
            #expect(used)
        }
        #expect(t.phase == .swiping && t.offset == 100)
    }

    @Test func shortSlowSwipeSnapsBack() {
        var t = SwipeTracker(width: 800)
        #expect(swipe(&t, dx: -2, steps: 40) == nil)  // 80 px over 400 ms
    }

    @Test func flickCommits() {
        var t = SwipeTracker(width: 800)
        #expect(swipe(&t, dx: -40, steps: 4) == .back)  // 160 px in 30 ms
    }

    @Test func verticalScrollIsNotASwipe() {
        var t = SwipeTracker(width: 800)
        #expect(swipe(&t, dx: -3, dy: 30, steps: 30) == nil)
    }

    @Test func nothingBackThere() {
        var t = SwipeTracker(width: 800)
        #expect(swipe(&t, dx: -20, steps: 30, back: false) == nil)
        _ = t.scroll(dx: -20, dy: 0, time: 0, canGoBack: false, canGoForward: true)
        _ = t.scroll(dx: -200, dy: 0, time: 10, canGoBack: false, canGoForward: true)
        #expect(t.offset <= 40)  // resists
    }
}

@Suite struct WindowCommandTests {
    @Test func keysAndButtons() {
        #expect(WindowCommand.forKey(0xff51, control: false, alt: true, shift: false) == .navigate(.back))
        #expect(WindowCommand.forKey(0xff53, control: false, alt: true, shift: false) == .navigate(.forward))
        #expect(WindowCommand.forKey(0xff51, control: false, alt: false, shift: false) == .scroll(.lineLeft))  // Left alone: the page (the address field keeps its caret keys)
        #expect(WindowCommand.forKey(0x6c, control: true, alt: false, shift: false) == .focusAddress)
        #expect(WindowCommand.forKey(0x74, control: true, alt: false, shift: false) == .newTab)
        #expect(WindowCommand.forKey(0x77, control: true, alt: false, shift: false) == .closeTab)
        #expect(WindowCommand.forKey(0xff09, control: true, alt: false, shift: false) == .nextTab)
        #expect(WindowCommand.forKey(0xfe20, control: true, alt: false, shift: true) == .previousTab)
        #expect(WindowCommand.forKey(0xffc2, control: false, alt: false, shift: false) == .navigate(.reload))
        #expect(WindowCommand.forKey(0x2b, control: true, alt: false, shift: true) == .zoomIn)
        #expect(WindowCommand.forKey(0x2d, control: true, alt: false, shift: false) == .zoomOut)
        #expect(WindowCommand.forKey(0x30, control: true, alt: false, shift: false) == .zoomReset)
        #expect(WindowCommand.forMouseButton(8) == .navigate(.back) && WindowCommand.forMouseButton(9) == .navigate(.forward))
        #expect(WindowCommand.forMouseButton(1) == nil)
    }

    @Test func addressField() {
        #expect(AddressField.destination(for: " http://example.com/a ") == .url("http://example.com/a"))
        #expect(AddressField.destination(for: "example.com/x") == .url("http://example.com/x"))
        #expect(AddressField.destination(for: "localhost:8000") == .url("http://localhost:8000/"))
        #expect(AddressField.destination(for: "two words") == nil)
        #expect(AddressField.destination(for: "") == nil)
        #expect(AddressField.destination(for: "about:blank") == .html("", baseURL: "about:blank"))
    }
}
