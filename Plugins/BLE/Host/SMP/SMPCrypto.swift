import _CryptoExtras
import Crypto

/// The Security Manager's cryptographic functions (Core Vol 3 Part H 2.2). Every value is a
/// byte array written most significant byte first, as the specification writes them (and its
/// sample data); SMP PDUs carry them least significant byte first, so `SMPInitiator` reverses
/// them at the PDU boundary and nowhere else.
public enum SMPCrypto {
    /// e: AES-128 of one block.
    public static func e(_ key: [UInt8], _ plaintext: [UInt8]) -> [UInt8] {
        precondition(key.count == 16 && plaintext.count == 16, "e takes a 128-bit key and block")
        var block = plaintext
        do {
            try AES.permute(&block, key: SymmetricKey(data: key))
        } catch {
            // Only a key or block of the wrong size fails, which the precondition rules out.
            preconditionFailure("AES-128 refused a 16-byte key and block: \(error)")
        }
        return block
    }

    /// AES-CMAC (RFC 4493) with a 128-bit key.
    public static func cmac(_ key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        let l = e(key, [UInt8](repeating: 0, count: 16))
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
        for i in 0..<(blocks - 1) { x = e(key, xor(x, Array(message[(i * 16)..<(i * 16 + 16)]))) }
        return e(key, xor(x, last))
    }

    /// f4(U, V, X, Z): LE Secure Connections confirm values.
    public static func f4(_ u: [UInt8], _ v: [UInt8], _ x: [UInt8], _ z: UInt8) -> [UInt8] {
        cmac(x, u + v + [z])
    }

    /// f5(W, N1, N2, A1, A2): MacKey and LTK from the DHKey. A1 and A2 are 56 bits: the
    /// address type byte, then the address.
    public static func f5(_ w: [UInt8], _ n1: [UInt8], _ n2: [UInt8], _ a1: [UInt8], _ a2: [UInt8]) -> (macKey: [UInt8], ltk: [UInt8]) {
        let salt: [UInt8] = [0x6C, 0x88, 0x83, 0x91, 0xAA, 0xF5, 0xA5, 0x38, 0x60, 0x37, 0x0B, 0xDB, 0x5A, 0x60, 0x83, 0xBE]
        let t = cmac(salt, w)
        let keyID: [UInt8] = [0x62, 0x74, 0x6C, 0x65]  // "btle"
        let tail = keyID + n1 + n2 + a1 + a2 + [0x01, 0x00]  // Length = 256 bits
        return (cmac(t, [0x00] + tail), cmac(t, [0x01] + tail))
    }

    /// f6(W, N1, N2, R, IOcap, A1, A2): DHKey check values. IOcap is AuthReq, OOB flag, IO capability.
    public static func f6(_ w: [UInt8], _ n1: [UInt8], _ n2: [UInt8], _ r: [UInt8], _ ioCap: [UInt8], _ a1: [UInt8], _ a2: [UInt8]) -> [UInt8] {
        cmac(w, n1 + n2 + r + ioCap + a1 + a2)
    }

    /// g2(U, V, X, Y): the numeric comparison value (six decimal digits are its value mod 10^6).
    public static func g2(_ u: [UInt8], _ v: [UInt8], _ x: [UInt8], _ y: [UInt8]) -> UInt32 {
        let mac = cmac(x, u + v + y)
        return mac[12...].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// ah(k, r): the hash of a resolvable private address (24 bits).
    public static func ah(_ k: [UInt8], _ r: [UInt8]) -> [UInt8] {
        precondition(r.count == 3, "ah takes a 24-bit prand")
        return Array(e(k, [UInt8](repeating: 0, count: 13) + r)[13...])
    }

    /// c1: legacy pairing confirm values. `preq` and `pres` are the Pairing Request and Response
    /// PDUs as sent (code first); `ia`/`ra` addresses as written, `iat`/`rat` their types.
    public static func c1(_ k: [UInt8], _ r: [UInt8], preq: [UInt8], pres: [UInt8], iat: UInt8, rat: UInt8, ia: [UInt8], ra: [UInt8]) -> [UInt8] {
        // p1 = pres || preq || rat' || iat', each PDU with its code as least significant byte.
        let p1 = Array(pres.reversed()) + Array(preq.reversed()) + [rat, iat]
        let p2 = [UInt8](repeating: 0, count: 4) + ia + ra
        return e(k, xor(e(k, xor(r, p1)), p2))
    }

    /// s1: the legacy short-term key from both random values (their least significant 64 bits).
    public static func s1(_ k: [UInt8], _ r1: [UInt8], _ r2: [UInt8]) -> [UInt8] {
        e(k, Array(r1[8...]) + Array(r2[8...]))
    }

    static func xor(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] { zip(a, b).map { $0 ^ $1 } }

    /// Doubling in GF(2^128) for the CMAC subkeys.
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
