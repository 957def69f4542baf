import Foundation
import LayoutSnapRunner
import LayoutSnapCore

/// The bulk figures of `layoutsnap-bench` (targets: generating 10,000 fixtures in under 10 s, and
/// verifying 1,000 unchanged generated fixtures in under 300 MB): generation is timed in process;
/// record and verify run as child processes of this same binary, so the peak memory is the
/// verify's own (`wait4`'s maximum resident set), not the benchmark's.
public struct GenerationBenchmark {
    /// The `layoutsnap` binary whose record and verify are measured.
    public let executable: String
    /// The program whose `peak-of` runs each child (layoutsnap-bench).
    public let peakOf: String
    public let generateCount: Int
    public let verifyCount: Int
    /// Suite sizes whose verify peaks are compared (memory flat in the number of fixtures:
    /// 10,000 under 1.3x of 1,000); empty skips the comparison.
    public let memoryCounts: [Int]

    public init(executable: String, peakOf: String, generateCount: Int, verifyCount: Int, memoryCounts: [Int] = []) {
        self.executable = executable
        self.peakOf = peakOf
        self.generateCount = generateCount
        self.verifyCount = verifyCount
        self.memoryCounts = memoryCounts
    }

    /// One suite size's verify: fixtures, frames, seconds and peak resident memory.
    public struct MemoryFigure: Sendable {
        public var fixtures = 0
        public var frames = 0
        public var seconds = 0.0
        public var peakMB = 0.0
        public var exit: Int32 = 0
    }

    public struct Figures: Sendable {
        public var generated = 0
        public var generatedBytes = 0
        public var generateSeconds = 0.0
        public var verified = 0
        public var frames = 0
        public var recordSeconds = 0.0
        public var verifySeconds = 0.0
        public var verifyPeakMB = 0.0
        public var verifyExit: Int32 = 0
        public var memory: [MemoryFigure] = []
    }

    public func run(progress: (String) -> Void) throws(RunnerError) -> Figures {
        var f = Figures()
        let root = NSTemporaryDirectory() + "layoutsnap-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let kinds = FixtureKind.allCases

        progress("generating \(generateCount) fixtures")
        let start = DispatchTime.now()
        let summary = try GeneratedBatch.write(kinds: kinds, count: generateCount, seed: 1, to: root + "/generated")
        f.generateSeconds = Stopwatch.seconds(since: start)
        f.generated = summary.total
        f.generatedBytes = summary.bytes
        try? FileManager.default.removeItem(atPath: root + "/generated")

        let fixtures = root + "/fixtures"
        let goldens = root + "/goldens"
        f.verified = try GeneratedBatch.write(kinds: kinds, count: verifyCount, seed: 2, to: fixtures).total
        progress("recording \(verifyCount) generated fixtures")
        let record = try ChildProcess.run(
            executable,
            ["record", fixtures, "--goldens", goldens, "--allow-ci", "--no-progress", "--quiet", "--no-cache"],
            peakOf: peakOf)
        guard record.status == 0 else {
            throw RunnerError.environment(
                "bench: recording the generated fixtures failed (exit \(record.status)): \(record.stderrTail)")
        }
        f.recordSeconds = record.seconds
        progress("verifying \(verifyCount) generated fixtures")
        let verify = try ChildProcess.run(
            executable,
            [
                "verify", fixtures, "--goldens", goldens, "--no-progress", "--no-cache", "--report", root + "/report",
                "--json", root + "/results.json",
            ], peakOf: peakOf)
        f.verifySeconds = verify.seconds
        f.verifyPeakMB = Double(verify.maxResidentKB) / 1024
        f.verifyExit = verify.status
        if let line = verify.stdoutLastLine.split(separator: " ").first, let passed = Int(line) { f.frames = passed }

        // Memory flat in the number of fixtures: each size recorded and verified on its own
        // (its own manifest), at a quarter of the scale and 5 frames a second so that 10,000
        // fixtures take minutes, not an hour; what grows with the suite is the same at any scale.
        for count in memoryCounts {
            let folder = root + "/memory-\(count)"
            let small = ["--scale", "0.25", "--fps", "5"]
            var figure = MemoryFigure()
            figure.fixtures = try GeneratedBatch.write(kinds: kinds, count: count, seed: 2, to: folder + "/fixtures")
                .total
            progress("recording \(count) generated fixtures at scale 0.25, 5 fps")
            let record = try ChildProcess.run(
                executable,
                [
                    "record", folder + "/fixtures", "--goldens", folder + "/goldens", "--allow-ci", "--no-cache",
                    "--no-progress", "--quiet",
                ] + small, peakOf: peakOf)
            guard record.status == 0 else {
                throw RunnerError.environment(
                    "bench: recording the generated fixtures failed (exit \(record.status)): \(record.stderrTail)")
            }
            progress("verifying \(count) generated fixtures")
            let verify = try ChildProcess.run(
                executable,
                [
                    "verify", folder + "/fixtures", "--goldens", folder + "/goldens", "--no-progress", "--no-cache",
                    "--report", folder + "/report",
                ] + small, peakOf: peakOf)
            figure.seconds = verify.seconds
            figure.peakMB = Double(verify.maxResidentKB) / 1024
            figure.exit = verify.status
            if let line = verify.stdoutLastLine.split(separator: " ").first, let passed = Int(line) {
                figure.frames = passed
            }
            f.memory.append(figure)
            try? FileManager.default.removeItem(atPath: folder)
        }
        return f
    }
}
