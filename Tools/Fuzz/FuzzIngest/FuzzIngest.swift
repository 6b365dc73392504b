import Foundation
import MeshIngest
import MeshRegion
import MeshportFuzzSupport

/// libFuzzer entry: the input is one message a stranger can publish on the community broker:
/// its topic up to the first newline, then its payload. Whatever it is, the decoder returns a
/// record (never traps), the same one each time; a refusal says why.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIngest(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let split = bytes.firstIndex(of: 0x0A) ?? bytes.count
    let topic = String(decoding: bytes[..<split], as: UTF8.self)
    let payload = Array(bytes[min(split + 1, bytes.count)...])
    let record = decoder.decode(topic: topic, payload: payload, receivedAt: receivedAt)
    guard decoder.decode(topic: topic, payload: payload, receivedAt: receivedAt) == record else {
        fuzzFinding("decoding the same message twice differs: \(fuzzHex(bytes))")
    }
    switch record {
    case let .rejected(message, _):
        guard !message.reason.isEmpty else { fuzzFinding("a refusal without a reason: \(fuzzHex(bytes))") }
    case let .hearing(hearing):
        guard !hearing.raw.isEmpty else { fuzzFinding("a hearing without its packet: \(fuzzHex(bytes))") }
    case .observer:
        break
    }
    return 0
}

private let decoder = IngestDecoder()
private let receivedAt = Date(timeIntervalSince1970: 1_800_000_000)
