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
                // Once both directions have written their end, both sockets are shut, which
                // wakes a read still waiting; they are closed once all four threads are done,
                // so that no thread uses a number the system has since given another socket.
                let done = LockedValue((writers: 0, readers: 0))
                let end: @Sendable (_ writer: Bool) -> Void = { writer in
                    let now = done.withLock {
                        if writer { $0.writers += 1 } else { $0.readers += 1 }
                        return $0
                    }
                    if writer && now.writers == 2 {
                        shutdown(client, Int32(SHUT_RDWR))
                        shutdown(server, Int32(SHUT_RDWR))
                    }
                    if now.writers == 2 && now.readers == 2 {
                        try? SystemCall.close(client)
                        try? SystemCall.close(server)
                    }
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
    private func relay(from source: Int32, to target: Int32, then end: @escaping @Sendable (_ writer: Bool) -> Void) {
        let held = Held()
        let delay = delay
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let n = buffer.withUnsafeMutableBytes { (try? SystemCall.receive(source, into: $0)) ?? 0 }
                held.put(DispatchTime.now().uptimeNanoseconds + delay, n > 0 ? Array(buffer[0..<n]) : nil)
                if n <= 0 {
                    end(false)
                    return
                }
            }
        }
        Thread.detachNewThread {
            while true {
                let (due, bytes) = held.take()
                let now = DispatchTime.now().uptimeNanoseconds
                if due > now { usleep(useconds_t((due - now) / 1000)) }
                guard let bytes else {
                    SystemCall.shutdownWriting(target)
                    end(true)
                    return
                }
                let sent = bytes.withUnsafeBytes { buffer in
                    Result { () throws(SystemError) in try SystemCall.sendAll(target, buffer) }
                }
                if case .failure = sent {
                    end(true)
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
