// One message set per process pair. Each pair's connection carries only its own set, so
// kinds are numbered per set; a frame whose kind the set does not know is malformed.

/// A set of messages that one kind of connection carries.
public protocol MessageSet: Sendable {
    /// The message as a frame.
    var frame: Frame { get }
    /// Decodes and validates a frame; throws `.malformed` for anything the set does not accept.
    init(_ frame: Frame) throws(IPCError)
}

extension WorkerMessage: MessageSet {}

extension Connection {
    /// Sends a message of any set.
    public func send<M: MessageSet>(message: M) throws(IPCError) { try send(message.frame) }

    /// Receives and validates one message of the set `M`.
    public func receive<M: MessageSet>(_: M.Type, deadline: UInt64? = nil, watching: Int32? = nil) throws(IPCError) -> M {
        try M(receive(deadline: deadline, watching: watching))
    }
}
