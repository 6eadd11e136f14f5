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

/// Page commands: what WebDriver (and the window's UI) asks of a tab's page. Every command
/// is sent without waiting (`request`): its answer is handled when it arrives, by `pump`,
/// so the host's loop (the window's) never blocks on a page. WebDriver's commands wait for
/// their answer (`command`), pumping every connection meanwhile.
extension Browser {
    public struct CommandAnswer: Sendable {
        /// `{"value": ...}` or `{"error": ..., "message": ...}` (WebDriver's error codes).
        public var json: String
        /// The URL the command navigated to (a click on a link), nil if none.
        public var navigation: String?
    }

    /// Sends a page command to `tab`'s content process; `done` runs with its answer when it
    /// arrives (in `pump`), or with nil when the process dies, is stopped or replaced first
    /// (at once when the tab has no live process). A navigation the command started (a click
    /// on a link) has begun when `done` runs.
    func request(_ tab: Tab, _ name: String, _ arguments: [String], done: @escaping (CommandResult?) -> Void) {
        guard tab.isAlive else {
            done(nil)
            return
        }
        let id = nextCommandID()
        if !tab.isBusy { tab.quietSince = Clock.monotonicNanoseconds() }
        tab.pendingCommands[id] = done
        do {
            try tab.connection.send(message: ContentMessage.command(id: id, name: name, arguments: arguments))
        } catch {
            contentFailed(tab, error)  // (ends the pending commands with nil)
        }
    }

    /// Runs a page command in `tab`'s content process (`execute`, `find`, `text`,
    /// `attribute`, `property`, `tagName`, `click`, `source`) and waits for its answer, for the
    /// frame it rendered to arrive, and for a navigation it started to load. Nil when the tab
    /// has no live content process or the answer did not come within `timeout` seconds
    /// (then the process is stopped as unresponsive: a script that never ends).
    public func command(_ tab: Tab, _ name: String, _ arguments: [String], timeout: Double = 30) -> CommandAnswer? {
        if tab.isLoading { _ = waitForPage(tab, timeout: timeout) }  // a navigation a script started
        guard tab.isAlive, !tab.isLoading else { return nil }
        var answered = false
        var answer: CommandResult?
        request(tab, name, arguments) { result in
            answered = true
            answer = result
        }
        let deadline = Clock.monotonicNanoseconds() + UInt64(timeout * 1e9)
        while !answered {
            if Clock.monotonicNanoseconds() > deadline {
                unresponsive(tab)
                return nil
            }
            pump(timeoutMilliseconds: 50)
        }
        guard let result = answer else { return nil }
        if result.frame != 0 {
            // The layer travels rendering -> host on its own connection: wait for it (briefly).
            let end = Clock.monotonicNanoseconds() + 5_000_000_000
            while tab.isAlive && tab.contentFrame < result.frame && Clock.monotonicNanoseconds() < end {
                pump(timeoutMilliseconds: 20)
            }
        }
        if !result.navigation.isEmpty { _ = waitForPage(tab) }  // (started when the answer came)
        return CommandAnswer(json: result.json, navigation: result.navigation.isEmpty ? nil : result.navigation)
    }

    func nextCommandID() -> UInt32 {
        commandSequence &+= 1
        return commandSequence
    }

    // MARK: - A page that does not answer

    /// Checks `tab`'s content process while it has a request to answer: after a second of
    /// silence it is pinged (a process waiting for the network answers); after
    /// `Options.hangNanoseconds` without any sign of life the tab is `notResponding`.
    func watch(_ tab: Tab, now: UInt64) {
        guard tab.isBusy else {
            if tab.notResponding { tab.notResponding = false }
            return
        }
        let quiet = now &- tab.quietSince
        if quiet > 1_000_000_000, now &- tab.pingSent > 1_000_000_000 {
            tab.pingSent = now
            tab.pingToken &+= 1
            do {
                try tab.connection.send(message: ContentMessage.ping(token: tab.pingToken))
            } catch {
                contentFailed(tab, error)
                return
            }
        }
        if !tab.notResponding, quiet > options.hangNanoseconds {
            tab.notResponding = true
            log("tab \(tab.id): the page is not responding (content process \(tab.pid), silent for \(quiet / 1_000_000) ms)")
        }
    }

    /// The user chose to wait for a page that is not responding: it is asked again after
    /// another `Options.hangNanoseconds`.
    public func keepWaiting(_ tab: Tab) {
        guard tab.notResponding else { return }
        tab.notResponding = false
        tab.quietSince = Clock.monotonicNanoseconds()
        log("tab \(tab.id): waiting for the page")
    }

    /// The user stopped a page that is not responding (or any page): its content process is
    /// killed and the tab shows why; other tabs go on. Reload, back and forward start a new
    /// process.
    public func stop(_ tab: Tab) {
        guard tab.isAlive else { return }
        let peer = "content \(tab.process.pid) (tab \(tab.id))"
        tab.process.kill(SIGKILL)
        tab.process.wait(timeout: 2)
        tab.state = .crashed
        tab.abandonRequests()
        tab.error = "The page was not responding and was stopped; its content process (\(tab.pid)) was ended. Reload to try again."
        log("\(peer) stopped by the user")
        showError(tab, title: "This page was stopped", detail: tab.error!)
    }
}
