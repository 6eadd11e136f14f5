#if canImport(Glibc)
import Glibc
#endif

/// The GTK 4 functions the window uses, loaded at run time (`dlopen("libgtk-4.so.1")`)
/// rather than linked: `sable` builds without GTK's headers, and only the host process of
/// a windowed browser loads GTK; the content, networking and rendering processes (the same
/// binary) and `--headless` stay free of its ~60 shared libraries. Every function here has
/// a fixed C signature (pointers, ints, doubles); GTK's variadic and macro conveniences
/// (`g_signal_connect`, `g_object_set`) are replaced by their non-variadic forms.
/// Widgets and GObjects are `OpaquePointer`s.
struct GTK {
    typealias Object = OpaquePointer
    typealias CString = UnsafePointer<CChar>
    typealias Callback = UnsafeRawPointer

    let gtk_init_check: @convention(c) () -> Int32
    let gtk_window_new: @convention(c) () -> Object?
    let gtk_window_set_title: @convention(c) (Object?, CString?) -> Void
    let gtk_window_set_default_size: @convention(c) (Object?, Int32, Int32) -> Void
    let gtk_window_set_child: @convention(c) (Object?, Object?) -> Void
    let gtk_window_present: @convention(c) (Object?) -> Void
    let gtk_window_destroy: @convention(c) (Object?) -> Void
    let gtk_box_new: @convention(c) (Int32, Int32) -> Object?
    let gtk_box_append: @convention(c) (Object?, Object?) -> Void
    let gtk_box_remove: @convention(c) (Object?, Object?) -> Void
    let gtk_widget_get_first_child: @convention(c) (Object?) -> Object?
    let gtk_button_new_with_label: @convention(c) (CString?) -> Object?
    let gtk_button_new_from_icon_name: @convention(c) (CString?) -> Object?
    let gtk_button_set_label: @convention(c) (Object?, CString?) -> Void
    let gtk_widget_set_sensitive: @convention(c) (Object?, Int32) -> Void
    let gtk_widget_get_sensitive: @convention(c) (Object?) -> Int32
    let gtk_widget_set_hexpand: @convention(c) (Object?, Int32) -> Void
    let gtk_widget_set_vexpand: @convention(c) (Object?, Int32) -> Void
    let gtk_widget_set_visible: @convention(c) (Object?, Int32) -> Void
    let gtk_widget_set_tooltip_text: @convention(c) (Object?, CString?) -> Void
    let gtk_widget_add_css_class: @convention(c) (Object?, CString?) -> Void
    let gtk_widget_remove_css_class: @convention(c) (Object?, CString?) -> Void
    let gtk_widget_grab_focus: @convention(c) (Object?) -> Int32
    let gtk_widget_queue_draw: @convention(c) (Object?) -> Void
    let gtk_widget_add_controller: @convention(c) (Object?, Object?) -> Void
    let gtk_widget_set_size_request: @convention(c) (Object?, Int32, Int32) -> Void
    let gtk_widget_get_width: @convention(c) (Object?) -> Int32
    let gtk_widget_translate_coordinates: @convention(c) (Object?, Object?, Double, Double, UnsafeMutablePointer<Double>?,
                                                          UnsafeMutablePointer<Double>?) -> Int32
    let gtk_widget_get_height: @convention(c) (Object?) -> Int32
    let gtk_entry_new: @convention(c) () -> Object?
    let gtk_editable_get_text: @convention(c) (Object?) -> CString?
    let gtk_editable_set_text: @convention(c) (Object?, CString?) -> Void
    let gtk_editable_select_region: @convention(c) (Object?, Int32, Int32) -> Void
    let gtk_label_new: @convention(c) (CString?) -> Object?
    let gtk_label_set_text: @convention(c) (Object?, CString?) -> Void
    let gtk_drawing_area_new: @convention(c) () -> Object?
    let gtk_drawing_area_set_draw_func: @convention(c) (Object?, Callback?, UnsafeMutableRawPointer?, Callback?) -> Void
    let gtk_event_controller_key_new: @convention(c) () -> Object?
    let gtk_event_controller_set_propagation_phase: @convention(c) (Object?, Int32) -> Void
    let gtk_event_controller_get_current_event_time: @convention(c) (Object?) -> UInt32
    let gtk_event_controller_scroll_new: @convention(c) (UInt32) -> Object?
    let gtk_event_controller_scroll_get_unit: @convention(c) (Object?) -> Int32
    let gtk_gesture_click_new: @convention(c) () -> Object?
    let gtk_gesture_single_set_button: @convention(c) (Object?, UInt32) -> Void
    let gtk_gesture_single_get_current_button: @convention(c) (Object?) -> UInt32
    let gtk_widget_set_focusable: @convention(c) (Object?, Int32) -> Void
    let gtk_widget_is_ancestor: @convention(c) (Object?, Object?) -> Int32
    let gtk_root_get_focus: @convention(c) (Object?) -> Object?
    let g_signal_connect_data: @convention(c) (Object?, CString?, Callback?, UnsafeMutableRawPointer?, Callback?, Int32) -> UInt
    let g_main_context_iteration: @convention(c) (OpaquePointer?, Int32) -> Int32
    let gtk_overlay_new: @convention(c) () -> Object?
    let gtk_overlay_set_child: @convention(c) (Object?, Object?) -> Void
    let gtk_overlay_add_overlay: @convention(c) (Object?, Object?) -> Void
    let gtk_widget_set_halign: @convention(c) (Object?, Int32) -> Void
    let gtk_widget_set_valign: @convention(c) (Object?, Int32) -> Void
    let gtk_widget_set_margin_top: @convention(c) (Object?, Int32) -> Void
    let gtk_widget_get_visible: @convention(c) (Object?) -> Int32
    let gtk_event_controller_get_current_event_state: @convention(c) (Object?) -> UInt32
    let gtk_adjustment_new: @convention(c) (Double, Double, Double, Double, Double, Double) -> Object?
    let gtk_adjustment_configure: @convention(c) (Object?, Double, Double, Double, Double, Double, Double) -> Void
    let gtk_adjustment_get_value: @convention(c) (Object?) -> Double
    let gtk_scrollbar_new: @convention(c) (Int32, Object?) -> Object?
    let gtk_event_controller_motion_new: @convention(c) () -> Object?

    // Constants of the GTK 4 ABI.
    static let orientationHorizontal: Int32 = 0, orientationVertical: Int32 = 1
    static let phaseCapture: Int32 = 1
    /// `GtkAlign`.
    static let alignFill: Int32 = 0, alignStart: Int32 = 1, alignEnd: Int32 = 2, alignCenter: Int32 = 3
    /// `GdkScrollUnit`: a mouse wheel's clicks, or a touchpad's surface pixels.
    static let scrollUnitWheel: Int32 = 0
    static let scrollHorizontal: UInt32 = 1 << 1, scrollBothAxes: UInt32 = 3, scrollKinetic: UInt32 = 1 << 3
    static let shiftMask: UInt32 = 1 << 0, controlMask: UInt32 = 1 << 2, altMask: UInt32 = 1 << 3

    /// Where the center of `widget` is in `target`'s coordinates (nil before it is laid out).
    func center(of widget: Object?, in target: Object?) -> (x: Int, y: Int)? {
        let w = gtk_widget_get_width(widget), h = gtk_widget_get_height(widget)
        guard w > 0, h > 0 else { return nil }
        var x = 0.0, y = 0.0
        guard gtk_widget_translate_coordinates(widget, target, Double(w) / 2, Double(h) / 2, &x, &y) != 0 else { return nil }
        return (Int(x), Int(y))
    }

    struct LoadError: Error, CustomStringConvertible {
        var description: String
    }

    /// Loads GTK 4 (`libgtk-4.so.1`, Debian's libgtk-4-1) and every function above.
    static func load() throws(LoadError) -> GTK {
        guard let handle = dlopen("libgtk-4.so.1", RTLD_NOW | RTLD_GLOBAL) else {
            let why = dlerror().map { String(cString: $0) } ?? "not found"
            throw LoadError(description: "cannot load GTK 4 (\(why)); install libgtk-4-1, or run with --headless")
        }
        do {
            return try GTK(handle)
        } catch let error as LoadError {
            throw error
        } catch {
            throw LoadError(description: "\(error)")
        }
    }

    private init(_ h: UnsafeMutableRawPointer) throws {
        func f<T>(_ name: String) throws -> T {
            guard let p = dlsym(h, name) else { throw LoadError(description: "GTK 4 has no \(name)") }
            return unsafeBitCast(p, to: T.self)
        }
        gtk_init_check = try f("gtk_init_check")
        gtk_window_new = try f("gtk_window_new")
        gtk_window_set_title = try f("gtk_window_set_title")
        gtk_window_set_default_size = try f("gtk_window_set_default_size")
        gtk_window_set_child = try f("gtk_window_set_child")
        gtk_window_present = try f("gtk_window_present")
        gtk_window_destroy = try f("gtk_window_destroy")
        gtk_box_new = try f("gtk_box_new")
        gtk_box_append = try f("gtk_box_append")
        gtk_box_remove = try f("gtk_box_remove")
        gtk_widget_get_first_child = try f("gtk_widget_get_first_child")
        gtk_button_new_with_label = try f("gtk_button_new_with_label")
        gtk_button_new_from_icon_name = try f("gtk_button_new_from_icon_name")
        gtk_button_set_label = try f("gtk_button_set_label")
        gtk_widget_set_sensitive = try f("gtk_widget_set_sensitive")
        gtk_widget_get_sensitive = try f("gtk_widget_get_sensitive")
        gtk_widget_set_hexpand = try f("gtk_widget_set_hexpand")
        gtk_widget_set_vexpand = try f("gtk_widget_set_vexpand")
        gtk_widget_set_visible = try f("gtk_widget_set_visible")
        gtk_widget_set_tooltip_text = try f("gtk_widget_set_tooltip_text")
        gtk_widget_add_css_class = try f("gtk_widget_add_css_class")
        gtk_widget_remove_css_class = try f("gtk_widget_remove_css_class")
        gtk_widget_grab_focus = try f("gtk_widget_grab_focus")
        gtk_widget_queue_draw = try f("gtk_widget_queue_draw")
        gtk_widget_add_controller = try f("gtk_widget_add_controller")
        gtk_widget_set_size_request = try f("gtk_widget_set_size_request")
        gtk_widget_get_width = try f("gtk_widget_get_width")
        gtk_widget_translate_coordinates = try f("gtk_widget_translate_coordinates")
        gtk_widget_get_height = try f("gtk_widget_get_height")
        gtk_entry_new = try f("gtk_entry_new")
        gtk_editable_get_text = try f("gtk_editable_get_text")
        gtk_editable_set_text = try f("gtk_editable_set_text")
        gtk_editable_select_region = try f("gtk_editable_select_region")
        gtk_label_new = try f("gtk_label_new")
        gtk_label_set_text = try f("gtk_label_set_text")
        gtk_drawing_area_new = try f("gtk_drawing_area_new")
        gtk_drawing_area_set_draw_func = try f("gtk_drawing_area_set_draw_func")
        gtk_event_controller_key_new = try f("gtk_event_controller_key_new")
        gtk_event_controller_set_propagation_phase = try f("gtk_event_controller_set_propagation_phase")
        gtk_event_controller_get_current_event_time = try f("gtk_event_controller_get_current_event_time")
        gtk_event_controller_scroll_new = try f("gtk_event_controller_scroll_new")
        gtk_event_controller_scroll_get_unit = try f("gtk_event_controller_scroll_get_unit")
        gtk_gesture_click_new = try f("gtk_gesture_click_new")
        gtk_gesture_single_set_button = try f("gtk_gesture_single_set_button")
        gtk_gesture_single_get_current_button = try f("gtk_gesture_single_get_current_button")
        gtk_widget_set_focusable = try f("gtk_widget_set_focusable")
        gtk_widget_is_ancestor = try f("gtk_widget_is_ancestor")
        gtk_root_get_focus = try f("gtk_root_get_focus")
        g_signal_connect_data = try f("g_signal_connect_data")
        g_main_context_iteration = try f("g_main_context_iteration")
        gtk_overlay_new = try f("gtk_overlay_new")
        gtk_overlay_set_child = try f("gtk_overlay_set_child")
        gtk_overlay_add_overlay = try f("gtk_overlay_add_overlay")
        gtk_widget_set_halign = try f("gtk_widget_set_halign")
        gtk_widget_set_valign = try f("gtk_widget_set_valign")
        gtk_widget_set_margin_top = try f("gtk_widget_set_margin_top")
        gtk_widget_get_visible = try f("gtk_widget_get_visible")
        gtk_event_controller_get_current_event_state = try f("gtk_event_controller_get_current_event_state")
        gtk_adjustment_new = try f("gtk_adjustment_new")
        gtk_adjustment_configure = try f("gtk_adjustment_configure")
        gtk_adjustment_get_value = try f("gtk_adjustment_get_value")
        gtk_scrollbar_new = try f("gtk_scrollbar_new")
        gtk_event_controller_motion_new = try f("gtk_event_controller_motion_new")
    }

    // MARK: - Conveniences

    func text(_ s: String, _ body: (CString) -> Void) { s.withCString(body) }

    func connect(_ object: Object?, _ signal: String, _ callback: Callback, _ data: UnsafeMutableRawPointer) {
        _ = signal.withCString { g_signal_connect_data(object, $0, callback, data, nil, 0) }
    }

    func button(_ label: String) -> Object? { label.withCString { gtk_button_new_with_label($0) } }
    func label(_ s: String) -> Object? { s.withCString { gtk_label_new($0) } }
    func setTitle(_ window: Object?, _ s: String) { s.withCString { gtk_window_set_title(window, $0) } }
    func setLabel(_ button: Object?, _ s: String) { s.withCString { gtk_button_set_label(button, $0) } }
    func setLabelText(_ label: Object?, _ s: String) { s.withCString { gtk_label_set_text(label, $0) } }
    func setEntryText(_ entry: Object?, _ s: String) { s.withCString { gtk_editable_set_text(entry, $0) } }
    func entryText(_ entry: Object?) -> String { gtk_editable_get_text(entry).map { String(cString: $0) } ?? "" }
    func setTooltip(_ w: Object?, _ s: String) { s.withCString { gtk_widget_set_tooltip_text(w, $0) } }
    func addClass(_ w: Object?, _ s: String) { s.withCString { gtk_widget_add_css_class(w, $0) } }
    func removeClass(_ w: Object?, _ s: String) { s.withCString { gtk_widget_remove_css_class(w, $0) } }
}
