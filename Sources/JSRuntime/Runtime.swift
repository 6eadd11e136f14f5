// The runtime: one heap, its atoms, the register file and the current realm.

#if canImport(Glibc)
import JSSyntax
import Glibc
#endif

/// A JavaScript exception in flight through native code (the thrown value is rooted).
public struct JSException: Error {
    public let value: Value
}

/// One JavaScript runtime: its heap, realm, interpreter and job queue.
///
/// Used from one thread at a time (it takes no locks and is not `Sendable`); values
/// (`Value`) and compiled code belong to the runtime that made or first ran them
/// (`owns(_:)`, `runScript(compiled:)`). Separate runtimes share no JS state and may run
/// on different threads at once; the one process-wide variable they touch is the
/// GC-pacing counter `externalBytesSinceGC` (a heuristic: a lost update changes only when
/// a collection starts).
public final class Runtime {
    public let heap: Heap
    /// Interned strings used as property keys (its storage counts as external bytes).
    var atoms = AtomTable(capacity: 1024)
    /// Cached atoms for Swift strings (the names builtins use).
    /// The atoms `atom(_:)` handed out, kept for the runtime's life (native code may hold
    /// them); each is flagged `StringFlags.pinned`. An array, not a `[String: …]` cache:
    /// that dictionary's type cost every start ~0.15 M instructions of Swift metadata and
    /// conformance lookups, and hashing a Swift string costs more than the atom table's probe.
    var pinnedAtoms: [UnsafeMutableRawPointer] = []
    /// Atoms of string literals, by the literal's address (see `atom(static:)`).
    var staticAtoms = WordMap()
    /// Permanent roots (intrinsics, cached atoms).
    var permanentRoots: [Value] = []
    /// Weak references: what a collection found of WeakMaps, WeakRefs and registries (Builtins/WeakRefs.swift).
    let weakState = WeakState()
    /// SharedArrayBuffer blocks and Atomics waiters (Builtins/SharedMemory.swift).
    let sharedMemory = SharedMemoryState()

    /// The current realm: the realm of the running function (Realms.swift).
    public var realm: Realm!
    /// Every realm of this runtime (the first is the one `initializeRealm` made), and the
    /// current one's `Realm.key`, which calls compare with their callee's realm.
    var realms: [Realm] = []
    var realmKey: UInt = 0
    /// While a realm's builtins are being installed (`buildRealm`): `method` puts an
    /// object that is not a function into dictionary mode once it has a few properties.
    var installingBuiltins = false
    /// Native function bodies, indexed by a native function's word 0.
    var natives = NativeTable()
    /// Time the regexp matcher (`--stats`): wall nanoseconds and match attempts from a
    /// position (each `exec`, `test`, `replace` step...).
    public var measureRegExpTime = false
    public internal(set) var regexpNanoseconds: UInt64 = 0
    public internal(set) var regexpMatches = 0
    /// The register file and the frame stack.
    let registers: UnsafeMutablePointer<Value>
    var frames = FrameStack()
    var nativeDepth = 0
    /// The native-stack limit of the thread running this runtime (`checkStack`).
    var stackLimit: UInt = StackGuard.limit() {
        didSet { jitCallCell[3] = stackLimit &+ Runtime.jitStackMargin }
    }
    /// Every live CodeData, by address (the conservative stack scan looks words up here),
    /// each retained once by this table (`codeData(_:)`, `sweepCodeData`; not a
    /// Dictionary: see AddressTable).
    let allCodeData = AddressTable()
    /// The lowest and highest address a CodeData was ever allocated at (a cheap filter).
    var codeDataLow = UInt.max, codeDataHigh: UInt = 0
    /// Advanced by every change to the own properties or prototype of an object flagged
    /// `ObjectFlags.isPrototype`; inline caches of inherited properties check it.
    var protoEpoch: UInt32 {
        @inline(__always) get { protoEpochCell.pointee }
        @inline(__always) set { protoEpochCell.pointee = newValue }
    }
    /// Where the epoch lives: machine code compares inherited cache entries with it.
    let protoEpochCell: UnsafeMutablePointer<UInt32> = {
        let p = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)
        p.initialize(to: 1)
        return p
    }()
    /// The baseline JIT (JITHooks.swift): the backend, whether tier-up is on, the hotness
    /// at which code is compiled, the exception a body stopped for, statistics.
    var jit: JITBackend?
    var jitActive = false
    var jitThreshold: Int32 = 500
    /// The step budget (`setStepBudget`): armed, and the steps left.
    var stepBudgetArmed = false
    var stepsLeft = Int.max
    /// Set when the interpreter resumes at a catch handler under a step budget: that
    /// re-entry spends no step.
    var resumingAtHandler = false
    var jitPendingException = Value.undefined
    /// Where the call stub leaves the frame, registers and entry table of the callee it
    /// pushed (`JITStubs.call`), for the machine code that enters it.
    let jitCallCell: UnsafeMutablePointer<UInt> = {
        let p = UnsafeMutablePointer<UInt>.allocate(capacity: 4)
        p.initialize(repeating: 0, count: 4)
        return p
    }()
    var jitStats = JITStatistics()
    let jitStubCounts: UnsafeMutablePointer<Int> = {
        let p = UnsafeMutablePointer<Int>.allocate(capacity: 256)
        p.initialize(repeating: 0, count: 256)
        return p
    }()
    /// See `SharedCacheEntry`. An empty entry is all zero bits: the 160 KiB come from calloc
    /// (zero pages, untouched until a site uses the cache), not a memset at every start.
    let sharedCache: UnsafeMutablePointer<SharedCacheEntry> = {
        calloc(Runtime.sharedCacheSize, MemoryLayout<SharedCacheEntry>.stride)!
            .bindMemory(to: SharedCacheEntry.self, capacity: Runtime.sharedCacheSize)
    }()
    /// The well-known symbols (`Symbol.iterator`, ...), created with the first realm.
    public var wellKnown = WellKnownSymbols()
    /// %ArrayIteratorPrototype%.next, for the iteration fast path.
    var arrayIteratorNext = Value.undefined
    /// Array.prototype.values (the original @@iterator of arrays).
    var arrayValuesFunction = Value.undefined
    /// The realm's Function.prototype.call and .apply (value bits; the realm marks them),
    /// compared by the interpreter's call without touching the realm.
    var functionCallBits: UInt64 = 0, functionApplyBits: UInt64 = 0
    /// The native function being called (natives with state read their own words).
    public var nativeCallee = Value.undefined
    /// Registered bodies of the promise machinery's native functions.
    var promiseResolveFunctionIndex = 0, promiseRejectFunctionIndex = 0
    var capabilityExecutorIndex = 0, finallyFunctionIndex = 0
    /// Whether rejected promises with no handler are recorded for the host
    /// (`takeUnhandledRejections`): jsrun reports them, as node does.
    public var tracksRejections = false
    /// Next job to run in `realm.jobQueue`.
    var jobHead = 0
    var asyncFromSyncUnwrapIndex = 0
    /// Prototype (Value bits) -> its shared root shape; see `rootShape(for:)`.
    var rootShapes = WordMap()
    /// Shapes of new closures and their prototype objects (see `closureShape`).
    var closureShapes = WordMap()
    var closureShapeList: [UnsafeMutableRawPointer] = []
    /// The shape of a new ordinary function (length, name, prototype in slots 0–2; it
    /// inherits %Function.prototype%, so no own @@hasInstance): `instanceof` and `new` read
    /// such a function's prototype from slot 2 without a lookup.
    var plainFunctionShape: UnsafeMutableRawPointer?
    /// The dictionary shape every Proxy shares (never cached; in `permanentRoots`).
    var proxyShape: UnsafeMutableRawPointer?
    /// The native body of Proxy.revocable's revoke functions.
    var proxyRevokeIndex = 0
    /// %IteratorHelperPrototype% and %WrapForValidIteratorPrototype% (Builtins/IteratorHelpers.swift; in `permanentRoots`).
    var iteratorHelperPrototype: JSObject?
    var wrapForValidIteratorPrototype: JSObject?
    /// %Iterator%.
    var iteratorConstructorValue = Value.undefined
    /// SuppressedError and DisposableStack (Builtins/ResourceManagement.swift; in `permanentRoots`).
    var suppressedErrorPrototype: JSObject?
    var suppressedErrorConstructor = Value.undefined
    var disposableStackPrototype: JSObject?
    /// AsyncDisposableStack and the native bodies of async disposal (Builtins/AsyncDisposal.swift).
    var asyncDisposableStackPrototype: JSObject?
    var asyncDisposeStepIndex = 0, asyncDisposeSyncWrapperIndex = 0, returnUndefinedIndex = 0, asyncFromSyncCloseIndex = 0
    /// The realm's global object (the realm marks it), read by getGlobal without loading
    /// the realm first.
    var globalCell = UnsafeMutableRawPointer(bitPattern: 8)!
    /// The atom "length" (arrays and strings answer it without a shape lookup).
    lazy var lengthAtom: UnsafeMutableRawPointer = atom(static: "length")
    /// Modules loaded into this runtime (Modules.swift), made at the first import.
    var moduleRegistry: ModuleRegistry?
    /// The host's module source provider (`import`, `import()`, `runModule`).
    public var moduleLoader: ModuleLoader?
    /// The atom "name" (every native function defines it).
    lazy var nameAtom: UnsafeMutableRawPointer = atom(static: "name")

    public init() {
        // Zero pages from calloc cost nothing until touched (a zero word is `empty`); every
        // frame initializes the registers it uses, and only live frames are scanned.
        registers = calloc(Runtime.registerFileSize, MemoryLayout<Value>.stride)!.bindMemory(to: Value.self, capacity: Runtime.registerFileSize)
        heap = Heap()
        heap.owner = Unmanaged.passUnretained(self)
        heap.adjustExternal(atoms.byteSize)
        heap.finalizeAlways = Runtime.kindBit(.shape) | Runtime.kindBit(.boundFunction)
        heap.finalizeIfStorage = ~(Runtime.kindBit(.free) | Runtime.kindBit(.string) | Runtime.kindBit(.rope) | Runtime.kindBit(.bigint)
            | Runtime.kindBit(.symbol) | Runtime.kindBit(.shape) | Runtime.kindBit(.environment)
            | Runtime.kindBit(.accessorPair))
        heap.addRootMarker { [unowned self] marker in
            for r in self.realms { r.mark(&marker) }
            self.markFrames(&marker)
            for v in self.permanentRoots { marker.mark(v) }
            for s in self.closureShapeList { marker.mark(cell: s) }
            for a in self.pinnedAtoms { marker.mark(cell: a) }
        }
        heap.weakProcessors.append { [unowned self] in self.sweepCodeData() }
        heap.weakProcessors.append { [unowned self] in self.sweepAtoms() }
        heap.weakProcessors.append { [unowned self] in self.sweepRootShapes() }
        // Shapes die only in a collection; the shared cache names shapes without marking
        // them, so it is emptied before any address can be reused.
        heap.weakProcessors.append { [unowned self] in self.clearSharedCache() }
    }

    /// Frees the register file and the frame stack (the heap frees its own blocks): a
    /// process that makes a runtime per script (the test262 worker) must not leak them.
    deinit {
        // Every cell is dead now: finalize those that hold Swift objects or malloc'd storage
        // (a shape's ShapeInfo, out-of-line slots, Map/Set indexes, buffers) before the heap
        // unmaps its blocks; unmapping alone leaked ~220 KB of a realm's shapes per runtime
        // (found by the JSON fuzzer, which makes a runtime per input).
        heap.releaseAll()
        // CodeData and its CodeBlock refer to each other: break the cycles.
        for address in allCodeData.allKeys() {
            let d = Runtime.codeData(atAddress: address)
            d.code.runtimeData = nil
            releaseJIT(d)
            d.jitLinked = []
            allCodeData.remove(address)
            Unmanaged.passUnretained(d).release()
        }
        free(registers)
        natives.deallocate()
        atoms.deallocate()
        frames.deallocate()
        jitCallCell.deallocate()
        free(sharedCache)
        protoEpochCell.deallocate()
        jitStubCounts.deallocate()
    }

    // MARK: - Strings

    /// Allocates a flat Latin-1 string of `length` units; the caller fills `latin1`.
    public func allocateLatin1(length: Int) throws(JSException) -> StringCell {
        if UInt(bitPattern: length) > UInt(StringCell.maxLength) { throw try invalidStringLength() }
        let cell = try allocate(.string, size: StringCell.dataOffset + max(length, 1))
        header(cell).pointee.aux = UInt32(length)
        return StringCell(cell)
    }

    public func allocateUTF16(length: Int) throws(JSException) -> StringCell {
        if UInt(bitPattern: length) > UInt(StringCell.maxLength) { throw try invalidStringLength() }
        let cell = try allocate(.string, size: StringCell.dataOffset + max(length * 2, 1))
        header(cell).pointee.aux = UInt32(length)
        header(cell).pointee.flags = StringFlags.is16Bit
        return StringCell(cell)
    }

    @inline(__always)
    public func allocate(_ kind: CellKind, size: Int) throws(JSException) -> UnsafeMutableRawPointer {
        do {
            return try heap.allocate(kind, size: size)
        } catch {
            throw outOfMemory()
        }
    }

    /// Accounts for `bytes` of storage about to be malloc'd on behalf of JS (see
    /// `Heap.reserveExternal`): the out-of-memory `RangeError` past `--max-heap`.
    @inline(__always)
    public func reserveExternal(_ bytes: Int) throws(JSException) {
        do {
            try heap.reserveExternal(bytes)
        } catch {
            throw outOfMemory()
        }
    }

    /// Every string is allocated here: one longer than `StringCell.maxLength` (whatever
    /// built it) is a RangeError before any memory is taken (its length would not fit the
    /// header's 30 bits).
    @inline(never) func invalidStringLength() throws(JSException) -> JSException {
        try rangeError("Invalid string length")
    }

    /// The error thrown when the heap limit is reached (a preallocated value).
    func outOfMemory() -> JSException {
        JSException(value: outOfMemoryValue)
    }
    var outOfMemoryValue: Value = .undefined

    public func makeString(_ units: UnsafeBufferPointer<UInt16>) throws(JSException) -> Value {
        var narrow = true
        for u in units where u > 0xFF { narrow = false; break }
        if narrow {
            let s = try allocateLatin1(length: units.count)
            for i in 0..<units.count { s.latin1[i] = UInt8(units[i]) }
            return Value(cell: s.cell)
        }
        let s = try allocateUTF16(length: units.count)
        if let b = units.baseAddress { s.utf16.update(from: b, count: units.count) }
        return Value(cell: s.cell)
    }

    public func makeString(_ units: [UInt16]) throws(JSException) -> Value {
        try units.withUnsafeBufferPointer { b throws(JSException) in try makeString(b) }
    }

    public func makeString(_ s: String) throws(JSException) -> Value {
        // Native Swift strings (every literal) are contiguous UTF-8: one pass over the
        // bytes and a copy (iterating `utf8` went byte by byte through the view; builtin
        // names made this ~9 % of creating a realm).
        let n = s.utf8.count
        let isASCII = s.utf8.withContiguousStorageIfAvailable { b -> Bool in
            var any: UInt8 = 0
            for x in b { any |= x }
            return any < 0x80
        }
        if isASCII == true {
            let cell = try allocateLatin1(length: n)
            _ = s.utf8.withContiguousStorageIfAvailable { b in
                if let base = b.baseAddress { cell.latin1.update(from: base, count: b.count) }
            }
            return Value(cell: cell.cell)
        }
        var ascii = isASCII == nil
        if ascii { for b in s.utf8 where b >= 0x80 { ascii = false; break } }
        if ascii {
            let n = s.utf8.count
            let cell = try allocateLatin1(length: n)
            var i = 0
            for b in s.utf8 { cell.latin1[i] = b; i += 1 }
            return Value(cell: cell.cell)
        }
        return try makeString(Array(s.utf16))
    }

    /// Concatenation: small results are copied, large ones become ropes.
    public func concat(_ a: Value, _ b: Value) throws(JSException) -> Value {
        let la = stringLength(a), lb = stringLength(b)
        if la == 0 { return b }
        if lb == 0 { return a }
        let total = la + lb
        if total > StringCell.maxLength { throw try rangeError("Invalid string length") }
        let wide = stringIs16Bit(a) || stringIs16Bit(b)
        if total <= 24 {
            let fa = try flatten(a), fb = try flatten(b)
            if wide {
                let s = try allocateUTF16(length: total)
                for i in 0..<la { s.utf16[i] = fa[i] }
                for i in 0..<lb { s.utf16[la + i] = fb[i] }
                return Value(cell: s.cell)
            }
            let s = try allocateLatin1(length: total)
            for i in 0..<la { s.latin1[i] = fa.latin1[i] }
            for i in 0..<lb { s.latin1[la + i] = fb.latin1[i] }
            return Value(cell: s.cell)
        }
        heap.pushRoot(a); heap.pushRoot(b)
        defer { heap.popRoots(2) }
        let cell = try allocate(.rope, size: 32)
        header(cell).pointee.aux = UInt32(total)
        if wide { header(cell).pointee.flags = StringFlags.is16Bit }
        let r = RopeCell(cell)
        r.left = a.asCell
        r.right = b.asCell
        return Value(cell: cell)
    }

    @inline(__always) public func isString(_ v: Value) -> Bool {
        guard v.isCell else { return false }
        let k = header(v.asCell).pointee.kind
        return k == .string || k == .rope
    }

    @inline(__always) public func stringLength(_ v: Value) -> Int { Int(header(v.asCell).pointee.aux) }

    /// The flat parent and offset of a string value that is an unflattened slice.
    @inline(__always) func sliceParts(_ v: Value) -> (parent: StringCell, offset: Int)? {
        let cell = v.asCell
        guard header(cell).pointee.kind == .rope else { return nil }
        let r = RopeCell(cell)
        return r.isSlice ? (StringCell(r.left!), r.sliceOffset) : nil
    }
    @inline(__always) func stringIs16Bit(_ v: Value) -> Bool { header(v.asCell).pointee.flags & StringFlags.is16Bit != 0 }

    /// The flat string for a string value (flattening a rope in place, once).
    public func flatten(_ v: Value) throws(JSException) -> StringCell {
        let cell = v.asCell
        if header(cell).pointee.kind == .string { return StringCell(cell) }
        let rope = RopeCell(cell)
        if rope.isSlice {
            heap.pushRoot(v)
            defer { heap.popRoots(1) }
            let n = rope.length
            let out = try allocateLatin1(length: n)
            out.latin1.update(from: StringCell(rope.left!).latin1 + rope.sliceOffset, count: n)
            rope.left = out.cell
            header(cell).pointee.flags &= ~StringFlags.isSlice
            return out
        }
        if rope.right == nil, let flat = rope.left { return StringCell(flat) }
        let n = rope.length
        let wide = rope.is16Bit
        heap.pushRoot(v)
        defer { heap.popRoots(1) }
        let out = wide ? try allocateUTF16(length: n) : try allocateLatin1(length: n)
        // Iterative in-order walk (ropes can be deep).
        var stack: [UnsafeMutableRawPointer] = [cell]
        var pos = 0
        while let c = stack.popLast() {
            if header(c).pointee.kind == .string {
                let s = StringCell(c)
                let len = s.length
                if wide {
                    if s.is16Bit { (out.utf16 + pos).update(from: s.utf16, count: len) }
                    else { for i in 0..<len { out.utf16[pos + i] = UInt16(s.latin1[i]) } }
                } else {
                    (out.latin1 + pos).update(from: s.latin1, count: len)
                }
                pos += len
                continue
            }
            let r = RopeCell(c)
            if r.isSlice {
                // Latin-1 units of the parent, from the slice's offset.
                let src = StringCell(r.left!).latin1 + r.sliceOffset
                let len = r.length
                if wide { for i in 0..<len { out.utf16[pos + i] = UInt16(src[i]) } }
                else { (out.latin1 + pos).update(from: src, count: len) }
                pos += len
                continue
            }
            if r.right == nil, let flat = r.left { stack.append(flat); continue }
            if let right = r.right { stack.append(right) }
            if let left = r.left { stack.append(left) }
        }
        rope.left = out.cell
        rope.right = nil
        return out
    }

    // MARK: - Atoms

    /// The interned string with the same contents as `v` (a string value).
    public func atomize(_ v: Value) throws(JSException) -> UnsafeMutableRawPointer {
        let s = try flatten(v)
        if s.isAtom { return s.cell }
        let h = s.hash
        if let a = atoms.find(hash: h, { StringCell($0).equals(s) }) { return a }
        // Make this cell the atom (strings are immutable, so sharing is safe).
        let before = atoms.byteSize
        if atoms.growsOnNextInsert {
            heap.pushRoot(Value(cell: s.cell))
            defer { heap.popRoots(1) }
            try reserveExternal(before)
        }
        header(s.cell).pointee.flags |= StringFlags.isAtom
        atoms.insert(s.cell)   // grown: the reservation was the net growth (2x - 1x)
        return s.cell
    }

    /// The atom for a string literal: cached by the literal's address, so the hot paths that
    /// name a property (`key(static: "length")`) never hash a Swift string.
    @inline(__always)
    public func atom(static s: StaticString) -> UnsafeMutableRawPointer {
        if s.hasPointerRepresentation {
            let k = UInt64(UInt(bitPattern: s.utf8Start))
            if let a = staticAtoms.get(k) { return UnsafeMutableRawPointer(bitPattern: UInt(a))! }
            return staticAtomMiss(s)
        }
        return atom(s.description)
    }

    @inline(never)
    func staticAtomMiss(_ s: StaticString) -> UnsafeMutableRawPointer {
        let a = atom(s.description)   // pinned
        staticAtoms.set(UInt64(UInt(bitPattern: s.utf8Start)), UInt64(UInt(bitPattern: a)))
        return a
    }

    /// The atom for a Swift string (cached; the cache keeps it alive).
    public func atom(_ s: String) -> UnsafeMutableRawPointer {
        var s = s
        let a = s.withUTF8 { asciiAtom($0) } ?? (try! atomize(try! makeString(s)))
        if header(a).pointee.flags & StringFlags.pinned == 0 {
            header(a).pointee.flags |= StringFlags.pinned
            pinnedAtoms.append(a)
        }
        return a
    }

    /// The atom of ASCII text `b` (made if missing); nil if `b` is not ASCII.
    private func asciiAtom(_ b: UnsafeBufferPointer<UInt8>) -> UnsafeMutableRawPointer? {
        var h: UInt32 = 2166136261
        for c in b {
            if c >= 0x80 { return nil }
            h = (h ^ UInt32(c)) &* 16777619
        }
        if let a = existingAtom(ascii: b, hash: h) { return a }
        let cell = try! allocateLatin1(length: b.count)
        if b.count > 0 { cell.latin1.update(from: b.baseAddress!, count: b.count) }
        return try! atomize(Value(cell: cell.cell))
    }

    /// The atom whose text is the ASCII bytes `b`, if there is one: the atom table probed with
    /// the hash `StringCell.hash` gives those code units (`hash`, when the caller has it).
    @inline(__always)
    func existingAtom(ascii b: UnsafeBufferPointer<UInt8>, hash: UInt32? = nil) -> UnsafeMutableRawPointer? {
        var h: UInt32 = 2166136261
        if let hash { h = hash } else { for c in b { h = (h ^ UInt32(c)) &* 16777619 } }
        let n = b.count
        return atoms.find(hash: h) { cell in
            let s = StringCell(cell)
            if s.length != n { return false }
            if s.is16Bit {
                for i in 0..<n where s.utf16[i] != UInt16(b[i]) { return false }
                return true
            }
            return n == 0 || memcmp(s.latin1, b.baseAddress!, n) == 0
        }
    }

    func sweepAtoms() {
        let before = atoms.byteSize
        atoms.filter { header($0).pointee.marked != 0 }
        heap.adjustExternal(atoms.byteSize - before)
    }

    /// Extra tracing/finalization for kinds whose words hold Swift-side state (maps, sets, ...).
    var kindTraceHooks = [((JSObject, inout Heap.Marker) -> Void)?](repeating: nil, count: 256)
    var kindFinalizeHooks = [((JSObject) -> Void)?](repeating: nil, count: 256) {
        didSet {
            for (k, hook) in kindFinalizeHooks.enumerated() where hook != nil && k < 64 {
                heap.finalizeAlways |= 1 << UInt64(k)
            }
        }
    }
    static func kindBit(_ kind: CellKind) -> UInt64 { 1 << UInt64(kind.rawValue) }

    /// Installed by the interpreter: calls a function value.
    public var callHook: ((Value, Value, UnsafeBufferPointer<Value>) throws(JSException) -> Value)?
    /// Installed by the realm: ToPrimitive on objects.
    public var toPrimitiveHook: ((Value, PreferredType) throws(JSException) -> Value)?
    /// Installed with the number library: exact conversions.
    public var stringToNumberHook: (([UInt16]) -> Double)?
    public var numberToStringHook: ((Double) -> String)?
    public var numberToRadixHook: ((Double, Int) -> String)?
    public var toFixedHook: ((Double, Int) -> String)?
    public var parseFloatHook: (([UInt16]) -> Double)?
    public var parseIntHook: (([UInt16], Int) -> Double)?
    /// Where `console.log`/`print` and `console.error` write (default: stdout).
    public var outputHook: ((String) -> Void)?
    public var errorOutputHook: ((String) -> Void)?
    var randomState: UInt64 = 0
    var joinStack: [UnsafeMutableRawPointer] = []
    var inspectStack: [UnsafeMutableRawPointer] = []

    // MARK: - Errors (filled in by the realm)

    var makeErrorHook: ((ErrorType, String) throws(JSException) -> Value)?

    public enum ErrorType: String { case error = "Error", typeError = "TypeError", rangeError = "RangeError",
                                    syntaxError = "SyntaxError", referenceError = "ReferenceError",
                                    evalError = "EvalError", uriError = "URIError"
        static let count = 7
        /// 0..<count, for tables indexed by error type.
        var index: Int {
            switch self {
            case .error: return 0
            case .typeError: return 1
            case .rangeError: return 2
            case .syntaxError: return 3
            case .referenceError: return 4
            case .evalError: return 5
            case .uriError: return 6
            }
        }
    }

    public func makeError(_ type: ErrorType, _ message: String) throws(JSException) -> JSException {
        guard let hook = makeErrorHook else { return JSException(value: try makeString("\(type.rawValue): \(message)")) }
        return JSException(value: try hook(type, message))
    }

    public func typeError(_ message: String) throws(JSException) -> JSException { try makeError(.typeError, message) }
    public func rangeError(_ message: String) throws(JSException) -> JSException { try makeError(.rangeError, message) }
    public func referenceError(_ message: String) throws(JSException) -> JSException { try makeError(.referenceError, message) }

    // MARK: - GC hooks (filled in by the object model)

    func trace(_ cell: UnsafeMutableRawPointer, _ marker: inout Heap.Marker) {
        let kind = header(cell).pointee.kind
        switch kind {
        case .string, .bigint, .free:
            return
        case .rope:
            let r = RopeCell(cell)
            marker.mark(cell: r.left)
            marker.mark(cell: r.right)
        default:
            traceObject(cell, kind, &marker)
        }
    }

    func finalize(_ cell: UnsafeMutableRawPointer) {
        let kind = header(cell).pointee.kind
        switch kind {
        case .string, .rope, .bigint, .free, .symbol:
            return
        default:
            finalizeObject(cell, kind)
        }
    }
}
