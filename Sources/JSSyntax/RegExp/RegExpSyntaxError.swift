/// An early error in a regular-expression pattern or its flags.
public struct RegExpSyntaxError: Error, Sendable, Equatable {
    /// A short reason in the style of V8 (`"Unterminated group"`, `"Nothing to repeat"`).
    public var message: String
    /// Where the error was found: an index into the pattern (or the flags, for flag errors),
    /// counted in Unicode scalars; a lone surrogate counts as one.
    public var offset: Int

    public init(message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }
}
