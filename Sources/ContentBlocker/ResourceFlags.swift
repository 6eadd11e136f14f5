/// Resource types, load types, load contexts, request methods and action conditions, packed in
/// one 32-bit word with WebKit's bit values (`Source/WebCore/loader/ResourceLoadInfo.h`), so a
/// rule's trigger and a request compare with a few masks.
public enum ResourceFlags {
    // ResourceType
    public static let topDocument: UInt32 = 0x0001
    public static let childDocument: UInt32 = 0x0002
    public static let image: UInt32 = 0x0004
    public static let styleSheet: UInt32 = 0x0008
    public static let script: UInt32 = 0x0010
    public static let font: UInt32 = 0x0020
    public static let svgDocument: UInt32 = 0x0040
    public static let media: UInt32 = 0x0080
    public static let popup: UInt32 = 0x0100
    public static let ping: UInt32 = 0x0200
    public static let fetch: UInt32 = 0x0400
    public static let webSocket: UInt32 = 0x0800
    public static let cspReport: UInt32 = 0x1000
    public static let other: UInt32 = 0x2000
    public static let resourceTypeMask: UInt32 = 0x3FFF
    // LoadType
    public static let firstParty: UInt32 = 0x4000
    public static let thirdParty: UInt32 = 0x8000
    public static let loadTypeMask: UInt32 = 0xC000
    // LoadContext
    public static let topFrame: UInt32 = 0x10000
    public static let childFrame: UInt32 = 0x20000
    public static let loadContextMask: UInt32 = 0x30000
    // ActionCondition (an enumeration in three bits, not a bit set)
    public static let ifTopURL: UInt32 = 0x40000
    public static let unlessTopURL: UInt32 = 0x80000
    public static let ifFrameURL: UInt32 = 0x140000
    public static let unlessFrameURL: UInt32 = 0x180000
    public static let ifAncestorSubframeURL: UInt32 = 0x1C0000
    public static let actionConditionMask: UInt32 = 0x1C0000
    // RequestMethod (an enumeration in four bits)
    public static let requestMethodMask: UInt32 = 0x1E00000

    /// `readResourceType` of ResourceLoadInfo.cpp, with the `document` and `raw` aliases.
    public static func resourceType(named name: String) -> UInt32? {
        switch name {
        case "document": return topDocument | childDocument
        case "top-document": return topDocument
        case "child-document": return childDocument
        case "image": return image
        case "style-sheet": return styleSheet
        case "script": return script
        case "font": return font
        case "raw": return fetch | webSocket | other | ping
        case "websocket": return webSocket
        case "fetch": return fetch
        case "other": return other | ping | cspReport
        case "svg-document": return svgDocument
        case "media": return media
        case "popup": return popup
        case "ping": return ping
        case "csp-report": return cspReport
        default: return nil
        }
    }

    /// The one resource type of a request, by WebKit's name (no aliases: a request has one type).
    public static func requestResourceType(named name: String) -> UInt32? {
        switch name {
        case "document", "raw": return nil
        case "other": return other
        default: return resourceType(named: name)
        }
    }

    /// `readLoadType`.
    public static func loadType(named name: String) -> UInt32? {
        switch name {
        case "first-party": return firstParty
        case "third-party": return thirdParty
        default: return nil
        }
    }

    /// `readLoadContext`.
    public static func loadContext(named name: String) -> UInt32? {
        switch name {
        case "top-frame": return topFrame
        case "child-frame": return childFrame
        default: return nil
        }
    }

    /// `readRequestMethod`: ASCII case-insensitive.
    public static func requestMethod(named name: String) -> UInt32? {
        switch asciiLowercased(name) {
        case "get": return 0x200000
        case "head": return 0x400000
        case "options": return 0x600000
        case "trace": return 0x800000
        case "put": return 0xA00000
        case "delete": return 0xC00000
        case "post": return 0xE00000
        case "patch": return 0x1000000
        case "connect": return 0x1200000
        default: return nil
        }
    }

    /// Whether a rule's trigger flags admit a request's flags: each category the rule names
    /// (resource type, load type, load context) must share a bit with the request, and a
    /// request method, when the rule names one, must be the request's
    /// (`DFABytecodeInterpreter::interpretTestFlagsAndAppendAction`).
    @inline(__always)
    public static func ruleFlags(_ rule: UInt32, admit request: UInt32) -> Bool {
        let t = rule & resourceTypeMask
        if t != 0 && t & request == 0 { return false }
        let l = rule & loadTypeMask
        if l != 0 && l & request == 0 { return false }
        let c = rule & loadContextMask
        if c != 0 && c & request == 0 { return false }
        let m = rule & requestMethodMask
        if m != 0 && m != request & requestMethodMask { return false }
        return true
    }
}

@inline(__always) func asciiLowercased(_ s: String) -> String {
    var needs = false
    for b in s.utf8 where b >= 0x41 && b <= 0x5A { needs = true; break }
    if !needs { return s }
    return String(decoding: s.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
}
