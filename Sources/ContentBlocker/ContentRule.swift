/// One rule of a list: a trigger and an action (WebKit's `ContentExtensionRule`).
public struct ContentRule: Sendable, Equatable {
    public var trigger: Trigger
    public var action: RuleAction
}

/// A rule's trigger (WebKit's `Trigger`). Domain conditions have already been turned into
/// top-URL regular expressions, as WebKit's parser does (`getDomainList`).
public struct Trigger: Sendable, Equatable, Hashable {
    public var urlFilter: String
    public var urlFilterIsCaseSensitive = false
    public var topURLFilterIsCaseSensitive = false
    public var frameURLFilterIsCaseSensitive = false
    /// Resource types, load types, load contexts, request method and action condition.
    public var flags: UInt32 = 0
    /// The regular expressions of the rule's condition (top, frame or ancestor URLs).
    public var conditions: [String] = []
    /// The domains of an if-domain / unless-domain condition as written (`*` prefix kept):
    /// the compiler matches the usual ones by hashing instead of through a DFA.
    public var domains: [String] = []

    public var condition: UInt32 { flags & ResourceFlags.actionConditionMask }

    /// Whether the condition's URL filters are case-sensitive.
    public var conditionIsCaseSensitive: Bool {
        switch condition {
        case ResourceFlags.ifTopURL, ResourceFlags.unlessTopURL: return topURLFilterIsCaseSensitive
        default: return frameURLFilterIsCaseSensitive
        }
    }
}

/// A rule's action (WebKit's `ActionData` variant).
public enum RuleAction: Sendable, Equatable {
    case block
    case blockCookies
    case cssDisplayNone(selector: String)
    case ignorePreviousRules
    case ignoreFollowingRules
    case makeHTTPS
    case notify(String)
    case redirect(RedirectAction)
    case modifyHeaders(ModifyHeadersAction)

    /// The action's type as written in a rule list.
    public var typeName: String {
        switch self {
        case .block: return "block"
        case .blockCookies: return "block-cookies"
        case .cssDisplayNone: return "css-display-none"
        case .ignorePreviousRules: return "ignore-previous-rules"
        case .ignoreFollowingRules: return "ignore-following-rules"
        case .makeHTTPS: return "make-https"
        case .notify: return "notify"
        case .redirect: return "redirect"
        case .modifyHeaders: return "modify-headers"
        }
    }

    /// The serialized kind (the first byte of a serialized action).
    var kind: UInt8 {
        switch self {
        case .block: return 0
        case .blockCookies: return 1
        case .cssDisplayNone: return 2
        case .ignorePreviousRules: return 3
        case .ignoreFollowingRules: return 4
        case .makeHTTPS: return 5
        case .notify: return 6
        case .redirect: return 7
        case .modifyHeaders: return 8
        }
    }
}
