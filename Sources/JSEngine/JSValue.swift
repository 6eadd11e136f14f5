// A rooted reference to a JavaScript value of a `JSContext`.

import JSRuntime

/// A JavaScript value. Holds its context alive; a heap value (object, string, symbol)
/// stays a GC root for as long as this object lives.
///
/// A value belongs to one context: passing it to another context (as an argument, a
/// property value, a thrown `JSValueError`) is a `TypeError` in that context, as in
/// JavaScriptCore, never a reference into another heap. Like its context, a `JSValue` is
/// used from one thread at a time (the context's; see `JSContext`).
public final class JSValue: CustomStringConvertible {
    /// The context the value belongs to.
    public let context: JSContext
    /// The raw value (read it while this `JSValue` is alive).
    public let value: Value
    private let handle: Int

    /// Wraps a raw value of `context`'s runtime, rooting it. A heap value that is not a
    /// live cell of that runtime's heap (a raw value taken from another context, or kept
    /// after its `JSValue` went away) is refused: the result is `undefined` and a
    /// `TypeError` is reported to the context (`exception`, `exceptionHandler`).
    public convenience init(_ value: Value, in context: JSContext) {
        if context.runtime.owns(value) {
            self.init(unchecked: value, in: context)
        } else {
            self.init(unchecked: .undefined, in: context)
            context.reportForeignValue()
        }
    }

    /// Wraps a value known to be of `context`'s runtime (the engine's own results).
    init(unchecked value: Value, in context: JSContext) {
        self.context = context
        self.value = value
        handle = value.isCell ? context.handles.add(value) : -1
    }

    deinit {
        if handle >= 0 { context.handles.remove(handle) }
    }

    var rt: Runtime { context.runtime }

    // MARK: - Creating values

    public convenience init(undefinedIn context: JSContext) { self.init(unchecked: .undefined, in: context) }
    public convenience init(nullIn context: JSContext) { self.init(unchecked: .null, in: context) }
    public convenience init(bool: Bool, in context: JSContext) { self.init(unchecked: Value(bool), in: context) }
    public convenience init(double: Double, in context: JSContext) { self.init(unchecked: Value(double), in: context) }
    public convenience init(int32: Int32, in context: JSContext) { self.init(unchecked: Value(int32: int32), in: context) }

    public convenience init(string: String, in context: JSContext) {
        self.init(unchecked: context.attempt { () throws(JSException) in try context.runtime.makeString(string) } ?? .undefined, in: context)
    }

    /// A new empty object.
    public convenience init(newObjectIn context: JSContext) {
        self.init(unchecked: context.attempt { () throws(JSException) in Value(cell: try context.runtime.newObject().cell) } ?? .undefined, in: context)
    }

    /// A new empty array.
    public convenience init(newArrayIn context: JSContext) {
        self.init(unchecked: context.attempt { () throws(JSException) in Value(cell: try context.runtime.newArray().cell) } ?? .undefined, in: context)
    }

    /// A new `Error` with `message`.
    public convenience init(newErrorFromMessage message: String, in context: JSContext) {
        self.init(unchecked: context.attempt { () throws(JSException) in try context.runtime.makeError(.error, message).value } ?? .undefined, in: context)
    }

    /// Converts a Swift value: nil -> undefined, `JSValue` as is, Bool, integers and
    /// floating-point numbers -> number, String -> string, arrays -> Array (recursively),
    /// `[String: ...]` dictionaries -> plain objects, `([JSValue]) throws -> Any?` closures
    /// -> functions. Anything else becomes its description string.
    public convenience init(object: Any?, in context: JSContext) {
        let v = context.attempt { () throws(JSException) in try Convert.toJS(object, context) } ?? .undefined
        self.init(unchecked: v, in: context)
    }

    /// A JS function whose body is a Swift closure. The closure gets the arguments; its
    /// result is converted with `JSValue(object:in:)`. A thrown `JSValueError` throws its
    /// value; any other Swift error throws an `Error` with the error's description.
    public convenience init(function body: @escaping ([JSValue]) throws -> Any?, name: String = "", in context: JSContext) {
        self.init(function: { _, args in try body(args) }, name: name, in: context)
    }

    /// A JS function whose body is a Swift closure that also receives `this`.
    ///
    /// The function holds its context weakly (the context owns the runtime that owns the
    /// function): called after the context is gone, through a `Runtime` kept from
    /// `context.runtime`, it throws a `TypeError` instead of running `body`.
    /// The closure may call back into the same context (evaluate, call, read and set
    /// properties); the nesting is bounded like JS recursion (a `RangeError`). A `body`
    /// that captures the context (or a `JSValue` of it) strongly keeps the context alive
    /// for as long as the function exists, that is for the context's whole life: capture
    /// it `[weak context]` if the context should go away when the embedder drops it.
    public convenience init(function body: @escaping (_ this: JSValue, _ args: [JSValue]) throws -> Any?,
                            name: String = "", in context: JSContext) {
        let native: NativeFunction = { [weak context] rt, this, args, _ throws(JSException) -> Value in
            guard let context else { throw try rt.typeError("the JSContext of this native function is gone") }
            let thisValue = JSValue(unchecked: this, in: context)
            let wrapped = args.map { JSValue(unchecked: $0, in: context) }
            let result: Any?
            do {
                result = try body(thisValue, wrapped)
            } catch {
                throw context.jsException(for: error)
            }
            return try Convert.toJS(result, context)
        }
        let f = context.attempt { () throws(JSException) in
            Value(cell: try context.runtime.makeNativeFunction(name, length: 0, native).cell)
        }
        self.init(unchecked: f ?? .undefined, in: context)
    }

    // MARK: - Type tests

    public var isUndefined: Bool { value.isUndefined }
    public var isNull: Bool { value.isNull }
    public var isBoolean: Bool { value.isBool }
    public var isNumber: Bool { value.isNumber }
    public var isString: Bool { value.isCell && rt.isString(value) }
    public var isSymbol: Bool { value.isCell && rt.isSymbol(value) }
    public var isObject: Bool { rt.isObject(value) }
    public var isArray: Bool { rt.isArrayObject(value) }
    public var isFunction: Bool { rt.isCallable(value) }

    // MARK: - Conversions

    /// ToString (on an exception: reported, and "" returned).
    public func toString() -> String {
        context.attempt { () throws(JSException) in try rt.flatten(try rt.toString(value)).swiftString } ?? ""
    }

    /// ToNumber (NaN on an exception).
    public func toDouble() -> Double {
        context.attempt { () throws(JSException) in try rt.toNumber(value) } ?? .nan
    }

    /// ToInt32 (0 on an exception).
    public func toInt32() -> Int32 {
        context.attempt { () throws(JSException) in try rt.toInt32(value) } ?? 0
    }

    /// ToBoolean.
    public func toBool() -> Bool { rt.toBoolean(value) }

    /// The value as a Swift value: undefined/null -> nil, Bool, Double, String, arrays ->
    /// `[Any?]`, functions -> `JSValue`, other objects -> `[String: Any?]`.
    public func toObject() -> Any? {
        context.attempt { () throws(JSException) in try Convert.toSwift(value, context, depth: 0) } ?? nil
    }

    /// The elements of an array (or array-like object), converted like `toObject()`.
    public func toArray() -> [Any?] {
        guard isObject else { return [] }
        return context.attempt { () throws(JSException) in try Convert.arrayToSwift(JSObject(value), context, depth: 0) } ?? []
    }

    /// The own enumerable string-keyed properties, converted like `toObject()`.
    public func toDictionary() -> [String: Any?] {
        guard isObject else { return [:] }
        return context.attempt { () throws(JSException) in try Convert.objectToSwift(JSObject(value), context, depth: 0) } ?? [:]
    }

    /// ToString for primitives and ordinary objects; the inspector's rendering otherwise.
    public var description: String {
        if rt.isObject(value) || (value.isCell && rt.isSymbol(value)) {
            if let s = try? rt.inspect(value, depth: 0, top: false) { return s }
        }
        if let s = try? rt.flatten(try rt.toString(value)).swiftString { return s }
        return (try? rt.inspect(value, depth: 0, top: false)) ?? "<value>"
    }

    // MARK: - Properties

    /// The object itself, or ToObject of a primitive.
    private func object() throws(JSException) -> JSObject {
        try rt.toObject(value)
    }

    private func propertyKey(_ name: String) throws(JSException) -> Key {
        try rt.toPropertyKey(try rt.makeString(name))
    }

    public func forProperty(_ name: String) -> JSValue {
        let v = context.attempt { () throws(JSException) in
            let o = try object()
            return try rt.get(o, try propertyKey(name), receiver: value)
        }
        return JSValue(unchecked: v ?? .undefined, in: context)
    }

    /// Sets a property to a Swift value (converted with `JSValue(object:in:)`); exceptions
    /// are reported. Setting a property of a primitive does nothing.
    public func setValue(_ newValue: Any?, forProperty name: String) {
        _ = context.attempt { () throws(JSException) in
            guard rt.isObject(value) else { return }
            let v = try Convert.toJS(newValue, context)
            rt.heap.pushRoot(v)
            defer { rt.heap.popRoots(1) }
            if !(try rt.set(JSObject(value), try propertyKey(name), v, receiver: value)) {
                throw try rt.typeError("Cannot assign to read only property '\(name)'")
            }
        }
    }

    /// A property (get), or set to another `JSValue` (set).
    public subscript(key: String) -> JSValue {
        get { forProperty(key) }
        set { setValue(newValue, forProperty: key) }
    }

    /// An indexed element (get/set).
    public subscript(index: Int) -> JSValue {
        get { forProperty(String(index)) }
        set { setValue(newValue, forProperty: String(index)) }
    }

    /// [[HasProperty]] (prototype chain included).
    public func hasProperty(_ name: String) -> Bool {
        guard isObject else { return false }
        return context.attempt { () throws(JSException) in try rt.hasProperty(JSObject(value), try propertyKey(name)) } ?? false
    }

    /// [[Delete]]; false if the property is non-configurable.
    @discardableResult
    public func deleteProperty(_ name: String) -> Bool {
        guard isObject else { return false }
        return context.attempt { () throws(JSException) in try rt.deleteProperty(JSObject(value), try propertyKey(name)) } ?? false
    }

    // MARK: - Calls

    /// Converts `args` and runs `body` with them rooted.
    private func withArguments(_ args: [Any?], _ body: (UnsafeBufferPointer<Value>) throws(JSException) -> Value) throws(JSException) -> Value {
        let depth = rt.heap.rootDepth
        defer { rt.heap.popRoots(to: depth) }
        var values: [Value] = []
        values.reserveCapacity(args.count)
        for a in args {
            let v = try Convert.toJS(a, context)
            rt.heap.pushRoot(v)
            values.append(v)
        }
        return try values.withUnsafeBufferPointer { b throws(JSException) in try body(b) }
    }

    /// Calls the value as a function with `this` undefined; nil if it threw. Drains
    /// the job queue afterwards.
    @discardableResult
    public func call(withArguments args: [Any?] = []) -> JSValue? {
        invoke(this: .undefined, args) { f, this, b throws(JSException) in try rt.call(f, this: this, b) }
    }

    /// `new value(...args)`; nil if it threw.
    public func construct(withArguments args: [Any?] = []) -> JSValue? {
        invoke(this: .undefined, args) { f, _, b throws(JSException) in try rt.construct(f, b) }
    }

    /// Calls the method `name` of this value with this value as `this`; nil if it threw.
    @discardableResult
    public func invokeMethod(_ name: String, withArguments args: [Any?] = []) -> JSValue? {
        let f = forProperty(name)
        return f.invoke(this: value, args) { f, this, b throws(JSException) in try rt.call(f, this: this, b) }
    }

    private func invoke(this: Value, _ args: [Any?],
                        _ op: (Value, Value, UnsafeBufferPointer<Value>) throws(JSException) -> Value) -> JSValue? {
        let result = context.attempt { () throws(JSException) -> Value in
            let r = try context.entering { () throws(JSException) in
                try withArguments(args) { b throws(JSException) in try op(value, this, b) }
            }
            rt.heap.pushRoot(r)
            defer { rt.heap.popRoots(1) }
            try context.drainJobsIfOutermost()
            return r
        }
        guard let result else { return nil }
        return JSValue(unchecked: result, in: context)
    }

    // MARK: - Comparisons

    /// `===`.
    public func isEqual(to other: Any?) -> Bool {
        let o = JSValue(object: other, in: context)
        return rt.strictEquals(value, o.value)
    }
}
