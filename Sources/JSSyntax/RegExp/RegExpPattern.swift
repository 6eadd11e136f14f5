/// A parsed and validated pattern.
public struct RegExpPattern: Sendable {
    /// The pattern's tree (the spec's Disjunction).
    public var root: RegExpNode
    /// Number of capture groups, not counting the whole match (group 0).
    public var captureCount: Int
    /// Named groups in index order.
    public var groupNames: [(name: String, index: Int)]
    /// The flags the pattern was parsed with.
    public var flags: RegExpFlags

    public init(root: RegExpNode, captureCount: Int, groupNames: [(name: String, index: Int)], flags: RegExpFlags) {
        self.root = root
        self.captureCount = captureCount
        self.groupNames = groupNames
        self.flags = flags
    }

    /// The index of the group called `name`, if any.
    public func groupIndex(named name: String) -> Int? {
        for entry in groupNames where entry.name == name { return entry.index }
        return nil
    }
}
