/// The named character references of the HTML standard
/// (https://html.spec.whatwg.org/multipage/named-characters.html), looked up by name.
enum NamedCharacterReferences {
    /// The longest name, `CounterClockwiseContourIntegral;`.
    static let maxNameLength = 32

    /// Name (UTF-8, with the `;` when it has one) -> one or two code points (0 when one).
    static let map: [[UInt8]: (UInt32, UInt32)] = {
        var map: [[UInt8]: (UInt32, UInt32)] = [:]
        map.reserveCapacity(2231)
        for line in table.utf8.split(separator: UInt8(ascii: "\n")) {
            let parts = line.split(separator: UInt8(ascii: " "))
            let cps = parts[1].split(separator: UInt8(ascii: ",")).map { hex in
                hex.reduce(UInt32(0)) { $0 * 16 + UInt32(hexValue($1)) }
            }
            map[Array(parts[0])] = (cps[0], cps.count > 1 ? cps[1] : 0)
        }
        return map
    }()

    static func hexValue(_ c: UInt8) -> Int {
        switch c {
        case 0x30...0x39: return Int(c) - 0x30
        case 0x41...0x46: return Int(c) - 0x41 + 10
        case 0x61...0x66: return Int(c) - 0x61 + 10
        default: return -1
        }
    }
}
