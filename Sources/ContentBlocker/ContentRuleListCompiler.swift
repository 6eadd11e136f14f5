/// Rule list -> compiled rule list, in WebKit's manner (`ContentExtensionCompiler.cpp`):
/// actions serialized once and shared by rules with the same action and flags
/// (`serializeActions`), url-filters parsed (`URLFilterParser`) into combined NFAs, each turned
/// into a DFA (`NFAToDFA`), minimized (`DFAMinimizer`) and lowered to bytecode
/// (`DFABytecode`); condition URLs (top, frame) get DFAs of their own.
///
/// Two departures, both for speed and size (see DESIGN-NOTES.md): a filter with an inner
/// ".*" (`/ads/.*\.gif`) puts only the part before it into the combined DFA and is confirmed by
/// a small DFA of its own, so the combined DFAs stay Aho–Corasick-sized instead of growing as
/// a product; and a group of patterns whose DFA passes `maximumDFAStates` is split in two
/// (WebKit splits by NFA size, `maxNFASize`).
public enum ContentRuleListCompiler {
    /// The version of the compiled format; a file of another version is refused.
    public static let formatVersion: UInt32 = 14
    static let magic: UInt32 = 0x4243_4253  // "SBCB"
    static let maximumDFAStates = 500_000
    /// DFAs up to this size are minimized. Larger ones come from the prefix tree of many
    /// filters, where subset construction is already close to minimal (measured on the
    /// EasyList family: 0–3% fewer states) and minimizing costs seconds.
    static let minimizeLimit = 20_000
    /// The subset-construction work (NFA nodes visited) one filter may take: ample for any
    /// real filter (a 100,000-character one of letters takes 0.3 M), it stops periodic
    /// monsters ("aaaa…", quadratic) in about a second.
    static let singleFilterWork = 8_000_000

    /// Compiles JSON text into the bytes of a compiled rule list.
    public static func compile(json: String) -> Result<[UInt8], ContentExtensionError> {
        switch RuleListParser.parse(json) {
        case .failure(let e): return .failure(e)
        case .success(let rules): return compile(rules: rules)
        }
    }

    /// Compiles JSON bytes into the bytes of a compiled rule list.
    public static func compile(jsonBytes: UnsafeBufferPointer<UInt8>) -> Result<[UInt8], ContentExtensionError> {
        switch RuleListParser.parse(bytes: jsonBytes) {
        case .failure(let e): return .failure(e)
        case .success(let rules): return compile(rules: rules)
        }
    }

    // MARK: - Actions (serializeActions)

    struct ActionTable {
        var kinds: [UInt8] = []
        var payloads: [String] = []  // selector, notification, or the action as JSON
        var locations: [UInt32] = []  // per rule
    }

    static func payload(_ action: RuleAction) -> String {
        switch action {
        case .cssDisplayNone(let s): return s
        case .notify(let s): return s
        case .redirect(let r): return ActionCoding.encode(redirect: r)
        case .modifyHeaders(let m): return ActionCoding.encode(modifyHeaders: m)
        default: return ""
        }
    }

    /// `serializeActions`: rules with a condition each get their own action; others share one
    /// per (action, flags) until the next ignore-previous-rules; css-display-none selectors of
    /// rules with equal triggers are joined with commas and placed when the next
    /// ignore-previous-rules (or the end) is reached.
    static func serializeActions(_ rules: [ContentRule]) -> ActionTable {
        var table = ActionTable()
        table.locations = [UInt32](repeating: 0, count: rules.count)
        struct Key: Hashable { var kind: UInt8; var flags: UInt32; var argument: String }
        var shared: [Key: UInt32] = [:]
        var ignorePrevious: [UInt32: UInt32] = [:]
        var pendingOrder: [Trigger] = []
        var pending: [Trigger: (selectors: String, clients: [Int])] = [:]

        func append(_ kind: UInt8, _ payload: String) -> UInt32 {
            table.kinds.append(kind)
            table.payloads.append(payload)
            return UInt32(table.kinds.count - 1)
        }
        func resolvePending() {
            for trigger in pendingOrder {
                guard let p = pending[trigger] else { continue }
                let location = append(RuleAction.cssDisplayNone(selector: "").kind, p.selectors)
                for client in p.clients { table.locations[client] = location }
            }
            pending.removeAll()
            pendingOrder.removeAll()
        }

        for (index, rule) in rules.enumerated() {
            if case .ignorePreviousRules = rule.action {
                resolvePending()
                shared.removeAll()
            } else {
                ignorePrevious.removeAll()
            }
            let kind = rule.action.kind
            if !rule.trigger.conditions.isEmpty {
                table.locations[index] = append(kind, payload(rule.action))
                continue
            }
            let flags = rule.trigger.flags
            switch rule.action {
            case .cssDisplayNone(let selector):
                if var p = pending[rule.trigger] {
                    p.selectors += "," + selector
                    p.clients.append(index)
                    pending[rule.trigger] = p
                } else {
                    pending[rule.trigger] = (selector, [index])
                    pendingOrder.append(rule.trigger)
                }
            case .ignorePreviousRules:
                if let l = ignorePrevious[flags] { table.locations[index] = l } else {
                    let l = append(kind, "")
                    ignorePrevious[flags] = l
                    table.locations[index] = l
                }
            case .block, .blockCookies, .makeHTTPS, .notify:
                let key = Key(kind: kind, flags: flags, argument: payload(rule.action))
                if let l = shared[key] { table.locations[index] = l } else {
                    let l = append(kind, key.argument)
                    shared[key] = l
                    table.locations[index] = l
                }
            case .redirect, .modifyHeaders, .ignoreFollowingRules:
                table.locations[index] = append(kind, payload(rule.action))
            }
        }
        resolvePending()
        return table
    }

    // MARK: - Patterns

    struct PatternEntry {
        var terms: ArraySlice<Term>
        var id: UInt32
        var unanchored: Bool
        var size: Int
    }

    /// DFAs for a set of patterns: patterns that start anywhere and patterns anchored at the
    /// start go to separate NFAs; a group whose DFA would be too large is split.
    /// With `startAnywhere`, the patterns that start anywhere lose their leading `.*` and
    /// make a DFA that is walked from each position a start filter admits
    /// (`DFABytecode.runAnywhere`); without, they share the root's loop (one walk).
    static func buildDFAs(_ patterns: [PatternEntry], startAnywhere: Bool = false, gated: Bool = false,
                          flagsOf: (UInt32) -> UInt32) -> [[UInt32]]? {
        var out: [[UInt32]] = []
        // (unanchored, walked from each admitted position)
        let kinds: [(Bool, Bool)] = startAnywhere ? [(false, false), (true, true), (true, false)] : [(false, false), (true, false)]
        for (unanchored, anywhere) in kinds {
            let group = patterns.filter {
                $0.unanchored == unanchored && (!unanchored || !startAnywhere || isWalkedFromEachPosition($0.terms) == anywhere)
            }
            if group.isEmpty { continue }
            let startAnywhere = anywhere
            // Groups bounded by NFA size first, as WebKit does (maxNFASize).
            var chunk: [PatternEntry] = []
            var size = 0
            for p in group {
                if size + p.size > 600_000 && !chunk.isEmpty {
                    guard build(chunk, unanchored: unanchored, startAnywhere: startAnywhere, gated: gated, flagsOf: flagsOf, into: &out) else { return nil }
                    chunk.removeAll(); size = 0
                }
                chunk.append(p); size += p.size
            }
            if !chunk.isEmpty { guard build(chunk, unanchored: unanchored, startAnywhere: startAnywhere, gated: gated, flagsOf: flagsOf, into: &out) else { return nil } }
        }
        return out
    }

    /// Builds the DFAs of a group, splitting it while its DFA is too large; false when a
    /// single filter's DFA is (the list then fails with JSONInvalidRegex).
    static func build(_ group: [PatternEntry], unanchored: Bool, startAnywhere: Bool, gated: Bool = false,
                      flagsOf: (UInt32) -> UInt32, into out: inout [[UInt32]]) -> Bool {
        let anywhere = unanchored && startAnywhere
        var nfa = NFA(unanchored: unanchored && !anywhere)
        for p in group { nfa.addPattern(anywhere ? p.terms.dropFirst() : p.terms, id: p.id) }
        let t0 = CompileLog.now()
        if let dfa = NFAToDFA.convert(nfa, maximumStates: group.count == 1 ? 1 << 20 : maximumDFAStates,
                                      maximumWork: group.count == 1 ? singleFilterWork : 40_000_000) {
            let t1 = CompileLog.now()
            let minimized = dfa.stateCount <= minimizeLimit ? DFAMinimizer.minimize(dfa) : dfa
            let t2 = CompileLog.now()
            out.append(DFABytecode.encode(minimized, startsAnywhere: anywhere, gated: gated && !unanchored, flagsOf: flagsOf))
            CompileLog.log("group \(group.count) patterns (\(unanchored ? "unanchored" : "anchored")), NFA \(nfa.nodeCount) nodes -> DFA \(dfa.stateCount) states, \(dfa.classCount) classes (\(t1 - t0) s) -> minimized \(minimized.stateCount) (\(t2 - t1) s) -> \(out.last?.count ?? 0) words (\(CompileLog.now() - t2) s)")
            return true
        }
        guard group.count > 1 else { return false }
        CompileLog.log("group \(group.count) patterns: DFA too large after \(CompileLog.now() - t0) s, split")
        return build(Array(group[..<(group.count / 2)]), unanchored: unanchored, startAnywhere: startAnywhere, gated: gated, flagsOf: flagsOf, into: &out)
            && build(Array(group[(group.count / 2)...]), unanchored: unanchored, startAnywhere: startAnywhere, gated: gated, flagsOf: flagsOf, into: &out)
    }

    /// Whether a filter that starts anywhere goes to a DFA walked from each position the start
    /// filter admits: short and without loops, so that a walk is as long as the filter at most.
    /// Others (`a+b`, a 100,000-character filter) share the root's loop and are walked once.
    static func isWalkedFromEachPosition(_ terms: ArraySlice<Term>) -> Bool {
        func loopFree(_ t: Term) -> Bool {
            if t.quantifier == .zeroOrMore || t.quantifier == .oneOrMore { return false }
            if case .group(let inner) = t.kind { return inner.allSatisfy(loopFree) }
            return true
        }
        return terms.reduce(0) { $0 + $1.size } <= 256 && terms.dropFirst().allSatisfy(loopFree)
    }

    /// Where a filter with an inner ".*" is cut: the index of that ".*" among the terms, when
    /// the part before it matches at least one character.
    static func verificationCut(_ terms: [Term]) -> Int? {
        let start = terms.first == .dotStar ? 1 : 0
        var i = start
        while i < terms.count {
            if terms[i] == .dotStar || (start == 1 && isBroadLoop(terms[i])) {
                if i > start && terms[start..<i].contains(where: { $0.matchesAtLeastOneCharacter }) { return i }
                return nil
            }
            i += 1
        }
        return nil
    }

    /// What goes into the combined DFA for a filter that is cut: of the pieces between its
    /// cuts (`a.*b.*c`: a, b, c), the one with the most literal characters, as a filter that
    /// starts anywhere (or, for the first piece of an anchored filter, anchored). Every match
    /// of the filter contains each piece, so the rule is a candidate whenever it can match;
    /// the most literal piece makes it a candidate least often (`://.*\.justthegays\.com/`
    /// is confirmed for the few URLs with `.justthegays.com/`, not for every URL with "://").
    static func confirmationTrigger(_ terms: [Term], firstCut: Int) -> ArraySlice<Term> {
        let start = terms.first == .dotStar ? 1 : 0
        func isCut(_ t: Term) -> Bool { t == .dotStar || (start == 1 && isBroadLoop(t)) }
        func score(_ piece: ArraySlice<Term>) -> Int {
            piece.reduce(0) { n, t in
                guard t.quantifier == .one || t.quantifier == .oneOrMore, case .characterSet(let lo, let hi) = t.kind else { return n }
                return lo.nonzeroBitCount + hi.nonzeroBitCount <= 2 ? n + 1 : n
            }
        }
        var best = terms[start..<firstCut]
        // The first piece of an anchored filter is mostly scheme and host, which many requests
        // share (www.google., cloudfront.net): a later piece is preferred unless much shorter.
        var bestScore = score(best) - (start == 0 ? 8 : 0)
        var i = firstCut + 1
        while i <= terms.count {
            var j = i
            while j < terms.count && !isCut(terms[j]) { j += 1 }
            let piece = terms[i..<j]
            let sc = score(piece)
            if sc > bestScore && piece.contains(where: { $0.matchesAtLeastOneCharacter })
                && isWalkedFromEachPosition(ArraySlice([Term.dotStar] + piece)) { best = piece; bestScore = sc }
            i = j + 1
        }
        if best.startIndex == start && start == 0 { return terms[..<firstCut] }
        return ArraySlice([Term.dotStar] + best)
    }

    /// A repetition over many characters (`[^/]*`, `[a-z0-9-]+`, or a group holding one):
    /// in a filter that may start anywhere, such a loop multiplies the states of a combined
    /// DFA, so the filter is cut before it and confirmed by its own DFA.
    static func isBroadLoop(_ term: Term) -> Bool {
        switch term.kind {
        case .characterSet(let lo, let hi):
            return (term.quantifier == .zeroOrMore || term.quantifier == .oneOrMore) && lo.nonzeroBitCount + hi.nonzeroBitCount >= 8
        case .group(let terms):
            return terms.contains(where: isBroadLoop)
                || ((term.quantifier == .zeroOrMore || term.quantifier == .oneOrMore) && terms.count > 0)
        case .endOfLine:
            return false
        }
    }

    // MARK: - Rule bits

    static let infoUniversal: UInt32 = 1
    static let infoCSS: UInt32 = 2
    static let infoConditionMatchesEverything: UInt32 = 4
    static let infoGlobalStyleSheet: UInt32 = 8
    static let infoNetwork: UInt32 = 16  // an action that matters to the networking process
    static let dfaFlagCSS: UInt32 = 1 << 31
    static let dfaFlagConditionEverything: UInt32 = 1 << 30

    // MARK: - Compile

    public static func compile(rules: [ContentRule]) -> Result<[UInt8], ContentExtensionError> {
        let table = serializeActions(rules)
        var info = [UInt32](repeating: 0, count: rules.count)
        var urlPatterns: [PatternEntry] = []
        var topPatterns: [PatternEntry] = []
        var framePatterns: [PatternEntry] = []
        var verifiers: [Int: [UInt32]] = [:]
        var parsedConditions: [String: URLFilterParser.Pattern?] = [:]
        var domainEntries: [[UInt8]: [UInt32]] = [:]
        // Host filters (HostIndex): literal -> rules, each rule's tail.
        var hostEntries: [[UInt8]: [UInt32]] = [:]
        var tailIDs: [[Term]: UInt32] = [:]
        var tailPatterns: [PatternEntry] = []
        var ruleTails = [UInt32](repeating: 0, count: rules.count)

        for (index, rule) in rules.enumerated() {
            let id = UInt32(index)
            if case .cssDisplayNone = rule.action { info[index] |= infoCSS } else { info[index] |= infoNetwork }
            let (status, pattern) = URLFilterParser.parse(rule.trigger.urlFilter, caseSensitive: rule.trigger.urlFilterIsCaseSensitive)
            switch status {
            case .ok:
                guard let pattern else { return .failure(.JSONInvalidRegex) }
                let terms = pattern.terms
                if !CompileLog.plain, !rule.trigger.urlFilterIsCaseSensitive, verificationCut(terms) == nil,
                   let (literal, tail) = HostIndex.split(terms) {
                    let key = Array(tail)
                    let separator = key == HostIndex.separatorTail
                    let tailID: UInt32
                    if let t = tailIDs[key] { tailID = t } else {
                        tailID = UInt32(tailIDs.count)
                        tailIDs[key] = tailID
                        // The separator tail is decided without a DFA.
                        if !separator {
                            tailPatterns.append(PatternEntry(terms: tail, id: tailID, unanchored: false, size: tail.reduce(0) { $0 + $1.size }))
                        }
                    }
                    hostEntries[literal, default: []].append(id)
                    ruleTails[index] = (tailID + 1) | (separator ? HostIndex.separatorTailBit : 0)
                } else if let cut = verificationCut(terms) {
                    let trigger = CompileLog.plain ? terms[..<cut] : confirmationTrigger(terms, firstCut: cut)
                    urlPatterns.append(PatternEntry(terms: trigger, id: id, unanchored: trigger.first == .dotStar,
                                                    size: trigger.reduce(0) { $0 + $1.size }))
                    var nfa = NFA(unanchored: terms.first == .dotStar)
                    nfa.addPattern(terms[...], id: id)
                    guard let dfa = NFAToDFA.convert(nfa, maximumStates: 1 << 20, maximumWork: singleFilterWork) else { return .failure(.JSONInvalidRegex) }
                    verifiers[index] = DFABytecode.encode(DFAMinimizer.minimize(dfa))
                } else {
                    urlPatterns.append(PatternEntry(terms: terms[...], id: id, unanchored: terms.first == .dotStar,
                                                    size: terms.reduce(0) { $0 + $1.size }))
                }
            case .matchesEverything:
                info[index] |= infoUniversal
            default:
                return .failure(.JSONInvalidRegex)
            }
            // Conditions: their own patterns, matched against the top or frame URL.
            if rule.trigger.condition != 0 && !rule.trigger.domains.isEmpty
                && rule.trigger.domains.allSatisfy(DomainConditionTable.isSimple) {
                for domain in rule.trigger.domains {
                    let star = domain.hasPrefix("*")
                    let key = DomainConditionTable.key(Array((star ? domain.dropFirst() : Substring(domain)).utf8), star: star,
                                                       caseSensitive: rule.trigger.topURLFilterIsCaseSensitive)
                    if domainEntries[key]?.last != id { domainEntries[key, default: []].append(id) }
                }
            } else if rule.trigger.condition != 0 {
                let caseSensitive = rule.trigger.conditionIsCaseSensitive
                for condition in rule.trigger.conditions {
                    let key = (caseSensitive ? "1" : "0") + condition
                    let parsed: URLFilterParser.Pattern?
                    if let cached = parsedConditions[key] { parsed = cached } else {
                        let (s, p) = URLFilterParser.parse(condition, caseSensitive: caseSensitive)
                        switch s {
                        case .ok: parsed = p
                        case .matchesEverything: parsed = nil
                        default: return .failure(.JSONInvalidRegex)
                        }
                        parsedConditions[key] = .some(parsed)
                    }
                    guard let p = parsed else { info[index] |= infoConditionMatchesEverything; continue }
                    let entry = PatternEntry(terms: p.terms[...], id: id, unanchored: p.terms.first == .dotStar,
                                             size: p.terms.reduce(0) { $0 + $1.size })
                    switch rule.trigger.condition {
                    case ResourceFlags.ifTopURL, ResourceFlags.unlessTopURL: topPatterns.append(entry)
                    default: framePatterns.append(entry)
                    }
                }
            }
        }

        // The global style sheet (ContentExtension::compileGlobalDisplayNoneStyleSheet):
        // css-display-none of rules that match every URL with no flags and no condition,
        // placed before the first ignore-previous-rules.
        let firstIgnorePrevious = table.kinds.firstIndex(of: RuleAction.ignorePreviousRules.kind).map(UInt32.init) ?? UInt32.max
        var sheetLocations: [UInt32] = []
        for (index, rule) in rules.enumerated() {
            guard info[index] & infoUniversal != 0, info[index] & infoCSS != 0, rule.trigger.flags == 0 else { continue }
            let location = table.locations[index]
            if location < firstIgnorePrevious {
                info[index] |= infoGlobalStyleSheet
                sheetLocations.append(location)
            }
        }
        var globalStyleSheet: String? = nil
        if !sheetLocations.isEmpty {
            var seen = Set<UInt32>()
            let selectors = sheetLocations.sorted().filter { seen.insert($0).inserted }.map { table.payloads[Int($0)] }
            globalStyleSheet = selectors.joined(separator: ",") + "{display:none !important;}"
        }

        // Anchored patterns that begin with the host prefix (`^[htpsw]+://([a-z0-9-]+\.)?`, not
        // taken by the host index): the rest after the prefix goes to DFAs walked from the two
        // places the prefix can end (HostIndex), instead of through the host in a product DFA.
        var hostPatterns: [PatternEntry] = []
        let hostPrefix = HostIndex.prefix
        if !CompileLog.plain && !hostPrefix.isEmpty {
            urlPatterns.removeAll { p in
                guard !p.unanchored, p.terms.count > hostPrefix.count,
                      p.terms.prefix(hostPrefix.count).elementsEqual(hostPrefix) else { return false }
                let rest = p.terms.dropFirst(hostPrefix.count)
                hostPatterns.append(PatternEntry(terms: rest, id: p.id, unanchored: false, size: rest.reduce(0) { $0 + $1.size }))
                return true
            }
        }

        // Next to each rule id, the url DFAs keep its flags, with two bits of our own: a
        // css-display-none rule, and a condition that holds for every URL.
        let urlFlags: (UInt32) -> UInt32 = { id in
            let i = Int(id)
            return rules[i].trigger.flags | (info[i] & infoCSS != 0 ? dfaFlagCSS : 0)
                | (info[i] & infoConditionMatchesEverything != 0 ? dfaFlagConditionEverything : 0)
        }
        guard let urlDFAs = buildDFAs(urlPatterns, startAnywhere: !CompileLog.plain, flagsOf: urlFlags), let topDFAs = buildDFAs(topPatterns, flagsOf: { _ in 0 }),
              let frameDFAs = buildDFAs(framePatterns, flagsOf: { _ in 0 }),
              let tailDFAs = buildDFAs(tailPatterns, flagsOf: { _ in 0 }),
              let hostDFAs = buildDFAs(hostPatterns, gated: true, flagsOf: urlFlags) else { return .failure(.JSONInvalidRegex) }

        // MARK: Serialization
        var w = WordWriter()
        w.words = [UInt32](repeating: 0, count: headerWords)
        // Strings.
        func addString(_ s: String) -> UInt32 {
            let offset = UInt32(w.words.count)
            let bytes = Array(s.utf8)
            w.words.append(UInt32(bytes.count))
            var word: UInt32 = 0
            for (i, b) in bytes.enumerated() {
                word |= UInt32(b) << (8 * UInt32(i % 4))
                if i % 4 == 3 { w.words.append(word); word = 0 }
            }
            if bytes.count % 4 != 0 { w.words.append(word) }
            return offset
        }
        var actionWords: [UInt32] = []
        for (kind, payload) in zip(table.kinds, table.payloads) {
            actionWords.append(UInt32(kind))
            actionWords.append(payload.isEmpty ? 0 : addString(payload))
        }
        let sheetOffset = globalStyleSheet.map(addString) ?? 0
        // DFAs.
        func addDFA(_ code: [UInt32]) -> UInt32 {
            let offset = UInt32(w.words.count)
            w.words.append(contentsOf: code)
            return offset
        }
        var ruleWords: [UInt32] = []
        ruleWords.reserveCapacity(rules.count * 4)
        for (index, rule) in rules.enumerated() {
            ruleWords.append(table.locations[index])
            ruleWords.append(rule.trigger.flags)
            ruleWords.append(verifiers[index].map(addDFA) ?? 0)
            ruleWords.append(info[index])
        }
        var directory: [UInt32] = []
        for list in [urlDFAs, topDFAs, frameDFAs] {
            directory.append(UInt32(list.count))
            for code in list { directory.append(addDFA(code)) }
        }
        let rulesOffset = UInt32(w.words.count)
        w.words.append(contentsOf: ruleWords)
        let actionsOffset = UInt32(w.words.count)
        w.words.append(contentsOf: actionWords)
        let domainTable = DomainConditionTable.build(domainEntries, into: &w.words)
        directory.append(domainTable)
        directory.append(UInt32(tailDFAs.count))
        for code in tailDFAs { directory.append(addDFA(code)) }
        directory.append(UInt32(hostDFAs.count))
        for code in hostDFAs { directory.append(addDFA(code)) }
        // Each literal's rules sorted by tail (the matcher looks each tail up once), then id,
        // as (tail, rule) pairs: the matcher reads the tails with the list, not from the rule
        // tails' table (a cache miss per rule of a literal such as google.com, which half of
        // the requests find).
        for key in Array(hostEntries.keys) {
            let sorted = hostEntries[key]!.sorted { (ruleTails[Int($0)], $0) < (ruleTails[Int($1)], $1) }
            hostEntries[key] = sorted.flatMap { [ruleTails[Int($0)], $0] }
        }
        let hostTable = DomainConditionTable.build(hostEntries, into: &w.words)
        if hostTable != 0 { DomainConditionTable.appendFilter(Array(hostEntries.keys), into: &w.words) }
        var ruleTailsOffset: UInt32 = 0
        if hostTable != 0 {
            ruleTailsOffset = UInt32(w.words.count)
            w.words.append(contentsOf: ruleTails)
        }
        let directoryOffset = UInt32(w.words.count)
        w.words.append(contentsOf: directory)

        w.words[0] = magic
        w.words[1] = formatVersion
        w.words[2] = UInt32(w.words.count)
        w.words[4] = UInt32(rules.count)
        w.words[5] = UInt32(table.kinds.count)
        w.words[6] = rulesOffset
        w.words[7] = actionsOffset
        w.words[8] = directoryOffset
        w.words[9] = sheetOffset
        w.words[10] = hostTable
        w.words[11] = ruleTailsOffset
        w.words[12] = UInt32(tailIDs.count)
        w.words[3] = w.words.withUnsafeBufferPointer { checksum($0) }
        var bytes = [UInt8](repeating: 0, count: w.words.count * 4)
        bytes.withUnsafeMutableBytes { raw in
            w.words.withUnsafeBytes { raw.copyMemory(from: $0) }
        }
        return .success(bytes)
    }

    static let headerWords = 16

    /// A 32-bit checksum of everything after the checksum word (FNV-1a over words).
    static func checksum(_ words: UnsafeBufferPointer<UInt32>) -> UInt32 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        var i = 4
        while i < words.count {
            h = (h ^ UInt64(words[i])) &* 0x0000_0100_0000_01B3
            i += 1
        }
        return UInt32(truncatingIfNeeded: h ^ (h >> 32))
    }
}

struct WordWriter { var words: [UInt32] = [] }

#if canImport(Glibc)
import Glibc
#endif

/// Compile-phase timings on standard error when SABLE_CONTENTBLOCK_VERBOSE is set.
enum CompileLog {
    static let enabled = getenv("SABLE_CONTENTBLOCK_VERBOSE") != nil
    /// SABLE_CONTENTBLOCK_PLAIN: no host index, no DFAs walked from each position (every
    /// filter in the combined DFAs, as WebKit does): a reference to compare decisions with.
    static let plain = getenv("SABLE_CONTENTBLOCK_PLAIN") != nil
    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
    }
    static func log(_ s: @autoclosure () -> String) {
        guard enabled else { return }
        var line = "[contentblock] " + s() + "\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }
}
