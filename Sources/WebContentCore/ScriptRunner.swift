#if canImport(Glibc)
import Glibc
#endif
import DOM
import EngineIPC
import JSEngine
import JSJIT
import JSRuntime
import Layout
import Lockdown
import WebURL

/// The page's classic scripts, run by the engine in the locked content process with the
/// baseline JIT (made after lockdown over the reserved executable region, as jsrun's
/// locked worker does), and the DOM bindings they see (`DOMBridge` + `DOMPrelude`).
///
/// Each page gets a fresh `JSContext` (its own realm and heap: nothing of the previous
/// page survives a navigation); the first is made before lockdown, with the runtime's lazy
/// state. Scripts run after parsing, in document order (inline and external, the latter
/// fetched through the networking process), then `DOMContentLoaded` and `load` fire.
final class ScriptRunner {
    private(set) var context: JSContext
    /// The context made before lockdown, used by the first page.
    private var fresh: JSContext?
    /// Why there is no JIT (empty when there is one).
    private(set) var jitUnavailable = "not installed yet"
    private var jit: BaselineJIT?
    /// The current page's bindings (nil before the first page).
    private(set) var bridge: DOMBridge?
    /// The object the prelude returned (timers, events, WebDriver's operations).
    private var page: JSValue?
    /// Numbers the pages of this process (element references name their page).
    private var pageNumber = 0
    /// External scripts that scripts inserted, run after the current task, in order.
    private var pendingExternal: [Element] = []
    /// Fetches for external scripts (set by `runScripts`).
    private var fetcher: ((String) -> Result<FetchResponse, FetchError>)?
    /// A navigation a script asked for (a link's click, `location.assign`), for the host.
    var pendingNavigation: String?
    var viewport: (Int, Int) = (800, 600)
    /// The page zoom (`devicePixelRatio`).
    var zoom = 1.0
    /// How far the page is scrolled down (`scrollY`, CSS pixels).
    var scrollY = 0.0
    /// How far the page is scrolled right (`scrollX`, CSS pixels).
    var scrollX = 0.0
    /// Where a script asked the page to scroll (`scrollTo`), applied after its task.
    var requestedScroll: (x: Double, y: Double)?
    /// The layout engine of the page (viewport, linked sheets), for `getComputedStyle`.
    var layoutEngine: (() -> LayoutEngine)?
    /// The page's current layout (laid out again if scripts changed it), for geometry.
    var pageLayout: (() -> PageLayout?)?
    let start = Clock.monotonicNanoseconds()

    /// Made before lockdown: the runtime, its realm and its lazy state (stack bounds read
    /// from /proc/self/maps on the first evaluation).
    init() {
        context = JSContext()
        ScriptRunner.configure(context)
        context.evaluateScript("", sourceURL: "[warm-up]")
        fresh = context
    }

    static func configure(_ context: JSContext) {
        context.consoleOutput = { ScriptRunner.log($0) }
        context.consoleErrorOutput = { ScriptRunner.log($0) }
    }

    static func log(_ text: String) {
        let line = "console \(getpid()): " + text + (text.hasSuffix("\n") ? "" : "\n")
        _ = line.withCString { write(2, $0, strlen($0)) }
    }

    /// After lockdown: the JIT over the executable region (nil region: interpreter only).
    func installJIT(region: ExecutableRegion?) {
        guard let region else {
            jitUnavailable = "no executable region"
            return
        }
        let (jit, why) = BaselineJIT.forLockedProcess(pool: region.pool, capacity: Int(region.span))
        jitUnavailable = why
        self.jit = jit
        context.runtime.setJIT(jit, mode: .on)
    }

    /// Lets the current page go (its bindings, and the context's heap at the next page's
    /// new context): called before the next page is parsed.
    func endPage() {
        bridge = nil
        page = nil
        pendingExternal = []
        pendingNavigation = nil
    }

    /// Starts a page: a fresh context with the bindings over `document`.
    func startPage(_ document: Document, url: String) {
        if let f = fresh {
            context = f
            fresh = nil
        } else {
            context = JSContext()
            ScriptRunner.configure(context)
            if let jit { context.runtime.setJIT(jit, mode: .on) }
        }
        pageNumber += 1
        pendingNavigation = nil
        requestedScroll = nil
        let bridge = DOMBridge(document: document, url: url)
        self.bridge = bridge
        pendingExternal = []
        bridge.onScriptConnected = { [weak self] script in self?.scriptConnected(script) }
        bridge.layoutEngine = { [weak self] in self?.layoutEngine?() ?? LayoutEngine(viewportWidth: 800, viewportHeight: 600) }
        bridge.pageLayout = { [weak self] in self?.pageLayout?() }
        let natives = bridge.install(in: context)
        let start = self.start
        natives.setValue(JSValue(function: { _ in Double(Clock.monotonicNanoseconds() - start) / 1e6 }, name: "now", in: context),
                         forProperty: "now")
        let host = hostFunctions(url: url)
        guard let prelude = context.evaluateScript(DOMPrelude.source, sourceURL: "[dom]"),
              let page = prelude.call(withArguments: [natives, host, context.globalObject]) else {
            ScriptRunner.log("the DOM bindings failed to start: \(context.exception.map { String(describing: $0) } ?? "?")")
            context.exception = nil
            self.page = nil
            return
        }
        self.page = page
    }

    private func hostFunctions(url: String) -> JSValue {
        let o = JSValue(newObjectIn: context)
        let base = WebURL(url)
        let pid = getpid(), page = pageNumber
        func def(_ name: String, _ body: @escaping ([JSValue]) throws -> Any?) {
            o.setValue(JSValue(function: body, name: name, in: context), forProperty: name)
        }
        def("scrollTo") { [weak self] a in
            // (left, top): the prelude works them out from the call's arguments.
            guard let self else { return nil }
            let x = a.count > 0 ? a[0].toDouble() : self.scrollX, y = a.count > 1 ? a[1].toDouble() : self.scrollY
            let left = x.isFinite ? max(0, min(x, 16_777_216)) : self.scrollX
            let top = y.isFinite ? max(0, min(y, 16_777_216)) : self.scrollY
            self.requestedScroll = (left, top)
            self.scrollX = left  // read back at once, as browsers do (clamped when shown)
            self.scrollY = top
            return nil
        }
        def("resolve") { a in WebURL(a.first?.toString() ?? "", base: base)?.href }
        def("navigate") { [weak self] a in
            if let target = a.first?.toString(), let u = WebURL(target, base: base), ["http", "https", "data", "file"].contains(u.scheme) {
                self?.pendingNavigation = u.href
            }
            return nil
        }
        def("urlPart") { a in
            guard let u = base else { return "" }
            switch a.first?.toString() ?? "" {
            case "protocol": return u.protocol
            case "host": return u.hostString
            case "hostname": return u.hostname
            case "port": return u.portString
            case "pathname": return u.pathname
            case "search": return u.search
            case "hash": return u.hash
            case "origin": return u.origin
            default: return ""
            }
        }
        def("viewport") { [weak self] _ in
            [Double(self?.viewport.0 ?? 800), Double(self?.viewport.1 ?? 600), self?.zoom ?? 1, self?.scrollY ?? 0, self?.scrollX ?? 0]
        }
        def("elementReference") { a in "\(pid)-\(page)-\(a.first?.toInt32() ?? -1)" }
        def("elementNumber") { a in
            let parts = (a.first?.toString() ?? "").split(separator: "-")
            guard parts.count == 3, parts[0] == String(pid), parts[1] == String(page), let n = Int(parts[2]) else { return -1 }
            return n
        }
        return o
    }

    /// Runs the page's classic scripts in document order (external ones fetched with
    /// `fetch`), then fires `DOMContentLoaded` and `load`. Returns how many ran and threw.
    @discardableResult
    func runScripts(fetch: @escaping (String) -> Result<FetchResponse, FetchError>) -> (ran: Int, threw: Int) {
        guard let bridge, let page else { return (0, 0) }
        var scripts: [Element] = []
        bridge.document.forEachDescendant { node in
            if let e = node as? Element, e.isHTML("script"), ScriptRunner.isClassic(e) { scripts.append(e) }
        }
        fetcher = fetch
        var threw = 0
        for (i, script) in scripts.enumerated() {
            guard script.parent != nil, !bridge.startedScripts.contains(ObjectIdentifier(script)) else { continue }
            bridge.startedScripts.insert(ObjectIdentifier(script))
            if !run(script, name: bridge.url + "#script\(i + 1)") { threw += 1 }
        }
        page.invokeMethod("setReadyState", withArguments: ["interactive"])
        page.invokeMethod("fire", withArguments: ["DOMContentLoaded"])
        runPendingExternal()
        page.invokeMethod("setReadyState", withArguments: ["complete"])
        page.invokeMethod("fire", withArguments: ["load"])
        reportException()
        return (scripts.count, threw)
    }

    /// Runs one script element (fetching its `src`); false if it threw. An external script
    /// fires `load` (or `error` when it cannot be fetched) at its element.
    @discardableResult
    private func run(_ script: Element, name: String) -> Bool {
        guard let bridge, let page else { return true }
        var source = script.textContent ?? ""
        var name = name
        let number = bridge.number(script)
        if let src = script.attribute("src") {
            guard let target = WebURL(src, base: WebURL(bridge.url)) else {
                ScriptRunner.log("script src '\(src)' is not a valid URL")
                page.invokeMethod("fireAt", withArguments: [number, "error"])
                return true
            }
            switch fetcher?(target.href) ?? .failure(.other("no networking")) {
            case .success(let response) where (200..<300).contains(response.status):
                source = String(decoding: response.body, as: UTF8.self)
                name = response.url
            case .success(let response):
                ScriptRunner.log("script \(target.href): HTTP \(response.status)")
                page.invokeMethod("fireAt", withArguments: [number, "error"])
                return true
            case .failure(let error):
                ScriptRunner.log("script \(target.href): \(error)")
                page.invokeMethod("fireAt", withArguments: [number, "error"])
                return true
            }
        }
        page.invokeMethod("setCurrentScript", withArguments: [number])
        let ok = context.evaluateScript(source, sourceURL: name) != nil
        if !ok { reportException() }
        page.invokeMethod("setCurrentScript", withArguments: [-1])
        if script.attribute("src") != nil { page.invokeMethod("fireAt", withArguments: [number, "load"]) }
        return ok
    }

    /// A script element a script connected: an inline one runs now, an external one after
    /// the current task.
    private func scriptConnected(_ script: Element) {
        guard let bridge, ScriptRunner.isClassic(script) else { return }
        bridge.startedScripts.insert(ObjectIdentifier(script))
        if script.attribute("src") != nil {
            pendingExternal.append(script)
        } else {
            run(script, name: bridge.url + "#inserted")
        }
    }

    private func runPendingExternal() {
        while !pendingExternal.isEmpty {
            let script = pendingExternal.removeFirst()
            run(script, name: "")
        }
    }

    func reportException() {
        if let e = context.exception {
            let stack = e["stack"]
            ScriptRunner.log("Uncaught " + (stack.isString ? stack.toString() : e.description))
        }
        context.exception = nil
    }

    /// Runs the timers that are due; returns the milliseconds until the next one (nil: none).
    func runTimers() -> Double? {
        guard let page else { return nil }
        runPendingExternal()
        let next = page.invokeMethod("runTimers")?.toDouble() ?? -1
        reportException()
        return next >= 0 ? next : nil
    }

    /// A WebDriver operation on the page (`DOMPrelude`'s `execute`, `find`, `text`, ...):
    /// its JSON answer, `{"value": ...}` or `{"error": ..., "message": ...}`.
    func command(_ name: String, _ arguments: [String]) -> String {
        guard let page else { return #"{"error":"no such window","message":"no page"}"# }
        let known = ["execute", "find", "text", "attribute", "property", "tagName", "click", "source"]
        guard known.contains(name) else { return #"{"error":"unknown command","message":"unknown page command"}"# }
        let result = page.invokeMethod(name, withArguments: arguments)
        reportException()
        guard let result, result.isString else { return #"{"error":"javascript error","message":"the page's bindings failed"}"# }
        return result.toString()
    }

    /// The page was scrolled (by the user or a script): `scroll` at the document, bubbling
    /// to the window.
    func fireScroll() {
        guard let page else { return }
        page.invokeMethod("fire", withArguments: ["scroll"])
        reportException()
    }

    /// Whether a page's bindings are running (a click can go through its DOM).
    var hasPage: Bool { page != nil && bridge != nil }

    /// A user's click on `element` at (clientX, clientY) of the viewport: `mousedown`,
    /// `mouseup`, `click` dispatched through the page's DOM, then (unless canceled) the
    /// activation behaviour of a link (a navigation in `pendingNavigation`). The JSON answer.
    func click(_ element: Element, clientX: Double, clientY: Double) -> String {
        guard let page, let bridge else { return #"{"error":"no such window","message":"no page"}"# }
        let n = bridge.number(element)
        let result = page.invokeMethod("clickAt", withArguments: [Double(n), clientX, clientY])
        reportException()
        guard let result, result.isString else { return #"{"error":"javascript error","message":"the page's bindings failed"}"# }
        return result.toString()
    }

    /// A classic script: no type, or a JavaScript MIME type (not a module, not data).
    static func isClassic(_ e: Element) -> Bool {
        guard let type = e.attribute("type")?.lowercased().trimmingSpaces else { return true }
        return type.isEmpty || ["text/javascript", "application/javascript", "text/ecmascript", "application/ecmascript",
                                "application/x-javascript", "text/jscript"].contains(type)
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\n" || f == "\r" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\n" || l == "\r" { s = s.dropLast() }
        return String(s)
    }
}
