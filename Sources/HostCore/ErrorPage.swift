import DisplayList

/// The host's page for a tab that cannot show its content (a network error value, a
/// crashed content process). Laid out without measuring: short lines, a fixed advance.
enum ErrorPage {
    static let accent = Color(red: 176, green: 0, blue: 32)

    static func displayList(title: String, detail: String, width: Float, height: Float) -> DisplayList {
        var items: [DisplayItem] = [
            .fill(Rect(x: 0, y: 0, width: width, height: 8), accent),
            .text(TextRun(x: 40, baseline: 80, text: title, font: Font(family: .sansSerif, size: 24, bold: true), color: accent)),
        ]
        // About 0.6 em a character for DejaVu Sans at 16 px.
        let perLine = max(Int((width - 80) / 9.5), 10)
        var lines: [String] = []
        var line = ""
        for word in detail.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > perLine {
                lines.append(line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " " + word
        }
        if !line.isEmpty { lines.append(line) }
        for (i, text) in lines.prefix(20).enumerated() {
            items.append(.text(TextRun(x: 40, baseline: 124 + Float(i) * 22, text: text, font: Font(family: .sansSerif, size: 16),
                                       color: Color(red: 40, green: 40, blue: 40))))
        }
        return DisplayList(width: width, height: height, background: Color(red: 250, green: 248, blue: 246), items: items)
    }
}
