// Symbol cells: header | description (Value: string or undefined) at 8.

public enum SymbolFlags {
    /// An engine-internal key: never reported by [[OwnPropertyKeys]].
    public static let hidden: UInt16 = 1
}

extension Runtime {
    public func makeSymbol(description: Value) throws(JSException) -> Value {
        heap.pushRoot(description)
        defer { heap.popRoots(1) }
        let cell = try allocate(.symbol, size: 16)
        cell.storeBytes(of: description, toByteOffset: 8, as: Value.self)
        return Value(cell: cell)
    }

    public func symbolDescription(_ v: Value) -> Value { v.asCell.load(fromByteOffset: 8, as: Value.self) }

    @inline(__always) public func isSymbol(_ v: Value) -> Bool {
        v.isCell && header(v.asCell).pointee.kind == .symbol
    }
}
