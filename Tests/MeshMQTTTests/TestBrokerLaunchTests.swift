import Foundation
import Glibc
import MeshportTestSupport
import Testing

/// The test broker's start (Tests/Support/MosquittoLaunch.swift) when a port it was given is
/// taken by another listener, as another test's server may take it: mosquitto binds the
/// ports before it, fails on that one and exits. Both ports accept connections for a moment;
/// the start must still fail, saying why, rather than hand back a broker that is gone.
@Suite struct TestBrokerLaunchTests {
    @Test func aTakenPortIsReportedNotMistakenForTheBroker() async throws {
        let taken = try listeningSocket()
        defer { close(taken.fd) }
        let folder = TempDir()
        let free = try freeLoopbackPort()
        let config = """
            allow_anonymous true
            log_dest file \(folder.path("mosquitto.log"))
            log_type all
            listener \(free) 127.0.0.1
            listener \(taken.port) 127.0.0.1

            """
        try Data((mosquittoUserLine + config).utf8).write(to: folder.url.appendingPathComponent("mosquitto.conf"))
        do {
            let process = try await launchMosquitto(folder: folder, ports: [free, taken.port])
            process.terminate()
            Issue.record("mosquitto was taken for running on a port another listener holds")
        } catch let failure as ProcessFailure {
            #expect(failure.description.contains("exited") && failure.description.contains("Address already in use"), "\(failure)")
        }
    }

    @Test func aBrokerOnFreePortsIsRunning() async throws {
        let broker = try await MosquittoProcess()
        try await publishWithTool(broker, topic: "test/launch", text: "up")
    }
}

/// A socket listening on a free loopback port, as another test's server would be.
private func listeningSocket() throws -> (fd: Int32, port: UInt16) {
    for _ in 0..<20 {
        let port = try freeLoopbackPort()
        guard let fd = try boundLoopbackSocket(port: port) else { continue }   // taken meanwhile: another port
        if listen(fd, 4) == 0 { return (fd, port) }
        close(fd)
    }
    throw ProcessFailure("no loopback port could be listened on in 20 tries")
}
