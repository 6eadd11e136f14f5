import ContentBlocker
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Hostile lists end in WebKit's error for them, quickly, without a crash.
@Suite struct BadInputTests {
    static func seconds(_ body: () -> Void) -> Double {
        var a = timespec(), b = timespec()
        clock_gettime(CLOCK_MONOTONIC, &a)
        body()
        clock_gettime(CLOCK_MONOTONIC, &b)
        return Double(b.tv_sec - a.tv_sec) + Double(b.tv_nsec - a.tv_nsec) * 1e-9
    }

    static func error(_ json: String) -> ContentExtensionError? {
        if case .failure(let e) = ContentRuleListCompiler.compile(json: json) { return e }
        return nil
    }

    @Test func tooManyRules() {
        // 150,001 rules: one over WebKit's maxRuleCount.
        let rule = #"{"trigger":{"url-filter":"a"},"action":{"type":"block"}}"#
        let json = "[" + [String](repeating: rule, count: 150_001).joined(separator: ",") + "]"
        var e: ContentExtensionError?
        let t = Self.seconds { e = Self.error(json) }
        #expect(e == .JSONTooManyRules)
        #expect(t < 10)
    }

    @Test func malformedJSON() {
        for text in ["[", "[{\"trigger\":", "nul", "[1,]", "\"unterminated", String(repeating: "[", count: 100_000)] {
            #expect(Self.error(text) == .JSONInvalid, "\(text.prefix(20))")
        }
    }

    @Test func longURLFilterCompiles() {
        // A 100,000-character url-filter: WebKit has no length limit; it compiles, linearly.
        let filter = String(repeating: "ab", count: 50_000)
        let json = #"[{"trigger":{"url-filter":""# + filter + #""},"action":{"type":"block"}}]"#
        var result: Result<[UInt8], ContentExtensionError>?
        let t = Self.seconds { result = ContentRuleListCompiler.compile(json: json) }
        guard case .success(let bytes)? = result, let list = try? CompiledRuleList(bytes: bytes) else {
            Issue.record("did not compile"); return
        }
        let m = RuleListMatcher(list)
        if let u = RequestURL("http://a.com/" + filter) {
            m.decide(ResourceLoad(url: u, mainDocumentURL: u, resourceType: ResourceFlags.image))
            #expect(m.result.count == 1)
        }
        #expect(t < 20)
    }

    @Test func deeplyNestedGroupsAreRefused() {
        let filter = String(repeating: "(", count: 10_000) + "a" + String(repeating: ")", count: 10_000)
        #expect(Self.error(#"[{"trigger":{"url-filter":""# + filter + #""},"action":{"type":"block"}}]"#) == .JSONInvalidRegex)
    }

    @Test func nestedQuantifiersCompileAndMatchInLinearTime() {
        // Catastrophic for a backtracking matcher; a DFA walks each byte once.
        let json = #"[{"trigger":{"url-filter":"^https?://a.com/((a+)+)+b"},"action":{"type":"block"}}]"#
        guard case .success(let bytes) = ContentRuleListCompiler.compile(json: json), let list = try? CompiledRuleList(bytes: bytes) else {
            Issue.record("did not compile"); return
        }
        let m = RuleListMatcher(list)
        let long = "http://a.com/" + String(repeating: "a", count: 5000) + "c"
        let t = Self.seconds {
            if let u = RequestURL(long) { m.decide(ResourceLoad(url: u, mainDocumentURL: u, resourceType: ResourceFlags.image)) }
        }
        #expect(m.result.isEmpty)
        #expect(t < 1)
    }
}
