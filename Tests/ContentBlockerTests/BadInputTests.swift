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

    /// A 100,000-character url-filter (letters, not periodic): it compiles, in linear time,
    /// and matches.
    @Test func longURLFilterCompiles() {
        var seed: UInt32 = 12345
        let filter = String(decoding: (0..<100_000).map { _ -> UInt8 in
            seed = seed &* 1_103_515_245 &+ 12345
            return UInt8(ascii: "a") + UInt8((seed >> 16) % 26)
        }, as: UTF8.self)
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

    /// A 100,000-character periodic filter ("aaaa…") would make subset construction
    /// quadratic: it is refused quickly with JSONInvalidRegex instead.
    @Test func longPeriodicURLFilterIsRefusedQuickly() {
        let json = #"[{"trigger":{"url-filter":""# + String(repeating: "a", count: 100_000) + #""},"action":{"type":"block"}}]"#
        var e: ContentExtensionError?
        let t = Self.seconds { e = Self.error(json) }
        #expect(e == .JSONInvalidRegex)
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
