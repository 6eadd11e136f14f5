/// A syntax check of a CSS selector list, standing in for WebKit's `isValidCSSSelector`
/// (which runs WebCore's CSS parser): WebKit skips a css-display-none rule whose selector does
/// not parse. This accepts the selector grammar (type, universal, #id, .class, [attr op
/// value i], :pseudo(…), ::pseudo, combinators > + ~ and descendant, comma lists) and refuses
/// what cannot be a selector (empty, unbalanced, a block `{`, a dangling combinator or comma).
enum CSSSelectorValidator {
    static func isValid(_ selector: String) -> Bool {
        let s = Array(selector.unicodeScalars)
        var i = 0
        func skipSpace() { while i < s.count, s[i] == " " || s[i] == "\t" || s[i] == "\n" || s[i] == "\r" || s[i] == "\u{0C}" { i += 1 } }
        func isNameStart(_ c: Unicode.Scalar) -> Bool {
            (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c == "_" || c == "-" || c.value >= 0x80 || c == "\\"
        }
        func isName(_ c: Unicode.Scalar) -> Bool { isNameStart(c) || (c >= "0" && c <= "9") }
        func ident() -> Bool {
            let start = i
            while i < s.count, isName(s[i]) {
                if s[i] == "\\" { i += 1; if i >= s.count { return false } }
                i += 1
            }
            guard i > start else { return false }
            // An identifier does not start with a digit, nor "-" then a digit.
            if s[start] >= "0" && s[start] <= "9" { return false }
            if s[start] == "-", start + 1 < i, s[start + 1] >= "0" && s[start + 1] <= "9" { return false }
            return true
        }
        func balanced(until close: Unicode.Scalar) -> Bool {
            var depth = 0
            var quote: Unicode.Scalar? = nil
            while i < s.count {
                let c = s[i]
                if let q = quote {
                    if c == "\\" { i += 2; continue }
                    if c == q { quote = nil }
                } else if c == "\"" || c == "'" { quote = c }
                else if c == "(" || c == "[" { depth += 1 }
                else if c == ")" || c == "]" {
                    if depth == 0 { return c == close }
                    depth -= 1
                } else if c == "{" || c == "}" || c == ";" { return false }
                i += 1
            }
            return false
        }
        func compound() -> Bool {
            var any = false
            if i < s.count, s[i] == "*" { i += 1; any = true }
            else if i < s.count, isNameStart(s[i]) { guard ident() else { return false }; any = true }
            while i < s.count {
                let c = s[i]
                if c == "#" || c == "." {
                    i += 1
                    if c == "#" {
                        let start = i
                        while i < s.count, isName(s[i]) { i += 1 }
                        guard i > start else { return false }
                    } else { guard ident() else { return false } }
                } else if c == "[" {
                    i += 1
                    skipSpace()
                    guard ident() else { return false }
                    guard balanced(until: "]") else { return false }
                    i += 1
                } else if c == ":" {
                    i += 1
                    if i < s.count, s[i] == ":" { i += 1 }
                    guard ident() else { return false }
                    if i < s.count, s[i] == "(" {
                        i += 1
                        let start = i
                        guard balanced(until: ")") else { return false }
                        if i == start { return false }
                        i += 1
                    }
                } else { break }
                any = true
            }
            return any
        }
        skipSpace()
        while true {
            guard compound() else { return false }
            let beforeSpace = i
            skipSpace()
            if i >= s.count { return true }
            let c = s[i]
            if c == "," { i += 1; skipSpace(); continue }
            if c == ">" || c == "+" || c == "~" { i += 1; skipSpace(); continue }
            if i > beforeSpace { continue }  // descendant combinator
            return false
        }
    }
}
