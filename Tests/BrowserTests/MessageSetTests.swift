import Testing
import EngineIPC

@Suite struct BrowserMessageSetTests {
    @Test func contentMessagesRoundTrip() throws {
        let messages: [ContentMessage] = [
            .hello(pid: 42), .lockdown(version: 1), .lockedDown, .bootstrap, .bootstrapped,
            .load(LoadRequest(id: 1, destination: .url("http://127.0.0.1/"))),
            .load(LoadRequest(id: 2, destination: .html("<p>x", baseURL: "about:blank"), viewportWidth: 320, viewportHeight: 200)),
            .load(LoadRequest(id: 3, destination: .file(path: "/tmp/a.html", contents: [1, 2, 3]))),
            .loaded(id: 1, url: "http://a/", title: "T"), .loadFailed(id: 2, url: "u", reason: "why"), .shutdown,
            .load(LoadRequest(id: 4, destination: .url("http://a/"), zoom: 1.5, scrollY: 300, scrollX: 120)),
            .scrolled(x: 40, y: 500), .titleChanged(title: "New title"), .ping(token: 9), .pong(token: 9),
            .pageSize(width: 1200, height: 5000),
        ]
        for m in messages { #expect(try ContentMessage(m.frame) == m) }
    }

    @Test func renderingMessagesRoundTrip() throws {
        let messages: [RenderingMessage] = [
            .ping(7), .pong(7), .measure(id: 3, [TextMeasurement(family: 1, size: 16, style: 3, text: "word")]),
            .measured(id: 3, [TextMetrics(width: 30.5, ascent: 12, descent: 4)]), .render(frame: 9, displayList: [1, 2]),
            .rendered(frame: 9),
        ]
        for m in messages { #expect(try RenderingMessage(m.frame) == m) }
        let control: [RenderingControlMessage] = [
            .newEndpoint(id: 1, peer: "content 1 (tab 1)"), .endpoint(id: 1),
            .layer(LayerInfo(id: 1, frame: 2, width: 800, height: 600, stride: 3200)),
            .render(id: 1, frame: 3, displayList: [9]), .peerMisbehaved(peer: "p", reason: "r"), .shutdown,
        ]
        for m in control { #expect(try RenderingControlMessage(m.frame) == m) }
    }

    @Test func invalidMessagesAreMalformed() {
        #expect(throws: IPCError.self) { try ContentMessage(Frame(kind: 99, payload: [])) }
        #expect(throws: IPCError.self) { try RenderingMessage(Frame(kind: 99, payload: [])) }
        #expect(throws: IPCError.self) { try RenderingControlMessage(Frame(kind: 99, payload: [])) }
        // Trailing bytes, a bad viewport, a bad font, a layer whose stride is too small.
        #expect(throws: IPCError.self) { try ContentMessage(Frame(kind: ContentMessage.lockedDown.frame.kind, payload: [0])) }
        var load = ContentMessage.load(LoadRequest(id: 1, destination: .url("x"))).frame
        load.payload[4] = 0; load.payload[5] = 0
        #expect(throws: IPCError.self) { try ContentMessage(load) }
        var scrolled = ContentMessage.scrolled(x: 1, y: 2).frame
        scrolled.payload[0...3] = [0, 0, 0xc0, 0x7f]  // NaN
        #expect(throws: IPCError.self) { try ContentMessage(scrolled) }
        var measure = RenderingMessage.measure(id: 1, [TextMeasurement(family: 1, size: 16, style: 0, text: "a")]).frame
        measure.payload[8] = 7
        #expect(throws: IPCError.self) { try RenderingMessage(measure) }
        let layer = RenderingControlMessage.layer(LayerInfo(id: 1, frame: 1, width: 100, height: 10, stride: 4)).frame
        #expect(throws: IPCError.self) { try RenderingControlMessage(layer) }
    }
}
