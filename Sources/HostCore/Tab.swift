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
    /// the zoom command's id, and the load's URL and title, reported when it answers.
    var pendingZoom: (command: UInt32, url: String, title: String)?
    /// Answers of the content process to `command`s, by id, until taken.
    var commandResults: [UInt32: CommandResult] = [:]
    /// The session history (the back-forward list) and the current entry's index (-1: none).
    public internal(set) var history: [HistoryEntry] = []
    public internal(set) var historyIndex = -1
    /// The page zoom the current page is laid out at (1: 100 %).
    public internal(set) var zoom = 1.0
    /// Where the page is scrolled (CSS pixels from the top): the current entry's, restored
    /// by back and forward; the window shows the layer from here.
    public internal(set) var scrollY = 0.0
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

    /// The host's end of the content connection (tests write garbage into it from the other side).
    public var connectionFD: Int32 { connection.fd }

    func close() {
        if isAlive {
            try? connection.send(message: ContentMessage.shutdown)
            process.wait(timeout: 1)
        }
    }
}
