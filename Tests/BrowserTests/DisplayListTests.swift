import Testing
import DisplayList

@Suite struct DisplayListTests {
    static let sample = DisplayList(width: 320, height: 200, background: Color(red: 1, green: 2, blue: 3), items: [
        .fill(Rect(x: 1, y: 2, width: 30, height: 40), .black),
        .border(Rect(x: 0, y: 0, width: 10, height: 10), widths: [1, 2, 3, 4], Color(red: 9, green: 8, blue: 7, alpha: 128)),
        .text(TextRun(x: 8, baseline: 20, text: "héllo wörld", font: Font(family: .monospace, size: 13, bold: true, italic: true),
                      color: .link)),
    ])

    @Test func roundTrip() throws {
        #expect(try DisplayList(decoding: Self.sample.encoded()) == Self.sample)
    }

    @Test func everyTruncationIsMalformed() {
        let bytes = Self.sample.encoded()
        for n in 0..<bytes.count {
            #expect(throws: DisplayList.DecodeError.self) { try DisplayList(decoding: Array(bytes[0..<n])) }
        }
        #expect(throws: DisplayList.DecodeError.self) { try DisplayList(decoding: bytes + [0]) }
    }

    @Test func badValuesAreMalformed() {
        var bytes = Self.sample.encoded()
        bytes[4] = 9  // version
        #expect(throws: DisplayList.DecodeError.self) { try DisplayList(decoding: bytes) }
        // A NaN width.
        bytes = Self.sample.encoded()
        let nan = Float.nan.bitPattern
        for i in 0..<4 { bytes[6 + i] = UInt8(truncatingIfNeeded: nan >> (8 * UInt32(i))) }
        #expect(throws: DisplayList.DecodeError.self) { try DisplayList(decoding: bytes) }
        // An absurd item count.
        var w = DisplayList(width: 1, height: 1).encoded()
        w.removeLast(4)
        w += [0xFF, 0xFF, 0xFF, 0x7F]
        #expect(throws: DisplayList.DecodeError.self) { try DisplayList(decoding: w) }
    }

    @Test func randomBytesNeverTrap() {
        var generator = SystemRandomNumberGenerator()
        let valid = Self.sample.encoded()
        for _ in 0..<2000 {
            var bytes = valid
            for _ in 0..<3 { bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            _ = try? DisplayList(decoding: bytes)
        }
    }
}
