import Foundation
import LayoutSnapSystem

/// The one place child processes are started and reaped (`fuzz`'s workers; the benchmarks'
/// record and verify): posix_spawn, because Foundation's Process cannot report a child's peak
/// memory and cannot wait with a deadline on its output.
package enum Spawn {
    /// Runs `body` with the spawn lock held: `startLocked` inside it, with the pipe ends made
    /// before and closed or marked close-on-exec after. Spawns are serialised, so that
    /// descriptors a caller is about to mark close-on-exec never leak into a child started by
    /// another thread.
    package static func withLock<T>(_ body: () throws(RunnerError) -> T) throws(RunnerError) -> T {
        try lock.withLock { () throws(RunnerError) in try body() }
    }

    /// `environment`: variables set (or replaced) in this process's environment for the child.
    package static func startLocked(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        files: (inout posix_spawn_file_actions_t) -> Void
    ) throws(RunnerError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        files(&actions)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        var envp: [UnsafeMutablePointer<CChar>?] = []
        if !environment.isEmpty {
            var variables = ProcessInfo.processInfo.environment
            variables.merge(environment) { $1 }
            envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        }
        defer { for p in envp { free(p) } }
        let status = envp.withUnsafeMutableBufferPointer { variables in
            posix_spawn(&pid, executable, &actions, nil, argv, variables.isEmpty ? environ : variables.baseAddress)
        }
        do throws(SystemError) {
            try SystemCall.checkReturned("posix_spawn", status)
        } catch {
            throw RunnerError.environment("cannot start \(executable): \(error.reason)")
        }
        return pid
    }

    /// Starts `executable` with one end of a new pipe as its descriptor `childFD` (0: it reads
    /// what the parent writes; 1: the parent reads what it writes), stderr into the file
    /// `stderrPath`, and any other standard descriptor from `files`; returns its pid and the
    /// parent's end, close-on-exec. Under the spawn lock: a child started by another thread must
    /// not inherit the parent's end, or one side would never see the pipe's end.
    package static func startPiped(
        _ executable: String, _ arguments: [String], childFD: Int32, stderrPath: String,
        files: (inout posix_spawn_file_actions_t) -> Void = { _ in }
    ) throws(RunnerError) -> (pid: pid_t, parentFD: Int32) {
        try withLock { () throws(RunnerError) -> (pid_t, Int32) in
            let ends: (read: Int32, write: Int32)
            do throws(SystemError) {
                ends = try Posix.pipe()
            } catch {
                throw RunnerError.environment("pipe failed: \(error.reason)")
            }
            let (childEnd, parentEnd) = childFD == 0 ? (ends.read, ends.write) : (ends.write, ends.read)
            defer { try? SystemCall.close(childEnd) }
            let pid: pid_t
            do throws(RunnerError) {
                pid = try startLocked(executable, arguments) { actions in
                    posix_spawn_file_actions_adddup2(&actions, childEnd, childFD)
                    posix_spawn_file_actions_addclose(&actions, ends.read)
                    posix_spawn_file_actions_addclose(&actions, ends.write)
                    files(&actions)
                    posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                }
            } catch {
                try? SystemCall.close(parentEnd)
                throw error
            }
            _ = fcntl(parentEnd, F_SETFD, FD_CLOEXEC)
            return (pid, parentEnd)
        }
    }

    private static let lock = Lock()

    /// How a child ended, from `waitpid`'s status (WIFEXITED and friends, spelled out: the C
    /// macros are not imported).
    package struct Ending: CustomStringConvertible {
        package var exitStatus: Int32?
        package var signal: Int32?

        init(waitStatus status: Int32) {
            if status & 0x7F == 0 {
                exitStatus = (status >> 8) & 0xFF
            } else {
                signal = status & 0x7F
            }
        }

        /// A shell's `$?`: the exit status, or 128 + the signal.
        package var code: Int32 { exitStatus ?? 128 + (signal ?? 0) }

        package var description: String {
            if let signal { return "was killed by signal \(signal) (\(String(cString: strsignal(signal))))" }
            return "exited with status \(exitStatus ?? -1)"
        }
    }

    /// Waits for `pid` (retrying on EINTR); the resource usage is the child's own (peak memory).
    package static func wait(_ pid: pid_t) throws(RunnerError) -> (ending: Ending, usage: rusage) {
        let status: Int32
        let usage: rusage
        do throws(SystemError) {
            (status, usage) = try Posix.wait4(pid)
        } catch {
            throw RunnerError.environment("wait4 failed: \(error.reason)")
        }
        return (Ending(waitStatus: status), usage)
    }
}
