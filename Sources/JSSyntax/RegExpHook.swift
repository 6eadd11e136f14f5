/// Validates a regular-expression literal; returns an error message or nil.
func regExpLiteralValidator(_ pattern: String, _ flags: String) -> String? {
    var seen: Set<Character> = []
    for f in flags {
        guard "dgimsuvy".contains(f), !seen.contains(f) else { return "Invalid flags" }
        seen.insert(f)
    }
    if seen.contains("u") && seen.contains("v") { return "Invalid flags" }
    return nil
}
