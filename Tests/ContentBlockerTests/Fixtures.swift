import ContentBlocker

/// Fixture files next to this source file (no Foundation, no bundle resources).
enum Fixtures {
    static let directory: String = {
        let file = #filePath
        guard let slash = file.lastIndex(of: "/") else { return "Fixtures" }
        return String(file[..<slash]) + "/Fixtures"
    }()

    static func lines(_ name: String) -> [String] {
        guard case .success(let bytes) = ContentRuleListStore.readFile(directory + "/" + name) else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// The shared content-blocker data (../shared/contentblock), when present.
    static let sharedData: String? = {
        let candidates = [directory + "/../../../../shared/contentblock", "/work/shared/contentblock"]
        for c in candidates {
            if case .success = ContentRuleListStore.readFile(c + "/README.md") { return c }
        }
        return nil
    }()
}

/// One eval case of a fixture file: its name (for the test's label) and the line.
struct EvalCase: CustomTestStringConvertible, Sendable {
    let name: String
    let line: String
    var testDescription: String { name }

    static func load(_ file: String) -> [EvalCase] {
        Fixtures.lines(file).map { line in
            EvalCase(name: JSONValue.parse(line)?["name"]?.stringValue ?? line, line: line)
        }
    }
}

import Testing
