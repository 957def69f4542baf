import Foundation
import LayoutSnapCore
import LayoutSnapReport

/// What every batch command (verify, record, render) is asked to cover and how: the library
/// side of the command line's shared options.
public struct BatchSettings: Sendable {
    /// Fixture files or folders; empty means `defaultRoot`.
    public var paths: [String]
    public var defaultRoot = "Fixtures"
    public var goldens: String
    public var filter: String?
    /// `--variant NAME`: only the fixtures' variants of that name.
    public var variant: String?
    public var jobs: Int
    public var timeout: Double
    public var shard: Shard?
    public var overrides: FixtureOverrides
    /// The fixture defaults, the same for every fixture; ignored when `project` is set.
    public var defaults = FixtureDefaults()
    /// The layoutsnap.json found from the working directory: each fixture then gets the defaults
    /// of the nearest layoutsnap.json at or above its own folder.
    public var project: ProjectSettings?
    /// `--lint`: verify's layout lints (off for record and render).
    public var lint = LintMode.off
    /// The result cache verify reads and verify and record fill (docs/cache.md); off unless set.
    public var cache = CacheSettings.off
    /// Whether the cache's entries hold layout lint findings: verify's `--lint` is not off
    /// (record lints for the entries when the project's verify would).
    public var cacheLints = true

    public init(
        paths: [String] = [], goldens: String = "Goldens", filter: String? = nil, jobs: Int = BatchRunner.defaultJobs,
        timeout: Double = Watchdog.defaultSeconds, shard: Shard? = nil, overrides: FixtureOverrides = FixtureOverrides()
    ) {
        self.paths = paths
        self.goldens = goldens
        self.filter = filter
        self.jobs = jobs
        self.timeout = timeout
        self.shard = shard
        self.overrides = overrides
    }

    /// The run covers every fixture of its fixtures root(s): no filter, no shard, and every PATH
    /// is a root folder itself (the default `Fixtures/`, or a folder outside it). Only then can a
    /// golden of an unknown fixture be judged an orphan.
    public var coversWholeSet: Bool {
        filter == nil && variant == nil && shard == nil
            && paths.allSatisfy { FixtureDiscovery.isRoot($0, defaultRoot: defaultRoot) }
    }

    /// The folder fixture ids are relative to, as the user named it (for results.json).
    public var fixturesRoot: String {
        guard let first = paths.first else { return defaultRoot }
        return FixtureDiscovery.root(of: first, defaultRoot: defaultRoot)
    }

    /// The fixtures a run takes.
    public struct Selection: Sendable {
        public var refs: [FixtureRef]
        /// What each fixture costs, when already known (a shard's), or nil.
        public var costs: [Double]?
        /// Set when nothing was selected at all: the run's exit is 2.
        public var empty: Finding?
        /// `shard 2/4: 12 of 48 fixtures, 180 of 710 frames`, for stderr.
        public var shardNote: String?
        /// The shard plan's hash (see `Sharding.Selection.plan`).
        public var shardPlan: String?
    }

    /// The fixtures under the paths that match the filter, and of those this shard's part.
    public func select() throws(RunnerError) -> Selection {
        let all = try FixtureDiscovery.discover(
            paths: paths, defaultRoot: defaultRoot, defaults: defaults, project: project)
        // With --variant, a filter may name the fixture file's id (`--filter posts/x --variant rtl`).
        var refs =
            filter.map { glob in
                // A file or folder discovery could not reach stays: what it hides may match.
                all.filter {
                    $0.problem != nil || FixtureDiscovery.matches(glob: glob, $0.id)
                        || variant != nil && FixtureDiscovery.matches(glob: glob, $0.fileID)
                }
            } ?? all
        if let variant {
            // A file whose variants cannot be read stays, so its error fails the run.
            let named = refs.filter {
                $0.variant.map { FixtureVariant.sameName($0.name, variant) }
                    ?? ($0.variantsUnreadable || $0.problem != nil)
            }
            if named.isEmpty && !refs.isEmpty {
                let names = Set(all.compactMap { $0.variant?.name }).sorted()
                let message =
                    "no fixture has a variant named \"\(variant)\""
                    + (names.isEmpty
                        ? " (no fixture declares variants)"
                        : "; the variants are: \(names.prefix(20).joined(separator: ", "))")
                return Selection(
                    refs: [], costs: nil, empty: Finding(kind: .emptySelection, severity: .error, message: message),
                    shardNote: nil, shardPlan: nil)
            }
            refs = named
        }
        if refs.isEmpty {
            let place = paths.isEmpty ? defaultRoot + "/" : paths.joined(separator: ", ")
            let message: String
            if let filter, !all.isEmpty {
                let example = all[0].id
                let hint =
                    filter.contains("*") || filter.contains("?")
                    ? "" : " (a glob without * matches one id exactly: \(filter)/* matches a folder)"
                message =
                    "no fixtures matched --filter '\(filter)': none of the \(Plural.count(all.count, "fixture id")) under \(place) matches (ids look like \(example))\(hint)"
            } else {
                message = "no fixtures matched: there is no .json fixture under \(place)"
            }
            return Selection(
                refs: [], costs: nil, empty: Finding(kind: .emptySelection, severity: .error, message: message),
                shardNote: nil, shardPlan: nil)
        }
        guard let shard else { return Selection(refs: refs, costs: nil, empty: nil, shardNote: nil, shardPlan: nil) }
        let selection = Sharding.select(refs, shard: shard, overrides: overrides, jobs: jobs, timeout: timeout)
        let note =
            "shard \(shard): \(selection.refs.count) of \(Plural.count(selection.totalFixtures, "fixture")), \(selection.frames) of \(Plural.count(selection.totalFrames, "frame"))"
        return Selection(
            refs: selection.refs, costs: selection.costs, empty: nil, shardNote: note, shardPlan: selection.plan)
    }

    /// Runs the selected fixtures through `handler`, each result handed to `finished` as it
    /// comes (see `BatchRunner.run`).
    public func run(
        _ selection: Selection, handler: some FrameHandler, cache: ResultCache? = nil,
        finished: @escaping @Sendable (Int, FixtureResult) -> Void,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) throws(RunnerError) {
        var runner = BatchRunner(jobs: jobs, overrides: overrides, timeout: timeout, lint: lint)
        runner.cache = cache
        try runner.run(selection.refs, costs: selection.costs, handler: handler, finished: finished, progress: progress)
    }

    /// Runs the selected fixtures through `handler` and keeps every result, in order.
    public func run(
        _ selection: Selection, handler: some FrameHandler, cache: ResultCache? = nil,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) throws(RunnerError) -> [FixtureResult] {
        let results = Collected<FixtureResult>(count: selection.refs.count)
        try run(selection, handler: handler, cache: cache, finished: { results.put($0, $1) }, progress: progress)
        return results.all()
    }
}

/// Seconds since `start`, for a run's duration.
func secondsSince(_ start: DispatchTime) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
}
