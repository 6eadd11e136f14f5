import EngineIPC
import WebURL

/// What the window's keys, mouse buttons and address field ask for, independent of GTK (the
/// window maps its events through here; tests check the mapping without a display).
public enum WindowCommand: Equatable, Sendable {
    case navigate(Navigation)
    case focusAddress
    case newTab
    case closeTab
    case nextTab
    case previousTab
    case zoomIn
    case zoomOut
    case zoomReset
    /// Scrolls the page (Space, Page Up/Down, the arrows, Home, End; not while typing in
    /// the address field).
    case scroll(ScrollStep)

    public enum ScrollStep: Equatable, Sendable {
        case lineUp, lineDown, pageUp, pageDown, top, bottom
        /// Left and Right: a page wider than the window.
        case lineLeft, lineRight

        /// The new position (CSS pixels) from `y` in a viewport `height` CSS pixels tall (the
        /// page clamps it to its height).
        public func position(from y: Double, viewportHeight height: Double) -> Double {
            let line = 40.0, page = max(height * 0.875, line)
            switch self {
            case .lineLeft, .lineRight: return y
            case .lineUp: return max(y - line, 0)
            case .lineDown: return y + line
            case .pageUp: return max(y - page, 0)
            case .pageDown: return y + page
            case .top: return 0
            case .bottom: return 16_777_216
            }
        }

        /// The new horizontal position (CSS pixels) from `x` (the page clamps it to its width).
        public func positionX(from x: Double) -> Double {
            switch self {
            case .lineLeft: return max(x - 40, 0)
            case .lineRight: return x + 40
            default: return x
            }
        }
    }

    /// Keyboard shortcuts as in other browsers. `keyval`: an X11/GDK keysym; modifiers as flags.
    public static func forKey(_ keyval: UInt32, control: Bool, alt: Bool, shift: Bool) -> WindowCommand? {
        switch (keyval, control, alt) {
        case (0xff51, false, true): return .navigate(.back)          // Alt+Left
        case (0xff53, false, true): return .navigate(.forward)       // Alt+Right
        case (0xff26, _, _): return .navigate(.back)                 // XF86Back
        case (0xff27, _, _): return .navigate(.forward)              // XF86Forward
        case (0xffc2, false, false), (0x72, true, false), (0x52, true, false): return .navigate(.reload)  // F5, Ctrl+R
        case (0x6c, true, false), (0x4c, true, false), (0xffc3, false, false): return .focusAddress     // Ctrl+L, F6
        case (0x74, true, false), (0x54, true, false): return .newTab              // Ctrl+T
        case (0x77, true, false), (0x57, true, false): return .closeTab            // Ctrl+W
        case (0xff09, true, false): return shift ? .previousTab : .nextTab        // Ctrl+Tab, Ctrl+Shift+Tab
        case (0xfe20, true, false): return .previousTab                          // Ctrl+Shift+Tab (ISO_Left_Tab)
        case (0xff56, true, false): return .nextTab                              // Ctrl+Page Down
        case (0xff55, true, false): return .previousTab                          // Ctrl+Page Up
        case (0x2b, true, false), (0x3d, true, false), (0xffab, true, false): return .zoomIn     // Ctrl+plus, Ctrl+=, keypad +
        case (0x2d, true, false), (0xffad, true, false), (0x5f, true, false): return .zoomOut   // Ctrl+minus, keypad -
        case (0x30, true, false), (0xffb0, true, false): return .zoomReset                     // Ctrl+0
        case (0x20, false, false): return .scroll(shift ? .pageUp : .pageDown)                 // Space, Shift+Space
        case (0xff56, false, false): return .scroll(.pageDown)                                 // Page Down
        case (0xff55, false, false): return .scroll(.pageUp)                                   // Page Up
        case (0xff54, false, false): return .scroll(.lineDown)                                 // Down
        case (0xff52, false, false): return .scroll(.lineUp)                                   // Up
        case (0xff51, false, false): return .scroll(.lineLeft)                                 // Left
        case (0xff53, false, false): return .scroll(.lineRight)                                // Right
        case (0xff50, false, false): return .scroll(.top)                                      // Home
        case (0xff57, false, false): return .scroll(.bottom)                                   // End
        default: return nil
        }
    }

    /// The mouse's back (8) and forward (9) buttons.
    public static func forMouseButton(_ button: UInt32) -> WindowCommand? {
        switch button {
        case 8: return .navigate(.back)
        case 9: return .navigate(.forward)
        default: return nil
        }
    }
}

/// The address field: what the user typed, as a destination. Search-free: a URL with a
/// scheme is taken as it is; an absolute path is a local file; anything else that could be
/// a host (`example.com/x`, `localhost:8000`) becomes an `http://` URL (https would fail on
/// plain local servers, as browsers' address bars also first try what was typed). Nil for
/// text that is no address (spaces, nothing).
public enum AddressField {
    public static func destination(for typed: String) -> LoadDestination? {
        let text = typed.trimmingWhitespace
        guard !text.isEmpty else { return nil }
        if text == "about:blank" { return .html("", baseURL: "about:blank") }
        if text.hasPrefix("/") || text.hasPrefix("file:") {
            switch Headless.destination(for: text) {
            case .success(let d): return d
            case .failure: return .url(WebURL(text.hasPrefix("/") ? "file://" + text : text)?.href ?? text)
            }
        }
        if let url = WebURL(text), ["http", "https", "data"].contains(url.scheme) { return .url(url.href) }
        guard !text.contains(" "), let url = WebURL("http://" + text), url.host != nil else { return nil }
        return .url(url.href)
    }
}

extension String {
    var trimmingWhitespace: String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" || c == "\n" || c == "\r" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\n" || c == "\r" { s.removeLast() }
        return String(s)
    }
}
