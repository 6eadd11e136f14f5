/// Validates a regular-expression literal (flags and pattern, with the spec's early
/// errors); returns an error message or nil.
func regExpLiteralValidator(_ pattern: String, _ flags: String) -> String? {
    do {
        let f = try RegExpParser.parseFlags(flags)
        _ = try RegExpParser.parse(pattern, flags: f)
        return nil
    } catch {
        return error.message
    }
}
