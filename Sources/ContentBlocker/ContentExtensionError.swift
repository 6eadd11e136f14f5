/// The errors of a content-blocker rule list, with WebKit's names and messages.
///
/// Transcribed from WebKit `Source/WebCore/contentextensions/ContentExtensionError.h` and
/// `ContentExtensionError.cpp` (the `ContentExtensionErrorCategory::message` switch), in the
/// same order. `JSONInvalidRequestMethod` is not in the stored copy of those files; its message
/// is ours, in WebKit's style (see DESIGN-NOTES.md).
public enum ContentExtensionError: Int, Error, Sendable, CaseIterable {
    // JSON parser error
    case JSONInvalid = 1

    // JSON semantics error
    case JSONTopLevelStructureNotAnArray
    case JSONInvalidObjectInTopLevelArray
    case JSONInvalidRule
    case JSONContainsNoRules

    case JSONInvalidTrigger
    case JSONInvalidURLFilterInTrigger
    case JSONInvalidTriggerFlagsArray
    case JSONInvalidStringInTriggerFlagsArray
    case JSONInvalidConditionList
    case JSONDomainNotLowerCaseASCII
    case JSONMultipleConditions
    case JSONTooManyRules

    case JSONInvalidAction
    case JSONInvalidActionType
    case JSONInvalidCSSDisplayNoneActionType
    case JSONInvalidNotification
    case JSONInvalidRegex

    case JSONRedirectMissing
    case JSONRedirectExtensionPathDoesNotStartWithSlash
    case JSONRedirectURLSchemeInvalid
    case JSONRedirectToJavaScriptURL
    case JSONRedirectURLInvalid
    case JSONRedirectInvalidType
    case JSONRedirectInvalidPort
    case JSONRedirectInvalidQuery
    case JSONRedirectInvalidFragment

    case JSONRemoveParametersNotStringArray

    case JSONAddOrReplaceParametersNotArray
    case JSONAddOrReplaceParametersKeyValueNotADictionary
    case JSONAddOrReplaceParametersKeyValueMissingKeyString
    case JSONAddOrReplaceParametersKeyValueMissingValueString

    case JSONModifyHeadersNotArray
    case JSONModifyHeadersInfoNotADictionary
    case JSONModifyHeadersMissingOperation
    case JSONModifyHeadersInvalidOperation
    case JSONModifyHeadersMissingHeader
    case JSONModifyHeadersMissingValue
    case JSONModifyHeadersInvalidPriority

    case JSONInvalidRequestMethod

    case ErrorWritingSerializedNFA

    /// The enum case's name, as WebKit spells it (`ContentExtensionError::JSONInvalid`).
    public var name: String { "\(self)" }

    /// WebKit's message for the error (ContentExtensionError.cpp).
    public var message: String {
        switch self {
        case .JSONInvalid: return "Failed to parse the JSON String."
        case .JSONTopLevelStructureNotAnArray: return "Invalid input, the top level structure is not an array."
        case .JSONInvalidObjectInTopLevelArray: return "Invalid object in the top level array."
        case .JSONInvalidRule: return "Invalid rule."
        case .JSONContainsNoRules: return "Empty extension."
        case .JSONInvalidTrigger: return "Invalid trigger object."
        case .JSONInvalidURLFilterInTrigger: return "Invalid url-filter object."
        case .JSONInvalidTriggerFlagsArray: return "Invalid trigger flags array."
        case .JSONInvalidStringInTriggerFlagsArray: return "Invalid string in the trigger flags array."
        case .JSONInvalidAction: return "Invalid action object."
        case .JSONInvalidActionType: return "Invalid action type."
        case .JSONInvalidCSSDisplayNoneActionType: return "Invalid css-display-none action type. Requires a selector."
        case .JSONInvalidRegex: return "Invalid or unsupported regular expression."
        case .JSONInvalidConditionList:
            return "Invalid list of if-domain, unless-domain, if-top-url, or unless-top-url conditions."
        case .JSONTooManyRules: return "Too many rules in JSON array."
        case .JSONDomainNotLowerCaseASCII:
            return "Domains must be lower case ASCII. Use punycode to encode non-ASCII characters."
        case .JSONMultipleConditions:
            return "A trigger cannot have more than one condition (if-domain, unless-domain, if-top-url, or unless-top-url)"
        case .JSONInvalidNotification: return "A notify action must have a string notification"
        case .ErrorWritingSerializedNFA: return "Internal I/O error"
        case .JSONRedirectMissing: return "A redirect action must have a redirect member"
        case .JSONRemoveParametersNotStringArray: return "A remove-parameters value must be an array of strings"
        case .JSONAddOrReplaceParametersNotArray: return "An add-or-replace-parameters value must be an array"
        case .JSONAddOrReplaceParametersKeyValueNotADictionary:
            return "Members of the add-or-replace-parameters array must be a dictionary"
        case .JSONAddOrReplaceParametersKeyValueMissingKeyString:
            return "Members of the add-or-replace-parameters array must contain a key that is a string"
        case .JSONAddOrReplaceParametersKeyValueMissingValueString:
            return "Members of the add-or-replace-parameters array must contain a value that is a string"
        case .JSONRedirectExtensionPathDoesNotStartWithSlash: return "A redirect extension path must start with a slash"
        case .JSONRedirectURLSchemeInvalid: return "A redirect url scheme must be a valid scheme"
        case .JSONRedirectToJavaScriptURL: return "A redirect url can't have a scheme of javascript"
        case .JSONRedirectURLInvalid: return "A redirect url must be valid"
        case .JSONRedirectInvalidType:
            return "A redirect must have a member named \"extension-path\", \"regex-substitution\", \"transform\" or \"url\""
        case .JSONRedirectInvalidPort:
            return "A redirect port must be either empty or a number between 0 and 65535, inclusive"
        case .JSONRedirectInvalidQuery: return "A redirect query must either be empty or begin with '?'"
        case .JSONRedirectInvalidFragment: return "A redirect fragment must either be empty or begin with '#'"
        case .JSONModifyHeadersInvalidOperation:
            return "A modify-headers operation must have an operation that is either \"set\", \"append\", or \"remove\""
        case .JSONModifyHeadersInfoNotADictionary: return "A modify-headers operation must be a dictionary"
        case .JSONModifyHeadersMissingOperation: return "A modify-headers operation must have an operation"
        case .JSONModifyHeadersMissingHeader: return "A modify-headers operation must have a header"
        case .JSONModifyHeadersMissingValue:
            return "A modify-headers operation of \"set\" or \"append\" must have a value"
        case .JSONModifyHeadersNotArray: return "A headers member must be an array"
        case .JSONModifyHeadersInvalidPriority: return "A priority must be a positive integer"
        case .JSONInvalidRequestMethod: return "Invalid request-method."
        }
    }
}
