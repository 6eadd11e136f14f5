import Testing
@testable import EngineIPC

@Suite struct FrameTests {
    @Test func roundTrip() throws {
        var e = EvaluateRequest(id: 7, name: "a.js", source: "print(1)")
        e.gcStress = true
        for m: WorkerMessage in [.hello(pid: 42), .lockdown(policyVersion: 1, addressSpaceLimit: 1 << 32, mode: .reportAndKill),
                                 .lockedDown, .evaluate(e), .result(EvaluateResult(id: 7, status: 1, exception: "Error: x")),
                                 .probe("openat"), .sweep, .shutdown] {
            #expect(try WorkerMessage(m.frame) == m)
        }
    }
}
