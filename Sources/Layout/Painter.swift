import DOM
import DisplayList

/// Places block boxes top to bottom and breaks their inline content into lines, emitting
/// display items as it goes. Vertical margins of adjacent blocks collapse (the larger wins).
struct Painter {
    let sizes: [MeasureKey: TextSize]
    var items: [DisplayItem] = []
    var links: [LinkArea] = []
    /// Where each element's boxes and text are, in painting order (a later one is on top).
    var hits: [HitArea] = []
    var y: Float = 0
    var pendingMargin: Float = 0
    /// How far right the page's boxes and lines reach (a box of a given width wider than its
    /// container, a long preformatted line): the page scrolls horizontally to there.
    var maxX: Float = 0
    /// Builds each box's children as layout reaches it (`BoxBuilder.expand`).
    let builder: BoxBuilder?

    init(sizes: [MeasureKey: TextSize], builder: BoxBuilder? = nil) {
        self.sizes = sizes
        self.builder = builder
    }

    func size(_ font: Font, _ text: String) -> TextSize { Painter.size(sizes, font, text) }

    static func size(_ sizes: [MeasureKey: TextSize], _ font: Font, _ text: String) -> TextSize {
        sizes[MeasureKey(font: font, text: text)] ?? TextSize(width: 0, ascent: font.size * 0.8, descent: font.size * 0.2)
    }

    /// Content starts here: the collapsed margin above it is final.
    mutating func flushMargin() {
        y += pendingMargin
        pendingMargin = 0
    }

    mutating func layoutBlock(_ box: BlockBox, x: Float, width: Float) {
        builder?.expand(box)
        let s = box.style
        let b = s.borderWidths
        pendingMargin = max(pendingMargin, s.marginTop)
        // A box with a background, border or top padding starts here: margins above it
        // no longer collapse with its children's.
        let framed = s.background != nil || s.rule != nil || b != [0, 0, 0, 0]
        if framed || s.paddingTop > 0 { flushMargin() }
        let backgroundIndex: Int? = s.background != nil ? items.count : nil
        // The box's area is filled in at its end (its children's come after: on top).
        let hitIndex = hits.count
        if let element = s.element { hits.append(HitArea(rect: Rect(x: 0, y: 0, width: 0, height: 0), element: element)) }
        let top = y
        // The border box: `width` (content) plus padding and borders, or what is left of the
        // containing block after the margins; centered by `margin: auto` on both sides.
        let available = width - s.marginLeft - s.marginRight
        var boxWidth = available
        var boxX = x + s.marginLeft
        let content = s.width ?? s.widthPercent.map { $0 * width / 100 }
        if let content {
            // A given width wider than the container overflows it, as in CSS (the page then
            // scrolls horizontally).
            boxWidth = content + s.paddingLeft + s.paddingRight + b[1] + b[3]
            if s.autoLeft && s.autoRight { boxX = x + s.marginLeft + max((available - boxWidth) / 2, 0) }
            else if s.autoLeft { boxX = x + s.marginLeft + max(available - boxWidth, 0) }
        }
        boxWidth = max(boxWidth, 1)
        y += b[0] + s.paddingTop
        let innerX = boxX + b[3] + s.paddingLeft
        let innerWidth = max(boxWidth - b[1] - b[3] - s.paddingLeft - s.paddingRight, 1)
        if let rule = s.rule {
            items.append(.border(Rect(x: boxX, y: y, width: boxWidth, height: 2), widths: [1, 1, 1, 1], rule))
            y += 2
        }
        var markerPending = s.marker
        if !box.inlines.isEmpty || (markerPending != nil && box.children.isEmpty) {
            layoutLines(box.inlines, x: innerX, width: innerWidth, centered: s.centered, right: s.alignRight, owner: s.element,
                        marker: markerPending, markerFont: s.font,
                        markerColor: s.color)
            markerPending = nil
        }
        let empty = BlockBox(style: BoxStyle())
        for i in box.children.indices {
            let child = box.children[i]
            builder?.expand(child)
            if child.isEmpty { box.children[i] = empty; continue }  // white space alone makes no line
            if let marker = markerPending {
                // The marker goes on the first line of the first child.
                var first = child
                if first.inlines.isEmpty && !first.children.isEmpty {
                    // (its first child that shows)
                    for c in first.children {
                        builder?.expand(c)
                        if !c.isEmpty { first = c; break }
                    }
                }
                first.style.marker = first.style.marker ?? marker
                markerPending = nil
            }
            layoutBlock(child, x: innerX, width: innerWidth)
            // Laid out: its boxes go (a long page never holds all of them).
            if builder != nil { box.children[i] = empty }
        }
        if let marker = markerPending, !box.children.isEmpty {
            // Only children that show nothing: the marker makes its own line.
            layoutLines([], x: innerX, width: innerWidth, centered: s.centered, right: s.alignRight, marker: marker, markerFont: s.font,
                        markerColor: s.color)
        }
        if framed || s.paddingBottom > 0 {
            flushMargin()
            y += s.paddingBottom + b[2]
        }
        let rect = Rect(x: boxX, y: top, width: boxWidth, height: y - top)
        maxX = max(maxX, boxX + boxWidth)
        if s.element != nil { hits[hitIndex].rect = rect }
        if let index = backgroundIndex, let background = s.background {
            items.insert(.fill(rect, background), at: index)
        }
        if b != [0, 0, 0, 0] {
            items.append(.border(rect, widths: b, s.borderColor))
        }
        pendingMargin = max(pendingMargin, s.marginBottom)
    }

    struct Placed {
        var x: Float
        var text: String
        var style: WordStyle
        var width: Float
    }

    /// `owner`: the element of the box the lines are in (its area, added by `layoutBlock`,
    /// already covers its own text: only its inline descendants' pieces get areas).
    mutating func layoutLines(_ inlines: [InlineItem], x: Float, width: Float, centered: Bool, right: Bool = false, owner: Element? = nil,
                              marker: String?,
                              markerFont: Font, markerColor: Color) {
        let table = sizes
        func size(_ font: Font, _ text: String) -> TextSize { Painter.size(table, font, text) }
        var line: [Placed] = []
        var cursor: Float = 0
        var pendingSpace = false
        var lineHasContent = false

        func lineMetrics(_ placed: [Placed]) -> (ascent: Float, descent: Float, height: Float) {
            var ascent: Float = 0, descent: Float = 0, height: Float = 0
            for p in placed {
                let m = size(p.style.font, p.text)
                ascent = max(ascent, m.ascent)
                descent = max(descent, m.descent)
                height = max(height, (p.style.font.size * 1.2).rounded())
            }
            return (ascent, descent, max(height, ascent + descent))
        }

        var markerToDraw = marker
        func endLine(_ painter: inout Painter, forced: Bool) {
            if line.isEmpty && !forced && markerToDraw == nil { return }
            painter.flushMargin()
            var metrics = lineMetrics(line)
            if line.isEmpty {
                let m = size(markerFont, " ")
                metrics = (m.ascent, m.descent, (markerFont.size * 1.2).rounded())
            }
            let halfLeading = (metrics.height - metrics.ascent - metrics.descent) / 2
            let baseline = (painter.y + halfLeading + metrics.ascent).rounded()
            let lineWidth = line.last.map { $0.x + $0.width } ?? 0
            let shift = centered ? max((width - lineWidth) / 2, 0) : right ? max(width - lineWidth, 0) : 0
            painter.maxX = max(painter.maxX, x + shift + lineWidth)
            if let m = markerToDraw {
                let w = size(markerFont, m).width
                painter.items.append(.text(TextRun(x: x - w, baseline: baseline, text: m, font: markerFont, color: markerColor)))
                markerToDraw = nil
            }
            // Where the line's links are (a click there follows them).
            for p in line where p.style.link != nil {
                painter.links.append(LinkArea(rect: Rect(x: x + shift + p.x, y: painter.y, width: p.width, height: metrics.height),
                                              href: p.style.link!))
            }
            // Where each element's text is: neighbours of one element make one area.
            var k = 0
            while k < line.count {
                guard let element = line[k].style.element, element !== owner else { k += 1; continue }
                var m = k + 1
                while m < line.count, line[m].style.element === element { m += 1 }
                let startX = x + shift + line[k].x, endX = x + shift + line[m - 1].x + line[m - 1].width
                painter.hits.append(HitArea(rect: Rect(x: startX, y: painter.y, width: endX - startX, height: metrics.height),
                                            element: element))
                k = m
            }
            // Merge neighbours of one style into one run.
            var i = 0
            while i < line.count {
                var j = i + 1
                var text = line[i].text
                while j < line.count, line[j].style.font == line[i].style.font, line[j].style.color == line[i].style.color,
                      line[j].style.underline == line[i].style.underline {
                    let gap = line[j].x - (line[j - 1].x + line[j - 1].width)
                    text += gap > 0 ? " " + line[j].text : line[j].text
                    j += 1
                }
                let style = line[i].style
                let startX = x + shift + line[i].x
                if !text.isEmpty {
                    painter.items.append(.text(TextRun(x: startX, baseline: baseline, text: text, font: style.font, color: style.color)))
                }
                if style.underline {
                    let endX = x + shift + line[j - 1].x + line[j - 1].width
                    painter.items.append(.fill(Rect(x: startX, y: baseline + 2, width: max(endX - startX, 0), height: 1), style.color))
                }
                i = j
            }
            painter.y += metrics.height
            line.removeAll()
            cursor = 0
            pendingSpace = false
            lineHasContent = false
        }

        for item in inlines {
            switch item {
            case .lineBreak:
                endLine(&self, forced: true)
            case .word(let text, let style, let spaceBefore):
                if spaceBefore && lineHasContent { pendingSpace = true }
                if text.isEmpty { continue }
                let w = size(style.font, text).width
                let space = pendingSpace ? size(style.font, " ").width : 0
                if lineHasContent && cursor + space + w > width && !style.preformatted {
                    endLine(&self, forced: false)
                }
                let gap: Float = lineHasContent && pendingSpace ? size(style.font, " ").width : 0
                line.append(Placed(x: cursor + gap, text: text, style: style, width: w))
                cursor += gap + w
                pendingSpace = false
                lineHasContent = true
            }
        }
        endLine(&self, forced: false)
    }
}
