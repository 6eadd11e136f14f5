// The bytecode interpreter: a loop over unsafe pointers into the instruction stream and
// one contiguous register file. JS-to-JS calls push a frame and continue in the same
// loop (no Swift recursion); native code that calls back into JS re-enters `run` with
// an entry depth, bounded by `maxNativeDepth`. Exceptions unwind through each code
// block's handler table.

import JSSyntax
import JSBytecode
import JSBytecompiler
import JSRegExp
import CSableSupport

/// A regular-expression literal site of a code block: its program (retained) and the
/// source and flags strings, made at its first evaluation; later evaluations only
/// allocate the object.
struct RegExpLiteralSite {
    var program: Unmanaged<RegExpProgram>?
    var pattern = Value.undefined
    var flags = Value.undefined
}

/// Per-code-block runtime data: instructions, materialized constants, atoms, caches.
final class CodeData {
    /// What machine code reads when it calls this code (JITHooks.swift). The first stored
    /// property: machine code finds it one word past the object header (the JIT checks
    /// that it is there, `JITCodeView.calleeInfoOffset`, before it relies on it).
    let calleeInfo: UnsafeMutablePointer<JITCalleeInfo>
    let code: CodeBlock
    let instructions: UnsafeMutablePointer<Int32>
    let constants: UnsafeMutablePointer<Value>
    let atoms: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    let caches: UnsafeMutablePointer<InlineCache>
    /// The function name as a JS string (made once; marked with the constants).
    var nameValue = Value.empty
    let constantCount: Int
    let atomCount: Int
    /// Copies of the code block's frame facts, read by every call (`pushFrame`) from this
    /// object, which the call has just loaded, instead of from the code block.
    let parameterCount: Int
    let registerCount: Int
    let functionEnvironmentSize: Int
    let kind: FunctionKind
    let isStrict: Bool
    /// Decoded environment layouts by tag (see Eval.swift).
    var layouts: [Int: ScopeLayout] = [:]
    /// The collection that last found it in use (`Runtime.markCodeData`); code nothing
    /// refers to is dropped by `sweepCodeData`.
    var markedIn = -1
    /// What this code counts toward `--max-heap` (given back when it is dropped).
    var externalBytes = 0
    /// The baseline JIT (JITHooks.swift): calls plus loop back edges seen while
    /// interpreted, whether it was compiled, the machine code's entry.
    var hotness: Int32 = 0
    var jitState = JITState.interpreted
    var jitBody: JITBody?
    /// The code data of callees this code's machine code calls as known callees
    /// (`JITKnownCallee`): held so that their addresses, which the machine code compares
    /// with, are never reused while it may run. Emptied when this code data is dropped.
    var jitLinked: [CodeData] = []
    var jitEntry: JITEntry? { jitBody?.entry }
    /// Regular-expression literal sites by pattern constant index (allocated at the first
    /// `newRegExp`; nil entries until evaluated).
    var regexpSites: UnsafeMutablePointer<RegExpLiteralSite>?

    /// The realm the code runs in (GetFunctionRealm of its functions; Realms.swift) and
    /// its `Realm.key`, which every call compares with the current realm's.
    unowned(unsafe) let realm: Realm
    let realmKey: UInt

    init(code: CodeBlock, realm: Realm) {
        self.code = code
        self.realm = realm
        realmKey = realm.key
        let ins = UnsafeMutablePointer<Int32>.allocate(capacity: max(code.instructions.count, 1))
        code.instructions.withUnsafeBufferPointer { b in
            if let base = b.baseAddress { ins.initialize(from: base, count: b.count) }
        }
        instructions = ins
        constantCount = code.constants.count
        constants = .allocate(capacity: max(constantCount, 1))
        constants.initialize(repeating: .empty, count: max(constantCount, 1))
        atomCount = code.atoms.count
        atoms = .allocate(capacity: max(atomCount, 1))
        atoms.initialize(repeating: nil, count: max(atomCount, 1))
        caches = .allocate(capacity: max(code.inlineCacheCount, 1))
        caches.initialize(repeating: InlineCache(), count: max(code.inlineCacheCount, 1))
        parameterCount = code.parameterCount
        registerCount = code.registerCount
        functionEnvironmentSize = code.functionEnvironmentSize
        kind = code.kind
        isStrict = code.isStrict
        calleeInfo = .allocate(capacity: 1)
        calleeInfo.initialize(to: JITCalleeInfo(
            entry: 0, table: 0, parameterCount: Int32(code.parameterCount), registerCount: Int32(code.registerCount),
            flags: (code.kind == .arrow || code.functionEnvironmentSize > 0 ? JITCalleeInfo.needsStub : 0)
                | (code.isStrict ? JITCalleeInfo.strict : 0)))
    }

    deinit {
        calleeInfo.deallocate()
        instructions.deallocate()
        constants.deallocate()
        atoms.deallocate()
        caches.deallocate()
        if let sites = regexpSites {
            for i in 0..<max(constantCount, 1) { sites[i].program?.release() }
            sites.deallocate()
        }
    }

    func mark(_ m: inout Heap.Marker) {
        m.mark(constants, count: constantCount)
        for i in 0..<atomCount { m.mark(cell: atoms[i]) }
        m.mark(nameValue)
        if let sites = regexpSites {
            for i in 0..<constantCount where sites[i].program != nil { m.mark(sites[i].pattern); m.mark(sites[i].flags) }
        }
        for i in 0..<code.inlineCacheCount {
            m.mark(cell: caches[i].shape); m.mark(cell: caches[i].newShape)
            if caches[i].holder != Runtime.lexicalHolder { m.mark(cell: caches[i].holder) }
        }
    }
}

/// A monomorphic property cache: the receiver's shape and where the value was found.
/// Own properties: `holder` and `newShape` nil. Inherited: `holder` is the prototype that
/// holds the property, valid while `epoch == Runtime.protoEpoch`. Property additions
/// (stores): `newShape` is the shape after the transition, also guarded by the epoch.
/// The collector marks the cells a cache names, so a cached shape's address is never reused.
struct InlineCache {
    var shape: UnsafeMutableRawPointer? = nil
    var holder: UnsafeMutableRawPointer? = nil
    var newShape: UnsafeMutableRawPointer? = nil
    var slot: Int32 = 0
    var epoch: UInt32 = 0
}

/// The second-level property cache, shared by every site (V8's stub cache): a miss in a
/// site's own cache looks here by (receiver shape, key, load or store) before walking the
/// chain, so polymorphic and megamorphic sites stay off the slow path. Entries hold what a
/// site cache holds; they do not keep shapes alive, so the table is cleared at every
/// collection.
struct SharedCacheEntry {
    var key: UInt64 = 0
    var cache = InlineCache()
}

extension Runtime {
    public static let sharedCacheSize = 4096
    /// The shared cache's hash (machine code computes the same, `JITSharedCache`).
    public static let sharedCacheKeyMultiplier: UInt64 = 0x9E37_79B9_7F4A_7C15

    @inline(__always)
    func sharedCacheEntry(_ shape: UnsafeMutableRawPointer, _ key: UInt64) -> UnsafeMutablePointer<SharedCacheEntry> {
        let h = (UInt64(UInt(bitPattern: shape)) ^ (key &* Runtime.sharedCacheKeyMultiplier)) >> 4
        return sharedCache + Int(truncatingIfNeeded: h ^ (h >> 17)) & (Runtime.sharedCacheSize - 1)
    }

    func clearSharedCache() {
        sharedCache.update(repeating: SharedCacheEntry(), count: Runtime.sharedCacheSize)
    }
}

struct Frame {
    var data: Unmanaged<CodeData>
    var pc: Int
    var base: UnsafeMutablePointer<Value>
    /// First register past this frame (registers + overflow arguments).
    var top: UnsafeMutablePointer<Value>
    var argc: Int
    var this: Value
    var callee: Value
    var newTarget: Value
    var env: UnsafeMutableRawPointer?
    var envDepth: Int
    /// Where the caller wants the result (-1: this frame was entered from native code).
    var returnRegister: Int
    var isConstruct: Bool
    var exception: Value
    /// The home object for `super` lookups.
    var home: Value
    /// The context environment [this, new.target, home, function] that the arrows created in
    /// this frame share; in a derived constructor `super()` stores `this` into it, so arrows
    /// made before `super()` see the bound `this`.
    var thisBox: UnsafeMutableRawPointer? = nil
}

extension Runtime {
    static let registerFileSize = 1 << 20
    static let maxNativeDepth = 10_000

    // MARK: - Entry points

    /// Parses, compiles and runs a script in the current realm; returns its completion value.
    public func evaluateScript(_ source: SourceFile, strict: Bool = false) throws(JSException) -> Value {
        refreshStackLimit()
        let code = try compileScript(source, strict: strict)
        // The syntax tree of a big script (about 10 bytes per byte of source) is freed by
        // now, but its pages stay in malloc's heap, where the cells (mmap'd blocks) never
        // reuse them: give them back before the script runs.
        if source.bytes.count >= Runtime.releaseAfterCompileBytes { _ = sable_release_free_memory() }
        return try runScript(code)
    }

    /// Scripts from this size (UTF-8 bytes) on give their syntax tree's pages back to the
    /// system after compiling (malloc_trim costs ~0.1 ms per MB of heap).
    static let releaseAfterCompileBytes = 256 << 10

    /// Parses and compiles a script; the syntax tree is gone when this returns.
    func compileScript(_ source: SourceFile, strict: Bool) throws(JSException) -> CodeBlock {
        let program: Program
        do {
            program = try parseScript(source, options: ParseOptions(strict: strict))
        } catch {
            throw try makeError(error.kind == .rangeError ? .rangeError : .syntaxError, error.message, location: "\(error.fileName):\(error.line):\(error.column)")
        }
        let code: CodeBlock
        do {
            code = try Compiler.compileScript(program)
        } catch {
            let (line, column) = source.position(of: error.offset)
            throw try makeError(error.isRangeError ? .rangeError : .syntaxError, error.message, location: "\(source.name):\(line):\(column)")
        }
        return code
    }

    public func makeError(_ type: ErrorType, _ message: String, location: String) throws(JSException) -> JSException {
        let e = try makeError(type, message)
        if isObject(e.value) {
            try put(JSObject(e.value), "stack", try makeString("\(type.rawValue): \(message)\n    at \(location)"))
        }
        return e
    }

    func codeData(_ code: CodeBlock) -> CodeData {
        if let d = code.runtimeData { return unsafeDowncast(d, to: CodeData.self) }
        let d = CodeData(code: code, realm: realm)
        code.runtimeData = d
        let address = UInt(bitPattern: Unmanaged.passRetained(d).toOpaque())
        allCodeData.set(address, 0)
        codeDataLow = min(codeDataLow, address)
        codeDataHigh = max(codeDataHigh, address)
        // Compiled code counts toward `--max-heap` while it is in use (so `eval` in a loop
        // ends in an out-of-memory error when its functions stay alive), estimated as the
        // runtime's copies, twice as much again for the compiler's block (instructions,
        // constants, line table, scope names) and a fixed kilobyte (measured: ~1.2 KB for a
        // small function); `sweepCodeData` gives it back.
        d.externalBytes = 3 * (code.instructions.count * 4 + d.constantCount * 8 + d.atomCount * 8)
            + code.inlineCacheCount * MemoryLayout<InlineCache>.stride + 1024
        heap.adjustExternal(d.externalBytes)
        return d
    }

    func runScript(_ code: CodeBlock) throws(JSException) -> Value {
        let data = codeData(code)
        let base = frames.last.map { $0.top } ?? registers
        let top = base + code.registerCount
        if top >= registers + Runtime.registerFileSize { throw try rangeError("Maximum call stack size exceeded") }
        for i in 0..<code.registerCount { base[i] = .undefined }
        frames.append(Frame(data: Unmanaged.passUnretained(data), pc: 0, base: base, top: top, argc: 0,
                            this: Value(cell: realm.global.cell), callee: .undefined, newTarget: .undefined,
                            env: nil, envDepth: 0, returnRegister: -1, isConstruct: false, exception: .undefined, home: .undefined))
        return try run(entryDepth: frames.count - 1)
    }

    /// The native-stack check (`StackGuard`): every place where the runtime recurses on the
    /// native stack — native calls and constructs, bound functions, recursive builtins —
    /// calls this first. The limit is the current thread's (`refreshStackLimit`).
    @inline(__always) func checkStack() throws(JSException) {
        if !StackGuard.hasRoom(stackLimit) { throw try stackOverflow() }
    }

    @inline(never) func stackOverflow() throws(JSException) -> JSException {
        // Throwing needs some stack: the error object is made with the margin to spare.
        try rangeError("Maximum call stack size exceeded")
    }

    /// Takes the limit of the thread that is about to run this runtime (a runtime may be
    /// used from one thread at a time, not always the same one).
    func refreshStackLimit() {
        if frames.count == 0 && nativeDepth == 0 { stackLimit = StackGuard.limit() }
    }

    /// Calls a function value from native code.
    func callFunction(_ f: Value, this: Value, _ args: UnsafeBufferPointer<Value>, newTarget: Value = .undefined) throws(JSException) -> Value {
        guard f.isCell else { throw try typeError("\(try describeForError(f)) is not a function") }
        try checkStack()
        let o = JSObject(f)
        switch o.kind {
        case .nativeFunction:
            if nativeDepth >= Runtime.maxNativeDepth { throw try rangeError("Maximum call stack size exceeded") }
            nativeDepth += 1
            defer { nativeDepth -= 1 }
            nativeCallee = f
            return try natives.call(Int(o.word(0)), self, this, args, newTarget)
        case .function:
            if nativeDepth >= Runtime.maxNativeDepth { throw try rangeError("Maximum call stack size exceeded") }
            nativeDepth += 1
            defer { nativeDepth -= 1 }
            let base = frames.last.map { $0.top } ?? registers
            if try pushFrame(function: o, this: this, args: args, base: base, returnRegister: -1, newTarget: newTarget) {
                return try run(entryDepth: frames.count - 1)
            }
            // A function of another realm: run it in its realm.
            return try callInRealm(functionCodeData(o).realm) { () throws(JSException) -> Value in
                try pushFrame(function: o, this: this, args: args, base: base, returnRegister: -1, newTarget: newTarget)
                return try run(entryDepth: frames.count - 1)
            }
        case .boundFunction:
            return try callBound(o, args, newTarget: newTarget)
        case .proxy where o.flags & ProxyFlags.callable != 0:
            if !newTarget.isUndefined { return try proxyConstruct(o, args, newTarget: newTarget) }
            return try proxyCall(o, this: this, args)
        default:
            throw try typeError("\(try describeForError(f)) is not a function")
        }
    }

    /// Construct(f, args, newTarget).
    func construct(_ f: Value, _ args: UnsafeBufferPointer<Value>, newTarget: Value) throws(JSException) -> Value {
        try checkStack()
        guard f.isCell, isObject(f), JSObject(f).flags & ObjectFlags.constructor != 0 else {
            throw try typeError("\(try describeForError(f)) is not a constructor")
        }
        let o = JSObject(f)
        switch o.kind {
        case .function:
            let code = functionCodeData(o).code
            if code.isDefaultDerivedConstructor { return try defaultDerivedConstruct(o, args, newTarget: newTarget) }
            let thisValue = try constructThis(o, code.kind, newTarget: newTarget)
            return try callFunction(f, this: thisValue, args, newTarget: newTarget)
        case .nativeFunction, .boundFunction:
            return try callFunction(f, this: .undefined, args, newTarget: newTarget)
        case .proxy:
            return try proxyConstruct(o, args, newTarget: newTarget)
        default:
            throw try typeError("not a constructor")
        }
    }

    /// The initial `this` of [[Construct]]: a new object (fields initialized) or, in a
    /// derived constructor, uninitialized until super() returns.
    /// `kind` is the constructor's `CodeBlock.kind` (a value: no reference held across the call).
    func constructThis(_ f: JSObject, _ kind: FunctionKind, newTarget: Value) throws(JSException) -> Value {
        if kind == .derivedConstructor { return .empty }
        let obj = try ordinaryCreateFromConstructor(newTarget)
        if kind == .classConstructor {
            heap.pushRoot(Value(cell: obj.cell))
            defer { heap.popRoots(1) }
            try initializeFields(f, Value(cell: obj.cell))
        }
        return Value(cell: obj.cell)
    }

    /// Runs a class's instance field initializer on a new instance.
    func initializeFields(_ f: JSObject, _ instance: Value) throws(JSException) {
        guard let k = realm.classFieldsKey, let entry = ShapeCell(f.shape).lookup(k) else { return }
        let initializer = f.slot(entry.slot)
        _ = try callFunction(initializer, this: instance, UnsafeBufferPointer(start: nil, count: 0))
    }

    /// A derived class's implicit constructor: `constructor(...args) { super(...args) }`.
    func defaultDerivedConstruct(_ f: JSObject, _ args: UnsafeBufferPointer<Value>, newTarget: Value) throws(JSException) -> Value {
        let parent = f.prototype
        guard isObject(parent), JSObject(parent).flags & ObjectFlags.constructor != 0 else {
            throw try typeError("Super constructor \(try describeForError(parent)) of anonymous class is not a constructor")
        }
        let result = try construct(parent, args, newTarget: newTarget)
        heap.pushRoot(result)
        defer { heap.popRoots(1) }
        try initializeFields(f, result)
        return result
    }

    /// OrdinaryCreateFromConstructor with %Object.prototype% as the fallback.
    func ordinaryCreateFromConstructor(_ newTarget: Value, fallback: JSObject? = nil) throws(JSException) -> JSObject {
        let proto = try prototypeProperty(JSObject(newTarget))
        if isObject(proto) {
            // Instances of one constructor share a root shape; size them for the fields
            // earlier instances ended up with (slack tracking).
            let root = try proto.asCell == realm.objectPrototype.cell ? realm.objectShape! : rootShape(for: proto)
            let slots = max(JSObject.defaultInlineSlots, ShapeCell(root).info.expectedSlots)
            return try allocateObject(.object, shape: root, inlineSlots: slots)
        }
        return try newObject(prototype: correspondingIntrinsic(fallback ?? realm.objectPrototype, in: try functionRealm(newTarget)))
    }

    func callBound(_ o: JSObject, _ args: UnsafeBufferPointer<Value>, newTarget: Value) throws(JSException) -> Value {
        try checkStack()
        let target = o.extraValue(0)
        let boundThis = o.extraValue(1)
        let bound = UnsafeMutablePointer<Value>(bitPattern: UInt(o.word(2)))
        let boundCount = bound.map { Int($0.pointee.bits) } ?? 0
        return try withUnsafeTemporaryAllocation(of: Value.self, capacity: boundCount + args.count) { buf throws(JSException) in
            for i in 0..<boundCount { buf[i] = bound![1 + i] }
            for i in 0..<args.count { buf[boundCount + i] = args[i] }
            let all = UnsafeBufferPointer(start: buf.baseAddress, count: boundCount + args.count)
            if !newTarget.isUndefined {
                let nt = newTarget.bits == Value(cell: o.cell).bits ? target : newTarget
                return try construct(target, all, newTarget: nt)
            }
            return try callFunction(target, this: boundThis, all)
        }
    }

    // MARK: - Frames

    /// Sets up a frame for a bytecode function at `base`.
    /// Returns false, pushing nothing, when the function belongs to another realm than the
    /// current one: the caller calls it through `callFunction`, which enters its realm.
    @discardableResult
    func pushFrame(function o: JSObject, this: Value, args: UnsafeBufferPointer<Value>, base: UnsafeMutablePointer<Value>,
                   returnRegister: Int, newTarget: Value) throws(JSException) -> Bool {
        unowned(unsafe) let data = functionCodeData(o)
        if data.realmKey != realmKey { return false }
        if o.flags & ObjectFlags.classConstructor != 0 && newTarget.isUndefined {
            throw try typeError("Class constructor \(data.code.name) cannot be invoked without 'new'")
        }
        let p = data.parameterCount
        let r = data.registerCount
        let overflow = max(0, args.count - p)
        let top = base + r + overflow
        if top >= registers + Runtime.registerFileSize || frames.count >= FrameStack.capacity - 1 {
            throw try rangeError("Maximum call stack size exceeded")
        }
        // Arguments may overlap the new frame (they sit at the caller's top): copy up first.
        if overflow > 0 { for i in 0..<overflow { base[r + i] = args[p + i] } }
        let n = min(args.count, p)
        if let a = args.baseAddress, a != UnsafePointer(base) {
            for i in 0..<n { base[i] = a[i] }
        }
        if n < r { for i in n..<r { base[i] = .undefined } }
        var thisValue = this
        var newTargetValue = newTarget
        var home = Value.undefined
        let kind = data.kind
        if kind == .arrow {
            // Lexical this/new.target/home object captured at closure creation.
            if o.word(2) != 0, let ctx = UnsafeMutableRawPointer(bitPattern: UInt(o.word(2))),
               header(ctx).pointee.kind == .environment {
                thisValue = Environment(ctx).slots[0]
                newTargetValue = Environment(ctx).slots[1]
                home = Environment(ctx).slots[2]
            }
        } else {
            if o.word(2) != 0 { home = o.extraValue(2) }
        }
        if kind != .arrow && !data.isStrict {
            if this.isNullish { thisValue = Value(cell: realm.global.cell) }
            else if !isObject(this) { thisValue = Value(cell: try toObject(this).cell) }
        }
        var env = UnsafeMutableRawPointer(bitPattern: UInt(o.word(1)))
        if data.functionEnvironmentSize > 0 {
            let e = try makeEnvironment(parent: env, count: data.functionEnvironmentSize)
            e.layout = data.layoutWord(Runtime.functionLayoutTag)
            env = e.cell
        }
        frames.append(Frame(data: Unmanaged.passUnretained(data), pc: 0, base: base, top: top, argc: args.count,
                            this: thisValue, callee: Value(cell: o.cell), newTarget: newTargetValue,
                            env: env, envDepth: 0, returnRegister: returnRegister,
                            isConstruct: !newTarget.isUndefined && kind != .arrow, exception: .undefined, home: home))
        return true
    }

    /// The function's CodeData unretained (`_withUnsafeGuaranteedRef` reads it without ARC).
    @inline(__always) func functionCodeDataRef(_ o: JSObject) -> Unmanaged<CodeData> {
        Unmanaged<CodeData>.fromOpaque(UnsafeRawPointer(bitPattern: UInt(o.functionWord(0)))!)
    }

    func functionCodeData(_ o: JSObject) -> CodeData {
        // Word 0 holds the function's CodeData (unretained; owned by `allCodeData`, kept
        // there while the function lives: `traceKindSpecific` marks it).
        let raw = UnsafeRawPointer(bitPattern: UInt(o.functionWord(0)))!
        return Unmanaged<CodeData>.fromOpaque(raw).takeUnretainedValue()
    }

    // MARK: - Closures

    func makeClosure(_ code: CodeBlock, env: UnsafeMutableRawPointer?, frame: Frame) throws(JSException) -> Value {
        let isArrow = code.kind == .arrow
        let isMethod = code.kind == .method || code.kind == .getter || code.kind == .setter
        let shape = code.isGenerator ? (code.isAsync ? realm.asyncGeneratorFunctionShape! : realm.generatorFunctionShape!)
            : code.isAsync ? realm.asyncFunctionShape! : isArrow || isMethod ? realm.arrowShape! : realm.functionShape!
        if let e = env { heap.pushRoot(Value(cell: e)) }
        defer { if env != nil { heap.popRoots(1) } }
        var context: UnsafeMutableRawPointer? = nil
        if isArrow && code.capturesThis {
            if let box = frame.thisBox {
                context = box
            } else if let box = arrowContext(of: frame) {
                context = box   // an arrow inside an arrow: the same lexical this
            } else {
                let ctx = try makeEnvironment(parent: nil, count: 4)
                ctx.slots[0] = frame.this
                ctx.slots[1] = frame.newTarget
                ctx.slots[2] = frame.home
                ctx.slots[3] = frame.callee
                context = ctx.cell
                // The frame is the current (top) one: later arrows share the box.
                if frames.count > 0 { frames.pointer(frames.count - 1).pointee.thisBox = ctx.cell }
            }
            heap.pushRoot(Value(cell: context!))
        }
        defer { if context != nil { heap.popRoots(1) } }
        let data = codeData(code)
        if data.nameValue.isEmpty { data.nameValue = try makeString(code.name) }
        let hasPrototype = code.isGenerator || (!isArrow && !isMethod && !code.isAsync && code.kind == .normal)
        // Functions are born with their final shape: length, name (and prototype) in
        // slots 0, 1 (and 2), so no property definitions run per closure.
        let fullShape = try closureShape(shape, withPrototype: hasPrototype)
        let f = try allocateObject(.function, shape: fullShape, inlineSlots: ObjectLayout.functionInlineSlots)
        // Unretained: `allCodeData` keeps the CodeData while a function refers to it.
        f.setWord(0, UInt64(UInt(bitPattern: Unmanaged.passUnretained(data).toOpaque())))
        f.setWord(1, UInt64(UInt(bitPattern: env)))
        f.setWord(2, context.map { UInt64(UInt(bitPattern: $0)) } ?? 0)
        f.setSlot(0, Value(code.length))
        f.setSlot(1, data.nameValue)
        if hasPrototype { f.setSlot(2, .undefined) }
        heap.pushRoot(Value(cell: f.cell))
        defer { heap.popRoots(1) }
        let fv = Value(cell: f.cell)
        if code.isGenerator {
            let proto = try newObject(prototype: code.isAsync ? realm.asyncGeneratorPrototype : realm.generatorPrototype)
            f.setSlot(2, Value(cell: proto.cell))
        } else if hasPrototype {
            f.flags |= ObjectFlags.constructor
            let proto = try allocateObject(.object, shape: try prototypeObjectShape())
            proto.setSlot(0, fv)
            f.setSlot(2, Value(cell: proto.cell))
        }
        return fv
    }

    /// The context environment of the arrow running in `frame`, if it is one that has it.
    func arrowContext(of frame: Frame) -> UnsafeMutableRawPointer? {
        guard frame.callee.isCell, header(frame.callee.asCell).pointee.kind == .function else { return nil }
        let f = JSObject(frame.callee)
        guard f.word(2) != 0, let ctx = UnsafeMutableRawPointer(bitPattern: UInt(f.word(2))),
              header(ctx).pointee.kind == .environment, functionCodeData(f).code.kind == .arrow else { return nil }
        return ctx
    }

    /// The current `this` of a frame: a derived constructor's (or its arrows') binding may
    /// have been made by `super()` after the frame copied it.
    func boundThis(_ fp: UnsafeMutablePointer<Frame>) -> Value {
        let t = fp.pointee.this
        if !t.isEmpty { return t }
        if let box = fp.pointee.thisBox ?? arrowContext(of: fp.pointee) {
            let v = Environment(box).slots[0]
            fp.pointee.this = v
            return v
        }
        return t
    }

    /// `root` + length, name (+ prototype): the shape of new closures (cached, strong).
    func closureShape(_ root: UnsafeMutableRawPointer, withPrototype: Bool) throws(JSException) -> UnsafeMutableRawPointer {
        let cacheKey = UInt64(UInt(bitPattern: root)) | (withPrototype ? 1 : 0)
        if let s = closureShapes.get(cacheKey) { return UnsafeMutableRawPointer(bitPattern: UInt(s))! }
        var s = try addPropertyTransition(root, key: PropertyKey(cell: atom(static: "length")), attributes: [.configurable])
        s = try addPropertyTransition(s, key: PropertyKey(cell: atom(static: "name")), attributes: [.configurable])
        if withPrototype { s = try addPropertyTransition(s, key: PropertyKey(cell: atom(static: "prototype")), attributes: [.writable]) }
        precondition(ShapeCell(s).lookup(PropertyKey(cell: atom(static: "name")))?.slot == 1)
        closureShapes.set(cacheKey, UInt64(UInt(bitPattern: s)))
        closureShapeList.append(s)
        if withPrototype && root == realm.functionShape { plainFunctionShape = s }
        return s
    }

    /// %Object.prototype% + constructor (writable, configurable): a function's prototype object.
    func prototypeObjectShape() throws(JSException) -> UnsafeMutableRawPointer {
        if let s = realm.prototypeShape { return s }
        let s = try addPropertyTransition(realm.objectShape, key: PropertyKey(cell: atom(static: "constructor")), attributes: .hidden)
        realm.prototypeShape = s
        return s
    }
}

extension Runtime {
    /// Marks the live registers and frame state.
    func markFrames(_ m: inout Heap.Marker) {
        m.mark(jitPendingException)
        if let last = frames.last {
            let count = registers.distance(to: last.top)
            m.mark(registers, count: count)
        }
        for f in frames {
            m.mark(f.this); m.mark(f.callee); m.mark(f.newTarget); m.mark(f.exception)
            m.mark(cell: f.thisBox)
            m.mark(cell: f.env)
            unowned(unsafe) let d = f.data.takeUnretainedValue()
            markCodeData(d, &m)
        }
    }

    // MARK: - Code lifetime

    /// Marks a code block's runtime data (constants, atoms, cached shapes) once per
    /// collection. Code is in use while a frame runs it, a function object or a scope
    /// layout names it, or a native local holds it (found by the conservative stack scan).
    @inline(__always)
    func markCodeData(_ d: CodeData, _ m: inout Heap.Marker) {
        let epoch = heap.collections
        if d.markedIn == epoch { return }
        d.markedIn = epoch
        d.mark(&m)
    }

    /// Marks the code data at `address` if it is one (a word of the native stack).
    func markCodeData(atAddress address: UInt, _ m: inout Heap.Marker) {
        // Most stack words (return addresses, stack pointers, small integers) fall outside
        // the range any CodeData was allocated in: no hashing for them.
        guard address >= codeDataLow && address <= codeDataHigh else { return }
        if allCodeData.contains(address) { markCodeData(Runtime.codeData(atAddress: address), &m) }
    }

    /// After marking: code data no collection root reached is dropped (its CodeBlock may
    /// be compiled again later, with fresh caches). Breaks the CodeData <-> CodeBlock
    /// reference cycle so both are freed.
    func sweepCodeData() {
        let epoch = heap.collections
        var dead: [UInt] = []
        allCodeData.forEach { address, _ in
            if Runtime.codeData(atAddress: address).markedIn != epoch { dead.append(address) }
        }
        for address in dead {
            allCodeData.remove(address)
            let d = Runtime.codeData(atAddress: address)
            d.code.runtimeData = nil
            heap.releaseExternal(d.externalBytes)
            releaseJIT(d)
            d.jitLinked = []
            Unmanaged.passUnretained(d).release()
        }
    }

    /// The CodeData at `address`, a key of `allCodeData` (which keeps it alive).
    @inline(__always)
    static func codeData(atAddress address: UInt) -> CodeData {
        Unmanaged<CodeData>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).takeUnretainedValue()
    }
}

extension Runtime {
    /// ClassDefinitionEvaluation's object creation: the constructor F and its prototype.
    func makeClass(_ code: CodeBlock, heritage: Value?, env: UnsafeMutableRawPointer?, frame: Frame) throws(JSException) -> (Value, Value) {
        var protoParent = Value(cell: realm.objectPrototype.cell)
        var ctorParent = Value(cell: realm.functionPrototype.cell)
        if let h = heritage {
            if h.isNull {
                protoParent = .null
            } else {
                guard isObject(h), JSObject(h).flags & ObjectFlags.constructor != 0 else {
                    throw try typeError("Class extends value \(try describeForError(h)) is not a constructor or null")
                }
                let p = try get(JSObject(h), key(static: "prototype"), receiver: h)
                guard isObject(p) || p.isNull else {
                    throw try typeError("Class extends value does not have valid prototype property")
                }
                protoParent = p
                ctorParent = h
            }
        }
        let proto = try newObject(prototypeValue: protoParent)
        heap.pushRoot(Value(cell: proto.cell))
        defer { heap.popRoots(1) }
        let fv = try makeClosure(code, env: env, frame: frame)
        let f = JSObject(fv)
        heap.pushRoot(fv)
        defer { heap.popRoots(1) }
        f.flags |= ObjectFlags.constructor | ObjectFlags.classConstructor
        if heritage != nil { f.flags |= ObjectFlags.derived }
        f.setWord(2, UInt64(UInt(bitPattern: proto.cell)))   // home object
        _ = try setPrototype(f, ctorParent)
        try defineOwnProperty(f, key(static: "prototype"), .data(Value(cell: proto.cell), []))
        try defineOwnProperty(proto, key(static: "constructor"), .data(fv, .hidden))
        return (fv, Value(cell: proto.cell))
    }
}
