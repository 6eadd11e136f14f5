import DOM
import DisplayList

/// A CSS declaration: a property (lower case) and its value text.
struct Declaration {
    var name: String
    var value: String
    var important: Bool
}

/// A style sheet of the `<style>` elements: rules of selectors and declarations. At-rules
/// are skipped, except `@media` blocks for `all` or `screen`, whose rules apply (the
/// viewport is a screen); rules with a selector this engine does not know are dropped, as
/// CSS says.
struct StyleSheet {
    struct Rule {
        var selectors: SelectorList
        var declarations: [Declaration]
        var order: Int
    }
    var rules: [Rule] = []

    static func parse(_ text: String, orderBase: Int = 0) -> StyleSheet {
        var sheet = StyleSheet()
        var p = CSSScanner(text: withoutComments(text))
        sheet.parseRules(&p, orderBase: orderBase)
        return sheet
    }

    mutating func parseRules(_ p: inout CSSScanner, orderBase: Int) {
        while true {
            p.skipSpace()
            guard let c = p.peek else { return }
            if c == "}" { p.advance(); return }
            if c == "@" {
                let prelude = p.until(["{", ";"]).lowercased()
                if p.peek == ";" { p.advance(); continue }
                p.advance()  // {
                let media = prelude.hasPrefix("@media")
                let query = prelude.dropFirst(6)
                if media && (query.contains("screen") || query.contains("all")) && !query.contains("not ") && !query.contains("print") {
                    parseRules(&p, orderBase: orderBase)
                } else {
                    p.skipBlock()
                }
                continue
            }
            let selectorText = p.until(["{"])
            guard p.peek == "{" else { return }
            p.advance()
            let body = p.until(["}"])
            p.advance()
            guard let selectors = try? SelectorList.parse(selectorText.trimmed()) else { continue }
            rules.append(Rule(selectors: selectors, declarations: StyleSheet.declarations(body), order: orderBase + rules.count))
        }
    }

    static func declarations(_ text: String) -> [Declaration] {
        var out: [Declaration] = []
        for part in text.split(separator: ";") {
            let pieces = part.split(separator: ":", maxSplits: 1)
            guard pieces.count == 2 else { continue }
            let name = pieces[0].trimmed().lowercased()
            var value = pieces[1].trimmed()
            var important = false
            if value.lowercased().hasSuffix("!important") {
                value = String(value.dropLast(10)).trimmed()
                important = true
            }
            guard !name.isEmpty, !value.isEmpty else { continue }
            out.append(Declaration(name: name, value: value, important: important))
        }
        return out
    }

    static func withoutComments(_ text: String) -> String {
        guard text.contains("/*") else { return text }
        let chars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < chars.count {
            if chars[i] == "/", i + 1 < chars.count, chars[i + 1] == "*" {
                i += 2
                while i < chars.count, !(chars[i] == "*" && i + 1 < chars.count && chars[i + 1] == "/") { i += 1 }
                i += 2
                continue
            }
            out.append(chars[i])
            i += 1
        }
        return String(out)
    }
}

struct CSSScanner {
    let chars: [Character]
    var i = 0
    init(text: String) { chars = Array(text) }
    var peek: Character? { i < chars.count ? chars[i] : nil }
    mutating func advance() { if i < chars.count { i += 1 } }
    mutating func skipSpace() { while let c = peek, c.isWhitespace { i += 1 } }

    /// The text up to (not including) one of `stops`, skipping strings.
    mutating func until(_ stops: Set<Character>) -> String {
        var out = ""
        while let c = peek, !stops.contains(c) {
            if c == "\"" || c == "'" {
                out.append(c); i += 1
                while let d = peek, d != c { out.append(d); i += 1 }
                if peek != nil { out.append(c); i += 1 }
                continue
            }
            out.append(c); i += 1
        }
        return out
    }

    mutating func skipBlock() {
        var depth = 1
        while let c = peek, depth > 0 {
            if c == "{" { depth += 1 } else if c == "}" { depth -= 1 }
            i += 1
        }
    }
}

/// The cascade of one document: its `<style>` sheets, then `style=""`, over the
/// user-agent rules `BoxBuilder.style` builds in. Declarations sort by importance,
/// specificity and order; `style=""` wins over the sheets (but not over `!important`).
public final class Cascade {
    var sheet = StyleSheet() {
        didSet { index() }
    }
    private var cache: [ObjectIdentifier: [Declaration]] = [:]
    /// The selectors of the rules, bucketed by what their rightmost compound requires.
    private var byID: [String: [(ComplexSelector, Int)]] = [:]
    private var byClass: [String: [(ComplexSelector, Int)]] = [:]
    private var byType: [String: [(ComplexSelector, Int)]] = [:]
    private var anyElement: [(ComplexSelector, Int)] = []

    init() {}

    private func index() {
        byID = [:]; byClass = [:]; byType = [:]; anyElement = []
        for (i, rule) in sheet.rules.enumerated() {
            for selector in rule.selectors.selectors {
                switch selector.key {
                case .id(let v): byID[v, default: []].append((selector, i))
                case .className(let v): byClass[v, default: []].append((selector, i))
                case .type(let v): byType[v, default: []].append((selector, i))
                case nil: anyElement.append((selector, i))
                }
            }
        }
    }

    /// The sheets of `document`'s `<style>` elements and, through `linked`, of its
    /// `<link rel=stylesheet>` elements (their fetched text), in document order.
    init(document: Document, linked: ((Element) -> String?)? = nil) {
        var texts: [String] = []
        document.forEachDescendant { node in
            guard let e = node as? Element, e.namespace == .html else { return }
            if e.localName == "style" {
                let type = e.attribute("type")?.lowercased() ?? ""
                let media = e.attribute("media")?.lowercased() ?? ""
                if (type.isEmpty || type == "text/css") && Cascade.forScreen(media) {
                    texts.append(e.textContent ?? "")
                }
            } else if e.localName == "link", Cascade.isStyleSheetLink(e), Cascade.forScreen(e.attribute("media")?.lowercased() ?? ""),
                      let text = linked?(e) {
                texts.append(text)
            }
        }
        for text in texts {
            let s = StyleSheet.parse(text, orderBase: sheet.rules.count)
            sheet.rules += s.rules
        }
        index()  // (didSet does not run in an initializer)
    }

    /// A `<link>` whose `rel` has the `stylesheet` keyword (and not `alternate`) and an `href`.
    public static func isStyleSheetLink(_ e: Element) -> Bool {
        guard e.attribute("href") != nil, let rel = e.attribute("rel")?.lowercased() else { return false }
        let words = rel.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" })
        return words.contains("stylesheet") && !words.contains("alternate")
    }

    static func forScreen(_ media: String) -> Bool {
        media.isEmpty || media.contains("screen") || media.contains("all")
    }

    /// The declarations that apply to `element`, lowest priority first.
    func declarations(for element: Element) -> [Declaration] {
        if sheet.rules.isEmpty {
            guard let style = element.attribute("style") else { return [] }
            let all = StyleSheet.declarations(style)
            return all.filter { !$0.important } + all.filter(\.important)
        }
        if let d = cache[ObjectIdentifier(element)] { return d }
        let d = computeDeclarations(for: element)
        cache[ObjectIdentifier(element)] = d
        return d
    }

    func computeDeclarations(for element: Element) -> [Declaration] {
        var candidates = anyElement
        if let id = element.attribute("id"), let list = byID[id] { candidates += list }
        if let classes = element.attribute("class") {
            for c in Set(classes.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" })) {
                if let list = byClass[String(c)] { candidates += list }
            }
        }
        if let list = byType[element.localName] ?? byType[element.localName.lowercased()] { candidates += list }
        var best: [Int: Int] = [:]  // rule index -> the highest specificity of its selectors that match
        for (selector, rule) in candidates where selector.matches(element) {
            best[rule] = max(best[rule] ?? 0, selector.specificity)
        }
        // (specificity, rule order, position in the rule, declaration)
        var matched: [(Int, Int, Int, Declaration)] = []
        for (rule, specificity) in best {
            let r = sheet.rules[rule]
            for (i, d) in r.declarations.enumerated() { matched.append((specificity, r.order, i, d)) }
        }
        let inline = StyleSheet.declarations(element.attribute("style") ?? "")
        for (i, d) in inline.enumerated() { matched.append((Int.max, 0, i, d)) }
        matched.sort { a, b in
            if a.3.important != b.3.important { return !a.3.important }
            if a.0 != b.0 { return a.0 < b.0 }
            if a.1 != b.1 { return a.1 < b.1 }
            return a.2 < b.2
        }
        return matched.map(\.3)
    }
}

/// CSS values: lengths, font sizes and families, and applying declarations to a `BoxStyle`.
enum CSSValue {
    /// A length in pixels: `px`, `em`, `rem`, `pt`, `%` (of `percentBase`), unitless 0.
    static func length(_ raw: String, em: Float, percentBase: Float? = nil) -> Float? {
        let v = raw.trimmed().lowercased()
        func number(_ s: Substring) -> Float? { Float(s) }
        if v == "0" { return 0 }
        if v.hasSuffix("px"), let n = number(v.dropLast(2)) { return n }
        if v.hasSuffix("rem"), let n = number(v.dropLast(3)) { return n * 16 }
        if v.hasSuffix("em"), let n = number(v.dropLast(2)) { return n * em }
        if v.hasSuffix("pt"), let n = number(v.dropLast(2)) { return n * 4 / 3 }
        if v.hasSuffix("%"), let n = number(v.dropLast(1)), let base = percentBase { return n * base / 100 }
        return nil
    }

    /// The space-separated components of a value, a parenthesized group (`rgb(0, 0, 255)`) as one.
    static func components(_ raw: String) -> [String] {
        var out: [String] = []
        var current = ""
        var depth = 0
        for c in raw {
            if c == "(" { depth += 1 } else if c == ")" { depth = max(depth - 1, 0) }
            if depth == 0 && (c == " " || c == "\t" || c == "\n" || c == "\r") {
                if !current.isEmpty { out.append(current); current = "" }
            } else {
                current.append(c)
            }
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    /// The four sides of a `margin`/`padding`/`border-width` shorthand (top, right, bottom, left).
    static func sides(_ raw: String) -> [String]? {
        let parts = components(raw)
        switch parts.count {
        case 1: return [parts[0], parts[0], parts[0], parts[0]]
        case 2: return [parts[0], parts[1], parts[0], parts[1]]
        case 3: return [parts[0], parts[1], parts[2], parts[1]]
        case 4: return parts
        default: return nil
        }
    }

    static func fontSize(_ raw: String, parent: Float) -> Float? {
        switch raw.trimmed().lowercased() {
        case "xx-small": return 9
        case "x-small": return 10
        case "small": return 13
        case "medium": return 16
        case "large": return 18
        case "x-large": return 24
        case "xx-large": return 32
        case "smaller": return parent / 1.2
        case "larger": return parent * 1.2
        default:
            guard let px = length(raw, em: parent, percentBase: parent), px >= 0 else { return nil }
            return min(px, 512)
        }
    }

    static func family(_ raw: String) -> Font.Family? {
        for name in raw.lowercased().split(separator: ",") {
            let n = name.trimmed().trimmingCharacters(in: "\"'")
            if n == "monospace" || n.contains("mono") || n.contains("courier") || n == "consolas" { return .monospace }
            if n == "sans-serif" || n.contains("sans") || ["arial", "helvetica", "verdana", "system-ui", "tahoma", "-apple-system"].contains(n) {
                return .sansSerif
            }
            if n == "serif" || n.contains("times") || n.contains("georgia") || n.contains("serif") { return .serif }
        }
        return nil
    }
}

extension String {
    func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}

extension BoxStyle {
    /// Applies cascaded declarations (lowest priority first) over the user-agent style.
    mutating func apply(_ declarations: [Declaration], parent: BoxStyle, viewportWidth: Float) {
        guard !declarations.isEmpty else { return }
        // The font size first: em lengths of the other properties use it.
        for d in declarations {
            switch d.name {
            case "font-size":
                if let size = CSSValue.fontSize(d.value, parent: parent.font.size) { font.size = size }
            case "font":
                // `font: [style] [weight] size[/line-height] family`: size and family.
                let parts = d.value.split(separator: " ").map(String.init)
                for (i, part) in parts.enumerated() {
                    let size = part.split(separator: "/").first.map(String.init) ?? part
                    if let px = CSSValue.fontSize(size, parent: parent.font.size), i < parts.count - 1 || parts.count == 1 {
                        font.size = px
                        if let f = CSSValue.family(parts[(i + 1)...].joined(separator: " ")) { font.family = f }
                        break
                    }
                    if part == "bold" || part == "bolder" { font.bold = true }
                    if part == "italic" || part == "oblique" { font.italic = true }
                }
            default: break
            }
        }
        let em = font.size
        func len(_ v: String) -> Float? {
            if v.trimmed().lowercased() == "auto" { return nil }
            return CSSValue.length(v, em: em, percentBase: viewportWidth)
        }
        for d in declarations {
            let v = d.value
            let lower = v.lowercased()
            switch d.name {
            case "color":
                if let c = CSSColor.parse(v) { color = c } else if lower == "inherit" { color = parent.color }
            case "background-color":
                if lower == "transparent" { background = nil } else if let c = CSSColor.parse(v) { background = c }
            case "background":
                if lower == "none" || lower == "transparent" { background = nil }
                for part in CSSValue.components(v) { if let c = CSSColor.parse(part) { background = c } }
                if let c = CSSColor.parse(v) { background = c }
            case "display":
                display = lower
            case "margin":
                guard let s = CSSValue.sides(v) else { continue }
                if let x = len(s[0]) { marginTop = x }
                if let x = len(s[2]) { marginBottom = x }
                autoLeft = s[3].lowercased() == "auto"; autoRight = s[1].lowercased() == "auto"
                if let x = len(s[1]) { marginRight = x } else { marginRight = 0 }
                if let x = len(s[3]) { marginLeft = x } else { marginLeft = 0 }
            case "margin-top": if let x = len(v) { marginTop = x }
            case "margin-bottom": if let x = len(v) { marginBottom = x }
            case "margin-left": autoLeft = lower == "auto"; marginLeft = len(v) ?? 0
            case "margin-right": autoRight = lower == "auto"; marginRight = len(v) ?? 0
            case "padding":
                guard let s = CSSValue.sides(v) else { continue }
                paddingTop = max(len(s[0]) ?? paddingTop, 0); paddingRight = max(len(s[1]) ?? paddingRight, 0)
                paddingBottom = max(len(s[2]) ?? paddingBottom, 0); paddingLeft = max(len(s[3]) ?? paddingLeft, 0)
            case "padding-top": if let x = len(v) { paddingTop = max(x, 0) }
            case "padding-right": if let x = len(v) { paddingRight = max(x, 0) }
            case "padding-bottom": if let x = len(v) { paddingBottom = max(x, 0) }
            case "padding-left": if let x = len(v) { paddingLeft = max(x, 0) }
            case "border", "border-top", "border-right", "border-bottom", "border-left":
                var width: Float = 3, color = self.color, none = false
                for part in CSSValue.components(v) {
                    let p = part.lowercased()
                    if p == "none" || p == "hidden" { none = true }
                    else if p == "thin" { width = 1 } else if p == "medium" { width = 3 } else if p == "thick" { width = 5 }
                    else if let w = CSSValue.length(p, em: em) { width = w }
                    else if let c = CSSColor.parse(p) { color = c }
                }
                let w = none ? 0 : max(width, 0)
                switch d.name {
                case "border-top": borderWidths[0] = w
                case "border-right": borderWidths[1] = w
                case "border-bottom": borderWidths[2] = w
                case "border-left": borderWidths[3] = w
                default: borderWidths = [w, w, w, w]
                }
                borderColor = color
            case "border-width":
                guard let s = CSSValue.sides(v) else { continue }
                for i in 0..<4 { if let x = CSSValue.length(s[i], em: em) { borderWidths[i] = max(x, 0) } }
            case "border-color":
                if let c = CSSColor.parse(v) { borderColor = c }
            case "border-style":
                if lower == "none" || lower == "hidden" { borderWidths = [0, 0, 0, 0] }
            case "width":
                if lower.hasSuffix("%"), let n = Float(lower.dropLast()) { widthPercent = n; width = nil }
                else { width = len(v).map { max($0, 0) }; widthPercent = nil }
            case "font-weight":
                if lower == "bold" || lower == "bolder" { font.bold = true }
                else if lower == "normal" || lower == "lighter" { font.bold = false }
                else if let n = Int(lower) { font.bold = n >= 600 }
            case "font-style":
                font.italic = lower == "italic" || lower == "oblique"
            case "font-family":
                if let f = CSSValue.family(v) { font.family = f }
            case "text-align":
                centered = lower == "center"
                alignRight = lower == "right" || lower == "end"
            case "text-decoration", "text-decoration-line":
                if lower.contains("underline") { underline = true } else if lower == "none" { underline = false }
            default:
                break
            }
        }
    }
}
