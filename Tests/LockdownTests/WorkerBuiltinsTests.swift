// Builtins that block or wait, run in the locked worker: they must use only what the
// worker's policy allows (a forbidden system call kills the worker).
import Testing

@Suite struct WorkerBuiltinsTests {
    /// Atomics.wait with a timeout sleeps on a private futex (the policy has no nanosleep or
    /// clock_nanosleep; the worker used to be killed for the latter).
    @Test func atomicsWaitTimesOutInTheLockedWorker() {
        let script = """
            const ia = new Int32Array(new SharedArrayBuffer(16));
            const t = Date.now();
            const a = Atomics.wait(ia, 0, 0, 30);
            console.log(a, Date.now() - t >= 29, Atomics.wait(ia, 0, 1, 30), Atomics.wait(ia, 0, 0, 0));
            """
        let r = runJSRun(["-e", script])
        #expect(r.status == 0 && !r.signaled, "\(r.stderr)")
        #expect(r.stdout == "timed-out true not-equal timed-out\n", "\(r.stderr)")
    }
}
