// Object cells and their property storage.
//
// Layout (all object kinds):
//    0 header (aux = inline slot capacity; flags: ObjectFlags)
//    8 shape
//   16 out-of-line slots (malloc'd Values) | 24 their capacity (UInt32) | 28 array length (UInt32)
//   32 elements (malloc'd Values, dense, `.empty` = hole) | 40 used length (UInt32) | 44 capacity (UInt32)
//   48 inline slots (aux of them)
//   then three kind-specific words (function code/environment/home, ...), except in
//   ordinary objects (`ObjectLayout.kindWordCount`), then inline elements if any
//
// Named property slot i lives inline if i < inline capacity, else out of line at
// i - capacity. Array-index keys live in the elements when dense enough, else as named
// properties keyed by their canonical string.

#if canImport(Glibc)
import Glibc
#endif

public enum ObjectFlags {
    public static let nonExtensible: UInt16 = 1
    /// A class constructor (calling it without `new` throws).
    public static let classConstructor: UInt16 = 2
    /// A constructor (has [[Construct]]).
    public static let constructor: UInt16 = 4
    /// Elements were frozen / sealed: writes to elements must check attributes.
    public static let elementsReadOnly: UInt16 = 8
    /// Some elements are stored as named properties (sparse): index lookups must check the shape.
    public static let sparseElements: UInt16 = 16
    /// Derived class constructor.
    public static let derived: UInt16 = 32
    /// An object with [[IsHTMLDDA]] (Annex B.3.6: `document.all`, `$262.IsHTMLDDA`):
    /// typeof "undefined", falsy, loosely equal to null and undefined.
    public static let htmlDDA: UInt16 = 64
    // 128 and 256 are kind-specific (ArrayFlags.lengthReadOnly, ...).
    /// Some shape has this object as its prototype: changes to its own properties advance
    /// `Runtime.protoEpoch`, which guards every inline cache of an inherited property.
    public static let isPrototype: UInt16 = 512
    /// An %ArrayIteratorPrototype% iterator (kind `.iterator`).
    public static let arrayIterator: UInt16 = 1024
    /// A %MapIteratorPrototype% / %SetIteratorPrototype% iterator (kind `.iterator`).
    public static let mapIterator: UInt16 = 2048
    public static let setIterator: UInt16 = 4096
    /// A WeakMap / WeakSet (kinds `.map` / `.set`).
    public static let weakCollection: UInt16 = 8192
    /// The dense elements sit in the cell itself, after the inline slots (allocated with
    /// it: small `arguments` objects); never freed, copied out when they grow.
    public static let inlineElements: UInt16 = 16384
}

public struct JSObject {
    public static let inlineSlotsOffset = ObjectLayout.inlineSlots
    public static let defaultInlineSlots = 4
    /// An index at most this far past the stored elements extends them (holes between);
    /// one further out switches the object to sparse elements (V8's `kMaxGap`).
    static let maxElementsGap = 1024
    /// Holes inside an array's `length` stay dense up to this length (`new Array(n)`
    /// filled in any order).
    static let maxPresizedLength: UInt32 = 1 << 20
    public let cell: UnsafeMutableRawPointer

    @inline(__always) public init(_ cell: UnsafeMutableRawPointer) { self.cell = cell }
    @inline(__always) public init(_ v: Value) { self.cell = v.asCell }

    @inline(__always) public var kind: CellKind { header(cell).pointee.kind }
    @inline(__always) public var flags: UInt16 {
        get { header(cell).pointee.flags }
        nonmutating set { header(cell).pointee.flags = newValue }
    }
    @inline(__always) public var inlineCapacity: Int { Int(header(cell).pointee.aux) }
    @inline(__always) public var shape: UnsafeMutableRawPointer {
        get { cell.load(fromByteOffset: ObjectLayout.shape, as: UnsafeMutableRawPointer.self) }
        nonmutating set { cell.storeBytes(of: newValue, toByteOffset: ObjectLayout.shape, as: UnsafeMutableRawPointer.self) }
    }
    @inline(__always) var outOfLine: UnsafeMutablePointer<Value>? {
        get { cell.load(fromByteOffset: ObjectLayout.outOfLineSlots, as: UnsafeMutablePointer<Value>?.self) }
        nonmutating set { cell.storeBytes(of: newValue, toByteOffset: ObjectLayout.outOfLineSlots, as: UnsafeMutablePointer<Value>?.self) }
    }
    @inline(__always) var outOfLineCapacity: Int {
        get { Int(cell.load(fromByteOffset: ObjectLayout.outOfLineCapacity, as: UInt32.self)) }
        nonmutating set { cell.storeBytes(of: UInt32(newValue), toByteOffset: ObjectLayout.outOfLineCapacity, as: UInt32.self) }
    }
    @inline(__always) public var elements: UnsafeMutablePointer<Value>? {
        get { cell.load(fromByteOffset: ObjectLayout.elements, as: UnsafeMutablePointer<Value>?.self) }
        nonmutating set { cell.storeBytes(of: newValue, toByteOffset: ObjectLayout.elements, as: UnsafeMutablePointer<Value>?.self) }
    }
    @inline(__always) public var elementsLength: Int {
        get { Int(cell.load(fromByteOffset: ObjectLayout.elementsLength, as: UInt32.self)) }
        nonmutating set { cell.storeBytes(of: UInt32(newValue), toByteOffset: ObjectLayout.elementsLength, as: UInt32.self) }
    }
    @inline(__always) public var elementsCapacity: Int {
        get { Int(cell.load(fromByteOffset: ObjectLayout.elementsCapacity, as: UInt32.self)) }
        nonmutating set { cell.storeBytes(of: UInt32(newValue), toByteOffset: ObjectLayout.elementsCapacity, as: UInt32.self) }
    }
    /// Kind-specific word `i` (0...2; ordinary objects have none), after the inline slots.
    @inline(__always) public func word(_ i: Int) -> UInt64 {
        assert(i < ObjectLayout.kindWordCount(kind), "an ordinary object has no kind words")
        return cell.load(fromByteOffset: ObjectLayout.inlineSlots + (inlineCapacity + i) * 8, as: UInt64.self)
    }
    @inline(__always) public func setWord(_ i: Int, _ v: UInt64) {
        assert(i < ObjectLayout.kindWordCount(kind), "an ordinary object has no kind words")
        cell.storeBytes(of: v, toByteOffset: ObjectLayout.inlineSlots + (inlineCapacity + i) * 8, as: UInt64.self)
    }
    /// Word `i` of a bytecode function (kind `.function`), at its fixed offset.
    @inline(__always) public func functionWord(_ i: Int) -> UInt64 {
        assert(kind == .function && inlineCapacity == ObjectLayout.functionInlineSlots)
        return cell.load(fromByteOffset: ObjectLayout.functionCode + i * 8, as: UInt64.self)
    }
    @inline(__always) public func extraValue(_ i: Int) -> Value { Value(bits: word(i)) }
    @inline(__always) public func setExtraValue(_ i: Int, _ v: Value) { setWord(i, v.bits) }

    /// Array `length` (arrays only).
    @inline(__always) public var arrayLength: UInt32 {
        get { cell.load(fromByteOffset: ObjectLayout.arrayLength, as: UInt32.self) }
        nonmutating set { cell.storeBytes(of: newValue, toByteOffset: ObjectLayout.arrayLength, as: UInt32.self) }
    }

    @inline(__always) public var prototype: Value { ShapeCell(shape).prototype }

    @inline(__always) public var isExtensible: Bool { flags & ObjectFlags.nonExtensible == 0 }

    @inline(__always) public func slotPointer(_ slot: Int) -> UnsafeMutablePointer<Value> {
        let cap = inlineCapacity
        if slot < cap { return (cell + JSObject.inlineSlotsOffset).assumingMemoryBound(to: Value.self) + slot }
        return outOfLine! + (slot - cap)
    }

    @inline(__always) public func slot(_ i: Int) -> Value { slotPointer(i).pointee }
    @inline(__always) public func setSlot(_ i: Int, _ v: Value) { slotPointer(i).pointee = v }

    /// Makes room for `count` named slots (an out-of-memory `RangeError` past `--max-heap`).
    @inline(__always) func ensureSlotCapacity(_ count: Int, _ rt: Runtime) throws(JSException) {
        let cap = inlineCapacity
        if count <= cap || count - cap <= outOfLineCapacity { return }
        try growSlots(count - cap, rt)
    }

    @inline(never) func growSlots(_ needed: Int, _ rt: Runtime) throws(JSException) {
        let current = outOfLineCapacity
        let newCap = max(needed, max(4, current * 2))
        try rt.reserveExternal(newCap * 8)
        let p = UnsafeMutablePointer<Value>.allocate(capacity: newCap)
        p.initialize(repeating: .undefined, count: newCap)
        if let old = outOfLine {
            p.update(from: old, count: current)
            old.deallocate()
            rt.heap.releaseExternal(current * 8)
        }
        outOfLine = p
        outOfLineCapacity = newCap
    }

    /// Makes room for `count` dense elements (an out-of-memory `RangeError` past
    /// `--max-heap`, or past the most elements a dense array holds).
    @inline(__always) func ensureElementsCapacity(_ count: Int, _ rt: Runtime) throws(JSException) {
        if count <= elementsCapacity { return }
        try growElements(count, rt)
    }

    @inline(never) func growElements(_ count: Int, _ rt: Runtime) throws(JSException) {
        let current = elementsCapacity
        // Capacity is a UInt32; a dense array never needs more than 2^32 - 1 elements.
        if count > Int(UInt32.max) { throw rt.outOfMemory() }
        let newCap = min(max(count, max(8, current + current / 2)), Int(UInt32.max))
        try rt.reserveExternal(newCap * 8)
        let p = UnsafeMutablePointer<Value>.allocate(capacity: newCap)
        p.initialize(repeating: .empty, count: newCap)
        if let old = elements {
            p.update(from: old, count: elementsLength)
            if flags & ObjectFlags.inlineElements != 0 {
                flags &= ~ObjectFlags.inlineElements
            } else {
                old.deallocate()
                rt.heap.releaseExternal(current * 8)
            }
        }
        elements = p
        elementsCapacity = newCap
    }

    /// Frees the dense elements (the object keeps none).
    func freeElements(_ rt: Runtime) {
        if flags & ObjectFlags.inlineElements != 0 {
            flags &= ~ObjectFlags.inlineElements
        } else if let e = elements {
            e.deallocate()
            rt.heap.releaseExternal(elementsCapacity * 8)
        }
        elements = nil
        elementsLength = 0
        elementsCapacity = 0
    }
}

/// An accessor property's getter and setter: header | getter at 8 | setter at 16.
public struct AccessorPair {
    public let cell: UnsafeMutableRawPointer
    public init(_ cell: UnsafeMutableRawPointer) { self.cell = cell }
    public var getter: Value {
        get { cell.load(fromByteOffset: 8, as: Value.self) }
        nonmutating set { cell.storeBytes(of: newValue, toByteOffset: 8, as: Value.self) }
    }
    public var setter: Value {
        get { cell.load(fromByteOffset: 16, as: Value.self) }
        nonmutating set { cell.storeBytes(of: newValue, toByteOffset: 16, as: Value.self) }
    }
}

extension Runtime {
    /// Allocates an object of `kind` with the given shape and inline capacity, and room
    /// for `inlineElements` dense elements in the cell (holes, `elementsLength` 0;
    /// `ObjectFlags.inlineElements`).
    public func allocateObject(_ kind: CellKind, shape: UnsafeMutableRawPointer,
                               inlineSlots: Int = JSObject.defaultInlineSlots,
                               inlineElements: Int = 0) throws(JSException) -> JSObject {
        heap.pushRoot(Value(cell: shape))
        defer { heap.popRoots(1) }
        precondition(kind != .function || inlineSlots == ObjectLayout.functionInlineSlots)
        let words = ObjectLayout.kindWordCount(kind)
        let cell = try allocate(kind, size: JSObject.inlineSlotsOffset + (inlineSlots + words + inlineElements) * 8)
        header(cell).pointee.aux = UInt32(inlineSlots)
        let o = JSObject(cell)
        o.shape = shape
        for i in 0..<inlineSlots { o.setSlot(i, .undefined) }
        if inlineElements > 0 {
            // Zeroed memory: every element is a hole (`Value.empty`).
            o.elements = (cell + JSObject.inlineSlotsOffset).assumingMemoryBound(to: Value.self) + inlineSlots + words
            o.elementsCapacity = inlineElements
            o.flags |= ObjectFlags.inlineElements
        }
        return o
    }

    func traceObject(_ cell: UnsafeMutableRawPointer, _ kind: CellKind, _ marker: inout Heap.Marker) {
        if kind == .shape { traceShape(cell, &marker); return }
        if kind == .symbol {
            marker.mark(cell.load(fromByteOffset: 8, as: Value.self))   // the description
            return
        }
        if kind == .environment { traceEnvironment(cell, &marker); return }
        if kind == .accessorPair {
            let a = AccessorPair(cell)
            marker.mark(a.getter)
            marker.mark(a.setter)
            return
        }
        let o = JSObject(cell)
        marker.mark(cell: o.shape)
        let count = ShapeCell(o.shape).slotCount
        let cap = o.inlineCapacity
        let inlineCount = min(count, cap)
        marker.mark((cell + JSObject.inlineSlotsOffset).assumingMemoryBound(to: Value.self), count: inlineCount)
        if count > cap, let ool = o.outOfLine { marker.mark(ool, count: min(count - cap, o.outOfLineCapacity)) }
        if let e = o.elements { marker.mark(e, count: o.elementsLength) }
        traceKindSpecific(o, kind, &marker)
    }

    func finalizeObject(_ cell: UnsafeMutableRawPointer, _ kind: CellKind) {
        if kind == .shape { finalizeShape(cell); return }
        if kind == .environment || kind == .accessorPair { return }
        let o = JSObject(cell)
        if let p = o.outOfLine {
            p.deallocate()
            heap.releaseExternal(o.outOfLineCapacity * 8)
        }
        if let e = o.elements, o.flags & ObjectFlags.inlineElements == 0 {
            e.deallocate()
            heap.releaseExternal(o.elementsCapacity * 8)
        }
        finalizeKindSpecific(o, kind)
    }
}

