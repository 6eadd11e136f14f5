// Opaque objects for embedders (the FFI's `Sable.Pointer` and `Sable.Callback`), and the
// bytes of binary data (ArrayBuffer, SharedArrayBuffer, typed arrays, DataView) for code
// outside the runtime that hands them to C.
//
// A host object (kind `.hostObject`) is an ordinary extensible object whose three kind
// words are the embedder's: word 0 a brand (a number the embedder picks), words 1 and 2
// payload. Scripts cannot read the words nor make an object of this kind, so a brand
// check on word 0 is an unforgeable type test. The words hold no GC references.

extension Runtime {
    /// A host object with `prototype`, `brand` and its payload words.
    public func makeHostObject(prototype: JSObject?, brand: UInt64, payload: UInt64, payload2: UInt64 = 0) throws(JSException) -> JSObject {
        let proto = prototype.map { Value(cell: $0.cell) } ?? Value.null
        heap.pushRoot(proto)
        defer { heap.popRoots(1) }
        // Cached per prototype: host objects of one brand share a shape.
        let shape = try rootShape(for: proto)
        let o = try allocateObject(.hostObject, shape: shape)
        o.setWord(0, brand)
        o.setWord(1, payload)
        o.setWord(2, payload2)
        return o
    }

    /// The host object `v` when it has `brand`, else nil.
    @inline(__always) public func hostObject(_ v: Value, brand: UInt64) -> JSObject? {
        guard v.isCell, JSObject(v).kind == .hostObject else { return nil }
        let o = JSObject(v)
        return o.word(0) == brand ? o : nil
    }

    /// Whether `v` is an ArrayBuffer, SharedArrayBuffer, typed array or DataView.
    public func isBinaryData(_ v: Value) -> Bool {
        guard isObject(v) else { return false }
        let k = JSObject(v).kind
        return k == .arrayBuffer || k == .typedArray || k == .dataView
    }

    /// The bytes of an ArrayBuffer, SharedArrayBuffer, typed array or DataView (nil when
    /// `v` is none of them); a `TypeError` when it is detached or out of bounds. The
    /// address stays valid until the buffer is detached, resized or collected.
    public func binaryBytes(_ v: Value) throws(JSException) -> UnsafeMutableRawBufferPointer? {
        guard isObject(v) else { return nil }
        let o = JSObject(v)
        switch o.kind {
        case .arrayBuffer:
            guard !o.isDetachedBuffer, let p = o.bufferData else { throw try typeError("the ArrayBuffer is detached") }
            return UnsafeMutableRawBufferPointer(start: p, count: o.bufferByteLength)
        case .typedArray:
            guard let n = o.typedArrayLength, let p = o.viewBuffer.bufferData else {
                throw try typeError("the typed array is detached or out of bounds")
            }
            return UnsafeMutableRawBufferPointer(start: p + o.viewByteOffset, count: n << o.typedArrayKind.shift)
        case .dataView:
            guard let n = o.dataViewByteLength, let p = o.viewBuffer.bufferData else {
                throw try typeError("the DataView is detached or out of bounds")
            }
            return UnsafeMutableRawBufferPointer(start: p + o.viewByteOffset, count: n)
        default:
            return nil
        }
    }
}
