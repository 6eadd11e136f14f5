/// Page zoom: a list laid out in CSS pixels drawn at `factor` device pixels per CSS pixel.
/// Every coordinate, border width and font size is multiplied, so the rendering process
/// rasterizes text at the zoomed size (sharp, not a scaled bitmap).
extension DisplayList {
    public func scaled(by factor: Float) -> DisplayList {
        var out = self
        out.scale(by: factor)
        return out
    }

    /// `scaled(by:)` in place (a long page's list is not copied: it was twice its size at
    /// any zoom but 100 %).
    public mutating func scale(by factor: Float) {
        func scale(_ r: Rect) -> Rect {
            Rect(x: r.x * factor, y: r.y * factor, width: r.width * factor, height: r.height * factor)
        }
        width = (width * factor).rounded()
        height *= factor
        for i in items.indices {
            switch items[i] {
            case .fill(let r, let c): items[i] = .fill(scale(r), c)
            case .border(let r, let widths, let c): items[i] = .border(scale(r), widths: widths.map { $0 * factor }, c)
            case .text(var run):
                run.x *= factor
                run.baseline *= factor
                run.font.size *= factor
                items[i] = .text(run)
            }
        }
    }
}
