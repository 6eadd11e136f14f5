#if canImport(Glibc)
import Glibc
#endif
import EngineIPC

/// Session history, the selected tab, zoom, and the profile: every change is applied to the
/// tab and written to the profile database (one transaction each) before the call returns.
extension Browser {
    /// The one navigation function: the toolbar's buttons, the keyboard, the mouse's back and
    /// forward buttons, the swipe gesture, WebDriver, links and scripts all come here. False
    /// when there is nothing to do (no entry back there, nothing to reload).
    @discardableResult
    public func go(_ tab: Tab, _ navigation: Navigation) -> Bool {
        let target: Int
        switch navigation {
        case .to(let destination):
            // From the middle of the list: the forward entries are dropped.
            if tab.historyIndex + 1 < tab.history.count { tab.history.removeSubrange((tab.historyIndex + 1)...) }
            tab.history.append(HistoryEntry(destination))
            tab.historyIndex = tab.history.count - 1
            tab.scrollY = 0
            tab.scrollX = 0
            saveHistory(tab, changedFrom: tab.historyIndex)
            load(tab, destination)
            return true
        case .back: target = tab.historyIndex - 1
        case .forward: target = tab.historyIndex + 1
        case .traverse(let delta): target = tab.historyIndex + delta
        case .reload:
            guard let entry = tab.currentEntry else { return false }
            load(tab, entry.destination)
            return true
        }
        guard target >= 0, target < tab.history.count, target != tab.historyIndex else { return false }
        // Back and forward reuse the entry: its URL, and its scroll position once it loaded.
        tab.historyIndex = target
        tab.scrollY = tab.history[target].scrollY
        tab.scrollX = tab.history[target].scrollX
        saveHistory(tab, changedFrom: tab.history.count)
        load(tab, tab.history[target].destination)
        return true
    }

    /// Navigates `tab` to `destination` as a new history entry (`go(tab, .to(destination))`).
    public func navigate(_ tab: Tab, _ destination: LoadDestination) {
        go(tab, .to(destination))
    }

    /// Goes `delta` entries back (negative) or forward; false if there is no such entry.
    @discardableResult
    public func traverse(_ tab: Tab, by delta: Int) -> Bool {
        go(tab, .traverse(delta))
    }

    /// Loads the current history entry again.
    public func reload(_ tab: Tab) {
        go(tab, .reload)
    }

    /// A load committed: the current entry takes the page's final URL (after redirects) and
    /// title.
    func committed(_ tab: Tab, url: String, title: String) {
        guard var entry = tab.currentEntry else { return }
        guard entry.url != url || entry.title != title else { return }
        if entry.url != url { entry.html = nil }
        entry.url = url
        entry.title = title
        tab.history[tab.historyIndex] = entry
        saveHistory(tab, changedFrom: tab.historyIndex)
    }

    /// Scrolls `tab`'s page to `y` (CSS pixels from the top; the window's wheel and keys,
    /// WebDriver's `sable/scroll`): the content process shows the page from there, clamped
    /// to the page's height, and the position it answers is kept in the current entry (back
    /// and forward come back to it). Answers the position (`interactive`: the position asked
    /// for; the page's answer is applied when it arrives, and requests made meanwhile
    /// coalesce into the last one).
    @discardableResult
    public func setScroll(_ tab: Tab, y: Double) -> Double {
        let y = max(0, y.isFinite ? min(y, 16_777_216) : 0)
        guard !interactive else { return setScroll(tab, to: ScrollPosition(x: tab.targetScroll.x, y: y)).y }
        guard tab.isAlive, tab.state == .loaded else {
            keepScroll(tab, ScrollPosition(x: tab.scrollX, y: y))
            return y
        }
        // WebDriver: the answer, and its frame, before returning.
        guard let answer = command(tab, "scroll", [String(y)]) else { return tab.scrollY }
        guard answer.json.hasPrefix("{\"value\":"), let v = Double(answer.json.dropFirst(9).dropLast()) else { return tab.scrollY }
        keepScroll(tab, ScrollPosition(x: tab.scrollX, y: v))
        return v
    }

    /// Scrolls `tab`'s page to `position` (CSS pixels from the left and the top; a page wider
    /// than the viewport scrolls horizontally), as `setScroll(_:y:)` does. Answers the position.
    @discardableResult
    public func setScroll(_ tab: Tab, to position: ScrollPosition) -> ScrollPosition {
        func clamp(_ v: Double) -> Double { max(0, v.isFinite ? min(v, 16_777_216) : 0) }
        let position = ScrollPosition(x: clamp(position.x), y: clamp(position.y))
        guard tab.isAlive, tab.state == .loaded else {
            keepScroll(tab, position)
            return position
        }
        guard interactive else {
            guard let answer = command(tab, "scroll", [String(position.x), String(position.y)]),
                  let shown = Browser.scrollAnswer(answer.json) else { return ScrollPosition(x: tab.scrollX, y: tab.scrollY) }
            keepScroll(tab, shown)
            return shown
        }
        if tab.scrollInFlight != nil { tab.nextScroll = position } else { sendScroll(tab, position) }
        return position
    }

    /// `{"value":[x,y]}`, the `scroll` command's answer to [x, y].
    static func scrollAnswer(_ json: String) -> ScrollPosition? {
        guard json.hasPrefix("{\"value\":["), json.hasSuffix("]}") else { return nil }
        let parts = json.dropFirst(10).dropLast(2).split(separator: ",").compactMap { Double($0) }
        return parts.count == 2 ? ScrollPosition(x: parts[0], y: parts[1]) : nil
    }

    func sendScroll(_ tab: Tab, _ position: ScrollPosition) {
        tab.scrollInFlight = position
        request(tab, "scroll", [String(position.x), String(position.y)]) { [unowned self, unowned tab] answer in
            guard tab.scrollInFlight != nil else { return }  // (abandoned)
            tab.scrollInFlight = nil
            guard tab.state == .loaded else {
                // The answer of the page before a navigation (its position is not the new entry's).
                tab.nextScroll = nil
                return
            }
            if let json = answer?.json, let shown = Browser.scrollAnswer(json) { keepScroll(tab, shown) }
            if let next = tab.nextScroll {
                tab.nextScroll = nil
                if tab.isAlive, tab.state == .loaded { sendScroll(tab, next) }
            }
        }
    }

    /// The page shows `position`: the current entry keeps it.
    func keepScroll(_ tab: Tab, _ position: ScrollPosition) {
        tab.scrollY = position.y
        tab.scrollX = position.x
        guard tab.currentEntry != nil else { return }
        let entry = tab.history[tab.historyIndex]
        guard entry.scrollY != position.y || entry.scrollX != position.x else { return }
        tab.history[tab.historyIndex].scrollY = position.y
        tab.history[tab.historyIndex].scrollX = position.x
        saveHistory(tab, changedFrom: tab.historyIndex)
    }

    /// The page area's new size (device pixels): every loaded tab is laid out again in it
    /// (the selected one first), error pages are painted again; new loads use it.
    public func resize(width: Int, height: Int) {
        let w = UInt16(clamping: min(max(width, 1), 16384)), h = UInt16(clamping: min(max(height, 1), 16384))
        guard w != viewportWidth || h != viewportHeight else { return }
        viewportWidth = w
        viewportHeight = h
        let ordered = (selectedTab.map { [$0] } ?? []) + tabs.filter { $0 !== selectedTab }
        for tab in ordered {
            if tab.isAlive && tab.state == .loaded {
                fitToViewport(tab)
            } else if let page = tab.errorPage, !tab.isLoading {
                showError(tab, title: page.title, detail: page.detail)
            }
        }
    }

    /// Lays `tab`'s page out again if it was laid out in a viewport of another size (it was
    /// loading when the window was resized).
    public func fitToViewport(_ tab: Tab) {
        guard tab.isAlive, tab.state == .loaded, tab.laidOutViewport != (viewportWidth, viewportHeight) else { return }
        tab.laidOutViewport = (viewportWidth, viewportHeight)
        // The answer is the scroll position, clamped to the page's new height.
        let arguments = [String(viewportWidth), String(viewportHeight)]
        guard interactive else {
            if let answer = command(tab, "resize", arguments), answer.json.hasPrefix("{\"value\":"),
               let y = Double(answer.json.dropFirst(9).dropLast()) {
                tab.scrollY = y
            }
            return
        }
        request(tab, "resize", arguments) { [unowned tab] answer in
            guard tab.state == .loaded else { return }  // (the page before a navigation)
            if let json = answer?.json, json.hasPrefix("{\"value\":"), let y = Double(json.dropFirst(9).dropLast()) {
                tab.scrollY = y
            }
        }
    }

    /// Makes `tab` the selected one (the window shows it; WebDriver's current window).
    public func select(_ tab: Tab) {
        guard tabs.contains(where: { $0 === tab }), selectedTab !== tab else { return }
        selectedTab = tab
        saveToProfile("the selected tab") { try $0.setSelected(tab.id) }
        fitToViewport(tab)
    }

    /// A click of the window's page area at (x, y) in the layer's pixels: a link there is
    /// followed (a new history entry, through `go`).
    public func click(_ tab: Tab, x: Double, y: Double) {
        guard tab.state == .loaded else { return }
        if interactive {
            request(tab, "clickAt", [String(x), String(y)]) { _ in }  // (a link's navigation starts when it answers)
        } else {
            _ = command(tab, "clickAt", [String(x), String(y)])
        }
    }

    // MARK: - Zoom

    /// The zoom level of `url`'s site (1 when none was set).
    public func zoomLevel(for url: String) -> Double {
        siteOf(url).flatMap { siteZoom[$0] } ?? 1
    }

    /// Sets the zoom of `tab`'s page and so of its site: every tab showing a page of the
    /// site is laid out again at the new size, and new pages of the site open at it. The
    /// level is clamped to 30 %–300 %. False if the tab's page did not lay out again.
    @discardableResult
    public func setZoom(_ tab: Tab, level: Double) -> Bool {
        let level = min(max(level, ZoomLevels.range.lowerBound), ZoomLevels.range.upperBound)
        let site = siteOf(tab.currentEntry?.url ?? tab.url)
        if let site {
            if abs(level - 1) < 0.001 { siteZoom[site] = nil } else { siteZoom[site] = level }
            saveToProfile("the zoom of \(site)") { try $0.setZoom(site: site, level: level) }
        }
        var ok = applyZoom(tab, level)
        for other in tabs where other !== tab && site != nil && siteOf(other.currentEntry?.url ?? other.url) == site {
            ok = applyZoom(other, level) && ok
        }
        return ok
    }

    /// Ctrl+plus, Ctrl+minus, Ctrl+0.
    public func zoomIn(_ tab: Tab) { setZoom(tab, level: ZoomLevels.step(up: tab.zoom)) }
    public func zoomOut(_ tab: Tab) { setZoom(tab, level: ZoomLevels.step(down: tab.zoom)) }
    public func resetZoom(_ tab: Tab) { setZoom(tab, level: 1) }

    /// Lays `tab`'s page out again at `level` (the content process keeps the document).
    func applyZoom(_ tab: Tab, _ level: Double) -> Bool {
        guard abs(tab.zoom - level) > 0.0001 else { return true }
        tab.zoom = level
        guard tab.isAlive, tab.state == .loaded else { return true }  // the next load uses it
        guard interactive else {
            guard let answer = command(tab, "zoom", [String(level)]) else { return false }
            return answer.json.hasPrefix("{\"value\"")
        }
        tab.zoomLayoutsPending += 1
        request(tab, "zoom", [String(level)]) { [unowned self, unowned tab] answer in
            // The page's new size came before this answer (one connection, in order).
            tab.zoomLayoutsPending = max(tab.zoomLayoutsPending - 1, 0)
            if answer.map({ !$0.json.hasPrefix("{\"value\"") }) ?? false { log("tab \(tab.id): the page did not lay out again at its zoom") }
        }
        return true
    }

    // MARK: - The profile

    /// Uses `database` for this browser's session from now on (`nil`: save nothing).
    public func attach(profile database: ProfileDatabase?, zoom: [String: Double]) {
        profile = database
        siteZoom = zoom
    }

    /// Reopens the tabs of a saved session: the selected tab first (its page is shown before
    /// the others start), then the others in order, each loading its current entry; back and
    /// forward work at once through the restored lists. The profile is then rewritten with
    /// the new tabs' ids. `selectedShown` runs once the selected tab's page arrived (the
    /// window shows it then, before the other tabs start). Answers the time to the selected
    /// tab's page and to all tabs (ms).
    @discardableResult
    public func restore(_ session: ProfileDatabase.Session, startedAt start: UInt64,
                        selectedShown: (() -> Void)? = nil) -> (selectedShown: Double, all: Double)? {
        guard !session.tabs.isEmpty else { return nil }
        restoring = true
        defer { restoring = false }
        var opened: [(Tab, ProfileDatabase.Session.SavedTab)] = []
        let selected = session.selected ?? 0
        let order = [selected] + session.tabs.indices.filter { $0 != selected }
        var shown = 0.0
        var byIndex: [Int: Tab] = [:]
        for i in order {
            let saved = session.tabs[i]
            guard let tab = try? openTab() else {
                log("cannot reopen a tab of the saved session")
                continue
            }
            tab.history = saved.entries
            tab.historyIndex = saved.index
            byIndex[i] = tab
            opened.append((tab, saved))
            if let entry = tab.currentEntry {
                tab.scrollY = entry.scrollY
                tab.scrollX = entry.scrollX
                load(tab, entry.destination)
            }
            if i == selected {
                selectedTab = tab
                // (The window waits a little only: a restored page that hangs must not keep it from showing.)
                if tab.currentEntry != nil { _ = waitForPage(tab, timeout: interactive ? 3 : 30) }
                selectedShown?()
                shown = Double(Clock.monotonicNanoseconds() - start) / 1e6
            }
        }
        // The tab strip keeps the saved order.
        let ordered = session.tabs.indices.compactMap { byIndex[$0] }
        tabs = ordered + tabs.filter { t in !ordered.contains { $0 === t } }
        // WebDriver answers once every tab is there; the window shows them as they come.
        if !interactive { for (tab, _) in opened where tab.isLoading { _ = waitForPage(tab, timeout: 30) } }
        let all = Double(Clock.monotonicNanoseconds() - start) / 1e6
        restoring = false
        saveSession()
        log("restored \(opened.count) tabs (\(opened.reduce(0) { $0 + $1.1.entries.count }) history entries): "
            + "the selected tab's page shown after \(format(shown)) ms, all tabs " + (interactive ? "started " : "") + "after \(format(all)) ms")
        return (shown, all)
    }

    /// Rewrites the whole session (tabs in order, lists, selected tab).
    func saveSession() {
        saveToProfile("the session") { db in
            try db.replaceSession(tabs: tabs.map { ($0.id, $0.history, $0.historyIndex) }, selected: selectedTab?.id)
        }
    }

    func saveHistory(_ tab: Tab, changedFrom from: Int) {
        saveToProfile("the history of tab \(tab.id)") { db in
            try db.updateTab(id: tab.id, entries: tab.history, index: tab.historyIndex, changedFrom: from)
        }
    }

    /// A write to the profile, timed (`lastProfileWriteNanoseconds`). A failure is logged
    /// once and the browser goes on without saving (a full disk, a directory made read-only).
    func saveToProfile(_ what: String, _ body: (ProfileDatabase) throws -> Void) {
        guard let profile, !restoring else { return }
        let start = Clock.monotonicNanoseconds()
        do {
            try body(profile)
            lastProfileWriteNanoseconds = Clock.monotonicNanoseconds() - start
        } catch {
            log("cannot save \(what) in \(profile.path): \(ProfileDatabase.describe(error)); the session is no longer saved")
            self.profile = nil
        }
    }

    /// Ends the browser as a user's quit does: the processes end, the profile keeps the
    /// session as it is (the tabs are not closed in it).
    public func quit() {
        profile = nil
        for tab in tabs { tab.close() }
        tabs = []
        selectedTab = nil
    }

    func format(_ ms: Double) -> String {
        String(Double(Int(ms * 10)) / 10)
    }
}
