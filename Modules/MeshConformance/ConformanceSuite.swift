import Foundation
import MeshCodec
import MeshTransport

/// The one suite every driver must pass. Link checks need a far side that answers the
/// `ConformanceCommand`s (MeshSim does); protocol checks need a radio (or
/// simulator) behind the link. Checks whose far side is missing are skipped, not passed.
public struct ConformanceSuite: Sendable {
    public typealias Factory = @Sendable () throws -> any Transport

    public let driverName: String
    public let url: String
    let linkKind: LinkKind
    let maxFrameSize: Int
    let makeTransport: Factory
    /// A URL of the same driver naming a device that does not exist.
    let missingURL: Factory?
    /// How many contacts the far side holds, when the caller prepared it (a simulator with a
    /// known mesh): the contact sync must then bring at least that many. Nil for a radio
    /// nobody prepared: the check takes what it holds.
    public var expectedContacts: Int?

    public init(driverName: String, url: String, linkKind: LinkKind, maxFrameSize: Int,
                makeTransport: @escaping Factory, missingDevice: Factory?) {
        self.driverName = driverName
        self.url = url
        self.linkKind = linkKind
        self.maxFrameSize = maxFrameSize
        self.makeTransport = makeTransport
        self.missingURL = missingDevice
    }

    public func run() async -> ConformanceReport {
        var checks: [ConformanceCheck] = []
        func record(_ name: String, _ body: () async throws -> String) async {
            let start = ContinuousClock.now
            var result = ConformanceCheck.Result.passed
            var detail = ""
            do {
                detail = try await body()
            } catch let skip as Skip {
                result = .skipped
                detail = skip.reason
            } catch {
                result = .failed
                detail = "\(error)"
            }
            let d = ContinuousClock.now - start
            checks.append(ConformanceCheck(name: name, result: result, seconds: Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18, detail: detail))
        }

        await record("open/close x100") { try await openCloseRepeatedly(100) }
        await record("missing device") { try await missingDevice() }
        let farSide = FarSide(suite: self)
        await record("echo command") { try await farSide.probe() }
        await record("frame sizes 1...max, both ways") { try await farSide.allSizes() }
        await record("burst of 1000 frames in order") { try await farSide.burst(1000) }
        await record("concurrent senders") { try await farSide.concurrentSenders(tasks: 8, each: 25) }
        await record("cancellation") { try await farSide.cancellation() }
        await record("garbage and truncated input") { try await farSide.garbage() }
        for (name, check) in ProtocolChecks.all {
            await record(name) { try await check(farSide, self) }
        }
        await record("link loss mid-frame") { try await farSide.lossMidFrame() }
        await farSide.close()
        await record("reconnect after loss") { try await reconnect() }

        return ConformanceReport(driver: driverName, url: url, passed: checks.filter { $0.result == .passed }.count,
                                 failed: checks.filter { $0.result == .failed }.count,
                                 skipped: checks.filter { $0.result == .skipped }.count, checks: checks)
    }

    private func openCloseRepeatedly(_ n: Int) async throws -> String {
        // One cycle first: what a driver sets up once per process (a timer thread's event
        // descriptor, a runtime cache) is not a leak; what grows with every cycle is.
        let warmUp = try makeTransport()
        try await warmUp.open()
        await warmUp.close()
        let fdsBefore = try openDescriptors()
        let rssBefore = try residentKiB()
        for _ in 0..<n {
            let t = try makeTransport()
            try await t.open()
            await t.close()
        }
        let fdsAfter = try openDescriptors()
        let rssAfter = try residentKiB()
        guard fdsAfter.count <= fdsBefore.count else {
            // Name what they point at (a socket, an eventfd, /dev/bus/usb/...): the author's first question.
            let new = fdsAfter.filter { fdsBefore[$0.key] != $0.value }.values.sorted()
            throw Failure("\(fdsAfter.count - fdsBefore.count) file descriptor(s) leaked over \(n) open/close cycles: \(new.joined(separator: ", "))")
        }
        // Allocator noise stays well below this; a per-open leak of a buffer would not.
        guard rssAfter - rssBefore < 16 * 1024 else { throw Failure("resident memory grew \(rssAfter - rssBefore) KiB over \(n) cycles") }
        return "fds \(fdsBefore.count) -> \(fdsAfter.count), RSS +\(max(0, rssAfter - rssBefore)) KiB"
    }

    private func missingDevice() async throws -> String {
        guard let missingURL else { throw Skip("no missing-device URL for this driver") }
        let t = try missingURL()
        do {
            try await t.open()
        } catch let e as TransportError {
            switch e {
            case .notFound, .refused, .timeout: return "\(e)"
            default: throw Failure("expected not found, got: \(e)")
            }
        }
        await t.close()
        throw Failure("opening \(t.url) succeeded")
    }

    /// A device that dropped its link may take a moment to come back (a USB radio is
    /// re-enumerated, a pty is made again): opening is retried for up to 5 s while the
    /// device is missing or refuses, as a client reconnecting after an unplug does.
    private func reconnect() async throws -> String {
        let deadline = ContinuousClock.now + .seconds(5)
        var attempts = 0
        while true {
            attempts += 1
            let s = FarSide(suite: self)
            do {
                _ = try await s.probe()
                await s.close()
                return "echo answered on a new link" + (attempts > 1 ? " (attempt \(attempts))" : "")
            } catch let error as TransportError {
                await s.close()
                switch error {
                case .notFound, .refused, .linkLost, .busy:
                    guard ContinuousClock.now < deadline else { throw error }
                    try await Task.sleep(for: .milliseconds(100))
                default:
                    throw error
                }
            } catch {
                await s.close()
                throw error
            }
        }
    }
}

struct Skip: Error { let reason: String; init(_ r: String) { reason = r } }
struct Failure: Error, CustomStringConvertible { let description: String; init(_ d: String) { description = d } }

/// The leak checks read procfs; without it they cannot run, and say so.
private func openDescriptors() throws -> [String: String] {
    do {
        var open: [String: String] = [:]
        for fd in try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            do {
                open[fd] = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")
            } catch {
                // Closed between listing and reading (the listing's own descriptor): not open.
                continue
            }
        }
        return open
    } catch {
        throw Failure("cannot count open descriptors in /proc/self/fd: \(error.localizedDescription)")
    }
}

private func residentKiB() throws -> Int {
    let status: String
    do {
        status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    } catch {
        throw Failure("cannot read /proc/self/status: \(error.localizedDescription)")
    }
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
          let kib = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
        throw Failure("no VmRSS line in /proc/self/status")
    }
    return kib
}
