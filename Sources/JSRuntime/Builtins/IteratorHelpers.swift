// The Iterator constructor, Iterator.from/concat, the iterator helpers of
// %Iterator.prototype% and their %IteratorHelperPrototype%, %WrapForValidIteratorPrototype%.
// https://tc39.es/ecma262/#sec-iterator-objects
//
// An iterator helper is an object of kind `.iterator` with `IteratorHelperFlags.helper`:
// word 0 holds the operation (low 8 bits) and the generator state (bits 8–15); word 1 a
// private dense JS array with its state (so the collector traces it), indexed by
// `HelperSlot`. The spec's abstract closures become one step function per operation that
// runs until the next value (a `yield`) or the end. A wrapper of %WrapForValidIteratorPrototype%
// has `IteratorHelperFlags.wrapper` and its [[Iterated]] record in words 1 (iterator) and 2 (next).

public enum IteratorHelperFlags {
    /// An %IteratorHelperPrototype% object (kind `.iterator`).
    public static let helper: UInt16 = 128
    /// A %WrapForValidIteratorPrototype% object (kind `.iterator`).
    public static let wrapper: UInt16 = 256
}

enum HelperOp: UInt64 { case map = 1, filter, take, drop, flatMap, concat, chunks, windows, zip }

enum HelperState: UInt64 { case suspendedStart = 0, suspendedYield = 1, executing = 2, completed = 3 }

/// Indices into a helper's state array.
enum HelperSlot {
    static let iterator = 0, next = 1, function = 2, counter = 3, inner = 4, innerNext = 5, extra = 6
    static let count = 7
}

extension Runtime {
    // MARK: - Helper objects

    func helperOp(_ h: JSObject) -> HelperOp { HelperOp(rawValue: h.word(0) & 0xFF) ?? .map }
    func helperState(_ h: JSObject) -> HelperState { HelperState(rawValue: (h.word(0) >> 8) & 0xFF) ?? .completed }
    func setHelperState(_ h: JSObject, _ s: HelperState) { h.setWord(0, (h.word(0) & 0xFF) | (s.rawValue << 8)) }
    func helperSlots(_ h: JSObject) -> UnsafeMutablePointer<Value> { JSObject(h.extraValue(1)).elements! }

    /// A new iterator helper for `op` over the record (iterator, next).
    func makeIteratorHelper(_ op: HelperOp, iterator: Value, next: Value, function: Value = .undefined,
                            extra: Value = .undefined) throws(JSException) -> Value {
        heap.pushRoot(iterator); heap.pushRoot(next); heap.pushRoot(function); heap.pushRoot(extra)
        defer { heap.popRoots(4) }
        let state = try newArray(capacity: HelperSlot.count)
        heap.pushRoot(Value(cell: state.cell))
        defer { heap.popRoots(1) }
        let e = state.elements!
        for i in 0..<HelperSlot.count { e[i] = .undefined }
        state.elementsLength = HelperSlot.count
        state.arrayLength = UInt32(HelperSlot.count)
        e[HelperSlot.iterator] = iterator
        e[HelperSlot.next] = next
        e[HelperSlot.function] = function
        e[HelperSlot.counter] = Value(0)
        e[HelperSlot.extra] = extra
        let h = try allocateObject(.iterator, shape: try rootShape(for: Value(cell: iteratorHelperPrototype!.cell)))
        h.flags |= IteratorHelperFlags.helper
        h.setWord(0, op.rawValue)
        h.setExtraValue(1, Value(cell: state.cell))
        h.setExtraValue(2, .undefined)
        return Value(cell: h.cell)
    }

    func thisHelper(_ v: Value, _ method: String) throws(JSException) -> JSObject {
        guard isObject(v), JSObject(v).kind == .iterator, JSObject(v).flags & (IteratorHelperFlags.helper | IteratorHelperFlags.wrapper) == IteratorHelperFlags.helper else {
            throw try typeError("Iterator Helper.prototype.\(method) called on incompatible receiver \(try describeForError(v))")
        }
        return JSObject(v)
    }

    /// The underlying record of a helper (or of its current inner iterator).
    func helperRecord(_ s: UnsafeMutablePointer<Value>, inner: Bool = false) -> IteratorRecord {
        inner ? IteratorRecord(iterator: s[HelperSlot.inner], next: s[HelperSlot.innerNext], done: false)
              : IteratorRecord(iterator: s[HelperSlot.iterator], next: s[HelperSlot.next], done: false)
    }

    /// Calls `f` and, when it throws, closes `rec` (IfAbruptCloseIterator) before rethrowing.
    func closingOnThrow<T>(_ rec: IteratorRecord, _ f: () throws(JSException) -> T) throws(JSException) -> T {
        do { return try f() } catch { iteratorCloseOnThrow(rec); throw error }
    }

    /// Runs the helper's closure to its next yield: the value, or nil at its end.
    func helperStep(_ h: JSObject) throws(JSException) -> Value? {
        let s = helperSlots(h)
        var rec = helperRecord(s)
        switch helperOp(h) {
        case .map:
            guard let v = try iteratorStep(&rec) else { return nil }
            let counter = s[HelperSlot.counter]
            let mapped = try closingOnThrow(rec) { () throws(JSException) in try call(s[HelperSlot.function], this: .undefined, v, counter) }
            s[HelperSlot.counter] = Value(counter.asNumber + 1)
            return mapped
        case .filter:
            while true {
                guard let v = try iteratorStep(&rec) else { return nil }
                heap.pushRoot(v)
                defer { heap.popRoots(1) }
                let counter = s[HelperSlot.counter]
                let selected = try closingOnThrow(rec) { () throws(JSException) in try call(s[HelperSlot.function], this: .undefined, v, counter) }
                s[HelperSlot.counter] = Value(counter.asNumber + 1)
                if toBoolean(selected) { return v }
            }
        case .take:
            let remaining = s[HelperSlot.extra].asNumber
            if remaining == 0 {
                try iteratorClose(rec)
                return nil
            }
            if remaining != .infinity { s[HelperSlot.extra] = Value(remaining - 1) }
            return try iteratorStep(&rec)
        case .drop:
            var remaining = s[HelperSlot.extra].asNumber
            while remaining > 0 {
                if remaining != .infinity { remaining -= 1; s[HelperSlot.extra] = Value(remaining) }
                guard try iteratorStep(&rec) != nil else { return nil }
            }
            return try iteratorStep(&rec)
        case .flatMap:
            while true {
                if !s[HelperSlot.inner].isUndefined {
                    var inner = helperRecord(s, inner: true)
                    let v = try closingOnThrow(rec) { () throws(JSException) in try iteratorStep(&inner) }
                    if let v { return v }
                    s[HelperSlot.inner] = .undefined
                    s[HelperSlot.innerNext] = .undefined
                    continue
                }
                guard let v = try iteratorStep(&rec) else { return nil }
                let counter = s[HelperSlot.counter]
                let inner = try closingOnThrow(rec) { () throws(JSException) -> IteratorRecord in
                    let mapped = try call(s[HelperSlot.function], this: .undefined, v, counter)
                    return try getIteratorFlattenable(mapped, rejectPrimitives: true)
                }
                s[HelperSlot.inner] = inner.iterator
                s[HelperSlot.innerNext] = inner.next
                s[HelperSlot.counter] = Value(counter.asNumber + 1)
            }
        case .chunks, .windows:
            // extra: the size; function: true to yield a partial window; inner: the buffer.
            let size = Int(s[HelperSlot.extra].asNumber)
            let windows = helperOp(h) == .windows
            // counter -1: the underlying iterator is done (after a last partial chunk).
            if s[HelperSlot.counter].asNumber < 0 { return nil }
            while true {
                let buffer = s[HelperSlot.inner].isUndefined ? nil : JSObject(s[HelperSlot.inner])
                guard let v = try iteratorStep(&rec) else {
                    guard let buffer, buffer.arrayLength > 0 else { return nil }
                    if windows && (!toBoolean(s[HelperSlot.function]) || Int(buffer.arrayLength) == size) { return nil }
                    s[HelperSlot.inner] = .undefined
                    s[HelperSlot.counter] = Value(-1)
                    return Value(cell: buffer.cell)
                }
                heap.pushRoot(v)
                defer { heap.popRoots(1) }
                var b: JSObject
                if let buffer {
                    b = buffer
                } else {
                    b = try newArray()
                    s[HelperSlot.inner] = Value(cell: b.cell)
                }
                if windows && Int(b.arrayLength) == size {
                    // Slide: a fresh array (the yielded one belongs to the caller).
                    let n = Int(b.arrayLength)
                    let next = try newArray(capacity: n)
                    for i in 1..<max(n, 1) { try createDataProperty(next, .index(UInt32(i - 1)), try getIndex(b, i)) }
                    b = next
                    s[HelperSlot.inner] = Value(cell: b.cell)
                }
                try createDataProperty(b, .index(b.arrayLength), v)
                if Int(b.arrayLength) == size {
                    if windows {
                        // Yield a copy; keep the window for the next slide.
                        let copy = try newArray(capacity: size)
                        heap.pushRoot(Value(cell: copy.cell))
                        defer { heap.popRoots(1) }
                        for i in 0..<size { try createDataProperty(copy, .index(UInt32(i)), try getIndex(b, i)) }
                        return Value(cell: copy.cell)
                    }
                    s[HelperSlot.inner] = .undefined
                    return Value(cell: b.cell)
                }
            }
        case .zip:
            return try zipStep(s)
        case .concat:
            // extra: [openMethod0, iterable0, openMethod1, iterable1, ...]; counter: the next pair.
            while true {
                if !s[HelperSlot.inner].isUndefined {
                    var inner = helperRecord(s, inner: true)
                    if let v = try iteratorStep(&inner) { return v }
                    s[HelperSlot.inner] = .undefined
                    s[HelperSlot.innerNext] = .undefined
                    continue
                }
                let list = JSObject(s[HelperSlot.extra])
                let i = Int(s[HelperSlot.counter].asNumber)
                if 2 * i >= list.elementsLength { return nil }
                s[HelperSlot.counter] = Value(i + 1)
                let e = list.elements!
                let it = try call(e[2 * i], this: e[2 * i + 1])
                guard isObject(it) else { throw try typeError("Iterator.concat: the iterator method did not return an object") }
                heap.pushRoot(it)
                defer { heap.popRoots(1) }
                let next = try get(JSObject(it), key(static: "next"), receiver: it)
                s[HelperSlot.inner] = it
                s[HelperSlot.innerNext] = next
            }
        }
    }

    /// %IteratorHelperPrototype%.next (GeneratorResume).
    func helperNext(_ h: JSObject) throws(JSException) -> Value {
        switch helperState(h) {
        case .executing: throw try typeError("Iterator helper is already running")
        case .completed: return try createIterResult(.undefined, done: true)
        default: break
        }
        setHelperState(h, .executing)
        let v: Value?
        do {
            v = try helperStep(h)
        } catch {
            setHelperState(h, .completed)
            throw error
        }
        guard let v else {
            setHelperState(h, .completed)
            return try createIterResult(.undefined, done: true)
        }
        setHelperState(h, .suspendedYield)
        return try createIterResult(v, done: false)
    }

    /// %IteratorHelperPrototype%.return (GeneratorResumeAbrupt with a return completion).
    func helperReturn(_ h: JSObject) throws(JSException) -> Value {
        let state = helperState(h)
        if state == .executing { throw try typeError("Iterator helper is already running") }
        if state == .completed { return try createIterResult(.undefined, done: true) }
        let s = helperSlots(h)
        setHelperState(h, state == .suspendedStart ? .completed : .executing)
        defer { setHelperState(h, .completed) }
        if helperOp(h) == .zip {
            try zipCloseAll(s, nil)
        } else if helperOp(h) == .concat {
            // Only an open inner iterator is closed (its return's errors propagate).
            if !s[HelperSlot.inner].isUndefined { try iteratorClose(helperRecord(s, inner: true)) }
        } else {
            if helperOp(h) == .flatMap && !s[HelperSlot.inner].isUndefined {
                // flatMap inside an inner iterator: close it, then the outer one.
                do { try iteratorClose(helperRecord(s, inner: true)) } catch {
                    iteratorCloseOnThrow(helperRecord(s))
                    throw error
                }
            }
            try iteratorClose(helperRecord(s))
        }
        return try createIterResult(.undefined, done: true)
    }

    // MARK: - Iterator.zip / zipKeyed (joint iteration)
    //
    // State: inner = a JS array of (iterator, next, open) triples (iterator null once a
    // "longest" input is done); function = the padding values; extra = the mode (0
    // shortest, 1 longest, 2 strict); innerNext = the keys (zipKeyed) or undefined.

    /// IteratorCloseAll(openIters, completion) over the open inputs, last first.
    func zipCloseAll(_ s: UnsafeMutablePointer<Value>, _ error: JSException?) throws(JSException) {
        guard isObject(s[HelperSlot.inner]) else { if let error { throw error }; return }
        let iters = JSObject(s[HelperSlot.inner])
        var err = error
        var i = Int(iters.arrayLength) / 3 - 1
        while i >= 0 {
            let e = iters.elements!
            if e[3 * i + 2].bits == Value.true.bits {
                e[3 * i + 2] = .false
                let rec = IteratorRecord(iterator: e[3 * i], next: e[3 * i + 1], done: false)
                if err != nil { iteratorCloseOnThrow(rec) } else {
                    do { try iteratorClose(rec) } catch { err = error }
                }
            }
            i -= 1
        }
        if let err { throw err }
    }

    func zipStep(_ s: UnsafeMutablePointer<Value>) throws(JSException) -> Value? {
        let iters = JSObject(s[HelperSlot.inner])
        let count = Int(iters.arrayLength) / 3
        if count == 0 { return nil }
        let mode = s[HelperSlot.extra].asInt32
        let padding = JSObject(s[HelperSlot.function])
        let results = try newArray(capacity: count)
        heap.pushRoot(Value(cell: results.cell))
        defer { heap.popRoots(1) }
        for i in 0..<count {
            var e = iters.elements!
            var result: Value
            if e[3 * i].isNull {
                result = try getIndex(padding, i)
            } else {
                var rec = IteratorRecord(iterator: e[3 * i], next: e[3 * i + 1], done: false)
                let step: Value?
                do { step = try iteratorStep(&rec) } catch {
                    e[3 * i + 2] = .false
                    try zipCloseAll(s, error)
                    return nil
                }
                e = iters.elements!
                if let step {
                    result = step
                } else {
                    e[3 * i + 2] = .false
                    switch mode {
                    case 0:
                        try zipCloseAll(s, nil)
                        return nil
                    case 2:
                        if i != 0 {
                            try zipCloseAll(s, try typeError("Iterator.zip: the inputs have different lengths (mode \"strict\")"))
                        }
                        for k in 1..<count {
                            let ek = iters.elements!
                            var other = IteratorRecord(iterator: ek[3 * k], next: ek[3 * k + 1], done: false)
                            let open: Value?
                            do { open = try iteratorStepResult(&other) } catch {
                                iters.elements![3 * k + 2] = .false
                                try zipCloseAll(s, error)
                                return nil
                            }
                            if open == nil {
                                iters.elements![3 * k + 2] = .false
                            } else {
                                try zipCloseAll(s, try typeError("Iterator.zip: the inputs have different lengths (mode \"strict\")"))
                            }
                        }
                        return nil
                    default:
                        var anyOpen = false
                        for k in 0..<count where e[3 * k + 2].bits == Value.true.bits { anyOpen = true }
                        if !anyOpen { return nil }
                        e[3 * i] = .null
                        result = try getIndex(padding, i)
                    }
                }
            }
            try createDataProperty(results, .index(UInt32(i)), result)
        }
        let keys = s[HelperSlot.innerNext]
        if keys.isUndefined { return Value(cell: results.cell) }
        let obj = try newObject(prototypeValue: .null)
        heap.pushRoot(Value(cell: obj.cell))
        defer { heap.popRoots(1) }
        let k = JSObject(keys)
        for i in 0..<count {
            try createDataPropertyOrThrow(obj, try toPropertyKey(k.elements![i]), results.elements![i])
        }
        return Value(cell: obj.cell)
    }

    /// IteratorStep: the result object, or nil when done (the value is not read).
    func iteratorStepResult(_ rec: inout IteratorRecord) throws(JSException) -> Value? {
        let r = try call(rec.next, this: rec.iterator)
        guard isObject(r) else { throw try typeError("Iterator result \(try describeForError(r)) is not an object") }
        if toBoolean(try get(JSObject(r), key(static: "done"), receiver: r)) { return nil }
        return r
    }

    /// Iterator.zip and Iterator.zipKeyed.
    func iteratorZip(_ iterables: Value, _ optionsArg: Value, keyed: Bool) throws(JSException) -> Value {
        let name = keyed ? "Iterator.zipKeyed" : "Iterator.zip"
        guard isObject(iterables) else { throw try typeError("\(name): \(try describeForError(iterables)) is not an object") }
        // GetOptionsObject.
        var options = optionsArg
        if options.isUndefined { options = Value(cell: try newObject(prototypeValue: .null).cell) }
        guard isObject(options) else { throw try typeError("\(name): options must be an object") }
        heap.pushRoot(options)
        defer { heap.popRoots(1) }
        let modeValue = try get(JSObject(options), key(static: "mode"), receiver: options)
        var mode: Int32 = 0
        if !modeValue.isUndefined {
            let m = isString(modeValue) ? try flatten(modeValue).swiftString : ""
            switch m {
            case "shortest": mode = 0
            case "longest": mode = 1
            case "strict": mode = 2
            default: throw try typeError("\(name): mode must be \"shortest\", \"longest\" or \"strict\"")
            }
        }
        var paddingOption = Value.undefined
        if mode == 1 {
            paddingOption = try get(JSObject(options), key(static: "padding"), receiver: options)
            if !paddingOption.isUndefined && !isObject(paddingOption) { throw try typeError("\(name): padding must be an object") }
        }
        heap.pushRoot(paddingOption)
        defer { heap.popRoots(1) }
        // iters as (iterator, next, open) triples.
        let iters = try newArray()
        heap.pushRoot(Value(cell: iters.cell))
        defer { heap.popRoots(1) }
        let keys = try newArray()
        heap.pushRoot(Value(cell: keys.cell))
        defer { heap.popRoots(1) }
        var state = [Value](repeating: .undefined, count: HelperSlot.count)
        state[HelperSlot.inner] = Value(cell: iters.cell)
        func add(_ rec: IteratorRecord) throws(JSException) {
            let n = iters.arrayLength
            try createDataProperty(iters, .index(n), rec.iterator)
            try createDataProperty(iters, .index(n + 1), rec.next)
            try createDataProperty(iters, .index(n + 2), .true)
        }
        try state.withUnsafeMutableBufferPointer { sb throws(JSException) in
            let s = sb.baseAddress!
            if keyed {
                let o = JSObject(iterables)
                let allKeys = try ownKeys(o)
                let rooted = rootKeys(allKeys)
                defer { heap.popRoots(rooted) }
                for k in allKeys {
                    do throws(JSException) {
                        guard let d = try getOwnProperty(o, k), d.attributes.contains(.enumerable) else { continue }
                        let v = try get(o, k, receiver: iterables)
                        if v.isUndefined { continue }
                        heap.pushRoot(v)
                        defer { heap.popRoots(1) }
                        try createDataProperty(keys, .index(keys.arrayLength), try keyValue(k))
                        let rec = try getIteratorFlattenable(v, rejectPrimitives: true)
                        try add(rec)
                    } catch {
                        try zipCloseAll(s, error)
                    }
                }
            } else {
                var input = try getIterator(iterables)
                heap.pushRoot(input.iterator); heap.pushRoot(input.next)
                defer { heap.popRoots(2) }
                while true {
                    let next: Value?
                    do throws(JSException) { next = try iteratorStep(&input) } catch { try zipCloseAll(s, error); return }
                    guard let next else { break }
                    do throws(JSException) {
                        try add(try getIteratorFlattenable(next, rejectPrimitives: true))
                    } catch {
                        iteratorCloseOnThrow(input)
                        try zipCloseAll(s, error)
                    }
                }
            }
        }
        let count = Int(iters.arrayLength) / 3
        let padding = try newArray(capacity: count)
        heap.pushRoot(Value(cell: padding.cell))
        defer { heap.popRoots(1) }
        for i in 0..<count { try createDataProperty(padding, .index(UInt32(i)), .undefined) }
        if mode == 1 && !paddingOption.isUndefined {
            try state.withUnsafeMutableBufferPointer { sb throws(JSException) in
                let s = sb.baseAddress!
                if keyed {
                    for i in 0..<count {
                        do throws(JSException) {
                            let v = try get(JSObject(paddingOption), try toPropertyKey(keys.elements![i]), receiver: paddingOption)
                            try createDataProperty(padding, .index(UInt32(i)), v)
                        } catch { try zipCloseAll(s, error) }
                    }
                    return
                }
                var padIter: IteratorRecord
                do throws(JSException) { padIter = try getIterator(paddingOption) } catch { try zipCloseAll(s, error); return }
                heap.pushRoot(padIter.iterator); heap.pushRoot(padIter.next)
                defer { heap.popRoots(2) }
                var usingIterator = true
                for i in 0..<count where usingIterator {
                    let next: Value?
                    do throws(JSException) { next = try iteratorStep(&padIter) } catch { try zipCloseAll(s, error); return }
                    if let next { try createDataProperty(padding, .index(UInt32(i)), next) } else { usingIterator = false }
                }
                if usingIterator {
                    do throws(JSException) { try iteratorClose(padIter) } catch { try zipCloseAll(s, error) }
                }
            }
        }
        let h = try makeIteratorHelper(.zip, iterator: .undefined, next: .undefined, function: Value(cell: padding.cell),
                                       extra: Value(int32: mode))
        let hs = helperSlots(JSObject(h))
        hs[HelperSlot.inner] = Value(cell: iters.cell)
        hs[HelperSlot.innerNext] = keyed ? Value(cell: keys.cell) : .undefined
        return h
    }

    // MARK: - Abstract operations

    /// GetIteratorDirect(obj).
    func getIteratorDirect(_ o: Value) throws(JSException) -> IteratorRecord {
        let next = try get(JSObject(o), key(static: "next"), receiver: o)
        return IteratorRecord(iterator: o, next: next, done: false)
    }

    /// GetIteratorFlattenable(obj, primitiveHandling).
    func getIteratorFlattenable(_ v: Value, rejectPrimitives: Bool) throws(JSException) -> IteratorRecord {
        if !isObject(v) {
            if rejectPrimitives || !isString(v) { throw try typeError("\(try describeForError(v)) is not an iterator or iterable") }
        }
        let method = try getMethod(v, symbolKey(wellKnown.iterator))
        let it = method == nil ? v : try call(method!, this: v)
        guard isObject(it) else { throw try typeError("\(try describeForError(it)) is not an iterator object") }
        heap.pushRoot(it)
        defer { heap.popRoots(1) }
        return try getIteratorDirect(it)
    }

    /// The `this` of an Iterator.prototype method: an object, else a TypeError.
    func thisIterator(_ v: Value, _ method: String) throws(JSException) -> Value {
        guard isObject(v) else { throw try typeError("Iterator.prototype.\(method) called on non-object \(try describeForError(v))") }
        return v
    }

    /// A callable argument; when it is not, closes `o` (its `return`) and throws a TypeError.
    func callableOrClose(_ o: Value, _ f: Value) throws(JSException) {
        if isCallable(f) { return }
        let error = try typeError("\(try describeForError(f)) is not a function")
        iteratorCloseOnThrow(IteratorRecord(iterator: o, next: .undefined, done: false))
        throw error
    }

    /// The limit of take/drop: ToNumber, then a RangeError for NaN or a negative number;
    /// the underlying iterator is closed when the validation fails.
    func helperLimit(_ o: Value, _ v: Value, _ method: String) throws(JSException) -> Double {
        let closing = IteratorRecord(iterator: o, next: .undefined, done: false)
        let n = try closingOnThrow(closing) { () throws(JSException) in try toNumber(v) }
        if n.isNaN {
            let e = try rangeError("Iterator.prototype.\(method): \(try describeForError(v)) must be a number")
            iteratorCloseOnThrow(closing)
            throw e
        }
        let limit = try toIntegerOrInfinity(Value(n))
        if limit < 0 || (limit.isFinite && limit > 9007199254740991) {
            let e = try rangeError("Iterator.prototype.\(method): \(try describeForError(v)) must be positive")
            iteratorCloseOnThrow(closing)
            throw e
        }
        return limit
    }

    /// SetterThatIgnoresPrototypeProperties(this, home, p, v).
    func setterIgnoringPrototype(_ this: Value, _ home: JSObject, _ k: Key, _ v: Value) throws(JSException) {
        guard isObject(this) else { throw try typeError("setter called on non-object") }
        let o = JSObject(this)
        if o.cell == home.cell { throw try typeError("Cannot assign to read only property '\(keyDescription(k))' of object") }
        if try getOwnProperty(o, k) == nil {
            try createDataPropertyOrThrow(o, k, v)
        } else {
            try setOrThrow(o, k, v)
        }
    }

    // MARK: - Installation

    func installIteratorHelpers() throws(JSException) {
        let proto = realm.iteratorPrototype!
        let ctor = try makeNativeFunction("Iterator", length: 0, isConstructor: true) { rt, _, _, newTarget throws(JSException) in
            if newTarget.isUndefined || newTarget.bits == rt.nativeCallee.bits {
                throw try rt.typeError("Abstract class Iterator not directly constructable")
            }
            return Value(cell: try rt.createFromConstructor(.object, newTarget, rt.realm.iteratorPrototype).cell)
        }
        heap.pushRoot(Value(cell: ctor.cell))
        defer { heap.popRoots(1) }
        try defineData(ctor, PropertyKey(cell: atom(static: "prototype")), Value(cell: proto.cell), [])
        try put(realm.global, "Iterator", Value(cell: ctor.cell))

        // Iterator.prototype.constructor and @@toStringTag: accessors (web compatibility).
        let ctorValue = Value(cell: ctor.cell)
        let tagKey = symbolKey(wellKnown.toStringTag)
        try accessor(proto, tagKey, name: "[Symbol.toStringTag]", getter: { rt, _, _, _ throws(JSException) in
            try rt.makeString("Iterator")
        }, setter: { rt, this, args, _ throws(JSException) in
            try rt.setterIgnoringPrototype(this, rt.realm.iteratorPrototype, rt.symbolKey(rt.wellKnown.toStringTag), rt.arg(args, 0))
            return .undefined
        })
        try accessor(proto, key(static: "constructor"), name: "constructor", getter: { rt, _, _, _ throws(JSException) in
            rt.iteratorConstructorValue
        }, setter: { rt, this, args, _ throws(JSException) in
            try rt.setterIgnoringPrototype(this, rt.realm.iteratorPrototype, rt.key(static: "constructor"), rt.arg(args, 0))
            return .undefined
        })
        iteratorConstructorValue = ctorValue
        permanentRoots.append(ctorValue)

        // %IteratorHelperPrototype%
        let helperProto = try newObject(prototype: proto)
        iteratorHelperPrototype = helperProto
        permanentRoots.append(Value(cell: helperProto.cell))
        try method(helperProto, "next", 0) { rt, this, _, _ throws(JSException) in
            try rt.helperNext(try rt.thisHelper(this, "next"))
        }
        try method(helperProto, "return", 0) { rt, this, _, _ throws(JSException) in
            try rt.helperReturn(try rt.thisHelper(this, "return"))
        }
        try defineOwnProperty(helperProto, tagKey, .data(try makeString("Iterator Helper"), [.configurable]))

        // %WrapForValidIteratorPrototype%
        let wrapProto = try newObject(prototype: proto)
        wrapForValidIteratorPrototype = wrapProto
        permanentRoots.append(Value(cell: wrapProto.cell))
        func thisWrapper(_ rt: Runtime, _ v: Value) throws(JSException) -> JSObject {
            guard rt.isObject(v), JSObject(v).kind == .iterator, JSObject(v).flags & (IteratorHelperFlags.helper | IteratorHelperFlags.wrapper) == IteratorHelperFlags.wrapper else {
                throw try rt.typeError("incompatible receiver \(try rt.describeForError(v))")
            }
            return JSObject(v)
        }
        try method(wrapProto, "next", 0) { rt, this, _, _ throws(JSException) in
            let w = try thisWrapper(rt, this)
            return try rt.call(w.extraValue(2), this: w.extraValue(1))
        }
        try method(wrapProto, "return", 0) { rt, this, _, _ throws(JSException) in
            let w = try thisWrapper(rt, this)
            let it = w.extraValue(1)
            guard let ret = try rt.getMethod(it, rt.key(static: "return")) else { return try rt.createIterResult(.undefined, done: true) }
            return try rt.call(ret, this: it)
        }

        // Iterator.from(O)
        try method(ctor, "from", 1) { rt, _, args, _ throws(JSException) in
            let rec = try rt.getIteratorFlattenable(rt.arg(args, 0), rejectPrimitives: false)
            rt.heap.pushRoot(rec.iterator); rt.heap.pushRoot(rec.next)
            defer { rt.heap.popRoots(2) }
            if try rt.ordinaryHasInstance(rt.iteratorConstructorValue, rec.iterator) { return rec.iterator }
            let w = try rt.allocateObject(.iterator, shape: try rt.rootShape(for: Value(cell: rt.wrapForValidIteratorPrototype!.cell)))
            w.flags |= IteratorHelperFlags.wrapper
            w.setExtraValue(1, rec.iterator)
            w.setExtraValue(2, rec.next)
            return Value(cell: w.cell)
        }

        // Iterator.concat(...items)
        try method(ctor, "concat", 0) { rt, _, args, _ throws(JSException) in
            let list = try rt.newArray(capacity: args.count * 2)
            rt.heap.pushRoot(Value(cell: list.cell))
            defer { rt.heap.popRoots(1) }
            for (i, item) in args.enumerated() {
                guard rt.isObject(item) else { throw try rt.typeError("Iterator.concat: \(try rt.describeForError(item)) is not an object") }
                guard let m = try rt.getMethod(item, rt.symbolKey(rt.wellKnown.iterator)) else {
                    throw try rt.typeError("Iterator.concat: \(try rt.describeForError(item)) is not iterable")
                }
                list.elements![2 * i] = m
                list.elements![2 * i + 1] = item
                list.elementsLength = 2 * i + 2
                list.arrayLength = UInt32(2 * i + 2)
            }
            return try rt.makeIteratorHelper(.concat, iterator: .undefined, next: .undefined, extra: Value(cell: list.cell))
        }

        try method(ctor, "zip", 1) { rt, _, args, _ throws(JSException) in
            try rt.iteratorZip(rt.arg(args, 0), rt.arg(args, 1), keyed: false)
        }
        try method(ctor, "zipKeyed", 1) { rt, _, args, _ throws(JSException) in
            try rt.iteratorZip(rt.arg(args, 0), rt.arg(args, 1), keyed: true)
        }

        // Lazy helpers.
        for (name, op) in [("map", HelperOp.map), ("filter", .filter), ("flatMap", .flatMap)] {
            try method(proto, name, 1) { rt, this, args, _ throws(JSException) in
                let o = try rt.thisIterator(this, name)
                let f = rt.arg(args, 0)
                try rt.callableOrClose(o, f)
                let rec = try rt.getIteratorDirect(o)
                return try rt.makeIteratorHelper(op, iterator: rec.iterator, next: rec.next, function: f)
            }
        }
        for (name, op) in [("take", HelperOp.take), ("drop", .drop)] {
            try method(proto, name, 1) { rt, this, args, _ throws(JSException) in
                let o = try rt.thisIterator(this, name)
                let limit = try rt.helperLimit(o, rt.arg(args, 0), name)
                let rec = try rt.getIteratorDirect(o)
                return try rt.makeIteratorHelper(op, iterator: rec.iterator, next: rec.next, extra: Value(limit))
            }
        }

        // chunks(chunkSize), windows(windowSize, undersized)
        for (name, op) in [("chunks", HelperOp.chunks), ("windows", .windows)] {
            try method(proto, name, 1) { rt, this, args, _ throws(JSException) in
                let o = try rt.thisIterator(this, name)
                let closing = IteratorRecord(iterator: o, next: .undefined, done: false)
                let size = rt.arg(args, 0)
                guard size.isNumber, size.asNumber.isFinite, size.asNumber.rounded(.towardZero) == size.asNumber else {
                    let e = try rt.typeError("Iterator.prototype.\(name): the size must be an integral number")
                    rt.iteratorCloseOnThrow(closing)
                    throw e
                }
                let n = size.asNumber
                if n < 1 || n > 4294967295 {
                    let e = try rt.rangeError("Iterator.prototype.\(name): the size must be between 1 and 2^32 - 1")
                    rt.iteratorCloseOnThrow(closing)
                    throw e
                }
                var partial = false
                if op == .windows {
                    let u = rt.arg(args, 1)
                    let mode = u.isUndefined ? "only-full" : rt.isString(u) ? try rt.flatten(u).swiftString : ""
                    guard mode == "only-full" || mode == "allow-partial" else {
                        let e = try rt.typeError("Iterator.prototype.windows: undersized must be \"only-full\" or \"allow-partial\"")
                        rt.iteratorCloseOnThrow(closing)
                        throw e
                    }
                    partial = mode == "allow-partial"
                }
                let rec = try rt.getIteratorDirect(o)
                return try rt.makeIteratorHelper(op, iterator: rec.iterator, next: rec.next, function: Value(partial), extra: Value(n))
            }
        }

        // Eager methods.
        try method(proto, "includes", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisIterator(this, "includes")
            let closing = IteratorRecord(iterator: o, next: .undefined, done: false)
            let search = rt.arg(args, 0)
            let skippedArg = rt.arg(args, 1)
            var toSkip = 0.0
            if !skippedArg.isUndefined {
                guard skippedArg.isNumber, !skippedArg.asNumber.isNaN,
                      skippedArg.asNumber.isInfinite || skippedArg.asNumber.rounded(.towardZero) == skippedArg.asNumber else {
                    let e = try rt.typeError("Iterator.prototype.includes: skippedElements must be an integral number")
                    rt.iteratorCloseOnThrow(closing)
                    throw e
                }
                toSkip = skippedArg.asNumber
            }
            if toSkip < 0 || (toSkip.isFinite && toSkip > 9007199254740991) {
                let e = try rt.rangeError("Iterator.prototype.includes: skippedElements is out of range")
                rt.iteratorCloseOnThrow(closing)
                throw e
            }
            var rec = try rt.getIteratorDirect(o)
            rt.heap.pushRoot(rec.next)
            defer { rt.heap.popRoots(1) }
            var skipped = 0.0
            while let v = try rt.iteratorStep(&rec) {
                if skipped < toSkip { skipped += 1; continue }
                if rt.sameValueZero(v, search) {
                    try rt.iteratorClose(rec)
                    return .true
                }
            }
            return .false
        }
        try method(proto, "reduce", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisIterator(this, "reduce")
            let f = rt.arg(args, 0)
            try rt.callableOrClose(o, f)
            var rec = try rt.getIteratorDirect(o)
            rt.heap.pushRoot(rec.next)
            defer { rt.heap.popRoots(1) }
            var acc: Value
            var counter = 0
            if args.count < 2 {
                guard let first = try rt.iteratorStep(&rec) else {
                    throw try rt.typeError("Reduce of empty iterator with no initial value")
                }
                acc = first
                counter = 1
            } else {
                acc = args[1]
            }
            while true {
                rt.heap.pushRoot(acc)
                defer { rt.heap.popRoots(1) }
                guard let v = try rt.iteratorStep(&rec) else { return acc }
                let a = acc, c = counter
                acc = try rt.closingOnThrow(rec) { () throws(JSException) in try rt.call(f, this: .undefined, a, v, Value(c)) }
                counter += 1
            }
        }
        try method(proto, "toArray", 0) { rt, this, _, _ throws(JSException) in
            let o = try rt.thisIterator(this, "toArray")
            var rec = try rt.getIteratorDirect(o)
            rt.heap.pushRoot(rec.next)
            defer { rt.heap.popRoots(1) }
            let a = try rt.newArray()
            rt.heap.pushRoot(Value(cell: a.cell))
            defer { rt.heap.popRoots(1) }
            var n: UInt32 = 0
            while let v = try rt.iteratorStep(&rec) {
                try rt.createDataProperty(a, .index(n), v)
                n += 1
            }
            return Value(cell: a.cell)
        }
        try method(proto, "forEach", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisIterator(this, "forEach")
            let f = rt.arg(args, 0)
            try rt.callableOrClose(o, f)
            var rec = try rt.getIteratorDirect(o)
            rt.heap.pushRoot(rec.next)
            defer { rt.heap.popRoots(1) }
            var counter = 0
            while let v = try rt.iteratorStep(&rec) {
                let c = counter
                _ = try rt.closingOnThrow(rec) { () throws(JSException) in try rt.call(f, this: .undefined, v, Value(c)) }
                counter += 1
            }
            return .undefined
        }
        // some / every / find: (stop when the predicate is this, result then, result at the end).
        for (name, kind) in [("some", 0), ("every", 1), ("find", 2)] {
            try method(proto, name, 1) { rt, this, args, _ throws(JSException) in
                let o = try rt.thisIterator(this, name)
                let f = rt.arg(args, 0)
                try rt.callableOrClose(o, f)
                var rec = try rt.getIteratorDirect(o)
                rt.heap.pushRoot(rec.next)
                defer { rt.heap.popRoots(1) }
                var counter = 0
                while let v = try rt.iteratorStep(&rec) {
                    rt.heap.pushRoot(v)
                    defer { rt.heap.popRoots(1) }
                    let c = counter
                    let r = rt.toBoolean(try rt.closingOnThrow(rec) { () throws(JSException) in try rt.call(f, this: .undefined, v, Value(c)) })
                    counter += 1
                    switch kind {
                    case 0 where r: try rt.iteratorClose(rec); return .true
                    case 1 where !r: try rt.iteratorClose(rec); return .false
                    case 2 where r: try rt.iteratorClose(rec); return v
                    default: break
                    }
                }
                return kind == 0 ? .false : kind == 1 ? .true : .undefined
            }
        }
    }
}
