/// A scenario that cannot be built: what is wrong and where (a JSON path such as
/// `nodes[3].via[0]`).
public struct ScenarioError: Error, Hashable, Sendable, CustomStringConvertible {
    public var location: String
    public var problem: String

    public init(_ location: String, _ problem: String) {
        self.location = location
        self.problem = problem
    }

    public var description: String { location.isEmpty ? problem : "\(location): \(problem)" }
}
