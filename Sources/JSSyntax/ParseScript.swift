/// Parses a script (ECMAScript `Script` goal).
///
/// Throws a `ParseError` of kind `.syntaxError` for any syntax or early error, and of
/// kind `.rangeError` when the nesting is too deep to parse without exhausting the stack.
public func parseScript(_ source: SourceFile, options: ParseOptions = ParseOptions()) throws(ParseError) -> Program {
    throw ParseError(message: "parser not yet implemented", offset: 0, line: 1, column: 1, fileName: source.name)
}
