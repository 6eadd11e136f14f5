/// The HTML tokenizer (https://html.spec.whatwg.org/multipage/parsing.html#tokenization).
///
/// Works on preprocessed UTF-8 bytes (`InputStream.preprocess`). Every syntax character is
/// ASCII, so a non-ASCII byte is always "anything else" and is copied through; a state never
/// changes in the middle of a multi-byte character. The whole input is in memory, so
/// character references and markup declarations look ahead instead of buffering.
/// Pull model: `next()` runs the state machine until a token is ready; the tree builder sets
/// `state` (RCDATA, RAWTEXT, ...) and `allowCDATA` between calls.
public struct Tokenizer {
    public enum State: Sendable {
        case data, rcdata, rawtext, scriptData, plaintext
        case tagOpen, endTagOpen, tagName
        case rcdataLessThanSign, rcdataEndTagOpen, rcdataEndTagName
        case rawtextLessThanSign, rawtextEndTagOpen, rawtextEndTagName
        case scriptDataLessThanSign, scriptDataEndTagOpen, scriptDataEndTagName
        case scriptDataEscapeStart, scriptDataEscapeStartDash
        case scriptDataEscaped, scriptDataEscapedDash, scriptDataEscapedDashDash
        case scriptDataEscapedLessThanSign, scriptDataEscapedEndTagOpen, scriptDataEscapedEndTagName
        case scriptDataDoubleEscapeStart, scriptDataDoubleEscaped, scriptDataDoubleEscapedDash
        case scriptDataDoubleEscapedDashDash, scriptDataDoubleEscapedLessThanSign, scriptDataDoubleEscapeEnd
        case beforeAttributeName, attributeName, afterAttributeName, beforeAttributeValue
        case attributeValueDoubleQuoted, attributeValueSingleQuoted, attributeValueUnquoted
        case afterAttributeValueQuoted, selfClosingStartTag
        case bogusComment, markupDeclarationOpen
        case commentStart, commentStartDash, comment, commentLessThanSign, commentLessThanSignBang
        case commentLessThanSignBangDash, commentLessThanSignBangDashDash, commentEndDash, commentEnd, commentEndBang
        case doctype, beforeDoctypeName, doctypeName, afterDoctypeName
        case afterDoctypePublicKeyword, beforeDoctypePublicIdentifier
        case doctypePublicIdentifierDoubleQuoted, doctypePublicIdentifierSingleQuoted, afterDoctypePublicIdentifier
        case betweenDoctypePublicAndSystemIdentifiers, afterDoctypeSystemKeyword, beforeDoctypeSystemIdentifier
        case doctypeSystemIdentifierDoubleQuoted, doctypeSystemIdentifierSingleQuoted, afterDoctypeSystemIdentifier
        case bogusDoctype, cdataSection, cdataSectionBracket, cdataSectionEnd
    }

    public var state: State = .data
    /// Set by the tree builder: the adjusted current node is not in the HTML namespace, so
    /// `<![CDATA[` starts a CDATA section.
    public var allowCDATA = false
    /// The number of parse errors so far.
    public private(set) var errorCount = 0
    /// The name of the last start tag emitted (for "appropriate end tag token").
    public var lastStartTagName: [UInt8] = []

    let input: [UInt8]
    var pos = 0
    var text: [UInt8] = []
    var ready: Token?
    var pending: Token?
    var tag = TagToken()
    var tagIsEnd = false
    var attrName: [UInt8] = []
    var attrValue: [UInt8] = []
    var hasAttr = false
    var attributeNames: Set<[UInt8]> = []
    var commentData: [UInt8] = []
    var doctypeToken = DoctypeToken()
    var temp: [UInt8] = []
    var done = false

    public init(input: [UInt8]) {
        self.input = input
        errorCount = InputStream.countInputErrors(input)
        text.reserveCapacity(256)
    }

    // MARK: - Emitting

    @inline(__always) mutating func error() { errorCount += 1 }

    mutating func emit(_ token: Token) {
        if !text.isEmpty {
            ready = .characters(text)
            text.removeAll(keepingCapacity: true)
            pending = token
        } else {
            ready = token
        }
    }

    mutating func startTag(end: Bool) {
        tag = TagToken()
        if !attributeNames.isEmpty { attributeNames = [] }
        tagIsEnd = end
        hasAttr = false
    }

    mutating func finishAttribute() {
        guard hasAttr else { return }
        hasAttr = false
        // duplicate-attribute: the first one wins. A set past a few attributes, so that a
        // tag with 100,000 of them is not quadratic.
        if tag.attributes.count < 16 {
            for a in tag.attributes where a.name == attrName {
                error()
                return
            }
        } else {
            if attributeNames.isEmpty { attributeNames = Set(tag.attributes.map(\.name)) }
            if !attributeNames.insert(attrName).inserted {
                error()
                return
            }
        }
        tag.attributes.append(TagToken.Attribute(name: attrName, value: attrValue))
    }

    mutating func startAttribute() {
        finishAttribute()
        hasAttr = true
        attrName.removeAll(keepingCapacity: true)
        attrValue.removeAll(keepingCapacity: true)
    }

    mutating func emitTag() {
        finishAttribute()
        state = .data
        if tagIsEnd {
            if !tag.attributes.isEmpty { error() }  // end-tag-with-attributes
            if tag.selfClosing { error() }  // end-tag-with-trailing-solidus
            emit(.endTag(tag))
        } else {
            lastStartTagName = tag.name
            emit(.startTag(tag))
        }
    }

    mutating func emitComment() {
        state = .data
        emit(.comment(commentData))
    }

    mutating func emitDoctype() {
        state = .data
        emit(.doctype(doctypeToken))
    }

    mutating func emitEOF() {
        done = true
        emit(.endOfFile)
    }

    var isAppropriateEndTag: Bool { !lastStartTagName.isEmpty && tag.name == lastStartTagName }

    // MARK: - Character classes

    @inline(__always) static func isWhitespace(_ c: Int) -> Bool { c == 0x09 || c == 0x0A || c == 0x0C || c == 0x20 }
    @inline(__always) static func isAlpha(_ c: Int) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
    @inline(__always) static func isUpper(_ c: Int) -> Bool { c >= 0x41 && c <= 0x5A }
    @inline(__always) static func isDigit(_ c: Int) -> Bool { c >= 0x30 && c <= 0x39 }
    @inline(__always) static func isAlnum(_ c: Int) -> Bool { isAlpha(c) || isDigit(c) }
    @inline(__always) static func lower(_ c: Int) -> UInt8 { UInt8(isUpper(c) ? c + 0x20 : c) }

    static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

    /// The next input byte, -1 at the end.
    @inline(__always) func peek(_ offset: Int = 0) -> Int {
        let i = pos + offset
        return i < input.count ? Int(input[i]) : -1
    }

    /// Whether the input at `pos` starts with `word` (ASCII case-insensitive when asked).
    func lookingAt(_ word: StaticString, caseInsensitive: Bool) -> Bool {
        let n = word.utf8CodeUnitCount
        guard pos + n <= input.count else { return false }
        let w = word.utf8Start
        for i in 0..<n {
            var a = input[pos + i], b = w[i]
            if caseInsensitive {
                if a >= 0x41 && a <= 0x5A { a += 0x20 }
                if b >= 0x41 && b <= 0x5A { b += 0x20 }
            }
            if a != b { return false }
        }
        return true
    }

    // MARK: - The state machine

    /// The next token; `.endOfFile` at the end, and again on every later call.
    public mutating func next() -> Token {
        if let p = pending { pending = nil; return p }
        if done { return .endOfFile }
        while ready == nil { step() }
        let t = ready!
        ready = nil
        return t
    }

    /// Runs states until a token is ready.
    mutating func step() {
        while ready == nil {
            let c = peek()
            pos += 1  // consumed; states that reconsume step back
            switch state {
            case .data:
                switch c {
                case 0x26: characterReference(inAttribute: false)
                case 0x3C: state = .tagOpen
                case 0: error(); text.append(0)
                case -1: pos -= 1; emitEOF()
                default:
                    text.append(UInt8(c))
                    copyRun(stopAt: 0x3C, 0x26)
                }
            case .rcdata:
                switch c {
                case 0x26: characterReference(inAttribute: false)
                case 0x3C: state = .rcdataLessThanSign
                case 0: error(); text += Self.replacement
                case -1: pos -= 1; emitEOF()
                default:
                    text.append(UInt8(c))
                    copyRun(stopAt: 0x3C, 0x26)
                }
            case .rawtext, .scriptData, .plaintext:
                switch c {
                case 0x3C where state == .rawtext: state = .rawtextLessThanSign
                case 0x3C where state == .scriptData: state = .scriptDataLessThanSign
                case 0: error(); text += Self.replacement
                case -1: pos -= 1; emitEOF()
                default:
                    text.append(UInt8(c))
                    copyRun(stopAt: state == .plaintext ? 0 : 0x3C, 0)
                }
            case .tagOpen:
                switch c {
                case 0x21: state = .markupDeclarationOpen
                case 0x2F: state = .endTagOpen
                case _ where Self.isAlpha(c): startTag(end: false); reconsume(.tagName)
                case 0x3F: error(); commentData = []; reconsume(.bogusComment)
                case -1: error(); text.append(0x3C); pos -= 1; emitEOF()
                default: error(); text.append(0x3C); reconsume(.data)
                }
            case .endTagOpen:
                switch c {
                case _ where Self.isAlpha(c): startTag(end: true); reconsume(.tagName)
                case 0x3E: error(); state = .data
                case -1: error(); text += [0x3C, 0x2F]; pos -= 1; emitEOF()
                default: error(); commentData = []; reconsume(.bogusComment)
                }
            case .tagName:
                switch c {
                case 0x09, 0x0A, 0x0C, 0x20: state = .beforeAttributeName
                case 0x2F: state = .selfClosingStartTag
                case 0x3E: emitTag()
                case 0: error(); tag.name += Self.replacement
                case -1: error(); pos -= 1; emitEOF()
                default: tag.name.append(Self.lower(c))
                }
            case .rcdataLessThanSign, .rawtextLessThanSign:
                if c == 0x2F {
                    temp.removeAll(keepingCapacity: true)
                    state = state == .rcdataLessThanSign ? .rcdataEndTagOpen : .rawtextEndTagOpen
                } else {
                    text.append(0x3C)
                    reconsume(state == .rcdataLessThanSign ? .rcdata : .rawtext)
                }
            case .rcdataEndTagOpen, .rawtextEndTagOpen, .scriptDataEndTagOpen, .scriptDataEscapedEndTagOpen:
                let (nameState, back): (State, State) = switch state {
                case .rcdataEndTagOpen: (.rcdataEndTagName, .rcdata)
                case .rawtextEndTagOpen: (.rawtextEndTagName, .rawtext)
                case .scriptDataEndTagOpen: (.scriptDataEndTagName, .scriptData)
                default: (.scriptDataEscapedEndTagName, .scriptDataEscaped)
                }
                if Self.isAlpha(c) {
                    startTag(end: true)
                    reconsume(nameState)
                } else {
                    text += [0x3C, 0x2F]
                    reconsume(back)
                }
            case .rcdataEndTagName, .rawtextEndTagName, .scriptDataEndTagName, .scriptDataEscapedEndTagName:
                let back: State = switch state {
                case .rcdataEndTagName: .rcdata
                case .rawtextEndTagName: .rawtext
                case .scriptDataEndTagName: .scriptData
                default: .scriptDataEscaped
                }
                switch c {
                case _ where Self.isWhitespace(c) && isAppropriateEndTag: state = .beforeAttributeName
                case 0x2F where isAppropriateEndTag: state = .selfClosingStartTag
                case 0x3E where isAppropriateEndTag: emitTag()
                case _ where Self.isAlpha(c):
                    tag.name.append(Self.lower(c))
                    temp.append(UInt8(c))
                default:
                    text += [0x3C, 0x2F]
                    text += temp
                    reconsume(back)
                }
            case .scriptDataLessThanSign:
                switch c {
                case 0x2F: temp.removeAll(keepingCapacity: true); state = .scriptDataEndTagOpen
                case 0x21: state = .scriptDataEscapeStart; text += [0x3C, 0x21]
                default: text.append(0x3C); reconsume(.scriptData)
                }
            case .scriptDataEscapeStart:
                if c == 0x2D { state = .scriptDataEscapeStartDash; text.append(0x2D) } else { reconsume(.scriptData) }
            case .scriptDataEscapeStartDash:
                if c == 0x2D { state = .scriptDataEscapedDashDash; text.append(0x2D) } else { reconsume(.scriptData) }
            case .scriptDataEscaped, .scriptDataEscapedDash, .scriptDataEscapedDashDash:
                switch c {
                case 0x2D:
                    text.append(0x2D)
                    state = state == .scriptDataEscaped ? .scriptDataEscapedDash : .scriptDataEscapedDashDash
                case 0x3C: state = .scriptDataEscapedLessThanSign
                case 0x3E where state == .scriptDataEscapedDashDash: text.append(0x3E); state = .scriptData
                case 0: error(); text += Self.replacement; state = .scriptDataEscaped
                case -1: error(); pos -= 1; emitEOF()
                default: text.append(UInt8(c)); state = .scriptDataEscaped
                }
            case .scriptDataEscapedLessThanSign:
                if c == 0x2F {
                    temp.removeAll(keepingCapacity: true)
                    state = .scriptDataEscapedEndTagOpen
                } else if Self.isAlpha(c) {
                    temp.removeAll(keepingCapacity: true)
                    text.append(0x3C)
                    reconsume(.scriptDataDoubleEscapeStart)
                } else {
                    text.append(0x3C)
                    reconsume(.scriptDataEscaped)
                }
            case .scriptDataDoubleEscapeStart, .scriptDataDoubleEscapeEnd:
                let start = state == .scriptDataDoubleEscapeStart
                switch c {
                case 0x09, 0x0A, 0x0C, 0x20, 0x2F, 0x3E:
                    let isScript = temp.elementsEqual("script".utf8)
                    if start { state = isScript ? .scriptDataDoubleEscaped : .scriptDataEscaped } else { state = isScript ? .scriptDataEscaped : .scriptDataDoubleEscaped }
                    text.append(UInt8(c))
                case _ where Self.isAlpha(c):
                    temp.append(Self.lower(c))
                    text.append(UInt8(c))
                default: reconsume(start ? .scriptDataEscaped : .scriptDataDoubleEscaped)
                }
            case .scriptDataDoubleEscaped, .scriptDataDoubleEscapedDash, .scriptDataDoubleEscapedDashDash:
                switch c {
                case 0x2D:
                    text.append(0x2D)
                    state = state == .scriptDataDoubleEscaped ? .scriptDataDoubleEscapedDash : .scriptDataDoubleEscapedDashDash
                case 0x3C: text.append(0x3C); state = .scriptDataDoubleEscapedLessThanSign
                case 0x3E where state == .scriptDataDoubleEscapedDashDash: text.append(0x3E); state = .scriptData
                case 0: error(); text += Self.replacement; state = .scriptDataDoubleEscaped
                case -1: error(); pos -= 1; emitEOF()
                default: text.append(UInt8(c)); state = .scriptDataDoubleEscaped
                }
            case .scriptDataDoubleEscapedLessThanSign:
                if c == 0x2F {
                    temp.removeAll(keepingCapacity: true)
                    text.append(0x2F)
                    state = .scriptDataDoubleEscapeEnd
                } else {
                    reconsume(.scriptDataDoubleEscaped)
                }
            case .beforeAttributeName:
                switch c {
                case 0x09, 0x0A, 0x0C, 0x20: break
                case 0x2F, 0x3E, -1: reconsume(.afterAttributeName)
                case 0x3D:
                    error()
                    startAttribute()
                    attrName.append(0x3D)
                    state = .attributeName
                default: startAttribute(); reconsume(.attributeName)
                }
            case .attributeName:
                switch c {
                case 0x09, 0x0A, 0x0C, 0x20, 0x2F, 0x3E, -1: reconsume(.afterAttributeName)
                case 0x3D: state = .beforeAttributeValue
                case 0: error(); attrName += Self.replacement
                case 0x22, 0x27, 0x3C: error(); attrName.append(UInt8(c))
                default: attrName.append(Self.lower(c))
                }
            case .afterAttributeName:
                switch c {
                case 0x09, 0x0A, 0x0C, 0x20: break
                case 0x2F: state = .selfClosingStartTag
                case 0x3D: state = .beforeAttributeValue
                case 0x3E: emitTag()
                case -1: error(); pos -= 1; emitEOF()
                default: startAttribute(); reconsume(.attributeName)
                }
            case .beforeAttributeValue:
                switch c {
                case 0x09, 0x0A, 0x0C, 0x20: break
                case 0x22: state = .attributeValueDoubleQuoted
                case 0x27: state = .attributeValueSingleQuoted
                case 0x3E: error(); emitTag()
                default: reconsume(.attributeValueUnquoted)
                }
            case .attributeValueDoubleQuoted, .attributeValueSingleQuoted:
                let quote = state == .attributeValueDoubleQuoted ? 0x22 : 0x27
                switch c {
                case quote: state = .afterAttributeValueQuoted
                case 0x26: characterReference(inAttribute: true)
                case 0: error(); attrValue += Self.replacement
                case -1: error(); pos -= 1; emitEOF()
                default:
                    attrValue.append(UInt8(c))
                    while pos < input.count {
                        let b = input[pos]
                        if Int(b) == quote || b == 0x26 || b == 0 { break }
                        attrValue.append(b)
                        pos += 1
                    }
                }
            case .attributeValueUnquoted:
                switch c {
                case 0x09, 0x0A, 0x0C, 0x20: state = .beforeAttributeName
                case 0x26: characterReference(inAttribute: true)
                case 0x3E: emitTag()
                case 0: error(); attrValue += Self.replacement
                case 0x22, 0x27, 0x3C, 0x3D, 0x60: error(); attrValue.append(UInt8(c))
                case -1: error(); pos -= 1; emitEOF()
                default: attrValue.append(UInt8(c))
                }
            case .afterAttributeValueQuoted:
                switch c {
                case 0x09, 0x0A, 0x0C, 0x20: state = .beforeAttributeName
                case 0x2F: state = .selfClosingStartTag
                case 0x3E: emitTag()
                case -1: error(); pos -= 1; emitEOF()
                default: error(); reconsume(.beforeAttributeName)
                }
            case .selfClosingStartTag:
                switch c {
                case 0x3E: tag.selfClosing = true; emitTag()
                case -1: error(); pos -= 1; emitEOF()
                default: error(); reconsume(.beforeAttributeName)
                }
            case .bogusComment:
                switch c {
                case 0x3E: emitComment()
                case -1: pos -= 1; emitComment(); emitEOFAfter()
                case 0: error(); commentData += Self.replacement
                default: commentData.append(UInt8(c))
                }
            case .markupDeclarationOpen:
                pos -= 1
                if lookingAt("--", caseInsensitive: false) {
                    pos += 2
                    commentData = []
                    state = .commentStart
                } else if lookingAt("DOCTYPE", caseInsensitive: true) {
                    pos += 7
                    state = .doctype
                } else if lookingAt("[CDATA[", caseInsensitive: false) {
                    pos += 7
                    if allowCDATA {
                        state = .cdataSection
                    } else {
                        error()
                        commentData = Array("[CDATA[".utf8)
                        state = .bogusComment
                    }
                } else {
                    error()
                    commentData = []
                    state = .bogusComment
                }
            case .commentStart:
                switch c {
                case 0x2D: state = .commentStartDash
                case 0x3E: error(); emitComment()
                default: reconsume(.comment)
                }
            case .commentStartDash:
                switch c {
                case 0x2D: state = .commentEnd
                case 0x3E: error(); emitComment()
                case -1: error(); pos -= 1; emitComment(); emitEOFAfter()
                default: commentData.append(0x2D); reconsume(.comment)
                }
            case .comment:
                switch c {
                case 0x3C: commentData.append(0x3C); state = .commentLessThanSign
                case 0x2D: state = .commentEndDash
                case 0: error(); commentData += Self.replacement
                case -1: error(); pos -= 1; emitComment(); emitEOFAfter()
                default:
                    commentData.append(UInt8(c))
                    while pos < input.count {
                        let b = input[pos]
                        if b == 0x3C || b == 0x2D || b == 0 { break }
                        commentData.append(b)
                        pos += 1
                    }
                }
            case .commentLessThanSign:
                switch c {
                case 0x21: commentData.append(0x21); state = .commentLessThanSignBang
                case 0x3C: commentData.append(0x3C)
                default: reconsume(.comment)
                }
            case .commentLessThanSignBang:
                if c == 0x2D { state = .commentLessThanSignBangDash } else { reconsume(.comment) }
            case .commentLessThanSignBangDash:
                if c == 0x2D { state = .commentLessThanSignBangDashDash } else { reconsume(.commentEndDash) }
            case .commentLessThanSignBangDashDash:
                if c != 0x3E && c != -1 { error() }
                reconsume(.commentEnd)
            case .commentEndDash:
                switch c {
                case 0x2D: state = .commentEnd
                case -1: error(); pos -= 1; emitComment(); emitEOFAfter()
                default: commentData.append(0x2D); reconsume(.comment)
                }
            case .commentEnd:
                switch c {
                case 0x3E: emitComment()
                case 0x21: state = .commentEndBang
                case 0x2D: commentData.append(0x2D)
                case -1: error(); pos -= 1; emitComment(); emitEOFAfter()
                default: commentData += [0x2D, 0x2D]; reconsume(.comment)
                }
            case .commentEndBang:
                switch c {
                case 0x2D: commentData += [0x2D, 0x2D, 0x21]; state = .commentEndDash
                case 0x3E: error(); emitComment()
                case -1: error(); pos -= 1; emitComment(); emitEOFAfter()
                default: commentData += [0x2D, 0x2D, 0x21]; reconsume(.comment)
                }
            case .doctype:
                switch c {
                case 0x09, 0x0A, 0x0C, 0x20: state = .beforeDoctypeName
                case 0x3E: reconsume(.beforeDoctypeName)
                case -1:
                    error()
                    doctypeToken = DoctypeToken(forceQuirks: true)
                    pos -= 1
                    emitDoctype(); emitEOFAfter()
                default: error(); reconsume(.beforeDoctypeName)
                }
            case .beforeDoctypeName:
                switch c {
                case 0x09, 0x0A, 0x0C, 0x20: break
                case 0: error(); doctypeToken = DoctypeToken(name: Self.replacement); state = .doctypeName
                case 0x3E: error(); doctypeToken = DoctypeToken(forceQuirks: true); emitDoctype()
                case -1:
                    error()
                    doctypeToken = DoctypeToken(forceQuirks: true)
                    pos -= 1
                    emitDoctype(); emitEOFAfter()
                default: doctypeToken = DoctypeToken(name: [Self.lower(c)]); state = .doctypeName
                }
            case .doctypeName:
                switch c {
                case 0x09, 0x0A, 0x0C, 0x20: state = .afterDoctypeName
                case 0x3E: emitDoctype()
                case 0: error(); doctypeToken.name! += Self.replacement
                case -1: doctypeEOF()
                default: doctypeToken.name!.append(Self.lower(c))
                }
            case .afterDoctypeName:
                switch c {
                case 0x09, 0x0A, 0x0C, 0x20: break
                case 0x3E: emitDoctype()
                case -1: doctypeEOF()
                default:
                    pos -= 1
                    if lookingAt("PUBLIC", caseInsensitive: true) {
                        pos += 6
                        state = .afterDoctypePublicKeyword
                    } else if lookingAt("SYSTEM", caseInsensitive: true) {
                        pos += 6
                        state = .afterDoctypeSystemKeyword
                    } else {
                        error()
                        doctypeToken.forceQuirks = true
                        state = .bogusDoctype
                    }
                }
            case .afterDoctypePublicKeyword, .beforeDoctypePublicIdentifier:
                switch c {
                case 0x09, 0x0A, 0x0C, 0x20:
                    state = .beforeDoctypePublicIdentifier
                case 0x22, 0x27:
                    if state == .afterDoctypePublicKeyword { error() }
                    doctypeToken.publicId = []
                    state = c == 0x22 ? .doctypePublicIdentifierDoubleQuoted : .doctypePublicIdentifierSingleQuoted
                case 0x3E: error(); doctypeToken.forceQuirks = true; emitDoctype()
                case -1: doctypeEOF()
                default: error(); doctypeToken.forceQuirks = true; reconsume(.bogusDoctype)
                }
            case .doctypePublicIdentifierDoubleQuoted, .doctypePublicIdentifierSingleQuoted,
                 .doctypeSystemIdentifierDoubleQuoted, .doctypeSystemIdentifierSingleQuoted:
                let isPublic = state == .doctypePublicIdentifierDoubleQuoted || state == .doctypePublicIdentifierSingleQuoted
                let quote = state == .doctypePublicIdentifierDoubleQuoted || state == .doctypeSystemIdentifierDoubleQuoted ? 0x22 : 0x27
                switch c {
                case quote: state = isPublic ? .afterDoctypePublicIdentifier : .afterDoctypeSystemIdentifier
                case 0:
                    error()
                    if isPublic { doctypeToken.publicId! += Self.replacement } else { doctypeToken.systemId! += Self.replacement }
                case 0x3E: error(); doctypeToken.forceQuirks = true; emitDoctype()
                case -1: doctypeEOF()
                default:
                    if isPublic { doctypeToken.publicId!.append(UInt8(c)) } else { doctypeToken.systemId!.append(UInt8(c)) }
                }
            case .afterDoctypePublicIdentifier, .betweenDoctypePublicAndSystemIdentifiers:
                switch c {
                case 0x09, 0x0A, 0x0C, 0x20: state = .betweenDoctypePublicAndSystemIdentifiers
                case 0x3E: emitDoctype()
                case 0x22, 0x27:
                    if state == .afterDoctypePublicIdentifier { error() }
                    doctypeToken.systemId = []
                    state = c == 0x22 ? .doctypeSystemIdentifierDoubleQuoted : .doctypeSystemIdentifierSingleQuoted
                case -1: doctypeEOF()
                default: error(); doctypeToken.forceQuirks = true; reconsume(.bogusDoctype)
                }
            case .afterDoctypeSystemKeyword, .beforeDoctypeSystemIdentifier:
                switch c {
                case 0x09, 0x0A, 0x0C, 0x20: state = .beforeDoctypeSystemIdentifier
                case 0x22, 0x27:
                    if state == .afterDoctypeSystemKeyword { error() }
                    doctypeToken.systemId = []
                    state = c == 0x22 ? .doctypeSystemIdentifierDoubleQuoted : .doctypeSystemIdentifierSingleQuoted
                case 0x3E: error(); doctypeToken.forceQuirks = true; emitDoctype()
                case -1: doctypeEOF()
                default: error(); doctypeToken.forceQuirks = true; reconsume(.bogusDoctype)
                }
            case .afterDoctypeSystemIdentifier:
                switch c {
                case 0x09, 0x0A, 0x0C, 0x20: break
                case 0x3E: emitDoctype()
                case -1: doctypeEOF()
                default: error(); reconsume(.bogusDoctype)
                }
            case .bogusDoctype:
                switch c {
                case 0x3E: emitDoctype()
                case 0: error()
                case -1: pos -= 1; emitDoctype(); emitEOFAfter()
                default: break
                }
            case .cdataSection:
                switch c {
                case 0x5D: state = .cdataSectionBracket
                case -1: error(); pos -= 1; emitEOF()
                default: text.append(UInt8(c))
                }
            case .cdataSectionBracket:
                if c == 0x5D { state = .cdataSectionEnd } else { text.append(0x5D); reconsume(.cdataSection) }
            case .cdataSectionEnd:
                switch c {
                case 0x5D: text.append(0x5D)
                case 0x3E: state = .data
                default: text += [0x5D, 0x5D]; reconsume(.cdataSection)
                }
            }
        }
    }

    @inline(__always) mutating func reconsume(_ s: State) {
        pos -= 1
        state = s
    }

    /// Copies bytes to the text buffer up to one of two stop bytes or NUL.
    @inline(__always) mutating func copyRun(stopAt a: UInt8, _ b: UInt8) {
        let n = input.count
        var i = pos
        while i < n {
            let x = input[i]
            if x == a || x == b || x == 0 { break }
            i += 1
        }
        if i > pos { text.append(contentsOf: input[pos..<i]); pos = i }
    }

    /// The end of the input inside a DOCTYPE: force-quirks, emit it, then end of file.
    mutating func doctypeEOF() {
        error()
        doctypeToken.forceQuirks = true
        pos -= 1
        emitDoctype()
        emitEOFAfter()
    }

    /// End of file right after another token that `emit` has just queued.
    mutating func emitEOFAfter() {
        // `emit` queued the token (and perhaps a character run before it); the EOF comes on
        // the call after them, from `done`/the input being at its end.
        state = .data
    }
}
