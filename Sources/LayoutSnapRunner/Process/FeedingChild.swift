import Foundation
import LayoutSnapSystem

/// A child process fed through its stdin (`preview --export mp4` writes raw frames into ffmpeg):
/// stdout is discarded, stderr goes to a file, read back when the child fails.
final class FeedingChild {
    private let pid: pid_t
    private var writeFD: Int32
    private let stderrPath: String
    let executable: String

    init(_ executable: String, _ arguments: [String]) throws(RunnerError) {
        let stderrPath =
            NSTemporaryDirectory() + "layoutsnap-child-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).err"
        // A child that exits early must make our write fail (EPIPE), not kill us with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let (pid, writeFD) = try Spawn.startPiped(executable, arguments, childFD: 0, stderrPath: stderrPath) {
            posix_spawn_file_actions_addopen(&$0, 1, "/dev/null", O_WRONLY, 0)
        }
        self.pid = pid
        self.writeFD = writeFD
        self.stderrPath = stderrPath
        self.executable = executable
    }

    deinit {
        if writeFD >= 0 {
            try? SystemCall.close(writeFD)
            _ = kill(pid, SIGKILL)
            _ = try? Spawn.wait(pid)
        }
        try? Posix.unlink(stderrPath)
    }

    /// Writes all of `bytes` to the child's stdin; a child that has gone away is an error naming
    /// what it said.
    func write(_ bytes: UnsafeRawBufferPointer) throws(RunnerError) {
        do throws(SystemError) {
            try SystemCall.writeAll(writeFD, bytes)
        } catch {
            throw RunnerError.environment("\(executable) stopped reading its input: \(error.reason)\(stderrTail)")
        }
    }

    /// Closes the child's stdin and waits for it; anything but exit status 0 is an error with the
    /// end of its stderr.
    func finish() throws(RunnerError) {
        try? SystemCall.close(writeFD)
        writeFD = -1
        let ending = try Spawn.wait(pid).ending
        guard ending.exitStatus == 0 else {
            throw RunnerError.environment("\(executable) \(ending)\(stderrTail)")
        }
    }

    /// The last lines the child wrote to stderr, after a colon, or nothing.
    private var stderrTail: String {
        guard let data = FileManager.default.contents(atPath: stderrPath), !data.isEmpty else { return "" }
        let lines = String(decoding: data.suffix(2000), as: UTF8.self).split(separator: "\n").suffix(5)
        return ":\n" + lines.joined(separator: "\n")
    }

}
