/// Human-readable bytecode (`jsrun --dump-bytecode`).
public enum Disassembler {
    public static func disassemble(_ code: CodeBlock, recursive: Bool = true) -> String {
        var out = "function \(code.name.isEmpty ? "<anonymous>" : code.name): \(code.registerCount) registers, \(code.parameterCount) parameters"
        if code.functionEnvironmentSize > 0 { out += ", environment \(code.functionEnvironmentSize)" }
        out += code.isStrict ? ", strict\n" : "\n"
        let words = code.instructions
        var pc = 0
        while pc < words.count {
            guard let op = Opcode(rawValue: UInt8(truncatingIfNeeded: words[pc])) else {
                out += String(format4(pc)) + "  <bad opcode \(words[pc])>\n"
                break
            }
            var line = "\(format4(pc))  \(op.name)"
            for (i, kind) in op.operands.enumerated() {
                let v = Int(words[pc + 1 + i])
                line += i == 0 ? " " : ", "
                switch kind {
                case .reg: line += v < 0 ? "-" : "r\(v)"
                case .imm: line += "\(v)"
                case .const: line += "c\(v)" + constantSummary(code, v)
                case .atom: line += v < code.atoms.count ? "'\(String(decoding: code.atoms[v], as: UTF16.self))'" : "a\(v)"
                case .jump: line += "-> \(format4(pc + v))"
                case .ic: line += "ic\(v)"
                }
            }
            out += line + "\n"
            pc += op.length
        }
        for h in code.handlers {
            out += "  handler [\(format4(Int(h.start))), \(format4(Int(h.end)))) -> \(format4(Int(h.target)))\n"
        }
        if recursive {
            for c in code.constants {
                if case .function(let inner) = c { out += "\n" + disassemble(inner) }
                if case .classTemplate(let t) = c { out += "\n" + disassemble(t.constructor) }
            }
        }
        return out
    }

    static func format4(_ n: Int) -> String {
        let s = String(n)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }

    static func constantSummary(_ code: CodeBlock, _ i: Int) -> String {
        guard i >= 0 && i < code.constants.count else { return "" }
        switch code.constants[i] {
        case .number(let d): return " (\(d))"
        case .string(let s): return " (\"\(String(decoding: s.prefix(40), as: UTF16.self))\")"
        case .bigint(let s): return " (\(s)n)"
        case .function(let f): return " (function \(f.name))"
        case .regexp(let p, let f): return " (/\(p)/\(f))"
        case .templateObject: return " (template)"
        case .scopeNames(let n): return " (scope \(n.joined(separator: ",")))"
        case .classTemplate(let t): return " (class \(t.name ?? ""))"
        }
    }
}
