import Foundation
import LayoutSnapCore
import LayoutSnapReport

/// `layoutsnap merge-reports`: the report folders of the shards of one verify (each with its
/// results.json and the images it wrote) joined into one folder, as if one run had covered every
/// fixture: one results.json, one index.html, one JUnit file.
public struct ReportMerger {
    public let inputs: [String]
    public let output: String

    public init(inputs: [String], output: String) { self.inputs = inputs; self.output = output }

    public struct Merged: Sendable {
        public var results: RunResults
        /// Things a reader should know (a shard missing from a complete set, different versions).
        public var warnings: [String]
    }

    public func merge() throws(RunnerError) -> Merged {
        guard !inputs.isEmpty else { throw RunnerError.usage("merge-reports needs at least one report folder") }
        let outputAbsolute = URL(fileURLWithPath: output).standardizedFileURL.path
        var parts: [(dir: String, results: RunResults)] = []
        for dir in inputs {
            guard URL(fileURLWithPath: dir).standardizedFileURL.path != outputAbsolute else {
                throw RunnerError.usage("\(dir): the output folder cannot also be an input")
            }
            let path = dir + "/results.json"
            guard let data = FileManager.default.contents(atPath: path) else {
                throw RunnerError.usage("\(path): no such file (is \(dir) a verify report folder?)")
            }
            do {
                parts.append((dir, try ResultsJSON.decode(data)))
            } catch {
                throw RunnerError.usage("\(path): \(error.path): \(error.message)")
            }
        }

        var warnings: [String] = []
        var owner: [String: String] = [:]
        var fixtures: [FixtureEntry] = []
        var summary = Summary()
        var differences: [String] = []
        for (dir, results) in parts {
            guard results.tool == "layoutsnap" else { throw RunnerError.usage("\(dir)/results.json was not written by layoutsnap") }
            for fixture in results.fixtures {
                if let other = owner[fixture.id] {
                    throw RunnerError.usage("fixture \(fixture.id) is in both \(other) and \(dir): were the shards run over the same fixtures with the same --shard N?")
                }
                owner[fixture.id] = dir
                fixtures.append(fixture)
            }
            summary.passed += results.summary.passed
            summary.similar += results.summary.similar
            summary.failed += results.summary.failed
            summary.missing += results.summary.missing
            summary.errors += results.summary.errors
            summary.frames += results.summary.frames
            for d in results.environmentDifferences where !differences.contains(d) { differences.append(d) }
        }
        fixtures.sort { $0.id < $1.id }

        // Shards name themselves (`2/4`): say when a set is incomplete or mixed.
        let shards = parts.compactMap { $0.results.shard.flatMap { try? Shard.parse($0).get() } }
        if shards.count == parts.count, let n = shards.first?.count {
            if shards.contains(where: { $0.count != n }) {
                warnings.append("the reports come from different splits (\(shards.map(\.description).joined(separator: ", ")))")
            } else {
                let missing = (1...n).filter { i in !shards.contains { $0.index == i } }
                if !missing.isEmpty {
                    warnings.append("shard\(missing.count == 1 ? "" : "s") \(missing.map { "\($0)/\(n)" }.joined(separator: ", ")) missing: the merged report does not cover every fixture")
                }
            }
        }
        let versions = Set(parts.map(\.results.version))
        if versions.count > 1 { warnings.append("the shards ran different layoutsnap versions: \(versions.sorted().joined(separator: ", "))") }

        // The images each shard wrote keep their relative paths (they are keyed by fixture id).
        // A report merged here before goes first, so no image of an older run is shown as this one's.
        ReportBuilder(reportDirectory: output, goldens: "").clearPrevious()
        let fm = FileManager.default
        for (dir, results) in parts {
            for fixture in results.fixtures {
                for state in fixture.states {
                    for frame in state.frames {
                        for relative in [frame.expected, frame.actual, frame.diff].compactMap({ $0 }) {
                            let target = output + "/" + relative
                            guard !relative.hasPrefix("/"), !relative.split(separator: "/").contains("..") else {
                                warnings.append("\(dir)/results.json names the image \(relative), outside its report folder; it is not copied")
                                continue
                            }
                            guard let data = fm.contents(atPath: dir + "/" + relative) else {
                                warnings.append("\(dir)/\(relative) is missing; the merged report shows the frame without it")
                                continue
                            }
                            // Report images can be made again: atomic, but not flushed one by one.
                            try AtomicFile.write([UInt8](data), to: target, durable: false)
                        }
                    }
                }
            }
        }

        let merged = RunResults(tool: "layoutsnap", version: parts[0].results.version, command: "verify",
                                // The shards ran side by side: the longest is the wall-clock time.
                                durationSeconds: parts.map(\.results.durationSeconds).max() ?? 0,
                                summary: summary, environmentDifferences: differences, fixtures: fixtures,
                                shard: shards.isEmpty ? nil : shards.map(\.description).joined(separator: ","))
        return Merged(results: merged, warnings: warnings)
    }
}
