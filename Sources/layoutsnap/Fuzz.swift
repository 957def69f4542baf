import ArgumentParser
import Foundation
import LayoutSnapCore
import LayoutSnapReport
import LayoutSnapRunner

struct Fuzz: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuzz",
        abstract:
            "Run hostile mutations of valid fixtures through the whole pipeline; report crashes, hangs and unclear errors.",
        discussion: """
            Each case mutates one of the fixtures under PATH (default Fixtures/): truncated or flipped bytes, wrong \
            types, huge, negative and non-finite numbers, values on and past the limits, deep nesting, invalid UTF-8, \
            lone surrogates, megabyte words, hostile text, unknown kinds, steps and fields. It is decoded, laid out, \
            every frame rendered, one frame PNG round-tripped. A case must render, or fail with an error naming the \
            file and the JSON path (line and column for broken JSON), or be stopped by the --timeout watchdog. \
            Cases run in worker processes: a crash or a hang costs one case, which is written to --findings with a \
            note and a replay command. Case i depends only on the seed, i and the base fixtures. \
            Exit 0 when there is no crash, hang or unclear error, 1 otherwise.
            """)

    @Argument(help: "Fixture files or folders to mutate (default: Fixtures).")
    var paths: [String] = []

    @Option(help: "How many cases.")
    var cases: Int = 10_000

    @Option(help: "The first case's number (to replay one case: --from N --cases 1).")
    var from: Int = 0

    @Option(help: "The seed, a whole number from 0 to 18446744073709551615.")
    var seed: String = "1"

    @Option(help: "Worker processes (default: all cores).")
    var jobs: Int = BatchRunner.defaultJobs

    @Option(help: "Seconds a case may take before the watchdog stops it.")
    var timeout: Double = 20

    @Option(
        help:
            "Seconds without a result before a case counts as a hang and its worker is killed (default: 3 x --timeout + 10)."
    )
    var hangAfter: Double?

    @Option(
        help:
            "Folder for the cases that crash, hang, give an unclear error or are stopped by the watchdog (default: fuzz-findings)."
    )
    var findings: String = "fuzz-findings"

    @Flag(help: "No progress bar, even on a terminal.")
    var noProgress = false

    @Flag(help: .hidden)
    var worker = false

    func validate() throws {
        guard cases >= 1 else { throw ValidationError("--cases must be 1 or more") }
        guard from >= 0 else { throw ValidationError("--from must be 0 or more") }
        _ = try ArgumentChecks.seed(seed)
        try ArgumentChecks.jobs(jobs)
        guard timeout > 0, timeout.isFinite else {
            throw ValidationError("--timeout must be a positive number of seconds")
        }
        if let hangAfter {
            guard hangAfter > 0, hangAfter.isFinite else {
                throw ValidationError("--hang-after must be a positive number of seconds")
            }
        }
    }

    func run() throws {
        try Diagnostics.run {
            if worker {
                try FuzzCampaign.work(
                    paths: paths.isEmpty ? ["Fixtures"] : paths, seed: try ArgumentChecks.seed(seed), from: from,
                    cases: cases, timeout: timeout)
                return .passed
            }
            var options = FuzzCampaign.Options(executable: Self.executable, paths: paths.isEmpty ? ["Fixtures"] : paths)
            options.seed = try ArgumentChecks.seed(seed)
            options.from = from
            options.cases = cases
            options.jobs = jobs
            options.timeout = timeout
            options.hangSeconds = hangAfter ?? 3 * timeout + 10
            options.findings = findings
            let campaign = try FuzzCampaign(options: options)
            let progress = ProgressBar(label: "fuzz", enabled: !noProgress)
            let f = try campaign.run(progress: progress.update)
            for finding in f.findings where finding.kind != .stopped {
                Diagnostics.err(
                    "\(finding.kind.rawValue): case \(finding.index) (\(finding.mutations) on \(finding.base)): \(finding.detail.split(separator: "\n").first ?? "")"
                )
                if let file = finding.file { Diagnostics.err("  written to \(file)") }
            }
            Diagnostics.out(Self.table(f))
            Diagnostics.out(Self.summary(f, bases: campaign.baseCount, seed: options.seed))
            return f.crashes + f.hangs + f.unclear == 0 ? .passed : .failed
        }
    }

    /// How each mutation's cases ended, so a run shows what it exercised.
    static func table(_ f: FuzzCampaign.Figures) -> String {
        let columns = FuzzOutcome.Kind.allCases.map(\.rawValue) + ["crash", "hang"]
        var lines = [
            "mutation".padding(toLength: 17, withPad: " ", startingAt: 0) + columns.map { $0.leftPadded(10) }.joined()
        ]
        for (name, counts) in f.byMutation.sorted(by: { $0.key < $1.key }) {
            lines.append(
                name.padding(toLength: 17, withPad: " ", startingAt: 0)
                    + columns.map { String(counts[$0] ?? 0).leftPadded(10) }.joined())
        }
        return lines.joined(separator: "\n")
    }

    static func summary(_ f: FuzzCampaign.Figures, bases: Int, seed: UInt64) -> String {
        let c = { (k: FuzzOutcome.Kind) in f.counts[k] ?? 0 }
        return
            "fuzz: \(Plural.count(f.total, "case")) from \(Plural.count(bases, "fixture")) (seed \(seed)): "
            + "\(c(.rendered)) rendered (\(Plural.count(f.frames, "frame"))), "
            + "\(c(.rejected)) rejected naming file and place, \(c(.stopped)) stopped by the watchdog; "
            + "\(Plural.count(f.crashes, "crash", "crashes")), \(Plural.count(f.hangs, "hang")), "
            + "\(Plural.count(f.unclear, "unclear error")) in \(String(format: "%.1f", f.seconds)) s"
    }

    /// This binary, for the workers: argv[0] may be a bare name found on PATH.
    static var executable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
