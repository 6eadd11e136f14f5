// More than one realm in a runtime: each realm has its own intrinsics and global object,
// every function belongs to the realm it was made in, and a call runs the callee in its
// realm (ECMA-262 9.3, 10.2.1.1 PrepareForOrdinaryCall, 10.3.1 built-in [[Call]]).
//
// A function's realm: bytecode functions have it in their CodeData (the realm current when
// the code was first instantiated: a script, an eval, a `Function` body belongs to the
// realm that ran it), native functions in their body's box (`NativeTable.Box`). The heap,
// atoms, shapes and the well-known symbols are shared; so is the GlobalSymbolRegistry (of
// the first realm; `Symbol.for` is one registry for the agent).
//
// The current realm is `Runtime.realm`; builtins read their intrinsics from it. A call
// whose callee belongs to another realm takes a slow path (`callInRealm`): it switches the
// runtime to the callee's realm for the call and back after it, so a same-realm call pays
// one compare (the callee's realm key with `Runtime.realmKey`). Machine code is compiled
// only for the first realm's functions (the baseline compiler embeds that realm's global
// object and intrinsics), so compiled code always runs in the first realm.

/// The fields of the runtime that belong to the current realm (intrinsics the builtins
/// keep outside `Realm`, and the native-body indices registered with them). Swapped in
/// and out by `enterRealm`.
struct RealmRuntimeFields {
    var globalCell: UnsafeMutableRawPointer?
    var functionCallBits: UInt64 = 0, functionApplyBits: UInt64 = 0
    var arrayIteratorNext = Value.undefined
    var arrayValuesFunction = Value.undefined
    var promiseResolveFunctionIndex = 0, promiseRejectFunctionIndex = 0
    var capabilityExecutorIndex = 0, finallyFunctionIndex = 0
    var asyncFromSyncUnwrapIndex = 0, asyncFromSyncCloseIndex = 0
    var plainFunctionShape: UnsafeMutableRawPointer?
    var proxyRevokeIndex = 0
    var iteratorHelperPrototype: JSObject?
    var wrapForValidIteratorPrototype: JSObject?
    var iteratorConstructorValue = Value.undefined
    var suppressedErrorPrototype: JSObject?
    var suppressedErrorConstructor = Value.undefined
    var disposableStackPrototype: JSObject?
    var asyncDisposableStackPrototype: JSObject?
    var asyncDisposeStepIndex = 0, asyncDisposeSyncWrapperIndex = 0, returnUndefinedIndex = 0

    func mark(_ m: inout Heap.Marker) {
        m.mark(arrayIteratorNext)
        m.mark(arrayValuesFunction)
        m.mark(iteratorConstructorValue)
        m.mark(suppressedErrorConstructor)
        for o in [iteratorHelperPrototype, wrapForValidIteratorPrototype, suppressedErrorPrototype,
                  disposableStackPrototype, asyncDisposableStackPrototype] {
            if let o { m.mark(cell: o.cell) }
        }
        m.mark(cell: plainFunctionShape)
    }
}

extension Runtime {
    /// The realm-specific fields of the runtime as they are now.
    func captureRealmFields() -> RealmRuntimeFields {
        var f = RealmRuntimeFields()
        f.globalCell = globalCell
        f.functionCallBits = functionCallBits; f.functionApplyBits = functionApplyBits
        f.arrayIteratorNext = arrayIteratorNext
        f.arrayValuesFunction = arrayValuesFunction
        f.promiseResolveFunctionIndex = promiseResolveFunctionIndex
        f.promiseRejectFunctionIndex = promiseRejectFunctionIndex
        f.capabilityExecutorIndex = capabilityExecutorIndex
        f.finallyFunctionIndex = finallyFunctionIndex
        f.asyncFromSyncUnwrapIndex = asyncFromSyncUnwrapIndex
        f.asyncFromSyncCloseIndex = asyncFromSyncCloseIndex
        f.plainFunctionShape = plainFunctionShape
        f.proxyRevokeIndex = proxyRevokeIndex
        f.iteratorHelperPrototype = iteratorHelperPrototype
        f.wrapForValidIteratorPrototype = wrapForValidIteratorPrototype
        f.iteratorConstructorValue = iteratorConstructorValue
        f.suppressedErrorPrototype = suppressedErrorPrototype
        f.suppressedErrorConstructor = suppressedErrorConstructor
        f.disposableStackPrototype = disposableStackPrototype
        f.asyncDisposableStackPrototype = asyncDisposableStackPrototype
        f.asyncDisposeStepIndex = asyncDisposeStepIndex
        f.asyncDisposeSyncWrapperIndex = asyncDisposeSyncWrapperIndex
        f.returnUndefinedIndex = returnUndefinedIndex
        return f
    }

    func applyRealmFields(_ f: RealmRuntimeFields) {
        if let g = f.globalCell { globalCell = g }
        functionCallBits = f.functionCallBits; functionApplyBits = f.functionApplyBits
        arrayIteratorNext = f.arrayIteratorNext
        arrayValuesFunction = f.arrayValuesFunction
        promiseResolveFunctionIndex = f.promiseResolveFunctionIndex
        promiseRejectFunctionIndex = f.promiseRejectFunctionIndex
        capabilityExecutorIndex = f.capabilityExecutorIndex
        finallyFunctionIndex = f.finallyFunctionIndex
        asyncFromSyncUnwrapIndex = f.asyncFromSyncUnwrapIndex
        asyncFromSyncCloseIndex = f.asyncFromSyncCloseIndex
        plainFunctionShape = f.plainFunctionShape
        proxyRevokeIndex = f.proxyRevokeIndex
        iteratorHelperPrototype = f.iteratorHelperPrototype
        wrapForValidIteratorPrototype = f.wrapForValidIteratorPrototype
        iteratorConstructorValue = f.iteratorConstructorValue
        suppressedErrorPrototype = f.suppressedErrorPrototype
        suppressedErrorConstructor = f.suppressedErrorConstructor
        disposableStackPrototype = f.disposableStackPrototype
        asyncDisposableStackPrototype = f.asyncDisposableStackPrototype
        asyncDisposeStepIndex = f.asyncDisposeStepIndex
        asyncDisposeSyncWrapperIndex = f.asyncDisposeSyncWrapperIndex
        returnUndefinedIndex = f.returnUndefinedIndex
    }

    /// The first realm (`initializeRealm`'s): its GlobalSymbolRegistry is the agent's.
    var primaryRealm: Realm { realms[0] }

    /// Makes `r` the current realm (its global object, intrinsics, native bodies).
    func enterRealm(_ r: Realm) {
        guard let old = realm, old !== r else { return }
        old.runtimeFields = captureRealmFields()
        applyRealmFields(r.runtimeFields)
        realm = r
        realmKey = r.key
        natives.currentRealm = r
        globalCell = r.global.cell
    }

    /// Runs `body` with `r` as the current realm (a call of a function of another realm).
    @inline(never)
    func callInRealm<T>(_ r: Realm, _ body: () throws(JSException) -> T) throws(JSException) -> T {
        let old = realm!
        enterRealm(r)
        defer { enterRealm(old) }
        return try body()
    }

    /// A new realm (intrinsics, global object) in this runtime: `$262.createRealm`, an
    /// iframe's window. The current realm stays current; run code in the new one with
    /// `withRealm` (or by calling its functions).
    public func createRealm() throws(JSException) -> Realm {
        precondition(!realms.isEmpty, "initializeRealm first")
        let previous = realm!
        let saved = captureRealmFields()
        let r = Realm(runtime: self)
        realms.append(r)
        r.classFieldsKey = primaryRealm.classFieldsKey
        realm = r
        realmKey = r.key
        natives.currentRealm = r
        defer {
            r.runtimeFields = captureRealmFields()
            applyRealmFields(saved)
            realm = previous
            realmKey = previous.key
            natives.currentRealm = previous
            globalCell = previous.global.cell
        }
        try buildRealm(r, primary: false)
        return r
    }

    /// Runs `body` in realm `r` (the embedding's way to evaluate code in another realm).
    public func withRealm<T>(_ r: Realm, _ body: () throws(JSException) -> T) throws(JSException) -> T {
        if r === realm { return try body() }
        return try callInRealm(r, body)
    }

    /// GetFunctionRealm(f): the realm a function object was made in (a bound function's or
    /// proxy's target's; the current realm for anything else).
    func functionRealm(_ f: Value) throws(JSException) -> Realm {
        guard f.isCell, isObject(f) else { return realm }
        let o = JSObject(f)
        switch o.kind {
        case .function:
            return functionCodeData(o).realm
        case .nativeFunction:
            return natives.realm(Int(o.word(0)))
        case .boundFunction:
            return try functionRealm(o.extraValue(0))
        case .proxy:
            guard o.extraValue(1).isCell else { throw try typeError("Cannot get the realm of a revoked proxy") }
            return try functionRealm(o.extraValue(0))
        default:
            return realm
        }
    }

    /// The intrinsic of realm `r` that `intrinsic` (an intrinsic of the current realm) is
    /// in its own realm (`%Array.prototype%` of `r` for the current `%Array.prototype%`),
    /// or `intrinsic` itself when it is not one.
    func correspondingIntrinsic(_ intrinsic: JSObject, in r: Realm) -> JSObject {
        if r === realm { return intrinsic }
        guard let name = intrinsicNames(realm)[UInt(bitPattern: intrinsic.cell)] else { return intrinsic }
        _ = intrinsicNames(r)
        return r.intrinsicsByName[name] ?? intrinsic
    }

    /// The objects a realm keeps as intrinsics, by name (made once per realm, by reflection).
    func intrinsicNames(_ r: Realm) -> [UInt: String] {
        if let n = r.intrinsicNames { return n }
        installLazyGlobals(r, LazyGlobalGroup.all)
        var names: [UInt: String] = [:]
        var byName: [String: JSObject] = [:]
        func add(_ name: String, _ value: Any) {
            if let o = value as? JSObject {
                byName[name] = o
                if names[UInt(bitPattern: o.cell)] == nil { names[UInt(bitPattern: o.cell)] = name }
            } else if let list = value as? [JSObject?] {
                for (i, o) in list.enumerated() { if let o { add("\(name)[\(i)]", o) } }
            } else if let table = value as? ErrorTable {
                for (i, o) in table.objects.enumerated() { if let o { add("\(name)[\(i)]", o) } }
            }
        }
        for child in Mirror(reflecting: r).children { if let l = child.label { add(l, child.value) } }
        for child in Mirror(reflecting: r.binary).children { if let l = child.label { add("binary." + l, child.value) } }
        let fields = r === realm ? captureRealmFields() : r.runtimeFields
        for child in Mirror(reflecting: fields).children { if let l = child.label { add("runtime." + l, child.value) } }
        r.intrinsicNames = names
        r.intrinsicsByName = byName
        return names
    }
}
