// Environment cells: the heap-allocated variables that closures capture.
//
// Layout: header (aux = slot count) | parent environment at 8 | layout info at 16 |
// slots (Values) at 24. Only bindings the scope analysis found captured (or every
// binding, in scopes reachable by direct eval or `with`) live here; the rest stay in
// registers.

public struct Environment {
    public static let slotsOffset = EnvironmentLayout.slots
    public let cell: UnsafeMutableRawPointer
    @inline(__always) public init(_ cell: UnsafeMutableRawPointer) { self.cell = cell }
    @inline(__always) public var count: Int { Int(header(cell).pointee.aux) }
    @inline(__always) public var parent: UnsafeMutableRawPointer? {
        get { cell.load(fromByteOffset: EnvironmentLayout.parent, as: UnsafeMutableRawPointer?.self) }
        nonmutating set { cell.storeBytes(of: newValue, toByteOffset: EnvironmentLayout.parent, as: UnsafeMutableRawPointer?.self) }
    }
    /// An opaque word the compiler's scope layout uses (names for eval/with lookups).
    @inline(__always) public var layout: UInt64 {
        get { cell.load(fromByteOffset: EnvironmentLayout.layout, as: UInt64.self) }
        nonmutating set { cell.storeBytes(of: newValue, toByteOffset: EnvironmentLayout.layout, as: UInt64.self) }
    }
    @inline(__always) public var slots: UnsafeMutablePointer<Value> {
        (cell + Environment.slotsOffset).assumingMemoryBound(to: Value.self)
    }
}

extension Runtime {
    public func makeEnvironment(parent: UnsafeMutableRawPointer?, count: Int) throws(JSException) -> Environment {
        if let p = parent { heap.pushRoot(Value(cell: p)) }
        defer { if parent != nil { heap.popRoots(1) } }
        let cell = try allocate(.environment, size: Environment.slotsOffset + max(count, 1) * 8)
        header(cell).pointee.aux = UInt32(count)
        let env = Environment(cell)
        env.parent = parent
        env.layout = 0
        // New bindings start uninitialized (TDZ); the compiler initializes vars.
        for i in 0..<count { env.slots[i] = .empty }
        return env
    }

    func traceEnvironment(_ cell: UnsafeMutableRawPointer, _ marker: inout Heap.Marker) {
        let env = Environment(cell)
        marker.mark(cell: env.parent)
        marker.mark(env.slots, count: env.count)
        // A scope layout names the code that made the environment (eval and `with` read
        // its names): that code lives as long as the environment.
        let layout = env.layout
        if layout > Runtime.withLayout, let raw = UnsafeRawPointer(bitPattern: UInt(layout & 0xFFFF_FFFF_FFFF)) {
            unowned(unsafe) let d = Unmanaged<CodeData>.fromOpaque(raw).takeUnretainedValue()
            markCodeData(d, &marker)
        }
    }
}
