import Foundation
import MeshBLE
#if canImport(Glibc)
import Glibc
#endif

extension LinkSecurity {
    /// Bonds in the default store; the PIN from the URL or config, else asked on the terminal.
    init(options: BLEOptions) throws {
        let peer = options.peer
        let known = options.passkey
        self.init(bonds: BondStore(path: BondStore.defaultPath(environment: ProcessInfo.processInfo.environment))) {
            if let known { return known }
            if let typed = try promptForPasskey(peer) { return typed }
            throw LinkSecurityError.noPasskey(peer: peer)
        }
    }
}

extension LinkSecurity {
    /// Whether this process has a terminal to ask for a PIN on.
    static var canPrompt: Bool {
        let tty = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard tty >= 0 else { return false }
        close(tty)
        return true
    }
}

/// Asks on the controlling terminal, if there is one; nil without a terminal.
private func promptForPasskey(_ peer: BDAddress) throws -> UInt32? {
    let tty = open("/dev/tty", O_RDWR | O_CLOEXEC)
    guard tty >= 0 else { return nil }
    defer { close(tty) }
    for _ in 0..<3 {
        let prompt = "\nPIN for \(peer) (shown on the radio or set in its app; default 123456): "
        _ = prompt.withCString { write(tty, $0, strlen($0)) }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(tty, &byte, 1) == 1, byte != UInt8(ascii: "\n") { line.append(byte) }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        if text.count == 6, let value = UInt32(text) { return value }
        let again = "a PIN is 6 digits\n"
        _ = again.withCString { write(tty, $0, strlen($0)) }
    }
    return nil
}
