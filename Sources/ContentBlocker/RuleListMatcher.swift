/// Decides loads against one compiled rule list (WebKit's `ContentExtensionsBackend::
/// actionsForResourceLoad` for one list). Keeps per-page caches (the top and frame URL
/// conditions, as WebKit's `ContentExtension` caches its top-URL actions) and scratch
/// buffers, so a decision allocates nothing: use one matcher per thread.
public final class RuleListMatcher {
    public let list: CompiledRuleList
    var seen: [UInt32]
    var stamp: UInt32 = 0
    var candidates: [UInt32] = []
    var locations: [UInt32] = []
    public private(set) var result: [UInt32] = []
    public private(set) var sawIgnorePreviousRules = false
    /// How many confirmation DFAs have run (a statistic for tools).
    public private(set) var confirmations = 0
    /// How many candidate rules the URL DFAs have produced (a statistic for tools).
    public var candidateCount: Int { candidatesTotal }
    var candidatesTotal = 0

    // Condition caches.
    var topBits: [UInt64]
    var topSet: [UInt32] = []
    var topURL: String? = nil
    var frameBits: [UInt64]
    var frameSet: [UInt32] = []
    var frameURL: String? = nil
    var ancestorBits: [UInt64]
    var ancestorSet: [UInt32] = []
    var applicableNetwork: [UInt32] = []
    var applicableCSS: [UInt32]? = nil
    var applicableKey: (String, String)? = nil
    var scratch: [UInt8] = []

    public init(_ list: CompiledRuleList) {
        self.list = list
        seen = [UInt32](repeating: 0, count: list.ruleCount)
        let words = (list.ruleCount + 63) / 64
        topBits = [UInt64](repeating: 0, count: words)
        frameBits = [UInt64](repeating: 0, count: words)
        ancestorBits = [UInt64](repeating: 0, count: words)
        candidates.reserveCapacity(256)
        locations.reserveCapacity(256)
        result.reserveCapacity(64)
    }

    @inline(__always) static func test(_ bits: [UInt64], _ r: UInt32) -> Bool {
        bits[Int(r >> 6)] & (1 << UInt64(r & 63)) != 0
    }

    static func fill(_ bits: inout [UInt64], _ set: inout [UInt32], dfas: [UInt32], list: CompiledRuleList, urls: [String]) {
        for r in set { bits[Int(r >> 6)] &= ~(1 << UInt64(r & 63)) }
        set.removeAll(keepingCapacity: true)
        for url in urls {
            for d in dfas {
                let code = list.dfa(d)
                url.utf8.withContiguousStorageIfAvailable { bytes in
                    DFABytecode.run(code, bytes) { r, _ in
                        if bits[Int(r >> 6)] & (1 << UInt64(r & 63)) == 0 {
                            bits[Int(r >> 6)] |= 1 << UInt64(r & 63)
                            set.append(r)
                        }
                    }
                } ?? {
                    var copy = url
                    copy.withUTF8 { bytes in
                        DFABytecode.run(code, bytes) { r, _ in
                            if bits[Int(r >> 6)] & (1 << UInt64(r & 63)) == 0 {
                                bits[Int(r >> 6)] |= 1 << UInt64(r & 63)
                                set.append(r)
                            }
                        }
                    }
                }()
            }
        }
    }

    func prepareConditions(_ load: ResourceLoad) {
        if topURL != load.mainDocumentURLString {
            RuleListMatcher.fill(&topBits, &topSet, dfas: list.topDFAs, list: list, urls: [load.mainDocumentURLString])
            if list.domainTable != 0 {
                var url = load.mainDocumentURLString
                url.withUTF8 { bytes in
                    DomainConditionTable.match(list.words, table: list.domainTable, url: bytes, scratch: &scratch) { r in
                        if topBits[Int(r >> 6)] & (1 << UInt64(r & 63)) == 0 {
                            topBits[Int(r >> 6)] |= 1 << UInt64(r & 63)
                            topSet.append(r)
                        }
                    }
                }
            }
            topURL = load.mainDocumentURLString
        }
        if frameURL != load.frameURLString {
            if !list.frameDFAs.isEmpty {
                RuleListMatcher.fill(&frameBits, &frameSet, dfas: list.frameDFAs, list: list, urls: [load.frameURLString])
            }
            frameURL = load.frameURLString
        }
    }

    /// Whether a rule's condition holds for the load (top and frame URLs prepared).
    @inline(__always) func conditionHolds(_ r: UInt32, _ condition: UInt32, _ load: ResourceLoad) -> Bool {
        let everything = list.info(ofRule: Int(r)) & ContentRuleListCompiler.infoConditionMatchesEverything != 0
        switch condition {
        case ResourceFlags.ifTopURL: return everything || RuleListMatcher.test(topBits, r)
        case ResourceFlags.unlessTopURL: return !(everything || RuleListMatcher.test(topBits, r))
        case ResourceFlags.ifFrameURL: return everything || RuleListMatcher.test(frameBits, r)
        case ResourceFlags.unlessFrameURL: return !(everything || RuleListMatcher.test(frameBits, r))
        case ResourceFlags.ifAncestorSubframeURL:
            if everything { return !load.ancestorFrameURLStrings.isEmpty }
            if ancestorSet.isEmpty && !load.ancestorFrameURLStrings.isEmpty {
                RuleListMatcher.fill(&ancestorBits, &ancestorSet, dfas: list.frameDFAs, list: list, urls: load.ancestorFrameURLStrings)
            }
            return RuleListMatcher.test(ancestorBits, r)
        default: return true
        }
    }

    /// The universal rules whose condition (top or frame URL) holds for this page and frame.
    func prepareUniversal(_ load: ResourceLoad, css: Bool) {
        let key = (load.mainDocumentURLString, load.frameURLString)
        if applicableKey.map({ $0 != key }) ?? true {
            applicableKey = key
            applicableCSS = nil
            applicableNetwork = RuleListMatcher.select(list.universalNetwork, self, load)
        }
        if css && applicableCSS == nil { applicableCSS = RuleListMatcher.select(list.universalCSS, self, load) }
    }

    static func select(_ rules: [UInt32], _ m: RuleListMatcher, _ load: ResourceLoad) -> [UInt32] {
        var out: [UInt32] = []
        for r in rules {
            let c = m.list.flags(ofRule: Int(r)) & ResourceFlags.actionConditionMask
            // Ancestor conditions depend on the request: kept, checked per load.
            if c == 0 || c == ResourceFlags.ifAncestorSubframeURL || m.conditionHolds(r, c, load) { out.append(r) }
        }
        return out
    }

    @inline(__always) func consider(_ r: UInt32, _ load: ResourceLoad, networkOnly: Bool, urlBytes: UnsafeBufferPointer<UInt8>) {
        if seen[Int(r)] == stamp { return }
        seen[Int(r)] = stamp
        let ruleIndex = Int(r)
        if networkOnly && list.info(ofRule: ruleIndex) & ContentRuleListCompiler.infoCSS != 0 { return }
        let f = list.flags(ofRule: ruleIndex)
        guard ResourceFlags.ruleFlags(f, admit: load.flags) else { return }
        let c = f & ResourceFlags.actionConditionMask
        if c != 0 && !conditionHolds(r, c, load) { return }
        let v = list.verifier(ofRule: ruleIndex)
        if v != 0 {
            confirmations &+= 1
            var confirmed = false
            DFABytecode.run(list.dfa(v), urlBytes) { _, _ in confirmed = true }
            if !confirmed { return }
        }
        locations.append(list.location(ofRule: ruleIndex))
    }

    /// Runs the URL DFAs and checks the candidates and the universal rules.
    @inline(__always) func collect(_ bytes: UnsafeBufferPointer<UInt8>, _ load: ResourceLoad, _ networkOnly: Bool) {
        // Most candidates are refused by the flags and the condition stored next to them in
        // the DFA, without a look at the rule table.
        let requestFlags = load.flags
        for d in list.urlDFAs {
            DFABytecode.run(list.dfa(d), bytes) { r, f in
                if networkOnly && f & ContentRuleListCompiler.dfaFlagCSS != 0 { return }
                guard ResourceFlags.ruleFlags(f, admit: requestFlags) else { return }
                let c = f & ResourceFlags.actionConditionMask
                if c == ResourceFlags.ifTopURL || c == ResourceFlags.unlessTopURL {
                    let matched = f & ContentRuleListCompiler.dfaFlagConditionEverything != 0 || RuleListMatcher.test(topBits, r)
                    if matched != (c == ResourceFlags.ifTopURL) { return }
                }
                candidates.append(r)
            }
        }
        candidatesTotal &+= candidates.count
        for r in candidates { consider(r, load, networkOnly: networkOnly, urlBytes: bytes) }
        for r in applicableNetwork { consider(r, load, networkOnly: networkOnly, urlBytes: bytes) }
        if !networkOnly, let css = applicableCSS {
            for r in css { consider(r, load, networkOnly: false, urlBytes: bytes) }
        }
    }

    /// Decides a load: afterwards `result` holds the action locations in WebKit's order (the
    /// last matching rule first, stopping at an ignore-previous-rules), and
    /// `sawIgnorePreviousRules` whether one stopped it. With `networkOnly`, css-display-none
    /// rules are left out (they cannot change which other actions apply), as the networking
    /// process needs.
    public func decide(_ load: ResourceLoad, networkOnly: Bool = false) {
        result.removeAll(keepingCapacity: true)
        sawIgnorePreviousRules = false
        if load.isExempt { return }
        stamp &+= 1
        if stamp == 0 { for i in seen.indices { seen[i] = 0 }; stamp = 1 }
        candidates.removeAll(keepingCapacity: true)
        locations.removeAll(keepingCapacity: true)
        for r in ancestorSet { ancestorBits[Int(r >> 6)] = 0 }
        ancestorSet.removeAll(keepingCapacity: true)
        prepareConditions(load)
        prepareUniversal(load, css: !networkOnly)
        if load.urlString.utf8.withContiguousStorageIfAvailable({ collect($0, load, networkOnly) }) == nil {
            var copy = load.urlString
            copy.withUTF8 { collect($0, load, networkOnly) }
        }
        if locations.isEmpty { return }
        locations.sort()
        // Add actions in reverse order to properly deal with IgnorePreviousRules.
        var previous = UInt32.max
        for l in locations.reversed() where l != previous {
            previous = l
            let kind = list.kind(atLocation: l)
            if kind == RuleAction.ignorePreviousRules.kind { sawIgnorePreviousRules = true; break }
            if kind == RuleAction.ignoreFollowingRules.kind { result.removeAll(keepingCapacity: true); continue }
            result.append(l)
        }
    }

    /// The kinds of the decided actions as a bit set (bit `RuleAction.kind`).
    public var resultKinds: UInt32 {
        var k: UInt32 = 0
        for l in result { k |= 1 << UInt32(list.kind(atLocation: l)) }
        return k
    }
}
