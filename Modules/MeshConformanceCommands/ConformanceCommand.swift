/// Commands only a conformance far side understands, for checks of the link itself. None is
/// a companion command (those stop at 65), so a real radio answers them with
/// ERR_CODE_UNSUPPORTED_CMD and the suite skips the checks that need them. A module of their
/// own because both sides use them: the conformance suite sends them, MeshSim answers them;
/// the C example driver knows 0x7C too (Plugins/Loopback/loopback.c).
public enum ConformanceCommand {
    /// `7E payload...` is answered with the same frame: frames of any size, both ways.
    public static let echo: UInt8 = 0x7E
    /// `7D` is answered with garbage and bogus headers on the stream, then `7D`.
    public static let garbageThenEcho: UInt8 = 0x7D
    /// `7C` makes the far side send half a frame and drop the link.
    public static let dropMidFrame: UInt8 = 0x7C

    /// The bytes a stream far side writes for `garbageThenEcho`: noise without a marker,
    /// a zero-length header, an oversize header, and a header cut short by noise.
    public static let garbage: [UInt8] = Array("noise\r\n".utf8) + [0x3E, 0x00, 0x00] + [0x3E, 0xFF, 0x7F] + Array("boot: ok\n".utf8)
}
