import Foundation

/// The clock: not before this build (a board without a battery-backed clock starts in 1970),
/// and synchronized when systemd-timesyncd keeps it.
enum ClockChecks {
    static let timesync = "/run/systemd/timesync"

    static func run(_ env: DoctorEnvironment) -> [DoctorCheck] {
        let now = env.now.formatted(.iso8601)
        let clock: DoctorCheck = env.now < env.buildDate
            ? .problem("clock", "the clock says \(now), before this meshport was built (\(env.buildDate.formatted(.iso8601)))",
                       fix: "sudo timedatectl set-ntp true (or set it by hand: sudo date -s 'YYYY-MM-DD HH:MM:SS')")
            : .ok("clock", now)
        let sync: DoctorCheck
        if !env.exists(timesync) {
            sync = .skipped("clock sync", "systemd-timesyncd does not run (another NTP client may keep the clock)")
        } else if env.exists(timesync + "/synchronized") {
            sync = .ok("clock sync", "synchronized by systemd-timesyncd")
        } else {
            sync = .problem("clock sync", "systemd-timesyncd runs but has not synchronized the clock",
                            fix: "sudo timedatectl set-ntp true; timedatectl timesync-status says which server it tries")
        }
        return [clock, sync]
    }
}
