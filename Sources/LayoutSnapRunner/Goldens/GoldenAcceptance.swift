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
        public var problems: [String] = []
    }

    public let resultsPath: String
    public let goldens: String

    public init(resultsPath: String, goldens: String) {
        self.resultsPath = resultsPath; self.goldens = goldens
    }

    /// `ids` are fixture ids or globs; empty accepts every fixture in the results.
    public func run(ids: [String]) throws(RunnerError) -> Outcome {
        guard let data = FileManager.default.contents(atPath: resultsPath) else {
            throw RunnerError.usage("\(resultsPath): cannot be read (run layoutsnap verify first; it writes .layoutsnap/report/results.json)")
        }
        let results: RunResults
        do {
            results = try ResultsJSON.decode(data)
        } catch {
            throw RunnerError.usage("\(resultsPath): not a layoutsnap results file: \(error)")
        }
        for id in ids where !results.fixtures.contains(where: { FixtureDiscovery.matches(glob: id, $0.id) }) {
            throw RunnerError.usage("\(id): no fixture in \(resultsPath) matches it")
        }
        let report = (resultsPath as NSString).deletingLastPathComponent
        let manifestPath = goldens + "/manifest.json"
        let before = try? GoldenManifest.load(path: manifestPath)
        var manifest = before ?? GoldenManifest(environment: nil, frames: [:])
        var outcome = Outcome()
        var staged: [String: GoldenManifest.Previous] = [:]
        GoldenTransaction.removeStale(goldens: goldens)

        for fixture in results.fixtures where ids.isEmpty || ids.contains(where: { FixtureDiscovery.matches(glob: $0, fixture.id) }) {
            var acceptedAny = false
            for state in fixture.states {
                for frame in state.frames where [.failed, .missing, .similar].contains(frame.status) {
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
                    try GoldenTransaction.stage(bytes, goldenPath: goldens + "/" + frame.golden)
                    manifest.previous.removeValue(forKey: frame.golden)
                    manifest.frames[frame.golden] = GoldenManifest.Entry(
                        pixels: image.hashHex, file: bytes.withUnsafeBytes { PixelHash.hex(PixelHash.ofBytes($0)) },
                        width: image.width, height: image.height)
                    outcome.accepted.append(frame.golden)
                    acceptedAny = true
                }
            }
            let layoutKey = "\(fixture.id)/layout.json"
            if acceptedAny, let layout = FileManager.default.contents(atPath: report + "/actual/" + layoutKey) {
                try GoldenTransaction.stage([UInt8](layout), goldenPath: goldens + "/" + layoutKey)
                outcome.layouts.append(layoutKey)
            }
        }
        if !outcome.accepted.isEmpty {
            try GoldenTransaction.commit(staged: staged, layouts: outcome.layouts, goldens: goldens, before: before, after: manifest)
        }
        return outcome
    }
}
