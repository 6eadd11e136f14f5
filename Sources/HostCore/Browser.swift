#if canImport(Glibc)
import Glibc
#endif
import DisplayList
import EngineIPC
import Lockdown
import RenderingCore

/// The host: launches the networking and rendering processes once and one content process
/// per tab, in the BrowserEngineKit sample's order, and keeps them running. Single-threaded:
/// `pump` polls every connection and handles what arrives. Testable in-process (the child
/// processes are this or another `sable` binary in their roles).
public final class Browser {
    public struct Options: Sendable {
        /// The `sable` binary whose roles are launched.
        public var executable: String
        /// Where the networking process keeps its cookie jar (nil: no jar).
        public var profileDirectory: String?
        public var viewportWidth: UInt16 = 800
        public var viewportHeight: UInt16 = 600
        /// How long a process may take to answer a step of the launch sequence.
        public var stepTimeoutNanoseconds: UInt64 = 20_000_000_000
        /// How long a load may take before the tab is declared unresponsive (a script that
        /// never ends): its content process is killed and the tab shows why. 0: never (the
        /// window, where the user decides: `Tab.notResponding`, `keepWaiting`, `stop`).
        public var loadTimeoutNanoseconds: UInt64 = 60_000_000_000
        /// How long a content process may stay silent with a request to answer before its tab
        /// is `notResponding` (a script that never ends).
        public var hangNanoseconds: UInt64 = 5_000_000_000
        /// A navigation of a tab whose content process has been silent this long with a
        /// request to answer starts a new content process (the old one is killed): the hung
        /// page cannot read the new load.
        public var replaceBusyNanoseconds: UInt64 = 500_000_000

        /// `sable-worker` next to this executable when it is there (the roles without the
        /// host's libraries: ~10 MB less per process), otherwise this executable itself.
        public static var defaultExecutable: String {
            var buffer = [CChar](repeating: 0, count: 4096)
            let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            guard n > 0 else { return "/proc/self/exe" }
            var path = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            while let last = path.last, last != "/" { path.removeLast() }
            path += "sable-worker"
            return access(path, X_OK) == 0 ? path : "/proc/self/exe"
        }

        public init(executable: String = Options.defaultExecutable, profileDirectory: String? = nil) {
            self.executable = executable
            self.profileDirectory = profileDirectory
        }
    }

    /// A networking or rendering process and the host's control connection to it.
    public final class Service {
        public let role: String
        public internal(set) var process: WorkerProcess
        var control: Connection
        /// How many times it was relaunched after a crash.
        public internal(set) var relaunches = 0

        init(role: String, process: WorkerProcess, control: Connection) {
            self.role = role
            self.process = process
            self.control = control
        }

        public var pid: Int32 { process.pid }
    }

    public let options: Options
    /// The page area's size in device pixels (the options' at first; the window's when it
    /// is resized: `resize`).
    public internal(set) var viewportWidth: UInt16
    public internal(set) var viewportHeight: UInt16
    public private(set) var networking: Service!
    public private(set) var rendering: Service!
    public internal(set) var tabs: [Tab] = []
    /// Peers that sent a bad message, as (peer, reason), in order.
    public private(set) var misbehaved: [(peer: String, reason: String)] = []
    /// What the host logged (also written to stderr).
    public private(set) var logLines: [String] = []
    var nextTabID: UInt32 = 1
    var nextLoadID: UInt32 = 1
    var commandSequence: UInt32 = 0
    var endpointsReceived: [String: [UInt32: Int32]] = [:]
    /// The tab the window shows (WebDriver's current window), saved in the profile.
    public internal(set) var selectedTab: Tab?
    /// The profile's database (nil: nothing is saved); see Browser+Navigation.swift.
    public internal(set) var profile: ProfileDatabase?
    /// The zoom level of each site that has one other than 100 %.
    public internal(set) var siteZoom: [String: Double] = [:]
    /// How long the last write to the profile took (a navigation's history: one transaction).
    public internal(set) var lastProfileWriteNanoseconds: UInt64 = 0
    var restoring = false
    /// The window's browser: operations on pages (scroll, click, zoom, a new viewport size)
    /// send their command and return; the answers are applied as they arrive (`pump`), so a
    /// hung page never blocks the window. Otherwise (WebDriver, tests) they wait for the answer.
    public var interactive = false

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Launches the networking and rendering processes.
    public init(options: Options) throws(Failure) {
        self.options = options
        viewportWidth = options.viewportWidth
        viewportHeight = options.viewportHeight
        networking = try launch("networking")
        rendering = try launch("rendering")
    }

    deinit {
        for tab in tabs { tab.close() }
        for service in [networking, rendering] {
            guard let service else { continue }
            if service.role == "networking" {
                try? service.control.send(message: NetworkingControlMessage.shutdown)
            } else {
                try? service.control.send(message: RenderingControlMessage.shutdown)
            }
            service.process.wait(timeout: 2)
        }
    }

    func log(_ line: String) {
        logLines.append(line)
        let text = "sable: " + line + "\n"
        _ = text.withCString { write(2, $0, strlen($0)) }
    }

    func launch(_ role: String) throws(Failure) -> Service {
        var extra = ["--role", role]
        if role == "networking", let profile = options.profileDirectory { extra += ["--profile", profile] }
        let process: WorkerProcess
        do {
            process = try WorkerProcess.spawn(executable: options.executable, extraArguments: extra)
        } catch {
            throw Failure(description: "cannot launch the \(role) process: \(error)")
        }
        var control = Connection(fd: process.socketFD, noSignal: true)
        control.maxPayload = role == "networking" ? NetworkingControlMessage.maxPayload : RenderingControlMessage.maxPayload
        return Service(role: role, process: process, control: control)
    }

    // MARK: - Tabs

    /// Opens a tab: launch content → lockdown → endpoints → bootstrap → bootstrapped.
    @discardableResult
    public func openTab() throws(Failure) -> Tab {
        let id = nextTabID
        nextTabID += 1
        let (process, connection) = try spawnContent()
        let tab = Tab(id: id, process: process, connection: connection)
        tabs.append(tab)
        if selectedTab == nil { selectedTab = tab }
        startContent(tab)
        saveToProfile("the new tab") { try $0.addTab(id: id, entries: [], index: -1) }
        if selectedTab === tab { saveToProfile("the selected tab") { try $0.setSelected(id) } }
        return tab
    }

    func spawnContent() throws(Failure) -> (WorkerProcess, Connection) {
        let process: WorkerProcess
        do {
            process = try WorkerProcess.spawn(executable: options.executable, extraArguments: ["--role", "content"])
        } catch {
            throw Failure(description: "cannot launch a content process: \(error)")
        }
        var connection = Connection(fd: process.socketFD, noSignal: true)
        connection.maxPayload = ContentMessage.maxPayload
        return (process, connection)
    }

    /// The launch sequence of `tab`'s new content process, to `ready` (or `crashed`).
    func startContent(_ tab: Tab) {
        let connection = tab.connection
        do throws(IPCError) {
            let deadline = Clock.monotonicNanoseconds() + options.stepTimeoutNanoseconds
            guard case .hello = try connection.receive(ContentMessage.self, deadline: deadline) else {
                throw IPCError.malformed("expected hello")
            }
            try connection.send(message: ContentMessage.lockdown(version: SystemCallPolicy.contentVersion))
            guard case .lockedDown = try connection.receive(ContentMessage.self, deadline: deadline) else {
                throw IPCError.malformed("expected lockedDown")
            }
            try bootstrap(tab)
            guard case .bootstrapped = try connection.receive(ContentMessage.self, deadline: deadline) else {
                throw IPCError.malformed("expected bootstrapped")
            }
        } catch {
            contentFailed(tab, error)
            return
        }
        tab.state = .ready
    }

    /// A new content process for a tab whose process died (the next navigation does this,
    /// as a browser's reload of a crashed tab). False if it could not be started.
    func relaunchContent(_ tab: Tab) -> Bool {
        guard let (process, connection) = try? spawnContent() else { return false }
        let old = tab.pid
        if tab.process.termination == nil {
            tab.process.kill(SIGKILL)
            tab.process.wait(timeout: 2)
        }
        tab.abandonRequests()
        tab.process = process  // the old WorkerProcess (reaped) closes its socket
        tab.connection = connection
        tab.contentFrame = 0
        tab.state = .starting
        startContent(tab)
        guard tab.state == .ready else { return false }
        tab.error = nil
        tab.relaunches += 1
        log("tab \(tab.id): content process \(old) replaced by \(tab.pid)")
        return true
    }

    /// Asks both services for an endpoint for `tab` and hands them over in `bootstrap`.
    func bootstrap(_ tab: Tab) throws(IPCError) {
        let peer = "content \(tab.process.pid) (tab \(tab.id))"
        let renderingEnd = try endpoint(from: rendering, id: tab.id, peer: peer)
        let networkingEnd = try endpoint(from: networking, id: tab.id, peer: peer)
        defer { close(renderingEnd); close(networkingEnd) }
        try tab.connection.send(message: ContentMessage.bootstrap)
        try tab.connection.sendDescriptor(renderingEnd)
        try tab.connection.sendDescriptor(networkingEnd)
    }

    /// A new endpoint of `service` for a peer that is not a tab (tests, tools): the caller owns
    /// the returned descriptor.
    public func newEndpoint(of service: Service, peer: String) throws(IPCError) -> Int32 {
        let id = 0x4000_0000 | nextTabID
        nextTabID += 1
        return try endpoint(from: service, id: id, peer: peer)
    }

    /// A new endpoint of `service` for tab `id` (other control messages are handled meanwhile).
    func endpoint(from service: Service, id: UInt32, peer: String) throws(IPCError) -> Int32 {
        if service.role == "networking" {
            try service.control.send(message: NetworkingControlMessage.newEndpoint(id: id, peer: peer))
        } else {
            try service.control.send(message: RenderingControlMessage.newEndpoint(id: id, peer: peer))
        }
        let deadline = Clock.monotonicNanoseconds() + options.stepTimeoutNanoseconds
        while true {
            if let fd = endpointsReceived[service.role]?.removeValue(forKey: id) { return fd }
            try handleControl(service, deadline: deadline)
        }
    }

    /// Loads `destination` in `tab` (the answer comes through `pump`; `waitForPage` waits).
    public func load(_ tab: Tab, _ destination: LoadDestination) {
        let id = nextLoadID
        nextLoadID += 1
        tab.layersAtLoad = tab.layersReceived
        switch tab.state {
        case .crashed where relaunchContent(tab):
            break
        case .crashed, .starting:
            showError(tab, title: "This tab's content process is gone", detail: tab.error ?? "")
            return
        default:
            // A process still busy with a request it does not answer (a script that never
            // ends) would never read the load: the tab gets a new one.
            if tab.isBusy, tab.notResponding || Clock.monotonicNanoseconds() &- tab.quietSince > options.replaceBusyNanoseconds {
                let old = tab.pid
                log("tab \(tab.id): content process \(old) is busy; a new one takes the navigation")
                guard relaunchContent(tab) else {
                    tab.state = .crashed
                    showError(tab, title: "This tab's content process is gone", detail: tab.error ?? "a new content process did not start")
                    return
                }
            }
        }
        if !tab.isBusy { tab.quietSince = Clock.monotonicNanoseconds() }
        tab.state = .loading(id)
        tab.laidOutViewport = (viewportWidth, viewportHeight)
        tab.pendingZoom = nil
        tab.minimumFrame = 0
        tab.zoom = zoomLevel(for: HistoryEntry(destination).url)
        tab.loadDeadline = Clock.monotonicNanoseconds() + options.loadTimeoutNanoseconds
        do {
            try tab.connection.send(message: ContentMessage.load(
                LoadRequest(id: id, destination: destination, viewportWidth: viewportWidth, viewportHeight: viewportHeight,
                            zoom: Float(tab.zoom), scrollY: Float(min(max(tab.scrollY, 0), 16_777_216)),
                            scrollX: Float(min(max(tab.scrollX, 0), 16_777_216)))))
        } catch {
            contentFailed(tab, error)
        }
    }

    /// Pumps until `tab`'s load ended and its new layer arrived (or `timeout` seconds passed).
    public func waitForPage(_ tab: Tab, timeout: Double = 60) -> Bool {
        let deadline = Clock.monotonicNanoseconds() + UInt64(timeout * 1e9)
        while Clock.monotonicNanoseconds() < deadline {
            if !tab.isLoading && tab.layersReceived > tab.layersAtLoad && (tab.contentFrame >= tab.minimumFrame || !tab.isAlive) {
                return true
            }
            pump(timeoutMilliseconds: 100)
        }
        return false
    }

    /// Waits for whatever arrives within `timeoutMilliseconds` and handles it: content
    /// answers, layers, reports of misbehaving peers, deaths of processes.
    public func pump(timeoutMilliseconds: Int32) {
        var fds: [pollfd] = [pollfd(fd: networking.control.fd, events: Int16(POLLIN), revents: 0),
                             pollfd(fd: rendering.control.fd, events: Int16(POLLIN), revents: 0)]
        let live = tabs.filter { $0.isAlive }
        for tab in live { fds.append(pollfd(fd: tab.connection.fd, events: Int16(POLLIN), revents: 0)) }
        let rc = poll(&fds, nfds_t(fds.count), timeoutMilliseconds)
        let now = Clock.monotonicNanoseconds()
        for tab in live {
            if tab.isLoading && options.loadTimeoutNanoseconds > 0 && now > tab.loadDeadline {
                unresponsive(tab)
            } else {
                watch(tab, now: now)
            }
        }
        if rc <= 0 { return }
        for (i, service) in [networking!, rendering!].enumerated() where fds[i].revents != 0 {
            do {
                try handleControl(service, deadline: Clock.monotonicNanoseconds() + 5_000_000_000)
            } catch {
                serviceFailed(service, error)
            }
        }
        for (i, tab) in live.enumerated() where fds[i + 2].revents != 0 && tab.isAlive {
            handleContent(tab)
        }
    }

    // MARK: - Messages

    func handleControl(_ service: Service, deadline: UInt64) throws(IPCError) {
        if service.role == "networking" {
            switch try service.control.receive(NetworkingControlMessage.self, deadline: deadline) {
            case .endpoint(let id):
                endpointsReceived["networking", default: [:]][id] = try service.control.receiveDescriptor(deadline: deadline)
            case .peerMisbehaved(let peer, let reason):
                misbehaved.append((peer, reason))
                log("the networking process closed its connection to \(peer): \(reason)")
            case .newEndpoint, .shutdown:
                throw .malformed("unexpected control message from the networking process")
            }
        } else {
            switch try service.control.receive(RenderingControlMessage.self, deadline: deadline) {
            case .endpoint(let id):
                endpointsReceived["rendering", default: [:]][id] = try service.control.receiveDescriptor(deadline: deadline)
            case .layer(let info):
                let fd = try service.control.receiveDescriptor(deadline: deadline)
                guard let tab = tabs.first(where: { $0.id == info.id }) else { close(fd); return }
                do {
                    tab.layer = try SharedLayer(mapping: fd, width: Int(info.width), height: Int(info.height), stride: Int(info.stride))
                    tab.layersReceived += 1
                    if info.frame < 0x8000_0000 { tab.contentFrame = info.frame }
                } catch {
                    close(fd)
                    throw .malformed("layer: \(error)")
                }
            case .peerMisbehaved(let peer, let reason):
                misbehaved.append((peer, reason))
                log("the rendering process closed its connection to \(peer): \(reason)")
            case .newEndpoint, .render, .shutdown:
                throw .malformed("unexpected control message from the rendering process")
            }
        }
    }

    func handleContent(_ tab: Tab) {
        let message: ContentMessage
        do {
            message = try tab.connection.receive(ContentMessage.self, deadline: Clock.monotonicNanoseconds() + 5_000_000_000)
        } catch {
            contentFailed(tab, error)
            return
        }
        // Any message is a sign of life.
        tab.quietSince = Clock.monotonicNanoseconds()
        if tab.notResponding {
            tab.notResponding = false
            log("tab \(tab.id): the page answers again")
        }
        switch message {
        case .loaded(let id, let url, let title):
            guard case .loading(id) = tab.state else { return }
            tab.url = url
            tab.title = title
            tab.error = nil
            // A redirect to another site: the page takes that site's zoom before it counts
            // as loaded (its first frame was laid out at the zoom of the URL asked for).
            let level = zoomLevel(for: url)
            if abs(level - tab.zoom) > 0.0001, tab.pendingZoom == nil {
                tab.zoom = level
                tab.pendingZoom = (url, title)
                request(tab, "zoom", [String(level)]) { [unowned self, unowned tab] result in
                    // The redirected page at its site's zoom: now it is loaded (once that frame is here).
                    guard let result, let pending = tab.pendingZoom else { return }
                    tab.pendingZoom = nil
                    tab.minimumFrame = result.frame
                    tab.state = .loaded
                    committed(tab, url: pending.url, title: pending.title)
                }
                return
            }
            tab.state = .loaded
            committed(tab, url: url, title: title)
        case .loadFailed(let id, let url, let reason):
            guard case .loading(id) = tab.state else { return }
            tab.url = url
            tab.state = .failed
            showError(tab, title: "Sable can't open this page", detail: reason)
        case .bootstrapped:
            break
        case .commandResult(let id, let json, let frame, let navigation):
            guard let done = tab.pendingCommands.removeValue(forKey: id) else { return }  // (abandoned)
            // A navigation the command started (a click on a link) begins before its requester
            // hears of it.
            if !navigation.isEmpty { navigate(tab, HistoryEntry(url: navigation).destination) }
            done(CommandResult(json: json, frame: frame, navigation: navigation))
        case .titleChanged(let title):
            // A script changed the title: the tab, its entry and the window's title follow.
            guard tab.state == .loaded else { return }
            tab.title = title
            committed(tab, url: tab.url, title: title)
        case .pong:
            break
        case .pageSize(let width, let height):
            tab.pageWidth = Double(width)
            tab.pageHeight = Double(height)
        case .navigate(let url):
            navigate(tab, HistoryEntry(url: url).destination)
        case .scrolled(let x, let y):
            // A script scrolled the page: the current entry keeps the position.
            guard tab.state == .loaded else { return }  // (a late one of the page before: dropped)
            keepScroll(tab, ScrollPosition(x: Double(x), y: Double(y)))
        default:
            contentFailed(tab, .malformed("unexpected message \(message.frame.kind) from the content process"))
        }
    }

    /// A content process died or misbehaved: it is killed and reaped, the tab shows why.
    func contentFailed(_ tab: Tab, _ error: IPCError) {
        let peer = "content \(tab.process.pid) (tab \(tab.id))"
        let closedByPeer = error == .closed || error == .system(ECONNRESET) || error == .system(EPIPE)
        if !closedByPeer {
            misbehaved.append((peer, "\(error)"))
            log("closing the connection to \(peer): \(error)")
        }
        tab.process.kill(SIGKILL)
        let termination = tab.process.wait(timeout: 2)
        var reason: String
        switch termination {
        case .exited(let status): reason = "exited with status \(status)"
        case .signaled(let s):
            reason = "killed by \(signalName(s))"
            if s == SIGSYS, let v = tab.process.violationReport() {
                reason += " (forbidden system call \(Lockdown.name(of: v.number, arch: v.arch) ?? String(v.number)))"
            }
        }
        if !closedByPeer { reason = "sent a bad message (\(error)); " + reason }
        tab.error = "The content process " + reason
        tab.state = .crashed
        tab.abandonRequests()
        log("\(peer) is gone: \(reason)")
        showError(tab, title: "This tab's content process crashed", detail: tab.error!)
    }

    /// A load that did not finish in time (a script that never ends): the content process
    /// is killed, the tab shows why; other tabs are not affected.
    func unresponsive(_ tab: Tab) {
        let peer = "content \(tab.process.pid) (tab \(tab.id))"
        tab.process.kill(SIGKILL)
        tab.process.wait(timeout: 2)
        tab.error = "The page did not finish loading in time (a script that never ends?); its content process was stopped"
        tab.state = .crashed
        tab.abandonRequests()
        log("\(peer) is unresponsive: killed")
        showError(tab, title: "This page is not responding", detail: tab.error!)
    }

    /// A networking or rendering process died or misbehaved: relaunched, and every live tab
    /// bootstrapped again with new endpoints.
    func serviceFailed(_ service: Service, _ error: IPCError) {
        log("the \(service.role) process (\(service.pid)) is gone (\(error)); relaunching it")
        service.process.kill(SIGKILL)
        service.process.wait(timeout: 2)
        service.control = Connection(fd: -1)
        guard let fresh = try? launch(service.role) else {
            log("cannot relaunch the \(service.role) process")
            return
        }
        service.process = fresh.process
        service.control = fresh.control
        service.relaunches += 1
        endpointsReceived[service.role] = [:]
        for tab in tabs where tab.isAlive {
            do {
                try bootstrap(tab)
            } catch {
                contentFailed(tab, error)
            }
        }
    }

    /// Paints the host's own page for `tab` (an error) through the rendering process.
    func showError(_ tab: Tab, title: String, detail: String) {
        tab.errorPage = (title, detail)
        let list = ErrorPage.displayList(title: title, detail: detail, width: Float(viewportWidth),
                                         height: Float(viewportHeight))
        tab.hostFrames += 1
        do {
            try rendering.control.send(message: RenderingControlMessage.render(id: tab.id, frame: 0x8000_0000 | tab.hostFrames,
                                                                               displayList: list.encoded()))
        } catch {
            serviceFailed(rendering, error)
        }
    }

    /// Closes `tab`: its content process is told to shut down and reaped.
    public func closeTab(_ tab: Tab) {
        tab.close()
        guard let index = tabs.firstIndex(where: { $0 === tab }) else { return }
        tabs.remove(at: index)
        if selectedTab === tab { selectedTab = tabs.isEmpty ? nil : tabs[min(index, tabs.count - 1)] }
        saveToProfile("the closed tab") { try $0.removeTab(id: tab.id, selected: selectedTab?.id) }
    }

    /// Checks the services and relaunches any that died (a death is also noticed by `pump`).
    public func superviseServices() {
        for service in [networking!, rendering!] where service.process.poll() != nil {
            serviceFailed(service, .closed)
        }
    }
}
