import ContentBlocker
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The profile's store of content blockers (`sable --content-blocker add|list|remove`, and
/// what the networking process loads): lists compiled on add, mapped on load, a damaged or
/// outdated compiled file refused and recompiled from the stored source, and a list that
/// fails to compile leaving the profile as it was.
@Suite struct ProfileTests {
    static let blockAds = ##"[{"trigger":{"url-filter":"ads"},"action":{"type":"block"}},{"trigger":{"url-filter":".*"},"action":{"type":"css-display-none","selector":".banner"}},{"trigger":{"url-filter":"news\\.example"},"action":{"type":"css-display-none","selector":"#promo"}}]"##
    static let blockTrackers = #"[{"trigger":{"url-filter":"tracker","load-type":["third-party"]},"action":{"type":"block"}}]"#

    static func temporaryProfile() -> String {
        var template = Array("/tmp/sable-profile-XXXXXX".utf8CString)
        let p = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        return String(cString: p!)
    }

    static func removeTree(_ path: String) {
        let store = ContentBlockerProfile(profileDirectory: path)
        for name in store.names() { store.remove(name: name) }
        rmdir(store.directory)
        rmdir(path)
    }

    static func write(_ path: String, _ text: String) {
        _ = ContentRuleListStore.writeFile(path, Array(text.utf8))
    }

    static func blocked(_ set: ContentBlockerSet, _ url: String, page: String = "https://site.example/") -> Bool {
        set.decide(url: url, resourceType: ResourceFlags.image, mainDocumentURL: page).blocked
    }

    @Test func addListRemove() throws {
        let dir = Self.temporaryProfile()
        defer { Self.removeTree(dir) }
        let store = ContentBlockerProfile(profileDirectory: dir)
        #expect(store.names().isEmpty)
        Self.write(dir + "/ads.json", Self.blockAds)
        Self.write(dir + "/trackers.json", Self.blockTrackers)
        guard case .success(let added) = store.add(name: "ads", sourcePath: dir + "/ads.json") else { Issue.record("add failed"); return }
        #expect(added.ruleCount == 3 && !added.replaced && added.compiledBytes > 0)
        guard case .success = store.add(name: "trackers", sourcePath: dir + "/trackers.json") else { Issue.record("add failed"); return }
        #expect(store.names() == ["ads", "trackers"])
        let (set, problems) = store.loadAll()
        #expect(problems.isEmpty)
        #expect(set.names == ["ads", "trackers"])
        #expect(Self.blocked(set, "https://cdn.example/ads/1.png"))
        #expect(Self.blocked(set, "https://tracker.other/pixel.gif"))
        #expect(!Self.blocked(set, "https://cdn.example/logo.png"))
        // Replacing a list.
        guard case .success(let again) = store.add(name: "ads", sourcePath: dir + "/trackers.json") else { Issue.record("replace failed"); return }
        #expect(again.replaced)
        #expect(!Self.blocked(store.loadAll().set, "https://cdn.example/ads/1.png"))
        #expect(store.remove(name: "ads"))
        #expect(!store.remove(name: "ads"))
        #expect(store.names() == ["trackers"])
    }

    @Test func styleSheetForAPage() throws {
        let dir = Self.temporaryProfile()
        defer { Self.removeTree(dir) }
        let store = ContentBlockerProfile(profileDirectory: dir)
        guard case .success = store.add(name: "ads", source: Array(Self.blockAds.utf8)) else { Issue.record("add failed"); return }
        let set = store.loadAll().set
        let news = set.styleSheet(forPage: "https://news.example/today")
        #expect(news.contains(".banner{display:none !important;}"))
        #expect(news.contains("#promo{display:none !important;}"))
        let other = set.styleSheet(forPage: "https://other.example/")
        #expect(other.contains(".banner") && !other.contains("#promo"))
    }

    @Test func invalidNamesAreRefused() {
        let dir = Self.temporaryProfile()
        defer { Self.removeTree(dir) }
        let store = ContentBlockerProfile(profileDirectory: dir)
        for name in ["", "../x", "a/b", ".hidden", String(repeating: "a", count: 101)] {
            guard case .failure = store.add(name: name, source: Array(Self.blockAds.utf8)) else { Issue.record("accepted \(name)"); continue }
        }
        #expect(store.names().isEmpty)
    }

    /// A compiled file that was damaged (a flipped byte, truncated) or written by another
    /// format version is refused when loaded and rebuilt from the stored source.
    @Test func damagedOrOutdatedCompiledFilesAreRecompiled() throws {
        let dir = Self.temporaryProfile()
        defer { Self.removeTree(dir) }
        let store = ContentBlockerProfile(profileDirectory: dir)
        guard case .success = store.add(name: "ads", source: Array(Self.blockAds.utf8)) else { Issue.record("add failed"); return }
        guard case .success(let good) = ContentRuleListStore.readFile(store.compiledPath("ads")) else { Issue.record("read"); return }
        var flipped = good
        flipped[flipped.count / 2] ^= 0x5A
        var outdated = good
        outdated[4] = 1  // format version 1
        let truncated = Array(good.prefix(good.count / 3))
        for (what, bytes) in [("flipped", flipped), ("outdated", outdated), ("truncated", truncated), ("empty", [])] {
            _ = ContentRuleListStore.writeFile(store.compiledPath("ads"), bytes)
            let (set, problems) = store.loadAll()
            #expect(problems.count == 1 && problems[0].contains("recompiled"), "\(what): \(problems)")
            #expect(Self.blocked(set, "https://cdn.example/ads/1.png"), "\(what)")
            // The file was rewritten: the next load maps it without complaint.
            #expect(store.loadAll().problems.isEmpty, "\(what)")
        }
        // Without its source a damaged list is left out; the others load.
        guard case .success = store.add(name: "trackers", source: Array(Self.blockTrackers.utf8)) else { Issue.record("add"); return }
        _ = ContentRuleListStore.writeFile(store.compiledPath("ads"), truncated)
        unlink(store.sourcePath("ads"))
        _ = ContentRuleListStore.writeFile(store.sourcePath("ads"), Array("[".utf8))
        let (set, problems) = store.loadAll()
        #expect(set.names == ["trackers"])
        #expect(problems.count == 1 && problems[0].hasPrefix("ads:"))
    }

    /// Each bad input ends in WebKit's error, quickly, and the profile keeps the lists it had
    /// (a list of the same name included).
    @Test func badListsLeaveTheProfileAsItWas() throws {
        let dir = Self.temporaryProfile()
        defer { Self.removeTree(dir) }
        let store = ContentBlockerProfile(profileDirectory: dir)
        guard case .success = store.add(name: "ads", source: Array(Self.blockAds.utf8)) else { Issue.record("add failed"); return }
        guard case .success(let before) = ContentRuleListStore.readFile(store.compiledPath("ads")) else { Issue.record("read"); return }
        func rule(_ k: Int) -> String { #"{"trigger":{"url-filter":"ads"# + String(k) + #""},"action":{"type":"block"}}"# }
        // 100 MB of rules (1.7 million of them).
        var big: [UInt8] = Array("[".utf8)
        big.reserveCapacity(100 << 20 + 100)
        var k = 0
        while big.count < 100 << 20 {
            if k > 0 { big.append(0x2C) }
            big.append(contentsOf: rule(k).utf8)
            k += 1
        }
        big.append(0x5D)
        let tooMany = Array(("[" + (0..<150_001).map(rule).joined(separator: ",") + "]").utf8)
        let cases: [(String, [UInt8], ContentExtensionError)] = [
            ("malformed JSON", Array(tooMany.dropLast(2)), .JSONInvalid),
            ("100 MB", big, .JSONTooManyRules),
            ("150,001 rules", tooMany, .JSONTooManyRules),
            ("100,000-character url-filter", Array((#"[{"trigger":{"url-filter":""# + String(repeating: "ab", count: 50_000) + #""},"action":{"type":"block"}}]"#).utf8), .JSONInvalidRegex),
            ("not an array", Array(#"{"trigger":{}}"#.utf8), .JSONTopLevelStructureNotAnArray),
        ]
        for (what, source, expected) in cases {
            var result: Result<ContentBlockerProfile.Added, ContentRuleListStore.Failure>?
            let t = BadInputTests.seconds { result = store.add(name: "ads", source: source) }
            if case .failure(.rules(let e)) = result { #expect(e == expected, "\(what)") } else { Issue.record("\(what): \(String(describing: result))") }
            #expect(t < 20, "\(what): \(t) s")
            #expect(ContentRuleListStore.readFile(store.compiledPath("ads")).map { $0 == before } == .success(true), "\(what)")
            #expect(ContentRuleListStore.readFile(store.sourcePath("ads")).map { $0 == Array(Self.blockAds.utf8) } == .success(true), "\(what)")
            #expect(Self.blocked(store.loadAll().set, "https://cdn.example/ads/1.png"), "\(what)")
        }
    }
}

extension ContentRuleListStore.Failure: Equatable {
    public static func == (a: Self, b: Self) -> Bool { a.message == b.message }
}
