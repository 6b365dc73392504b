/// One finding of `meshport doctor`: what was checked, how it stands, and what to run or
/// write when it is a problem.
struct DoctorCheck: Sendable, Equatable {
    enum Status: String, Sendable {
        case ok, problem
        /// Nothing to check here (no such device on this machine).
        case skipped
    }

    var name: String
    var status: Status
    var detail: String
    /// A command to run or a file to write; set for every problem.
    var fix: String?

    static func ok(_ name: String, _ detail: String) -> DoctorCheck { DoctorCheck(name: name, status: .ok, detail: detail) }
    static func skipped(_ name: String, _ detail: String) -> DoctorCheck { DoctorCheck(name: name, status: .skipped, detail: detail) }
    static func problem(_ name: String, _ detail: String, fix: String) -> DoctorCheck {
        DoctorCheck(name: name, status: .problem, detail: detail, fix: fix)
    }
}
