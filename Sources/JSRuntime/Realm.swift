// A realm: the intrinsic objects, the global object and the global lexical bindings.

import JSRegExp

/// A native function: `this`, the arguments and `new.target` (undefined for a call).
public typealias NativeFunction = (_ rt: Runtime, _ this: Value, _ args: UnsafeBufferPointer<Value>,
                                   _ newTarget: Value) throws(JSException) -> Value

/// The bodies of native functions, by index (a native function's word 0). Each body sits
/// in a box with a `let`, reached unretained, so a call borrows it: no retain and release
/// of the closure's context per call (most bodies capture state, so they have one).
struct NativeTable {
    final class Box {
        let body: NativeFunction
        /// The realm the body was registered in (GetFunctionRealm of its functions) and
        /// that realm's `Runtime.realmKey`, compared per call: a call from another realm
        /// enters this one first (`Runtime.callInRealm`).
        unowned(unsafe) let realm: Realm
        let realmKey: UInt
        init(_ body: @escaping NativeFunction, realm: Realm) {
            self.body = body
            self.realm = realm
            realmKey = realm.key
        }
    }
    /// The realm new bodies belong to (the runtime's current realm).
    unowned(unsafe) var currentRealm: Realm?
    private(set) var boxes = UnsafeMutablePointer<Unmanaged<Box>>.allocate(capacity: 64)
    private(set) var count = 0
    private var capacity = 64

    mutating func reserveCapacity(_ n: Int) {
        if n <= capacity { return }
        let bigger = UnsafeMutablePointer<Unmanaged<Box>>.allocate(capacity: n)
        bigger.moveInitialize(from: boxes, count: count)
        boxes.deallocate()
        boxes = bigger
        capacity = n
    }

    mutating func append(_ body: @escaping NativeFunction) {
        if count == capacity { reserveCapacity(capacity * 2) }
        (boxes + count).initialize(to: Unmanaged.passRetained(Box(body, realm: currentRealm!)))
        count += 1
    }

    /// Calls body `index`.
    @inline(__always)
    func call(_ index: Int, _ rt: Runtime, _ this: Value, _ args: UnsafeBufferPointer<Value>,
              _ newTarget: Value) throws(JSException) -> Value {
        precondition(index >= 0 && index < count)
        do {
            return try boxes[index]._withUnsafeGuaranteedRef { box in
                if box.realmKey != rt.realmKey {
                    return try rt.callInRealm(box.realm) { () throws(JSException) -> Value in try box.body(rt, this, args, newTarget) }
                }
                return try box.body(rt, this, args, newTarget)
            }
        } catch let e as JSException {
            throw e
        } catch {
            fatalError("a native function threw \(error)")
        }
    }

    /// The realm body `index` belongs to.
    func realm(_ index: Int) -> Realm {
        precondition(index >= 0 && index < count)
        return boxes[index]._withUnsafeGuaranteedRef { $0.realm }
    }

    /// Releases the bodies (the runtime's deinit).
    func deallocate() {
        for i in 0..<count { boxes[i].release() }
        boxes.deallocate()
    }
}

public final class Realm {
    unowned let rt: Runtime
    /// This realm's identity as a word (`Runtime.realmKey` while it is current).
    var key: UInt { UInt(bitPattern: ObjectIdentifier(self)) }
    /// The runtime-level fields of this realm while another one is current (Realms.swift).
    var runtimeFields = RealmRuntimeFields()
    /// Intrinsics by name, made at the first cross-realm GetPrototypeFromConstructor (Realms.swift).
    var intrinsicNames: [UInt: String]?
    var intrinsicsByName: [String: JSObject] = [:]
    public var global: JSObject!
    public var objectPrototype: JSObject!
    public var functionPrototype: JSObject!
    public var arrayPrototype: JSObject!
    public var stringPrototype: JSObject!
    public var numberPrototype: JSObject!
    public var booleanPrototype: JSObject!
    public var symbolPrototype: JSObject!
    /// BigInt, WeakRef, FinalizationRegistry (Builtins/BigIntBuiltins.swift, Builtins/WeakRefs.swift).
    public var bigintPrototype: JSObject!
    public var weakRefPrototype: JSObject!
    public var finalizationRegistryPrototype: JSObject!
    /// Map/Set key ids of BigInt values (`Runtime.bigIntKeyID`).
    var bigIntKeyIDs: [JSBigInt: UInt64] = [:]
    public var errorPrototype: JSObject!
    public var iteratorPrototype: JSObject!
    public var arrayIteratorPrototype: JSObject!
    public var stringIteratorPrototype: JSObject!
    public var datePrototype: JSObject!
    /// Cached one-unit Latin-1 strings (String.prototype.charAt and friends).
    var singleCharStrings: [Value] = []
    public var generatorFunctionPrototype: JSObject!
    public var generatorPrototype: JSObject!
    var generatorFunctionShape: UnsafeMutableRawPointer!
    /// %Function.prototype.apply% and %Function.prototype.call% (the interpreter runs calls
    /// through them without leaving the dispatch loop).
    var functionApply: JSObject?
    var functionCall: JSObject?
    /// %Object.prototype% + constructor: the shape of a function's prototype object.
    var prototypeShape: UnsafeMutableRawPointer?
    /// Shapes of arguments objects and the strict one's callee accessor (see `argumentsShape`).
    var sloppyArgumentsShape: UnsafeMutableRawPointer?
    var strictArgumentsShape: UnsafeMutableRawPointer?
    var strictArgumentsCallee: UnsafeMutableRawPointer?
    public var promisePrototype: JSObject!
    public var asyncIteratorPrototype: JSObject!
    public var asyncGeneratorFunctionPrototype: JSObject!
    public var asyncGeneratorPrototype: JSObject!
    public var asyncFromSyncIteratorPrototype: JSObject!
    var asyncGeneratorFunctionShape: UnsafeMutableRawPointer!
    /// %AsyncFunction.prototype% and the root shape of async functions (Builtins/AsyncFunctions.swift).
    public var asyncFunctionPrototype: JSObject!
    var asyncFunctionShape: UnsafeMutableRawPointer!
    public var promiseConstructor: JSObject!
    /// Pending jobs (see Promise.swift).
    var jobQueue: JSObject!
    /// Promises rejected while no handler was attached, for a host that reports them
    /// (`Runtime.tracksRejections`; HostPromiseRejectionTracker).
    var rejectedPromises: JSObject?
    public var errorPrototypes = ErrorTable()
    /// RegExp (Builtins/RegExpBuiltins.swift).
    public var regexpPrototype: JSObject!
    public var regexpConstructor: JSObject!
    public var regexpStringIteratorPrototype: JSObject!
    var regexpExecFunction: Value = .undefined
    /// Compiled programs by (pattern, flags): `RegExpProgram`s, shared by every literal site.
    var regexpCache: [RegExpCacheKey: AnyObject] = [:]
    /// Per literal site (code block, constant index): the program and its pattern/flags.
    var regexpSiteCache: [RegExpSiteKey: RegExpSiteEntry] = [:]
    /// Atoms of the property names RegExp builtins use (kept alive by permanent roots).
    var regexpAtoms: [UnsafeMutableRawPointer] = []
    /// The matcher's reusable working memory (Builtins/RegExpFastPaths.swift).
    let regexpScratch = RegExpScratch()
    /// The shape of a fresh RegExp of this realm (own `lastIndex` only) and that slot.
    var regexpInstanceShape: UnsafeMutableRawPointer?
    var regexpLastIndexSlot = 0
    /// The shape of an exec result array with `index`, `input`, `groups` in slots 0, 1, 2.
    var regexpResultShape: UnsafeMutableRawPointer?
    /// RegExp.prototype's original `exec`, `flags` and flag getters (values, getters for
    /// accessors), their slots, and the `protoEpoch` at which those slots were checked.
    var regexpPristineValues: [Value] = []
    var regexpPristineGetters: [Value] = []
    var regexpPristineSlots: [Int] = []
    var regexpPristineEpoch: UInt32 = 0
    /// RegExp's original @@species getter.
    var regexpSpeciesGetter: Value = .undefined
    public var errorConstructors = ErrorTable()
    /// ArrayBuffer, typed arrays, DataView (Builtins/ArrayBuffer.swift).
    /// The typed-array, buffer, DataView and Atomics intrinsics; reading them installs
    /// that lazy group first (LazyGlobals.swift).
    var binary: BinaryIntrinsics {
        if lazyPending & LazyGlobalGroup.binary != 0 { rt.installLazyGlobals(self, LazyGlobalGroup.binary) }
        return binaryStorage
    }
    let binaryStorage = BinaryIntrinsics()
    /// The lazy builtin groups (`LazyGlobalGroup`) not installed yet.
    var lazyPending: UInt8 = 0

    // Intrinsics of the Object/Function/Symbol/Array/Error/Reflect/collection builtins.
    public var objectConstructor: JSObject!
    public var functionConstructor: JSObject!
    public var arrayConstructor: JSObject!
    public var symbolConstructor: JSObject!
    public var throwTypeError: JSObject!
    public var aggregateErrorPrototype: JSObject!
    public var aggregateErrorConstructor: JSObject!
    public var mapPrototype: JSObject!
    public var setPrototype: JSObject!
    public var weakMapPrototype: JSObject!
    public var weakSetPrototype: JSObject!
    public var mapIteratorPrototype: JSObject!
    public var setIteratorPrototype: JSObject!
    public var mapConstructor: JSObject!
    public var setConstructor: JSObject!
    /// The GlobalSymbolRegistry (`Symbol.for`): key contents -> symbol, and symbol bits -> key.
    var symbolRegistry: [[UInt16]: Value] = [:]
    var symbolRegistryKeys: [UInt64: Value] = [:]

    /// The hidden key under which a class constructor keeps its instance-field initializer.
    var classFieldsKey: PropertyKey?
    /// The hidden key of [[IsRawJSON]] (the first realm's; Builtins/JSONRawJSON.swift).
    var rawJSONKey: PropertyKey?

    /// Root shapes for the common object kinds.
    var objectShape: UnsafeMutableRawPointer!
    var arrayShape: UnsafeMutableRawPointer!
    var functionShape: UnsafeMutableRawPointer!
    var arrowShape: UnsafeMutableRawPointer!

    /// Global lexical declarations (let/const/class at script top level): atom -> cell index.
    /// %eval% (direct eval compares the callee with it).
    public var evalFunction: JSObject!
    var lexicalIndex: [UnsafeMutableRawPointer: Int] = [:]
    let lexicalValues = LexicalValues()
    var lexicalIsConst: [Bool] = []

    init(runtime: Runtime) { rt = runtime }

    /// Everything the realm holds that the collector must keep alive.
    func mark(_ m: inout Heap.Marker) {
        for o in [global, objectPrototype, functionPrototype, arrayPrototype, stringPrototype, numberPrototype,
                  booleanPrototype, symbolPrototype, errorPrototype, iteratorPrototype, arrayIteratorPrototype,
                  generatorFunctionPrototype, generatorPrototype, promisePrototype, promiseConstructor, jobQueue,
                  asyncIteratorPrototype, asyncGeneratorFunctionPrototype, asyncGeneratorPrototype, asyncFromSyncIteratorPrototype,
                  asyncFunctionPrototype, stringIteratorPrototype, datePrototype, bigintPrototype, weakRefPrototype, finalizationRegistryPrototype,
                  rejectedPromises] {
            if let o { m.mark(cell: o.cell) }
        }
        for o in [objectConstructor, functionConstructor, arrayConstructor, symbolConstructor, throwTypeError,
                  aggregateErrorPrototype, aggregateErrorConstructor, mapPrototype, setPrototype, weakMapPrototype,
                  weakSetPrototype, mapIteratorPrototype, setIteratorPrototype, mapConstructor, setConstructor, evalFunction] {
            if let o { m.mark(cell: o.cell) }
        }
        for (_, v) in symbolRegistry { m.mark(v) }
        for (_, v) in symbolRegistryKeys { m.mark(v) }
        for o in [regexpPrototype, regexpConstructor, regexpStringIteratorPrototype] {
            if let o { m.mark(cell: o.cell) }
        }
        m.mark(regexpExecFunction)
        m.mark(cell: regexpInstanceShape)
        m.mark(cell: regexpResultShape)
        for v in regexpPristineValues { m.mark(v) }
        for v in regexpPristineGetters { m.mark(v) }
        m.mark(regexpSpeciesGetter)
        for o in errorPrototypes.objects { m.mark(cell: o?.cell) }
        for o in errorConstructors.objects { m.mark(cell: o?.cell) }
        for s in [objectShape, arrayShape, functionShape, arrowShape, generatorFunctionShape, asyncGeneratorFunctionShape,
                  asyncFunctionShape, prototypeShape, sloppyArgumentsShape, strictArgumentsShape, strictArgumentsCallee,
                  functionApply?.cell, functionCall?.cell] { m.mark(cell: s) }
        for (a, _) in lexicalIndex { m.mark(cell: a) }
        if let k = classFieldsKey { m.mark(cell: k.cell) }
        if let k = rawJSONKey { m.mark(cell: k.cell) }
        for v in lexicalValues { m.mark(v) }
        for v in singleCharStrings { m.mark(v) }
        binaryStorage.mark(&m)
        runtimeFields.mark(&m)
    }
}

extension Runtime {
    /// The shared empty shape of objects with prototype `proto` (so objects built alike
    /// share shapes and inline caches hit). Weak: dropped when no object uses it.
    func rootShape(for proto: Value) throws(JSException) -> UnsafeMutableRawPointer {
        if let s = rootShapes.get(proto.bits) { return UnsafeMutableRawPointer(bitPattern: UInt(s))! }
        let s = try makeRootShape(prototype: proto)
        rootShapes.set(proto.bits, UInt64(UInt(bitPattern: s)))
        return s
    }

    func sweepRootShapes() {
        rootShapes.filter { _, s in header(UnsafeMutableRawPointer(bitPattern: UInt(s))!).pointee.marked != 0 }
    }

    public func newObject(prototype: JSObject? = nil) throws(JSException) -> JSObject {
        if let p = prototype, p.cell != realm.objectPrototype.cell {
            return try allocateObject(.object, shape: try rootShape(for: Value(cell: p.cell)))
        }
        return try allocateObject(.object, shape: realm.objectShape)
    }

    public func newObject(prototypeValue p: Value) throws(JSException) -> JSObject {
        if p.isCell { return try newObject(prototype: JSObject(p)) }
        return try allocateObject(.object, shape: try rootShape(for: .null))
    }

    public func newArray(capacity: Int = 0) throws(JSException) -> JSObject {
        let a = try allocateObject(.array, shape: realm.arrayShape, inlineSlots: 0)
        if capacity > 0 { try a.ensureElementsCapacity(capacity, self) }
        return a
    }

    public func newArray(_ values: UnsafeBufferPointer<Value>) throws(JSException) -> JSObject {
        let a = try newArray(capacity: values.count)
        for (i, v) in values.enumerated() { a.elements![i] = v }
        a.elementsLength = values.count
        a.arrayLength = UInt32(values.count)
        return a
    }

    /// Defines a data property with the given attributes (for building intrinsics).
    public func put(_ o: JSObject, _ name: String, _ v: Value, _ attrs: PropertyAttributes = .hidden) throws(JSException) {
        heap.pushRoot(v)
        defer { heap.popRoots(1) }
        try defineData(o, PropertyKey(cell: atom(name)), v, attrs)
    }

    /// [[DefineOwnProperty]] of a data property (for building intrinsics and functions).
    /// A new key on an ordinary extensible object is added straight to its shape: what
    /// `defineOwnProperty` does, without the lookup that builds (by copying the parent's)
    /// a key table for every intermediate shape, quadratic in the number of properties.
    func defineData(_ o: JSObject, _ k: PropertyKey, _ v: Value, _ attrs: PropertyAttributes) throws(JSException) {
        // Arrays and primitive wrappers differ from ordinary objects only in `length`.
        let ordinary = k.cell != lengthAtom || (o.kind != .array && o.kind != .boxedPrimitive)
        if ordinary && o.isExtensible && !shapeHasKey(o.shape, k) {
            try addNamedProperty(o, k, v, attrs.intersection(.all))
        } else {
            try defineOwnProperty(o, .named(k), .data(v, attrs))
        }
    }

    /// Whether the shape has `k`, by its key table or else up its transition chain
    /// (`ShapeCell.lookup` without building a table).
    func shapeHasKey(_ shape: UnsafeMutableRawPointer, _ k: PropertyKey) -> Bool {
        // The shape cell keeps its info, and each info its parent, alive: no reference
        // counting on the way up (it was a retain and a release per step).
        var ref = Unmanaged<ShapeInfo>.fromOpaque(shape.load(fromByteOffset: ShapeLayout.info, as: UnsafeRawPointer.self))
        // A shape with a key table answers by it (`lookup`, which also resolves a global
        // object's lazy builtins); a chain without the key's bloom bit does not have it.
        let (hasTable, mayHave) = ref._withUnsafeGuaranteedRef { ($0.tableRef != nil, $0.keyBloom & keyBloomBit(k) != 0) }
        if hasTable { return ShapeCell(shape).lookup(k) != nil }
        if !mayHave { return false }
        while true {
            let step: Int = ref._withUnsafeGuaranteedRef { info in
                if let t = info.tableRef { return t._withUnsafeGuaranteedRef { $0[k] != nil } ? 1 : 0 }
                if info.key == k { return 1 }
                guard let parent = info.parentRef else { return 0 }
                ref = parent
                return 2
            }
            if step != 2 { return step == 1 }
        }
    }

    /// A native function object.
    public func makeNativeFunction(_ name: String, length: Int, isConstructor: Bool = false,
                                   _ body: @escaping NativeFunction) throws(JSException) -> JSObject {
        try makeNativeFunction(name: try makeString(name), length: length, isConstructor: isConstructor, body)
    }

    /// A native function object whose `name` is the string `name`.
    func makeNativeFunction(name: Value, length: Int, isConstructor: Bool = false,
                            _ body: @escaping NativeFunction) throws(JSException) -> JSObject {
        heap.pushRoot(name)
        defer { heap.popRoots(1) }
        let f = try allocateObject(.nativeFunction, shape: realm.functionShape)
        natives.append(body)
        f.setWord(0, UInt64(natives.count - 1))
        if isConstructor { f.flags |= ObjectFlags.constructor }
        heap.pushRoot(Value(cell: f.cell))
        defer { heap.popRoots(1) }
        try defineData(f, PropertyKey(cell: lengthAtom), Value(length), [.configurable])
        try defineData(f, PropertyKey(cell: nameAtom), name, [.configurable])
        return f
    }

    /// Adds a native method to an object (its `name` is the key's atom: strings are
    /// immutable, so sharing the cell is safe).
    @discardableResult
    public func method(_ o: JSObject, _ name: String, _ length: Int, _ body: @escaping NativeFunction) throws(JSException) -> JSObject {
        heap.pushRoot(Value(cell: o.cell))
        defer { heap.popRoots(1) }
        let k = atom(name)
        let f = try makeNativeFunction(name: Value(cell: k), length: length, body)
        if installingBuiltins && o.kind != .nativeFunction && !ShapeCell(o.shape).isDictionary
            && ShapeCell(o.shape).info.propertyCount >= 4 {
            try ensureDictionary(o)
        }
        try defineData(o, PropertyKey(cell: k), Value(cell: f.cell), .hidden)
        return f
    }

    public func getter(_ o: JSObject, _ name: String, _ body: @escaping NativeFunction) throws(JSException) {
        heap.pushRoot(Value(cell: o.cell))
        defer { heap.popRoots(1) }
        let f = try makeNativeFunction("get " + name, length: 0, body)
        try defineOwnProperty(o, key(name), PropertyDescriptor(get: Value(cell: f.cell), set: .undefined, enumerable: false, configurable: true))
    }
}

/// The values of the global lexical bindings (`let`, `const`, `class` at the top level of
/// scripts), in raw memory reached through a fixed cell: machine code reads a binding as
/// `(*cell)[index]` (`Runtime.lexicalValuesCell`), and the buffer may move as it grows.
final class LexicalValues: Sequence {
    let cell: UnsafeMutablePointer<UnsafeMutablePointer<Value>>
    private(set) var count = 0
    private var capacity = 16

    init() {
        cell = .allocate(capacity: 1)
        cell.initialize(to: .allocate(capacity: 16))
    }

    deinit {
        cell.pointee.deallocate()
        cell.deallocate()
    }

    subscript(i: Int) -> Value {
        get { precondition(i >= 0 && i < count); return cell.pointee[i] }
        set { precondition(i >= 0 && i < count); cell.pointee[i] = newValue }
    }

    func append(_ v: Value) {
        if count == capacity {
            let bigger = UnsafeMutablePointer<Value>.allocate(capacity: capacity * 2)
            bigger.moveInitialize(from: cell.pointee, count: count)
            cell.pointee.deallocate()
            cell.pointee = bigger
            capacity *= 2
        }
        (cell.pointee + count).initialize(to: v)
        count += 1
    }

    func makeIterator() -> UnsafeBufferPointer<Value>.Iterator {
        UnsafeBufferPointer(start: cell.pointee, count: count).makeIterator()
    }
}

/// One object per error type (a realm's error prototypes or constructors). A fixed array: a
/// `[ErrorType: JSObject]` cost each process a scan of the binary's protocol conformances at
/// start-up (~60,000 instructions and the data pages it reads) to instantiate its storage.
public struct ErrorTable {
    var objects = [JSObject?](repeating: nil, count: Runtime.ErrorType.count)
    public init() {}
    public subscript(_ type: Runtime.ErrorType) -> JSObject? {
        get { objects[type.index] }
        set { objects[type.index] = newValue }
    }
}
