import JSSyntax

// What the baseline JIT may assume about a call site's callee when it compiles the call
// (JSJIT/DESIGN.md, "Calls to a known callee"): a guess, read from the inline cache of the
// instruction that loaded the callee, which machine code checks (the callee's code data is
// the guessed one) before it uses anything the guess says. The guess is never trusted
// otherwise, so a stale or wrong one only costs the check.

/// A bytecode function's code as machine code that calls it may assume it, once it has
/// checked that the callee's `CodeData` is `codeData`.
public struct JITKnownCallee {
    /// The callee's `CodeData` object (kept alive by the caller's code data while the
    /// caller's machine code may compare with its address: `CodeData.jitLinked`).
    public let codeData: UnsafeRawPointer
    /// Its `JITCalleeInfo` (the machine-code entry is read from it at each call: 0 while
    /// not compiled, or after its machine code was given back).
    public let calleeInfo: UnsafeRawPointer
    public let parameterCount: Int
    public let registerCount: Int
    public let isStrict: Bool
    /// The caller's own code (a recursive call: the body calls its own start).
    public let isSelf: Bool
}

extension JITCodeView {
    /// The function a `getGlobal` site's cache finds now, if it is a bytecode function
    /// whose frame machine code can push (`JITCalleeInfo.needsStub` clear, not a class
    /// constructor).
    public func likelyCallee(globalCache cache: Int, runtime: Runtime) -> JITKnownCallee? {
        let c = data.caches[cache]
        let g = runtime.realm.global!
        guard c.shape != nil, c.shape == g.shape, c.epoch == runtime.protoEpoch else { return nil }
        if c.holder == nil { return knownCallee(g.slot(Int(c.slot))) }
        guard c.holder == Runtime.lexicalHolder, Int(c.slot) < runtime.realm.lexicalValues.count else { return nil }
        return knownCallee(runtime.realm.lexicalValues[Int(c.slot)])
    }

    /// The function a `getProp` site's cache finds now on the prototype that holds it (a
    /// method; an own property's value depends on the receiver, unknown here).
    public func likelyCallee(propertyCache cache: Int, runtime: Runtime) -> JITKnownCallee? {
        let c = data.caches[cache]
        guard let holder = c.holder, holder != Runtime.lexicalHolder, c.newShape == nil,
              c.epoch == runtime.protoEpoch else { return nil }
        let o = JSObject(holder)
        guard Int(c.slot) < ShapeCell(o.shape).slotCount else { return nil }
        return knownCallee(o.slot(Int(c.slot)))
    }

    private func knownCallee(_ v: Value) -> JITKnownCallee? {
        guard v.isCell, header(v.asCell).pointee.kind == .function else { return nil }
        let o = JSObject(v)
        guard o.flags & ObjectFlags.classConstructor == 0 else { return nil }
        let raw = UnsafeRawPointer(bitPattern: UInt(o.word(0)))!
        let d = Unmanaged<CodeData>.fromOpaque(raw).takeUnretainedValue()
        // Plain functions and methods: never class constructors, whatever object has the code.
        guard d.kind == .normal || d.kind == .method,
              d.calleeInfo.pointee.flags & JITCalleeInfo.needsStub == 0,
              !d.code.isGenerator, !d.code.isAsync else { return nil }
        let isSelf = d === data
        if !isSelf && !data.jitLinked.contains(where: { $0 === d }) { data.jitLinked.append(d) }
        return JITKnownCallee(codeData: raw, calleeInfo: UnsafeRawPointer(d.calleeInfo),
                              parameterCount: d.parameterCount, registerCount: d.registerCount,
                              isStrict: d.isStrict, isSelf: isSelf)
    }
}

/// Where a global name was found when its site was compiled (`JITCodeView.globalBinding`):
/// machine code reads it there directly after a check of its own, with the site's cache
/// behind that check.
public enum JITGlobalBinding {
    /// A data property of the global object, valid while the global object has `shape`
    /// and the prototype epoch is `epoch` (a new global lexical declaration, which could
    /// shadow it, advances the epoch): slot `index` inline, at `offset` in the object, or
    /// out of line, at `offset` in the slot array.
    case property(shape: UnsafeRawPointer, epoch: UInt32, inline: Bool, offset: Int32)
    /// Global lexical binding `index` (`let`/`const`/`class`): nothing shadows or removes
    /// it, so it stays where it is; an uninitialized one (the hole) is left to the stub.
    case lexical(index: Int32)
}

extension JITCodeView {
    /// The binding a `getGlobal`/`setGlobal` site's cache found, if it is valid now.
    public func globalBinding(cache: Int, runtime: Runtime) -> JITGlobalBinding? {
        let c = data.caches[cache]
        let g = runtime.realm.global!
        guard let shape = c.shape, shape == g.shape, c.epoch == runtime.protoEpoch else { return nil }
        if c.holder == Runtime.lexicalHolder { return .lexical(index: c.slot) }
        guard c.holder == nil, c.newShape == nil else { return nil }
        let slot = Int(c.slot), capacity = g.inlineCapacity
        if slot < capacity {
            return .property(shape: UnsafeRawPointer(shape), epoch: c.epoch, inline: true,
                             offset: Int32(JSObject.inlineSlotsOffset + slot * 8))
        }
        return .property(shape: UnsafeRawPointer(shape), epoch: c.epoch, inline: false, offset: Int32((slot - capacity) * 8))
    }
}
