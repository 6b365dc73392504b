import MeshRegion

/// What one community message becomes.
public enum IngestRecord: Sendable, Equatable {
    case observer(ObserverReport)
    case hearing(Hearing)
    case rejected(RejectedMessage, kind: IngestRejectionKind)
}

extension RegionBatch {
    mutating func append(_ record: IngestRecord) {
        switch record {
        case .observer(let report): observers.append(report)
        case .hearing(let hearing): hearings.append(hearing)
        case .rejected(let message, _): rejected.append(message)
        }
    }
}
