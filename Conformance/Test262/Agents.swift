// `$262.agent` (INTERPRETING.md): agents on real threads, for the Atomics tests.
//
// Each agent is a separate `Runtime` (interpreted: the JIT and its executable pool belong
// to the test's thread) created and run on a thread of `AgentThreadPool`, which the worker
// starts before it locks down (its seccomp policy has no clone). Agents share nothing but
// SharedArrayBuffer blocks (`Runtime.sharedBlock(of:)` / `makeSharedArrayBuffer`) and talk
// to the test through an `AgentHub`: broadcast messages (each agent's inbox; `broadcast`
// blocks until every running agent has taken its copy) and reports (strings).
//
// The test's side: `start(source)`, `broadcast(sab[, number])`, `getReport()`,
// `sleep(ms)`, `monotonicNow()`. An agent's side: `receiveBroadcast(callback)`,
// `report(value)`, `leaving()`, `sleep(ms)`, `monotonicNow()`. When the test's run ends
// the hub interrupts the agents' waits and waits for their threads to finish.

import Foundation
import JSSyntax
import JSBytecode
import JSBytecompiler
import JSRuntime

/// Threads for agents, started before the worker locks itself down.
final class AgentThreadPool: @unchecked Sendable {
    nonisolated(unsafe) static var shared: AgentThreadPool?
    private let condition = NSCondition()
    private var tasks: [() -> Void] = []
    private var busy = 0
    let size: Int

    private var started = 0

    /// Returns once every thread runs (a thread's own start-up system calls, e.g. glibc's
    /// rseq and robust-list registration, must happen before the lockdown).
    init(size: Int, stackSize: Int) {
        self.size = size
        for _ in 0..<size {
            let t = Thread { [unowned self] in self.serve() }
            t.stackSize = stackSize
            t.start()
        }
        condition.lock()
        while started < size { condition.wait() }
        condition.unlock()
    }

    private func serve() {
        condition.lock()
        started += 1
        condition.broadcast()
        condition.unlock()
        while true {
            condition.lock()
            while tasks.isEmpty { condition.wait() }
            let task = tasks.removeFirst()
            condition.unlock()
            task()
            condition.lock()
            busy -= 1
            condition.unlock()
        }
    }

    /// Runs `task` on an idle thread; false when every thread is taken.
    func run(_ task: @escaping () -> Void) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if busy >= size { return false }
        busy += 1
        tasks.append(task)
        condition.signal()
        return true
    }
}

/// One broadcast: the buffer's block and the optional number.
struct AgentMessage {
    let block: SharedDataBlock
    let byteLength: Int
    let maxByteLength: Int?
    let number: Double?
}

final class AgentRecord {
    var inbox: [AgentMessage] = []
    var finished = false
    var signal: AgentSignal?
}

/// What the test's runtime and its agents share (everything under `condition`).
final class AgentHub: @unchecked Sendable {
    let condition = NSCondition()
    var reports: [String] = []
    var agents: [AgentRecord] = []
    var shuttingDown = false
    let root: String
    let maxHeapBytes: Int

    init(root: String, maxHeapBytes: Int) {
        self.root = root
        self.maxHeapBytes = maxHeapBytes
    }

    /// Ends the agents: their waits end, their loops stop; returns once every thread is done.
    func shutDown() {
        condition.lock()
        shuttingDown = true
        let signals = agents.compactMap { $0.signal }
        condition.broadcast()
        condition.unlock()
        for s in signals { s.interrupt() }
        condition.lock()
        while agents.contains(where: { !$0.finished }) {
            condition.unlock()
            for a in agents { a.signal?.interrupt() }
            condition.lock()
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05))
        }
        condition.unlock()
    }

    // MARK: - The test's side

    func start(_ source: String) -> String? {
        let record = AgentRecord()
        condition.lock()
        agents.append(record)
        condition.unlock()
        guard let pool = AgentThreadPool.shared else { return "no agent threads" }
        WaiterRegistry.shared.agentStarted(1)
        let ok = pool.run { [self] in
            self.runAgent(source, record)
            WaiterRegistry.shared.agentStarted(-1)
            self.condition.lock()
            record.finished = true
            self.condition.broadcast()
            self.condition.unlock()
        }
        if !ok {
            WaiterRegistry.shared.agentStarted(-1)
            condition.lock()
            record.finished = true
            condition.unlock()
            return "too many agents (at most \(pool.size))"
        }
        return nil
    }

    /// Gives every running agent the message; returns once each has taken it.
    func broadcast(_ message: AgentMessage) {
        condition.lock()
        let targets = agents.filter { !$0.finished }
        for a in targets { a.inbox.append(message) }
        condition.broadcast()
        let signals = targets.compactMap { $0.signal }
        condition.unlock()
        for s in signals { s.wake() }
        condition.lock()
        while targets.contains(where: { !$0.finished && !$0.inbox.isEmpty }) && !shuttingDown {
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05))
        }
        condition.unlock()
    }

    func takeReport() -> String? {
        condition.lock()
        defer { condition.unlock() }
        return reports.isEmpty ? nil : reports.removeFirst()
    }

    // MARK: - An agent's thread

    /// Runs one agent: its script, then its event loop (broadcasts, Atomics.waitAsync
    /// settlements, promise jobs) until it has left or the test is over.
    private func runAgent(_ source: String, _ record: AgentRecord) {
        let rt = Runtime()
        do {
            try rt.initializeRealm()
        } catch {
            return
        }
        rt.outputHook = { _ in }
        rt.errorOutputHook = { _ in }
        rt.heap.maxHeapBytes = maxHeapBytes
        let state = AgentSide()
        let handles = rt.makeHandleTable()
        do {
            let host = try installHost(rt, log: PrintLog())
            try installAgentSide(rt, host: host, hub: self, state: state, handles: handles)
        } catch {
            return
        }
        condition.lock()
        record.signal = rt.agentSignal
        let over = shuttingDown
        condition.unlock()
        if over { return }
        do {
            let program = try parseScript(SourceFile(name: "<agent>", text: source))
            let code = try Compiler.compileScript(program)
            _ = try rt.runScript(compiled: code)
            try rt.runJobs()
        } catch {
            return
        }
        while true {
            condition.lock()
            if shuttingDown { condition.unlock(); return }
            if !record.inbox.isEmpty {
                let message = record.inbox.removeFirst()
                condition.broadcast()
                condition.unlock()
                do {
                    try deliver(message, rt, state, handles)
                    try rt.runJobs()
                } catch {
                    return
                }
                continue
            }
            let left = state.left
            condition.unlock()
            do {
                if rt.hasPendingAsyncWaiters {
                    try rt.settleAsyncWaiters(maxWait: 0.01)
                    try rt.runJobs()
                    continue
                }
            } catch {
                return
            }
            if left { return }
            condition.lock()
            if record.inbox.isEmpty && !shuttingDown {
                _ = condition.wait(until: Date(timeIntervalSinceNow: 0.01))
            }
            condition.unlock()
        }
    }

    private func deliver(_ m: AgentMessage, _ rt: Runtime, _ state: AgentSide, _ handles: HandleTable) throws(JSException) {
        guard let h = state.callbackHandle else { return }
        let sab = try rt.makeSharedArrayBuffer(m.block, byteLength: m.byteLength, maxByteLength: m.maxByteLength)
        rt.heap.pushRoot(sab)
        defer { rt.heap.popRoots(1) }
        _ = try rt.call(handles[h], this: .undefined, sab, m.number.map { Value($0) } ?? .undefined)
    }
}

/// An agent's own state (its thread only).
final class AgentSide {
    var callbackHandle: Int?
    var left = false
}

/// Milliseconds of the monotonic clock.
func agentMonotonicMilliseconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1e6
}

/// `sleep(ms)` and `monotonicNow()`, on both sides.
private func installCommon(_ rt: Runtime, _ agent: JSObject) throws(JSException) {
    try rt.method(agent, "sleep", 1) { rt, _, args, _ throws(JSException) in
        let ms = try rt.toNumber(args.count > 0 ? args[0] : .undefined)
        if ms > 0 { sleepMilliseconds(ms) }
        return .undefined
    }
    try rt.method(agent, "monotonicNow", 0) { _, _, _, _ throws(JSException) in
        Value(agentMonotonicMilliseconds())
    }
}

/// The test's `$262.agent`.
func installAgentMain(_ rt: Runtime, host: Value, hub: AgentHub) throws(JSException) {
    let depth = rt.heap.rootDepth
    defer { rt.heap.popRoots(to: depth) }
    let agent = try rt.newObject()
    rt.heap.pushRoot(Value(cell: agent.cell))
    try installCommon(rt, agent)
    try rt.method(agent, "start", 1) { rt, _, args, _ throws(JSException) in
        let source = try rt.flatten(try rt.toString(args.count > 0 ? args[0] : .undefined)).swiftString
        if let problem = hub.start(source) { throw try rt.typeError("$262.agent.start: \(problem)") }
        return .undefined
    }
    try rt.method(agent, "broadcast", 2) { rt, _, args, _ throws(JSException) in
        guard let (block, length, max) = rt.sharedBlock(of: args.count > 0 ? args[0] : .undefined) else {
            throw try rt.typeError("$262.agent.broadcast: the first argument must be a SharedArrayBuffer")
        }
        var number: Double? = nil
        if args.count > 1, !args[1].isUndefined { number = try rt.toNumber(args[1]) }
        hub.broadcast(AgentMessage(block: block, byteLength: length, maxByteLength: max, number: number))
        return .undefined
    }
    try rt.method(agent, "getReport", 0) { rt, _, _, _ throws(JSException) in
        guard let r = hub.takeReport() else { return .null }
        return try rt.makeString(r)
    }
    try rt.put(JSObject(host), "agent", Value(cell: agent.cell))
}

/// An agent's `$262.agent`.
func installAgentSide(_ rt: Runtime, host: Value, hub: AgentHub, state: AgentSide, handles: HandleTable) throws(JSException) {
    let depth = rt.heap.rootDepth
    defer { rt.heap.popRoots(to: depth) }
    let agent = try rt.newObject()
    rt.heap.pushRoot(Value(cell: agent.cell))
    try installCommon(rt, agent)
    try rt.method(agent, "receiveBroadcast", 1) { rt, _, args, _ throws(JSException) in
        let f = args.count > 0 ? args[0] : .undefined
        if let old = state.callbackHandle { handles.remove(old) }
        state.callbackHandle = handles.add(f)
        return .undefined
    }
    try rt.method(agent, "report", 1) { rt, _, args, _ throws(JSException) in
        let s = try rt.flatten(try rt.toString(args.count > 0 ? args[0] : .undefined)).swiftString
        hub.condition.lock()
        hub.reports.append(s)
        hub.condition.unlock()
        return .undefined
    }
    try rt.method(agent, "leaving", 0) { _, _, _, _ throws(JSException) in
        state.left = true
        return .undefined
    }
    try rt.put(JSObject(host), "agent", Value(cell: agent.cell))
}
