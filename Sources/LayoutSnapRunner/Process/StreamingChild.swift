import Foundation

/// A child process whose stdout is read line by line with a deadline, so a parent can tell a
/// slow child from a hung one. stderr goes to a file, read back when the child dies.
final class StreamingChild {
    enum Read { case line(String), timedOut, end }

    /// How a child ended, as a person would say it.
    struct Ending: CustomStringConvertible {
        var exitStatus: Int32?
        var signal: Int32?
        var description: String {
            if let signal { return "was killed by signal \(signal) (\(String(cString: strsignal(signal))))" }
            return "exited with status \(exitStatus ?? -1) before its last case"
        }
    }

    private static let spawnLock = NSLock()
    private let pid: pid_t
    private let readFD: Int32
    private let stderrPath: String
    private var buffer: [UInt8] = []
    private var ended = false

    init(_ executable: String, _ arguments: [String]) throws(RunnerError) {
        var fds: [Int32] = [0, 0]
        // A worker started by another thread must not inherit this pipe's write end, or this
        // reader would not see end-of-file until that other worker exits too: pipes are made
        // and spawned one at a time, and the ends kept here are close-on-exec.
        Self.spawnLock.lock()
        defer { Self.spawnLock.unlock() }
        guard pipe(&fds) == 0 else { throw RunnerError.environment("pipe failed: \(String(cString: strerror(errno)))") }
        stderrPath = NSTemporaryDirectory() + "layoutsnap-fuzz-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).err"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addclose(&actions, fds[1])
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        close(fds[1])
        guard spawned == 0 else {
            close(fds[0])
            throw RunnerError.environment("cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        self.pid = pid
        readFD = fds[0]
    }

    deinit {
        close(readFD)
        unlink(stderrPath)
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
            let ready = poll(&descriptor, 1, waitMs)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { Foundation.read(readFD, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { ended = true; continue }
            buffer.append(contentsOf: chunk[..<n])
        }
    }

    func kill() { _ = Foundation.kill(pid, SIGKILL) }

    /// Waits for the child and says how it ended.
    func wait() -> Ending {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return Ending(exitStatus: nil, signal: nil) }
        }
        // WIFEXITED / WTERMSIG, spelled out (the C macros are not imported).
        if status & 0x7F == 0 { return Ending(exitStatus: (status >> 8) & 0xFF, signal: nil) }
        return Ending(exitStatus: nil, signal: status & 0x7F)
    }

    /// The start of what the child wrote to stderr: a crash's message and the top of its backtrace.
    var stderrHead: String {
        guard let data = FileManager.default.contents(atPath: stderrPath) else { return "" }
        return String(decoding: data.prefix(3000), as: UTF8.self)
    }
}
