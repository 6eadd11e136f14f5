import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import BrowserWindow
import CPangoCairo
import EngineIPC
import HostCore

/// The window's drawing of a swipe's slide, without a display: the page area's draw function
/// paints into a Cairo image surface at a time in the middle of the slide (GTK is loaded, not
/// initialized; skipped where libgtk-4 is missing). The frame is written as PNG
/// (`SABLE_SLIDE_PNG=path` keeps it, to look at).
@Suite(.serialized) struct SwipeSlideDrawTests {
    @Test func theOldPageSlidesOutAndTheNewOneIn() throws {
        guard let gtk = try? GTK.load() else { return }
        let browser = try makeBrowser()  // 400x300
        let tab = try browser.openTab()
        func page(_ color: String) -> LoadDestination {
            .html("<body style='margin:0;background-color:\(color)'><p>page</p>", baseURL: "http://\(color.dropFirst()).example/")
        }
        browser.navigate(tab, page("#ff0000"))
        #expect(browser.waitForPage(tab, timeout: 30))
        let old = try #require(tab.layer)
        browser.navigate(tab, page("#0000ff"))
        #expect(browser.waitForPage(tab, timeout: 30))
        let window = BrowserWindow(gtk: gtk, browser: browser)
        // Released 100 px to the right, going back: at half time the old page is at
        // 100 + 300 * 0.875 = 362.5, the new one a width to its left.
        let now = Double(Clock.monotonicNanoseconds()) / 1e6
        let slide = SwipeAnimation(offset: 100, navigation: .back, width: 400, time: now)
        window.animation = SwipeAnimation(offset: 100, navigation: .back, width: 400, time: now - slide.duration / 2)
        window.animationSnapshot = old
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 400, 300)
        let cr = cairo_create(surface)
        BrowserWindow.draw(nil, cr, 400, 300, Unmanaged.passUnretained(window).toOpaque())
        cairo_surface_flush(surface)
        let data = try #require(cairo_image_surface_get_data(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        func rgb(_ x: Int, _ y: Int) -> [UInt8] {
            let v = UnsafeRawPointer(data).load(fromByteOffset: y * stride + x * 4, as: UInt32.self)
            return [UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
        }
        #expect(rgb(10, 150) == [0, 0, 255])     // the page gone back to, sliding in from the left
        #expect(rgb(340, 150) == [0, 0, 255])
        #expect(rgb(380, 150) == [255, 0, 0])    // the page swiped away, sliding out to the right
        #expect(window.animation != nil)         // not done at half time
        let path = String(cString: getenv("SABLE_SLIDE_PNG") ?? strdup("/tmp/sable-slide-test.png"))
        #expect(cairo_surface_write_to_png(surface, path) == CAIRO_STATUS_SUCCESS)
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
        // At its end, with the new page here, the slide is over.
        window.animation = SwipeAnimation(offset: 100, navigation: .back, width: 400, time: now - 1000)
        let end = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 400, 300)
        let cr2 = cairo_create(end)
        BrowserWindow.draw(nil, cr2, 400, 300, Unmanaged.passUnretained(window).toOpaque())
        #expect(window.animation == nil && window.animationSnapshot == nil)
        cairo_destroy(cr2)
        cairo_surface_destroy(end)

        // While the fingers move the page right, the entry before it shows on its left (its
        // last frame, kept by the window).
        window.snapshots = [(window.snapshotKey(tab, 0)!, old)]
        for i in 0..<10 { _ = window.swipe.scroll(dx: -10, dy: 0, time: Double(i * 10), canGoBack: true, canGoForward: false) }
        #expect(window.swipe.offset == 100)
        let tracking = frame(window)
        #expect(tracking(50, 150) == [255, 0, 0] && tracking(200, 150) == [0, 0, 255])
        // A slide back whose page has not arrived yet: that entry's snapshot slides in.
        _ = window.swipe.end()
        // (Half time from now: a loaded machine may have taken longer than a slide since `now`.)
        let later = Double(Clock.monotonicNanoseconds()) / 1e6
        window.animation = SwipeAnimation(offset: 100, navigation: .back, width: 400, time: later - slide.duration / 2)
        window.animationSnapshot = tab.layer          // (the current layer: nothing new yet)
        window.incomingSnapshot = old
        let waiting = frame(window)
        #expect(waiting(10, 150) == [255, 0, 0] && waiting(380, 150) == [0, 0, 255])
    }

    /// One frame of the page area (400x300): its pixels' RGB.
    func frame(_ window: BrowserWindow) -> (Int, Int) -> [UInt8] {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 400, 300)
        let cr = cairo_create(surface)
        BrowserWindow.draw(nil, cr, 400, 300, Unmanaged.passUnretained(window).toOpaque())
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        var bytes = [UInt8](repeating: 0, count: stride * 300)
        if let data = cairo_image_surface_get_data(surface) { bytes.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(start: data, count: stride * 300)) } }
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
        return { x, y in [bytes[y * stride + x * 4 + 2], bytes[y * stride + x * 4 + 1], bytes[y * stride + x * 4]] }
    }
}
