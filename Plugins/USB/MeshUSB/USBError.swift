/// What went wrong with a USB radio, and where. `fix` is what the user can do about it; it
/// crosses the driver boundary as the error's fix.
public struct USBError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case invalidURL, notFound, ambiguous, permissionDenied, busy, unplugged, stalled, timeout, unsupported, other
    }

    public var kind: Kind
    public var message: String
    public var fix: String?

    public init(_ kind: Kind, _ message: String, fix: String? = nil) {
        self.kind = kind
        self.message = message
        self.fix = fix
    }

    public var description: String { fix.map { "\(message); \($0)" } ?? message }
}
