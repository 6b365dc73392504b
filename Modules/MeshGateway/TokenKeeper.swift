import Foundation

/// When a gateway's token must be made again: at a fixed share of its lifetime (80% unless told
/// otherwise), so a new one is in hand well before the broker would refuse the old one, and
/// at once when there is none or the clock says it already expired.
public struct TokenKeeper: Sendable {
    public let renewalShare: Double
    private let now: @Sendable () -> Date

    /// `renewalShare` is the part of the lifetime after which a token is renewed (0 < share ≤ 1);
    /// `now` tells the time (the system clock unless a test gives another).
    public init(renewalShare: Double = 0.8, now: @escaping @Sendable () -> Date = { Date() }) throws(GatewayError) {
        guard renewalShare > 0, renewalShare <= 1 else { throw .badRenewalShare(renewalShare) }
        self.renewalShare = renewalShare
        self.now = now
    }

    /// The moment `token` should be replaced.
    public func renewalTime(of token: GatewayToken) -> Date {
        let lifetime = Double(token.expiresAt - token.issuedAt)
        return Date(timeIntervalSince1970: Double(token.issuedAt) + lifetime * renewalShare)
    }

    public func needsRenewal(_ token: GatewayToken?) -> Bool {
        guard let token else { return true }
        return now() >= renewalTime(of: token)
    }

    /// How long until `token` needs renewing; zero when it already does.
    public func delayUntilRenewal(of token: GatewayToken) -> Duration {
        let seconds = renewalTime(of: token).timeIntervalSince(now())
        return seconds > 0 ? .milliseconds(Int64((seconds * 1000).rounded(.up))) : .zero
    }
}
