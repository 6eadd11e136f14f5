import DOM
import DisplayList

/// `getComputedStyle`'s values for an element: the cascade (user-agent rules, `<style>`,
/// linked sheets, `style=""`) with inheritance from its ancestors, as CSS serializes them.
extension LayoutEngine {
    public func computedStyle(of element: Element, in document: Document) -> [String: String] {
        var builder = BoxBuilder()
        builder.viewportWidth = viewportWidth
        builder.linked = linkedStyleSheet
        builder.cascade = Cascade(document: document, linked: linkedStyleSheet)
        var chain: [Element] = []
        var n: Node? = element
        while let e = n as? Element { chain.append(e); n = e.parent }
        var style = BoxStyle()
        var display = "inline"
        var hidden = false
        for e in chain.reversed() {
            style = builder.style(of: e, inherited: style, index: nil)
            let d = builder.display(of: e)
            if d.hidden { hidden = true }
            display = d.hidden ? "none" : d.block ? (e.isHTML("li") ? "list-item" : "block") : "inline"
        }
        if hidden && display != "none" { display = "none" }
        func color(_ c: Color) -> String { "rgb(\(c.red), \(c.green), \(c.blue))" }
        func px(_ v: Float) -> String {
            v == v.rounded() ? "\(Int(v))px" : "\(v)px"
        }
        let family = switch style.font.family {
        case .serif: "serif"
        case .sansSerif: "sans-serif"
        case .monospace: "monospace"
        }
        var out: [String: String] = [
            "display": display,
            "color": color(style.color),
            "background-color": style.background.map(color) ?? "rgba(0, 0, 0, 0)",
            "font-size": px(style.font.size),
            "font-weight": style.font.bold ? "700" : "400",
            "font-style": style.font.italic ? "italic" : "normal",
            "font-family": family,
            "text-align": style.centered ? "center" : style.alignRight ? "right" : "start",
            "text-decoration-line": style.underline ? "underline" : "none",
            "margin-top": px(style.marginTop), "margin-right": px(style.marginRight),
            "margin-bottom": px(style.marginBottom), "margin-left": px(style.marginLeft),
            "padding-top": px(style.paddingTop), "padding-right": px(style.paddingRight),
            "padding-bottom": px(style.paddingBottom), "padding-left": px(style.paddingLeft),
            "border-top-width": px(style.borderWidths[0]), "border-right-width": px(style.borderWidths[1]),
            "border-bottom-width": px(style.borderWidths[2]), "border-left-width": px(style.borderWidths[3]),
            "width": style.width.map(px) ?? style.widthPercent.map { "\($0)%" } ?? "auto",
        ]
        if style.borderWidths != [0, 0, 0, 0] { out["border-color"] = color(style.borderColor) }
        return out
    }
}
