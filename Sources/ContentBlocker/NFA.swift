/// A nondeterministic automaton over URL bytes, built from url-filter terms the way WebKit's
/// `Term::generateGraph` builds its NFAs (`Term.h`, `NFA.cpp`), for `NFAToDFA`.
/// NUL (byte 0) stands for the end of the URL: the `$` assertion is a transition on it.
struct NFA {
    struct Edge { var lo: UInt64; var hi: UInt64; var target: Int32 }
    var edges: [[Edge]] = []
    var epsilons: [[Int32]] = []
    var finals: [[UInt32]] = []
    /// The prefix tree of terms (WebKit's `CombinedURLFilters`): patterns that begin with the
    /// same terms share the NFA nodes of those terms.
    var trie: [[Term: Int32]] = []

    /// The root (node 0). When `unanchored`, the root loops on every character: every
    /// pattern may start anywhere (their leading ".*" is shared, which makes the DFA of many
    /// literals an Aho–Corasick automaton rather than a product).
    init(unanchored: Bool) {
        _ = newNode()
        if unanchored { edges[0].append(Edge(lo: Term.universalLo, hi: Term.universalHi, target: 0)) }
    }

    var nodeCount: Int { edges.count }

    mutating func newNode() -> Int32 {
        edges.append([]); epsilons.append([]); finals.append([]); trie.append([:])
        return Int32(edges.count - 1)
    }

    mutating func addPattern(_ terms: ArraySlice<Term>, id: UInt32) {
        var node: Int32 = 0
        var slice = terms
        // A leading ".*" is the root's own loop when the NFA is unanchored.
        if let first = slice.first, first == .dotStar, !edges[0].isEmpty { slice = slice.dropFirst() }
        for term in slice {
            if let next = trie[Int(node)][term] { node = next; continue }
            let end = generate(term, from: node)
            trie[Int(node)][term] = end
            node = end
        }
        finals[Int(node)].append(id)
    }

    mutating func generate(_ term: Term, from source: Int32) -> Int32 {
        switch term.kind {
        case .characterSet(let lo, let hi):
            let t = newNode()
            switch term.quantifier {
            case .one:
                edges[Int(source)].append(Edge(lo: lo, hi: hi, target: t))
            case .zeroOrOne:
                edges[Int(source)].append(Edge(lo: lo, hi: hi, target: t))
                epsilons[Int(source)].append(t)
            case .zeroOrMore:
                epsilons[Int(source)].append(t)
                edges[Int(t)].append(Edge(lo: lo, hi: hi, target: t))
            case .oneOrMore:
                edges[Int(source)].append(Edge(lo: lo, hi: hi, target: t))
                edges[Int(t)].append(Edge(lo: lo, hi: hi, target: t))
            }
            return t
        case .endOfLine:
            let t = newNode()
            edges[Int(source)].append(Edge(lo: 1, hi: 0, target: t))
            return t
        case .group(let terms):
            let start = newNode()
            epsilons[Int(source)].append(start)
            var end = start
            for inner in terms { end = generate(inner, from: end) }
            let exit = newNode()
            epsilons[Int(end)].append(exit)
            switch term.quantifier {
            case .one: break
            case .zeroOrOne: epsilons[Int(start)].append(exit)
            case .zeroOrMore: epsilons[Int(start)].append(exit); epsilons[Int(exit)].append(start)
            case .oneOrMore: epsilons[Int(exit)].append(start)
            }
            return exit
        }
    }
}

/// A deterministic automaton: `transitions[state * classCount + class]`, -1 for none.
struct DFA {
    var classOf: [UInt8]  // 128 entries: byte -> class
    var classCount: Int
    var transitions: [Int32]
    var actions: [[UInt32]]
    var stateCount: Int { actions.count }
}

/// Subset construction (WebKit's `NFAToDFA::convert`), with a bound on the states: nil when
/// the DFA would grow past `maximumStates` (the caller splits the group of patterns).
enum NFAToDFA {
    static func convert(_ nfa: NFA, maximumStates: Int, maximumWork: Int = 40_000_000) -> DFA? {
        // Byte classes: bytes that every edge treats alike.
        var classOf = [Int32](repeating: 0, count: 128)
        var seen = Set<[UInt64]>()
        var classCount: Int32 = 1
        for list in nfa.edges {
            for e in list where seen.insert([e.lo, e.hi]).inserted {
                var remap: [Int64: Int32] = [:]
                var next: Int32 = 0
                for b in 0..<128 {
                    let member = b < 64 ? (e.lo >> UInt64(b)) & 1 : (e.hi >> UInt64(b - 64)) & 1
                    let key = Int64(classOf[b]) << 1 | Int64(member)
                    if let c = remap[key] { classOf[b] = c } else { remap[key] = next; classOf[b] = next; next += 1 }
                }
                classCount = next
            }
        }
        let c = Int(classCount)
        // The classes of each edge.
        var representative = [Int](repeating: 0, count: c)
        for b in stride(from: 127, through: 0, by: -1) { representative[Int(classOf[b])] = b }
        var edgeClasses: [[[Int32]]] = nfa.edges.map { list in
            list.map { e in
                (0..<c).compactMap { k -> Int32? in
                    let b = representative[k]
                    let member = b < 64 ? (e.lo >> UInt64(b)) & 1 : (e.hi >> UInt64(b - 64)) & 1
                    return member != 0 ? Int32(k) : nil
                }
            }
        }
        defer { edgeClasses.removeAll() }

        var stamp = [Int32](repeating: -1, count: nfa.nodeCount)
        var stampValue: Int32 = 0
        var stack: [Int32] = []
        func closure(_ seeds: [Int32]) -> [Int32] {
            stampValue += 1
            var out: [Int32] = []
            stack.removeAll(keepingCapacity: true)
            for s in seeds where stamp[Int(s)] != stampValue { stamp[Int(s)] = stampValue; stack.append(s) }
            while let n = stack.popLast() {
                out.append(n)
                for t in nfa.epsilons[Int(n)] where stamp[Int(t)] != stampValue {
                    stamp[Int(t)] = stampValue
                    stack.append(t)
                }
            }
            out.sort()
            work += out.count
            return out
        }
        var work = 0

        var ids: [NodeSet: Int32] = [:]
        var sets: [[Int32]] = []
        var transitions: [Int32] = []
        var actions: [[UInt32]] = []
        let start = closure([0])
        ids[NodeSet(start)] = 0
        sets.append(start)
        var buckets = [[Int32]](repeating: [], count: c)
        var memo: [(hash: UInt64, klass: Int32, id: Int32)] = []
        var index = 0
        while index < sets.count {
            let set = sets[index]
            var acts: [UInt32] = []
            for n in set {
                acts.append(contentsOf: nfa.finals[Int(n)])
                let list = nfa.edges[Int(n)]
                for (i, e) in list.enumerated() {
                    for k in edgeClasses[Int(n)][i] { buckets[Int(k)].append(e.target) }
                }
            }
            if acts.count > 1 { acts = Array(Set(acts)).sorted() }
            actions.append(acts)
            // Classes whose buckets are equal go to the same state: computed once.
            memo.removeAll(keepingCapacity: true)
            for k in 0..<c {
                if buckets[k].isEmpty { transitions.append(-1); continue }
                var h: UInt64 = 0xcbf2_9ce4_8422_2325
                for t in buckets[k] { h = (h ^ UInt64(UInt32(bitPattern: t))) &* 0x0000_0100_0000_01B3 }
                if let m = memo.first(where: { $0.hash == h && buckets[Int($0.klass)] == buckets[k] }) {
                    transitions.append(m.id)
                    continue
                }
                let target = closure(buckets[k])
                // Subset construction can be quadratic (a long periodic filter such as
                // "aaaa…" keeps every suffix alive): bounded, it gives up instead.
                if work > maximumWork { return nil }
                let key = NodeSet(target)
                let id: Int32
                if let existing = ids[key] { id = existing } else {
                    if sets.count >= maximumStates { return nil }
                    id = Int32(sets.count)
                    ids[key] = id
                    sets.append(target)
                }
                memo.append((h, Int32(k), id))
                transitions.append(id)
            }
            for k in 0..<c { buckets[k].removeAll(keepingCapacity: true) }
            sets[index] = []  // no longer needed
            index += 1
        }
        return DFA(classOf: classOf.map { UInt8($0) }, classCount: c, transitions: transitions, actions: actions)
    }
}

/// A set of NFA nodes as a dictionary key, hashed once.
struct NodeSet: Hashable {
    let nodes: [Int32]
    let hash: Int
    init(_ nodes: [Int32]) {
        self.nodes = nodes
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for n in nodes { h = (h ^ UInt64(UInt32(bitPattern: n))) &* 0x0000_0100_0000_01B3 }
        hash = Int(truncatingIfNeeded: h)
    }
    func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    static func == (a: NodeSet, b: NodeSet) -> Bool { a.hash == b.hash && a.nodes == b.nodes }
}

/// DFA minimization by partition refinement (Moore's algorithm; WebKit's `DFAMinimizer`
/// uses Hopcroft's): states with the same actions that go to equivalent states on every
/// byte class become one. Signatures are hashed into an open-addressed table and compared
/// exactly on a hit, so no two distinguishable states are ever merged.
enum DFAMinimizer {
    static func minimize(_ dfa: DFA) -> DFA {
        let n = dfa.stateCount
        let c = dfa.classCount
        guard n > 1 else { return dfa }
        var block = [Int32](repeating: 0, count: n)
        var byActions: [[UInt32]: Int32] = [:]
        for s in 0..<n {
            if let b = byActions[dfa.actions[s]] { block[s] = b } else {
                let b = Int32(byActions.count); byActions[dfa.actions[s]] = b; block[s] = b
            }
        }
        var blockCount = byActions.count
        var capacity = 1
        while capacity < 2 * n { capacity <<= 1 }
        let mask = capacity - 1
        var table = [Int32](repeating: -1, count: capacity)      // a representative state
        var tableBlock = [Int32](repeating: 0, count: capacity)  // its new block
        var next = [Int32](repeating: 0, count: n)
        dfa.transitions.withUnsafeBufferPointer { t in
            while true {
                for i in 0..<capacity { table[i] = -1 }
                var count: Int32 = 0
                for s in 0..<n {
                    var h: UInt64 = UInt64(UInt32(bitPattern: block[s])) &* 0x9E37_79B9_7F4A_7C15
                    let base = s * c
                    for k in 0..<c {
                        let x = t[base + k]
                        let v: UInt64 = x < 0 ? 0xFFFF_FFFF : UInt64(UInt32(bitPattern: block[Int(x)]))
                        h = (h ^ v) &* 0x0000_0100_0000_01B3
                    }
                    var slot = Int(truncatingIfNeeded: h ^ (h >> 29)) & mask
                    while true {
                        let r = Int(table[slot])
                        if r < 0 {
                            table[slot] = Int32(s); tableBlock[slot] = count; next[s] = count; count += 1
                            break
                        }
                        // Exact comparison with the representative.
                        var same = block[r] == block[s]
                        if same {
                            let rb = r * c
                            for k in 0..<c {
                                let x = t[base + k], y = t[rb + k]
                                if (x < 0) != (y < 0) || (x >= 0 && block[Int(x)] != block[Int(y)]) { same = false; break }
                            }
                        }
                        if same { next[s] = tableBlock[slot]; break }
                        slot = (slot + 1) & mask
                    }
                }
                swap(&block, &next)
                if Int(count) == blockCount { break }
                blockCount = Int(count)
            }
        }
        // Renumber so that the root's block is 0.
        var order = [Int32](repeating: -1, count: blockCount)
        order[Int(block[0])] = 0
        var count: Int32 = 1
        for s in 0..<n where order[Int(block[s])] < 0 { order[Int(block[s])] = count; count += 1 }
        var transitions = [Int32](repeating: -1, count: blockCount * c)
        var actions = [[UInt32]](repeating: [], count: blockCount)
        var done = [Bool](repeating: false, count: blockCount)
        for s in 0..<n {
            let b = Int(order[Int(block[s])])
            if done[b] { continue }
            done[b] = true
            actions[b] = dfa.actions[s]
            for k in 0..<c {
                let t = dfa.transitions[s * c + k]
                transitions[b * c + k] = t < 0 ? -1 : order[Int(block[Int(t)])]
            }
        }
        return DFA(classOf: dfa.classOf, classCount: c, transitions: transitions, actions: actions)
    }
}
