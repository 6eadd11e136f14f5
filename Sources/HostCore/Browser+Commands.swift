#if canImport(Glibc)
import Glibc
#endif
import EngineIPC

/// A content process's answer to a page command (`Browser.command`).
struct CommandResult {
    var json: String
    var frame: UInt32
    var navigation: String
}

/// Page commands: what WebDriver (and the window's UI) asks of a tab's page.
extension Browser {
    public struct CommandAnswer: Sendable {
        /// `{"value": ...}` or `{"error": ..., "message": ...}` (WebDriver's error codes).
        public var json: String
        /// The URL the command navigated to (a click on a link), nil if none.
        public var navigation: String?
    }

    /// Runs a page command in `tab`'s content process (`execute`, `find`, `text`,
    /// `attribute`, `property`, `tagName`, `click`, `source`) and waits for its answer, for the
    /// frame it rendered to arrive, and for a navigation it started to load. Nil when the tab
    /// has no live content process or the answer did not come within `timeout` seconds
    /// (then the process is stopped as unresponsive: a script that never ends).
    public func command(_ tab: Tab, _ name: String, _ arguments: [String], timeout: Double = 30) -> CommandAnswer? {
        if tab.isLoading { _ = waitForPage(tab, timeout: timeout) }  // a navigation a script started
        guard tab.isAlive, !tab.isLoading else { return nil }
        let id = nextCommandID()
        do {
            try tab.connection.send(message: ContentMessage.command(id: id, name: name, arguments: arguments))
        } catch {
            contentFailed(tab, error)
            return nil
        }
        let deadline = Clock.monotonicNanoseconds() + UInt64(timeout * 1e9)
        while tab.commandResults[id] == nil {
            guard tab.isAlive else { return nil }
            if Clock.monotonicNanoseconds() > deadline {
                unresponsive(tab)
                return nil
            }
            pump(timeoutMilliseconds: 50)
        }
        let result = tab.commandResults.removeValue(forKey: id)!
        if result.frame != 0 {
            // The layer travels rendering -> host on its own connection: wait for it (briefly).
            let end = Clock.monotonicNanoseconds() + 5_000_000_000
            while tab.isAlive && tab.contentFrame < result.frame && Clock.monotonicNanoseconds() < end {
                pump(timeoutMilliseconds: 20)
            }
        }
        if !result.navigation.isEmpty {
            navigate(tab, HistoryEntry(url: result.navigation).destination)
            _ = waitForPage(tab)
        }
        return CommandAnswer(json: result.json, navigation: result.navigation.isEmpty ? nil : result.navigation)
    }

    func nextCommandID() -> UInt32 {
        commandSequence &+= 1
        return commandSequence
    }
}
