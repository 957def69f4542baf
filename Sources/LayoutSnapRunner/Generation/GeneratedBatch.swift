import Foundation
import LayoutSnapSystem
import LayoutSnapCore

/// What `GeneratedBatch.write` produced.
public struct GenerationSummary: Sendable, Equatable {
    /// Fixtures written per kind, in the order the kinds were given.
    public var counts: [Count]
    /// Bytes of JSON written.
    public var bytes: Int

    public struct Count: Sendable, Equatable {
        public var kind: FixtureKind
        public var count: Int
    }

    public var total: Int { counts.reduce(0) { $0 + $1.count } }
}

/// Writes a batch of generated fixtures (docs/commands.md "generate") to a folder: fixture i of a kind goes to
/// `<folder>/<kind>/<kind>-<i, 6 digits>.json`, so its id is `<kind>/<kind>-<i>` and the folder can
/// be given to `verify`, `record` and `render` as it is.
public enum GeneratedBatch {
    /// `count` fixtures of `kinds` (spread over them as `FixtureGenerator.spread` says) from `seed`,
    /// on `jobs` threads. Each fixture depends only on (seed, kind, index), so the bytes are the
    /// same for any number of jobs. Files of an earlier, larger batch of the same kinds
    /// (`<kind>-<index>.json` past the new count) are removed, so the folder holds exactly this
    /// batch; nothing else in the folder is touched.
    public static func write(
        kinds: [FixtureKind], count: Int, seed: UInt64, to folder: String,
        jobs: Int = BatchRunner.defaultJobs
    ) throws(RunnerError) -> GenerationSummary {
        try OutputPaths.folder(folder, option: "--out")
        let spread = FixtureGenerator.spread(count: count, over: kinds)
        for (kind, _) in spread {
            let dir = folder + "/" + kind.rawValue
            do {
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            } catch {
                throw RunnerError.write("cannot create \(dir): \(error.localizedDescription)")
            }
        }
        // Fixture j of the batch is kind j % kinds.count, index j / kinds.count. Workers take
        // chunks of consecutive j, so each thread writes into every kind's folder in turn.
        let generators = kinds.map { FixtureGenerator(kind: $0, seed: seed) }
        let chunk = 64
        let chunks = WorkerThreads.map(count: (count + chunk - 1) / chunk, jobs: jobs) {
            c -> Result<Int, RunnerError> in
            var bytes = 0
            for j in (c * chunk)..<min(count, (c + 1) * chunk) {
                let generator = generators[j % kinds.count]
                let index = j / kinds.count
                let json = generator.fixture(at: index)
                let path = folder + "/" + FixtureGenerator.relativePath(kind: generator.kind, index: index)
                do throws(RunnerError) {
                    // Renamed into place but not fsynced: a generated fixture can be made
                    // again from its seed, and a flush per file costs more than generating it
                    // (10,000 fixtures: 3.5 s with fsync, 1.2 to 1.9 s without, on this
                    // project's virtual disk; a slower disk pays milliseconds a flush).
                    try AtomicFile.write(json, to: path, durable: false)
                } catch {
                    return .failure(error)
                }
                bytes += json.count
            }
            return .success(bytes)
        }
        var bytes = 0
        for result in chunks { bytes += try result.get() }
        for (kind, n) in spread { try removeStale(kind: kind, from: n, in: folder) }
        return GenerationSummary(
            counts: spread.map { GenerationSummary.Count(kind: $0.kind, count: $0.count) }, bytes: bytes)
    }

    /// Removes `<kind>-<index>.json` files with an index of `count` or more: leftovers of an earlier
    /// batch, which would otherwise be verified or rendered with this one.
    static func removeStale(kind: FixtureKind, from count: Int, in folder: String) throws(RunnerError) {
        let dir = folder + "/" + kind.rawValue
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        let prefix = kind.rawValue + "-"
        let suffix = ".json"
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(suffix) {
            let digits = name.dropFirst(prefix.count).dropLast(suffix.count)
            guard digits.count == FixtureGenerator.indexDigits, digits.allSatisfy({ ("0"..."9").contains($0) }),
                let index = Int(digits), index >= count
            else { continue }
            do throws(SystemError) {
                try Posix.unlink(dir + "/" + name)
            } catch {
                throw RunnerError.write("cannot remove \(dir)/\(name), left from an earlier batch: \(error.reason)")
            }
        }
    }
}
