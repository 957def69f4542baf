import Foundation
import LayoutSnapSystem

/// A program a test runs: the built `layoutsnap`, a validator (python, xmllint, pngfix) or a
/// browser. Its standard output and error are pipes that a thread of its own drains while it
/// runs, so neither can fill up and block it (and, pipes not being files, a file size limit the
/// program runs under does not cut them); its standard input is empty unless given. `run` waits
/// for the end; `start` hands back the running process for the tests that signal it, race it or
/// read its output while it runs.
public final class TestProcess {
    public struct Output: Sendable {
        /// The exit status, or the signal's number when a signal ended it.
        public var status: Int32
        public var stdout: String
        public var stderr: String
        /// It was still running after the timeout and was killed.
        public var timedOut: Bool
        public var seconds: Double
        public var output: String { stdout + stderr }
    }

    private let process = Process()
    private let drain: Drain
    private let started = Date()
    private let exited = DispatchSemaphore(value: 0)
    private var input: URL?
    private var finished: Output?

    /// Runs `executable` to its end and returns what it printed. `environment` is laid over this
    /// process's own, without the variables named in `removing`; `stdin` is what it reads (nothing
    /// when nil). Still running after `timeout` seconds, it gets SIGTERM, then SIGKILL.
    public static func run(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil,
        environment: [String: String] = [:], removing: [String] = [], stdin: Data? = nil,
        timeout: TimeInterval = 120
    ) throws -> Output {
        try start(executable, arguments, in: directory, environment: environment, removing: removing, stdin: stdin)
            .wait(timeout: timeout)
    }

    /// Starts `executable` as `run` does and returns at once.
    public static func start(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil,
        environment: [String: String] = [:], removing: [String] = [],
        stdin: Data? = nil
    ) throws -> TestProcess {
        try TestProcess(
            executable, arguments, in: directory, environment: environment, removing: removing, stdin: stdin)
    }

    /// `XDG_CACHE_HOME` of the programs the tests run, unless a test gives its own.
    public static let cacheHome = FileManager.default.temporaryDirectory.appendingPathComponent(
        "layoutsnap-tests-cache-\(getuid())"
    ).path

    private init(
        _ executable: URL, _ arguments: [String], in directory: URL?, environment: [String: String],
        removing: [String], stdin: Data?
    ) throws {
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var env = ProcessInfo.processInfo.environment
        // The programs' per-user memos (the fonts' hashes and faces) go to the tests' own folder,
        // shared by every run of the suite, not to the user's ~/.cache.
        env["XDG_CACHE_HOME"] = Self.cacheHome
        for key in removing { env.removeValue(forKey: key) }
        env.merge(environment) { $1 }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        if let stdin {
            // A file, not a pipe: nothing has to feed it while the program runs.
            let folder = try makeTemporaryFolder("stdin")
            input = folder
            try stdin.write(to: folder.appendingPathComponent("stdin"))
            process.standardInput = try FileHandle(forReadingFrom: folder.appendingPathComponent("stdin"))
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        let exited = exited
        process.terminationHandler = { _ in exited.signal() }
        drain = Drain(out.fileHandleForReading, err.fileHandleForReading)
        do {
            try process.run()
        } catch {
            drain.stop()
            if let input { removeTemporaryFolder(input) }
            throw error
        }
        drain.start()
    }

    deinit {
        if finished == nil {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            drain.stop()
        }
        if let input { removeTemporaryFolder(input) }
    }

    public var processIdentifier: Int32 { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }

    /// What it has printed so far (standard output, then standard error).
    public var outputSoFar: String {
        let (out, err) = drain.soFar
        return String(decoding: out, as: UTF8.self) + String(decoding: err, as: UTF8.self)
    }

    /// Sends `signal` (SIGKILL to crash it mid-write, SIGTERM to stop a watch).
    public func signal(_ signal: Int32) {
        if process.isRunning { kill(process.processIdentifier, signal) }
    }

    /// Waits for the end, killing it after `timeout` seconds; later calls return the same output.
    /// Output that processes it started write after it ended (a browser's helpers keep its pipes)
    /// is read for two seconds more, then left.
    @discardableResult
    public func wait(timeout: TimeInterval = 120) -> Output {
        if let finished { return finished }
        var timedOut = false
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            process.terminate()
            if exited.wait(timeout: .now() + 2) == .timedOut {
                kill(process.processIdentifier, SIGKILL)
                exited.wait()
            }
        }
        process.waitUntilExit()
        let (out, err) = drain.finish(grace: 2)
        let output = Output(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self), timedOut: timedOut,
            seconds: Date().timeIntervalSince(started))
        finished = output
        return output
    }
}

/// Reads two pipes into memory on a thread of its own until both end or it is told to stop.
private final class Drain: Sendable {
    private struct State {
        var data = [Data(), Data()]
        var stopping = false
        var started = false
    }

    private let handles: [FileHandle]
    private let state = LockedValue(State())
    private let done = DispatchSemaphore(value: 0)

    init(_ out: FileHandle, _ err: FileHandle) {
        handles = [out, err]
    }

    func start() {
        state.withLock { $0.started = true }
        Thread.detachNewThread { self.run() }
    }

    var soFar: (Data, Data) {
        state.withLock { ($0.data[0], $0.data[1]) }
    }

    /// Waits up to `grace` seconds for both pipes to end, then stops reading.
    func finish(grace: TimeInterval) -> (Data, Data) {
        if done.wait(timeout: .now() + grace) == .timedOut {
            stop()
        } else {
            done.signal()
        }
        return soFar
    }

    /// Stops reading and closes the pipes.
    func stop() {
        let running = state.withLock { s in
            s.stopping = true
            return s.started
        }
        guard running else {
            for handle in handles { try? handle.close() }
            return
        }
        done.wait()
        done.signal()
    }

    private func run() {
        var open = [0, 1]
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !open.isEmpty && !isStopping {
            var polls = open.map { pollfd(fd: handles[$0].fileDescriptor, events: Int16(POLLIN), revents: 0) }
            // A tenth of a second at most, so that a stop is seen soon.
            guard poll(&polls, nfds_t(polls.count), 100) > 0 else { continue }
            for (slot, entry) in zip(open, polls) where entry.revents != 0 {
                let count = read(entry.fd, &buffer, buffer.count)
                if count > 0 {
                    let piece = buffer[0..<count]
                    state.withLock { $0.data[slot].append(contentsOf: piece) }
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    open.removeAll { $0 == slot }
                }
            }
        }
        for handle in handles { try? handle.close() }
        done.signal()
    }

    private var isStopping: Bool { state.withLock { $0.stopping } }
}
