import Foundation
import LayoutSnapCore
import LayoutSnapReport

/// `layoutsnap merge-reports`: the report folders of the shards of one verify (each with its
/// results.json and the images it wrote) joined into one folder, as if one run had covered every
/// fixture: one results.json, one index.html, one JUnit file.
public struct ReportMerger {
    public let inputs: [String]
    public let output: String
    /// A shard missing from the set is a warning instead of a failure.
    public let allowMissingShards: Bool

    public init(inputs: [String], output: String, allowMissingShards: Bool = false) {
        self.inputs = inputs
        self.output = output
        self.allowMissingShards = allowMissingShards
    }

    /// Merges the reports and writes the merged folder (results.json, index.html, images) and
    /// the extra result files; the merged run's exit code is `results.exitCode`, as a single
    /// run's would be, with a missing shard failing it.
    ///
    /// A merge that stops with an error leaves no results, an earlier merge's or its own first
    /// ones (`ResultFiles.withdraw`); the output folder is left alone when it cannot be used or
    /// is also an input.
    public func run(resultFiles: ResultFiles = ResultFiles()) throws(RunnerError) -> RunResults {
        do throws(RunnerError) {
            guard !inputs.isEmpty else { throw RunnerError.usage("merge-reports needs at least one report folder") }
            try OutputPaths.folder(output, option: "--out")
            try checkOutputIsNoInput()
        } catch {
            resultFiles.withdraw(report: nil)
            throw error
        }
        do {
            if let junit = resultFiles.junit { try OutputPaths.file(junit, option: "--junit") }
            if let json = resultFiles.json { try OutputPaths.file(json, option: "--json") }
            let results = try merge()
            try ReportBuilder(reportDirectory: output, goldens: "").write(results)
            try resultFiles.write(results, report: output)
            return results
        } catch {
            resultFiles.withdraw(report: output)
            throw error
        }
    }

    private func checkOutputIsNoInput() throws(RunnerError) {
        let outputAbsolute = URL(fileURLWithPath: output).standardizedFileURL.path
        for dir in inputs where URL(fileURLWithPath: dir).standardizedFileURL.path == outputAbsolute {
            throw RunnerError.usage("\(dir): the output folder cannot also be an input")
        }
    }

    public func merge() throws(RunnerError) -> RunResults {
        guard !inputs.isEmpty else { throw RunnerError.usage("merge-reports needs at least one report folder") }
        try checkOutputIsNoInput()
        var parts: [(dir: String, results: RunResults)] = []
        for dir in inputs {
            let path = dir + "/results.json"
            guard let data = FileManager.default.contents(atPath: path) else {
                throw RunnerError.usage("\(path): no such file (is \(dir) a verify report folder?)")
            }
            do {
                parts.append((dir, try ResultsJSON.decode(data)))
            } catch {
                throw RunnerError.input(
                    Diagnostic(.error, .input, file: path, path: error.path, message: error.message))
            }
        }

        var findings: [Finding] = []
        var owner: [String: String] = [:]
        var fixtures: [FixtureEntry] = []
        var differences: [String] = []
        for (dir, results) in parts {
            guard results.tool == "layoutsnap" else {
                throw RunnerError.usage("\(dir)/results.json was not written by layoutsnap")
            }
            for fixture in results.fixtures {
                if let other = owner[fixture.id] {
                    throw RunnerError.usage(
                        "fixture \(fixture.id) is in both \(other) and \(dir): were the shards run over the same fixtures with the same --shard N?"
                    )
                }
                owner[fixture.id] = dir
                fixtures.append(fixture)
            }
            // Each shard's own findings (its orphans, its environment) are the merged run's.
            for finding in results.findings where !findings.contains(finding) { findings.append(finding) }
            for d in results.environmentDifferences where !differences.contains(d) { differences.append(d) }
        }
        fixtures.sort { $0.id < $1.id }

        // Shards name themselves (`2/4`): say when a set is incomplete or mixed.
        // Each report names its shard (`2/4`), or the shards it joined (`1/4,2/4`): expand them.
        var shards: [Shard] = []
        var unnamed: [String] = []
        for (dir, results) in parts {
            let named =
                results.shard.map { $0.split(separator: ",").map { try? Shard.parse(String($0)).get() } } ?? [nil]
            if named.contains(where: { $0 == nil }) { unnamed.append(dir) } else { shards += named.compactMap { $0 } }
        }
        if !shards.isEmpty && !unnamed.isEmpty {
            findings.append(
                Finding(
                    kind: .mixedShards, severity: .failure,
                    message:
                        "\(unnamed.joined(separator: ", ")) \(Plural.word(unnamed.count, "is", "are")) not the report of a shard, the others are: the merged report cannot tell which fixtures it misses"
                ))
        } else if let n = shards.first?.count {
            if shards.contains(where: { $0.count != n }) {
                findings.append(
                    Finding(
                        kind: .mixedShards, severity: .failure,
                        message:
                            "the reports come from different splits (\(shards.map(\.description).joined(separator: ", "))): the merged report cannot tell which fixtures it misses"
                    ))
            } else {
                // A shard that died before uploading its report must not turn the merged run green.
                for i in (1...n) where !shards.contains(where: { $0.index == i }) {
                    findings.append(
                        Finding(
                            kind: .missingShard, severity: allowMissingShards ? .warning : .failure,
                            message: "shard \(i)/\(n) missing: the merged report does not cover its fixtures"
                                + (allowMissingShards
                                    ? " (--allow-missing-shards)" : " (pass --allow-missing-shards to accept that)"),
                            subject: "\(i)/\(n)"))
                }
            }
        }
        // Shards that planned differently (their fixtures or their layouts differed) may have
        // left a fixture in no shard at all: the merged run cannot pass.
        let plans = Set(parts.compactMap(\.results.shardPlan))
        if plans.count > 1 {
            findings.append(
                Finding(
                    kind: .mixedShards, severity: .failure,
                    message:
                        "the shards planned differently (plans \(plans.sorted().joined(separator: ", "))): a fixture may have run in no shard; run every shard over the same fixtures and the same layoutsnap"
                ))
        }
        let versions = Set(parts.map(\.results.version))
        if versions.count > 1 {
            findings.append(
                Finding(
                    kind: .versionMismatch, severity: .warning,
                    message:
                        "the shards ran different layoutsnap versions: \(versions.sorted().joined(separator: ", "))"))
        }

        // The images each shard wrote keep their relative paths (they are keyed by fixture id).
        // A report merged here before goes first, so no image of an older run is shown as this one's.
        let clearing = ReportBuilder(reportDirectory: output, goldens: "").clearPrevious()
        defer { clearing.wait() }
        let fm = FileManager.default
        for (dir, results) in parts {
            for fixture in results.fixtures {
                for state in fixture.states {
                    for frame in state.frames {
                        for relative in [frame.expected, frame.actual, frame.diff].compactMap({ $0 }) {
                            let target = output + "/" + relative
                            guard !relative.hasPrefix("/"), !relative.split(separator: "/").contains("..") else {
                                findings.append(
                                    Finding(
                                        kind: .missingImage, severity: .warning,
                                        message:
                                            "\(dir)/results.json names the image \(relative), outside its report folder; it is not copied",
                                        subject: relative))
                                continue
                            }
                            guard let data = fm.contents(atPath: dir + "/" + relative) else {
                                findings.append(
                                    Finding(
                                        kind: .missingImage, severity: .warning,
                                        message:
                                            "\(dir)/\(relative) is missing; the merged report shows the frame without it",
                                        subject: relative))
                                continue
                            }
                            // Report images can be made again: atomic, but not flushed one by one.
                            try AtomicFile.write([UInt8](data), to: target, durable: false)
                        }
                    }
                }
            }
        }

        let goldens = Set(parts.compactMap(\.results.goldens))
        let roots = Set(parts.compactMap(\.results.fixturesRoot))
        return RunResults(
            tool: "layoutsnap", version: parts[0].results.version, command: .verify,
            // The shards ran side by side: the longest is the wall-clock time.
            durationSeconds: parts.map(\.results.durationSeconds).max() ?? 0,
            environmentDifferences: differences, fixtures: fixtures, findings: findings,
            shard: shards.isEmpty ? nil : shards.map(\.description).joined(separator: ","),
            shardPlan: plans.count == 1 ? plans.first : nil,
            fixturesRoot: roots.count == 1 ? roots.first : nil, goldens: goldens.count == 1 ? goldens.first : nil)
    }
}
