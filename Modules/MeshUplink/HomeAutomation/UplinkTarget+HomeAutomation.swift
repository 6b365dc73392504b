extension UplinkTarget {
    /// The `messages=on|off` and `commands=on|off` options (both off by default). Token auth is
    /// the community brokers' scheme: a community broker never gets the radio's private
    /// messages and is never subscribed to, so both are refused with it.
    static func homeAutomation(_ own: [String: String], auth: Auth, url: String) throws(UplinkError) -> (messages: Bool, commands: Bool) {
        let messages = try switchOption("messages", own, url: url)
        let commands = try switchOption("commands", own, url: url)
        if auth == .token, messages || commands {
            throw UplinkError.badOption(url: url, option: messages ? "messages" : "commands",
                                        reason: "token auth is for community brokers, which get neither the radio's messages nor commands; use a private broker with password auth")
        }
        return (messages, commands)
    }

    private static func switchOption(_ name: String, _ own: [String: String], url: String) throws(UplinkError) -> Bool {
        switch own[name] {
        case nil, "off": false
        case "on": true
        case let other?: throw UplinkError.badOption(url: url, option: name, reason: "\"\(other)\" is not on or off")
        }
    }
}
