import ContentBlocker
import Testing

/// The cases transcribed from WebKit's `Tools/TestWebKitAPI/Tests/WebCore/ContentExtensions.cpp`
/// (and the parser's error paths), run through the `eval` format: each fixture line is an
/// eval case plus `name` and `expect` (the output members it must have).
@Suite struct WebKitCasesTests {
    @Test(arguments: EvalCase.load("webkit-cases.jsonl"))
    func evalCase(_ c: EvalCase) throws {
        let input = try #require(JSONValue.parse(c.line))
        let output = ContentBlockerEval.evaluate(input)
        guard case .object(let expected) = try #require(input["expect"]) else { Issue.record("no expect"); return }
        for (key, value) in expected {
            #expect(output[key] == value, "\(key): got \(output[key]?.serialized ?? "nothing"), output \(output.serialized)")
        }
    }

    @Test func fixturesArePresent() {
        #expect(EvalCase.load("webkit-cases.jsonl").count > 200)
    }
}
