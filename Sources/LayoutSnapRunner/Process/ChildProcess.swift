import Foundation

/// A child process run to completion with its wall time and peak memory (`wait4`'s rusage, which
/// Foundation's Process does not give). Output goes to files, read back for messages.
enum ChildProcess {
    struct Outcome {
        var status: Int32
        var seconds: Double
        var maxResidentKB: Int
        var stdoutLastLine: String
        var stderrTail: String
    }

    static func run(_ executable: String, _ arguments: [String]) throws(RunnerError) -> Outcome {
        let out = NSTemporaryDirectory() + "layoutsnap-child-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { unlink(out + ".out"); unlink(out + ".err") }
        let start = DispatchTime.now()
        let pid = try Spawn.start(executable, arguments) { actions in
            posix_spawn_file_actions_addopen(&actions, 1, out + ".out", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_addopen(&actions, 2, out + ".err", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        let (ending, usage) = try Spawn.wait(pid)
        let seconds = GenerationBenchmark.seconds(since: start)
        let stdout = (try? String(contentsOfFile: out + ".out", encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOfFile: out + ".err", encoding: .utf8)) ?? ""
        return Outcome(status: ending.code, seconds: seconds, maxResidentKB: usage.ru_maxrss,
                       stdoutLastLine: stdout.split(separator: "\n").last.map(String.init) ?? "",
                       stderrTail: String(stderr.suffix(2000)))
    }
}
