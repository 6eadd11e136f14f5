#if canImport(Glibc)
import Glibc
#endif
import EngineIPC
import DisplayList
import Synchronization

/// The rendering process's main loop, as a library (the `sable` rendering role is a thin
/// `main` over it): control messages from the host on one connection, one thread per
/// content endpoint. Each rendered frame is a new memfd layer sent to the host.
public final class RenderingProcess: Sendable {
    let control: Connection
    /// Sends on the control connection come from the loop and from client threads.
    let sendLock = Mutex(())
    let rasterizer: Rasterizer

    public init(control: Connection, rasterizer: Rasterizer = .shared) {
        var control = control
        control.maxPayload = RenderingControlMessage.maxPayload
        self.control = control
        self.rasterizer = rasterizer
    }

    public static func log(_ line: String) {
        let text = line + "\n"
        _ = text.withCString { write(2, $0, strlen($0)) }
    }

    /// Runs until `shutdown` (nil) or until the control connection fails (why; logged
    /// unless the host simply went away).
    public func run() -> IPCError? {
        while true {
            let message: RenderingControlMessage
            do {
                message = try control.receive(RenderingControlMessage.self)
            } catch {
                if error != .closed { RenderingProcess.log("rendering: bad control message from the host: \(error)") }
                return error
            }
            switch message {
            case .shutdown:
                return nil
            case .newEndpoint(let id, let peer):
                do {
                    let (ours, theirs) = try Connection.pair()
                    try sendLock.withLock { _ throws(IPCError) in
                        try control.send(message: RenderingControlMessage.endpoint(id: id))
                        try control.sendDescriptor(theirs.fd)
                    }
                    theirs.close()
                    let service = RenderingService(process: self, id: id, peer: peer)
                    RenderingThread.start { service.serve(ours) }
                } catch {
                    RenderingProcess.log("rendering: cannot make an endpoint for \(peer): \(error)")
                    return error
                }
            case .render(let id, let frame, let bytes):
                do {
                    let list = try DisplayList(decoding: bytes)
                    try present(list, id: id, frame: frame)
                } catch {
                    RenderingProcess.log("rendering: bad display list from the host: \(error)")
                    return .malformed("bad display list")
                }
            case .endpoint, .layer, .peerMisbehaved:
                RenderingProcess.log("rendering: unexpected control message from the host")
                return .malformed("unexpected control message")
            }
        }
    }

    /// Rasterizes `list` into a new layer and hands it to the host.
    func present(_ list: DisplayList, id: UInt32, frame: UInt32) throws {
        let width = max(1, min(Int(list.width.rounded(.up)), 16384))
        let height = max(1, min(Int(list.height.rounded(.up)), 16384))
        let layer = try SharedLayer(width: width, height: height)
        rasterizer.draw(list, into: layer)
        let info = LayerInfo(id: id, frame: frame, width: UInt32(width), height: UInt32(height), stride: UInt32(layer.stride))
        try sendLock.withLock { _ throws(IPCError) in
            try control.send(message: RenderingControlMessage.layer(info))
            try control.sendDescriptor(layer.fd)
        }
    }

    func report(peer: String, reason: String) {
        RenderingProcess.log("rendering: closing the connection to \(peer): \(reason)")
        try? sendLock.withLock { _ throws(IPCError) in
            try control.send(message: RenderingControlMessage.peerMisbehaved(peer: peer, reason: reason))
        }
    }

    /// The rendering role's whole `main`: serves the host on `controlFD`; 0 after `shutdown`.
    public static func roleMain(controlFD: Int32) -> Int32 {
        let process = RenderingProcess(control: Connection(fd: controlFD, noSignal: true))
        return process.run() == nil ? 0 : 1
    }
}
