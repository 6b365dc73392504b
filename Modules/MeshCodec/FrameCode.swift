/// A code byte space (commands, responses, pushes) whose cases carry the firmware's name.
protocol FrameCode: RawRepresentable where RawValue == UInt8 {
    var firmwareName: String { get }
}

extension CommandCode: FrameCode {}
extension ResponseCode: FrameCode {}
extension PushCode: FrameCode {}

/// The part every frame decoder shares: look the code up, keep unknown codes whole,
/// read the body with a reader named after the frame, refuse bytes after the last field.
@inline(__always)
func decodeFrame<Code: FrameCode, Value>(_ frame: [UInt8], as _: Code.Type, unknown: (UInt8, [UInt8]) -> Value,
                                         body: (Code, inout ByteReader) throws -> Value) throws -> Value {
    guard let raw = frame.first else { throw CodecError.empty }
    guard let code = Code(rawValue: raw) else { return unknown(raw, Array(frame.dropFirst())) }
    var r = ByteReader(frame, frame: code.firmwareName, offset: 1)
    let value = try body(code, &r)
    try r.expectEnd()
    return value
}
