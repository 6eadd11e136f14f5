/// Page zoom: a list laid out in CSS pixels drawn at `factor` device pixels per CSS pixel.
/// Every coordinate, border width and font size is multiplied, so the rendering process
/// rasterizes text at the zoomed size (sharp, not a scaled bitmap).
extension DisplayList {
    public func scaled(by factor: Float) -> DisplayList {
        func scale(_ r: Rect) -> Rect {
            Rect(x: r.x * factor, y: r.y * factor, width: r.width * factor, height: r.height * factor)
        }
        var out = DisplayList(width: (width * factor).rounded(), height: height * factor, background: background)
        out.items.reserveCapacity(items.count)
        for item in items {
            switch item {
            case .fill(let r, let c): out.items.append(.fill(scale(r), c))
            case .border(let r, let widths, let c): out.items.append(.border(scale(r), widths: widths.map { $0 * factor }, c))
            case .text(var run):
                run.x *= factor
                run.baseline *= factor
                run.font.size *= factor
                out.items.append(.text(run))
            }
        }
        return out
    }
}
