// Handles for embedders: values a Swift object keeps across calls (a `JSValue` of the
// JSEngine target) are invisible to the collector unless rooted. A handle table is a
// slot array the collector marks; freed slots are reused.

/// A table of rooted values, marked by the runtime's collector while the runtime lives.
public final class HandleTable {
    var slots: [Value] = []
    var freeSlots: [Int] = []

    /// Number of live handles.
    public private(set) var count = 0

    /// Roots `value`; returns its handle (release it with `remove`).
    public func add(_ value: Value) -> Int {
        count += 1
        if let i = freeSlots.popLast() {
            slots[i] = value
            return i
        }
        slots.append(value)
        return slots.count - 1
    }

    /// The value of a live handle.
    public subscript(handle: Int) -> Value { slots[handle] }

    /// Releases a handle.
    public func remove(_ handle: Int) {
        slots[handle] = .undefined
        freeSlots.append(handle)
        count -= 1
    }
}

extension Runtime {
    /// A new handle table whose values the collector marks as roots.
    public func makeHandleTable() -> HandleTable {
        let table = HandleTable()
        heap.addRootMarker { marker in
            for v in table.slots where v.isCell { marker.mark(v) }
        }
        return table
    }

    /// Construct(f, args) with `new.target` = f.
    public func construct(_ f: Value, _ args: UnsafeBufferPointer<Value>) throws(JSException) -> Value {
        refreshStackLimit()
        return try construct(f, args, newTarget: f)
    }

    /// Is `v` an Array exotic object?
    public func isArrayObject(_ v: Value) -> Bool { (try? isArray(v)) ?? false }
}

extension JSException {
    /// An exception throwing `value` (for embedders' native functions).
    public init(throwing value: Value) { self.init(value: value) }
}
