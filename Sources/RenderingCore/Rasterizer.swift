#if canImport(Glibc)
import Glibc
#endif
import CPangoCairo
import DisplayList
import Synchronization

/// Draws display lists with Cairo and measures text with Pango. Cairo and Pango calls of all
/// threads go through one lock (fontconfig and the font map are shared state).
public final class Rasterizer: Sendable {
    public static let shared = Rasterizer()
    let lock = Mutex(())

    public init() {}

    /// The Pango font description of a display-list font.
    static func description(_ font: Font) -> OpaquePointer {
        let family: String = switch font.family {
        case .sansSerif: "DejaVu Sans,sans-serif"
        case .serif: "DejaVu Serif,serif"
        case .monospace: "DejaVu Sans Mono,monospace"
        }
        let d = pango_font_description_new()!
        pango_font_description_set_family(d, family)
        pango_font_description_set_weight(d, font.bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
        pango_font_description_set_style(d, font.italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL)
        pango_font_description_set_absolute_size(d, Double(font.size) * Double(sable_pango_scale()))
        return d
    }

    /// Text layout without hinting of metrics, so that measured widths are drawn widths.
    static func configure(_ layout: OpaquePointer, font: Font, text: String) {
        let d = description(font)
        pango_layout_set_font_description(layout, d)
        pango_font_description_free(d)
        pango_layout_set_text(layout, text, -1)
    }

    static func fontOptions() -> OpaquePointer {
        let options = cairo_font_options_create()!
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        return options
    }

    /// Width, ascent and descent of each text, in pixels.
    public func measure(_ texts: [(Font, String)]) -> [(width: Float, ascent: Float, descent: Float)] {
        lock.withLock { _ in
            let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1)
            let cr = cairo_create(surface)
            defer { cairo_destroy(cr); cairo_surface_destroy(surface) }
            let options = Rasterizer.fontOptions()
            defer { cairo_font_options_destroy(options) }
            let layout = pango_cairo_create_layout(cr)!
            defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
            pango_cairo_context_set_font_options(pango_layout_get_context(layout), options)
            pango_layout_context_changed(layout)
            let scale = Float(sable_pango_scale())
            var metricsCache: [Font: (Float, Float)] = [:]
            return texts.map { font, text in
                let vertical: (Float, Float)
                if let v = metricsCache[font] {
                    vertical = v
                } else {
                    Rasterizer.configure(layout, font: font, text: "Xg")
                    var ink = PangoRectangle(), logical = PangoRectangle()
                    pango_layout_get_extents(layout, &ink, &logical)
                    let baseline = Float(pango_layout_get_baseline(layout)) / scale
                    vertical = (baseline, Float(logical.height) / scale - baseline)
                    metricsCache[font] = vertical
                }
                Rasterizer.configure(layout, font: font, text: text)
                var ink = PangoRectangle(), logical = PangoRectangle()
                pango_layout_get_extents(layout, &ink, &logical)
                return (max(Float(logical.width) / scale, 0), vertical.0, vertical.1)
            }
        }
    }

    /// Paints `list` into `layer` (cleared to the list's background first).
    public func draw(_ list: DisplayList, into layer: SharedLayer) {
        lock.withLock { _ in
            let surface = cairo_image_surface_create_for_data(layer.pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                                              Int32(layer.width), Int32(layer.height), Int32(layer.stride))
            let cr = cairo_create(surface)!
            defer { cairo_destroy(cr); cairo_surface_flush(surface); cairo_surface_destroy(surface) }
            func setColor(_ c: Color) {
                cairo_set_source_rgba(cr, Double(c.red) / 255, Double(c.green) / 255, Double(c.blue) / 255, Double(c.alpha) / 255)
            }
            cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
            setColor(list.background)
            cairo_paint(cr)
            cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
            let options = Rasterizer.fontOptions()
            defer { cairo_font_options_destroy(options) }
            let layout = pango_cairo_create_layout(cr)!
            defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
            pango_cairo_context_set_font_options(pango_layout_get_context(layout), options)
            pango_layout_context_changed(layout)
            let scale = Double(sable_pango_scale())
            let bottom = Float(layer.height)
            for item in list.items {
                switch item {
                case .fill(let r, let c):
                    if r.y > bottom { continue }
                    setColor(c)
                    cairo_rectangle(cr, Double(r.x), Double(r.y), Double(r.width), Double(r.height))
                    cairo_fill(cr)
                case .border(let r, let widths, let c):
                    if r.y > bottom { continue }
                    setColor(c)
                    let (t, right, b, l) = (Double(widths[0]), Double(widths[1]), Double(widths[2]), Double(widths[3]))
                    let (x, y, w, h) = (Double(r.x), Double(r.y), Double(r.width), Double(r.height))
                    cairo_rectangle(cr, x, y, w, min(t, h))
                    cairo_rectangle(cr, x, y + h - min(b, h), w, min(b, h))
                    cairo_rectangle(cr, x, y, min(l, w), h)
                    cairo_rectangle(cr, x + w - min(right, w), y, min(right, w), h)
                    cairo_fill(cr)
                case .text(let run):
                    if run.baseline - run.font.size * 2 > bottom { continue }
                    setColor(run.color)
                    Rasterizer.configure(layout, font: run.font, text: run.text)
                    let baseline = Double(pango_layout_get_baseline(layout)) / scale
                    cairo_move_to(cr, Double(run.x), Double(run.baseline) - baseline)
                    pango_cairo_show_layout(cr, layout)
                }
            }
        }
    }
}
