// ArrayBuffer and SharedArrayBuffer: byte storage in raw memory.
// https://tc39.es/ecma262/#sec-arraybuffer-objects
//
// A buffer (kind `.arrayBuffer`):
//   word 0: the data block (calloc'd raw memory, at least one byte; 0 once detached),
//           freed when the cell is finalized; its size counts as external heap bytes
//           (`--max-heap`), so a huge allocation is a RangeError, never a crash
//   word 1: the byte length
//   word 2: the maximum byte length (resizable / growable buffers)
//   flags:  `BufferFlags` (detached, resizable, shared)
// A resizable buffer holds only its current length; `resize` reallocates (typed arrays
// read the data pointer through the buffer, so nothing else points into the block).

#if canImport(Glibc)
import Glibc
#endif

public enum BufferFlags {
    public static let detached: UInt16 = 128
    public static let resizable: UInt16 = 256
    /// A SharedArrayBuffer (ObjectFlags' iterator bits are never set on buffers).
    public static let shared: UInt16 = 32768
}

/// The intrinsics of the binary-data builtins (one set per realm).
final class BinaryIntrinsics {
    var arrayBufferPrototype: JSObject?
    var arrayBufferConstructor: JSObject?
    var sharedArrayBufferPrototype: JSObject?
    var sharedArrayBufferConstructor: JSObject?
    var dataViewPrototype: JSObject?
    var typedArrayPrototype: JSObject?
    var typedArrayConstructor: JSObject?
    /// Per `TypedArrayKind.rawValue`: the constructor and its prototype.
    var prototypes = [JSObject?](repeating: nil, count: TypedArrayKind.count)
    var constructors = [JSObject?](repeating: nil, count: TypedArrayKind.count)
    /// %TypedArray%.prototype.values (the original @@iterator).
    var typedArrayValues = Value.undefined
    /// BigInt element conversions, set by the BigInt library (see TypedArrays.swift).
    var bigIntHooks: BigIntElementHooks?
    /// Atomics.waitAsync's waiters of this realm not settled yet: buffer, waiter, promise
    /// (Builtins/SharedMemory.swift).
    var asyncWaiters: [(buffer: Value, record: WaiterRecord, promise: Value)] = []

    func mark(_ m: inout Heap.Marker) {
        for o in [arrayBufferPrototype, arrayBufferConstructor, sharedArrayBufferPrototype, sharedArrayBufferConstructor,
                  dataViewPrototype, typedArrayPrototype, typedArrayConstructor] {
            if let o { m.mark(cell: o.cell) }
        }
        for o in prototypes { if let o { m.mark(cell: o.cell) } }
        for o in constructors { if let o { m.mark(cell: o.cell) } }
        m.mark(typedArrayValues)
        for w in asyncWaiters { m.mark(w.buffer); m.mark(w.promise) }
    }
}

extension JSObject {
    // MARK: ArrayBuffer fields
    @inline(__always) var bufferData: UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: UInt(word(0))) }
    @inline(__always) var bufferByteLength: Int { Int(word(1)) }
    @inline(__always) var bufferMaxByteLength: Int { Int(word(2)) }
    @inline(__always) var isDetachedBuffer: Bool { flags & BufferFlags.detached != 0 }
    @inline(__always) var isSharedBuffer: Bool { flags & BufferFlags.shared != 0 }
    /// IsFixedLengthArrayBuffer.
    @inline(__always) var isFixedLengthBuffer: Bool { flags & BufferFlags.resizable == 0 }
}

extension Runtime {
    /// The largest byte length a buffer may request (ToIndex's bound is 2^53 - 1; blocks
    /// past this are refused before asking malloc).
    static let maxBufferByteLength = 1 << 46

    /// ToIndex (https://tc39.es/ecma262/#sec-toindex).
    func toIndexOrThrow(_ v: Value, _ what: String = "index") throws(JSException) -> Int {
        if v.isUndefined { return 0 }
        if v.isInt32 && v.asInt32 >= 0 { return Int(v.asInt32) }
        let i = try toIntegerOrInfinity(v)
        if i < 0 || i > 9007199254740991 { throw try rangeError("Invalid \(what): \(numberToString(i))") }
        return Int(i)
    }

    func isArrayBuffer(_ v: Value) -> Bool { isObject(v) && JSObject(v).kind == .arrayBuffer }

    /// A zeroed data block of `n` bytes, accounted as external heap bytes.
    func allocateDataBlock(_ n: Int) throws(JSException) -> UnsafeMutableRawPointer {
        if n > Runtime.maxBufferByteLength { throw try rangeError("Array buffer allocation failed: \(n) bytes") }
        try reserveExternal(n)
        guard let p = calloc(max(n, 1), 1) else {
            heap.releaseExternal(n)
            throw try rangeError("Array buffer allocation failed: \(n) bytes")
        }
        return p
    }

    func installBufferHooks() {
        // unowned(unsafe): also called from the runtime's deinit (Heap.releaseAll).
        kindFinalizeHooks[Int(CellKind.arrayBuffer.rawValue)] = { [unowned(unsafe) self] o in
            if o.isSharedBuffer {
                self.releaseSharedBlock(o)
            } else if let p = o.bufferData {
                free(p)
                self.heap.releaseExternal(o.bufferByteLength)
                o.setWord(0, 0)
            }
        }
        let traceView: (JSObject, inout Heap.Marker) -> Void = { o, marker in marker.mark(o.extraValue(0)) }
        kindTraceHooks[Int(CellKind.typedArray.rawValue)] = traceView
        kindTraceHooks[Int(CellKind.dataView.rawValue)] = traceView
    }

    /// AllocateArrayBuffer / AllocateSharedArrayBuffer: a new buffer whose prototype comes
    /// from `newTarget` (the realm's prototype when undefined).
    func allocateArrayBuffer(_ newTarget: Value, byteLength: Int, maxByteLength: Int? = nil,
                             shared: Bool = false) throws(JSException) -> JSObject {
        if let m = maxByteLength, byteLength > m {
            throw try rangeError("Invalid array buffer length: \(byteLength) exceeds the maximum \(m)")
        }
        let b = realm.binary
        let fallback = shared ? b.sharedArrayBufferPrototype! : b.arrayBufferPrototype!
        let proto = newTarget.isUndefined ? fallback : try prototypeFromConstructor(newTarget, fallback)
        let o = try allocateObject(.arrayBuffer, shape: try rootShape(for: Value(cell: proto.cell)))
        heap.pushRoot(Value(cell: o.cell))
        defer { heap.popRoots(1) }
        if let m = maxByteLength, m > Runtime.maxBufferByteLength {
            throw try rangeError("Array buffer allocation failed: maximum of \(m) bytes")
        }
        if shared {
            // At its maximum length at once: growing never moves the bytes other agents see.
            let block = try allocateSharedBlock(maxByteLength ?? byteLength)
            attachSharedBlock(o, block, byteLength: byteLength, maxByteLength: maxByteLength ?? byteLength)
            if maxByteLength != nil { o.flags |= BufferFlags.resizable }
            return o
        }
        let p = try allocateDataBlock(byteLength)
        o.setWord(0, UInt64(UInt(bitPattern: p)))
        o.setWord(1, UInt64(byteLength))
        o.setWord(2, UInt64(maxByteLength ?? byteLength))
        if maxByteLength != nil { o.flags |= BufferFlags.resizable }
        if shared { o.flags |= BufferFlags.shared }
        return o
    }

    /// DetachArrayBuffer (the host's `$262.detachArrayBuffer`, `transfer`).
    public func detachArrayBuffer(_ v: Value) throws(JSException) {
        guard isArrayBuffer(v), !JSObject(v).isSharedBuffer else { throw try typeError("Not an ArrayBuffer") }
        let o = JSObject(v)
        if let p = o.bufferData {
            free(p)
            heap.releaseExternal(o.bufferByteLength)
        }
        o.setWord(0, 0)
        o.setWord(1, 0)
        o.flags |= BufferFlags.detached
    }

    /// Changes the length of a resizable buffer's block (new bytes are zero).
    func resizeBufferBlock(_ o: JSObject, _ newLength: Int) throws(JSException) {
        let old = o.bufferByteLength
        if newLength == old { return }
        if o.isSharedBuffer {
            // The block has the maximum length already (zeroed); a SharedArrayBuffer only grows.
            o.setWord(1, UInt64(newLength))
            return
        }
        if newLength > old { try reserveExternal(newLength - old) }
        guard let p = realloc(o.bufferData, max(newLength, 1)) else {
            if newLength > old { heap.releaseExternal(newLength - old) }
            throw try rangeError("Array buffer allocation failed: \(newLength) bytes")
        }
        if newLength > old { memset(p + old, 0, newLength - old) } else { heap.releaseExternal(old - newLength) }
        o.setWord(0, UInt64(UInt(bitPattern: p)))
        o.setWord(1, UInt64(newLength))
    }

    func thisBuffer(_ this: Value, shared: Bool, _ name: String) throws(JSException) -> JSObject {
        if isArrayBuffer(this), JSObject(this).isSharedBuffer == shared { return JSObject(this) }
        throw try typeError("Method \(name) called on incompatible receiver \(try describeForError(this))")
    }

    /// GetArrayBufferMaxByteLengthOption.
    func maxByteLengthOption(_ options: Value) throws(JSException) -> Int? {
        guard isObject(options) else { return nil }
        let m = try get(JSObject(options), key(static: "maxByteLength"), receiver: options)
        if m.isUndefined { return nil }
        return try toIndexOrThrow(m, "maxByteLength")
    }

    /// ArrayBufferCopyAndDetach (transfer / transferToFixedLength).
    func arrayBufferCopyAndDetach(_ this: Value, _ newLength: Value, preserveResizability: Bool,
                                  _ name: String) throws(JSException) -> Value {
        let o = try thisBuffer(this, shared: false, name)
        let newByteLength = newLength.isUndefined ? o.bufferByteLength : try toIndexOrThrow(newLength, "array buffer length")
        if o.isDetachedBuffer { throw try typeError("\(name): the ArrayBuffer is detached") }
        let newMax: Int? = preserveResizability && !o.isFixedLengthBuffer ? o.bufferMaxByteLength : nil
        if let m = newMax, newByteLength > m {
            throw try rangeError("\(name): \(newByteLength) exceeds the maximum byte length \(m)")
        }
        let n = try allocateArrayBuffer(.undefined, byteLength: 0, maxByteLength: newMax)
        heap.pushRoot(Value(cell: n.cell))
        defer { heap.popRoots(1) }
        // Hand the block over (no copy), resized to the new length.
        let oldLength = o.bufferByteLength
        if let p = n.bufferData { free(p) }
        n.setWord(0, o.word(0))
        n.setWord(1, UInt64(oldLength))
        o.setWord(0, 0)
        o.setWord(1, 0)
        o.flags |= BufferFlags.detached
        try resizeBufferBlock(n, newByteLength)
        if newMax == nil { n.setWord(2, UInt64(newByteLength)) }
        return Value(cell: n.cell)
    }

    // MARK: - Install

    func installArrayBuffer() throws(JSException) {
        let b = realm.binary
        let proto = try newObject()
        b.arrayBufferPrototype = proto
        let ctor = try constructor("ArrayBuffer", length: 1, prototype: proto) { rt, _, args, newTarget throws(JSException) in
            if newTarget.isUndefined { throw try rt.typeError("Constructor ArrayBuffer requires 'new'") }
            let byteLength = try rt.toIndexOrThrow(rt.arg(args, 0), "array buffer length")
            let maxLength = try rt.maxByteLengthOption(rt.arg(args, 1))
            return Value(cell: try rt.allocateArrayBuffer(newTarget, byteLength: byteLength, maxByteLength: maxLength).cell)
        }
        b.arrayBufferConstructor = ctor
        try speciesGetter(ctor)
        try method(ctor, "isView", 1) { rt, _, args, _ throws(JSException) in
            let v = rt.arg(args, 0)
            guard rt.isObject(v) else { return .false }
            let k = JSObject(v).kind
            return Value(k == .typedArray || k == .dataView)
        }
        try accessor(proto, key(static: "byteLength"), name: "byteLength", getter: { rt, this, _, _ throws(JSException) in
            Value(try rt.thisBuffer(this, shared: false, "get ArrayBuffer.prototype.byteLength").bufferByteLength)
        }, setter: nil)
        try accessor(proto, key(static: "detached"), name: "detached", getter: { rt, this, _, _ throws(JSException) in
            Value(try rt.thisBuffer(this, shared: false, "get ArrayBuffer.prototype.detached").isDetachedBuffer)
        }, setter: nil)
        try accessor(proto, key(static: "maxByteLength"), name: "maxByteLength", getter: { rt, this, _, _ throws(JSException) in
            let o = try rt.thisBuffer(this, shared: false, "get ArrayBuffer.prototype.maxByteLength")
            if o.isDetachedBuffer { return Value(int32: 0) }
            return Value(o.isFixedLengthBuffer ? o.bufferByteLength : o.bufferMaxByteLength)
        }, setter: nil)
        try accessor(proto, key(static: "resizable"), name: "resizable", getter: { rt, this, _, _ throws(JSException) in
            Value(!(try rt.thisBuffer(this, shared: false, "get ArrayBuffer.prototype.resizable").isFixedLengthBuffer))
        }, setter: nil)
        try method(proto, "resize", 1) { rt, this, args, _ throws(JSException) in
            guard rt.isArrayBuffer(this), !JSObject(this).isSharedBuffer, !JSObject(this).isFixedLengthBuffer else {
                throw try rt.typeError("Method ArrayBuffer.prototype.resize called on incompatible receiver \(try rt.describeForError(this))")
            }
            let o = JSObject(this)
            let n = try rt.toIndexOrThrow(rt.arg(args, 0), "array buffer length")
            if o.isDetachedBuffer { throw try rt.typeError("ArrayBuffer.prototype.resize: the ArrayBuffer is detached") }
            if n > o.bufferMaxByteLength { throw try rt.rangeError("ArrayBuffer.prototype.resize: \(n) exceeds the maximum byte length \(o.bufferMaxByteLength)") }
            try rt.resizeBufferBlock(o, n)
            return .undefined
        }
        try method(proto, "slice", 2) { rt, this, args, _ throws(JSException) in
            try rt.bufferSlice(this, args, shared: false)
        }
        try method(proto, "transfer", 0) { rt, this, args, _ throws(JSException) in
            try rt.arrayBufferCopyAndDetach(this, rt.arg(args, 0), preserveResizability: true, "ArrayBuffer.prototype.transfer")
        }
        try method(proto, "transferToFixedLength", 0) { rt, this, args, _ throws(JSException) in
            try rt.arrayBufferCopyAndDetach(this, rt.arg(args, 0), preserveResizability: false, "ArrayBuffer.prototype.transferToFixedLength")
        }
        try defineOwnProperty(proto, symbolKey(wellKnown.toStringTag), .data(try makeString("ArrayBuffer"), [.configurable]))
        try installSharedArrayBuffer()
    }

    /// ArrayBuffer.prototype.slice / SharedArrayBuffer.prototype.slice.
    func bufferSlice(_ this: Value, _ args: UnsafeBufferPointer<Value>, shared: Bool) throws(JSException) -> Value {
        let name = shared ? "SharedArrayBuffer.prototype.slice" : "ArrayBuffer.prototype.slice"
        let o = try thisBuffer(this, shared: shared, name)
        if o.isDetachedBuffer { throw try typeError("\(name): the ArrayBuffer is detached") }
        let len = o.bufferByteLength
        let first = try relativeIndex(arg(args, 0), len, 0)
        let final = try relativeIndex(arg(args, 1), len, len)
        let newLen = max(final - first, 0)
        let b = realm.binary
        let ctor = try speciesConstructor(o, defaultConstructor: Value(cell: (shared ? b.sharedArrayBufferConstructor! : b.arrayBufferConstructor!).cell))
        var lenArg = Value(newLen)
        let r = try withUnsafePointer(to: &lenArg) { p throws(JSException) in
            try construct(ctor, UnsafeBufferPointer(start: p, count: 1), newTarget: ctor)
        }
        guard isArrayBuffer(r), JSObject(r).isSharedBuffer == shared else {
            throw try typeError("\(name): the species constructor did not return a\(shared ? " SharedArrayBuffer" : "n ArrayBuffer")")
        }
        let n = JSObject(r)
        if n.isDetachedBuffer { throw try typeError("\(name): the new ArrayBuffer is detached") }
        if n.cell == o.cell { throw try typeError("\(name): the species constructor returned the same buffer") }
        if n.bufferByteLength < newLen { throw try typeError("\(name): the new ArrayBuffer is too small") }
        if o.isDetachedBuffer { throw try typeError("\(name): the ArrayBuffer is detached") }
        let current = o.bufferByteLength
        if first < current {
            let count = min(newLen, current - first)
            if count > 0 { memmove(n.bufferData!, o.bufferData! + first, count) }
        }
        return r
    }

    func installSharedArrayBuffer() throws(JSException) {
        let b = realm.binary
        let proto = try newObject()
        b.sharedArrayBufferPrototype = proto
        let ctor = try constructor("SharedArrayBuffer", length: 1, prototype: proto) { rt, _, args, newTarget throws(JSException) in
            if newTarget.isUndefined { throw try rt.typeError("Constructor SharedArrayBuffer requires 'new'") }
            let byteLength = try rt.toIndexOrThrow(rt.arg(args, 0), "array buffer length")
            let maxLength = try rt.maxByteLengthOption(rt.arg(args, 1))
            return Value(cell: try rt.allocateArrayBuffer(newTarget, byteLength: byteLength, maxByteLength: maxLength, shared: true).cell)
        }
        b.sharedArrayBufferConstructor = ctor
        try speciesGetter(ctor)
        try accessor(proto, key(static: "byteLength"), name: "byteLength", getter: { rt, this, _, _ throws(JSException) in
            Value(try rt.thisBuffer(this, shared: true, "get SharedArrayBuffer.prototype.byteLength").bufferByteLength)
        }, setter: nil)
        try accessor(proto, key(static: "growable"), name: "growable", getter: { rt, this, _, _ throws(JSException) in
            Value(!(try rt.thisBuffer(this, shared: true, "get SharedArrayBuffer.prototype.growable").isFixedLengthBuffer))
        }, setter: nil)
        try accessor(proto, key(static: "maxByteLength"), name: "maxByteLength", getter: { rt, this, _, _ throws(JSException) in
            let o = try rt.thisBuffer(this, shared: true, "get SharedArrayBuffer.prototype.maxByteLength")
            return Value(o.isFixedLengthBuffer ? o.bufferByteLength : o.bufferMaxByteLength)
        }, setter: nil)
        try method(proto, "grow", 1) { rt, this, args, _ throws(JSException) in
            guard rt.isArrayBuffer(this), JSObject(this).isSharedBuffer, !JSObject(this).isFixedLengthBuffer else {
                throw try rt.typeError("Method SharedArrayBuffer.prototype.grow called on incompatible receiver \(try rt.describeForError(this))")
            }
            let o = JSObject(this)
            let n = try rt.toIndexOrThrow(rt.arg(args, 0), "array buffer length")
            if n > o.bufferMaxByteLength { throw try rt.rangeError("SharedArrayBuffer.prototype.grow: \(n) exceeds the maximum byte length \(o.bufferMaxByteLength)") }
            if n < o.bufferByteLength { throw try rt.rangeError("SharedArrayBuffer.prototype.grow: a SharedArrayBuffer cannot shrink") }
            try rt.resizeBufferBlock(o, n)
            return .undefined
        }
        try method(proto, "slice", 2) { rt, this, args, _ throws(JSException) in
            try rt.bufferSlice(this, args, shared: true)
        }
        try defineOwnProperty(proto, symbolKey(wellKnown.toStringTag), .data(try makeString("SharedArrayBuffer"), [.configurable]))
    }
}
