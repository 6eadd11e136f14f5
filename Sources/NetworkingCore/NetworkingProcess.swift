#if canImport(Glibc)
import Glibc
#endif
import EngineIPC
import Synchronization

/// The networking process's main loop, as a library (the `sable` networking role is a thin
/// `main` over it): control messages from the host on one connection, one thread per client
/// endpoint serving `NetworkingMessage`s with one shared session.
public final class NetworkingProcess: Sendable {
    public let session: NetworkSession
    let control: Connection
    /// Sends on the control connection come from the loop and from client threads (reports).
    let sendLock = Mutex(())

    public init(control: Connection, session: NetworkSession) {
        var control = control
        control.maxPayload = NetworkingControlMessage.maxPayload
        self.control = control
        self.session = session
    }

    /// Runs until the host sends `shutdown` (returns nil) or the control connection fails
    /// (returns why: the host is gone, or sent a bad message, which is logged).
    public func run() -> IPCError? {
        while true {
            let message: NetworkingControlMessage
            do {
                message = try control.receive(NetworkingControlMessage.self)
            } catch {
                if error != .closed { NetworkingService.logToStandardError("networking: bad control message from the host: \(error)") }
                return error
            }
            switch message {
            case .shutdown:
                return nil
            case .newEndpoint(let id, let peer):
                do {
                    let (ours, theirs) = try Connection.pair()
                    try sendLock.withLock { _ throws(IPCError) in
                        try control.send(message: NetworkingControlMessage.endpoint(id: id))
                        try control.sendDescriptor(theirs.fd)
                    }
                    theirs.close()
                    serveOnNewThread(ours, peer: peer)
                } catch {
                    NetworkingService.logToStandardError("networking: cannot make an endpoint for \(peer): \(error)")
                    return error
                }
            case .endpoint, .peerMisbehaved:
                NetworkingService.logToStandardError("networking: unexpected control message from the host")
                return .malformed("unexpected control message")
            }
        }
    }

    /// The networking role's whole `main`: serves the host on `controlFD` with a session whose
    /// cookie jar is in `profileDirectory`; returns the exit status (0 after `shutdown`, 1 when
    /// the host went away or misbehaved).
    public static func roleMain(controlFD: Int32, profileDirectory: String?) -> Int32 {
        // The profile's content blockers decide every request (a list that cannot be loaded is
        // left out and reported; the others apply).
        let policy = profileDirectory.flatMap { ContentBlockerPolicy(profileDirectory: $0) }
        for problem in policy?.problems ?? [] { NetworkingService.logToStandardError("networking: content blocker \(problem)") }
        let session = NetworkSession(configuration: .init(profileDirectory: profileDirectory), policy: policy)
        let process = NetworkingProcess(control: Connection(fd: controlFD, noSignal: true), session: session)
        return process.run() == nil ? 0 : 1
    }

    func serveOnNewThread(_ connection: Connection, peer: String) {
        let service = NetworkingService(session: session) { [self] line in
            NetworkingService.logToStandardError(line)
            // The host reports which peer misbehaved; if it is gone, there is no one to tell.
            try? sendLock.withLock { _ throws(IPCError) in
                try control.send(message: NetworkingControlMessage.peerMisbehaved(peer: peer, reason: line))
            }
        }
        Thread.start { _ = service.serve(connection, peer: peer) }
    }
}

/// A detached POSIX thread running a closure (no Foundation here).
enum Thread {
    final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    static func start(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            return nil
        }, box)
        precondition(rc == 0, "pthread_create failed: \(rc)")
        pthread_detach(thread)
    }
}
