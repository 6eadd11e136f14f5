// Searches over arrays (and array-likes) whose length is far beyond their elements:
// `a = []; a[1e9] = 1; a.indexOf(2)` must not visit a billion holes, as V8 walks only
// the keys of a dictionary-mode array. The spec's loops (HasProperty, then Get, for every
// index) are kept exactly wherever a hole could be observed: a proxy or other exotic
// object, a prototype with indexed properties, a getter that may add elements.

extension Runtime {
    /// The gap between `length` and the dense elements above which the searches walk the
    /// object's own index keys instead of every index.
    static let sparseWalkThreshold = 1 << 14

    /// The own indices of `o` in `lo..<hi`, ascending, when they are all that
    /// HasProperty(o, i) can find for i in that range; nil if every index must be tried.
    func existingIndices(_ o: JSObject, _ lo: Int, _ hi: Int) throws(JSException) -> [Int]? {
        guard hi - lo > Runtime.sparseWalkThreshold,
              hi - max(lo, o.elementsLength) > Runtime.sparseWalkThreshold,
              o.flags & ObjectFlags.exotic == 0,
              o.kind != .typedArray, o.kind != .boxedPrimitive, !isModuleNamespace(o),
              !(try protoChainHasIndexedProperties(o)) else { return nil }
        var present: [Int] = []
        var large = false
        for k in try ordinaryOwnKeys(o) {
            switch k {
            case .index(let x):
                if Int(x) >= lo, Int(x) < hi { present.append(Int(x)) }
            case .named(let p):
                // An array-like's length may pass 2^32 - 1: its larger integer keys are
                // named keys ("4294967295", "4000000000000000") that the loop would find.
                if !p.isSymbol, let x = largeIntegerKey(StringCell(p.cell)), x >= lo, x < hi {
                    present.append(x)
                    large = true
                }
            }
        }
        if large { present.sort() }
        return present
    }

    /// The integer 2^32 - 1 ... 2^53 - 1 that a canonical numeric string denotes, if any.
    private func largeIntegerKey(_ s: StringCell) -> Int? {
        let n = s.length
        if n < 10 || n > 16 || s[0] < 0x31 || s[0] > 0x39 { return nil }
        var v = 0
        for i in 0..<n {
            let c = s[i]
            if c < 0x30 || c > 0x39 { return nil }
            v = v * 10 + Int(c - 0x30)
        }
        return v >= 0xFFFF_FFFF && v < 1 << 53 ? v : nil
    }

    /// Array.prototype.indexOf / lastIndexOf's loop from `k` (inclusive) towards `len`
    /// (ascending) or 0 (descending) with IsStrictlyEqual, or includes' with
    /// SameValueZero (holes read as undefined). nil when the plain loop must run.
    func sparseSearch(_ o: JSObject, from k: Int, len: Int, target: Value,
                      descending: Bool, sameValueZero: Bool) throws(JSException) -> Int?? {
        let lo = descending ? 0 : k, hi = descending ? k + 1 : len
        guard var present = try existingIndices(o, lo, hi) else { return nil }
        // includes(undefined) sees a hole as undefined: the first hole is a match unless
        // an own element before it matches first.
        let holeAt: Int? = sameValueZero && target.isUndefined && present.count < hi - lo
            ? firstGap(present, lo, hi, descending: descending) : nil
        if descending { present.reverse() }
        var n = 0
        while n < present.count {
            let i = present[n]
            if let h = holeAt, descending ? i < h : i > h { return .some(h) }
            // With no indexed property up the chain, HasProperty and Get are the own
            // property's: one lookup; a getter is the one Get that runs code.
            var plain = true
            let v: Value?
            switch try getOwnProperty(o, indexKey(i)) {
            case .data(let x, _)?: v = x
            case .accessor?: v = try getIndex(o, i); plain = false
            case nil: v = nil
            }
            if let v, sameValueZero ? self.sameValueZero(v, target) : strictEquals(v, target) { return .some(i) }
            n += 1
            if !plain {
                // A getter ran: it may have added or removed elements. Start again from
                // here with the plain loop's view of the object.
                let from = descending ? i - 1 : i + 1
                if descending ? from < 0 : from >= len { return .some(nil) }
                return .some(try arraySearch(o, from: from, len: len, target: target,
                                             descending: descending, sameValueZero: sameValueZero))
            }
        }
        if let h = holeAt { return .some(h) }
        return .some(nil)
    }

    /// The first index of `lo..<hi` (the last one if descending) not in `present` (ascending).
    private func firstGap(_ present: [Int], _ lo: Int, _ hi: Int, descending: Bool) -> Int {
        if descending {
            var expect = hi - 1
            for i in present.reversed() { if i != expect { return expect }; expect -= 1 }
            return expect
        }
        var expect = lo
        for i in present { if i != expect { return expect }; expect += 1 }
        return expect
    }

    /// The spec's loop over every index.
    func plainSearch(_ o: JSObject, from start: Int, len: Int, target: Value,
                     descending: Bool, sameValueZero: Bool) throws(JSException) -> Int? {
        var k = start
        while descending ? k >= 0 : k < len {
            if sameValueZero {
                if self.sameValueZero(try getIndex(o, k), target) { return k }
            } else if try hasIndex(o, k), strictEquals(try getIndex(o, k), target) {
                return k
            }
            k += descending ? -1 : 1
        }
        return nil
    }

    /// indexOf, lastIndexOf and includes from `k`: the sparse walk where it is exact.
    func arraySearch(_ o: JSObject, from k: Int, len: Int, target: Value,
                     descending: Bool = false, sameValueZero: Bool = false) throws(JSException) -> Int? {
        if let r = try sparseSearch(o, from: k, len: len, target: target,
                                    descending: descending, sameValueZero: sameValueZero) { return r }
        return try plainSearch(o, from: k, len: len, target: target,
                               descending: descending, sameValueZero: sameValueZero)
    }
}
