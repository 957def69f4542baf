import Foundation
import LayoutSnapCore
import LayoutSnapImaging
import LayoutSnapReport

/// `accept`: promotes the actual frames of an earlier verify (its report folder) to goldens
/// without rendering again. Each promoted file is decoded first (a broken or foreign file is
/// never accepted), written atomically, and entered in the manifest with its hashes.
public struct GoldenAcceptance {
    public struct Outcome: Sendable {
        public var accepted: [String] = []
        public var layouts: [String] = []
        /// Goldens past the new last frame of a state whose timing changed, deleted.
        public var removed: [String] = []
        public var problems: [String] = []
        /// The folder the frames went into.
        public var goldens = ""

        /// Problems are bad input (exit 2); the one function from a run to its exit code.
        public var outcome: LayoutSnapReport.Outcome { problems.isEmpty ? .passed : .error }
    }

    public let resultsPath: String
    /// The goldens folder to write; nil takes the one the verify run checked (results.json's
    /// `goldens`), else `Goldens`.
    public let goldensOption: String?
    /// Accept even though `CI` is set.
    public let allowCI: Bool

    public init(resultsPath: String, goldens: String? = nil, allowCI: Bool = false) {
        self.resultsPath = resultsPath; self.goldensOption = goldens; self.allowCI = allowCI
    }

    /// The verify run's results, read from `resultsPath`.
    public func load() throws(RunnerError) -> RunResults {
        guard let data = FileManager.default.contents(atPath: resultsPath) else {
            throw RunnerError.usage("\(resultsPath): cannot be read (run layoutsnap verify first; it writes .layoutsnap/report/results.json)")
        }
        do {
            return try ResultsJSON.decode(data)
        } catch {
            throw RunnerError.usage("\(resultsPath): not a layoutsnap results file: \(error)")
        }
    }

    /// `ids` are fixture ids or globs; empty accepts every fixture in the results. Holds the
    /// goldens folder's lock while it writes.
    public func run(ids: [String]) throws(RunnerError) -> Outcome {
        if let ci = ProcessInfo.processInfo.environment["CI"], !ci.isEmpty, !allowCI {
            throw RunnerError.refusedUnderCI
        }
        let results = try load()
        let goldens = goldensOption ?? results.goldens ?? "Goldens"
        try OutputPaths.existingFolder(goldens, option: "--goldens")
        var outcome = try run(ids: ids, results: results, goldens: goldens)
        outcome.goldens = goldens
        return outcome
    }

    private func run(ids: [String], results: RunResults, goldens: String) throws(RunnerError) -> Outcome {
        for id in ids where !results.fixtures.contains(where: { FixtureDiscovery.matches(glob: id, $0.id) }) {
            throw RunnerError.usage("\(id): no fixture in \(resultsPath) matches it")
        }
        let report = (resultsPath as NSString).deletingLastPathComponent
        // Held to the end: no other record, accept or prune writes these goldens meanwhile.
        let lock = try GoldensLock.acquire(goldens: goldens)
        defer { withExtendedLifetime(lock) {} }
        let manifestPath = goldens + "/manifest.json"
        let before = try? GoldenManifest.load(path: manifestPath)
        var manifest = before ?? GoldenManifest(environment: nil, frames: [:])
        var outcome = Outcome()
        var staged: [String: GoldenManifest.Previous] = [:]
        GoldenTransaction.removeStale(goldens: goldens)
        // A write that fails (a full disk) takes back what was staged: nothing is left behind.
        var pending: [String] = []
        func stageOrUndo(_ bytes: [UInt8], key: String) throws(RunnerError) {
            do {
                try GoldenTransaction.stage(bytes, goldenPath: goldens + "/" + key)
                pending.append(key)
            } catch {
                for key in pending { unlink(GoldenTransaction.pendingPath(goldens + "/" + key)) }
                throw error
            }
        }

        for fixture in results.fixtures where ids.isEmpty || ids.contains(where: { FixtureDiscovery.matches(glob: $0, fixture.id) }) {
            var acceptedAny = false
            var halfAccepted = false
            for state in fixture.states {
                let problemsBefore = outcome.problems.count
                // A frame compared with another golden frame (its state's timing changed) passes
                // or not against that one; its own golden still has the old motion's frame.
                for frame in state.frames where frame.pairing != .removed
                    && ([.failed, .missing, .similar].contains(frame.status) || frame.pairedWith != nil) {
                    guard let actual = frame.actual, frame.actual != frame.expected else {
                        outcome.problems.append("\(frame.golden): the report has no actual frame")
                        continue
                    }
                    guard let bytes = FileManager.default.contents(atPath: report + "/" + actual).map({ [UInt8]($0) }) else {
                        outcome.problems.append("\(frame.golden): \(report)/\(actual) is gone")
                        continue
                    }
                    let image: PixelImage
                    do {
                        image = try PNGDecoder.decode(bytes, maxPixels: Limits.maxGoldenPixels)
                    } catch {
                        outcome.problems.append("\(frame.golden): \(report)/\(actual) is not usable: \(error.description)")
                        continue
                    }
                    staged[frame.golden] = GoldenTransaction.describe(goldens + "/" + frame.golden, key: frame.golden, manifest: before)
                    try stageOrUndo(bytes, key: frame.golden)
                    manifest.previous.removeValue(forKey: frame.golden)
                    manifest.frames[frame.golden] = GoldenManifest.Entry(
                        pixels: image.hashHex, file: bytes.withUnsafeBytes { PixelHash.hex(PixelHash.ofBytes($0)) },
                        width: image.width, height: image.height)
                    outcome.accepted.append(frame.golden)
                    acceptedAny = true
                }
                // A state whose timing changed (its frames paired by motion) gets its whole new
                // motion: its golden frames past the new last one go, only when every frame of it
                // was accepted (goldens half old and half new would be neither motion). The
                // manifest loses them with the rest; the files go after the commit (a kill in
                // between leaves orphans, which verify --check-orphans names).
                if let expectedCount = state.motion?.frames.first, state.motion?.repaired == true {
                    guard outcome.problems.count == problemsBefore else {
                        halfAccepted = true
                        continue
                    }
                    let actualCount = state.frames.filter { $0.pairing != .removed }.count
                    for index in actualCount..<max(actualCount, expectedCount) {
                        let key = GoldenPaths.frameKey(fixture: fixture.id, state: state.name, index: index)
                        if manifest.frames.removeValue(forKey: key) != nil || FileManager.default.fileExists(atPath: goldens + "/" + key) {
                            manifest.previous.removeValue(forKey: key)
                            outcome.removed.append(key)
                            acceptedAny = true
                        }
                    }
                }
            }
            let layoutKey = "\(fixture.id)/layout.json"
            if acceptedAny, !halfAccepted, let layout = FileManager.default.contents(atPath: report + "/actual/" + layoutKey) {
                try stageOrUndo([UInt8](layout), key: layoutKey)
                outcome.layouts.append(layoutKey)
            }
        }
        if !outcome.accepted.isEmpty || !outcome.removed.isEmpty {
            try GoldenTransaction.commit(staged: staged, layouts: outcome.layouts, goldens: goldens, before: before, after: manifest)
        }
        for key in outcome.removed { unlink(goldens + "/" + key) }
        return outcome
    }
}
