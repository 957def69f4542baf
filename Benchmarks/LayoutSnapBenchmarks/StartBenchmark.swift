import Foundation
import LayoutSnapRunner
import LayoutSnapSystem

/// Whole processes that do little besides starting and ending, where a millisecond is a share
/// worth seeing: `--version`, `diff` of a golden with itself, and a warm `verify` of the suite
/// from a local cache folder. Each round runs every command once for this build and once for the
/// baseline, in turn (the order swapped every other round, so that neither always follows the
/// other); the figures are the fastest, the first quartile and the median of the rounds. On a
/// shared machine the fastest of a few runs, as the other benches take, cannot tell a millisecond
/// from a loud moment; the quartiles of many interleaved rounds can.
public struct StartBenchmark {
    public let executable: String
    public let peakOf: String
    public let rounds: Int
    public let fixtures: [String]
    public let goldens: String
    /// Another layoutsnap (say a build of main), run right before or after this one in each round.
    public let baseline: String?

    public init(
        executable: String, peakOf: String, rounds: Int, fixtures: [String] = [], goldens: String = "Goldens",
        baseline: String? = nil
    ) {
        self.executable = executable
        self.peakOf = peakOf
        self.rounds = rounds
        self.fixtures = fixtures
        self.goldens = goldens
        self.baseline = baseline
    }

    /// A command's times over the rounds, in seconds.
    public struct Times: Sendable {
        public var seconds: [Double] = []

        public var fastest: Double { seconds.min() ?? .nan }
        /// The time at least a quarter of the rounds took no longer than (nearest rank).
        public var firstQuartile: Double { Self.quantile(seconds, 0.25) }
        public var median: Double { Self.quantile(seconds, 0.5) }

        static func quantile(_ values: [Double], _ q: Double) -> Double {
            guard !values.isEmpty else { return .nan }
            let sorted = values.sorted()
            let rank = Int((q * Double(sorted.count)).rounded(.up)) - 1
            return sorted[min(max(rank, 0), sorted.count - 1)]
        }
    }

    public struct Figures: Sendable {
        /// The commands' names, in the order they ran.
        public var names: [String] = []
        public var times: [String: Times] = [:]
        public var baselineTimes: [String: Times] = [:]
        /// The golden `diff` compared with itself.
        public var diffed = ""
        /// The warm verify's summary line, this build's and the baseline's, from their last round.
        public var warmLine = ""
        public var baselineWarmLine = ""
        public var failures: [String] = []
    }

    public static let version = "--version"
    public static let diff = "diff, identical"
    public static let warm = "verify, warm"

    public func run(progress: (String) -> Void) throws(RunnerError) -> Figures {
        var f = Figures()
        let root = NSTemporaryDirectory() + "layoutsnap-bench-start-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        guard let golden = Self.largestGolden(in: goldens) else {
            throw RunnerError.usage("bench: no PNG under \(goldens): record the goldens first (layoutsnap record)")
        }
        f.diffed = golden
        // Each binary's own cache folder (their keys differ: the build id is in them) and report.
        func commands(_ tag: String) -> [(String, [String])] {
            [
                (Self.version, [Self.version]),
                (Self.diff, ["diff", golden, golden]),
                (
                    Self.warm,
                    ["verify"] + fixtures + [
                        "--goldens", goldens, "--no-progress", "--cache-audit", "0", "--cache", root + "/cache-" + tag,
                        "--report", root + "/report-" + tag, "--jobs", "2",
                    ]
                ),
            ]
        }
        var binaries = [(path: executable, tag: "this")]
        if let baseline { binaries.append((baseline, "baseline")) }
        f.names = commands("this").map(\.0)
        // Each command run twice untimed: the first fills the warm cache folder, the second is
        // the warm-up (the page cache holds the binary and the goldens).
        progress("filling the cache folders")
        for (binary, tag) in binaries {
            for (name, arguments) in commands(tag) {
                for _ in 0..<2 {
                    let out = try ChildProcess.run(binary, arguments, peakOf: peakOf)
                    if out.status != 0 {
                        throw RunnerError.environment(
                            "bench: \(binary) \(name) exited \(out.status): \(out.stderrTail.suffix(300))")
                    }
                }
            }
        }
        for round in 0..<rounds {
            if round % 10 == 0 { progress("round \(round + 1) of \(rounds)") }
            let order = round % 2 == 0 ? binaries : binaries.reversed()
            for index in f.names.indices {
                for (binary, tag) in order {
                    let (name, arguments) = commands(tag)[index]
                    let out = try ChildProcess.run(binary, arguments, peakOf: peakOf)
                    // A run that failed, or a warm verify that rendered, is not the figure's:
                    // it is named, and left out of the times.
                    if out.status != 0 {
                        f.failures.append("\(tag) \(name): exit \(out.status): \(out.stderrTail.suffix(300))")
                        continue
                    }
                    if name == Self.warm {
                        let passed = out.stdoutLastLine.split(separator: " ").first.flatMap { Int($0) }
                        guard let passed, CacheBenchmark.fromCache(out.stdoutLastLine) == passed else {
                            f.failures.append("\(tag) \(name): not every frame from the cache: \(out.stdoutLastLine)")
                            continue
                        }
                    }
                    if tag == "baseline" {
                        f.baselineTimes[name, default: Times()].seconds.append(out.seconds)
                        if name == Self.warm { f.baselineWarmLine = out.stdoutLastLine }
                    } else {
                        f.times[name, default: Times()].seconds.append(out.seconds)
                        if name == Self.warm { f.warmLine = out.stdoutLastLine }
                    }
                }
            }
        }
        return f
    }

    /// The largest PNG under `folder` (by bytes, then path): the most a `diff` of two equal files reads.
    static func largestGolden(in folder: String) -> String? {
        let paths =
            FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".png") } ?? []
        let sized = paths.compactMap { path -> (String, Int)? in
            let full = folder + "/" + path
            guard let size = (try? FileManager.default.attributesOfItem(atPath: full))?[.size] as? Int else {
                return nil
            }
            return (full, size)
        }
        return sized.max { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 > $1.0 }?.0
    }
}
