@testable import JSSyntax

func parseJS(_ source: String, strict: Bool = false) throws(ParseError) -> Program {
    try parseScript(SourceFile(name: "test.js", text: source), options: ParseOptions(strict: strict))
}

/// nil if the source parses, else the error.
func parseError(_ source: String, strict: Bool = false) -> ParseError? {
    do { _ = try parseJS(source, strict: strict); return nil } catch { return error }
}

func jsAccepts(_ source: String, strict: Bool = false) -> Bool { parseError(source, strict: strict) == nil }

/// The single expression of a one-statement program.
func expr(_ source: String) throws -> Expr {
    let p = try parseJS(source)
    guard p.body.count == 1, case .expression(let e) = p.body[0].kind else {
        throw ParseError(message: "not one expression statement", offset: 0, line: 1, column: 1, fileName: "")
    }
    return e
}
