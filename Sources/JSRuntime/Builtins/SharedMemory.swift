// Shared memory between agents: SharedArrayBuffer data blocks and the waiter lists of
// Atomics.wait / waitAsync / notify (https://tc39.es/ecma262/#sec-waiterlist-objects).
//
// A runtime is one agent and runs on one thread; agents share nothing but the bytes of
// SharedArrayBuffers. A SharedArrayBuffer's bytes are a reference-counted `SharedDataBlock`
// (allocated at its maximum length, so growing never moves it); each runtime that has a
// SharedArrayBuffer object over the block holds a reference (`SharedMemoryState.blocks`,
// dropped when the object is finalized), so the bytes live while any agent can reach them.
// A host moves a block to another agent's runtime with `sharedBlock(of:)` and
// `makeSharedArrayBuffer(_:byteLength:)` (test262's `$262.agent.broadcast`).
//
// The waiter list is process-wide (`WaiterRegistry`): one mutex (the spec's critical
// section) and, per agent, a condition variable (`AgentSignal`) on which its synchronous
// `Atomics.wait` sleeps and its host waits for asynchronous waiters. Waiters are keyed by
// the element's address. `Atomics.notify` wakes waiters of any agent; an asynchronous
// waiter's promise is settled by its own agent (`settleAsyncWaiters`, called between
// promise jobs and by hosts that wait for events), never from another thread.

import CSableSupport
#if canImport(Glibc)
import Glibc
#endif

/// The bytes of a SharedArrayBuffer, shared by the agents that hold it.
public final class SharedDataBlock: @unchecked Sendable {
    public let data: UnsafeMutableRawPointer
    public let capacity: Int

    init?(capacity: Int) {
        guard let p = calloc(max(capacity, 1), 1) else { return nil }
        data = p
        self.capacity = capacity
    }

    deinit { free(data) }
}

/// An agent's condition variable (on the registry's mutex) and its interruption flag.
public final class AgentSignal: @unchecked Sendable {
    let cond: UnsafeMutablePointer<pthread_cond_t>
    /// Set by the host to end the agent's waits (`interrupt`); read under the registry's mutex.
    var interrupted = false

    init() {
        cond = .allocate(capacity: 1)
        var attr = pthread_condattr_t()
        pthread_condattr_init(&attr)
        pthread_condattr_setclock(&attr, CLOCK_MONOTONIC)
        pthread_cond_init(cond, &attr)
        pthread_condattr_destroy(&attr)
    }

    deinit {
        pthread_cond_destroy(cond)
        cond.deallocate()
    }

    /// Wakes the agent's waits for good (`Atomics.wait` returns "timed-out"): the host is
    /// shutting the agent down. Callable from any thread.
    public func interrupt() {
        let r = WaiterRegistry.shared
        r.lock()
        interrupted = true
        pthread_cond_broadcast(cond)
        r.unlock()
    }

    /// Wakes a host wait (`Runtime.waitForAsyncWaiters`) early, e.g. for a new message.
    /// Callable from any thread.
    public func wake() {
        let r = WaiterRegistry.shared
        r.lock()
        pthread_cond_broadcast(cond)
        r.unlock()
    }

    /// Waits on the condition (registry mutex held) until `deadline` (monotonic seconds).
    func wait(until deadline: Double) {
        let r = WaiterRegistry.shared
        if deadline.isInfinite {
            pthread_cond_wait(cond, r.mutex)
            return
        }
        let whole = deadline.rounded(.down)
        var ts = timespec(tv_sec: Int(whole), tv_nsec: Int((deadline - whole) * 1e9))
        _ = pthread_cond_timedwait(cond, r.mutex, &ts)
    }
}

/// One waiter in the process-wide list.
final class WaiterRecord {
    let address: UInt
    let signal: AgentSignal
    let isAsync: Bool
    /// Monotonic seconds (infinity: none).
    let deadline: Double
    /// Set under the registry's mutex by Atomics.notify.
    var notified = false

    init(address: UInt, signal: AgentSignal, isAsync: Bool, deadline: Double) {
        self.address = address; self.signal = signal; self.isAsync = isAsync; self.deadline = deadline
    }
}

/// The process-wide waiter list and its mutex.
public final class WaiterRegistry: @unchecked Sendable {
    public static let shared = WaiterRegistry()
    let mutex: UnsafeMutablePointer<pthread_mutex_t>
    var waiters: [WaiterRecord] = []
    /// Agents started by hosts besides the first (under the mutex): with none, nothing can
    /// ever notify a synchronous wait without a timeout.
    var extraAgents = 0

    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }

    /// A host started (+1) or ended (-1) an agent that shares memory with the others.
    public func agentStarted(_ delta: Int) {
        lock()
        extraAgents += delta
        unlock()
    }

    func remove(_ w: WaiterRecord) {
        if let i = waiters.firstIndex(where: { $0 === w }) { waiters.remove(at: i) }
    }
}

/// Monotonic seconds.
func monotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// Sleeps for `ms` milliseconds (a futex wait: the locked worker has no nanosleep).
public func sleepMilliseconds(_ ms: Double) {
    if ms > 0 { sable_sleep_nanoseconds(UInt64(min(ms, 1e9) * 1_000_000)) }
}

/// A runtime's side of shared memory.
final class SharedMemoryState {
    /// The blocks of this runtime's SharedArrayBuffer objects, by object cell, with the
    /// external bytes reserved for each.
    var blocks: [UInt: (block: SharedDataBlock, reserved: Int)] = [:]
    let signal = AgentSignal()
    /// Asynchronous waiters of this runtime not settled yet (all realms).
    var pendingAsync = 0
}

extension Runtime {
    /// This agent's signal (the host interrupts or wakes the agent through it).
    public var agentSignal: AgentSignal { sharedMemory.signal }

    /// A new shared block of `capacity` bytes for a SharedArrayBuffer object, accounted as
    /// external heap bytes.
    func allocateSharedBlock(_ capacity: Int) throws(JSException) -> SharedDataBlock {
        if capacity > Runtime.maxBufferByteLength { throw try rangeError("Array buffer allocation failed: \(capacity) bytes") }
        try reserveExternal(capacity)
        guard let b = SharedDataBlock(capacity: capacity) else {
            heap.releaseExternal(capacity)
            throw try rangeError("Array buffer allocation failed: \(capacity) bytes")
        }
        return b
    }

    /// Makes SharedArrayBuffer object `o` use `block` (its reservation already made).
    func attachSharedBlock(_ o: JSObject, _ block: SharedDataBlock, byteLength: Int, maxByteLength: Int) {
        sharedMemory.blocks[UInt(bitPattern: o.cell)] = (block, block.capacity)
        o.setWord(0, UInt64(UInt(bitPattern: block.data)))
        o.setWord(1, UInt64(byteLength))
        o.setWord(2, UInt64(maxByteLength))
        o.flags |= BufferFlags.shared
    }

    /// A SharedArrayBuffer object was collected: drop its reference to the block.
    func releaseSharedBlock(_ o: JSObject) {
        if let entry = sharedMemory.blocks.removeValue(forKey: UInt(bitPattern: o.cell)) {
            heap.releaseExternal(entry.reserved)
        }
        o.setWord(0, 0)
    }

    /// The block and current byte length of a SharedArrayBuffer (nil for anything else),
    /// for a host to hand to another agent.
    public func sharedBlock(of v: Value) -> (block: SharedDataBlock, byteLength: Int, maxByteLength: Int?)? {
        guard isArrayBuffer(v), JSObject(v).isSharedBuffer,
              let entry = sharedMemory.blocks[UInt(bitPattern: v.asCell)] else { return nil }
        let o = JSObject(v)
        return (entry.block, o.bufferByteLength, o.isFixedLengthBuffer ? nil : o.bufferMaxByteLength)
    }

    /// A SharedArrayBuffer of this runtime's realm over another agent's block.
    public func makeSharedArrayBuffer(_ block: SharedDataBlock, byteLength: Int, maxByteLength: Int?) throws(JSException) -> Value {
        let proto = realm.binary.sharedArrayBufferPrototype!
        let o = try allocateObject(.arrayBuffer, shape: try rootShape(for: Value(cell: proto.cell)))
        heap.pushRoot(Value(cell: o.cell))
        defer { heap.popRoots(1) }
        try reserveExternal(block.capacity)
        attachSharedBlock(o, block, byteLength: byteLength, maxByteLength: maxByteLength ?? byteLength)
        if maxByteLength != nil { o.flags |= BufferFlags.resizable }
        return Value(cell: o.cell)
    }

    // MARK: - Waiting and notifying

    /// Atomics.wait's blocking part (DoWait, synchronous): compares the element with
    /// `expected` and sleeps until notified or the timeout (milliseconds, infinite for none).
    func atomicsWaitBlocking(_ p: UnsafeMutableRawPointer, size: Int, expected: UInt64, timeout t: Double) throws(JSException) -> String {
        let r = WaiterRegistry.shared
        let mask: UInt64 = size == 8 ? ~0 : (1 << UInt64(size * 8)) - 1
        r.lock()
        if sable_atomic_load(p, Int32(size)) & mask != expected & mask { r.unlock(); return "not-equal" }
        if t.isInfinite && r.extraAgents == 0 {
            r.unlock()
            throw try typeError("Atomics.wait: waiting without a timeout would block forever (no other agent can notify)")
        }
        let signal = sharedMemory.signal
        let deadline = t.isInfinite ? Double.infinity : monotonicNow() + t / 1000
        let w = WaiterRecord(address: UInt(bitPattern: p), signal: signal, isAsync: false, deadline: deadline)
        r.waiters.append(w)
        while !w.notified && !signal.interrupted && monotonicNow() < deadline {
            signal.wait(until: deadline)
        }
        if !w.notified { r.remove(w) }
        r.unlock()
        return w.notified ? "ok" : "timed-out"
    }

    /// Atomics.waitAsync's registration: nil if the element differs (not-equal), else the
    /// waiter (the caller makes and records its promise).
    func atomicsWaitAsyncRegister(_ p: UnsafeMutableRawPointer, size: Int, expected: UInt64, timeout t: Double) -> WaiterRecord? {
        let r = WaiterRegistry.shared
        let mask: UInt64 = size == 8 ? ~0 : (1 << UInt64(size * 8)) - 1
        r.lock()
        defer { r.unlock() }
        if sable_atomic_load(p, Int32(size)) & mask != expected & mask { return nil }
        let deadline = t.isInfinite ? Double.infinity : monotonicNow() + t / 1000
        let w = WaiterRecord(address: UInt(bitPattern: p), signal: sharedMemory.signal, isAsync: true, deadline: deadline)
        r.waiters.append(w)
        sharedMemory.pendingAsync += 1
        return w
    }

    /// Atomics.notify's waking: up to `count` waiters on the element, oldest first, of any
    /// agent. Returns how many; this agent's asynchronous ones are settled now.
    func atomicsNotifyWaiters(_ p: UnsafeMutableRawPointer, count: Double) throws(JSException) -> Int {
        let r = WaiterRegistry.shared
        let address = UInt(bitPattern: p)
        var woken = 0
        var ownAsync = false
        r.lock()
        var i = 0
        while i < r.waiters.count && Double(woken) < count {
            let w = r.waiters[i]
            if w.address == address {
                r.waiters.remove(at: i)
                w.notified = true
                woken += 1
                if w.signal === sharedMemory.signal { ownAsync = ownAsync || w.isAsync } else { pthread_cond_broadcast(w.signal.cond) }
            } else {
                i += 1
            }
        }
        r.unlock()
        if ownAsync { try settleAsyncWaiters(maxWait: 0) }
        return woken
    }

    /// Whether this runtime has asynchronous waiters (Atomics.waitAsync) still pending.
    public var hasPendingAsyncWaiters: Bool { sharedMemory.pendingAsync > 0 }

    /// Settles this runtime's asynchronous waiters that were notified ("ok") or reached
    /// their timeout ("timed-out"); when none could be and `maxWait` (seconds) is positive,
    /// first sleeps until one can, for at most `maxWait` (or until `agentSignal.wake()`).
    public func settleAsyncWaiters(maxWait: Double) throws(JSException) {
        if sharedMemory.pendingAsync == 0 { return }
        let r = WaiterRegistry.shared
        var settled: [(promise: Value, ok: Bool)] = []
        func collect(_ now: Double) {
            for realm in realms {
                let list = realm.binary.asyncWaiters
                if list.isEmpty { continue }
                var kept: [(buffer: Value, record: WaiterRecord, promise: Value)] = []
                for w in list {
                    if w.record.notified {
                        settled.append((w.promise, true))
                    } else if now >= w.record.deadline || sharedMemory.signal.interrupted {
                        r.remove(w.record)
                        settled.append((w.promise, false))
                    } else {
                        kept.append(w)
                    }
                }
                realm.binary.asyncWaiters = kept
            }
        }
        r.lock()
        collect(monotonicNow())
        if settled.isEmpty && maxWait > 0 {
            var next = monotonicNow() + maxWait
            for realm in realms { for w in realm.binary.asyncWaiters { next = min(next, w.record.deadline) } }
            sharedMemory.signal.wait(until: next)
            collect(monotonicNow())
        }
        r.unlock()
        if settled.isEmpty { return }
        sharedMemory.pendingAsync -= settled.count
        try withRootedValues(settled.map { $0.promise }) { () throws(JSException) in
            for s in settled {
                try resolvePromise(JSObject(s.promise), try makeString(s.ok ? "ok" : "timed-out"))
            }
        }
    }
}
