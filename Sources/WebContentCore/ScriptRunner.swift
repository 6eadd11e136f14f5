#if canImport(Glibc)
import Glibc
#endif
import DOM
import JSEngine
import JSJIT
import JSRuntime
import Lockdown

/// The page's classic scripts, run by the engine in the locked content process with the
/// baseline JIT (made after lockdown over the reserved executable region, as jsrun's
/// locked worker does). A first step: inline scripts run in document order after parsing,
/// with `console`; the DOM bindings (`document`, `Node`, events) are not there yet.
final class ScriptRunner {
    let context: JSContext
    /// Why there is no JIT (empty when there is one).
    private(set) var jitUnavailable = "not installed yet"

    /// Made before lockdown: the runtime, its realm and its lazy state (stack bounds read
    /// from /proc/self/maps on the first evaluation).
    init() {
        context = JSContext()
        context.consoleOutput = { ScriptRunner.log($0) }
        context.consoleErrorOutput = { ScriptRunner.log($0) }
        context.evaluateScript("", sourceURL: "[warm-up]")
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
        context.runtime.setJIT(jit, mode: .on)
    }

    /// Runs the inline classic scripts of `document` in order; returns how many ran and
    /// how many threw.
    @discardableResult
    func runInlineScripts(of document: Document, url: String) -> (ran: Int, threw: Int) {
        var scripts: [Element] = []
        document.forEachDescendant { node in
            if let e = node as? Element, e.isHTML("script"), e.attribute("src") == nil, ScriptRunner.isClassic(e) {
                scripts.append(e)
            }
        }
        var threw = 0
        for (i, script) in scripts.enumerated() {
            if context.evaluateScript(script.textContent ?? "", sourceURL: url + "#script\(i + 1)") == nil {
                threw += 1
                if let e = context.exception { ScriptRunner.log("uncaught \(e)") }
                context.exception = nil
            }
        }
        return (scripts.count, threw)
    }

    /// A classic script: no type, or a JavaScript MIME type (not a module, not data).
    static func isClassic(_ e: Element) -> Bool {
        guard let type = e.attribute("type")?.lowercased() else { return true }
        return type.isEmpty || ["text/javascript", "application/javascript", "text/ecmascript", "application/ecmascript"].contains(type)
    }
}
