// Modules through JSContext: a Swift loader supplies the sources.
import Testing
import JSEngine

@Suite struct ModuleTests {
    static let files: [String: String] = [
        "/app/main.js": """
            import { count, increment } from "./counter.js";
            import * as ns from "./counter.js";
            increment(); increment();
            export const seen = [count, ns.count];
            export default await Promise.resolve("done");
            """,
        "/app/counter.js": "export let count = 0; export function increment() { count++; }",
        "/app/bad.js": "import { nope } from './counter.js';",
        "/app/syntax.js": "import './broken.js';",
        "/app/broken.js": "export let = 1;",
    ]

    func context() -> JSContext {
        let ctx = JSContext()
        ctx.setModuleLoader { specifier, referrer throws(JSModuleLoadError) in
            let dir = referrer.flatMap { r in r.lastIndex(of: "/").map { String(r[..<$0]) } } ?? ""
            let key = specifier.hasPrefix("./") ? dir + specifier.dropFirst(1) : specifier
            guard let text = ModuleTests.files[key] else { throw JSModuleLoadError("no module \(key)") }
            return JSModuleSource(key: key, source: text)
        }
        return ctx
    }

    @Test func liveBindingsAndTopLevelAwait() {
        let ctx = context()
        let ns = ctx.evaluateModule("/app/main.js")
        #expect(ctx.exception == nil)
        #expect(ns?["seen"].toString() == "2,2")
        #expect(ns?["default"].toString() == "done")
    }

    @Test(arguments: [("/app/bad.js", "SyntaxError"), ("/app/syntax.js", "SyntaxError"), ("/app/none.js", "TypeError")])
    func errors(entry: String, type: String) {
        let ctx = context()
        #expect(ctx.evaluateModule(entry) == nil)
        #expect(ctx.exception?["name"].toString() == type)
    }

    @Test func dynamicImportFromAScript() {
        let ctx = context()
        var out: [String] = []
        ctx.consoleOutput = { out.append($0) }
        ctx.evaluateScript("import('/app/counter.js').then(m => { m.increment(); console.log(m.count); })")
        #expect(ctx.exception == nil)
        #expect(out.joined() == "1\n")
    }
}
