import Foundation
import LayoutSnapCore
import LayoutSnapReport
import LayoutSnapSystem

/// `layoutsnap record`: goldens written as `mode` says, under the goldens folder's lock, through
/// the crash-safe `GoldenTransaction`, a fixture whole or not at all; `prune` deletes orphans.
public struct RecordRun: Sendable {
    public var settings: BatchSettings
    public var mode: RecordMode
    public var prune: Bool
    /// Record even though `CI` is set.
    public var allowCI: Bool
    public var version: String
    /// The project's own goldens folder, which overrides must never write into.
    public var canonicalGoldens = "Goldens"

    public init(
        settings: BatchSettings, mode: RecordMode = .changed, prune: Bool = false, allowCI: Bool = false,
        version: String
    ) {
        self.settings = settings
        self.mode = mode
        self.prune = prune
        self.allowCI = allowCI
        self.version = version
    }

    public struct Outcome: Sendable {
        public var results: RunResults
        /// Orphans deleted by `--prune` (keys below the goldens folder).
        public var pruned: [String]
    }

    public func run(
        note: (TerminalText.Line) -> Void = { _ in },
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) throws(RunnerError) -> Outcome {
        let started = DispatchTime.now()
        if let ci = ProcessInfo.processInfo.environment["CI"], !ci.isEmpty, !allowCI {
            throw RunnerError.refusedUnderCI
        }
        if prune && !settings.coversWholeSet {
            throw RunnerError.usage(
                "--prune needs the whole fixture set: it cannot tell an orphan from a fixture left out by --filter, --shard or PATH arguments"
            )
        }
        let o = settings.overrides
        if o.device != nil || o.scale != nil || o.fps != nil,
            OutputPaths.canonical(settings.goldens) == OutputPaths.canonical(canonicalGoldens)
        {
            let flags = [o.device.map { _ in "--device" }, o.scale.map { _ in "--scale" }, o.fps.map { _ in "--fps" }]
                .compactMap { $0 }
            throw RunnerError.usage(
                "\(flags.joined(separator: ", ")) render frames unlike the fixtures' own: recording them into \(settings.goldens)/ would replace the fixtures' goldens. Record them into another folder (--goldens DIR), or drop \(flags.joined(separator: ", "))"
            )
        }
        try OutputPaths.existingFolder(settings.goldens, option: "--goldens")

        let selection = try settings.select()
        if let shardNote = selection.shardNote { note(.info(shardNote)) }
        let builder = ReportBuilder(reportDirectory: "", goldens: settings.goldens)
        func outcome(_ fixtures: [FixtureResult], findings: [Finding], pruned: [String]) -> Outcome {
            let results = builder.results(
                fixtures, command: .record, findings: findings, durationSeconds: secondsSince(started),
                version: version, fixturesRoot: settings.fixturesRoot)
            return Outcome(results: results, pruned: pruned)
        }
        if let empty = selection.empty { return outcome([], findings: [empty], pruned: []) }

        // Held to the end of the run: no other record, accept or prune writes these goldens meanwhile.
        let lock = try GoldensLock.acquire(goldens: settings.goldens)
        defer { withExtendedLifetime(lock) {} }

        let manifestPath = GoldenStore(settings.goldens).manifestPath
        var manifest: GoldenManifest?
        do {
            manifest = try GoldenManifest.load(path: manifestPath)
        } catch {
            note(.warning("\(error); it will be rebuilt from the goldens"))
        }
        GoldenTransaction.removeStale(goldens: settings.goldens)
        let environment = try RenderEnvironment.current()
        let handler = RecordHandler(goldens: settings.goldens, manifest: manifest, mode: mode)
        // What record renders is what the next verify would: it fills the result cache.
        let cache = try ResultCache.open(
            settings.cache, version: version, lints: settings.cacheLints, goldens: settings.goldens, note: note)
        defer { cache?.finish() }
        var results = try settings.run(selection, handler: handler, cache: cache, progress: progress)

        // A fixture is recorded whole or not at all: one that failed part-way (a layout error,
        // the watchdog, a frame that could not be staged on a full disk) keeps its old goldens
        // and their manifest entries, and what it staged is dropped.
        func complete(_ result: FixtureResult) -> Bool {
            result.error == nil && !result.frames.contains { $0.status == .error }
        }
        var updated = manifest ?? GoldenManifest(environment: nil, frames: [:])
        updated.environment = environment
        for result in results where complete(result) {
            // The fixture's frames are exactly what it renders now.
            let prefix = result.ref.id + "/"
            updated.frames = updated.frames.filter {
                !$0.key.hasPrefix(prefix) || !Self.isFrameOf(result.ref.id, $0.key)
            }
            for frame in result.frames {
                if let entry = frame.manifestEntry { updated.frames[frame.goldenKey] = entry }
                // What a killed record was replacing is settled: the frame is described anew.
                updated.previous.removeValue(forKey: frame.goldenKey)
            }
        }
        updated.previous = updated.previous.filter { updated.frames[$0.key] != nil }
        // Orphans leave the manifest before their files go: a kill in between leaves files the
        // manifest no longer mentions, never entries without files.
        var orphans: [OrphanCheck.Orphan] = []
        if prune {
            orphans = OrphanCheck.find(goldens: settings.goldens, results: results, wholeSet: true)
            for orphan in orphans { updated.frames.removeValue(forKey: orphan.key) }
        }
        var staged: [String: GoldenManifest.Previous] = [:]
        var layouts: [String] = []
        for result in results where result.notes.contains(.layoutStaged) {
            let key = GoldenStore.layoutKey(fixture: result.ref.id)
            if complete(result) {
                layouts.append(key)
            } else {
                try? Posix.unlink(GoldenTransaction.pendingPath(GoldenStore(settings.goldens).path(key)))
            }
        }
        for result in results {
            for frame in result.frames where frame.status == .recorded {
                if complete(result) {
                    staged[frame.goldenKey] = frame.replacing ?? .absent
                } else {
                    try? Posix.unlink(
                        GoldenTransaction.pendingPath(GoldenStore(settings.goldens).path(frame.goldenKey)))
                }
            }
        }
        try GoldenTransaction.commit(
            staged: staged, layouts: layouts, goldens: settings.goldens, before: manifest, after: updated)
        // A fixture kept whole (it stopped part-way, or a frame could not be staged) recorded
        // nothing: none of its frames counts as recorded, and the error says why.
        for i in results.indices where !complete(results[i]) {
            if results[i].error == nil {
                let failed = results[i].frames.first { $0.status == .error }
                results[i].error = Diagnostic(
                    .error, .golden, file: results[i].ref.displayPath,
                    message:
                        "nothing recorded, its goldens are as they were: \(failed?.goldenKey ?? ""): \(failed?.detail ?? "could not be written")"
                )
            }
            results[i].frames.removeAll { $0.status == .recorded || $0.status == .error }
        }
        let pruned = OrphanCheck.prune(orphans, goldens: settings.goldens)
        return outcome(results, findings: [], pruned: pruned)
    }

    /// `posts/a/initial/000.png` belongs to `posts/a`, not to `posts/a/b` (a fixture in a folder
    /// named like another fixture).
    static func isFrameOf(_ id: String, _ key: String) -> Bool {
        let rest = key.dropFirst(id.count + 1)
        return rest.split(separator: "/").count == 2
    }
}

/// `layoutsnap render --out DIR`: every frame as PNG and each fixture's layout.json, nothing compared.
public struct RenderRun: Sendable {
    public var settings: BatchSettings
    public var output: String
    public var version: String

    public init(settings: BatchSettings, output: String, version: String) {
        self.settings = settings
        self.output = output
        self.version = version
    }

    public func run(
        note: (TerminalText.Line) -> Void = { _ in },
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) throws(RunnerError) -> RunResults {
        let started = DispatchTime.now()
        try OutputPaths.folder(output, option: "--out")
        let selection = try settings.select()
        if let shardNote = selection.shardNote { note(.info(shardNote)) }
        let fixtures =
            selection.empty == nil
            ? try settings.run(selection, handler: RenderHandler(output: output), progress: progress) : []
        return ReportBuilder(reportDirectory: output, goldens: "").results(
            fixtures, command: .render, findings: selection.empty.map { [$0] } ?? [],
            durationSeconds: secondsSince(started),
            version: version, fixturesRoot: settings.fixturesRoot)
    }
}
