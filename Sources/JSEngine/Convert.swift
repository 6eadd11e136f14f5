// Conversions between Swift values and JS values.

import JSRuntime

enum Convert {
    static let maxDepth = 64
    static let foreignValueMessage = "a value of another JSContext (or a raw value no longer alive) cannot be used in this context"
    /// The most elements `toArray`/`toObject` convert from one array-like (a `length` of
    /// 2**53 is not a reason to allocate).
    static let maxArrayLength = 1 << 24

    /// The state of one `toObject`/`toArray`/`toDictionary`: each object is converted once
    /// (a graph that shares nodes — a DAG of depth 64 has up to 2**64 paths — is linear),
    /// and the number of values is bounded (getters that make new objects for ever end in a
    /// `RangeError` instead of running for ever).
    final class Budget {
        var remaining = 1 << 22
        var converted: [UInt: Any?] = [:]
    }

    /// A Swift value as a JS value. The result is not rooted: root it before allocating.
    static func toJS(_ object: Any?, _ context: JSContext, depth: Int = 0) throws(JSException) -> Value {
        let rt = context.runtime
        guard let object else { return .undefined }
        if depth > maxDepth { throw try rt.rangeError("JSValue(object:): nesting too deep") }
        switch object {
        case let v as JSValue:
            // As JavaScriptCore checks: a value of another context is not a value here.
            guard v.context === context else { throw try rt.typeError(Convert.foreignValueMessage) }
            return v.value
        case let v as Value:
            guard rt.owns(v) else { throw try rt.typeError(Convert.foreignValueMessage) }
            return v
        case let b as Bool: return Value(b)
        case let i as Int:
            if let i32 = Int32(exactly: i) { return Value(int32: i32) }
            return Value(Double(i))
        case let i as Int32: return Value(int32: i)
        case let i as Int64: return Value(Double(i))
        case let i as UInt: return Value(Double(i))
        case let i as UInt32: return Value(Double(i))
        case let i as Int16: return Value(int32: Int32(i))
        case let i as UInt16: return Value(int32: Int32(i))
        case let i as Int8: return Value(int32: Int32(i))
        case let i as UInt8: return Value(int32: Int32(i))
        case let d as Double: return Value(d)
        case let f as Float: return Value(Double(f))
        case let s as String: return try rt.makeString(s)
        case let s as Substring: return try rt.makeString(String(s))
        case let c as Character: return try rt.makeString(String(c))
        case let f as ([JSValue]) throws -> Any?:
            return JSValue(function: f, in: context).value
        case let a as [Any?]:
            return try array(a, context, depth: depth)
        case let a as [Any]:
            return try array(a.map { Optional($0) }, context, depth: depth)
        case let d as [String: Any?]:
            return try dictionary(d.sorted { $0.key < $1.key }, context, depth: depth)
        case let d as [String: Any]:
            return try dictionary(d.sorted { $0.key < $1.key }.map { ($0.key, Optional($0.value)) }, context, depth: depth)
        default:
            // Optionals nested inside `Any` (e.g. an `Int?` in an `[Any]`).
            let mirror = Mirror(reflecting: object)
            if mirror.displayStyle == .optional {
                return try toJS(mirror.children.first?.value, context, depth: depth)
            }
            return try rt.makeString(String(describing: object))
        }
    }

    static func array(_ items: [Any?], _ context: JSContext, depth: Int) throws(JSException) -> Value {
        let rt = context.runtime
        let a = try rt.newArray(capacity: items.count)
        let v = Value(cell: a.cell)
        rt.heap.pushRoot(v)
        defer { rt.heap.popRoots(1) }
        for (i, item) in items.enumerated() {
            let e = try toJS(item, context, depth: depth + 1)
            rt.heap.pushRoot(e)
            defer { rt.heap.popRoots(1) }
            _ = try rt.createDataProperty(a, .index(UInt32(i)), e)
        }
        return v
    }

    static func dictionary(_ entries: [(key: String, value: Any?)], _ context: JSContext, depth: Int) throws(JSException) -> Value {
        let rt = context.runtime
        let o = try rt.newObject()
        let v = Value(cell: o.cell)
        rt.heap.pushRoot(v)
        defer { rt.heap.popRoots(1) }
        for (k, item) in entries {
            let e = try toJS(item, context, depth: depth + 1)
            rt.heap.pushRoot(e)
            defer { rt.heap.popRoots(1) }
            let key = try rt.toPropertyKey(try rt.makeString(k))
            _ = try rt.createDataProperty(o, key, e)
        }
        return v
    }

    /// A JS value as a Swift value (see `JSValue.toObject`).
    static func toSwift(_ v: Value, _ context: JSContext, depth: Int, budget: Budget = Budget()) throws(JSException) -> Any? {
        let rt = context.runtime
        budget.remaining -= 1
        if budget.remaining < 0 { throw try rt.rangeError("toObject: more than \(1 << 22) values to convert") }
        if v.isNullish { return nil }
        if v.isBool { return v.asBool }
        if v.isNumber { return v.asNumber }
        if rt.isString(v) { return try rt.flatten(v).swiftString }
        if rt.isCallable(v) || !rt.isObject(v) || depth >= maxDepth { return JSValue(unchecked: v, in: context) }
        let address = UInt(bitPattern: v.asCell)
        if let done = budget.converted[address] { return done }
        let result: Any?
        if rt.isArrayObject(v) {
            result = try arrayToSwift(JSObject(v), context, depth: depth, budget: budget)
        } else {
            result = try objectToSwift(JSObject(v), context, depth: depth, budget: budget)
        }
        budget.converted[address] = .some(result)
        return result
    }

    static func arrayToSwift(_ o: JSObject, _ context: JSContext, depth: Int, budget: Budget = Budget()) throws(JSException) -> [Any?] {
        let rt = context.runtime
        let ov = Value(cell: o.cell)
        let length = try rt.toLength(try rt.get(o, "length"))
        if length > maxArrayLength {
            throw try rt.rangeError("toArray: length \(length) is more than \(maxArrayLength) elements")
        }
        var result: [Any?] = []
        result.reserveCapacity(length)
        for i in 0..<length {
            let e = try rt.get(o, i <= Int(UInt32.max - 1) ? .index(UInt32(i)) : try rt.toPropertyKey(Value(Double(i))), receiver: ov)
            rt.heap.pushRoot(e)
            defer { rt.heap.popRoots(1) }
            result.append(try toSwift(e, context, depth: depth + 1, budget: budget))
        }
        return result
    }

    static func objectToSwift(_ o: JSObject, _ context: JSContext, depth: Int, budget: Budget = Budget()) throws(JSException) -> [String: Any?] {
        let rt = context.runtime
        let ov = Value(cell: o.cell)
        var result: [String: Any?] = [:]
        for key in try rt.ownKeys(o) {
            let kv = try rt.keyValue(key)
            if rt.isSymbol(kv) { continue }
            guard let own = try rt.getOwnProperty(o, key), own.descriptor.enumerable == true else { continue }
            rt.heap.pushRoot(kv)
            defer { rt.heap.popRoots(1) }
            let name = try rt.flatten(try rt.toString(kv)).swiftString
            let e = try rt.get(o, key, receiver: ov)
            rt.heap.pushRoot(e)
            defer { rt.heap.popRoots(1) }
            result[name] = .some(try toSwift(e, context, depth: depth + 1, budget: budget))
        }
        return result
    }
}
