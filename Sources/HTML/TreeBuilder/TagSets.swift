import DOM

/// The element sets of the tree-construction rules
/// (https://html.spec.whatwg.org/multipage/parsing.html#special and the scopes).
enum TagSets {
    static let special: Set<String> = [
        "address", "applet", "area", "article", "aside", "base", "basefont", "bgsound", "blockquote", "body",
        "br", "button", "caption", "center", "col", "colgroup", "dd", "details", "dir", "div", "dl", "dt",
        "embed", "fieldset", "figcaption", "figure", "footer", "form", "frame", "frameset", "h1", "h2", "h3",
        "h4", "h5", "h6", "head", "header", "hgroup", "hr", "html", "iframe", "img", "input", "keygen", "li",
        "link", "listing", "main", "marquee", "menu", "meta", "nav", "noembed", "noframes", "noscript",
        "object", "ol", "p", "param", "plaintext", "pre", "script", "search", "section", "source",
        "style", "summary", "table", "tbody", "td", "template", "textarea", "tfoot", "th", "thead", "title",
        "tr", "track", "ul", "wbr", "xmp",
    ]
    static let formatting: Set<String> = [
        "a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike", "strong", "tt", "u",
    ]
    static let headings: Set<String> = ["h1", "h2", "h3", "h4", "h5", "h6"]
    static let impliedEndTags: Set<String> = ["dd", "dt", "li", "optgroup", "option", "p", "rb", "rp", "rt", "rtc"]
    static let impliedEndTagsThoroughly: Set<String> = [
        "caption", "colgroup", "dd", "dt", "li", "optgroup", "option", "p", "rb", "rp", "rt", "rtc",
        "tbody", "td", "tfoot", "th", "thead", "tr",
    ]
    static let defaultScopeHTML: Set<String> = [
        "applet", "caption", "html", "table", "td", "th", "marquee", "object", "template",
    ]
    static let closesP: Set<String> = [
        "address", "article", "aside", "blockquote", "center", "details", "dialog", "dir", "div", "dl",
        "fieldset", "figcaption", "figure", "footer", "header", "hgroup", "main", "menu", "nav", "ol", "p",
        "search", "section", "summary", "ul",
    ]
    static let blockEndTags: Set<String> = [
        "address", "article", "aside", "blockquote", "button", "center", "details", "dialog", "dir", "div",
        "dl", "fieldset", "figcaption", "figure", "footer", "header", "hgroup", "listing", "main", "menu",
        "nav", "ol", "pre", "search", "section", "summary", "ul",
    ]
    static let foreignBreakout: Set<String> = [
        "b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt", "em", "embed",
        "h1", "h2", "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li", "listing", "menu", "meta", "nobr",
        "ol", "p", "pre", "ruby", "s", "small", "span", "strong", "strike", "sub", "sup", "table", "tt", "u",
        "ul", "var",
    ]
    /// The start tags "in body" has a rule for (others: the "any other start tag" rule without
    /// walking the rules' string comparisons).
    static let inBodyStartTags: Set<String> = [
        "a", "address", "applet", "area", "article", "aside", "b", "base", "basefont", "bgsound", "big",
        "blockquote", "body", "br", "button", "caption", "center", "code", "col", "colgroup", "dd",
        "details", "dialog", "dir", "div", "dl", "dt", "em", "embed", "fieldset", "figcaption", "figure",
        "font", "footer", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header",
        "hgroup", "hr", "html", "i", "iframe", "image", "img", "input", "keygen", "li", "link", "listing",
        "main", "marquee", "math", "menu", "meta", "nav", "nobr", "noembed", "noframes", "noscript",
        "object", "ol", "optgroup", "option", "p", "param", "plaintext", "pre", "rb", "rp", "rt", "rtc", "s",
        "script", "search", "section", "select", "small", "source", "strike", "strong", "style", "summary",
        "svg", "table", "tbody", "td", "template", "textarea", "tfoot", "th", "thead", "title", "tr",
        "track", "tt", "u", "ul", "wbr", "xmp",
    ]
    /// The end tags "in body" has a rule for.
    static let inBodyEndTags: Set<String> = [
        "a", "address", "applet", "article", "aside", "b", "big", "blockquote", "body", "br", "button",
        "center", "code", "dd", "details", "dialog", "dir", "div", "dl", "dt", "em", "fieldset",
        "figcaption", "figure", "font", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
        "hgroup", "html", "i", "li", "listing", "main", "marquee", "menu", "nav", "nobr", "object", "ol",
        "p", "pre", "s", "search", "section", "select", "small", "strike", "strong", "summary", "template",
        "tt", "u", "ul",
    ]
    static let tableSections: Set<String> = ["tbody", "tfoot", "thead"]
    static let tableContext: Set<String> = ["table", "template", "html"]
    static let tableBodyContext: Set<String> = ["tbody", "tfoot", "thead", "template", "html"]
    static let tableRowContext: Set<String> = ["tr", "template", "html"]

    /// SVG element names whose case the parser restores.
    static let svgTagNames: [String: String] = Dictionary(uniqueKeysWithValues: [
        "altGlyph", "altGlyphDef", "altGlyphItem", "animateColor", "animateMotion", "animateTransform",
        "clipPath", "feBlend", "feColorMatrix", "feComponentTransfer", "feComposite", "feConvolveMatrix",
        "feDiffuseLighting", "feDisplacementMap", "feDistantLight", "feDropShadow", "feFlood", "feFuncA",
        "feFuncB", "feFuncG", "feFuncR", "feGaussianBlur", "feImage", "feMerge", "feMergeNode",
        "feMorphology", "feOffset", "fePointLight", "feSpecularLighting", "feSpotLight", "feTile",
        "feTurbulence", "foreignObject", "glyphRef", "linearGradient", "radialGradient", "textPath",
    ].map { (asciiLowercased($0), $0) })

    /// SVG attribute names whose case the parser restores.
    static let svgAttributeNames: [String: String] = Dictionary(uniqueKeysWithValues: [
        "attributeName", "attributeType", "baseFrequency", "baseProfile", "calcMode", "clipPathUnits",
        "diffuseConstant", "edgeMode", "filterUnits", "glyphRef", "gradientTransform", "gradientUnits",
        "kernelMatrix", "kernelUnitLength", "keyPoints", "keySplines", "keyTimes", "lengthAdjust",
        "limitingConeAngle", "markerHeight", "markerUnits", "markerWidth", "maskContentUnits", "maskUnits",
        "numOctaves", "pathLength", "patternContentUnits", "patternTransform", "patternUnits", "pointsAtX",
        "pointsAtY", "pointsAtZ", "preserveAlpha", "preserveAspectRatio", "primitiveUnits", "refX", "refY",
        "repeatCount", "repeatDur", "requiredExtensions", "requiredFeatures", "specularConstant",
        "specularExponent", "spreadMethod", "startOffset", "stdDeviation", "stitchTiles", "surfaceScale",
        "systemLanguage", "tableValues", "targetX", "targetY", "textLength", "viewBox", "viewTarget",
        "xChannelSelector", "yChannelSelector", "zoomAndPan",
    ].map { (asciiLowercased($0), $0) })

    /// Namespaced attributes on foreign elements: name -> (namespace, prefix, local name).
    static let foreignAttributes: [String: (Namespace, String?, String)] = [
        "xlink:actuate": (.xlink, "xlink", "actuate"), "xlink:arcrole": (.xlink, "xlink", "arcrole"),
        "xlink:href": (.xlink, "xlink", "href"), "xlink:role": (.xlink, "xlink", "role"),
        "xlink:show": (.xlink, "xlink", "show"), "xlink:title": (.xlink, "xlink", "title"),
        "xlink:type": (.xlink, "xlink", "type"), "xml:lang": (.xml, "xml", "lang"),
        "xml:space": (.xml, "xml", "space"), "xmlns": (.xmlns, nil, "xmlns"),
        "xmlns:xlink": (.xmlns, "xmlns", "xlink"),
    ]
}

func asciiLowercased(_ s: String) -> String {
    var bytes = Array(s.utf8)
    var changed = false
    for i in bytes.indices where bytes[i] >= 0x41 && bytes[i] <= 0x5A { bytes[i] += 0x20; changed = true }
    return changed ? String(decoding: bytes, as: UTF8.self) : s
}
