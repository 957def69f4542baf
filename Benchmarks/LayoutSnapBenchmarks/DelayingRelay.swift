import Foundation
import LayoutSnapSystem

/// A TCP relay on loopback that holds every chunk it reads for `delay` before passing it on, each
/// way: a server `2 x delay` away, as a team's cache server across a network is (loopback has no
/// latency, and `tc netem` needs a kernel module and a capability a CI machine may lack). Chunks
/// keep their order; bandwidth is loopback's.
final class DelayingRelay: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let upstream: UInt16
    private let delay: UInt64

    /// nil when no loopback port can be had.
    init?(to upstream: UInt16, delayMilliseconds: Int) {
        guard let (listener, port) = try? SystemCall.listenOnLoopback(port: 0) else { return nil }
        self.listener = listener
        self.port = port
        self.upstream = upstream
        delay = UInt64(delayMilliseconds) * 1_000_000
        Thread.detachNewThread { [self] in
            while let client = try? SystemCall.acceptConnection(listener) {
                guard let server = try? SystemCall.connect(host: "127.0.0.1", port: upstream, milliseconds: 2000)
                else {
                    try? SystemCall.close(client)
                    continue
                }
                // Each side closed once both directions have ended.
                let ends = LockedValue(0)
                let end: @Sendable () -> Void = {
                    guard
                        ends.withLock({
                            $0 += 1
                            return $0
                        }) == 2
                    else { return }
                    // Shut first: a read still waiting on either wakes.
                    shutdown(client, Int32(SHUT_RDWR))
                    shutdown(server, Int32(SHUT_RDWR))
                    try? SystemCall.close(client)
                    try? SystemCall.close(server)
                }
                relay(from: client, to: server, then: end)
                relay(from: server, to: client, then: end)
            }
        }
    }

    /// Stops taking connections (those open go on until their ends close them).
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        try? SystemCall.close(listener)
    }

    /// One direction: a thread reads and stamps each chunk, another writes it once its time has
    /// come; the end of the input is passed on as the end of the output, as late.
    private func relay(from source: Int32, to target: Int32, then end: @escaping @Sendable () -> Void) {
        let held = Held()
        let delay = delay
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let n = buffer.withUnsafeMutableBytes { (try? SystemCall.receive(source, into: $0)) ?? 0 }
                held.put(DispatchTime.now().uptimeNanoseconds + delay, n > 0 ? Array(buffer[0..<n]) : nil)
                if n <= 0 { return }
            }
        }
        Thread.detachNewThread {
            while true {
                let (due, bytes) = held.take()
                let now = DispatchTime.now().uptimeNanoseconds
                if due > now { usleep(useconds_t((due - now) / 1000)) }
                guard let bytes else {
                    SystemCall.shutdownWriting(target)
                    end()
                    return
                }
                let sent = bytes.withUnsafeBytes { buffer in
                    Result { () throws(SystemError) in try SystemCall.sendAll(target, buffer) }
                }
                if case .failure = sent {
                    end()
                    return
                }
            }
        }
    }

    /// Chunks in the order they came, each with the time it may go; nil bytes: the end.
    private final class Held: @unchecked Sendable {
        private let condition = NSCondition()
        private var chunks: [(due: UInt64, bytes: [UInt8]?)] = []

        func put(_ due: UInt64, _ bytes: [UInt8]?) {
            condition.lock()
            chunks.append((due, bytes))
            condition.signal()
            condition.unlock()
        }

        func take() -> (due: UInt64, bytes: [UInt8]?) {
            condition.lock()
            defer { condition.unlock() }
            while chunks.isEmpty { condition.wait() }
            return chunks.removeFirst()
        }
    }
}
