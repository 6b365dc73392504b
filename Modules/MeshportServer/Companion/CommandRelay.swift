import Logging
import MeshCodec
import MeshServices

/// Passes one external client's command to the radio through Meshport's own session, so it
/// waits its turn with Meshport's commands (one in flight per radio), and says what goes back
/// to that client. What the command changes is kept by MeshServices' `RelayedCommand` before
/// the answer is handed on.
struct CommandRelay: Sendable {
    let radio: ServedRadio
    let logger: Logger

    enum Answer: Sendable {
        /// Frames for the client that asked, in order.
        case frames([[UInt8]])
        /// Nothing to send back (no answer came; or a push answered it, and pushes go to every client).
        case none
        /// The radio's link is down: the client's connection is closed, as the radio's own would be.
        case linkDown
    }

    func answer(_ frame: [UInt8]) async -> Answer {
        let command: Command
        do {
            command = try Command(decoding: frame)
        } catch {
            // As the firmware answers a code or length it does not know.
            return encoded([.response(.error(.unsupportedCommand))])
        }
        let context: ServiceContext
        do {
            context = try await radio.ready()
        } catch {
            return .linkDown
        }
        let session = context.session
        do {
            let frames: [RadioFrame]
            switch command {
            case let .getContacts(since):
                frames = try await session.contactStream(since: since)
            case .reboot:
                // The radio reboots without answering: its silence is the expected outcome.
                do {
                    _ = try await session.exchange(command, timeout: .milliseconds(200))
                } catch SessionError.noAnswer {
                    return .none
                }
                return .none
            case .sendTelemetryRequest(nil, _):
                // Its own telemetry comes back as a push only, which every client gets anyway.
                let own = context.selfInfo.publicKey.prefix()
                _ = try await session.exchange(command, answeredByPush: { push in
                    if case let .telemetryResponse(prefix, _) = push { return prefix == own }
                    return false
                })
                return .none
            default:
                frames = try await session.exchange(command)
            }
            let radio = radio
            await RelayedCommand(context: context, client: radio.client).keep(command, answer: frames) { await radio.settingsChanged($0) }
            return encoded(frames.filter { if case .push = $0 { false } else { true } })
        } catch let SessionError.refused(_, _, error) {
            return encoded([.response(.error(error))])
        } catch let SessionError.linkClosed(command, link, reason) {
            logger.notice("companion: \(command) on \(link) lost with the link: \(reason)")
            return .linkDown
        } catch {
            // No answer in time, or one that does not decode: the client hears nothing, as
            // from a radio that stayed silent.
            logger.notice("companion: \(command.name) relayed without an answer: \(error)")
            return .none
        }
    }

    private func encoded(_ frames: [RadioFrame]) -> Answer {
        var out: [[UInt8]] = []
        for frame in frames {
            do {
                out.append(try frame.encode())
            } catch {
                logger.error("companion: \(frame.name) cannot be encoded again for the client: \(error)")
            }
        }
        return .frames(out)
    }
}
