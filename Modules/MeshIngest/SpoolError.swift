/// What went wrong with a worker's spool folder, each case a sentence that says what to fix.
public enum SpoolError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The folder cannot be made, listed or written to.
    case folder(path: String, detail: String)
    /// A segment or the progress marker cannot be written.
    case write(path: String, detail: String)
    /// A segment cannot be read back at start.
    case read(path: String, detail: String)
    /// The spool was closed: the worker is stopping.
    case closed

    public var description: String {
        switch self {
        case let .folder(path, detail):
            "The ingest spool folder \(path) cannot be used (\(detail)): check that it exists, is writable and has free space."
        case let .write(path, detail):
            "The ingest spool file \(path) cannot be written (\(detail)): check the disk's free space and permissions."
        case let .read(path, detail):
            "The ingest spool file \(path) cannot be read (\(detail)): check its permissions; moving it away loses the messages it holds."
        case .closed:
            "The ingest spool is closed: the worker is stopping."
        }
    }
}
