// Weak references: WeakRef, FinalizationRegistry, and the collector's side of WeakMap and
// WeakSet. https://tc39.es/ecma262/#sec-managing-memory
//
// During marking, the trace hooks of weak objects record them (`WeakState`) instead of
// marking what they hold weakly:
// - a WeakMap/WeakSet marks its private entry storage cell without tracing it; after the
//   first drain the ephemeron processor marks the value of every entry whose key is
//   marked, until nothing more gets marked; the weak processor then removes entries whose
//   key stayed unmarked (before the sweep frees it, so a new cell at the same address is
//   never found under the old key);
// - a WeakRef (kind `.weakRef`) holds its target in kind word 0, untraced; a dead target
//   becomes undefined;
// - a FinalizationRegistry (kind `.finalizationRegistry`: word 0 the cleanup callback,
//   word 1 a retained `RegistryCells`) holds targets and unregister tokens weakly and held
//   values strongly; a cell whose target died moves its held value to the registry's
//   cleared list, and the registry is queued (`WeakState.pendingCleanup`, a root) for its
//   cleanup job, which `runJobs` runs once the promise jobs are done
//   (HostEnqueueFinalizationRegistryCleanupJob).
// Targets of `new WeakRef` and `deref()` are kept alive until the current job ends
// (AddToKeptObjects / ClearKeptObjects: `runJobs` clears them between jobs).

final class WeakState {
    /// Weak objects traced by the collection in progress.
    var collections: [UnsafeMutableRawPointer] = []
    var weakRefs: [UnsafeMutableRawPointer] = []
    var registries: [UnsafeMutableRawPointer] = []
    /// [[KeptAlive]]: roots until the current job ends.
    var keptAlive: [Value] = []
    /// Registries with cleared cells whose cleanup job has not run (roots).
    var pendingCleanup: [UnsafeMutableRawPointer] = []
}

/// A FinalizationRegistry's [[Cells]].
final class RegistryCells {
    struct Cell {
        var target: Value
        var held: Value
        /// `empty` when registered without a token (or the token died).
        var token: Value
    }
    var cells: [Cell] = []
    /// Held values whose target died, waiting for the cleanup callback.
    var cleared: [Value] = []
}

extension Runtime {
    @inline(__always) func isUnmarkedCell(_ v: Value) -> Bool {
        v.isCell && header(v.asCell).pointee.marked == 0
    }

    // MARK: - The collector's side

    func traceWeakCollection(_ o: JSObject, _ marker: inout Heap.Marker) {
        let s = o.extraValue(1)
        guard s.isCell else { return }
        let h = header(s.asCell)
        if h.pointee.marked == 0 {
            // Alive, but its entries are not traced: keys are weak, values ephemerons.
            h.pointee.marked = 1
            marker.mark(cell: JSObject(s).shape)
        }
        weakState.collections.append(o.cell)
    }

    /// Marks the values of WeakMap entries whose keys are marked; whether it marked any.
    func markEphemerons(_ marker: inout Heap.Marker) -> Bool {
        var progressed = false
        for c in weakState.collections {
            let o = JSObject(c)
            guard o.kind == .map else { continue }
            let storage = JSObject(o.extraValue(1))
            guard let e = storage.elements else { continue }
            var i = 0
            let n = storage.elementsLength
            while i + 1 < n {
                let k = e[i]
                if k.isCell && header(k.asCell).pointee.marked != 0 && isUnmarkedCell(e[i + 1]) {
                    marker.mark(e[i + 1])
                    progressed = true
                }
                i += 2
            }
        }
        return progressed
    }

    /// After marking: drops dead keys, clears dead WeakRef targets, collects dead registry cells.
    func processWeakReferences() {
        for c in weakState.collections {
            let o = JSObject(c)
            guard o.word(0) != 0 else { continue }
            let idx = collectionIndex(o)
            let stride = collectionStride(o)
            let storage = collectionStorage(o)
            guard let e = storage.elements else { continue }
            let n = storage.elementsLength / stride
            var removed = false
            for i in 0..<n {
                let k = e[i * stride]
                if isUnmarkedCell(k) {
                    idx.index.removeValue(forKey: k.bits)
                    for j in 0..<stride { e[i * stride + j] = .empty }
                    idx.live -= 1
                    removed = true
                }
            }
            if removed && idx.activeIterators == 0 && n - idx.live > idx.live { compactCollection(o) }
        }
        for c in weakState.weakRefs {
            let o = JSObject(c)
            if isUnmarkedCell(o.extraValue(0)) { o.setExtraValue(0, .undefined) }
        }
        for c in weakState.registries {
            let o = JSObject(c)
            guard let cells = registryCells(o) else { continue }
            var newlyCleared = false
            cells.cells.removeAll { cell in
                if isUnmarkedCell(cell.target) {
                    cells.cleared.append(cell.held)
                    newlyCleared = true
                    return true
                }
                return false
            }
            for i in cells.cells.indices where isUnmarkedCell(cells.cells[i].token) { cells.cells[i].token = .empty }
            if newlyCleared && !weakState.pendingCleanup.contains(c) { weakState.pendingCleanup.append(c) }
        }
        weakState.collections.removeAll(keepingCapacity: true)
        weakState.weakRefs.removeAll(keepingCapacity: true)
        weakState.registries.removeAll(keepingCapacity: true)
    }

    func registryCells(_ o: JSObject) -> RegistryCells? {
        guard let raw = UnsafeRawPointer(bitPattern: UInt(o.word(1))) else { return nil }
        return Unmanaged<RegistryCells>.fromOpaque(raw).takeUnretainedValue()
    }

    /// ClearKeptObjects.
    @inline(__always) func clearKeptObjects() {
        if !weakState.keptAlive.isEmpty { weakState.keptAlive.removeAll() }
    }

    /// AddToKeptObjects.
    func addToKeptObjects(_ v: Value) { weakState.keptAlive.append(v) }

    /// Runs the cleanup jobs of registries with cleared cells; whether any ran.
    func runFinalizationCleanups() throws(JSException) -> Bool {
        if weakState.pendingCleanup.isEmpty { return false }
        let pending = weakState.pendingCleanup
        weakState.pendingCleanup.removeAll()
        for c in pending {
            heap.pushRoot(Value(cell: c))
            defer { heap.popRoots(1) }
            try cleanupFinalizationRegistry(JSObject(c), callback: nil)
        }
        return true
    }

    /// CleanupFinalizationRegistry: calls the callback with each cleared held value.
    func cleanupFinalizationRegistry(_ o: JSObject, callback: Value?) throws(JSException) {
        guard let cells = registryCells(o) else { return }
        let f = callback ?? o.extraValue(0)
        while !cells.cleared.isEmpty {
            let held = cells.cleared.removeFirst()
            heap.pushRoot(held)
            defer { heap.popRoots(1) }
            _ = try call(f, this: .undefined, held)
        }
    }

    // MARK: - Installation

    /// The collector's weak references, for WeakMap and WeakSet too (made with the first
    /// realm: WeakRef and FinalizationRegistry are installed lazily).
    func installWeakReferenceHooks() {
        kindTraceHooks[Int(CellKind.weakRef.rawValue)] = { [unowned self] o, _ in
            self.weakState.weakRefs.append(o.cell)
        }
        kindTraceHooks[Int(CellKind.finalizationRegistry.rawValue)] = { [unowned self] o, marker in
            marker.mark(o.extraValue(0))
            if let cells = self.registryCells(o) {
                for c in cells.cells { marker.mark(c.held) }
                for v in cells.cleared { marker.mark(v) }
            }
            self.weakState.registries.append(o.cell)
        }
        kindFinalizeHooks[Int(CellKind.finalizationRegistry.rawValue)] = { o in
            if let raw = UnsafeRawPointer(bitPattern: UInt(o.word(1))) {
                Unmanaged<RegistryCells>.fromOpaque(raw).release()
                o.setWord(1, 0)
            }
        }
        heap.addRootMarker { [unowned self] marker in
            let w = self.weakState
            w.collections.removeAll(keepingCapacity: true)
            w.weakRefs.removeAll(keepingCapacity: true)
            w.registries.removeAll(keepingCapacity: true)
            for v in w.keptAlive { marker.mark(v) }
            for c in w.pendingCleanup { marker.mark(cell: c) }
        }
        heap.ephemeronProcessors.append { [unowned self] marker in self.markEphemerons(&marker) }
        heap.weakProcessors.append { [unowned self] in self.processWeakReferences() }
    }

    func installWeakRefs() throws(JSException) {

        // WeakRef
        let wrp = try newObject()
        realm.weakRefPrototype = wrp
        _ = try constructor("WeakRef", length: 1, prototype: wrp) { rt, _, args, newTarget throws(JSException) in
            if newTarget.isUndefined { throw try rt.typeError("Constructor WeakRef requires 'new'") }
            let target = rt.arg(args, 0)
            if !rt.canBeHeldWeakly(target) { throw try rt.typeError("WeakRef: invalid target \(try rt.describeForError(target))") }
            let o = try rt.createFromConstructor(.weakRef, newTarget, rt.realm.weakRefPrototype)
            o.setExtraValue(0, target)
            rt.addToKeptObjects(target)
            return Value(cell: o.cell)
        }
        try method(wrp, "deref", 0) { rt, this, _, _ throws(JSException) in
            guard rt.isObject(this), JSObject(this).kind == .weakRef else {
                throw try rt.typeError("WeakRef.prototype.deref called on incompatible receiver \(try rt.describeForError(this))")
            }
            let t = JSObject(this).extraValue(0)
            if !t.isUndefined { rt.addToKeptObjects(t) }
            return t
        }
        try defineOwnProperty(wrp, symbolKey(wellKnown.toStringTag), .data(try makeString("WeakRef"), [.configurable]))

        // FinalizationRegistry
        let frp = try newObject()
        realm.finalizationRegistryPrototype = frp
        _ = try constructor("FinalizationRegistry", length: 1, prototype: frp) { rt, _, args, newTarget throws(JSException) in
            if newTarget.isUndefined { throw try rt.typeError("Constructor FinalizationRegistry requires 'new'") }
            let callback = rt.arg(args, 0)
            if !rt.isCallable(callback) { throw try rt.typeError("FinalizationRegistry: cleanup must be callable") }
            rt.heap.pushRoot(callback)
            defer { rt.heap.popRoots(1) }
            let o = try rt.createFromConstructor(.finalizationRegistry, newTarget, rt.realm.finalizationRegistryPrototype)
            o.setExtraValue(0, callback)
            o.setWord(1, UInt64(UInt(bitPattern: Unmanaged.passRetained(RegistryCells()).toOpaque())))
            return Value(cell: o.cell)
        }
        func thisRegistry(_ rt: Runtime, _ this: Value, _ name: String) throws(JSException) -> JSObject {
            guard rt.isObject(this), JSObject(this).kind == .finalizationRegistry, JSObject(this).word(1) != 0 else {
                throw try rt.typeError("FinalizationRegistry.prototype.\(name) called on incompatible receiver \(try rt.describeForError(this))")
            }
            return JSObject(this)
        }
        try method(frp, "register", 2) { rt, this, args, _ throws(JSException) in
            let o = try thisRegistry(rt, this, "register")
            let target = rt.arg(args, 0), held = rt.arg(args, 1), token = rt.arg(args, 2)
            if !rt.canBeHeldWeakly(target) { throw try rt.typeError("FinalizationRegistry.prototype.register: invalid target") }
            if rt.sameValue(target, held) { throw try rt.typeError("FinalizationRegistry.prototype.register: target and holdings must not be same") }
            if !rt.canBeHeldWeakly(token) && !token.isUndefined {
                throw try rt.typeError("FinalizationRegistry.prototype.register: invalid unregister token")
            }
            rt.registryCells(o)!.cells.append(RegistryCells.Cell(target: target, held: held, token: token.isUndefined ? .empty : token))
            return .undefined
        }
        try method(frp, "unregister", 1) { rt, this, args, _ throws(JSException) in
            let o = try thisRegistry(rt, this, "unregister")
            let token = rt.arg(args, 0)
            if !rt.canBeHeldWeakly(token) { throw try rt.typeError("FinalizationRegistry.prototype.unregister: invalid unregister token") }
            let cells = rt.registryCells(o)!
            let before = cells.cells.count
            cells.cells.removeAll { !$0.token.isEmpty && rt.sameValue($0.token, token) }
            return Value(cells.cells.count != before)
        }
        try defineOwnProperty(frp, symbolKey(wellKnown.toStringTag), .data(try makeString("FinalizationRegistry"), [.configurable]))
    }
}
