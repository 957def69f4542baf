import Foundation
import LayoutSnapCore
import LayoutSnapReport

/// Goldens with no fixture, state or frame behind them (docs/outcomes.md: `--check-orphans`,
/// `record --prune`).
public enum OrphanCheck {
    public struct Orphan: Sendable, Hashable {
        /// Path below the goldens folder.
        public var key: String
        public var reason: String
        /// What the orphan belongs to for reporting: the file itself, its state's folder, or its
        /// fixture's folder (so a removed state is one line, not one per frame).
        public var group: String
    }

    /// Orphans grouped for reporting: (group, reason, files), in order.
    public static func grouped(_ orphans: [Orphan]) -> [(group: String, reason: String, count: Int)] {
        var result: [(group: String, reason: String, count: Int)] = []
        for o in orphans {
            if let last = result.last, last.group == o.group, last.reason == o.reason {
                result[result.count - 1].count += 1
            } else {
                result.append((o.group, o.reason, 1))
            }
        }
        return result
    }

    /// The run's findings: one per group (a removed state is one finding, not one per frame),
    /// each failing the run.
    public static func findings(_ orphans: [Orphan], goldens: String) -> [Finding] {
        grouped(orphans).map { g in
            let files = g.count == 1 || !g.group.hasSuffix("/") ? "" : " (\(Plural.count(g.count, "file")))"
            return Finding(
                kind: .orphan, severity: .failure, message: "\(goldens)/\(g.group)\(files): \(g.reason)",
                subject: g.group)
        }
    }

    /// Goldens under `goldens` that no run result accounts for.
    ///
    /// - `wholeSet`: the run covered every fixture (no filter, no explicit paths), so a golden of
    ///   an unknown fixture is an orphan too. Otherwise only the fixtures in the run are judged.
    /// - Fixtures that failed to load are skipped: their frames are unknown, not gone.
    public static func find(goldens: String, results: [FixtureResult], wholeSet: Bool) -> [Orphan] {
        find(
            goldens: goldens, produced: results.map { ($0.ref.id, $0.error != nil, $0.frames.map(\.goldenKey)) },
            wholeSet: wholeSet)
    }

    /// The same, from a run's report entries.
    public static func find(goldens: String, entries: FixtureEntries, wholeSet: Bool) -> [Orphan] {
        find(
            goldens: goldens,
            produced: entries.map { e in (e.id, e.error != nil, e.states.flatMap { $0.frames.map(\.golden) }) },
            wholeSet: wholeSet)
    }

    /// For each fixture of the run: its id, whether it could not be used, its frames' keys.
    static func find(goldens: String, produced fixtures: [(id: String, failed: Bool, keys: [String])], wholeSet: Bool)
        -> [Orphan]
    {
        var produced: [String: Set<String>] = [:]
        var unknown = Set<String>()
        for f in fixtures {
            if f.failed {
                unknown.insert(f.id)
                continue
            }
            produced[f.id, default: []].formUnion(f.keys)
        }
        // A folder that could not be walked (its id ends in "/"; its name may not even be the one
        // its goldens were recorded under): the run is not the whole set, so no golden is an
        // orphan for want of its fixture.
        let wholeSet = wholeSet && !unknown.contains { $0.hasSuffix("/") }
        var orphans: [Orphan] = []
        guard let files = FileManager.default.enumerator(atPath: goldens) else { return [] }
        while let item = files.nextObject() as? String {
            if case (let id, let state)? = GoldenStore.frame(ofKey: item) {
                // A fixture that could not be used: its frames, and its variants', are unknown.
                if unknown.contains(id) || unknown.contains(FixtureVariant.baseID(of: id)) { continue }
                if let keys = produced[id] {
                    if !keys.contains(item) {
                        let stateExists = keys.contains { $0.hasPrefix("\(id)/\(state)/") }
                        orphans.append(
                            stateExists
                                ? Orphan(key: item, reason: "frame no longer exists", group: item)
                                : Orphan(key: item, reason: "state \(state) no longer exists", group: "\(id)/\(state)/")
                        )
                    }
                } else if wholeSet {
                    orphans.append(Orphan(key: item, reason: "no fixture \(id)", group: "\(id)/"))
                }
            } else if wholeSet, let id = GoldenStore.fixture(ofLayoutKey: item) {
                if produced[id] == nil && !unknown.contains(id) {
                    orphans.append(Orphan(key: item, reason: "no fixture \(id)", group: "\(id)/"))
                }
            }
        }
        return orphans.sorted { ($0.group, $0.key) < ($1.group, $1.key) }
    }

    /// Deletes orphans (and folders left empty), returning what was removed.
    public static func prune(_ orphans: [Orphan], goldens: String) -> [String] {
        var removed: [String] = []
        for orphan in orphans
        where (try? FileManager.default.removeItem(atPath: GoldenStore(goldens).path(orphan.key))) != nil {
            removed.append(orphan.key)
            var dir = (GoldenStore(goldens).path(orphan.key) as NSString).deletingLastPathComponent
            while dir.count > goldens.count,
                (try? FileManager.default.contentsOfDirectory(atPath: dir))?.isEmpty == true
            {
                try? FileManager.default.removeItem(atPath: dir)
                dir = (dir as NSString).deletingLastPathComponent
            }
        }
        return removed
    }
}
