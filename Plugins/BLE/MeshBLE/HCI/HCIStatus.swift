/// HCI error codes the host acts on or reports (Core Vol 1 Part F).
public enum HCIStatus {
    public static let success: UInt8 = 0x00
    public static let unknownCommand: UInt8 = 0x01
    public static let unknownConnectionIdentifier: UInt8 = 0x02
    public static let pinOrKeyMissing: UInt8 = 0x06
    public static let connectionTimeout: UInt8 = 0x08
    public static let commandDisallowed: UInt8 = 0x0C
    public static let remoteUserTerminated: UInt8 = 0x13
    public static let localHostTerminated: UInt8 = 0x16
    public static let unsupportedRemoteFeature: UInt8 = 0x1A
    public static let unacceptableConnectionParameters: UInt8 = 0x3B
    public static let connectionFailedToEstablish: UInt8 = 0x3E
    public static let micFailure: UInt8 = 0x3D

    /// "0x3D (Connection Terminated due to MIC Failure)".
    public static func describe(_ code: UInt8) -> String {
        let names: [UInt8: String] = [
            0x00: "Success", 0x01: "Unknown HCI Command", 0x02: "Unknown Connection Identifier",
            0x03: "Hardware Failure", 0x04: "Page Timeout", 0x05: "Authentication Failure",
            0x06: "PIN or Key Missing", 0x07: "Memory Capacity Exceeded", 0x08: "Connection Timeout",
            0x09: "Connection Limit Exceeded", 0x0C: "Command Disallowed", 0x0D: "Connection Rejected due to Limited Resources",
            0x11: "Unsupported Feature or Parameter Value", 0x12: "Invalid HCI Command Parameters",
            0x13: "Remote User Terminated Connection", 0x14: "Remote Device Terminated Connection due to Low Resources",
            0x15: "Remote Device Terminated Connection due to Power Off", 0x16: "Connection Terminated By Local Host",
            0x1A: "Unsupported Remote Feature", 0x1F: "Unspecified Error", 0x22: "LL Response Timeout",
            0x28: "Instant Passed", 0x3B: "Unacceptable Connection Parameters", 0x3C: "Advertising Timeout",
            0x3D: "Connection Terminated due to MIC Failure", 0x3E: "Connection Failed to be Established",
        ]
        let hex = String(code, radix: 16, uppercase: true)
        return "0x" + (code < 0x10 ? "0" : "") + hex + " (" + (names[code] ?? "unknown") + ")"
    }
}
