import Foundation
import Testing
import EngineIPC
@testable import NetworkingCore

/// The host's side of the networking process, in-process: endpoints handed over with
/// SCM_RIGHTS, a client talking on its endpoint, a misbehaving client reported to the host.
@Suite struct NetworkingProcessTests {
    @Test func endpointsAndMisbehavingPeers() throws {
        let server = try TestServer()
        let (host, networkingEnd) = try Connection.pair()
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var outcome: IPCError? = .closed
        let process = NetworkingProcess(control: networkingEnd, session: NetworkSession())
        Thread.detachNewThread {
            outcome = process.run()
            done.signal()
        }
        let deadline = { Clock.monotonicNanoseconds() + 10_000_000_000 }

        // Two clients, each with its own endpoint.
        var clients: [NetworkingClient] = []
        for id: UInt32 in [1, 2] {
            try host.send(message: NetworkingControlMessage.newEndpoint(id: id, peer: "content \(id)"))
            #expect(try host.receive(NetworkingControlMessage.self, deadline: deadline()) == .endpoint(id: id))
            let fd = try host.receiveDescriptor(deadline: deadline())
            clients.append(NetworkingClient(connection: Connection(fd: fd, noSignal: true)))
        }
        try clients[0].ping(5, deadline: deadline())
        try clients[1].ping(6, deadline: deadline())
        let response = try clients[1].fetch(FetchRequest(id: 3, url: server.base + "/hello"), deadline: deadline()).get()
        #expect(response.body == Array("hello".utf8))

        // Garbage on client 1's endpoint: that connection closes, the host hears who it was,
        // client 2 keeps working.
        try clients[0].connection.writeAll([0xFF, 0xFF, 0xFF, 0xFF, 1, 0, 1, 0])
        guard case .peerMisbehaved(let peer, let reason) = try host.receive(NetworkingControlMessage.self, deadline: deadline()) else {
            Issue.record("expected peerMisbehaved")
            return
        }
        #expect(peer == "content 1")
        #expect(reason.contains("oversized"))
        #expect(throws: IPCError.closed) { try clients[0].connection.receive(deadline: deadline()) }
        try clients[1].ping(7, deadline: deadline())

        // Each endpoint has its own thread: a slow fetch on one does not hold up the other.
        let third = try {
            try host.send(message: NetworkingControlMessage.newEndpoint(id: 3, peer: "content 3"))
            #expect(try host.receive(NetworkingControlMessage.self, deadline: deadline()) == .endpoint(id: 3))
            return NetworkingClient(connection: Connection(fd: try host.receiveDescriptor(deadline: deadline()), noSignal: true))
        }()
        let slowDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? third.fetch(FetchRequest(id: 20, url: server.base + "/slow"))
            slowDone.signal()
        }
        Thread.sleep(forTimeInterval: 0.2)
        let start = Date()
        _ = try clients[1].fetch(FetchRequest(id: 21, url: server.base + "/hello"), deadline: deadline()).get()
        #expect(Date().timeIntervalSince(start) < 1.5)
        slowDone.wait()
        third.connection.close()

        try host.send(message: NetworkingControlMessage.shutdown)
        done.wait()
        #expect(outcome == nil)
        for c in clients { c.connection.close() }
        host.close()
    }

    @Test func descriptorPassing() throws {
        let (a, b) = try Connection.pair()
        let (x, y) = try Connection.pair()
        try a.sendDescriptor(y.fd)
        let received = try b.receiveDescriptor()
        #expect(received != y.fd)
        y.close()
        // The received descriptor is the other end of x.
        try x.send(message: NetworkingMessage.ping(9))
        #expect(try Connection(fd: received).receive(NetworkingMessage.self) == .ping(9))
        // A plain byte where a descriptor was expected is malformed.
        try a.writeAll([0x44])
        #expect(throws: IPCError.malformed("expected one descriptor")) { try b.receiveDescriptor() }
        for c in [a, b, x, Connection(fd: received)] { c.close() }
    }

    @Test func controlMessagesRoundTrip() throws {
        let messages: [NetworkingControlMessage] = [
            .newEndpoint(id: 1, peer: "content 1 (tab 2)"), .endpoint(id: 1),
            .peerMisbehaved(peer: "p", reason: "r"), .shutdown,
        ]
        for m in messages { #expect(try NetworkingControlMessage(m.frame) == m) }
        #expect(throws: IPCError.self) { try NetworkingControlMessage(Frame(kind: 1, payload: [1])) }
    }
}
