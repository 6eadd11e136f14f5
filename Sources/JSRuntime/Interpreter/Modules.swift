// Modules: loading, linking and evaluating module graphs (Cyclic Module Records with
// the spec's depth-first Link/Evaluate, top-level await), module namespace objects,
// dynamic `import()`, `import.meta` and JSON modules
// (https://tc39.es/ecma262/#sec-cyclic-module-records).
//
// The host supplies module sources through `Runtime.moduleLoader` (a specifier and the
// referrer's key in, a canonical key and the bytes out); the runtime keeps one record
// per key and never frees them (a module lives as long as its realm). Loading is
// synchronous: the whole static graph is fetched, parsed and compiled before linking.

import JSSyntax
import JSBytecode
import JSBytecompiler

/// A module's source as the host found it.
public struct ModuleSource {
    /// The canonical name (a path): every request resolving to it shares one module.
    public var key: String
    public var bytes: [UInt8]
    public init(key: String, bytes: [UInt8]) { self.key = key; self.bytes = bytes }
}

/// Why the host could not provide a module (the message names the specifier or path).
public struct ModuleLoadFailure: Error {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// Resolves `specifier` (imported from the module or script named `referrer`, nil for
/// the host's own requests) and returns its source.
public typealias ModuleLoader = (_ specifier: String, _ referrer: String?) -> Result<ModuleSource, ModuleLoadFailure>

/// A module record: a Source Text Module Record, or a synthetic one for JSON.
public final class ModuleRecord {
    public enum Status { case new, unlinked, linking, linked, evaluating, evaluatingAsync, evaluated }

    public let key: String
    let id: Int
    public internal(set) var status = Status.new
    /// nil for a JSON module (whose one export `default` is `jsonValue`).
    let compiled: CompiledModule?
    var jsonValue = Value.undefined
    var requested: [ModuleRecord] = []
    var environment: UnsafeMutableRawPointer?
    var namespace: Value = .undefined
    /// The namespace's exports, sorted, with what each resolves to.
    var namespaceExports: [(name: String, resolution: ExportResolution)] = []
    /// `getImport index`: where each named import reads.
    var importCells: [ExportResolution] = []
    var evaluationError: Value?
    /// A load error of this module or a dependency: later requests fail the same way.
    var loadError: Value?
    var meta: Value = .undefined
    // Link/Evaluate state.
    var dfsIndex = 0, dfsAncestorIndex = 0
    weak var cycleRoot: ModuleRecord?
    var hasTLA: Bool { compiled?.info.hasTopLevelAwait ?? false }
    var asyncEvaluation = false
    var asyncOrder = 0
    var asyncParents: [ModuleRecord] = []
    var pendingAsyncDependencies = 0
    /// The top-level capability of Evaluate() (promise, resolve, reject).
    var capability: (Value, Value, Value)?

    init(key: String, id: Int, compiled: CompiledModule?) {
        self.key = key; self.id = id; self.compiled = compiled
    }

    var isCyclic: Bool { compiled != nil }
}

/// ResolveExport's answer.
enum ExportResolution {
    case binding(ModuleRecord, slot: Int)
    case namespace(ModuleRecord)
    case notFound
    case ambiguous

    func same(_ other: ExportResolution) -> Bool {
        switch (self, other) {
        case (.binding(let a, let s), .binding(let b, let t)): return a === b && s == t
        case (.namespace(let a), .namespace(let b)): return a === b
        default: return false
        }
    }
}

/// The runtime's modules.
final class ModuleRegistry {
    var byKey: [String: ModuleRecord] = [:]
    var records: [ModuleRecord] = []
    /// Namespace objects (by cell address) -> their module.
    var namespaces: [UInt: ModuleRecord] = [:]
    var asyncCounter = 0
    var fulfilledIndex = 0, rejectedIndex = 0, importFulfilledIndex = 0, importRejectedIndex = 0, importStartIndex = 0
}

extension ObjectFlags {
    /// A module namespace exotic object (kind `.object`): its exports are answered by
    /// `namespaceOwnProperty`, not stored in slots.
    /// A module namespace object: an exotic object (`ObjectFlags.exotic`) of kind `.object`
    /// (proxies and typed arrays, the other exotic objects, have kinds of their own).
    public static let moduleNamespace: UInt16 = ObjectFlags.exotic
}

extension Runtime {
    var modules: ModuleRegistry {
        if let m = moduleRegistry { return m }
        let m = ModuleRegistry()
        moduleRegistry = m
        heap.addRootMarker { [unowned self] marker in
            guard let reg = self.moduleRegistry else { return }
            for r in reg.records {
                marker.mark(cell: r.environment)
                marker.mark(r.namespace)
                marker.mark(r.jsonValue)
                marker.mark(r.meta)
                if let e = r.evaluationError { marker.mark(e) }
                if let e = r.loadError { marker.mark(e) }
                if let c = r.capability { marker.mark(c.0); marker.mark(c.1); marker.mark(c.2) }
            }
        }
        natives.append { rt, _, args, _ throws(JSException) -> Value in
            let id = Int(JSObject(rt.nativeCallee).extraValue(1).asInt32)
            try rt.asyncModuleFulfilled(rt.modules.records[id])
            _ = args
            return .undefined
        }
        m.fulfilledIndex = natives.count - 1
        natives.append { rt, _, args, _ throws(JSException) -> Value in
            let id = Int(JSObject(rt.nativeCallee).extraValue(1).asInt32)
            try rt.asyncModuleRejected(rt.modules.records[id], rt.arg(args, 0))
            return .undefined
        }
        m.rejectedIndex = natives.count - 1
        // import(): [module id, resolve, reject] in word 1.
        natives.append { rt, _, _, _ throws(JSException) -> Value in
            let state = JSObject(JSObject(rt.nativeCallee).extraValue(1)).elements!
            let ns = try rt.moduleNamespace(rt.modules.records[Int(state[0].asInt32)])
            _ = try rt.call(state[1], this: .undefined, ns)
            return .undefined
        }
        m.importFulfilledIndex = natives.count - 1
        natives.append { rt, _, args, _ throws(JSException) -> Value in
            let state = JSObject(JSObject(rt.nativeCallee).extraValue(1)).elements!
            _ = try rt.call(state[2], this: .undefined, rt.arg(args, 0))
            return .undefined
        }
        m.importRejectedIndex = natives.count - 1
        natives.append { rt, _, _, _ throws(JSException) -> Value in
            try rt.continueDynamicImport(JSObject(JSObject(rt.nativeCallee).extraValue(1)))
            return .undefined
        }
        m.importStartIndex = natives.count - 1
        return m
    }

    // MARK: - Loading

    /// Loads a module and its static dependencies (HostLoadImportedModule for the whole
    /// graph). Throws the error the host, the parser or the compiler reported.
    public func loadModule(_ specifier: String, referrer: String?, attributes: [ModuleAttribute] = []) throws(JSException) -> ModuleRecord {
        var isJSON = false
        for a in attributes {
            guard a.key == "type" else { throw try makeError(.syntaxError, "Import attribute '\(a.key)' is not supported") }
            guard a.value == "json" else { throw try typeError("Module type '\(a.value)' is not supported (only 'json')") }
            isJSON = true
        }
        guard let loader = moduleLoader else {
            throw try typeError("Cannot load module '\(specifier)': this host has no module loader")
        }
        let source: ModuleSource
        switch loader(specifier, referrer) {
        case .success(let s): source = s
        case .failure(let f): throw try makeError(.typeError, f.message)
        }
        let reg = modules
        let mapKey = isJSON ? source.key + "\u{0}json" : source.key
        if let m = reg.byKey[mapKey] {
            if let e = m.loadError { throw JSException(value: e) }
            return m
        }
        let file = SourceFile(name: source.key, bytes: source.bytes)
        let record: ModuleRecord
        if isJSON {
            record = ModuleRecord(key: source.key, id: reg.records.count, compiled: nil)
            let text = try makeString(String(decoding: source.bytes, as: UTF8.self))
            heap.pushRoot(text)
            defer { heap.popRoots(1) }
            reg.records.append(record)
            reg.byKey[mapKey] = record
            do {
                record.jsonValue = try jsonParse(text)
            } catch {
                record.loadError = error.value
                throw error
            }
            return record
        }
        let compiled: CompiledModule
        do {
            let program = try parseModule(file)
            do {
                compiled = try Compiler.compileModule(program)
            } catch {
                let (line, column) = file.position(of: error.offset)
                throw try makeError(error.isRangeError ? .rangeError : .syntaxError, "\(error.message) (\(source.key):\(line):\(column))",
                                    location: "\(source.key):\(line):\(column)")
            }
        } catch let error as ParseError {
            throw try makeError(error.kind == .rangeError ? .rangeError : .syntaxError,
                                "\(error.message) (\(source.key):\(error.line):\(error.column))",
                                location: "\(source.key):\(error.line):\(error.column)")
        } catch let error as JSException {
            throw error
        } catch {
            throw try makeError(.syntaxError, "\(error)")
        }
        record = ModuleRecord(key: source.key, id: reg.records.count, compiled: compiled)
        for code in compiled.allCodeBlocks { code.moduleID = record.id }
        try claim(compiled.initCode)
        try claim(compiled.bodyCode)
        reg.records.append(record)
        reg.byKey[mapKey] = record
        do {
            for request in compiled.info.requests {
                record.requested.append(try loadModule(request.specifier, referrer: source.key, attributes: request.attributes))
            }
        } catch {
            record.loadError = error.value
            throw error
        }
        record.status = .unlinked
        return record
    }

    // MARK: - Exports

    /// GetExportedNames.
    func exportedNames(_ m: ModuleRecord, _ visited: inout [ModuleRecord]) -> [String] {
        guard let info = m.compiled?.info else { return ["default"] }
        if visited.contains(where: { $0 === m }) { return [] }
        visited.append(m)
        var names: [String] = info.localExports.map { $0.exportName } + info.indirectExports.map { $0.exportName }
        for star in info.starExports {
            for n in exportedNames(m.requested[star], &visited) where n != "default" && !names.contains(n) {
                names.append(n)
            }
        }
        return names
    }

    /// ResolveExport.
    func resolveExport(_ m: ModuleRecord, _ name: String, _ resolveSet: inout [(ModuleRecord, String)]) -> ExportResolution {
        guard let compiled = m.compiled else { return name == "default" ? .binding(m, slot: 0) : .notFound }
        if resolveSet.contains(where: { $0.0 === m && $0.1 == name }) { return .notFound }   // a circular import request
        resolveSet.append((m, name))
        let info = compiled.info
        for e in info.localExports where e.exportName == name {
            return .binding(m, slot: compiled.slot(of: e.localName!)!)
        }
        for e in info.indirectExports where e.exportName == name {
            let imported = m.requested[e.request!]
            guard let importName = e.importName else { return .namespace(imported) }
            return resolveExport(imported, importName, &resolveSet)
        }
        if name == "default" { return .notFound }
        var star: ExportResolution = .notFound
        for s in info.starExports {
            let r = resolveExport(m.requested[s], name, &resolveSet)
            switch r {
            case .ambiguous: return .ambiguous
            case .notFound: continue
            default:
                if case .notFound = star { star = r } else if !star.same(r) { return .ambiguous }
            }
        }
        return star
    }

    // MARK: - Link

    /// Link(): InnerModuleLinking over the graph; on error every module it touched goes
    /// back to unlinked.
    public func linkModule(_ m: ModuleRecord) throws(JSException) {
        var stack: [ModuleRecord] = []
        do {
            _ = try innerLink(m, &stack, 0)
        } catch {
            for r in stack { r.status = .unlinked; r.environment = nil }
            throw error
        }
    }

    func innerLink(_ m: ModuleRecord, _ stack: inout [ModuleRecord], _ index: Int) throws(JSException) -> Int {
        guard let compiled = m.compiled else {
            if m.environment == nil {
                let env = try makeEnvironment(parent: nil, count: 1)
                env.slots[0] = m.jsonValue
                m.environment = env.cell
                m.status = .evaluated
            }
            return index
        }
        switch m.status {
        case .linking, .linked, .evaluatingAsync, .evaluated, .evaluating: return index
        default: break
        }
        m.status = .linking
        m.dfsIndex = index
        m.dfsAncestorIndex = index
        var index = index + 1
        stack.append(m)
        for r in m.requested {
            index = try innerLink(r, &stack, index)
            if r.isCyclic && r.status == .linking { m.dfsAncestorIndex = min(m.dfsAncestorIndex, r.dfsAncestorIndex) }
        }
        try initializeEnvironment(m, compiled)
        if m.dfsAncestorIndex == m.dfsIndex {
            while let r = stack.popLast() {
                r.status = .linked
                if r === m { break }
            }
        }
        return index
    }

    func exportError(_ m: ModuleRecord, _ name: String, _ r: ExportResolution, offset: Int32, in importer: ModuleRecord) throws(JSException) -> JSException {
        let where_ = importer.compiled.map { c -> String in
            let (line, column) = c.source.position(of: Int(offset))
            return "\(importer.key):\(line):\(column)"
        } ?? importer.key
        if case .ambiguous = r {
            return try makeError(.syntaxError, "The requested module '\(m.key)' contains conflicting star exports for name '\(name)' (\(where_))", location: where_)
        }
        return try makeError(.syntaxError, "The requested module '\(m.key)' does not provide an export named '\(name)' (\(where_))", location: where_)
    }

    /// InitializeEnvironment: checks the indirect exports, resolves the imports, creates
    /// the environment and runs the module's declaration instantiation.
    func initializeEnvironment(_ m: ModuleRecord, _ compiled: CompiledModule) throws(JSException) {
        let info = compiled.info
        for e in info.indirectExports {
            guard let importName = e.importName else { continue }
            var set: [(ModuleRecord, String)] = []
            let r = resolveExport(m, e.exportName, &set)
            switch r {
            case .notFound, .ambiguous: throw try exportError(m.requested[e.request!], importName, r, offset: e.offset, in: m)
            default: break
            }
        }
        let env = try makeEnvironment(parent: nil, count: compiled.slotNames.count)
        env.layout = codeData(compiled.initCode).layoutWord(Runtime.functionLayoutTag)
        m.environment = env.cell
        for entry in info.imports where entry.importName == nil {
            let ns = try moduleNamespace(m.requested[entry.request])
            env.slots[compiled.slot(of: entry.localName)!] = ns
        }
        m.importCells = []
        for (_, index) in compiled.importNames {
            let entry = info.imports[index]
            let imported = m.requested[entry.request]
            var set: [(ModuleRecord, String)] = []
            let r = resolveExport(imported, entry.importName!, &set)
            switch r {
            case .notFound, .ambiguous: throw try exportError(imported, entry.importName!, r, offset: entry.offset, in: m)
            case .namespace(let target):
                // Materialize it now: reads stay cheap.
                _ = try moduleNamespace(target)
            default: break
            }
            m.importCells.append(r)
        }
        let f = try moduleFunction(compiled.initCode, m)
        heap.pushRoot(f)
        defer { heap.popRoots(1) }
        _ = try callFunction(f, this: .undefined, UnsafeBufferPointer(start: nil, count: 0))
    }

    /// A closure of one of the module's two entry points over its environment.
    func moduleFunction(_ code: CodeBlock, _ m: ModuleRecord) throws(JSException) -> Value {
        let frame = Frame(data: Unmanaged.passUnretained(codeData(code)), pc: 0, base: registers, top: registers, argc: 0,
                          this: .undefined, callee: .undefined, newTarget: .undefined, env: nil, envDepth: 0,
                          returnRegister: -1, isConstruct: false, exception: .undefined, home: .undefined)
        return try makeClosure(code, env: m.environment, frame: frame)
    }

    // MARK: - Import bindings

    /// `getImport`: the current value of a named import (a ReferenceError before the
    /// exporting module initialized it).
    func importBinding(_ data: CodeData, _ index: Int, _ nameAtom: Int) throws(JSException) -> Value {
        let m = modules.records[data.code.moduleID]
        switch m.importCells[index] {
        case .binding(let target, let slot):
            if let env = target.environment {
                let v = Environment(env).slots[slot]
                if !v.isEmpty { return v }
            }
            throw try tdzError(data, nameAtom)
        case .namespace(let target):
            return try moduleNamespace(target)
        default:
            throw try tdzError(data, nameAtom)
        }
    }

    // MARK: - Namespaces

    /// Whether `o` is a module namespace object (its internal methods are the namespace's).
    @inline(__always) func isModuleNamespace(_ o: JSObject) -> Bool {
        o.flags & ObjectFlags.exotic != 0 && o.kind == .object
    }

    /// GetModuleNamespace.
    func moduleNamespace(_ m: ModuleRecord) throws(JSException) -> Value {
        if !m.namespace.isUndefined { return m.namespace }
        var visited: [ModuleRecord] = []
        var exports: [(name: String, resolution: ExportResolution)] = []
        for name in exportedNames(m, &visited) {
            var set: [(ModuleRecord, String)] = []
            let r = resolveExport(m, name, &set)
            switch r {
            case .binding, .namespace: exports.append((name, r))
            default: break
            }
        }
        exports.sort { Array($0.name.utf16).lexicographicallyPrecedes(Array($1.name.utf16)) }
        let o = try newObject(prototypeValue: .null)
        heap.pushRoot(Value(cell: o.cell))
        defer { heap.popRoots(1) }
        try defineOwnProperty(o, symbolKey(wellKnown.toStringTag), .data(try makeString("Module"), []))
        o.flags |= ObjectFlags.nonExtensible | ObjectFlags.moduleNamespace
        m.namespace = Value(cell: o.cell)
        m.namespaceExports = exports
        modules.namespaces[UInt(bitPattern: o.cell)] = m
        return m.namespace
    }

    func namespaceExport(_ o: JSObject, _ key: Key) throws(JSException) -> (ModuleRecord, ExportResolution)? {
        guard let m = modules.namespaces[UInt(bitPattern: o.cell)] else { return nil }
        let name: String
        switch key {
        case .index(let i): name = String(i)
        case .named(let k):
            if k.isSymbol { return nil }
            name = StringCell(k.cell).swiftString
        }
        guard let e = m.namespaceExports.first(where: { $0.name == name }) else { return nil }
        return (m, e.resolution)
    }

    /// [[GetOwnProperty]] of a namespace's export: a writable, enumerable, non-configurable
    /// data property holding the binding's current value.
    func namespaceOwnProperty(_ o: JSObject, _ key: Key) throws(JSException) -> OwnProperty? {
        guard let (_, r) = try namespaceExport(o, key) else { return nil }
        let v: Value
        switch r {
        case .binding(let target, let slot):
            guard let env = target.environment, !Environment(env).slots[slot].isEmpty else {
                throw try referenceError("Cannot access '\(try namespaceKeyName(key))' before initialization")
            }
            v = Environment(env).slots[slot]
        case .namespace(let target):
            v = try moduleNamespace(target)
        default:
            return nil
        }
        return .data(v, [.writable, .enumerable])
    }

    func namespaceKeyName(_ key: Key) throws(JSException) -> String {
        switch key {
        case .index(let i): return String(i)
        case .named(let k): return k.isSymbol ? "symbol" : StringCell(k.cell).swiftString
        }
    }

    /// [[HasProperty]] of a namespace: its exports (no TDZ check) and its symbols.
    func namespaceHas(_ o: JSObject, _ key: Key) throws(JSException) -> Bool {
        if try namespaceExport(o, key) != nil { return true }
        if case .named(let k) = key, ShapeCell(o.shape).lookup(k) != nil { return true }
        return false
    }

    /// [[DefineOwnProperty]] of a namespace.
    func namespaceDefine(_ o: JSObject, _ key: Key, _ desc: PropertyDescriptor) throws(JSException) -> Bool {
        if case .named(let k) = key, k.isSymbol {
            // Ordinary for @@toStringTag (non-configurable, non-writable): only a no-op is allowed.
            guard let current = try getOwnProperty(o, key) else { return false }
            if desc.isAccessor { return false }
            if desc.configurable == true || desc.writable == true { return false }
            if desc.enumerable == true { return false }
            if let v = desc.value, case .data(let cv, _) = current, !sameValue(v, cv) { return false }
            return true
        }
        guard let current = try namespaceOwnProperty(o, key) else { return false }
        if desc.configurable == true || desc.enumerable == false || desc.isAccessor || desc.writable == false { return false }
        if let v = desc.value, case .data(let cv, _) = current { return sameValue(v, cv) }
        return true
    }

    /// [[OwnPropertyKeys]] of a namespace: the exports, sorted, then @@toStringTag.
    func namespaceKeys(_ o: JSObject) throws(JSException) -> [Key] {
        guard let m = modules.namespaces[UInt(bitPattern: o.cell)] else { return [] }
        var keys: [Key] = []
        for e in m.namespaceExports { keys.append(try key(fromString: try makeString(e.name))) }
        keys.append(symbolKey(wellKnown.toStringTag))
        return keys
    }

    func isNamespaceExport(_ o: JSObject, _ key: Key) throws(JSException) -> Bool { try namespaceExport(o, key) != nil }

    // MARK: - Evaluate

    /// Evaluate(): runs the graph; returns the promise of its evaluation (settled already
    /// unless some module awaits at top level).
    public func evaluateModule(_ start: ModuleRecord) throws(JSException) -> Value {
        var m = start
        if m.status == .evaluatingAsync || m.status == .evaluated, let root = m.cycleRoot { m = root }
        if let c = m.capability { return c.0 }
        let cap = try newPromiseCapability(Value(cell: realm.promiseConstructor.cell))
        m.capability = cap
        var stack: [ModuleRecord] = []
        do {
            _ = try innerEvaluate(m, &stack, 0)
            if !m.asyncEvaluation { _ = try call(cap.1, this: .undefined, .undefined) }
        } catch {
            for r in stack { r.status = .evaluated; r.evaluationError = error.value }
            _ = try call(cap.2, this: .undefined, error.value)
        }
        return cap.0
    }

    func innerEvaluate(_ m: ModuleRecord, _ stack: inout [ModuleRecord], _ index: Int) throws(JSException) -> Int {
        guard let compiled = m.compiled else { return index }
        switch m.status {
        case .evaluatingAsync, .evaluated:
            if let e = m.evaluationError { throw JSException(value: e) }
            return index
        case .evaluating:
            return index
        case .linked:
            break
        default:
            throw try typeError("Module '\(m.key)' is not linked")
        }
        m.status = .evaluating
        m.dfsIndex = index
        m.dfsAncestorIndex = index
        m.pendingAsyncDependencies = 0
        var index = index + 1
        stack.append(m)
        for r0 in m.requested {
            index = try innerEvaluate(r0, &stack, index)
            guard r0.isCyclic else { continue }
            var r = r0
            if r.status == .evaluating {
                m.dfsAncestorIndex = min(m.dfsAncestorIndex, r.dfsAncestorIndex)
            } else {
                r = r.cycleRoot ?? r
                if let e = r.evaluationError { throw JSException(value: e) }
            }
            if r.asyncEvaluation {
                m.pendingAsyncDependencies += 1
                r.asyncParents.append(m)
            }
        }
        if m.pendingAsyncDependencies > 0 || m.hasTLA {
            m.asyncEvaluation = true
            modules.asyncCounter += 1
            m.asyncOrder = modules.asyncCounter
            if m.pendingAsyncDependencies == 0 { try executeAsyncModule(m, compiled) }
        } else {
            try executeModule(m, compiled)
        }
        if m.dfsAncestorIndex == m.dfsIndex {
            while let r = stack.popLast() {
                r.status = r.asyncEvaluation ? .evaluatingAsync : .evaluated
                r.cycleRoot = m
                if r === m { break }
            }
        }
        return index
    }

    func executeModule(_ m: ModuleRecord, _ compiled: CompiledModule) throws(JSException) {
        let f = try moduleFunction(compiled.bodyCode, m)
        heap.pushRoot(f)
        defer { heap.popRoots(1) }
        _ = try callFunction(f, this: .undefined, UnsafeBufferPointer(start: nil, count: 0))
    }

    /// ExecuteAsyncModule: runs the body (an async function); its promise settles the module.
    func executeAsyncModule(_ m: ModuleRecord, _ compiled: CompiledModule) throws(JSException) {
        let f = try moduleFunction(compiled.bodyCode, m)
        heap.pushRoot(f)
        defer { heap.popRoots(1) }
        let p = try callFunction(f, this: .undefined, UnsafeBufferPointer(start: nil, count: 0))
        heap.pushRoot(p)
        defer { heap.popRoots(1) }
        let reg = modules
        let onFulfilled = try makeNativeFunction(index: reg.fulfilledIndex, name: "", length: 0)
        onFulfilled.setExtraValue(1, Value(int32: Int32(m.id)))
        heap.pushRoot(Value(cell: onFulfilled.cell))
        defer { heap.popRoots(1) }
        let onRejected = try makeNativeFunction(index: reg.rejectedIndex, name: "", length: 1)
        onRejected.setExtraValue(1, Value(int32: Int32(m.id)))
        heap.pushRoot(Value(cell: onRejected.cell))
        defer { heap.popRoots(1) }
        try performPromiseThen(JSObject(p), onFulfilled: Value(cell: onFulfilled.cell), onRejected: Value(cell: onRejected.cell), capability: nil)
    }

    func gatherAvailableAncestors(_ m: ModuleRecord, _ list: inout [ModuleRecord]) {
        for p in m.asyncParents {
            if list.contains(where: { $0 === p }) { continue }
            if (p.cycleRoot ?? p).evaluationError != nil { continue }
            p.pendingAsyncDependencies -= 1
            if p.pendingAsyncDependencies == 0 {
                list.append(p)
                if !p.hasTLA { gatherAvailableAncestors(p, &list) }
            }
        }
    }

    func asyncModuleFulfilled(_ m: ModuleRecord) throws(JSException) {
        if m.status == .evaluated { return }
        m.asyncEvaluation = false
        m.status = .evaluated
        if let c = m.capability { _ = try call(c.1, this: .undefined, .undefined) }
        var list: [ModuleRecord] = []
        gatherAvailableAncestors(m, &list)
        list.sort { $0.asyncOrder < $1.asyncOrder }
        for p in list {
            if p.status == .evaluated { continue }
            guard let compiled = p.compiled else { continue }
            if p.hasTLA {
                try executeAsyncModule(p, compiled)
            } else {
                do {
                    try executeModule(p, compiled)
                } catch {
                    try asyncModuleRejected(p, error.value)
                    continue
                }
                p.asyncEvaluation = false
                p.status = .evaluated
                if let c = p.capability { _ = try call(c.1, this: .undefined, .undefined) }
            }
        }
    }

    func asyncModuleRejected(_ m: ModuleRecord, _ error: Value) throws(JSException) {
        if m.status == .evaluated { return }
        m.evaluationError = error
        m.status = .evaluated
        m.asyncEvaluation = false
        // The module's own promise first, then its ancestors' (leaf to root).
        if let c = m.capability { _ = try call(c.2, this: .undefined, error) }
        for p in m.asyncParents { try asyncModuleRejected(p, error) }
    }

    // MARK: - import() and import.meta

    /// `import(specifier, options)` from code `data`: a promise of the namespace.
    func dynamicImport(_ data: CodeData, _ specifier: Value, _ options: Value) throws(JSException) -> Value {
        let cap = try newPromiseCapability(Value(cell: realm.promiseConstructor.cell))
        heap.pushRoot(cap.0); heap.pushRoot(cap.1); heap.pushRoot(cap.2)
        defer { heap.popRoots(3) }
        do throws(JSException) {
            let spec = try string(specifier)
            var attributes: [ModuleAttribute] = []
            if !options.isUndefined {
                guard isObject(options) else { throw try typeError("The second argument of import() must be an object") }
                let with = try get(JSObject(options), "with")
                if !with.isUndefined {
                    guard isObject(with) else { throw try typeError("The 'with' option of import() must be an object") }
                    let w = JSObject(with)
                    for k in try ownKeys(w) {
                        guard let p = try getOwnProperty(w, k), p.attributes.contains(.enumerable) else { continue }
                        if case .named(let n) = k, n.isSymbol { continue }
                        let v = try get(w, k, receiver: with)
                        guard isString(v) else { throw try typeError("Import attribute values must be strings") }
                        attributes.append(ModuleAttribute(key: try namespaceKeyName(k), value: try string(v)))
                    }
                }
            }
            let referrer: String? = data.code.moduleID >= 0 ? modules.records[data.code.moduleID].key : data.code.source?.name
            // The host loads asynchronously (as HostLoadImportedModule allows and hosts do):
            // loading, linking and evaluating happen in a job, after the current one.
            var fields: [Value] = [cap.1, cap.2]
            let depth = heap.rootDepth
            defer { heap.popRoots(to: depth) }
            func add(_ v: Value) { heap.pushRoot(v); fields.append(v) }
            add(try makeString(spec))
            add(try referrer.map { r throws(JSException) in try makeString(r) } ?? .undefined)
            for a in attributes { add(try makeString(a.key)); add(try makeString(a.value)) }
            let state = try newArray(capacity: fields.count)
            for (i, v) in fields.enumerated() { state.elements![i] = v }
            state.elementsLength = fields.count
            state.arrayLength = UInt32(fields.count)
            heap.pushRoot(Value(cell: state.cell))
            defer { heap.popRoots(1) }
            let job = try makeNativeFunction(index: modules.importStartIndex, name: "", length: 0)
            job.setExtraValue(1, Value(cell: state.cell))
            heap.pushRoot(Value(cell: job.cell))
            defer { heap.popRoots(1) }
            let ready = try newPromiseObject()
            heap.pushRoot(Value(cell: ready.cell))
            defer { heap.popRoots(1) }
            try resolvePromise(ready, .undefined)
            try performPromiseThen(ready, onFulfilled: Value(cell: job.cell), onRejected: .undefined, capability: nil)
        } catch {
            _ = try call(cap.2, this: .undefined, error.value)
        }
        return cap.0
    }

    /// The job of `import()`: ContinueDynamicImport once the host has the module.
    func continueDynamicImport(_ state: JSObject) throws(JSException) {
        let e = state.elements!
        let (resolve, reject) = (e[0], e[1])
        do throws(JSException) {
            let spec = try string(e[2])
            let referrer = e[3].isUndefined ? nil : try string(e[3])
            var attributes: [ModuleAttribute] = []
            var i = 4
            while i + 1 < state.elementsLength {
                attributes.append(ModuleAttribute(key: try string(e[i]), value: try string(e[i + 1])))
                i += 2
            }
            let m = try loadModule(spec, referrer: referrer, attributes: attributes)
            try linkModule(m)
            let p = try evaluateModule(m)
            heap.pushRoot(p)
            defer { heap.popRoots(1) }
            let reactions = try record(Value(int32: Int32(m.id)), resolve, reject)
            heap.pushRoot(Value(cell: reactions.cell))
            defer { heap.popRoots(1) }
            let onFulfilled = try makeNativeFunction(index: modules.importFulfilledIndex, name: "", length: 0)
            onFulfilled.setExtraValue(1, Value(cell: reactions.cell))
            heap.pushRoot(Value(cell: onFulfilled.cell))
            defer { heap.popRoots(1) }
            let onRejected = try makeNativeFunction(index: modules.importRejectedIndex, name: "", length: 1)
            onRejected.setExtraValue(1, Value(cell: reactions.cell))
            heap.pushRoot(Value(cell: onRejected.cell))
            defer { heap.popRoots(1) }
            try performPromiseThen(JSObject(p), onFulfilled: Value(cell: onFulfilled.cell), onRejected: Value(cell: onRejected.cell), capability: nil)
        } catch {
            _ = try call(reject, this: .undefined, error.value)
        }
    }

    /// `import.meta`: one ordinary object per module, null prototype; `url`, `filename`
    /// and `dirname` as node sets them.
    func importMeta(_ data: CodeData) throws(JSException) -> Value {
        guard data.code.moduleID >= 0 else { throw try makeError(.syntaxError, "Cannot use 'import.meta' outside a module") }
        let m = modules.records[data.code.moduleID]
        if !m.meta.isUndefined { return m.meta }
        let o = try newObject(prototypeValue: .null)
        heap.pushRoot(Value(cell: o.cell))
        defer { heap.popRoots(1) }
        if m.key.hasPrefix("/") {
            try createDataProperty(o, key("url"), try makeString("file://" + m.key))
            try createDataProperty(o, key("filename"), try makeString(m.key))
            let dir = m.key.lastIndex(of: "/").map { i in i == m.key.startIndex ? "/" : String(m.key[..<i]) } ?? m.key
            try createDataProperty(o, key("dirname"), try makeString(dir))
        } else {
            try createDataProperty(o, key("url"), try makeString(m.key))
        }
        m.meta = Value(cell: o.cell)
        return m.meta
    }

    // MARK: - Running a module as the host's entry point

    /// Loads, links and evaluates the module `specifier` (resolved by `moduleLoader`
    /// without a referrer), runs the job queue, and throws the module's error if its
    /// evaluation failed. Returns the module's namespace.
    public func runModule(_ specifier: String) throws(JSException) -> Value {
        refreshStackLimit()
        let m = try loadModule(specifier, referrer: nil)
        try linkModule(m)
        let p = try evaluateModule(m)
        heap.pushRoot(p)
        defer { heap.popRoots(1) }
        try runJobs()
        return try moduleEvaluationResult(m, promise: p)
    }
}

/// Module specifier paths, as the hosts here resolve them (no Foundation): a specifier
/// that starts with `/`, `./` or `../` is a path relative to the importing module's
/// directory; anything else (a bare name) is not resolved.
public enum ModulePath {
    /// The directory part of `path` (`/` for a file at the root, `.` for a bare name).
    public static func directory(of path: String) -> String {
        guard let i = path.lastIndex(of: "/") else { return "." }
        return i == path.startIndex ? "/" : String(path[..<i])
    }

    /// Whether the specifier is a path (`/`, `./`, `../`).
    public static func isPath(_ specifier: String) -> Bool {
        specifier.hasPrefix("/") || specifier.hasPrefix("./") || specifier.hasPrefix("../") || specifier == "." || specifier == ".."
    }

    /// `specifier` against `directory`, with `.` and `..` segments and repeated slashes removed.
    public static func resolve(_ specifier: String, from directory: String) -> String {
        normalize(specifier.hasPrefix("/") ? specifier : directory + "/" + specifier)
    }

    public static func normalize(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                if let last = parts.last, last != ".." { parts.removeLast() } else if !absolute { parts.append(part) }
                continue
            }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }
}

extension Runtime {
    /// The error a module's evaluation ended with, if it failed (nil while it runs or
    /// after it succeeded).
    public func moduleEvaluationError(_ m: ModuleRecord) -> Value? {
        (m.cycleRoot ?? m).evaluationError ?? m.evaluationError
    }
}

extension Runtime {
    /// After `evaluateModule(m)` returned `promise` and the jobs ran: the namespace, or
    /// the evaluation's error (also when a top-level await never settled).
    public func moduleEvaluationResult(_ m: ModuleRecord, promise: Value) throws(JSException) -> Value {
        let p = JSObject(promise)
        switch promiseState(p) {
        case .rejected:
            p.setWord(0, p.word(0) | Runtime.promiseHandledBit)
            throw JSException(value: p.extraValue(1))
        case .pending:
            throw try makeError(.error, "The module '\(m.key)' did not finish evaluating: its top-level await never settled")
        case .fulfilled:
            return try moduleNamespace(m)
        }
    }
}
