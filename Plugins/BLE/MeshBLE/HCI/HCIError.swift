/// A failure of the host's HCI layer, naming the command or connection involved.
public enum HCIError: Error, Equatable, CustomStringConvertible {
    /// The controller answered a command with a non-zero status.
    case commandFailed(command: String, status: UInt8)
    /// No Command Complete or Command Status in time.
    case commandTimeout(command: String, seconds: Int)
    /// An answer shorter than its fields.
    case malformed(TruncatedPDU)
    /// The transport to the controller failed or was closed.
    case transport(HCITransportError)
    /// The host was closed.
    case closed
    /// No connection came up in time (LE_Create_Connection cancelled).
    case connectTimeout(peer: BDAddress, seconds: Int)
    /// The connection attempt ended with a status.
    case connectFailed(peer: BDAddress, status: UInt8)
    /// Another connection attempt or scan is under way; the controller does one at a time.
    case busy(String)
    /// The connection is gone.
    case disconnected(handle: UInt16, reason: UInt8)

    public var description: String {
        switch self {
        case let .commandFailed(command, status): return "\(command) failed with status \(HCIStatus.describe(status))"
        case let .commandTimeout(command, seconds): return "the controller did not answer \(command) within \(seconds) s"
        case let .malformed(e): return e.description
        case let .transport(e): return e.description
        case .closed: return "the Bluetooth host was closed"
        case let .connectTimeout(peer, seconds):
            return "no connection to \(peer) within \(seconds) s: is the radio on, in range, and not connected to another phone or computer?"
        case let .connectFailed(peer, status): return "connecting to \(peer) failed: \(HCIStatus.describe(status))"
        case let .busy(what): return "the controller is busy: \(what)"
        case let .disconnected(handle, reason):
            return "the connection (handle 0x\(String(handle, radix: 16))) was lost: \(HCIStatus.describe(reason))"
        }
    }
}
