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

    /// How many fetches of one connection run at once (each on its own thread); more wait.
    public var maxConcurrentFetches = 6

    /// Serves a connection until the peer closes it (returns `.closed`) or misbehaves (the
    /// error that closed it). Fetches run concurrently and their replies go out as they
    /// finish, in any order (the client matches them by id). On return the connection is
    /// shut down at once, and closed once no fetch of it is left running.
    @discardableResult
    public func serve(_ connection: Connection, peer: String) -> IPCError {
        // Requests are small; replies carry whole bodies (up to the session's body limit).
        var reader = connection, replies = connection
        reader.maxPayload = NetworkingMessage.maxRequestPayload
        replies.maxPayload = NetworkingMessage.maxResponsePayload
        let connection = reader, writer = replies
        let state = ConnectionState()
        defer {
            // The peer sees end of file now; the descriptor stays valid (not reused) until
            // the last fetch thread has given up on it.
            shutdown(connection.fd, Int32(SHUT_RDWR))
            state.waitUntilIdle()
            connection.close()
        }
        func fail(_ error: IPCError) -> IPCError {
            log("networking: closing the connection to \(peer): \(error)")
            return error
        }
        while true {
            let message: NetworkingMessage
            do {
                message = try connection.receive(NetworkingMessage.self)
            } catch {
                // A failed reply shuts the socket down, which ends the read: report that.
                if let sendError = state.sendFailure { return fail(sendError) }
                return error == .closed ? error : fail(error)
            }
            switch message {
            case .ping(let n):
                if let error = state.send(.pong(n), on: writer) { return fail(error) }
            case .fetch(let request):
                state.acquireSlot(limit: maxConcurrentFetches)
                let session = self.session
                Thread.start {
                    let reply: NetworkingMessage
                    switch session.fetch(request) {
                    case .success(let response): reply = .response(response)
                    case .failure(let error): reply = .failure(id: request.id, error)
                    }
                    if state.send(reply, on: writer) != nil {
                        shutdown(connection.fd, Int32(SHUT_RDWR))  // wakes the reading loop
                    }
                    state.releaseSlot()
                }
            case .pong, .response, .failure:
                return fail(.malformed("unexpected message from a client"))
            }
        }
    }
}

/// What the reading loop and the fetch threads of one connection share: the send lock, the
/// count of fetches running, the first send failure.
final class ConnectionState: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var running = 0
    private var failure: IPCError?

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        changed.deallocate()
        mutex.deallocate()
    }

    var sendFailure: IPCError? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return failure
    }

    /// Sends one reply (whole frames never interleave); a body over the frame limit becomes a
    /// `tooLarge` failure. Returns the error when the connection can no longer be written.
    func send(_ reply: NetworkingMessage, on connection: Connection) -> IPCError? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if let failure { return failure }
        do throws(IPCError) {
            do throws(IPCError) {
                try connection.send(message: reply)
            } catch .oversized(let size) {
                guard case .response(let r) = reply else { throw IPCError.oversized(size) }
                try connection.send(message: NetworkingMessage.failure(id: r.id, .tooLarge("response of \(size) bytes")))
            }
        } catch {
            failure = error
            return error
        }
        return nil
    }

    func acquireSlot(limit: Int) {
        pthread_mutex_lock(mutex)
        while running >= limit { pthread_cond_wait(changed, mutex) }
        running += 1
        pthread_mutex_unlock(mutex)
    }

    func releaseSlot() {
        pthread_mutex_lock(mutex)
        running -= 1
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }

    func waitUntilIdle() {
        pthread_mutex_lock(mutex)
        while running > 0 { pthread_cond_wait(changed, mutex) }
        pthread_mutex_unlock(mutex)
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

    /// Sends a fetch without waiting (several may be outstanding; see `nextOutcome`).
    public func send(_ request: FetchRequest) throws(IPCError) {
        try connection.send(message: NetworkingMessage.fetch(request))
    }

    /// Waits for the next fetch outcome, whichever request it answers.
    public func nextOutcome(deadline: UInt64? = nil) throws(IPCError) -> (id: UInt32, result: Result<FetchResponse, FetchError>) {
        switch try connection.receive(NetworkingMessage.self, deadline: deadline) {
        case .response(let r): return (r.id, .success(r))
        case .failure(let id, let e): return (id, .failure(e))
        default: throw .malformed("unexpected message from the networking process")
        }
    }

    /// Sends a fetch and waits for its outcome (with no other fetch outstanding).
    public func fetch(_ request: FetchRequest, deadline: UInt64? = nil) throws(IPCError) -> Result<FetchResponse, FetchError> {
        try connection.send(message: NetworkingMessage.fetch(request))
        switch try connection.receive(NetworkingMessage.self, deadline: deadline) {
        case .response(let r) where r.id == request.id: return .success(r)
        case .failure(let id, let e) where id == request.id: return .failure(e)
        default: throw .malformed("unexpected reply to fetch \(request.id)")
        }
    }
}
