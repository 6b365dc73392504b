import Foundation
import Hummingbird

/// Routes that exist only with `meshport serve --test-hooks` (tests and benchmarks): synthetic
/// events at a chosen rate, to load the events stream without a radio that could make them.
extension Served {
    struct SyntheticEvents: Decodable {
        let count: Int
        /// Events per second; nil: as fast as they can be published.
        let perSecond: Double?
    }

    func addTestHooks(to router: Router<APIRequestContext>) {
        router.post("/api/test/events") { request, _ in
            let ask = try await self.body(SyntheticEvents.self, request)
            guard (1...1_000_000).contains(ask.count) else { throw APIError.badRequest("count must be 1 to 1,000,000") }
            let start = ContinuousClock.now
            for n in 0..<ask.count {
                if let rate = ask.perSecond, rate > 0 {
                    let due = start + .seconds(Double(n) / rate)
                    if due > .now { try await Task.sleep(until: due) }
                }
                self.publisher.broadcaster.publish(#"{"text":"\#(n)","type":"test"}"#)
            }
            return try self.json(OKJSON())
        }
    }
}
