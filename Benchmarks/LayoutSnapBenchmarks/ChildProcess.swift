import Foundation
import LayoutSnapRunner
import LayoutSnapSystem

/// A child process run to completion with its wall time and peak memory (`wait4`'s rusage, which
/// Foundation's Process does not give). Output goes to files, read back for messages.
enum ChildProcess {
    struct Outcome {
        var status: Int32
        var seconds: Double
        var maxResidentKB: Int
        /// The program's CPU time, user and system (nil from a `peak-of` that did not write it).
        var cpuSeconds: Double?
        var stdoutLastLine: String
        var stderrTail: String
    }

    /// Runs `arguments` of `executable` through `peakOf`'s `peak-of` (layoutsnap-bench's), which reports
    /// the child's own peak. A child spawned straight from a large process is charged that
    /// process's resident size: Linux carries the old address space's high-water mark into the
    /// exec'd program's maximum (the benchmark at 200 MB made every child's peak 200 MB). The small
    /// `peak-of` in between starts it afresh.
    static func run(
        _ executable: String, _ arguments: [String], peakOf: String, environment: [String: String] = [:]
    ) throws(RunnerError) -> Outcome {
        let out = NSTemporaryDirectory() + "layoutsnap-child-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { for suffix in [".out", ".err", ".peak"] { try? Posix.unlink(out + suffix) } }
        let start = DispatchTime.now()
        let pid = try Spawn.start(peakOf, ["peak-of", out + ".peak", executable] + arguments, environment: environment)
        {
            actions in
            posix_spawn_file_actions_addopen(&actions, 1, out + ".out", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_addopen(&actions, 2, out + ".err", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        let (ending, usage) = try Spawn.wait(pid)
        let seconds = Stopwatch.seconds(since: start)
        let stdout = (try? String(contentsOfFile: out + ".out", encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOfFile: out + ".err", encoding: .utf8)) ?? ""
        // `peak-of` writes the child's peak and its own wall time: the program's time, without
        // starting `peak-of` itself (a large static binary, some 15 ms: a third of a warm verify).
        let fields = ((try? String(contentsOfFile: out + ".peak", encoding: .utf8)) ?? "").split(separator: " ")
        let peak = fields.first.flatMap { Int($0) }
        let number = { (n: Int) in
            fields.dropFirst(n).first.flatMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        return Outcome(
            status: ending.code, seconds: number(1) ?? seconds, maxResidentKB: peak ?? usage.ru_maxrss,
            cpuSeconds: number(2),
            stdoutLastLine: stdout.split(separator: "\n").last.map(String.init) ?? "",
            stderrTail: String(stderr.suffix(2000)))
    }
}

/// `layoutsnap-bench peak-of FILE PROGRAM ARGS...`: runs the program (its descriptors are this
/// process's), writes its peak resident memory in KB, its wall time in seconds (from spawn to
/// its end) and its CPU time in seconds (user and system) to FILE, and exits with its status.
public enum PeakOf {
    public static func run(peakFile: String, program: String, arguments: [String]) throws(RunnerError) -> Int32 {
        let start = DispatchTime.now()
        let pid = try Spawn.start(program, arguments) { _ in }
        let (ending, usage) = try Spawn.wait(pid)
        let seconds = Stopwatch.seconds(since: start)
        try? AtomicWriter.write(
            Array("\(usage.ru_maxrss) \(String(format: "%.6f %.6f", seconds, cpuSeconds(usage)))\n".utf8),
            to: peakFile, durable: false)
        return ending.code
    }

    /// User and system time of a `rusage`, in seconds.
    static func cpuSeconds(_ usage: rusage) -> Double {
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}

extension Spawn {
    /// Starts `executable` with `arguments` and this process's environment, under the spawn lock;
    /// `files` arranges the child's descriptors.
    static func start(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        files: (inout posix_spawn_file_actions_t) -> Void
    ) throws(RunnerError) -> pid_t {
        try withLock { () throws(RunnerError) in
            try startLocked(executable, arguments, environment: environment, files: files)
        }
    }
}
