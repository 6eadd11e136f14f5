#if canImport(Glibc)
import Glibc
#endif
import EngineIPC
import Lockdown
import RenderingCore

/// A tab: its content process, the last page's state and the layer the host shows.
public final class Tab {
    public enum State: Equatable, Sendable {
        case starting, ready
        case loading(UInt32)
        case loaded
        /// The load failed (a network error value); the tab shows the error page.
        case failed
        /// The content process died or misbehaved; the tab shows the error page.
        case crashed
    }

    public let id: UInt32
    /// The tab's content process (a new one after a crash, at the next navigation).
    public internal(set) var process: WorkerProcess
    var connection: Connection
    /// How many times the tab's content process was replaced after it died.
    public internal(set) var relaunches = 0
    public internal(set) var state: State = .starting
    public internal(set) var url = ""
    public internal(set) var title = ""
    /// Why the tab shows an error page (a crash), nil otherwise.
    public internal(set) var error: String?
    /// The host's own page shown instead of the content, as (title, detail).
    public internal(set) var errorPage: (title: String, detail: String)?
    /// The last frame the rendering process sent for this tab.
    public internal(set) var layer: SharedLayer?
    var layersReceived = 0
    var layersAtLoad = 0
    var hostFrames: UInt32 = 0
    /// The last frame of the content process shown (its layers' frame numbers).
    var contentFrame: UInt32 = 0
    /// The viewport (device pixels) the page was last laid out in.
    var laidOutViewport: (width: UInt16, height: UInt16) = (0, 0)
    /// A load is complete once this frame is shown (the frame of a zoom after a redirect).
    var minimumFrame: UInt32 = 0
    /// A loaded page laid out again at its final site's zoom (after a cross-site redirect):
    /// the load's URL and title, reported when the zoom command answers.
    var pendingZoom: (url: String, title: String)?
    /// What runs when the content process answers a `command`, by the command's id (nil: the
    /// process died, was stopped or replaced before it answered).
    var pendingCommands: [UInt32: (CommandResult?) -> Void] = [:]
    /// Since when the content process has been silent while it has a request to answer
    /// (CLOCK_MONOTONIC nanoseconds): any message of it, a new request sent to an idle
    /// process, and the user's "wait" start it again.
    var quietSince: UInt64 = 0
    /// When the last ping was sent (pings are sent while a request waits: a process waiting
    /// for the network answers them, a hung one does not).
    var pingSent: UInt64 = 0
    var pingToken: UInt32 = 0
    /// The page does not answer: a request has waited longer than
    /// `Browser.Options.hangNanoseconds` without a sign of life from its process (a script
    /// that never ends). The window offers to wait or to stop the page.
    public internal(set) var notResponding = false
    /// The window's scroll requests: the position asked for while one is on its way (the
    /// next one is sent when it is answered; faster requests coalesce).
    var scrollInFlight: ScrollPosition?
    var nextScroll: ScrollPosition?
    /// The position the page goes to once the scroll requests on their way are answered
    /// (the window adds the next wheel click to it).
    public var targetScroll: ScrollPosition { nextScroll ?? scrollInFlight ?? ScrollPosition(x: scrollX, y: scrollY) }
    public var targetScrollY: Double { targetScroll.y }
    /// The session history (the back-forward list) and the current entry's index (-1: none).
    public internal(set) var history: [HistoryEntry] = []
    public internal(set) var historyIndex = -1
    /// The page zoom the current page is laid out at (1: 100 %).
    public internal(set) var zoom = 1.0
    /// Where the page is scrolled (CSS pixels from the top): the current entry's, restored
    /// by back and forward; the window shows the layer from here.
    public internal(set) var scrollY = 0.0
    /// And from the left (CSS pixels; a page wider than the window).
    public internal(set) var scrollX = 0.0
    /// How big the page was laid out (CSS pixels; 0: not known yet): the window's scrollbars.
    public internal(set) var pageWidth = 0.0
    /// Zoom changes whose new layout (and so `pageWidth`/`pageHeight`) has not come back from
    /// the content process yet: until then the size is the old zoom's, and the window keeps
    /// the bars it shows (a page as wide as the window flashed a horizontal bar when zoomed).
    public internal(set) var zoomLayoutsPending = 0
    public internal(set) var pageHeight = 0.0
    /// The current history entry, if any.
    public var currentEntry: HistoryEntry? { history.indices.contains(historyIndex) ? history[historyIndex] : nil }
    public var canGoBack: Bool { historyIndex > 0 }
    public var canGoForward: Bool { historyIndex + 1 < history.count }
    /// When the current load is declared unresponsive (CLOCK_MONOTONIC nanoseconds).
    var loadDeadline: UInt64 = 0

    init(id: UInt32, process: WorkerProcess, connection: Connection) {
        self.id = id
        self.process = process
        self.connection = connection
    }

    public var pid: Int32 { process.pid }

    public var isLoading: Bool {
        if case .loading = state { return true }
        return false
    }

    var isAlive: Bool { state != .crashed && process.termination == nil }

    /// Whether the content process has a request to answer (a load, a command).
    public var isBusy: Bool { isAlive && (isLoading || !pendingCommands.isEmpty || pendingZoom != nil) }

    /// The host's end of the content connection (tests write garbage into it from the other side).
    public var connectionFD: Int32 { connection.fd }

    /// Ends the content process: told to shut down, or killed at once when it is busy (it
    /// could not read the message before its work ends: a script that never ends); one that
    /// does not end within 0.2 s (a timer's script that never ends) is killed then.
    func close() {
        if isAlive && !isBusy {
            try? connection.send(message: ContentMessage.shutdown)
            process.wait(timeout: 0.2)
        } else if process.termination == nil {
            process.kill(SIGKILL)
            process.wait(timeout: 2)
        }
        abandonRequests()
    }

    /// The answers that will not come (the process is gone or replaced): their requests end
    /// with nil.
    func abandonRequests() {
        let pending = pendingCommands
        pendingCommands = [:]
        pendingZoom = nil
        scrollInFlight = nil
        nextScroll = nil
        notResponding = false
        for (_, done) in pending.sorted(by: { $0.key < $1.key }) { done(nil) }
    }
}

/// Where a page is scrolled to: CSS pixels from the left and from the top.
public struct ScrollPosition: Equatable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}
