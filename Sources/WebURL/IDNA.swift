/// UTS #46 processing as the URL Standard uses it ("domain to ASCII",
/// https://url.spec.whatwg.org/#concept-domain-to-ascii): CheckHyphens=false, CheckBidi=true,
/// CheckJoiners=true, UseSTD3ASCIIRules=false, Transitional_Processing=false,
/// VerifyDnsLength=false, IgnoreInvalidPunycode=false.
public enum IDNA {
    /// UTS #46 ToASCII with the URL Standard's options; nil on any error.
    public static func toASCII(_ domain: String) -> String? {
        let scalars = Array(domain.unicodeScalars)
        // An ASCII domain is only lowercased: the URL Standard leaves ASCII labels, "xn--" ones
        // included, to the forbidden-code-point and IPv4 checks that follow.
        if scalars.allSatisfy(\.isASCII) {
            var lower = String.UnicodeScalarView()
            for s in scalars { lower.append(s.value >= 0x41 && s.value <= 0x5A ? Unicode.Scalar(s.value + 32)! : s) }
            return String(lower)
        }
        guard let labels = process(scalars) else { return nil }
        var out = ""
        for (i, label) in labels.enumerated() {
            if i > 0 { out += "." }
            if label.allSatisfy(\.isASCII) {
                out.unicodeScalars.append(contentsOf: label)
            } else {
                guard let p = Punycode.encode(label) else { return nil }
                out += "xn--" + p
            }
        }
        return out
    }

    /// UTS #46 ToUnicode with the URL Standard's options; nil on any error.
    public static func toUnicode(_ domain: String) -> String? {
        guard let labels = process(Array(domain.unicodeScalars)) else { return nil }
        var out = String.UnicodeScalarView()
        for (i, label) in labels.enumerated() {
            if i > 0 { out.append(".") }
            out.append(contentsOf: label)
        }
        return String(out)
    }

    /// UTS #46 §4 Processing: map, normalize, break into labels, convert and validate.
    static func process(_ input: [Unicode.Scalar]) -> [[Unicode.Scalar]]? {
        let table = IDNAMappingTable.shared
        let props = UnicodeProperties.shared
        // 1. Map.
        var mapped: [Unicode.Scalar] = []
        mapped.reserveCapacity(input.count)
        for c in input {
            let i = table.index(c.value)
            switch table.statuses[i] {
            case .valid, .deviation: mapped.append(c)
            case .mapped: mapped.append(contentsOf: table.mapping(at: i))
            case .ignored: break
            case .disallowed: return nil
            }
        }
        // 2. Normalize.
        let normalized = props.nfc(mapped)
        // 3. Break into labels.
        var labels = normalized.split(separator: ".", omittingEmptySubsequences: false).map(Array.init)
        // 4. Convert and validate.
        for (n, label) in labels.enumerated() {
            var label = label
            if label.count >= 4 && label[0] == "x" && label[1] == "n" && label[2] == "-" && label[3] == "-" {
                guard label.allSatisfy(\.isASCII), let decoded = Punycode.decode(Array(label[4...])),
                      !decoded.isEmpty, !decoded.allSatisfy(\.isASCII) else { return nil }
                guard props.nfc(decoded) == decoded else { return nil }
                label = decoded
                labels[n] = label
            }
            guard validate(label) else { return nil }
        }
        // CheckBidi: only when the domain is a Bidi domain name (a label holds R, AL or AN).
        if labels.contains(where: { $0.contains { c in let b = props.bidi(c.value); return b == "R" || b == "AL" || b == "AN" } }) {
            for label in labels where !label.isEmpty {
                guard checkBidi(label) else { return nil }
            }
        }
        return labels
    }

    /// UTS #46 §4.1 Validity Criteria (nontransitional, CheckHyphens=false, CheckJoiners).
    static func validate(_ label: [Unicode.Scalar]) -> Bool {
        guard let first = label.first else { return true }
        let table = IDNAMappingTable.shared
        let props = UnicodeProperties.shared
        // With CheckHyphens=false, a label must not begin with "xn--".
        if label.count >= 4 && label[0] == "x" && label[1] == "n" && label[2] == "-" && label[3] == "-" { return false }
        if props.isMark(first.value) { return false }
        for (i, c) in label.enumerated() {
            if c == "." { return false }
            switch table.status(c) {
            case .valid, .deviation: break
            default: return false
            }
            // CheckJoiners: RFC 5892 Appendix A.1 and A.2.
            if c.value == 0x200C || c.value == 0x200D {
                if i > 0 && props.ccc(label[i - 1].value) == 9 { continue }
                guard c.value == 0x200C else { return false }
                // ZWNJ: (L|D) T* ZWNJ T* (R|D)
                var j = i - 1
                while j >= 0 && props.joining(label[j].value) == UInt8(ascii: "T") { j -= 1 }
                guard j >= 0 else { return false }
                let before = props.joining(label[j].value)
                guard before == UInt8(ascii: "L") || before == UInt8(ascii: "D") else { return false }
                var k = i + 1
                while k < label.count && props.joining(label[k].value) == UInt8(ascii: "T") { k += 1 }
                guard k < label.count else { return false }
                let after = props.joining(label[k].value)
                guard after == UInt8(ascii: "R") || after == UInt8(ascii: "D") else { return false }
            }
        }
        return true
    }

    /// RFC 5893 §2, the Bidi rule.
    static func checkBidi(_ label: [Unicode.Scalar]) -> Bool {
        let props = UnicodeProperties.shared
        let classes = label.map { props.bidi($0.value) }
        guard let first = classes.first else { return true }
        // 1. The first character must be L, R or AL.
        var last = classes.count - 1
        while last > 0 && classes[last] == "NSM" { last -= 1 }
        let end = classes[last]
        if first == "R" || first == "AL" {
            // 2. Only R, AL, AN, EN, ES, CS, ET, ON, BN, NSM.
            let allowed: Set<String> = ["R", "AL", "AN", "EN", "ES", "CS", "ET", "ON", "BN", "NSM"]
            guard classes.allSatisfy(allowed.contains) else { return false }
            // 3. End with R, AL, EN or AN (then NSMs).
            guard ["R", "AL", "EN", "AN"].contains(end) else { return false }
            // 4. Not both EN and AN.
            if classes.contains("EN") && classes.contains("AN") { return false }
            return true
        }
        guard first == "L" else { return false }
        // 5. Only L, EN, ES, CS, ET, ON, BN, NSM.
        let allowed: Set<String> = ["L", "EN", "ES", "CS", "ET", "ON", "BN", "NSM"]
        guard classes.allSatisfy(allowed.contains) else { return false }
        // 6. End with L or EN (then NSMs).
        return end == "L" || end == "EN"
    }
}
