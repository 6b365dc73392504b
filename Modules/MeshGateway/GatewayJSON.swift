import Foundation

/// The JSON text of a gateway message: UTF-8, keys sorted so the same message always gives the
/// same bytes, slashes left alone. The packet message, made for every heard packet, is written
/// directly in the same bytes (PacketMessage.swift).
public enum GatewayJSON {
    public static func encode(_ message: PacketMessage) -> [UInt8] { message.json }
    public static func encode(_ message: StatusMessage) throws(GatewayError) -> [UInt8] { try bytes(message, "status") }

    private static func bytes<T: Encodable>(_ value: T, _ kind: String) throws(GatewayError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(value))
        } catch {
            throw .unencodable(message: kind, reason: "\(error)")
        }
    }
}
