/// WebKit's rule-list parser and its validation, transcribed from
/// `Source/WebCore/contentextensions/ContentExtensionParser.cpp` (`loadEncodedRules`,
/// `loadRule`, `loadTrigger`, `loadAction`, `getDomainList`, `getTypeFlags`): the same checks
/// in the same order, so a bad list fails with the same `ContentExtensionError`.
public enum RuleListParser {
    /// `constexpr size_t maxRuleCount = 150000;` in `loadEncodedRules`.
    public static let maximumRuleCount = 150_000

    /// Parses a rule list from its JSON text.
    public static func parse(_ json: String) -> Result<[ContentRule], ContentExtensionError> {
        var copy = json
        return copy.withUTF8 { parse(bytes: $0) }
    }

    /// Parses a rule list from UTF-8 JSON bytes.
    public static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Result<[ContentRule], ContentExtensionError> {
        // A pass that builds nothing first: a malformed, non-array or too long list fails
        // before any value is made (WebKit's order of errors is kept: JSONInvalid, then
        // JSONTopLevelStructureNotAnArray, then JSONTooManyRules).
        switch JSONScanner.scan(bytes) {
        case .invalid: return .failure(.JSONInvalid)
        case .notArray: return .failure(.JSONTopLevelStructureNotAnArray)
        case .array(let count):
            if count > maximumRuleCount { return .failure(.JSONTooManyRules) }
        }
        guard let value = JSONValue.parse(bytes: bytes) else { return .failure(.JSONInvalid) }
        return loadEncodedRules(value)
    }

    static func loadEncodedRules(_ value: JSONValue) -> Result<[ContentRule], ContentExtensionError> {
        guard let top = value.arrayValue else { return .failure(.JSONTopLevelStructureNotAnArray) }
        if top.count > maximumRuleCount { return .failure(.JSONTooManyRules) }
        var rules: [ContentRule] = []
        rules.reserveCapacity(top.count)
        for item in top {
            guard item.isObject else { return .failure(.JSONInvalidRule) }
            switch loadRule(item) {
            case .failure(let e): return .failure(e)
            case .success(let rule?): rules.append(rule)
            case .success(nil): continue  // skipped (a css-display-none with an invalid selector)
            }
        }
        if rules.isEmpty { return .failure(.JSONContainsNoRules) }
        return .success(rules)
    }

    static func loadRule(_ rule: JSONValue) -> Result<ContentRule?, ContentExtensionError> {
        let trigger: Trigger
        switch loadTrigger(rule) {
        case .failure(let e): return .failure(e)
        case .success(let t): trigger = t
        }
        switch loadAction(rule, urlFilter: trigger.urlFilter) {
        case .failure(let e): return .failure(e)
        case .success(nil): return .success(nil)
        case .success(let action?): return .success(ContentRule(trigger: trigger, action: action))
        }
    }

    static func containsOnlyASCIIWithNoUppercase(_ s: String) -> Bool {
        s.utf8.allSatisfy { $0 < 0x80 && !($0 >= 0x41 && $0 <= 0x5A) }
    }

    /// `getStringList`: every member a non-empty string.
    static func stringList(_ items: [JSONValue]) -> Result<[String], ContentExtensionError> {
        var strings: [String] = []
        strings.reserveCapacity(items.count)
        for item in items {
            guard let s = item.stringValue, !s.isEmpty else { return .failure(.JSONInvalidConditionList) }
            strings.append(s)
        }
        return .success(strings)
    }

    /// `getDomainList`: each domain (lower-case ASCII, `*` for its subdomains too) becomes a
    /// regular expression over the top URL.
    static func domainList(_ items: [JSONValue]) -> Result<[String], ContentExtensionError> {
        let strings: [String]
        switch stringList(items) {
        case .failure(let e): return .failure(e)
        case .success(let s): strings = s
        }
        var regexes: [String] = []
        regexes.reserveCapacity(strings.count)
        for var domain in strings {
            // Domains should be punycode encoded lower case.
            guard containsOnlyASCIIWithNoUppercase(domain) else { return .failure(.JSONDomainNotLowerCaseASCII) }
            var allowSubdomains = false
            if domain.hasPrefix("*") {
                allowSubdomains = true
                domain.removeFirst()
            }
            var escaped = ""
            for c in domain {
                switch c {
                case "\\", "{", "}", "[", ".", "?", "*", "$": escaped.append("\\"); escaped.append(c)
                default: escaped.append(c)
                }
            }
            regexes.append("[a-z][a-z+.-]*:\\/\\/" + (allowSubdomains ? "([^/]*\\.)*" : "") + escaped + "[:/]")
        }
        return .success(regexes)
    }

    static func typeFlags(_ items: [JSONValue], _ read: (String) -> UInt32?) -> Result<UInt32, ContentExtensionError> {
        var flags: UInt32 = 0
        for item in items {
            guard let name = item.stringValue, let f = read(name) else {
                return .failure(.JSONInvalidStringInTriggerFlagsArray)
            }
            flags |= f
        }
        return .success(flags)
    }

    static func loadTrigger(_ rule: JSONValue) -> Result<Trigger, ContentExtensionError> {
        guard let t = rule["trigger"], t.isObject else { return .failure(.JSONInvalidTrigger) }
        guard let urlFilter = t["url-filter"]?.stringValue, !urlFilter.isEmpty else {
            return .failure(.JSONInvalidURLFilterInTrigger)
        }
        var trigger = Trigger(urlFilter: urlFilter)
        if let b = t["url-filter-is-case-sensitive"]?.boolValue { trigger.urlFilterIsCaseSensitive = b }
        if let b = t["top-url-filter-is-case-sensitive"]?.boolValue { trigger.topURLFilterIsCaseSensitive = b }
        if let b = t["frame-url-filter-is-case-sensitive"]?.boolValue { trigger.frameURLFilterIsCaseSensitive = b }

        let flagKeys: [(String, (String) -> UInt32?)] = [
            ("resource-type", ResourceFlags.resourceType(named:)),
            ("load-type", ResourceFlags.loadType(named:)),
            ("load-context", ResourceFlags.loadContext(named:)),
        ]
        for (key, reader) in flagKeys {
            guard let value = t[key] else { continue }
            guard let items = value.arrayValue else { return .failure(.JSONInvalidTriggerFlagsArray) }
            switch typeFlags(items, reader) {
            case .failure(let e): return .failure(e)
            case .success(let f): trigger.flags |= f
            }
        }

        // request-method: one string (WebKit `readRequestMethod`).
        if let value = t["request-method"] {
            guard let name = value.stringValue, let m = ResourceFlags.requestMethod(named: name) else {
                return .failure(.JSONInvalidRequestMethod)
            }
            trigger.flags |= m
        }

        // `checkCondition` for each condition key, in WebKit's order; at most one per trigger.
        let conditionKeys: [(String, Bool, UInt32)] = [
            ("if-domain", true, ResourceFlags.ifTopURL),
            ("unless-domain", true, ResourceFlags.unlessTopURL),
            ("if-top-url", false, ResourceFlags.ifTopURL),
            ("unless-top-url", false, ResourceFlags.unlessTopURL),
            ("if-frame-url", false, ResourceFlags.ifFrameURL),
            ("unless-frame-url", false, ResourceFlags.unlessFrameURL),
            ("if-ancestor-subframe-url", false, ResourceFlags.ifAncestorSubframeURL),
        ]
        for (key, isDomainList, condition) in conditionKeys {
            guard let value = t[key] else { continue }
            if trigger.flags & ResourceFlags.actionConditionMask != 0 { return .failure(.JSONMultipleConditions) }
            guard let items = value.arrayValue else { return .failure(.JSONInvalidConditionList) }
            switch isDomainList ? domainList(items) : stringList(items) {
            case .failure(let e): return .failure(e)
            case .success(let list):
                if list.isEmpty { return .failure(.JSONInvalidConditionList) }
                trigger.conditions = list
                if isDomainList { trigger.domains = items.compactMap(\.stringValue) }
            }
            trigger.flags |= condition
        }
        return .success(trigger)
    }

    static func loadAction(_ rule: JSONValue, urlFilter: String) -> Result<RuleAction?, ContentExtensionError> {
        guard let action = rule["action"], action.isObject else { return .failure(.JSONInvalidAction) }
        let type = action["type"]?.stringValue
        switch type {
        case "block": return .success(.block)
        case "ignore-previous-rules": return .success(.ignorePreviousRules)
        case "ignore-following-rules": return .success(.ignoreFollowingRules)
        case "block-cookies": return .success(.blockCookies)
        case "css-display-none":
            guard let selector = action["selector"]?.stringValue else {
                return .failure(.JSONInvalidCSSDisplayNoneActionType)
            }
            // Skip rules with invalid selectors to be backwards-compatible.
            guard CSSSelectorValidator.isValid(selector) else { return .success(nil) }
            return .success(.cssDisplayNone(selector: selector))
        case "make-https": return .success(.makeHTTPS)
        case "notify":
            guard let notification = action["notification"]?.stringValue else { return .failure(.JSONInvalidNotification) }
            return .success(.notify(notification))
        case "redirect":
            return RedirectAction.parse(action, urlFilter: urlFilter).map { .redirect($0) }
        case "modify-headers":
            return ModifyHeadersAction.parse(action).map { .modifyHeaders($0) }
        default:
            return .failure(.JSONInvalidActionType)
        }
    }
}
