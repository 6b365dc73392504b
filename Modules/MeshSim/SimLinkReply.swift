import MeshCodec
import MeshConformanceCommands

/// What the radio writes back for one received frame on a stream link.
public struct SimLinkReply: Hashable, Sendable {
    public var frames: [[UInt8]] = []
    /// Raw bytes written before the frames (the garbage command).
    public var rawPrefix: [UInt8] = []
    /// Write half of the first frame, then drop the link (the drop command).
    public var dropMidFrame = false
    /// Write the frames, then drop the link: the radio restarted (REBOOT, FACTORY_RESET).
    public var dropsLink = false

    public init(frames: [[UInt8]] = [], rawPrefix: [UInt8] = [], dropMidFrame: Bool = false, dropsLink: Bool = false) {
        self.frames = frames
        self.rawPrefix = rawPrefix
        self.dropMidFrame = dropMidFrame
        self.dropsLink = dropsLink
    }

    /// The answer to a conformance command (Modules/MeshConformanceCommands); nil for any
    /// other frame (Docs/protocol.md codes stop at 65, these are 0x7C-0x7E).
    public static func conformance(_ frame: [UInt8]) -> SimLinkReply? {
        switch frame.first {
        case ConformanceCommand.echo: SimLinkReply(frames: [frame])
        case ConformanceCommand.garbageThenEcho: SimLinkReply(frames: [frame], rawPrefix: ConformanceCommand.garbage)
        case ConformanceCommand.dropMidFrame: SimLinkReply(frames: [[ConformanceCommand.echo] + [UInt8](repeating: 0xEE, count: 40)], dropMidFrame: true)
        default: nil
        }
    }
}

extension SimHandler {
    /// The firmware's answer to a frame MeshCodec cannot decode as a command: a known code
    /// whose length or sub-byte checks fail falls through to UNSUPPORTED_CMD, except
    /// GET_STATS with an unknown type, which it answers ILLEGAL_ARG (§3.1).
    static func undecodable(_ frame: [UInt8]) -> RadioFrame {
        if frame.count >= 2, frame[0] == CommandCode.getStats.rawValue { return error(.illegalArgument) }
        return error(.unsupportedCommand)
    }
}
