import Testing
import JSSyntax
@testable import JSRuntime

/// A runtime and everything it made are freed when the embedder lets go of it (an app
/// that creates a context per document, the fuzzers and the test262 workers create many).
@Suite struct RuntimeLifetimeTests {
    @Test func aRuntimeIsFreedAfterUse() throws {
        weak var freed: Runtime?
        do {
            let rt = Runtime()
            try rt.initializeRealm()
            _ = try rt.evaluateScript(SourceFile(name: "life.js", text: "JSON.stringify(JSON.parse('[1, {\"a\": 2}]'))"))
            freed = rt
        }
        #expect(freed == nil)
    }

    @Test func aRuntimeWithASecondRealmIsFreed() throws {
        weak var freed: Runtime?
        do {
            let rt = Runtime()
            try rt.initializeRealm()
            _ = try rt.createRealm()
            freed = rt
        }
        #expect(freed == nil)
    }
}

extension RuntimeLifetimeTests {
    /// The Swift objects cells own (a shape's ShapeInfo, a Map's index) go with the runtime.
    @Test func theShapesOfAFreedRuntimeAreFreed() throws {
        weak var info: ShapeInfo?
        do {
            let rt = Runtime()
            try rt.initializeRealm()
            _ = try rt.evaluateScript(SourceFile(name: "life.js", text: "var m = new Map([[1, {x: 1, y: 2}]]); var b = new ArrayBuffer(64); m.size"))
            info = ShapeCell(rt.realm.objectShape).info
            #expect(info != nil)
        }
        #expect(info == nil)
    }
}
