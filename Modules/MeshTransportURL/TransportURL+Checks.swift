/// Checks a driver may run on its URLs; each error quotes the bad part.
extension TransportURL {
    /// The authority as `host[:port]` or `[v6-address][:port]`. An empty host is allowed here:
    /// whether a scheme needs one is the driver's rule.
    public func hostAndPort() throws(TransportURLError) -> (host: String, port: Int?) {
        var hostPart = Substring(authority)
        var portPart: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw invalid(authority, "unclosed IPv6 bracket") }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") { portPart = after.dropFirst() } else if !after.isEmpty {
                throw invalid(String(after), "unexpected text after the address")
            }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portPart = authority[authority.index(after: colon)...]
        }
        var port: Int?
        if let portPart {
            guard let p = Int(portPart), (1...65535).contains(p) else { throw invalid(String(portPart), "port must be 1-65535") }
            port = p
        }
        return (String(hostPart), port)
    }

    /// Refuses a query parameter not in `names`, listing those that are.
    public func allowParameters(_ names: Set<String>) throws(TransportURLError) {
        for (name, _) in query where !names.contains(name) {
            throw invalid(name, "unknown parameter for \(scheme); known: \(names.sorted().joined(separator: ", "))")
        }
    }

    /// An error on this URL quoting `part` (the whole URL when the fault is not in one part).
    public func invalid(_ part: String, _ reason: String) -> TransportURLError {
        TransportURLError(text, part: part, reason: reason)
    }
}
