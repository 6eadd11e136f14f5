import Testing
import DisplayList
import RenderingCore

@Suite struct RasterizerTests {
    @Test func fillsAndTextLandInTheLayer() throws {
        let layer = try SharedLayer(width: 200, height: 100)
        let list = DisplayList(width: 200, height: 100, background: .white, items: [
            .fill(Rect(x: 10, y: 10, width: 50, height: 20), Color(red: 255, green: 0, blue: 0)),
            .text(TextRun(x: 100, baseline: 60, text: "Hello", font: Font(family: .sansSerif, size: 24, bold: true), color: .black)),
            .border(Rect(x: 0, y: 80, width: 200, height: 20), widths: [2, 2, 2, 2], Color(red: 0, green: 0, blue: 255)),
        ])
        Rasterizer.shared.draw(list, into: layer)
        #expect(layer.pixel(x: 30, y: 20) == (255, 0, 0, 255))
        #expect(layer.pixel(x: 5, y: 5) == (255, 255, 255, 255))
        #expect(layer.pixel(x: 100, y: 99) == (0, 0, 255, 255))
        var dark = 0
        for y in 35..<65 { for x in 100..<180 where layer.pixel(x: x, y: y).red < 100 { dark += 1 } }
        #expect(dark > 50)
    }

    @Test func measuresWiderTextWider() {
        let font = Font(family: .serif, size: 16)
        let sizes = Rasterizer.shared.measure([(font, "i"), (font, "WWWW"), (Font(family: .serif, size: 32), "WWWW")])
        #expect(sizes[0].width > 0 && sizes[0].width < sizes[1].width && sizes[1].width < sizes[2].width)
        #expect(sizes[0].ascent > 10 && sizes[0].descent > 0)
    }
}
