/// The Prometheus text exposition format (0.0.4) read strictly, as a scraper does: `# HELP` and
/// `# TYPE` at most once per family and before its samples, every sample of a declared family
/// (a histogram's `_bucket`, `_sum` and `_count` included), label values with only the three
/// escapes, values that are numbers. A line that breaks a rule throws, naming it.
struct PrometheusExposition {
    struct Sample: Sendable {
        let name: String
        let labels: [String: String]
        let value: Double
    }

    private(set) var types: [String: String] = [:]
    private(set) var helps: [String: String] = [:]
    private(set) var samples: [Sample] = []

    init(_ text: String) throws {
        guard text.isEmpty || text.hasSuffix("\n") else { throw TestFailure("the exposition does not end with a line feed") }
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().enumerated() {
            let at = "line \(index + 1) (\(line))"
            if line.hasPrefix("# HELP ") || line.hasPrefix("# TYPE ") {
                let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
                guard parts.count == 4, Self.isMetricName(parts[2]) else { throw TestFailure("\(at): a HELP or TYPE line needs a name and a text") }
                let name = String(parts[2])
                guard !samples.contains(where: { family(of: $0.name) == name }) else { throw TestFailure("\(at): after samples of \(name)") }
                if parts[1] == "HELP" {
                    guard helps.updateValue(String(parts[3]), forKey: name) == nil else { throw TestFailure("\(at): HELP twice") }
                } else {
                    guard ["counter", "gauge", "histogram", "summary", "untyped"].contains(parts[3]) else { throw TestFailure("\(at): unknown type") }
                    guard types.updateValue(String(parts[3]), forKey: name) == nil else { throw TestFailure("\(at): TYPE twice") }
                }
            } else if line.hasPrefix("#") || line.isEmpty {
                continue
            } else {
                let sample = try Self.sample(line, at: at)
                guard types[family(of: sample.name)] != nil else { throw TestFailure("\(at): no TYPE for \(sample.name)") }
                samples.append(sample)
            }
        }
    }

    /// The family a sample belongs to: a histogram's series carry a suffix.
    func family(of sample: String) -> String {
        for suffix in ["_bucket", "_sum", "_count"] where sample.hasSuffix(suffix) {
            let base = String(sample.dropLast(suffix.count))
            if types[base] == "histogram" { return base }
        }
        return sample
    }

    /// The samples named `name` whose labels include `labels`.
    func values(_ name: String, _ labels: [String: String] = [:]) -> [Double] {
        samples.filter { sample in sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value } }.map(\.value)
    }

    /// The one sample named `name` with `labels`, nil when there is none.
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        let found = values(name, labels)
        return found.count == 1 ? found[0] : nil
    }

    private static func sample(_ line: Substring, at: String) throws -> Sample {
        var rest = line[...]
        let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" }
        guard isMetricName(name) else { throw TestFailure("\(at): no metric name") }
        rest = rest.dropFirst(name.count)
        var labels: [String: String] = [:]
        if rest.first == "{" {
            rest = rest.dropFirst()
            while rest.first != "}" {
                let label = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                guard let head = label.first, !head.isNumber, rest.dropFirst(label.count).hasPrefix("=\"") else {
                    throw TestFailure("\(at): a label needs name=\"value\"")
                }
                rest = rest.dropFirst(label.count + 2)
                var value = ""
                while true {
                    guard let c = rest.popFirst(), c != "\n" else { throw TestFailure("\(at): label \(label) is not closed") }
                    if c == "\"" { break }
                    if c == "\\" {
                        switch rest.popFirst() {
                        case "\\": value.append("\\")
                        case "\"": value.append("\"")
                        case "n": value.append("\n")
                        default: throw TestFailure("\(at): label \(label) has an escape other than \\\\, \\\" or \\n")
                        }
                    } else {
                        value.append(c)
                    }
                }
                guard labels.updateValue(value, forKey: String(label)) == nil else { throw TestFailure("\(at): label \(label) twice") }
                if rest.first == "," { rest = rest.dropFirst() } else if rest.first != "}" { throw TestFailure("\(at): labels not separated by commas") }
            }
            rest = rest.dropFirst()
        }
        guard rest.first == " " else { throw TestFailure("\(at): no space before the value") }
        let fields = rest.dropFirst().split(separator: " ")
        guard (1...2).contains(fields.count), let value = number(fields[0]) else { throw TestFailure("\(at): the value is not a number") }
        if fields.count == 2, Int64(fields[1]) == nil { throw TestFailure("\(at): the timestamp is not whole milliseconds") }
        return Sample(name: String(name), labels: labels, value: value)
    }

    private static func number(_ text: Substring) -> Double? {
        switch text {
        case "+Inf": .infinity
        case "-Inf": -.infinity
        case "NaN": .nan
        default: Double(text)
        }
    }

    private static func isMetricName(_ name: Substring) -> Bool {
        guard let first = name.first, !first.isNumber else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ":") }
    }
}
