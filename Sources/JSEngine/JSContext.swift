// The public embedding API, in the style of JavaScriptCore: a `JSContext` owns a runtime
// and its realm; `JSValue`s are rooted references to values in it.

import JSSyntax
import JSRuntime

/// A JavaScript execution context: one runtime, one realm, one global object.
///
/// **Threads.** A context, its `JSValue`s and its `runtime` are used from one thread
/// at a time: they are not `Sendable` and take no locks. Moving a context with all its
/// values to another thread between calls is fine; touching it from two threads at once
/// is not. Separate contexts share no JS state and may run on different threads at once.
///
/// **Misuse is refused, not undefined.** A `JSValue` of another context is a
/// `TypeError` here; a `JSValue` keeps its context alive, so it cannot outlive it; a
/// Swift closure exposed as a JS function holds the context weakly and throws once it is
/// gone; a Swift callback may call back into its own context (evaluate, call, get and
/// set), nested as deep as JS recursion may go (then a `RangeError`), and the job queue is
/// drained only when the outermost call returns.
public final class JSContext {
    /// The underlying runtime (for embedders that need the lower-level API).
    public let runtime: Runtime
    let handles: HandleTable

    /// The last uncaught exception (set whenever an operation throws; clear it yourself).
    public var exception: JSValue?

    /// Called with every uncaught exception (after `exception` is set). An exception
    /// thrown by a call the handler makes into this context sets `exception` but does not
    /// call the handler again (no unbounded recursion).
    public var exceptionHandler: ((JSContext, JSValue) -> Void)?

    /// Receives `console.log`/`info`/`debug` output (printed to stdout when nil).
    public var consoleOutput: ((String) -> Void)? {
        didSet { runtime.outputHook = consoleOutput }
    }

    /// Receives `console.error`/`warn` output (printed when nil).
    public var consoleErrorOutput: ((String) -> Void)? {
        didSet { runtime.errorOutputHook = consoleErrorOutput }
    }

    /// Creates a runtime with a fresh realm.
    public init() {
        runtime = Runtime()
        handles = runtime.makeHandleTable()
        do {
            try runtime.initializeRealm()
        } catch {
            fatalError("JSContext: failed to initialize the realm")
        }
    }

    /// Number of values currently held by `JSValue`s of this context.
    public var liveHandleCount: Int { handles.count }

    /// Runs a script; drains the job queue (promise reactions) afterwards. Returns the
    /// script's completion value, or nil if it threw (see `exception`).
    @discardableResult
    public func evaluateScript(_ source: String, sourceURL: String = "<eval>") -> JSValue? {
        let file = SourceFile(name: sourceURL, text: source)
        do throws(JSException) {
            let result = try entering { () throws(JSException) in try runtime.evaluateScript(file) }
            let value = JSValue(unchecked: result, in: self)
            try drainJobsIfOutermost()
            return value
        } catch {
            report(error)
            return nil
        }
    }

    /// Forces a full garbage collection.
    public func collectGarbage() { runtime.heap.collect() }

    /// The global object.
    public var globalObject: JSValue { JSValue(unchecked: Value(cell: runtime.realm.global.cell), in: self) }

    /// A global variable (a property of the global object).
    public subscript(name: String) -> JSValue {
        get { globalObject[name] }
        set { globalObject[name] = newValue }
    }

    /// Sets a global to a Swift value (converted with `JSValue(object:in:)`).
    public func setObject(_ object: Any?, forKeyedSubscript name: String) {
        globalObject.setValue(object, forProperty: name)
    }

    /// Defines a global function whose body is a Swift closure.
    public func setFunction(_ name: String, _ body: @escaping ([JSValue]) throws -> Any?) {
        self[name] = JSValue(function: body, name: name, in: self)
    }

    // MARK: - Internals

    /// How many API calls (evaluate, call, construct) are running: more than one when a
    /// Swift callback calls back into the context.
    var apiDepth = 0

    /// Runs `body` as an API call into the runtime. Re-entrant calls from callbacks nest;
    /// their depth is bounded by the runtime's native-call limit (a `RangeError`, since
    /// every callback is entered through a native function call).
    func entering<T>(_ body: () throws(JSException) -> T) throws(JSException) -> T {
        apiDepth += 1
        defer { apiDepth -= 1 }
        return try body()
    }

    /// Drains the job queue when no other API call is running (a call made from a
    /// callback leaves the jobs to the outermost one, as JavaScriptCore does).
    func drainJobsIfOutermost() throws(JSException) {
        guard apiDepth == 0 else { return }
        apiDepth += 1
        defer { apiDepth -= 1 }
        try runtime.runJobs()
    }

    /// Reports the `TypeError` for a raw value that is not of this context.
    func reportForeignValue() {
        do throws(JSException) {
            throw try runtime.typeError(Convert.foreignValueMessage)
        } catch {
            report(error)
        }
    }

    /// Records an uncaught exception and calls the handler.
    func report(_ error: JSException) {
        let e = JSValue(unchecked: error.value, in: self)
        exception = e
        guard !inExceptionHandler, let handler = exceptionHandler else { return }
        inExceptionHandler = true
        defer { inExceptionHandler = false }
        handler(self, e)
    }

    /// True while `exceptionHandler` runs.
    var inExceptionHandler = false

    /// Runs `body`; on a JS exception reports it and returns nil.
    func attempt<T>(_ body: () throws(JSException) -> T) -> T? {
        do throws(JSException) {
            return try body()
        } catch {
            report(error)
            return nil
        }
    }

    /// A JS exception for a Swift error thrown by a native closure.
    func jsException(for error: any Error) -> JSException {
        if let e = error as? JSValueError {
            if e.value.context === self { return JSException(throwing: e.value.value) }
            return (try? runtime.typeError(Convert.foreignValueMessage)) ?? JSException(throwing: .undefined)
        }
        // A raw `JSException` carries a raw value: only one of this runtime is rethrown.
        if let e = error as? JSException, runtime.owns(e.value) { return e }
        do throws(JSException) {
            return try runtime.makeError(.error, String(describing: error))
        } catch {
            return error
        }
    }
}

/// Throw this from a Swift closure exposed to JS to throw `value` as a JS exception.
/// Other Swift errors become `Error` objects whose message is the error's description.
public struct JSValueError: Error, @unchecked Sendable {
    public let value: JSValue
    public init(_ value: JSValue) { self.value = value }
}
