import ArgumentParser
import MeshServices

/// How DMs are retried (`send`, `chat`): the Messenger's retry policy from the command line.
struct DeliveryOptions: ParsableArguments {
    @Option(help: "Attempts per DM in all; the last ones flood after a path reset.") var attempts = 3
    @Option(help: "Attempts sent along the known path before flooding.") var directAttempts = 2
    @Option(help: ArgumentHelp("Wait for an ACK this many times the radio's suggested timeout.", valueName: "factor"))
    var ackWait = 1.2

    func validate() throws {
        guard (1...8).contains(attempts) else { throw ValidationError("--attempts must be 1-8, not \(attempts)") }
        guard directAttempts >= 0 else { throw ValidationError("--direct-attempts must be 0 or more") }
        guard ackWait > 0, ackWait <= 20 else { throw ValidationError("--ack-wait must be more than 0 and at most 20, not \(ackWait)") }
    }

    var policy: RetryPolicy { RetryPolicy(maxAttempts: attempts, directAttempts: directAttempts, timeoutFactor: ackWait) }
}
