import ArgumentParser
import Foundation
import LayoutSnapCore
import LayoutSnapReport
import LayoutSnapRunner

struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write valid, varied fixtures from a seed (the same seed always writes the same bytes).",
        discussion:
            "Fixture i of a kind goes to OUT/<kind>/<kind>-<i, 6 digits>.json and depends only on the seed, the kind and i: a smaller --count writes a prefix of a larger one. --kind all spreads the count over the kinds in turn. Files of an earlier, larger batch of the same kinds are removed."
    )

    @Option(
        help:
            "\(FixtureKind.allCases.map(\.rawValue).joined(separator: ", ")), or all (the count spread over every kind).",
        completion: .list(FixtureKind.allCases.map(\.rawValue) + ["all"]))
    var kind: String

    @Option(help: "How many fixtures, 1 to 1,000,000.")
    var count: Int

    @Option(help: "The seed, a whole number from 0 to 18446744073709551615.")
    var seed: String

    @Option(help: "The output folder.")
    var out: String

    @Option(help: "Threads (default: all cores).")
    var jobs: Int = BatchRunner.defaultJobs

    static let kindNames = FixtureKind.allCases.map(\.rawValue) + ["all"]

    var kinds: [FixtureKind] { kind == "all" ? FixtureKind.allCases : FixtureKind(rawValue: kind).map { [$0] } ?? [] }

    func validate() throws {
        guard Self.kindNames.contains(kind) else {
            throw ValidationError(
                "unknown kind \"\(kind)\"; expected one of: \(Self.kindNames.joined(separator: ", "))")
        }
        guard (1...FixtureGenerator.maxCount).contains(count) else {
            throw ValidationError("--count must be from 1 to \(FixtureGenerator.maxCount), found \(count)")
        }
        _ = try ArgumentChecks.seed(seed)
        try ArgumentChecks.jobs(jobs)
        guard !out.isEmpty else { throw ValidationError("--out needs a folder") }
    }

    func run() throws {
        try Diagnostics.run {
            let summary = try GeneratedBatch.write(
                kinds: kinds, count: count, seed: try ArgumentChecks.seed(seed), to: out, jobs: jobs)
            let counts = summary.counts.map { "\($0.count) \($0.kind.rawValue)" }.joined(separator: ", ")
            Diagnostics.out("generated \(Plural.count(summary.total, "fixture")) (\(counts)) in \(out)")
            return .passed
        }
    }
}
