#if canImport(Glibc)
import Glibc
#endif
import EngineIPC
import DisplayList

/// One content process's connection: pings, text measurement, frames.
struct RenderingService: Sendable {
    let process: RenderingProcess
    let id: UInt32
    let peer: String

    func serve(_ connection: Connection) {
        var connection = connection
        connection.maxPayload = RenderingMessage.maxPayload
        defer { connection.close() }
        while true {
            let message: RenderingMessage
            do {
                message = try connection.receive(RenderingMessage.self)
            } catch {
                if error != .closed { process.report(peer: peer, reason: "\(error)") }
                return
            }
            do {
                switch message {
                case .ping(let n):
                    try connection.send(message: RenderingMessage.pong(n))
                case .measure(let requestID, let texts):
                    let fonts = texts.map { t in
                        (Font(family: Font.Family(rawValue: t.family) ?? .serif, size: t.size, bold: t.style & 1 != 0,
                              italic: t.style & 2 != 0), t.text)
                    }
                    let sizes = process.rasterizer.measure(fonts).map { TextMetrics(width: $0.width, ascent: $0.ascent, descent: $0.descent) }
                    try connection.send(message: RenderingMessage.measured(id: requestID, sizes))
                case .render(let frame, let bytes):
                    let list: DisplayList
                    do {
                        list = try DisplayList(decoding: bytes)
                    } catch {
                        process.report(peer: peer, reason: "\(error)")
                        return
                    }
                    try process.present(list, id: id, frame: frame)
                    try connection.send(message: RenderingMessage.rendered(frame: frame))
                case .pong, .measured, .rendered:
                    process.report(peer: peer, reason: "unexpected message from a client")
                    return
                }
            } catch {
                RenderingProcess.log("rendering: \(peer): \(error)")
                return
            }
        }
    }
}
