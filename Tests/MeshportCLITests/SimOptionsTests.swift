import Testing
@testable import MeshportCLI

/// `meshport sim`'s serial speed (`--baud`, Modules/MeshSimServe/LineRate.swift): only on a pty
/// of one radio, only at a speed a UART runs at; the refusal names the option.
@Suite struct SimOptionsTests {
    @Test func baudNeedsAPtyAndASerialSpeed() throws {
        _ = try Sim.parse(["--pty", "--baud", "115200"])
        for (arguments, said) in [(["--baud", "115200"], "--baud needs --pty"),
                                  (["--pty", "--radios", "2", "--baud", "9600"], "--baud needs --pty"),
                                  (["--pty", "--baud", "12"], "--baud 12: a serial line runs at 300 to 12000000 Bd")] {
            #expect {
                _ = try Sim.parse(arguments)
            } throws: { error in
                Sim.message(for: error).contains(said)
            }
        }
    }
}
