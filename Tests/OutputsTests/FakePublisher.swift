import Dispatch
import FLV
import Foundation
import RTMP
import Synchronization
@testable import Outputs

/// A scripted RTMP server for `RTMPOutput`'s publish loop: each connection attempt takes the next
/// scripted answer, and every call the output makes is recorded in order.
final class FakeServer: Sendable {
    enum Answer: Sendable {
        /// Nothing listens (cheap failure).
        case refuse
        /// Handshake done, publish refused (expensive failure).
        case rejectPublish
        /// Publish accepted; the connection fails after `sends` messages (nil: never).
        case accept(failAfterSends: Int?)
        /// The connect blocks until `release()`, then is accepted.
        case hang
    }

    enum Event: Equatable, Sendable {
        case connect
        case send(type: UInt8, timestamp: UInt32)
        case cancel
        case close
    }

    private struct State {
        var script: [Answer]
        /// What happens once the script is used up.
        var fallback: Answer
        var events: [Event] = []
        var sendsLeft: Int?
        var cancelled = false
    }

    private let state: Mutex<State>
    private let hangRelease = DispatchSemaphore(value: 0)
    /// While set, every send blocks (a congested link) until `unstall()`.
    private let stalled = Mutex(false)
    private let stallRelease = DispatchSemaphore(value: 0)

    func stall() { stalled.withLock { $0 = true } }

    func unstall() {
        stalled.withLock { $0 = false }
        stallRelease.signal()
    }

    init(_ script: [Answer], then fallback: Answer = .accept(failAfterSends: nil)) {
        state = Mutex(State(script: script, fallback: fallback))
    }

    var events: [Event] { state.withLock { $0.events } }
    var connects: Int { events.filter { $0 == .connect }.count }

    func release() { hangRelease.signal() }

    /// The URL of each publisher made, in order (the output's, or where a reconnect request sent it).
    var urls: [String] { madeFor.withLock { $0 } }
    private let madeFor = Mutex<[String]>([])

    var factory: StreamPublisherFactory {
        { url in
            self.madeFor.withLock { $0.append(url.unredactedForLibrtmp) }
            return FakePublisher(server: self)
        }
    }

    /// The next `takeReconnectRequest` of any of its publishers returns this request, once.
    func askToReconnect(tcUrl: String?) { request.withLock { $0 = RTMPReconnectRequest(tcUrl: tcUrl, description: nil) } }
    func takeReconnectRequest() -> RTMPReconnectRequest? { request.withLock { $0.take() } }
    private let request = Mutex<RTMPReconnectRequest?>(nil)

    func connect() throws(RTMPError) {
        let answer = state.withLock { state -> Answer in
            state.events.append(.connect)
            return state.script.isEmpty ? state.fallback : state.script.removeFirst()
        }
        switch answer {
        case .refuse: throw RTMPError(kind: .connectionRefused, url: "rtmp://fake/live/****")
        case .rejectPublish: throw RTMPError(kind: .publishRejected(reason: "denied"), url: "rtmp://fake/live/****")
        case .accept(let limit): state.withLock { $0.sendsLeft = limit }
        case .hang:
            hangRelease.wait()
            if state.withLock({ $0.cancelled }) {
                throw RTMPError(kind: .cancelled, url: "rtmp://fake/live/****")
            }
            state.withLock { $0.sendsLeft = nil }
        }
    }

    func send(_ message: RTMPMediaMessage) throws(RTMPError) {
        if stalled.withLock({ $0 }) {
            stallRelease.wait()
            stallRelease.signal()
        }
        let failed = state.withLock { state -> Bool in
            if let left = state.sendsLeft {
                if left == 0 { return true }
                state.sendsLeft = left - 1
            }
            state.events.append(.send(type: message.type.rawValue, timestamp: message.timestamp))
            return false
        }
        if failed { throw RTMPError(kind: .serverClosed, url: "rtmp://fake/live/****") }
    }

    func close() { state.withLock { $0.events.append(.close) } }

    /// As librtmp's socket being shut down: a hanging connect fails at once.
    func cancel() {
        state.withLock { state in
            state.events.append(.cancel)
            state.cancelled = true
        }
        hangRelease.signal()
    }
}

final class FakePublisher: StreamPublisher {
    let server: FakeServer
    init(server: FakeServer) { self.server = server }
    func connect() throws(RTMPError) { try server.connect() }
    func send(_ message: RTMPMediaMessage) throws(RTMPError) { try server.send(message) }
    func close() { server.close() }
    func cancelConnect() { server.cancel() }
    var connectionWatch: RTMPConnectionWatch? { nil }
    func takeReconnectRequest() -> RTMPReconnectRequest? { server.takeReconnectRequest() }
}

/// Waits up to `seconds` for `condition`, checking every 5 ms.
func eventually(within seconds: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(5_000)
    }
    return condition()
}
