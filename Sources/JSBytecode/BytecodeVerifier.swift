/// Checks that a code block is well-formed against the opcode table: every instruction has
/// a known opcode and all its operands, jumps and handlers land on instruction starts, and
/// registers, constants, atoms and inline caches are in range. The interpreter and the
/// JIT decode without bounds checks; the compiler's output must pass this (the bytecode
/// tests run it over real programs).
public enum BytecodeVerifier {
    /// The problems found in `code` (and, with `recursive`, its nested functions); empty
    /// when the code is well-formed.
    public static func verify(_ code: CodeBlock, recursive: Bool = true) -> [String] {
        var problems: [String] = []
        let words = code.instructions
        var starts = Set<Int>()
        var jumps: [(at: Int, target: Int)] = []
        var pc = 0
        let where_ = code.name.isEmpty ? "<anonymous>" : code.name
        func problem(_ text: String) { problems.append("\(where_) @\(pc): \(text)") }
        while pc < words.count {
            starts.insert(pc)
            guard words[pc] >= 0 && words[pc] < 256, let op = Opcode(rawValue: UInt8(words[pc])) else {
                problem("bad opcode \(words[pc])")
                return problems
            }
            if pc + op.length > words.count {
                problem("\(op) runs past the end")
                return problems
            }
            for (i, kind) in op.operands.enumerated() {
                let v = Int(words[pc + 1 + i])
                let name = op.operandNames[i]
                switch kind {
                case .reg:
                    // -1: no register (a plain call's this, a class without heritage); the
                    // start of an argument range may be one past the last register when the
                    // range is empty.
                    let rangeStart = name == "args" || name == "first" || name == "excluded"
                    let limit = rangeStart ? code.registerCount + 1 : code.registerCount
                    if v < -1 || v >= limit { problem("\(op).\(name): register \(v) of \(code.registerCount)") }
                case .const:
                    // pushScope's layout uses 0xFFFE and up for "no names".
                    let sentinel = op == .pushScope && v >= 0xFFFE
                    if !sentinel && (v < 0 || v >= code.constants.count) { problem("\(op).\(name): constant \(v) of \(code.constants.count)") }
                case .atom:
                    if v < 0 || v >= code.atoms.count { problem("\(op).\(name): atom \(v) of \(code.atoms.count)") }
                case .ic:
                    if v < 0 || v >= code.inlineCacheCount { problem("\(op).\(name): cache \(v) of \(code.inlineCacheCount)") }
                case .jump:
                    jumps.append((pc, pc + v))
                case .imm:
                    break
                }
            }
            pc += op.length
        }
        for (at, target) in jumps where !starts.contains(target) {
            problems.append("\(where_) @\(at): jump to \(target), not an instruction start")
        }
        for h in code.handlers {
            for (what, v) in [("start", Int(h.start)), ("target", Int(h.target))] where !starts.contains(v) {
                problems.append("\(where_): handler \(what) \(v) is not an instruction start")
            }
            if Int(h.end) != words.count && !starts.contains(Int(h.end)) {
                problems.append("\(where_): handler end \(h.end) is not an instruction start")
            }
        }
        if recursive {
            for c in code.constants {
                if case .function(let inner) = c { problems += verify(inner) }
                if case .classTemplate(let t) = c { problems += verify(t.constructor) }
            }
        }
        return problems
    }
}
