/// The two-finger horizontal swipe that goes back or forward, as GNOME Web's (libadwaita's
/// swipe tracker) and Safari's: fed the smooth scroll deltas a touchpad produces (GTK's
/// scroll controller: `scroll` events, then `scroll-end`), it follows the fingers (the page
/// slides by `offset`) and, when the fingers lift, answers whether to navigate: far enough
/// (a third of the page) or fast enough (a flick) in a direction where there is an entry.
/// Pure logic: the window feeds it, the tests feed it the same events.
public struct SwipeTracker: Sendable {
    public enum Phase: Equatable, Sendable {
        /// No gesture.
        case idle
        /// Deciding whether the fingers move sideways (a vertical scroll is not a swipe).
        case starting
        case swiping
        /// A vertical scroll: ignored until it ends.
        case ignored
    }

    public private(set) var phase: Phase = .idle
    /// How far the page has slid, in pixels (positive: to the right, towards back).
    public private(set) var offset = 0.0
    /// The page's width (the distance of a whole swipe).
    public var width: Double
    var canGoBack = false
    var canGoForward = false
    var startDX = 0.0, startDY = 0.0
    /// Recent (time, offset) samples for the velocity at release (ms, px).
    var samples: [(time: Double, offset: Double)] = []

    /// A swipe commits past this fraction of the width...
    public static let distanceThreshold = 0.3
    /// ...or faster than this (px/ms) when released.
    public static let velocityThreshold = 0.6
    /// How far the fingers move before the direction is decided (px).
    static let decisionDistance = 8.0

    public init(width: Double) {
        self.width = max(width, 1)
    }

    /// Whether a touchpad gesture that starts with (`dx`, `dy`) scrolls the page sideways
    /// instead of swiping: it moves more sideways than up or down, and the page (scrolled to
    /// `scrollX` of `maxScrollX`) can go that way. At the page's edge it is a swipe, as in
    /// Safari. (GTK's dx: positive scrolls right.)
    public static func pageTakesSideways(dx: Double, dy: Double, scrollX: Double, maxScrollX: Double) -> Bool {
        guard maxScrollX >= 1, abs(dx) > abs(dy) else { return false }
        return dx > 0 ? scrollX < maxScrollX - 0.5 : scrollX > 0.5
    }

    /// A scroll event of the touchpad: `dx`, `dy` as GTK gives them (natural scrolling:
    /// fingers moving right give a negative dx); `time` in milliseconds. `canGoBack` and
    /// `canGoForward`: what the tab's history allows (the page resists the other way).
    /// Answers true when the event belongs to a swipe (the window then stops it).
    public mutating func scroll(dx: Double, dy: Double, time: Double, canGoBack: Bool, canGoForward: Bool) -> Bool {
        switch phase {
        case .idle:
            phase = .starting
            startDX = 0
            startDY = 0
            samples = []
            offset = 0
            self.canGoBack = canGoBack
            self.canGoForward = canGoForward
            return scroll(dx: dx, dy: dy, time: time, canGoBack: canGoBack, canGoForward: canGoForward)
        case .starting:
            startDX += dx
            startDY += dy
            guard abs(startDX) + abs(startDY) >= SwipeTracker.decisionDistance else { return false }
            if abs(startDX) <= abs(startDY) * 1.5 {
                phase = .ignored
                return false
            }
            phase = .swiping
            move(by: -startDX, time: time)
            return true
        case .swiping:
            move(by: -dx, time: time)
            return true
        case .ignored:
            return false
        }
    }

    mutating func move(by delta: Double, time: Double) {
        var next = offset + delta
        // Where there is no entry, the page barely moves (a hint of resistance).
        if next > 0 && !canGoBack { next = min(next, width * 0.05) }
        if next < 0 && !canGoForward { next = max(next, -width * 0.05) }
        offset = min(max(next, -width), width)
        samples.append((time, offset))
        if samples.count > 8 { samples.removeFirst(samples.count - 8) }
    }

    /// The fingers lifted (`scroll-end`): the navigation to make, if any; the page slides
    /// back to rest either way.
    public mutating func end() -> Navigation? {
        defer {
            phase = .idle
            offset = 0
            samples = []
        }
        guard phase == .swiping else { return nil }
        var velocity = 0.0
        if let first = samples.first, let last = samples.last, last.time > first.time {
            velocity = (last.offset - first.offset) / (last.time - first.time)
        }
        let progress = offset / width
        if canGoBack && (progress > SwipeTracker.distanceThreshold || (velocity > SwipeTracker.velocityThreshold && offset > 0)) {
            return .back
        }
        if canGoForward && (progress < -SwipeTracker.distanceThreshold || (velocity < -SwipeTracker.velocityThreshold && offset < 0)) {
            return .forward
        }
        return nil
    }
}

/// The page sliding after the fingers lift: out of the way (to the right for back, to the
/// left for forward) while the other page slides in behind it, or back to rest when the
/// swipe did not navigate. Eased out (fast first, as the fingers left it), over a time
/// proportional to the distance left. Pure: the window asks where the page is at a time.
public struct SwipeAnimation: Sendable, Equatable {
    /// Where the page was when the fingers lifted, and where it goes (px).
    public let from: Double
    public let to: Double
    /// When it started and how long it takes (ms).
    public let start: Double
    public let duration: Double
    /// The navigation it shows (nil: the page slides back, nothing happens).
    public let navigation: Navigation?
    /// The page's width: the incoming page is a width away from the outgoing one.
    public let width: Double

    /// A whole width takes this long (ms); a shorter way proportionally less (at least 60 ms).
    public static let fullDuration = 250.0

    /// After a swipe that ended at `offset` with `navigation` (from `SwipeTracker.end`).
    public init(offset: Double, navigation: Navigation?, width: Double, time: Double) {
        let width = max(width, 1)
        from = offset
        switch navigation {
        case .back: to = width
        case .forward: to = -width
        default: to = 0
        }
        self.navigation = navigation
        self.width = width
        start = time
        duration = max(SwipeAnimation.fullDuration * min(abs(to - from) / width, 1), 60)
    }

    /// How far along it is at `time` (0...1, eased out: 1 - (1 - t)^3).
    public func progress(at time: Double) -> Double {
        let t = min(max((time - start) / duration, 0), 1)
        return 1 - (1 - t) * (1 - t) * (1 - t)
    }

    /// Where the page that was swiped is at `time`.
    public func offset(at time: Double) -> Double {
        from + (to - from) * progress(at: time)
    }

    /// Where the page that comes in (the one navigated to) is at `time`: beside the outgoing
    /// one, on the side it slides away from; nil when nothing comes in.
    public func incomingOffset(at time: Double) -> Double? {
        guard navigation != nil else { return nil }
        return offset(at: time) - (to > 0 ? width : -width)
    }

    public func isFinished(at time: Double) -> Bool { time >= start + duration }
}
