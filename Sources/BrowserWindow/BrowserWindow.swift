#if canImport(Glibc)
import Glibc
#endif
import CPangoCairo
import EngineIPC
import HostCore
import RenderingCore

/// The Sable Browser's window (GTK 4): a tab strip, back / forward / reload buttons whose
/// enabled state follows the selected tab's history, an address field, the zoom level while
/// it is not 100 %, and the page area showing the rendering process's layer of the selected
/// tab (or its error page). Keys, mouse buttons 8 and 9, and the touchpad swipe all end in
/// `Browser.go` (through `WindowCommand`), as the toolbar's buttons do.
///
/// One thread: the loop runs GTK's pending events, then pumps the browser's connections
/// (`Browser.pump`, 8 ms), then brings the widgets up to date.
public final class BrowserWindow {
    let gtk: GTK
    let browser: Browser
    var window: OpaquePointer?
    var tabStrip: OpaquePointer?
    var backButton: OpaquePointer?
    var forwardButton: OpaquePointer?
    var reloadButton: OpaquePointer?
    var newTabButton: OpaquePointer?
    var address: OpaquePointer?
    var zoomLabel: OpaquePointer?
    var page: OpaquePointer?
    /// Over the page area while the selected tab's page is not responding: wait or stop it.
    var hangBar: OpaquePointer?
    var waitButton: OpaquePointer?
    var stopButton: OpaquePointer?
    var tracedHangBar = false
    /// The page's scrollbars and their adjustments (CSS pixels): the horizontal one over the
    /// page's bottom edge while the page is wider than the page area; the vertical one over
    /// its right edge while the page is taller, shown as overlay scrollbars are (GNOME Web's,
    /// macOS's): while it scrolls and for a second after, and while the pointer is near it.
    var horizontalBar: OpaquePointer?
    var horizontalAdjustment: OpaquePointer?
    var verticalBar: OpaquePointer?
    var verticalAdjustment: OpaquePointer?
    /// Until when the vertical bar shows (CLOCK_MONOTONIC ns), and whether the pointer is near it.
    var verticalBarUntil: UInt64 = 0
    var pointerNearRightEdge = false
    /// Set while the window itself configures the adjustments (not a user's drag).
    var configuringBars = false
    var tracedBars = false
    /// The touchpad gesture scrolls a wide page sideways (not a swipe), decided at its start.
    var gestureScrollsPage: Bool?
    var scrollController: OpaquePointer?
    var tabButtons: [(tab: Tab, button: OpaquePointer?)] = []
    var closed = false
    var swipe = SwipeTracker(width: 800)
    /// The page sliding after a swipe, and the layer of the page it started from (drawn
    /// sliding out while the new page slides in).
    var animation: SwipeAnimation?
    var animationSnapshot: SharedLayer?
    /// The page a swipe goes to, as it last showed (until its own layer arrives).
    var incomingSnapshot: SharedLayer?
    /// The last frame of recently shown history entries (by tab, index and URL), drawn beside
    /// the page while a swipe moves it, as Safari and GNOME Web do. At most `snapshotLimit`.
    var snapshots: [(key: String, layer: SharedLayer)] = []
    static let snapshotLimit = 12
    /// A scroll position asked for by the wheel or keys, not sent yet (the loop sends the
    /// last one: events that come faster than frames coalesce).
    var pendingScroll: ScrollPosition?
    /// The page area's new size, not applied yet.
    var pendingResize: (width: Int, height: Int)?
    /// What the widgets show, to update only what changed.
    var shown = Shown()
    var tracedLayout = false
    /// `SABLE_WINDOW_LOG=1`: every change of the widgets' state is logged (tests read it).
    let trace = getenv("SABLE_WINDOW_LOG") != nil

    struct Shown: Equatable {
        var tabs: [UInt32] = []
        var labels: [String] = []
        var selected: UInt32?
        var url = ""
        var title = ""
        var back = false, forward = false, reload = false
        var zoom = 1.0
        var layer: ObjectIdentifier?
        var offset = 0.0
        var scrollY = 0.0
        var scrollX = 0.0
        var hung = false
        var bars = ScrollBars()
    }

    /// Opens the window over `browser` (GTK loaded; nil and why when there is no display or no GTK).
    public static func open(browser: Browser) -> Result<BrowserWindow, OpenError> {
        let gtk: GTK
        do {
            gtk = try GTK.load()
        } catch {
            return .failure(OpenError(description: error.description))
        }
        guard gtk.gtk_init_check() != 0 else {
            return .failure(OpenError(description: "cannot open a window: no display (DISPLAY or WAYLAND_DISPLAY); use --headless"))
        }
        let w = BrowserWindow(gtk: gtk, browser: browser)
        w.build()
        return .success(w)
    }

    /// Why the window cannot open (no GTK 4, no display).
    public struct OpenError: Error, CustomStringConvertible {
        public var description: String
    }

    init(gtk: GTK, browser: Browser) {
        self.gtk = gtk
        self.browser = browser
        // The window never waits for a page: operations send their command and go on.
        browser.interactive = true
    }

    var me: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static func from(_ data: UnsafeMutableRawPointer?) -> BrowserWindow {
        Unmanaged<BrowserWindow>.fromOpaque(data!).takeUnretainedValue()
    }

    // MARK: - Widgets

    func build() {
        let g = gtk
        window = g.gtk_window_new()
        g.setTitle(window, "Sable")
        let width = Int32(browser.options.viewportWidth), height = Int32(browser.options.viewportHeight)
        g.gtk_window_set_default_size(window, width, height + 90)
        let column = g.gtk_box_new(GTK.orientationVertical, 0)
        tabStrip = g.gtk_box_new(GTK.orientationHorizontal, 2)
        g.addClass(tabStrip, "toolbar")
        let toolbar = g.gtk_box_new(GTK.orientationHorizontal, 4)
        g.addClass(toolbar, "toolbar")
        backButton = g.button("◀")
        forwardButton = g.button("▶")
        reloadButton = g.button("⟳")
        g.setTooltip(backButton, "Back (Alt+Left)")
        g.setTooltip(forwardButton, "Forward (Alt+Right)")
        g.setTooltip(reloadButton, "Reload (F5)")
        address = g.gtk_entry_new()
        g.gtk_widget_set_hexpand(address, 1)
        zoomLabel = g.label("100 %")
        g.gtk_widget_set_visible(zoomLabel, 0)
        for w in [backButton, forwardButton, reloadButton, address, zoomLabel] { g.gtk_box_append(toolbar, w) }
        page = g.gtk_drawing_area_new()
        // The window may be made smaller than the first viewport: the page is laid out
        // again at the page area's size (`resized`).
        g.gtk_widget_set_size_request(page, min(width, 200), min(height, 150))
        g.gtk_widget_set_focusable(page, 1)
        g.gtk_widget_set_hexpand(page, 1)
        g.gtk_widget_set_vexpand(page, 1)
        g.gtk_drawing_area_set_draw_func(page, unsafeBitCast(BrowserWindow.draw, to: UnsafeRawPointer.self), me, nil)
        // A page that does not respond: a bar over the page area (not beside it: the page
        // keeps its size) with the choice to wait or to stop it, as Safari's and Chromium's.
        hangBar = g.gtk_box_new(GTK.orientationHorizontal, 8)
        g.addClass(hangBar, "osd")
        g.addClass(hangBar, "toolbar")
        g.gtk_widget_set_halign(hangBar, GTK.alignCenter)
        g.gtk_widget_set_valign(hangBar, GTK.alignStart)
        g.gtk_widget_set_margin_top(hangBar, 12)
        waitButton = g.button("Wait")
        stopButton = g.button("Stop page")
        g.addClass(stopButton, "destructive-action")
        g.setTooltip(stopButton, "Stop the page's scripts (its content process ends)")
        for w in [g.label("This page is not responding."), waitButton, stopButton] { g.gtk_box_append(hangBar, w) }
        g.gtk_widget_set_visible(hangBar, 0)
        let pageArea = g.gtk_overlay_new()
        g.gtk_overlay_set_child(pageArea, page)
        g.gtk_overlay_add_overlay(pageArea, hangBar)
        // The page's overlay scrollbars (hidden until the page scrolls), both on `barMoved`.
        func overlayScrollbar(_ orientation: Int32, halign: Int32, valign: Int32) -> (adjustment: GTK.Object?, bar: GTK.Object?) {
            let adjustment = g.gtk_adjustment_new(0, 0, 1, 40, 500, 1)
            let bar = g.gtk_scrollbar_new(orientation, adjustment)
            g.gtk_widget_set_halign(bar, halign)
            g.gtk_widget_set_valign(bar, valign)
            g.gtk_widget_set_visible(bar, 0)
            g.gtk_overlay_add_overlay(pageArea, bar)
            g.connect(adjustment, "value-changed", unsafeBitCast(BrowserWindow.barMoved, to: UnsafeRawPointer.self), me)
            return (adjustment, bar)
        }
        (horizontalAdjustment, horizontalBar) = overlayScrollbar(GTK.orientationHorizontal, halign: GTK.alignFill, valign: GTK.alignEnd)
        (verticalAdjustment, verticalBar) = overlayScrollbar(GTK.orientationVertical, halign: GTK.alignEnd, valign: GTK.alignFill)
        let motion = g.gtk_event_controller_motion_new()
        g.connect(motion, "motion", unsafeBitCast(BrowserWindow.pointerMoved, to: UnsafeRawPointer.self), me)
        g.gtk_widget_add_controller(page, motion)
        g.gtk_widget_set_hexpand(pageArea, 1)
        g.gtk_widget_set_vexpand(pageArea, 1)
        for w in [tabStrip, toolbar, pageArea] { g.gtk_box_append(column, w) }
        g.connect(page, "resize", unsafeBitCast(BrowserWindow.resized, to: UnsafeRawPointer.self), me)
        g.gtk_window_set_child(window, column)

        let clicked = unsafeBitCast(BrowserWindow.clicked, to: UnsafeRawPointer.self)
        for b in [backButton, forwardButton, reloadButton, waitButton, stopButton] { g.connect(b, "clicked", clicked, me) }
        g.connect(address, "activate", unsafeBitCast(BrowserWindow.activated, to: UnsafeRawPointer.self), me)
        g.connect(window, "close-request", unsafeBitCast(BrowserWindow.closeRequest, to: UnsafeRawPointer.self), me)
        // Keys: in the capture phase, so that the address field does not take Alt+Left & co.
        let keys = g.gtk_event_controller_key_new()
        g.gtk_event_controller_set_propagation_phase(keys, GTK.phaseCapture)
        g.connect(keys, "key-pressed", unsafeBitCast(BrowserWindow.keyPressed, to: UnsafeRawPointer.self), me)
        g.gtk_widget_add_controller(window, keys)
        // Mouse buttons 8 and 9, anywhere in the window.
        let buttons = g.gtk_gesture_click_new()
        g.gtk_gesture_single_set_button(buttons, 0)
        g.connect(buttons, "pressed", unsafeBitCast(BrowserWindow.mousePressed, to: UnsafeRawPointer.self), me)
        g.gtk_widget_add_controller(window, buttons)
        // A click in the page (links).
        let pageClick = g.gtk_gesture_click_new()
        g.gtk_gesture_single_set_button(pageClick, 1)
        g.connect(pageClick, "released", unsafeBitCast(BrowserWindow.pageReleased, to: UnsafeRawPointer.self), me)
        g.gtk_widget_add_controller(page, pageClick)
        // The touchpad's two-finger swipe: smooth scroll events, then scroll-end.
        scrollController = g.gtk_event_controller_scroll_new(GTK.scrollBothAxes)
        g.connect(scrollController, "scroll-begin", unsafeBitCast(BrowserWindow.scrollBegan, to: UnsafeRawPointer.self), me)
        g.connect(scrollController, "scroll", unsafeBitCast(BrowserWindow.scrolled, to: UnsafeRawPointer.self), me)
        g.connect(scrollController, "scroll-end", unsafeBitCast(BrowserWindow.scrollEnded, to: UnsafeRawPointer.self), me)
        g.gtk_widget_add_controller(page, scrollController)
        g.gtk_window_present(window)
    }

    // MARK: - The loop

    /// Runs until the window is closed (or `stop`); the browser then quits (the profile keeps
    /// the tabs).
    public func run(until stop: () -> Bool = { false }) -> Int32 {
        if browser.tabs.isEmpty { perform(.newTab) }
        sync()
        while !closed && !stop() {
            while gtk.g_main_context_iteration(nil, 0) != 0 && !closed {}
            if closed { break }
            applyPending()
            browser.pump(timeoutMilliseconds: animation != nil ? 4 : 8)
            sync()
        }
        browser.quit()
        return 0
    }

    /// Brings the widgets up to date and lets GTK draw them (during the restore).
    public func show() {
        sync()
        for _ in 0..<50 where gtk.g_main_context_iteration(nil, 0) != 0 {}
    }

    /// What the events asked for since the last turn of the loop: a new size, a scroll.
    func applyPending() {
        if let size = pendingResize {
            pendingResize = nil
            browser.resize(width: size.width, height: size.height)
            if trace { log("window: viewport \(browser.viewportWidth)x\(browser.viewportHeight)") }
        }
        if let tab = browser.selectedTab { browser.fitToViewport(tab) }
        if let position = pendingScroll {
            pendingScroll = nil
            if let tab = browser.selectedTab { browser.setScroll(tab, to: position) }
        }
        if animation != nil { gtk.gtk_widget_queue_draw(page) }
    }

    func log(_ line: String) {
        let text = line + "\n"
        _ = text.withCString { write(2, $0, strlen($0)) }
    }

    /// Scrolls the selected tab's page by `delta` CSS pixels (or to a step's position).
    func scroll(dx: Double = 0, dy: Double) {
        guard let tab = browser.selectedTab, tab.state == .loaded else { return }
        let from = pendingScroll ?? tab.targetScroll
        pendingScroll = ScrollPosition(x: max(from.x + dx, 0), y: max(from.y + dy, 0))
    }

    /// Whether the keyboard focus is in the address field (keys that scroll type there).
    var typingInAddress: Bool {
        guard let focus = gtk.gtk_root_get_focus(window) else { return false }
        return focus == address || gtk.gtk_widget_is_ancestor(focus, address) != 0
    }

    /// Starts the page's slide after a swipe ended at `offset`.
    func slide(from offset: Double, navigation: Navigation?) {
        guard offset != 0 || navigation != nil else { return }
        let now = Double(Clock.monotonicNanoseconds()) / 1e6
        animation = SwipeAnimation(offset: offset, navigation: navigation, width: swipe.width, time: now)
        animationSnapshot = browser.selectedTab?.layer
        incomingSnapshot = browser.selectedTab.flatMap { tab in
            navigation == .back ? snapshot(of: tab, at: tab.historyIndex - 1) : navigation == .forward ? snapshot(of: tab, at: tab.historyIndex + 1) : nil
        }
        if trace { log("window: swipe slides from \(Int(offset)) to \(Int(animation!.to))") }
    }

    func snapshotKey(_ tab: Tab, _ index: Int) -> String? {
        guard tab.history.indices.contains(index) else { return nil }
        return "\(tab.id)#\(index)#\(tab.history[index].url)"
    }

    /// The last frame shown of `tab`'s entry `index` (nil: none kept).
    func snapshot(of tab: Tab, at index: Int) -> SharedLayer? {
        guard let key = snapshotKey(tab, index) else { return nil }
        return snapshots.last { $0.key == key }?.layer
    }

    /// Keeps the selected tab's current frame as its entry's snapshot.
    func keepSnapshot() {
        guard let tab = browser.selectedTab, tab.state == .loaded, let layer = tab.layer,
              let key = snapshotKey(tab, tab.historyIndex) else { return }
        if snapshots.last?.key == key && snapshots.last?.layer === layer { return }
        snapshots.removeAll { $0.key == key }
        snapshots.append((key, layer))
        if snapshots.count > BrowserWindow.snapshotLimit { snapshots.removeFirst(snapshots.count - BrowserWindow.snapshotLimit) }
    }

    /// The one entry of every user action.
    func perform(_ command: WindowCommand) {
        switch command {
        case .navigate(let navigation):
            pendingScroll = nil
            if let tab = browser.selectedTab { browser.go(tab, navigation) }
        case .focusAddress:
            _ = gtk.gtk_widget_grab_focus(address)
            gtk.gtk_editable_select_region(address, 0, -1)
        case .newTab:
            if let tab = try? browser.openTab() {
                browser.select(tab)
                perform(.focusAddress)
            }
        case .closeTab:
            // Closing the last tab closes the window: a quit, the session kept with that tab.
            if browser.tabs.count <= 1 {
                closed = true
                return
            }
            if let tab = browser.selectedTab { browser.closeTab(tab) }
            if let tab = browser.selectedTab { browser.select(tab) }
            if browser.tabs.isEmpty { closed = true }
        case .nextTab, .previousTab:
            guard let tab = browser.selectedTab, let i = browser.tabs.firstIndex(where: { $0 === tab }) else { return }
            let n = browser.tabs.count
            browser.select(browser.tabs[(i + (command == .nextTab ? 1 : n - 1)) % n])
        case .zoomIn:
            if let tab = browser.selectedTab { browser.zoomIn(tab) }
        case .zoomOut:
            if let tab = browser.selectedTab { browser.zoomOut(tab) }
        case .zoomReset:
            if let tab = browser.selectedTab { browser.resetZoom(tab) }
        case .scroll(let step):
            guard let tab = browser.selectedTab, tab.state == .loaded else { return }
            let from = pendingScroll ?? tab.targetScroll
            pendingScroll = ScrollPosition(x: step.positionX(from: from.x),
                                           y: step.position(from: from.y, viewportHeight: Double(browser.viewportHeight) / tab.zoom))
        }
        sync()
    }

    /// Brings the widgets up to date with the browser.
    func sync() {
        let g = gtk
        let tab = browser.selectedTab
        var now = Shown()
        now.tabs = browser.tabs.map(\.id)
        now.labels = browser.tabs.map { t in
            let failed = t.state == .failed || t.state == .crashed
            let text = t.notResponding ? "Not responding" : failed ? (t.errorPage?.title ?? "Error") : !t.title.isEmpty ? t.title : (t.currentEntry?.url ?? "New Tab")
            return text.count > 24 ? String(text.prefix(23)) + "…" : text
        }
        now.selected = tab?.id
        now.url = tab.map { $0.currentEntry?.url ?? $0.url } ?? ""
        now.title = tab.map { $0.state == .loaded ? $0.title : ($0.errorPage?.title ?? $0.title) } ?? ""
        now.back = tab?.canGoBack ?? false
        now.forward = tab?.canGoForward ?? false
        now.reload = tab?.currentEntry != nil
        now.zoom = tab?.zoom ?? 1
        now.layer = tab?.layer.map { ObjectIdentifier($0) }
        now.offset = swipe.offset
        now.scrollY = tab?.scrollY ?? 0
        now.scrollX = tab?.scrollX ?? 0
        now.hung = tab?.notResponding ?? false
        if let tab, tab.state == .loaded {
            let view = (Double(browser.viewportWidth) / tab.zoom, Double(browser.viewportHeight) / tab.zoom)
            now.bars = ScrollBars(x: tab.targetScroll.x, y: tab.targetScroll.y, width: tab.pageWidth, height: tab.pageHeight, viewWidth: view.0,
                                  viewHeight: view.1)
            // A zoom whose layout is on its way: the size is still the old zoom's.
            if tab.zoomLayoutsPending > 0 && shown.selected == tab.id { now.bars = shown.bars }
            // The vertical bar: while the page scrolls, a second after, and under the pointer.
            let time = Clock.monotonicNanoseconds()
            if now.bars.y != shown.bars.y && shown.selected == tab.id && shown.bars.height > 0 { verticalBarUntil = time + 1_000_000_000 }
            now.bars.showVertical = now.bars.vertical && (time < verticalBarUntil || pointerNearRightEdge)
        }
        keepSnapshot()
        if trace && !tracedLayout, let b = gtk.center(of: backButton, in: page), let f = gtk.center(of: forwardButton, in: page),
           let r = gtk.center(of: reloadButton, in: page) {
            // Where the buttons are relative to the page area (tests click them).
            tracedLayout = true
            let line = "window: layout back=\(b.x),\(b.y) forward=\(f.x),\(f.y) reload=\(r.x),\(r.y)\n"
            _ = line.withCString { write(2, $0, strlen($0)) }
        }
        if tracedBarsPending, let c = gtk.center(of: horizontalBar, in: page) {
            tracedBarsPending = false
            log("window: hbar center=\(c.x),\(c.y) width=\(gtk.gtk_widget_get_width(horizontalBar))")
        }
        if trace && now.hung && !tracedHangBar, let wb = gtk.center(of: waitButton, in: page), let sb = gtk.center(of: stopButton, in: page) {
            // Where the bar's buttons are relative to the page area (tests click them).
            tracedHangBar = true
            log("window: hangbar wait=\(wb.x),\(wb.y) stop=\(sb.x),\(sb.y)")
        }
        guard now != shown else { return }
        if now.tabs != shown.tabs || now.labels != shown.labels || now.selected != shown.selected { rebuildTabStrip(now) }
        if now.url != shown.url || now.selected != shown.selected { g.setEntryText(address, now.url == "about:blank" ? "" : now.url) }
        if now.title != shown.title || now.selected != shown.selected { g.setTitle(window, now.title.isEmpty ? "Sable" : now.title + " — Sable") }
        g.gtk_widget_set_sensitive(backButton, now.back ? 1 : 0)
        g.gtk_widget_set_sensitive(forwardButton, now.forward ? 1 : 0)
        g.gtk_widget_set_sensitive(reloadButton, now.reload ? 1 : 0)
        g.gtk_widget_set_visible(zoomLabel, abs(now.zoom - 1) > 0.001 ? 1 : 0)
        g.setLabelText(zoomLabel, "\(Int((now.zoom * 100).rounded())) %")
        if now.hung != shown.hung { g.gtk_widget_set_visible(hangBar, now.hung ? 1 : 0) }
        if now.bars != shown.bars { configureBars(now.bars) }
        if now.layer != shown.layer || now.offset != shown.offset || now.selected != shown.selected || now.hung != shown.hung {
            g.gtk_widget_queue_draw(page)
        }
        shown = now
        if trace {
            // The widgets' state as GTK has it.
            let line = "window: tabs=\(now.tabs.count) selected=\((browser.tabs.firstIndex { $0 === tab } ?? -1) + 1)"
                + " back=\(g.gtk_widget_get_sensitive(backButton)) forward=\(g.gtk_widget_get_sensitive(forwardButton))"
                + " reload=\(g.gtk_widget_get_sensitive(reloadButton)) zoom=\(Int((now.zoom * 100).rounded()))"
                + " scroll=\(Int(now.scrollY.rounded())) scrollx=\(Int(now.scrollX.rounded())) hung=\(now.hung ? 1 : 0) index=\(tab?.historyIndex ?? -1) url=\(now.url) title=\(now.title)\n"
            _ = line.withCString { write(2, $0, strlen($0)) }
        }
    }

    func rebuildTabStrip(_ now: Shown) {
        let g = gtk
        while let child = g.gtk_widget_get_first_child(tabStrip) { g.gtk_box_remove(tabStrip, child) }
        tabButtons = []
        let clicked = unsafeBitCast(BrowserWindow.clicked, to: UnsafeRawPointer.self)
        for (tab, label) in zip(browser.tabs, now.labels) {
            let b = g.button(label)
            if tab === browser.selectedTab { g.addClass(b, "suggested-action") }
            g.connect(b, "clicked", clicked, me)
            g.gtk_box_append(tabStrip, b)
            tabButtons.append((tab, b))
        }
        newTabButton = g.button("+")
        g.setTooltip(newTabButton, "New tab (Ctrl+T)")
        g.connect(newTabButton, "clicked", clicked, me)
        g.gtk_box_append(tabStrip, newTabButton)
    }

    // MARK: - Events (C callbacks: the window comes back through the user data)

    static let clicked: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { button, data in
        let w = from(data)
        if button == w.backButton { w.perform(.navigate(.back)) }
        else if button == w.forwardButton { w.perform(.navigate(.forward)) }
        else if button == w.reloadButton { w.perform(.navigate(.reload)) }
        else if button == w.newTabButton { w.perform(.newTab) }
        else if button == w.waitButton, let tab = w.browser.selectedTab { w.browser.keepWaiting(tab); w.sync() }
        else if button == w.stopButton, let tab = w.browser.selectedTab { w.browser.stop(tab); w.sync() }
        else if let tab = w.tabButtons.first(where: { $0.button == button })?.tab {
            w.browser.select(tab)
            w.sync()
        }
    }

    static let activated: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
        let w = from(data)
        guard let destination = AddressField.destination(for: w.gtk.entryText(w.address)) else { return }
        // The page takes the keyboard (Space scrolls it), as in other browsers.
        _ = w.gtk.gtk_widget_grab_focus(w.page)
        w.perform(.navigate(.to(destination)))
    }

    static let closeRequest: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32 = { _, data in
        from(data).closed = true
        return 0
    }

    static let keyPressed: @convention(c) (OpaquePointer?, UInt32, UInt32, UInt32, UnsafeMutableRawPointer?) -> Int32 = { _, keyval, _, state, data in
        guard let command = WindowCommand.forKey(keyval, control: state & GTK.controlMask != 0, alt: state & GTK.altMask != 0,
                                                 shift: state & GTK.shiftMask != 0) else { return 0 }
        let w = from(data)
        if case .scroll = command, w.typingInAddress { return 0 }  // the field's own keys
        w.perform(command)
        return 1
    }

    static let mousePressed: @convention(c) (OpaquePointer?, Int32, Double, Double, UnsafeMutableRawPointer?) -> Void = { gesture, _, _, _, data in
        let w = from(data)
        guard let command = WindowCommand.forMouseButton(w.gtk.gtk_gesture_single_get_current_button(gesture)) else { return }
        w.perform(command)
    }

    static let pageReleased: @convention(c) (OpaquePointer?, Int32, Double, Double, UnsafeMutableRawPointer?) -> Void = { _, _, x, y, data in
        let w = from(data)
        _ = w.gtk.gtk_widget_grab_focus(w.page)
        guard let tab = w.browser.selectedTab else { return }
        w.browser.click(tab, x: x, y: y)
        w.sync()
    }

    /// Shows the scrollbar the page needs, at its position.
    func configureBars(_ bars: ScrollBars) {
        let g = gtk
        configuringBars = true
        defer { configuringBars = false }
        g.gtk_adjustment_configure(horizontalAdjustment, bars.x, 0, max(bars.width, bars.viewWidth), 40, bars.viewWidth * 0.875, bars.viewWidth)
        g.gtk_widget_set_visible(horizontalBar, bars.horizontal ? 1 : 0)
        g.gtk_adjustment_configure(verticalAdjustment, bars.y, 0, max(bars.height, bars.viewHeight), 40, bars.viewHeight * 0.875, bars.viewHeight)
        g.gtk_widget_set_visible(verticalBar, bars.showVertical ? 1 : 0)
        if trace && bars.showVertical, let c = gtk.center(of: verticalBar, in: page) {
            log("window: vbar center=\(c.x),\(c.y) height=\(gtk.gtk_widget_get_height(verticalBar))")
        }
        if trace && bars.horizontal && !tracedBars {
            tracedBars = true
            // Where the horizontal bar is (tests click it), relative to the page area, once laid out.
            tracedBarsPending = true
        }
    }
    var tracedBarsPending = false

    static let barMoved: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { adjustment, data in
        let w = from(data)
        guard !w.configuringBars, let tab = w.browser.selectedTab, tab.state == .loaded else { return }
        // The user dragged a bar (or clicked its trough): the page goes there.
        let value = w.gtk.gtk_adjustment_get_value(adjustment)
        let from = w.pendingScroll ?? tab.targetScroll
        w.pendingScroll = adjustment == w.verticalAdjustment ? ScrollPosition(x: from.x, y: value) : ScrollPosition(x: value, y: from.y)
        if adjustment == w.verticalAdjustment { w.verticalBarUntil = Clock.monotonicNanoseconds() + 1_000_000_000 }
    }

    static let pointerMoved: @convention(c) (OpaquePointer?, Double, Double, UnsafeMutableRawPointer?) -> Void = { _, x, _, data in
        let w = from(data)
        let near = x > Double(w.gtk.gtk_widget_get_width(w.page)) - 24
        if near != w.pointerNearRightEdge {
            w.pointerNearRightEdge = near
            w.sync()
        }
    }

    static let scrolled: @convention(c) (OpaquePointer?, Double, Double, UnsafeMutableRawPointer?) -> Int32 = { controller, dx, dy, data in
        let w = from(data)
        guard let tab = w.browser.selectedTab else { return 0 }
        // A mouse wheel's clicks scroll the page (not a swipe: they have no begin and end).
        if w.gtk.gtk_event_controller_scroll_get_unit(controller) == GTK.scrollUnitWheel {
            // Shift turns the wheel sideways; a tilting wheel (buttons 6 and 7) scrolls sideways.
            let shift = w.gtk.gtk_event_controller_get_current_event_state(controller) & GTK.shiftMask != 0
            if shift { w.scroll(dx: (dy + dx) * 48, dy: 0) } else { w.scroll(dx: dx * 48, dy: dy * 48) }
            return 1
        }
        // Two fingers sideways on a page wider than the window scroll it, unless it is at its
        // edge that way (then they swipe back or forward, as in Safari); decided at the start.
        if w.gestureScrollsPage == nil, w.swipe.phase == .idle, dx != 0 || dy != 0 {
            let viewWidth = Double(w.browser.viewportWidth) / tab.zoom
            w.gestureScrollsPage = SwipeTracker.pageTakesSideways(dx: dx, dy: dy, scrollX: tab.targetScroll.x,
                                                                  maxScrollX: max(tab.pageWidth - viewWidth, 0))
        }
        if w.gestureScrollsPage == true {
            w.scroll(dx: dx / tab.zoom, dy: dy / tab.zoom)
            w.sync()
            return 1
        }
        w.swipe.width = Double(max(w.gtk.gtk_widget_get_width(w.page), 1))
        let time = Double(w.gtk.gtk_event_controller_get_current_event_time(controller))
        let used = w.swipe.scroll(dx: dx, dy: dy, time: time, canGoBack: tab.canGoBack, canGoForward: tab.canGoForward)
        // Two fingers moving up or down: the page scrolls with them (surface pixels).
        if !used { w.scroll(dy: dy / tab.zoom) }
        w.sync()
        return 1
    }

    static let scrollBegan: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
        let w = from(data)
        w.gestureScrollsPage = nil
        _ = w.swipe.end()  // a new gesture starts from rest
    }

    static let scrollEnded: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
        let w = from(data)
        if w.gestureScrollsPage == true {
            w.gestureScrollsPage = nil
            return
        }
        w.gestureScrollsPage = nil
        let offset = w.swipe.offset
        let navigation = w.swipe.end()
        w.slide(from: offset, navigation: navigation)
        if let navigation { w.perform(.navigate(navigation)) } else { w.sync() }
    }

    static let resized: @convention(c) (OpaquePointer?, Int32, Int32, UnsafeMutableRawPointer?) -> Void = { _, width, height, data in
        let w = from(data)
        guard width > 0, height > 0 else { return }
        w.pendingResize = (Int(width), Int(height))
    }

    /// Paints the selected tab's layer (slid by the swipe's offset); after a swipe, the page
    /// it started from sliding out and the new one (once its layer is here) sliding in.
    static let draw: @convention(c) (OpaquePointer?, OpaquePointer?, Int32, Int32, UnsafeMutableRawPointer?) -> Void = { _, cr, width, height, data in
        let w = from(data)
        cairo_set_source_rgb(cr, 0.85, 0.85, 0.85)
        cairo_paint(cr)
        let current = w.browser.selectedTab?.layer
        if let animation = w.animation {
            let now = Double(Clock.monotonicNanoseconds()) / 1e6
            let arrived = current != nil && current !== w.animationSnapshot
            if let snapshot = w.animationSnapshot { paint(snapshot, cr, at: animation.offset(at: now)) }
            if let incoming = animation.incomingOffset(at: now) {
                // The new page once its layer is here, until then how it last looked.
                if arrived, let current { paint(current, cr, at: incoming) }
                else if let before = w.incomingSnapshot { paint(before, cr, at: incoming) }
            }
            // Done when it reached its end and (after a navigation) the new page is here;
            // a page that takes long shows as soon as it arrives.
            if animation.isFinished(at: now) && (arrived || animation.navigation == nil || now > animation.start + animation.duration + 3000) {
                w.animation = nil
                w.animationSnapshot = nil
                w.incomingSnapshot = nil
                if w.trace { w.log("window: swipe slide done") }
            }
            return
        }
        guard let current else { return }
        let offset = w.swipe.offset
        if offset != 0, let tab = w.browser.selectedTab {
            // The fingers move the page: the entry it goes to shows beside it.
            let side = offset > 0 ? w.snapshot(of: tab, at: tab.historyIndex - 1) : w.snapshot(of: tab, at: tab.historyIndex + 1)
            if let side { paint(side, cr, at: offset > 0 ? offset - Double(width) : offset + Double(width)) }
        }
        paint(current, cr, at: offset)
        if w.browser.selectedTab?.notResponding == true {
            // The page that does not respond is shown faded under the bar.
            cairo_set_source_rgba(cr, 1, 1, 1, 0.6)
            cairo_paint(cr)
        }
    }

    static func paint(_ layer: SharedLayer, _ cr: OpaquePointer?, at x: Double) {
        guard let surface = cairo_image_surface_create_for_data(layer.pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                                                Int32(layer.width), Int32(layer.height), Int32(layer.stride)) else { return }
        cairo_set_source_surface(cr, surface, x, 0)
        cairo_paint(cr)
        cairo_surface_destroy(surface)
    }
}

/// What the scrollbars show: the position, the page's size and the page area's (CSS pixels).
struct ScrollBars: Equatable {
    var x = 0.0, y = 0.0, width = 0.0, height = 0.0, viewWidth = 1.0, viewHeight = 1.0
    var horizontal: Bool { width >= viewWidth + 1 }
    var vertical: Bool { height >= viewHeight + 1 }
    /// The vertical bar is shown now (it shows for a while after a scroll).
    var showVertical = false
}
