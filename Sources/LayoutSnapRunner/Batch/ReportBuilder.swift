import Foundation
import LayoutSnapReport

/// Turns a verify run into the report folder (SPEC §8): `results.json`, `index.html`, and the
/// images a reader needs: actual and diff images of frames that are not plain passes (written by
/// the verify handler) and, for every state with such a frame, each frame's golden copied in, so
/// the page can scrub the whole animation from disk with no other folder.
public struct ReportBuilder {
    public let reportDirectory: String
    public let goldens: String

    public init(reportDirectory: String, goldens: String) {
        self.reportDirectory = reportDirectory; self.goldens = goldens
    }

    /// Removes what an earlier verify left in the report folder, and only that: only when the
    /// folder holds a layoutsnap results.json, so `--report .` or a folder of the user's own never
    /// loses an `actual/` or `diff/` that layoutsnap did not write.
    public func clearPrevious() {
        guard let data = FileManager.default.contents(atPath: reportDirectory + "/results.json"),
              let previous = try? ResultsJSON.decode(data), previous.tool == "layoutsnap" else { return }
        for item in ["actual", "expected", "diff", "index.html", "results.json"] {
            try? FileManager.default.removeItem(atPath: reportDirectory + "/" + item)
        }
    }

    /// The run as one value: every fixture's frames with their verdicts, plus the run's
    /// findings. Report images (expected copies) are placed for verify's states that need them.
    public func results(_ fixtures: [FixtureResult], command: String = "verify", findings: [Finding] = [],
                        environmentDifferences: [String] = [], durationSeconds: Double, version: String,
                        fixturesRoot: String? = nil) -> RunResults {
        var entries: [FixtureEntry] = []
        for f in fixtures {
            var states: [StateEntry] = []
            var byState: [(String, [FrameResult])] = []
            for frame in f.frames {
                if byState.last?.0 == frame.state { byState[byState.count - 1].1.append(frame) } else { byState.append((frame.state, [frame])) }
            }
            for (name, frames) in byState {
                let showImages = command == "verify" && frames.contains { $0.status != .passed }
                states.append(StateEntry(name: name, frames: frames.map { entry($0, showImages: showImages) }))
            }
            entries.append(FixtureEntry(id: f.ref.id, file: f.ref.displayPath, diagnostic: f.error, states: states))
        }
        return RunResults(tool: "layoutsnap", version: version, command: command, durationSeconds: durationSeconds,
                          environmentDifferences: environmentDifferences, fixtures: entries, findings: findings,
                          fixturesRoot: fixturesRoot, goldens: goldens.isEmpty ? nil : goldens)
    }

    private func entry(_ f: FrameResult, showImages: Bool) -> FrameEntry {
        var expected: String?
        var actual = f.actualPath.map { relative($0) }
        if showImages, f.status != .missing {
            let target = "expected/" + f.goldenKey
            if copyGolden(f.goldenKey, to: reportDirectory + "/" + target) { expected = target }
            // A frame that passed looks exactly like its golden.
            if actual == nil && f.status == .passed { actual = expected }
        }
        return FrameEntry(index: f.index, time: f.time, progress: f.progress, status: f.status, message: f.detail,
                          golden: f.goldenKey, expected: expected, actual: actual, diff: f.diffPath.map { relative($0) },
                          metrics: f.metrics.map {
                              DiffMetrics(differentPixels: $0.differentPixels, ratio: $0.ratio, maxChannelDifference: $0.maxChannelDifference,
                                          regions: $0.regions, width: $0.width, height: $0.height)
                          },
                          layoutChanges: f.layoutChanges)
    }

    private func copyGolden(_ key: String, to path: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: goldens + "/" + key) else { return false }
        return (try? AtomicFile.write([UInt8](data), to: path)) != nil
    }

    private func relative(_ path: String) -> String {
        path.hasPrefix(reportDirectory + "/") ? String(path.dropFirst(reportDirectory.count + 1)) : path
    }

    /// Writes results.json and index.html into the report folder.
    public func write(_ results: RunResults) throws(RunnerError) {
        do {
            try ResultFiles.write(reportDirectory + "/results.json") { emit in try ResultsJSON.write(results, emit) }
            try HTMLReport.write(results, to: URL(fileURLWithPath: reportDirectory))
        } catch let error as RunnerError {
            throw error
        } catch {
            throw RunnerError.environment("cannot write the report in \(reportDirectory): \(error)")
        }
    }
}
