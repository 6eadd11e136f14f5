import Foundation
import Testing

/// The generated deep-nesting stress suite (issue 15): Tests/Scripts/deep/nesting.js builds,
/// for every syntactic construct that nests and every recursive builtin, programs of depth
/// 10, 1,000, 10,000 and 100,000 and runs each in a try/catch. Each must run or throw a
/// RangeError/SyntaxError ("other 0"); the worker must never die by a signal. One jsrun
/// per depth and mode: the cases of a run share a worker.
@Suite(.serialized) struct DeepNestingStressTests {
    static let script = packageRoot + "/Tests/Scripts/deep/nesting.js"
    /// The product's binary: the release jsrun when it is built (as `tools/test.sh` does
    /// first), whose frames the depths are about; a debug build's frames are several
    /// times larger (its deepest cases end in RangeErrors sooner).
    static let executable: String = {
        let release = packageRoot + "/.build/release/jsrun"
        return access(release, X_OK) == 0 ? release : jsrunPath
    }()

    static func check(_ args: [String], _ label: String) {
        let (status, out) = SupervisorCommandTests().jsrun(args, executable: executable)
        let last = out.split(separator: "\n").last.map(String.init) ?? ""
        #expect(status == 0, "\(label): exit \(status) (128+N: killed by signal N): \(out.suffix(2000))")
        #expect(!out.contains("crashed"), "\(label): \(out.suffix(2000))")
        #expect(last.hasPrefix("ok ") && last.hasSuffix(", other 0"), "\(label): \(out.suffix(2000))")
    }

    @Test(arguments: ["10", "1000", "10000", "100000"]) func interpreter(_ depth: String) {
        Self.check([Self.script, "", depth], "interpreter, depth \(depth)")
    }

    @Test(arguments: ["10", "1000", "10000"]) func eagerJIT(_ depth: String) {
        Self.check(["--jit=eager", Self.script, "", depth], "--jit=eager, depth \(depth)")
    }

    @Test func allocationCasesUnderAHeapLimit() {
        Self.check(["--max-heap=64M", Self.script, "alloc", "10", "1000", "10000", "100000"], "--max-heap=64M")
    }

    /// A 10,000-term chain, 5,000 nested array literals and 2,000 nested functions are
    /// legitimate programs: they run (no RangeError).
    @Test func legitimatelyDeepProgramsRun() {
        let script = """
            var s = '1' + ' + 1'.repeat(9999); console.log(eval(s));
            var a = eval('['.repeat(5000) + ']'.repeat(5000)), d = 0; while (a.length) { a = a[0]; d++ } console.log(d);
            console.log(eval('(function () { return '.repeat(2000) + '7' + '})()'.repeat(2000)));
            console.log(eval('x => '.repeat(2000) + '0').length);
            """
        let (status, out) = SupervisorCommandTests().jsrun(["-e", script], executable: Self.executable)
        #expect(status == 0 && out == "10000\n4999\n7\n1\n", "\(out)")
    }

    /// Every kind of AST node is either exercised by a case of the stress script or named
    /// here as one that cannot nest by itself (a leaf, or one whose children are covered
    /// by other cases): a new node kind fails this test until a stress case covers it.
    static let coverage: [String: String] = [
        // ExprKind
        "identifier": "-", "this": "-", "null": "-", "boolean": "-", "number": "-", "bigint": "-",
        "string": "-", "regexp": "regexp-literal-groups", "newTarget": "-", "importMeta": "-",
        "template": "template", "taggedTemplate": "template-tagged-chain", "array": "array-literal",
        "object": "object-literal", "function": "function-expr", "arrow": "arrow", "class": "class-expr-extends",
        "unary": "unary-not", "update": "-", "binary": "binary-left +", "logical": "binary-left &&",
        "assign": "assign-right", "conditional": "conditional-right", "call": "call-nested",
        "superCall": "super-call", "new": "new", "member": "member-dot", "superMember": "super-member",
        "optionalChain": "member-optional", "sequence": "comma-parens", "yield": "yield", "await": "await",
        "privateIn": "private-in", "parenthesized": "parens", "dynamicImport": "dynamic-import",
        // StmtKind
        "expression": "parens", "variable": "destructure-array", "block": "block", "empty": "-",
        "if": "if", "for": "for", "forIn": "for-in", "forOf": "for-of", "while": "while", "doWhile": "do-while",
        "continue": "-", "break": "-", "return": "function-expr", "with": "with", "switch": "switch",
        "labeled": "labeled", "throw": "-", "try": "try-catch", "debugger": "-", "exportDefault": "-",
        // PatternKind (identifier, expression: above)
        "withDefault": "destructure-object",
    ]

    @Test func everyNodeKindHasAStressCase() throws {
        let ast = try String(contentsOfFile: packageRoot + "/Sources/JSSyntax/AST.swift", encoding: .utf8)
        let script = try String(contentsOfFile: Self.script, encoding: .utf8)
        var kinds: [String] = []
        for name in ["ExprKind", "StmtKind", "PatternKind"] {
            guard let start = ast.range(of: "enum \(name)") else { Issue.record("no enum \(name) in AST.swift"); continue }
            let body = ast[start.upperBound...].prefix { $0 != "}" }
            for line in body.split(separator: "\n") {
                let t = line.trimmingCharacters(in: .whitespaces)
                guard t.hasPrefix("case ") else { continue }
                let rest = t.dropFirst(5).filter { $0 != "`" }
                kinds.append(String(rest.prefix { $0.isLetter || $0.isNumber }))
            }
        }
        #expect(kinds.count > 50, "parsed \(kinds.count) node kinds")
        for kind in kinds {
            guard let stress = Self.coverage[kind] else {
                Issue.record("AST node kind \(kind) has no deep-nesting stress case: add one to Tests/Scripts/deep/nesting.js and map it here")
                continue
            }
            if stress != "-" {
                #expect(script.contains("['\(stress)'") || stress.hasPrefix("binary-left"), "stress case \(stress) (for \(kind)) is not in nesting.js")
            }
        }
    }
}
