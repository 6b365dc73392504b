/// A `/command` typed in `chat`.
enum ChatCommand: Equatable {
    case help, quit, contacts, channels, history
    case to(String)
    case channel(String)

    static let helpText = """
        Type a message and press return to send it to the current contact or channel.
          /to NAME       talk to a contact (name or key prefix)
          /channel N     talk on channel slot N (or its name)
          /contacts      list contacts
          /channels      list channels
          /history       show recent messages here again
          /help          this text
          /quit          leave (so does end of input, ctrl-D)
        """

    init(parsing text: String) throws {
        let words = text.split(separator: " ", maxSplits: 1).map(String.init)
        let argument = words.count > 1 ? words[1].trimmingCharacters(in: .whitespaces) : ""
        switch words.first ?? "" {
        case "/help", "/?": self = .help
        case "/quit", "/exit", "/q": self = .quit
        case "/contacts": self = .contacts
        case "/channels": self = .channels
        case "/history": self = .history
        case "/to", "/dm":
            guard !argument.isEmpty else { throw CLIError("/to needs a contact name") }
            self = .to(argument)
        case "/channel", "/ch":
            guard !argument.isEmpty else { throw CLIError("/channel needs a slot number or name") }
            self = .channel(argument)
        default:
            throw CLIError("unknown command \(words.first ?? text); /help lists them")
        }
    }
}
