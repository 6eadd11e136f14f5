import Foundation
import Testing
import EngineIPC
@testable import NetworkingCore

/// The networking message set over a socket pair, served in-process on a thread.
@Suite struct NetworkingServiceTests {
    final class Log: @unchecked Sendable {
        let lock = NSLock()
        var lines: [String] = []
        func append(_ s: String) { lock.lock(); lines.append(s); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
    }

    /// Starts a service on one end of a socket pair; returns the client end and a way to wait
    /// for the service's end.
    func start(_ log: Log) -> (Connection, () -> IPCError) {
        var sv: [Int32] = [0, 0]
        precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &sv) == 0)
        let serverFD = sv[1]
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var outcome = IPCError.closed
        Thread.detachNewThread {
            let service = NetworkingService(session: NetworkSession(), log: { log.append($0) })
            outcome = service.serve(Connection(fd: serverFD, noSignal: true), peer: "test client")
            done.signal()
        }
        return (Connection(fd: sv[0], noSignal: true), { done.wait(); return outcome })
    }

    @Test func pingAndFetch() throws {
        let server = try TestServer()
        let log = Log()
        let (connection, finish) = start(log)
        let client = NetworkingClient(connection: connection)
        try client.ping(42)
        let response = try client.fetch(FetchRequest(id: 9, url: server.base + "/redirect")).get()
        #expect(response.id == 9)
        #expect(response.body == Array("hello".utf8))
        #expect(response.url == server.base + "/hello")
        // A server's odd headers (a name that is not a token, 300 of them) are dropped by the
        // session, so the response still passes the client's validation.
        let odd = try client.fetch(FetchRequest(id: 11, url: server.base + "/odd-headers")).get()
        #expect(odd.body == Array("odd".utf8))
        #expect(odd.headers.count == NetworkingMessage.maxHeaders)
        #expect(odd.header("Bad Name") == nil)
        guard case .failure(.connectionRefused) = try client.fetch(FetchRequest(id: 10, url: "http://127.0.0.1:\(unusedPort())/")) else {
            Issue.record("expected connectionRefused")
            return
        }
        connection.close()
        #expect(finish() == .closed)
        #expect(log.all.isEmpty)
    }

    @Test func fetchesOnOneConnectionRunConcurrently() throws {
        let server = try TestServer()
        let (connection, finish) = start(Log())
        let client = NetworkingClient(connection: connection)
        try client.send(FetchRequest(id: 1, url: server.base + "/slow"))
        try client.send(FetchRequest(id: 2, url: server.base + "/hello"))
        try client.ping(3)  // answered while both fetches run
        let deadline = Clock.monotonicNanoseconds() + 10_000_000_000
        let first = try client.nextOutcome(deadline: deadline)
        #expect(first.id == 2)
        let second = try client.nextOutcome(deadline: deadline)
        #expect(second.id == 1)
        #expect(try second.result.get().body == Array("late".utf8))
        connection.close()
        #expect(finish() == .closed)
    }

    @Test func garbageWhileAFetchRunsClosesAtOnce() throws {
        let server = try TestServer()
        let log = Log()
        let (connection, finish) = start(log)
        let client = NetworkingClient(connection: connection)
        try client.send(FetchRequest(id: 1, url: server.base + "/slow"))
        try connection.writeAll([1, 2, 3])  // a truncated header, then end of file
        Glibc.shutdown(connection.fd, Int32(SHUT_WR))
        // The client sees end of file before the slow fetch is done.
        let start = Date()
        #expect(throws: IPCError.closed) { try connection.receive(deadline: Clock.monotonicNanoseconds() + 10_000_000_000) }
        #expect(Date().timeIntervalSince(start) < 2)
        #expect(finish() != .closed)
        #expect(log.all.count == 1)
        connection.close()
    }

    static let badFrames: [(String, [UInt8])] = [
        ("unknown kind", Frame(kind: 99, payload: []).encoded()),
        ("other version", Frame(kind: 1, payload: [0, 0, 0, 0]).encoded(version: 77)),
        ("oversized", Frame(kind: 3, payload: []).encoded().enumerated().map { $0.offset == 3 ? 0x7F : $0.element }),
        ("truncated ping", Frame(kind: 1, payload: [1, 2]).encoded()),
        ("trailing bytes", Frame(kind: 1, payload: [1, 2, 3, 4, 5]).encoded()),
        ("header injection", NetworkingMessage.fetch({
            var r = FetchRequest(id: 1, url: "http://127.0.0.1/")
            r.headers = [HTTPHeader("X", "a\r\nHost: evil")]
            return r
        }()).frame.encoded()),
        ("bad method", NetworkingMessage.fetch({
            var r = FetchRequest(id: 1, url: "http://127.0.0.1/")
            r.method = "GET /x HTTP/1.1\r\n"
            return r
        }()).frame.encoded()),
        ("a reply sent by the client", NetworkingMessage.pong(1).frame.encoded()),
        ("garbage", Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)),
    ]

    @Test(arguments: badFrames.map(\.0))
    func malformedMessageClosesTheConnectionAndIsLogged(_ name: String) throws {
        let bytes = NetworkingServiceTests.badFrames.first { $0.0 == name }!.1
        let log = Log()
        let (connection, finish) = start(log)
        try connection.writeAll(bytes)
        let outcome = finish()
        #expect(outcome != .closed)
        #expect(log.all.count == 1)
        #expect(log.all.first?.contains("test client") == true)
        // The service closed its end: the client sees end of file.
        #expect(throws: IPCError.closed) { try connection.receive() }
        connection.close()
    }

    @Test func messagesRoundTrip() throws {
        var request = FetchRequest(id: 5, url: "https://example.com/a?b#c")
        request.method = "POST"
        request.headers = [HTTPHeader("Content-Type", "text/plain"), HTTPHeader("X-Empty", "")]
        request.body = [0, 1, 2, 255]
        request.resourceType = .script
        request.firstPartyURL = "https://example.org/"
        request.timeoutMilliseconds = 1234
        request.followRedirects = false
        let messages: [NetworkingMessage] = [
            .ping(1), .pong(2), .fetch(request), .fetch(FetchRequest(id: 6, url: "http://x/")),
            .response(FetchResponse(id: 5, url: "https://example.com/", status: 404, statusText: "Not Found",
                                    headers: [HTTPHeader("A", "b")], body: Array("x".utf8), redirectCount: 3)),
            .failure(id: 5, .dnsFailure("no such host")), .failure(id: 6, .blocked("https://ads.example/")),
        ]
        for m in messages {
            #expect(try NetworkingMessage(m.frame) == m)
        }
    }
}
