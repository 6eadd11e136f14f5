// GetTemplateObject: the frozen strings array a tagged template passes to its tag.

import JSBytecode

extension Runtime {
    /// The template object of one site: a frozen array of the cooked strings (undefined
    /// where an escape is invalid) whose non-enumerable `raw` is a frozen array of the raw
    /// strings. Made once per site (the code's constant caches it).
    func makeTemplateObject(cooked: [[UInt16]?], raw: [[UInt16]]) throws(JSException) -> Value {
        let depth = heap.extraRootCount
        defer { heap.popRoots(to: depth) }
        var values: [Value] = []
        values.reserveCapacity(raw.count)
        for s in raw {
            let v = try makeString(s)
            heap.pushRoot(v)
            values.append(v)
        }
        let rawArray = try values.withUnsafeBufferPointer { b throws(JSException) in try newArray(b) }
        heap.pushRoot(Value(cell: rawArray.cell))
        values.removeAll(keepingCapacity: true)
        for s in cooked {
            guard let s else { values.append(.undefined); continue }
            let v = try makeString(s)
            heap.pushRoot(v)
            values.append(v)
        }
        let template = try values.withUnsafeBufferPointer { b throws(JSException) in try newArray(b) }
        heap.pushRoot(Value(cell: template.cell))
        _ = try setIntegrity(rawArray, frozen: true)
        try defineData(template, PropertyKey(cell: atom(static: "raw")), Value(cell: rawArray.cell), [])
        _ = try setIntegrity(template, frozen: true)
        return Value(cell: template.cell)
    }
}
