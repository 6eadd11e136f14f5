#if canImport(Glibc)
import Glibc
#endif
import EngineIPC

/// The networking process's side of one client connection: validated `NetworkingMessage`s
/// in, fetches through the session, responses out. A malformed, oversized or unexpected
/// message closes that connection (and only that one) and is logged.
public struct NetworkingService: Sendable {
    public let session: NetworkSession
    /// Where misbehaving peers are reported (stderr by default).
    public var log: @Sendable (String) -> Void

    public init(session: NetworkSession, log: @escaping @Sendable (String) -> Void = NetworkingService.logToStandardError) {
        self.session = session
        self.log = log
    }

    public static func logToStandardError(_ line: String) {
        let text = line + "\n"
        _ = text.withCString { write(2, $0, strlen($0)) }
    }

    /// Serves a connection until the peer closes it (returns `.closed`) or misbehaves (the
    /// error that closed it). The connection is closed on return.
    @discardableResult
    public func serve(_ connection: Connection, peer: String) -> IPCError {
        var connection = connection
        connection.maxPayload = NetworkingMessage.maxRequestPayload
        defer { connection.close() }
        while true {
            let message: NetworkingMessage
            do {
                message = try connection.receive(NetworkingMessage.self)
            } catch {
                if error != .closed { log("networking: closing the connection to \(peer): \(error)") }
                return error
            }
            let reply: NetworkingMessage
            switch message {
            case .ping(let n):
                reply = .pong(n)
            case .fetch(let request):
                switch session.fetch(request) {
                case .success(let response): reply = .response(response)
                case .failure(let error): reply = .failure(id: request.id, error)
                }
            case .pong, .response, .failure:
                let error = IPCError.malformed("unexpected message from a client")
                log("networking: closing the connection to \(peer): \(error)")
                return error
            }
            do throws(IPCError) {
                do throws(IPCError) {
                    try connection.send(message: reply)
                } catch .oversized(let size) {
                    // A body over the frame limit: the client gets the reason instead.
                    guard case .response(let r) = reply else { throw IPCError.oversized(size) }
                    try connection.send(message: NetworkingMessage.failure(id: r.id, .tooLarge("response of \(size) bytes")))
                }
            } catch {
                log("networking: closing the connection to \(peer): \(error)")
                return error
            }
        }
    }
}

/// A client of the networking process over one connection (the content process's side).
public struct NetworkingClient: Sendable {
    public var connection: Connection

    public init(connection: Connection) {
        var connection = connection
        connection.maxPayload = NetworkingMessage.maxResponsePayload
        self.connection = connection
    }

    /// Sends a ping and waits for its pong.
    public func ping(_ n: UInt32 = 1, deadline: UInt64? = nil) throws(IPCError) {
        try connection.send(message: NetworkingMessage.ping(n))
        guard case .pong(n) = try connection.receive(NetworkingMessage.self, deadline: deadline) else {
            throw .malformed("expected pong \(n)")
        }
    }

    /// Sends a fetch and waits for its outcome.
    public func fetch(_ request: FetchRequest, deadline: UInt64? = nil) throws(IPCError) -> Result<FetchResponse, FetchError> {
        try connection.send(message: NetworkingMessage.fetch(request))
        switch try connection.receive(NetworkingMessage.self, deadline: deadline) {
        case .response(let r) where r.id == request.id: return .success(r)
        case .failure(let id, let e) where id == request.id: return .failure(e)
        default: throw .malformed("unexpected reply to fetch \(request.id)")
        }
    }
}
