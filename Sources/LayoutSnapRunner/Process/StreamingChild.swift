import Foundation
import LayoutSnapSystem

/// A child process whose stdout is read line by line with a deadline, so a parent can tell a
/// slow child from a hung one. stderr goes to a file, read back when the child dies.
final class StreamingChild {
    enum Read {
        case line(String)
        case timedOut, end
    }

    private let pid: pid_t
    private let readFD: Int32
    private let stderrPath: String
    private var buffer: [UInt8] = []
    private var ended = false

    init(_ executable: String, _ arguments: [String]) throws(RunnerError) {
        let stderrPath = NSTemporaryDirectory() + "layoutsnap-fuzz-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).err"
        // Under the spawn lock (Spawn.startPiped): a worker started by another thread must not
        // inherit this pipe's write end, or this reader would not see end-of-file until that
        // other worker exits too.
        let (pid, readFD) = try Spawn.startPiped(executable, arguments, childFD: 1, stderrPath: stderrPath)
        self.pid = pid
        self.readFD = readFD
        self.stderrPath = stderrPath
    }

    deinit {
        try? SystemCall.close(readFD)
        try? Posix.unlink(stderrPath)
    }

    /// The next line (without its newline), `.timedOut` when none came within `timeout` seconds,
    /// `.end` when the child closed its stdout. A last line without a newline is dropped: a
    /// worker writes each report in one piece, so it can only be a report cut by a crash.
    func readLine(timeout: Double) -> Read {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return .line(line)
            }
            if ended { return .end }
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { return .timedOut }
            var descriptor = pollfd(fd: readFD, events: Int16(POLLIN), revents: 0)
            let waitMs = Int32(min((deadline - now) / 1_000_000 + 1, 60_000))
            // EINTR goes round the loop, so the wait is worked out again from the deadline; any
            // other failure: the pipe cannot be read, as at its end.
            let ready: Int32
            do throws(SystemError) {
                ready = try Posix.poll(&descriptor, milliseconds: waitMs)
            } catch {
                if error.code != EINTR { ended = true }
                continue
            }
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n =
                (try? chunk.withUnsafeMutableBytes { buffer in
                    try Posix.read(readFD, into: buffer)
                }) ?? 0
            if n <= 0 {
                ended = true
                continue
            }
            buffer.append(contentsOf: chunk[..<n])
        }
    }

    func kill() { _ = Foundation.kill(pid, SIGKILL) }

    /// Waits for the child and says how it ended.
    func wait() throws(RunnerError) -> Spawn.Ending { try Spawn.wait(pid).ending }

    /// The start of what the child wrote to stderr: a crash's message and the top of its backtrace.
    var stderrHead: String {
        guard let data = FileManager.default.contents(atPath: stderrPath) else { return "" }
        return String(decoding: data.prefix(3000), as: UTF8.self)
    }
}
