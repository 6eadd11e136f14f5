// The outcome of one test, as the worker reports it and the results file records it.

/// A test's verdict. `crash` and `timeout` are decided by the supervisor.
enum Verdict: String, CaseIterable {
    case pass, fail, skip, crash, timeout

    /// Counted as a failure in pass rates (everything that ran and did not pass).
    var isFailure: Bool { self == .fail || self == .crash || self == .timeout }
}

/// Makes a reason fit on one line of the results file: no tabs or newlines, bounded length.
func oneLine(_ s: String, limit: Int = 240) -> String {
    var out = ""
    out.reserveCapacity(min(s.utf8.count, limit))
    var count = 0
    for ch in s.unicodeScalars {
        if count >= limit { out += "…"; break }
        switch ch {
        case "\t", "\n", "\r", "\u{2028}", "\u{2029}": out += " "
        default: out.unicodeScalars.append(ch)
        }
        count += 1
    }
    return out
}
