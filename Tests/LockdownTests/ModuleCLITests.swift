// jsrun running module graphs in the locked worker: the example graph, node's rules for
// what is a module, and bad graphs (a missing file, a syntax error in an imported file,
// a missing export, a cycle that reads a binding in its TDZ, an import outside the
// directory jsrun may read), each a clear error with the file and exit status 1.
import Testing

/// The package root (this file is Tests/LockdownTests/ModuleCLITests.swift).
let packageRoot: String = String(#filePath).split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/")
let moduleScripts = packageRoot + "/Tests/Scripts/modules"

@Suite struct ModuleCLITests {
    @Test(arguments: ["on", "off", "eager"])
    func exampleGraph(jit: String) {
        let r = runJSRun(["--jit=\(jit)", packageRoot + "/examples/modules/main.mjs"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "hello, Sable MODULES!\narea: 9 shapes: PI,area\neven(10): true even(7): false\nlazy: 42 true\n")
    }

    @Test func exampleGraphInProcess() {
        let r = runJSRun(["--no-lockdown", packageRoot + "/examples/modules/main.mjs"])
        #expect(r.status == 0 && r.stdout.hasSuffix("lazy: 42 true\n"), "\(r.stderr)")
    }

    @Test func packageTypeModuleMakesJSAModule() {
        let r = runJSRun([moduleScripts + "/pkg/main.js"])
        #expect(r.status == 0 && r.stdout == "js as module object\n", "\(r.stderr)")
    }

    @Test(arguments: [
        ("missing-import.mjs", "TypeError: Cannot find module '\(moduleScripts)/not-there.mjs' imported from \(moduleScripts)/missing-import.mjs"),
        ("syntax-error.mjs", "SyntaxError: Unexpected token ';' (\(moduleScripts)/syntax-error-dep.mjs:3:9)"),
        ("missing-export.mjs", "SyntaxError: The requested module '\(moduleScripts)/cycle-b.mjs' does not provide an export named 'missing'"),
        ("cycle-a.mjs", "ReferenceError: Cannot access 'a' before initialization"),
        ("pkg/escape.mjs", "TypeError: Cannot import '\(moduleScripts)/outside/secret.mjs': it is outside the directory jsrun may read (\(moduleScripts)/pkg)"),
    ])
    func badGraphs(file: String, error: String) {
        let r = runJSRun([moduleScripts + "/" + file])
        #expect(r.status == 1 && !r.signaled)
        #expect(r.stderr.hasPrefix("Uncaught " + error), "\(r.stderr)")
    }

    @Test func allowReadWidensTheRoot() {
        let r = runJSRun(["--allow-read=" + moduleScripts, moduleScripts + "/pkg/escape.mjs"])
        #expect(r.status == 0 && r.stdout == "read\n", "\(r.stderr)")
    }

    @Test func dynamicImportFromAScript() {
        let r = runJSRun(["-e", "import('\(packageRoot)/examples/modules/lib/text.mjs').then(m => console.log(m.shout('hi')))", "--allow-read=" + packageRoot])
        #expect(r.status == 0 && r.stdout == "HI!\n", "\(r.stderr)")
    }
}
