/// Punycode (RFC 3492): the Bootstring encoding of Unicode labels as ASCII.
enum Punycode {
    private static let base: UInt32 = 36, tMin: UInt32 = 1, tMax: UInt32 = 26
    private static let skew: UInt32 = 38, damp: UInt32 = 700
    private static let initialBias: UInt32 = 72, initialN: UInt32 = 128

    private static func adapt(_ delta: UInt32, _ numPoints: UInt32, _ first: Bool) -> UInt32 {
        var delta = first ? delta / damp : delta / 2
        delta += delta / numPoints
        var k: UInt32 = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }

    private static func digit(_ d: UInt32) -> Unicode.Scalar {
        Unicode.Scalar(UInt8(d < 26 ? d + 97 : d - 26 + 48))
    }

    /// Encodes a label (without the "xn--" prefix); nil on overflow.
    static func encode(_ input: [Unicode.Scalar]) -> String? {
        var out = String.UnicodeScalarView()
        for c in input where c.isASCII { out.append(c) }
        let b = UInt32(out.count)
        var h = b
        if b > 0 { out.append("-") }
        var n = initialN, delta: UInt32 = 0, bias = initialBias
        let total = UInt32(input.count)
        while h < total {
            guard let m = input.lazy.map(\.value).filter({ $0 >= n }).min() else { return nil }
            let (md, o1) = (m - n).multipliedReportingOverflow(by: h + 1)
            guard !o1 else { return nil }
            let (nd, o2) = delta.addingReportingOverflow(md)
            guard !o2 else { return nil }
            delta = nd
            n = m
            for c in input {
                if c.value < n {
                    let (d, o) = delta.addingReportingOverflow(1)
                    guard !o else { return nil }
                    delta = d
                }
                if c.value == n {
                    var q = delta
                    var k = base
                    while true {
                        let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                        if q < t { break }
                        out.append(digit(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    out.append(digit(q))
                    bias = adapt(delta, h + 1, h == b)
                    delta = 0
                    h += 1
                }
            }
            let (d, o) = delta.addingReportingOverflow(1)
            guard !o else { return nil }
            delta = d
            n += 1
        }
        return String(out)
    }

    /// Decodes a label (without the "xn--" prefix); nil when it is not valid Punycode.
    static func decode(_ input: [Unicode.Scalar]) -> [Unicode.Scalar]? {
        var output: [UInt32] = []
        var rest = input[...]
        if let dash = input.lastIndex(of: "-") {
            for c in input[..<dash] {
                guard c.isASCII else { return nil }
                output.append(c.value)
            }
            rest = input[(dash + 1)...]
        }
        var n = initialN, i: UInt32 = 0, bias = initialBias
        var it = rest.makeIterator()
        var pending = it.next()
        while pending != nil {
            let oldI = i
            var w: UInt32 = 1
            var k = base
            while true {
                guard let c = pending else { return nil }
                pending = it.next()
                let v = c.value
                let d: UInt32
                switch v {
                case 0x30...0x39: d = v - 0x30 + 26
                case 0x41...0x5A: d = v - 0x41
                case 0x61...0x7A: d = v - 0x61
                default: return nil
                }
                let (dw, o1) = d.multipliedReportingOverflow(by: w)
                guard !o1 else { return nil }
                let (ni, o2) = i.addingReportingOverflow(dw)
                guard !o2 else { return nil }
                i = ni
                let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                if d < t { break }
                let (nw, o3) = w.multipliedReportingOverflow(by: base - t)
                guard !o3 else { return nil }
                w = nw
                k += base
            }
            let count = UInt32(output.count + 1)
            bias = adapt(i - oldI, count, oldI == 0)
            let (nn, o4) = n.addingReportingOverflow(i / count)
            guard !o4 else { return nil }
            n = nn
            i %= count
            guard n <= 0x10FFFF, !(0xD800...0xDFFF).contains(n), n >= 0x80 else { return nil }
            output.insert(n, at: Int(i))
            i += 1
        }
        return output.map { Unicode.Scalar($0)! }
    }
}
