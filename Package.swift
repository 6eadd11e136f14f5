// swift-tools-version: 6.2
import PackageDescription

let strict: [SwiftSetting] = [
    .treatAllWarnings(as: .error),
    // One text section per function, closures and specializations included (without it a
    // file's private functions share one `.text`), so that the linker's start-up order
    // (jsrun's `startup.order`) packs the code start-up runs into a few 64 KiB windows: the
    // kernel maps text 64 KiB at a time, and whole-file sections made the worker's text
    // 4 MB of resident memory (issue 16).
    .unsafeFlags(["-Xfrontend", "-function-sections"], .when(configuration: .release)),
]
/// The interpreter's hot loop works on unsafe pointers; dynamic exclusivity checks on the
/// runtime's state cost more than the work itself (measured: ~40% of a numeric loop).
let runtimeSettings: [SwiftSetting] = strict + [.unsafeFlags(["-enforce-exclusivity=unchecked"])]

/// The package's directory (linker flags need absolute paths).
let packageRoot = String(#filePath.dropLast("/Package.swift".count))

let package = Package(
    name: "Sable",
    products: [
        .library(name: "JSSyntax", targets: ["JSSyntax"]),
        .library(name: "JSEngine", targets: ["JSEngine"]),
        .executable(name: "jsrun", targets: ["jsrun"]),
        .executable(name: "jsrun-ffi-worker", targets: ["jsrun-ffi-worker"]),
        .library(name: "JSFFI", targets: ["JSFFI"]),
        .executable(name: "test262-parse", targets: ["Test262Parse"]),
        .executable(name: "test262", targets: ["Test262"]),
        .executable(name: "parse-bench", targets: ["ParseBench"]),
        .library(name: "ContentBlocker", targets: ["ContentBlocker"]),
        .executable(name: "sable-contentblock", targets: ["sable-contentblock"]),
        .library(name: "WebURL", targets: ["WebURL"]),
        .executable(name: "wpt-url", targets: ["WPTURL"]),
        .library(name: "NetworkingCore", targets: ["NetworkingCore"]),
        .executable(name: "sable-fetch", targets: ["sable-fetch"]),
        .executable(name: "sable", targets: ["sable"]),
        .executable(name: "sable-worker", targets: ["sable-worker"]),
        .library(name: "HTML", targets: ["HTML", "DOM"]),
        .library(name: "WebDriver", targets: ["WebDriver"]),
        .executable(name: "html5lib-tests", targets: ["HTML5LibTests"]),
    ],
    dependencies: [
        // The WebDriver server's HTTP (sable --webdriver): the only package from outside.
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        // The browser profile's SQLite database (session history, per-site zoom): HostCore's Profile.
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        // Layer: syntax. Source text -> tokens -> AST, early errors, scopes. No dependencies.
        .target(name: "JSSyntax", swiftSettings: strict),
        // Layer: bytecode. The opcode table, code blocks, disassembler; AST -> bytecode.
        .target(name: "JSBytecode", dependencies: ["JSSyntax"], exclude: ["Opcodes.def"], swiftSettings: strict),
        .target(name: "JSBytecompiler", dependencies: ["JSSyntax", "JSBytecode"], swiftSettings: strict),
        // Layer: runtime. The regular-expression matcher (bytecode + backtracking VM).
        .target(name: "JSRegExp", dependencies: ["JSSyntax"], exclude: ["DESIGN-NOTES.md"], swiftSettings: strict),
        // Layer: runtime. Values, heap and GC, strings, shapes, objects, the interpreter.
        .target(name: "CSableSupport"),
        .target(name: "JSRuntime", dependencies: ["JSSyntax", "JSBytecode", "JSBytecompiler", "JSRegExp", "CSableSupport"], exclude: ["DESIGN-NOTES.md"], swiftSettings: runtimeSettings),
        // Layer: machine code. Raw instruction encoders per architecture, labels and jumps,
        // the MacroAssembler the JIT is written against. Knows nothing of JS values.
        .target(name: "JSAssembler", swiftSettings: strict),
        // Layer: JIT. Executable memory (W^X), the baseline compiler, runtime stubs.
        .target(name: "JSJIT", dependencies: ["JSAssembler", "JSBytecode", "JSRuntime", "CSableSupport"], exclude: ["DESIGN.md"], swiftSettings: strict),
        // Layer: engine. The public embedding API (JSContext, JSValue).
        .target(name: "JSEngine", dependencies: ["JSSyntax", "JSRuntime"], swiftSettings: strict),
        // jsrun's host APIs (timers, the event loop, structuredClone, TextEncoder, URL, ...).
        .target(name: "JSHost", dependencies: ["JSSyntax", "JSRuntime", "WebURL", "CSableSupport"], swiftSettings: strict),
        // The jsrun command as a library; main.swift is a thin wrapper.
        .target(name: "JSRunCLI", dependencies: ["JSSyntax", "JSBytecode", "JSBytecompiler", "JSRuntime",
                                                 "JSJIT", "JSHost", "Lockdown", "EngineIPC"], swiftSettings: strict),
        // The Swift standard library linked statically: no libswiftCore.so & co. to load
        // and relocate at every start (measured: ~3 ms of `jsrun -e ''`). And since issue 16
        // a static PIE (glibc, libstdc++, libm and libseccomp linked in: no dynamic loader,
        // no symbol lookups, no shared-library pages; ~1.7 ms and 3 MB less), linked by
        // lld (tools/ld-static-pie.sh: without SwiftPM's rpath, which a static PIE must not
        // have) with the functions start-up runs placed first (`startup.order`, made by
        // tools/startup-order.sh) so that they fault in as few 64 KiB text windows as possible,
        // packed relative relocations, and no exported symbol table (nothing looks symbols up);
        // `startup.ld` groups the functions that have no symbol to order.
        .executableTarget(name: "jsrun", dependencies: ["JSRunCLI"], exclude: ["startup.order", "startup.ld"], swiftSettings: strict,
                          linkerSettings: [.unsafeFlags(["-static-stdlib", "-Xclang-linker", "-static-pie",
                                                         "-Xclang-linker", "--ld-path=\(packageRoot)/tools/ld-static-pie.sh",
                                                         "-Xlinker", "--symbol-ordering-file=\(packageRoot)/Sources/jsrun/startup.order",
                                                         "-Xlinker", "--no-warn-symbol-ordering",
                                                         "-Xlinker", "-T", "-Xlinker", "\(packageRoot)/Sources/jsrun/startup.ld",
                                                         "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                                                         "-Xlinker", "--no-export-dynamic"], .when(configuration: .release)),
                                           .unsafeFlags(["-static-stdlib"], .when(configuration: .debug))]),
        // The FFI (issue 19): Sable.dlopen, Sable.Pointer, Sable.Callback and
        // JSContext.exposeCFunction over libffi (apt install libffi-dev) and dlopen.
        .systemLibrary(name: "CFFI", providers: [.apt(["libffi-dev"])]),
        .target(name: "JSFFI", dependencies: ["CFFI", "JSRuntime", "JSEngine"], swiftSettings: strict),
        // jsrun's worker when --ffi is given: dynamically linked (dlopen does not work in the
        // static-PIE jsrun), started by posix_spawn instead of fork; jsrun without --ffi
        // never loads it. The Swift standard library is linked in (nothing to relocate).
        .executableTarget(name: "jsrun-ffi-worker", dependencies: ["JSRunCLI", "JSFFI", "JSJIT", "JSAssembler", "JSRuntime"],
                          swiftSettings: strict, linkerSettings: [.unsafeFlags(["-static-stdlib"])]),
        .testTarget(name: "FFITests", dependencies: ["JSFFI", "JSEngine", "JSRuntime", "JSRunCLI", "Lockdown"],
                    exclude: ["Fixtures"], swiftSettings: strict),
        // Conformance: what the test262 runners share (paths, frontmatter, the ratchet).
        .target(name: "Test262Support", path: "Conformance/Test262Support", swiftSettings: strict),
        // Conformance: test262 parse-phase verdicts.
        .executableTarget(name: "Test262Parse", dependencies: ["JSSyntax", "Test262Support"],
                          path: "Conformance/Test262Parse", swiftSettings: strict),
        // Conformance: test262 run through the interpreter, in worker processes, with a ratchet.
        .executableTarget(name: "Test262",
                          dependencies: ["JSSyntax", "JSBytecode", "JSBytecompiler", "JSRuntime", "Test262Support",
                                         "JSJIT", "Lockdown"],
                          path: "Conformance/Test262", swiftSettings: strict),
        // Tools: parser throughput benchmark (tools/parse-bench.sh drives it).
        .executableTarget(name: "ParseBench", dependencies: ["JSSyntax"],
                          path: "tools/ParseBench", swiftSettings: strict),
        .testTarget(name: "JSSyntaxTests", dependencies: ["JSSyntax"], swiftSettings: strict),
        .testTarget(name: "JSRegExpTests", dependencies: ["JSRegExp", "JSSyntax"], swiftSettings: strict),
        .testTarget(name: "JSRuntimeTests", dependencies: ["JSRuntime", "JSBytecode"], swiftSettings: strict),
        .testTarget(name: "JSEngineTests", dependencies: ["JSEngine", "JSRuntime"], swiftSettings: strict),
        .testTarget(name: "JSBytecodeTests", dependencies: ["JSSyntax", "JSBytecode", "JSBytecompiler"], swiftSettings: strict),
        .testTarget(name: "JSJITTests", dependencies: ["JSJIT", "JSAssembler", "JSRuntime", "JSBytecompiler", "JSSyntax"], swiftSettings: strict),
        .testTarget(name: "JSAssemblerTests", dependencies: ["JSAssembler"], exclude: ["Golden", "ARM64Loader"], swiftSettings: strict),
        .testTarget(name: "Test262SupportTests", dependencies: ["Test262Support"], swiftSettings: strict),
        // Layer: sandbox and IPC (never imports JS*). libseccomp: apt install libseccomp-dev.
        .systemLibrary(name: "CSeccomp", providers: [.apt(["libseccomp-dev"])]),
        .target(name: "CLockdown"),
        .target(name: "Lockdown", dependencies: ["CSeccomp", "CLockdown", "EngineIPC"], exclude: ["POLICY.md"], swiftSettings: strict),
        .target(name: "EngineIPC", swiftSettings: strict),
        // The tests start .build/<config>/jsrun, which `swift test` builds with every product.
        // (Not a dependency: jsrun's -static-stdlib would then apply to the test bundle too.)
        // Layer: web basics. Content-blocker rule lists (WebKit's JSON format) -> combined DFAs ->
        // serialized bytecode -> decisions; registrable domains (bundled Public Suffix List).
        // Imports nothing of the engine: the networking process links it without JS.
        // Optimized in debug builds too: its tests compile real lists and hostile input
        // (a 100,000-character filter, 150,001 rules), which unoptimized code takes minutes on.
        .target(name: "ContentBlocker", dependencies: ["WebURL"], exclude: ["DESIGN-NOTES.md"],
                swiftSettings: strict + [.unsafeFlags(["-O"], .when(configuration: .debug)), .unsafeFlags(["-enforce-exclusivity=unchecked"])]),
        .testTarget(name: "ContentBlockerTests", dependencies: ["ContentBlocker"],
                    exclude: ["Fixtures"], swiftSettings: strict),
        // The sable-contentblock command (eval, compile, match): a thin main over ContentBlocker.
        .executableTarget(name: "sable-contentblock", dependencies: ["ContentBlocker"], swiftSettings: strict),
        // Layer: documents. The node tree (final classes the bindings will wrap) and its
        // serializers (innerHTML; the html5lib test format). No dependencies.
        .target(name: "DOM", swiftSettings: runtimeSettings),
        // Layer: documents. The WHATWG HTML tokenizer and tree builder (bytes -> DOM).
        // (The tree builder is a class whose state every step touches: dynamic exclusivity
        // checks cost ~8% of parsing, as in JSRuntime.)
        .target(name: "HTML", dependencies: ["DOM"], exclude: ["DESIGN-NOTES.md"], swiftSettings: runtimeSettings),
        .testTarget(name: "HTMLTests", dependencies: ["HTML", "DOM"], swiftSettings: strict),
        // Conformance: html5lib-tests (tokenizer and tree construction) with a ratchet.
        .executableTarget(name: "HTML5LibTests", dependencies: ["HTML", "DOM"],
                          path: "Conformance/HTML5LibTests", swiftSettings: strict),
        .testTarget(name: "LockdownTests", dependencies: ["Lockdown", "EngineIPC", "JSRunCLI"],
                    exclude: ["PolicyProbe"], swiftSettings: strict),
            // Layer: web basics. The WHATWG URL Standard: parser, serializer, setters, IDNA (UTS #46,
        // Punycode, NFC), URLSearchParams, registrable domains (bundled Public Suffix List).
        // Data tables are generated by tools/weburl/*.py. Imports nothing.
        .target(name: "WebURL", swiftSettings: strict),
        .testTarget(name: "WebURLTests", dependencies: ["WebURL"], swiftSettings: strict),
        // Conformance: the web-platform-tests URL data (../shared/wpt-url) with a ratchet.
        .executableTarget(name: "WPTURL", dependencies: ["WebURL"], path: "Conformance/WPTURL", swiftSettings: strict),
        // Layer: process cores. The networking process over libcurl (apt install
        // libcurl4-openssl-dev): fetches, redirects, cookies, the request-policy hook for the
        // content blocker, and the service loop over the networking message set (EngineIPC).
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(name: "NetworkingCore", dependencies: ["CCurl", "ContentBlocker", "EngineIPC", "WebURL"], swiftSettings: strict),
        // The sable-fetch command (one fetch, as the networking process does it): a thin main.
        .executableTarget(name: "sable-fetch", dependencies: ["NetworkingCore", "EngineIPC"], swiftSettings: strict),
        .testTarget(name: "NetworkingCoreTests", dependencies: ["ContentBlocker", "NetworkingCore", "EngineIPC", "WebURL"],
                    swiftSettings: strict),
        // Layer: layout and paint. Display lists: plain values with their own versioned binary
        // encoding (rectangles, text runs, borders). Imports nothing.
        .target(name: "DisplayList", swiftSettings: strict),
        // Layer: layout and paint. Block and inline layout with line breaking, text measured
        // through the TextMeasurer interface; DOM -> DisplayList.
        .target(name: "Layout", dependencies: ["DOM", "DisplayList"], swiftSettings: strict),
        // Layer: process cores. Cairo and Pango (apt install libcairo2-dev libpango1.0-dev).
        .systemLibrary(name: "CPangoCairo", pkgConfig: "pangocairo", providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]),
        // The rendering process: display lists rasterized into memfd layers sent to the host.
        .target(name: "RenderingCore", dependencies: ["CPangoCairo", "DisplayList", "EngineIPC"], swiftSettings: strict),
        // The web-content process: lockdown, bootstrap, load (fetch, parse, layout, render).
        .target(name: "WebContentCore", dependencies: ["DOM", "HTML", "Layout", "DisplayList", "EngineIPC", "Lockdown", "CLockdown", "WebURL",
                                                      "JSEngine", "JSRuntime", "JSJIT"],
                 swiftSettings: strict),
        // The host: launches the processes, tabs, error pages, headless screenshots; session
        // history, the profile database (GRDB over libsqlite3-dev) and zoom.
        .target(name: "HostCore", dependencies: ["DisplayList", "EngineIPC", "Lockdown", "RenderingCore", "WebURL",
                                                 .product(name: "GRDB", package: "GRDB.swift")],
                swiftSettings: strict),
        // The host's W3C WebDriver server (HTTP on 127.0.0.1 with SwiftNIO) over HostCore's Browser.
        .target(name: "WebDriver", dependencies: ["HostCore", "EngineIPC", "WebURL",
                                                  .product(name: "NIOCore", package: "swift-nio"),
                                                  .product(name: "NIOPosix", package: "swift-nio"),
                                                  .product(name: "NIOHTTP1", package: "swift-nio")],
                swiftSettings: strict),
        // The host's GTK 4 window (tabs, toolbar, address field, the page's layer). GTK is
        // loaded at run time (dlopen of libgtk-4.so.1): no build dependency, and only a
        // windowed host process loads it.
        .target(name: "BrowserWindow", dependencies: ["HostCore", "RenderingCore", "CPangoCairo", "EngineIPC"], swiftSettings: strict),
        // The worker roles both executables serve (content, networking, rendering).
        .target(name: "BrowserRoles", dependencies: ["WebContentCore", "NetworkingCore", "RenderingCore", "Lockdown", "JSSyntax"],
                swiftSettings: strict),
        // sable: one binary, four roles (host, content, networking, rendering).
        .executableTarget(name: "sable", dependencies: ["BrowserRoles", "BrowserWindow", "ContentBlocker", "HostCore", "WebDriver", "WebContentCore", "NetworkingCore", "RenderingCore", "Lockdown"],
                          swiftSettings: strict),
        // The three worker roles alone (no host code, no GRDB/Foundation, no NIO): what the
        // host launches when it is next to sable.
        .executableTarget(name: "sable-worker", dependencies: ["BrowserRoles", "Lockdown"],
                          swiftSettings: strict),
        .testTarget(name: "BrowserTests", dependencies: ["HostCore", "WebContentCore", "WebDriver", "RenderingCore", "DisplayList", "Layout", "BrowserWindow", "CPangoCairo",
                                                          "EngineIPC", "Lockdown", "CLockdown", "HTML", "DOM"],
                    swiftSettings: strict),
    ]
)
