import Testing
@testable import EngineIPC

@Suite struct FrameTests {
    @Test func roundTrip() throws {
        var e = EvaluateRequest(id: 7, name: "a.js", source: "print(1)")
        e.gcStress = true
        e.gcStats = true
        var withArgs = e
        withArgs.scriptArgs = ["a", "", "é \u{1F600}"]
        var noArgs = e
        noArgs.scriptArgs = []
        for m: WorkerMessage in [.hello(pid: 42), .lockdown(policyVersion: 1, addressSpaceLimit: 1 << 32, mode: .reportAndKill),
                                 .lockdown(policyVersion: 3, addressSpaceLimit: 0, mode: .kill, filter: [6, 0, 0, 0, 0, 0, 0xFF, 0x7F]),
                                 .lockedDown, .evaluate(e), .evaluate(withArgs), .evaluate(noArgs), .result(EvaluateResult(id: 7, status: 1, exception: "Error: x")),
                                 .probe("openat"), .sweep, .shutdown] {
            #expect(try WorkerMessage(m.frame) == m)
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif

@Suite struct MalformedFrameTests {
    /// Writes raw bytes into one end of a socket pair; returns what `receive` does.
    func receive(_ bytes: [UInt8], maxPayload: Int = 1024) -> Result<WorkerMessage, IPCError> {
        var sv: [Int32] = [0, 0]
        socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &sv)
        defer { close(sv[0]) }
        let writer = Connection(fd: sv[1])
        try? writer.writeAll(bytes)
        close(sv[1])
        let reader = Connection(fd: sv[0], maxPayload: maxPayload)
        do { return .success(try reader.receiveMessage(deadline: Clock.monotonicNanoseconds() + 1_000_000_000)) }
        catch { return .failure(error) }
    }

    @Test func rejectsBadFrames() {
        #expect(receive([]) == .failure(.closed))
        #expect(receive([1, 0, 0]) == .failure(.malformed("connection closed inside a frame")))
        // Oversized: a 1 GiB length is refused before any allocation.
        #expect(receive([0, 0, 0, 0x40, 1, 0, 1, 0]) == .failure(.oversized(1 << 30)))
        #expect(receive([0, 0, 0, 0, 9, 0, 1, 0]) == .failure(.versionMismatch(9)))
        #expect(receive([0, 0, 0, 0, 1, 0, 99, 0]) == .failure(.malformed("unknown message kind 99")))
        // hello with a short payload; hello with trailing bytes; bad UTF-8 in a string.
        #expect(receive([2, 0, 0, 0, 1, 0, 1, 0, 1, 2]) == .failure(.malformed("truncated payload")))
        #expect(receive([5, 0, 0, 0, 1, 0, 1, 0, 1, 2, 3, 4, 5]) == .failure(.malformed("1 trailing bytes")))
        #expect(receive([6, 0, 0, 0, 1, 0, 6, 0, 2, 0, 0, 0, 0xFF, 0xFE]) == .failure(.malformed("invalid UTF-8")))
        // A string length beyond the payload.
        #expect(receive([4, 0, 0, 0, 1, 0, 6, 0, 0xFF, 0xFF, 0xFF, 0x7F]) == .failure(.malformed("truncated payload")))
        #expect(receive(WorkerMessage.probe("openat").frame.encoded()) == .success(.probe("openat")))
    }

    @Test func deadline() {
        var sv: [Int32] = [0, 0]
        socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &sv)
        defer { close(sv[0]); close(sv[1]) }
        let c = Connection(fd: sv[0])
        #expect(throws: IPCError.timedOut) { try c.receive(deadline: Clock.monotonicNanoseconds() + 20_000_000) }
    }
}
