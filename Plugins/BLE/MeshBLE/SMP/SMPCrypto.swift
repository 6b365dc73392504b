import _CryptoExtras
import Crypto

/// The Security Manager's cryptographic toolbox (Core Vol 3 Part H 2.2): e, AES-CMAC, f4, f5,
/// f6, g2, ah, c1 and s1.
///
/// Byte order: every key, nonce, confirm value, public key coordinate and DHKey these functions
/// take or return is **least significant byte first**, the order SMP PDUs and HCI carry them
/// (so PDU fields go in and out unchanged, and an LTK goes to HCI_LE_Enable_Encryption as is).
/// The specification writes its functions and sample data most significant byte first; read
/// such a value from right to left (tests type the sample data as written and reverse it).
/// Addresses are `BDAddress` values; each function places the type and address where the
/// specification says. Wrong lengths are typed errors, never a crash.
public enum SMPCrypto {
    /// e(key, plaintext): AES-128 of one block, as HCI_LE_Encrypt computes it.
    public static func e(_ key: [UInt8], _ plaintext: [UInt8]) throws(SMPCryptoError) -> [UInt8] {
        try check("e", "key", key, 16)
        try check("e", "plaintext", plaintext, 16)
        return try aes(msb(key), msb(plaintext)).reversed()
    }

    /// AES-CMAC (RFC 4493) of a message of any length with a 128-bit key. RFC 4493 writes key,
    /// message and tag in natural (most significant first) order: reverse each to use its
    /// vectors here, as with the specification's.
    public static func cmac(_ key: [UInt8], _ message: [UInt8]) throws(SMPCryptoError) -> [UInt8] {
        try check("AES-CMAC", "key", key, 16)
        return try cmacMSB(msb(key), msb(message)).reversed()
    }

    /// f4(U, V, X, Z): LE Secure Connections confirm values. U and V are public key X
    /// coordinates (32 bytes), X a nonce (16), Z one byte (0x80 | passkey bit for passkey entry).
    public static func f4(_ u: [UInt8], _ v: [UInt8], _ x: [UInt8], _ z: UInt8) throws(SMPCryptoError) -> [UInt8] {
        try check("f4", "U", u, 32)
        try check("f4", "V", v, 32)
        try check("f4", "X", x, 16)
        return try cmacMSB(msb(x), msb(u) + msb(v) + [z]).reversed()
    }

    /// f5(W, N1, N2, A1, A2): MacKey and LTK from the DHKey W (32 bytes) and both nonces.
    /// A1 and A2 are the initiator's and responder's addresses as used on this connection.
    public static func f5(_ w: [UInt8], _ n1: [UInt8], _ n2: [UInt8], _ a1: BDAddress, _ a2: BDAddress)
        throws(SMPCryptoError) -> (macKey: [UInt8], ltk: [UInt8])
    {
        try check("f5", "W", w, 32)
        try check("f5", "N1", n1, 16)
        try check("f5", "N2", n2, 16)
        let t = try cmacMSB(salt, msb(w))
        // Counter ‖ keyID "btle" ‖ N1 ‖ N2 ‖ A1 ‖ A2 ‖ Length (256 bits), most significant first.
        let tail = [0x62, 0x74, 0x6C, 0x65] + msb(n1) + msb(n2) + address56(a1) + address56(a2) + [0x01, 0x00]
        let macKey = try cmacMSB(t, [0x00] + tail)
        let ltk = try cmacMSB(t, [0x01] + tail)
        return (macKey.reversed(), ltk.reversed())
    }

    /// f6(W, N1, N2, R, IOcap, A1, A2): DHKey check values. `ioCap` is the three bytes
    /// IO capability, OOB flag, AuthReq, in that order (bytes 1–3 of a Pairing Request or
    /// Response as sent: `PairingFeatures.ioCap`).
    public static func f6(_ w: [UInt8], _ n1: [UInt8], _ n2: [UInt8], _ r: [UInt8], _ ioCap: [UInt8], _ a1: BDAddress, _ a2: BDAddress)
        throws(SMPCryptoError) -> [UInt8]
    {
        try check("f6", "W", w, 16)
        try check("f6", "N1", n1, 16)
        try check("f6", "N2", n2, 16)
        try check("f6", "R", r, 16)
        try check("f6", "IOcap", ioCap, 3)
        return try cmacMSB(msb(w), msb(n1) + msb(n2) + msb(r) + msb(ioCap) + address56(a1) + address56(a2)).reversed()
    }

    /// g2(U, V, X, Y): the numeric comparison value; the six digits shown are its value mod 10^6.
    public static func g2(_ u: [UInt8], _ v: [UInt8], _ x: [UInt8], _ y: [UInt8]) throws(SMPCryptoError) -> UInt32 {
        try check("g2", "U", u, 32)
        try check("g2", "V", v, 32)
        try check("g2", "X", x, 16)
        try check("g2", "Y", y, 16)
        let mac = try cmacMSB(msb(x), msb(u) + msb(v) + msb(y))
        return mac[12...].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// ah(k, r): the 24-bit hash of a resolvable private address from the IRK `k` and the
    /// 24-bit prand `r`.
    public static func ah(_ k: [UInt8], _ r: [UInt8]) throws(SMPCryptoError) -> [UInt8] {
        try check("ah", "k", k, 16)
        try check("ah", "r", r, 3)
        let block = try aes(msb(k), [UInt8](repeating: 0, count: 13) + msb(r))
        return Array(block[13...]).reversed()
    }

    /// c1(k, r, preq, pres, iat, rat, ia, ra): legacy pairing confirm values. `preq` and `pres`
    /// are the Pairing Request and Response PDUs exactly as sent (7 bytes, code first); the
    /// address types come with the addresses.
    public static func c1(_ k: [UInt8], _ r: [UInt8], preq: [UInt8], pres: [UInt8], initiator ia: BDAddress, responder ra: BDAddress)
        throws(SMPCryptoError) -> [UInt8]
    {
        try check("c1", "k", k, 16)
        try check("c1", "r", r, 16)
        try check("c1", "preq", preq, 7)
        try check("c1", "pres", pres, 7)
        // p1 = pres ‖ preq ‖ rat' ‖ iat', p2 = padding ‖ ia ‖ ra (most significant first).
        let p1 = msb(pres) + msb(preq) + [ra.kind.rawValue, ia.kind.rawValue]
        let p2 = [UInt8](repeating: 0, count: 4) + ia.bytes + ra.bytes
        let key = msb(k)
        let inner = try aes(key, xor(msb(r), p1))
        return try aes(key, xor(inner, p2)).reversed()
    }

    /// s1(k, r1, r2): the legacy short-term key from the least significant 64 bits of each
    /// random value (r1 the responder's Srand, r2 the initiator's Mrand).
    public static func s1(_ k: [UInt8], _ r1: [UInt8], _ r2: [UInt8]) throws(SMPCryptoError) -> [UInt8] {
        try check("s1", "k", k, 16)
        try check("s1", "r1", r1, 16)
        try check("s1", "r2", r2, 16)
        // r' = r1' ‖ r2' with r1' the more significant half: least significant first, r2' leads.
        return try e(k, Array(r2[0..<8]) + Array(r1[0..<8]))
    }

    // MARK: Internals, most significant byte first

    /// f5's SALT, most significant byte first.
    private static let salt: [UInt8] = [0x6C, 0x88, 0x83, 0x91, 0xAA, 0xF5, 0xA5, 0x38, 0x60, 0x37, 0x0B, 0xDB, 0x5A, 0x60, 0x83, 0xBE]

    private static func msb(_ value: [UInt8]) -> [UInt8] { value.reversed() }

    /// The 56-bit address field of f5 and f6: the type byte, then the address.
    private static func address56(_ address: BDAddress) -> [UInt8] { [address.kind.rawValue] + address.bytes }

    private static func check(_ function: String, _ argument: String, _ value: [UInt8], _ count: Int) throws(SMPCryptoError) {
        guard value.count == count else {
            throw SMPCryptoError(function: function, argument: argument, expected: count, actual: value.count)
        }
    }

    private static func aes(_ key: [UInt8], _ block: [UInt8]) throws(SMPCryptoError) -> [UInt8] {
        var out = block
        do {
            try AES.permute(&out, key: SymmetricKey(data: key))
        } catch {
            // Sizes are checked above, so AES has nothing left to refuse; say so if it does.
            throw SMPCryptoError(function: "AES-128", argument: "block", expected: 16, actual: block.count, detail: "\(error)")
        }
        return out
    }

    /// AES-CMAC with key, message and tag most significant byte first (RFC 4493 2.4).
    private static func cmacMSB(_ key: [UInt8], _ message: [UInt8]) throws(SMPCryptoError) -> [UInt8] {
        let l = try aes(key, [UInt8](repeating: 0, count: 16))
        let k1 = doubled(l)
        let k2 = doubled(k1)
        let blocks = max(1, (message.count + 15) / 16)
        let complete = !message.isEmpty && message.count % 16 == 0
        var last = Array(message[((blocks - 1) * 16)...])
        if complete {
            last = xor(last, k1)
        } else {
            last.append(0x80)
            last += [UInt8](repeating: 0, count: 16 - last.count)
            last = xor(last, k2)
        }
        var x = [UInt8](repeating: 0, count: 16)
        for i in 0..<(blocks - 1) { x = try aes(key, xor(x, Array(message[(i * 16)..<(i * 16 + 16)]))) }
        return try aes(key, xor(x, last))
    }

    private static func xor(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] { zip(a, b).map { $0 ^ $1 } }

    /// Doubling in GF(2^128), for the CMAC subkeys.
    private static func doubled(_ block: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 16)
        var carry: UInt8 = 0
        for i in stride(from: 15, through: 0, by: -1) {
            out[i] = block[i] << 1 | carry
            carry = block[i] >> 7
        }
        if block[0] & 0x80 != 0 { out[15] ^= 0x87 }
        return out
    }
}

/// An SMP function was given a value of the wrong length.
public struct SMPCryptoError: Error, Equatable, Sendable, CustomStringConvertible {
    public let function: String
    public let argument: String
    public let expected: Int
    public let actual: Int
    public var detail: String?

    public init(function: String, argument: String, expected: Int, actual: Int, detail: String? = nil) {
        self.function = function
        self.argument = argument
        self.expected = expected
        self.actual = actual
        self.detail = detail
    }

    public var description: String {
        "SMP \(function): \(argument) is \(actual) bytes, it must be \(expected)" + (detail.map { " (\($0))" } ?? "")
    }
}
