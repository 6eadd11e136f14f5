/// Scrolling: a page's list (items at page coordinates) seen through the viewport.
extension DisplayList {
    /// The items that show in the viewport when the page is scrolled down by `y` pixels,
    /// moved up by `y`; the list keeps the viewport's size. Items wholly outside are left
    /// out (a long page sends the rendering process only what shows).
    public func scrolled(to y: Float) -> DisplayList {
        scrolled(toX: 0, y: y)
    }

    /// The same, scrolled right by `x` pixels too (items moved left by `x`).
    public func scrolled(toX x: Float, y: Float) -> DisplayList {
        var out = DisplayList(width: width, height: height, background: background)
        let top = y, bottom = y + height
        func visible(_ r: Rect) -> Bool { r.y < bottom && r.y + r.height > top }
        for item in items {
            switch item {
            case .fill(var r, let c):
                guard visible(r) else { continue }
                r.y -= y
                r.x -= x
                out.items.append(.fill(r, c))
            case .border(var r, let widths, let c):
                guard visible(r) else { continue }
                r.y -= y
                r.x -= x
                out.items.append(.border(r, widths: widths, c))
            case .text(var run):
                // A line's glyphs reach about a font size above the baseline and half below.
                guard run.baseline + run.font.size * 0.5 > top, run.baseline - run.font.size * 1.2 < bottom else { continue }
                run.baseline -= y
                run.x -= x
                out.items.append(.text(run))
            }
        }
        return out
    }
}
