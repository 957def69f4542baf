import Foundation
import LayoutSnapCore
import LayoutSnapReport
import LayoutSnapRender
import LayoutSnapSystem

/// `layoutsnap verify`: every selected fixture rendered and compared with its goldens, the run's
/// policy applied (orphans, environment drift, an empty selection), and the report written. The
/// run's one value (`RunResults`) is returned; its exit code is `results.exitCode`.
public struct VerifyRun: Sendable {
    public var settings: BatchSettings
    public var report: String
    public var junit: String?
    public var json: String?
    /// `--summary FILE.md`: the run as Markdown (`CIReport.markdown`), for a PR comment.
    public var summary: String?
    /// Goldens whose fixture, state or frame no longer exists fail the run.
    public var checkOrphans: Bool
    /// A different rendering environment fails the run (else it is a warning).
    public var strictEnv: Bool
    public var version: String

    /// Where the report goes unless `--report` says otherwise (and where accept looks).
    public static let defaultReport = ".layoutsnap/report"

    public init(
        settings: BatchSettings, report: String = VerifyRun.defaultReport, junit: String? = nil, json: String? = nil,
        checkOrphans: Bool = false, strictEnv: Bool = false, version: String
    ) {
        self.settings = settings
        self.report = report
        self.junit = junit
        self.json = json
        self.checkOrphans = checkOrphans
        self.strictEnv = strictEnv
        self.version = version
    }

    /// `note` receives lines for stderr while the run goes (the shard plan, an unreadable manifest).
    public func run(
        note: (TerminalText.Line) -> Void = { _ in },
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) throws(RunnerError) -> RunResults {
        // Every place this run writes is checked before any work: the report folder first, so
        // that a run stopped by any later error can take an earlier run's report away.
        do {
            try OutputPaths.reportOutsideGoldens(report: report, goldens: settings.goldens)
            try OutputPaths.folder(report, option: "--report")
        } catch {
            ResultFiles(junit: junit, json: json).withdraw(report: nil, summary: summary)
            throw error
        }
        do {
            let (results, builder) = try verified(note: note, progress: progress)
            try builder.write(results)
            try ResultFiles(junit: junit, json: json).write(results, report: report)
            if let summary {
                try AtomicFile.write(Array(CIReport.markdown(results, report: report).utf8), to: summary)
            }
            return results
        } catch {
            // Stopped before its results were all written (a PATH that does not exist, a
            // goldens folder that is a file, a --junit that cannot be written): an earlier run's
            // results.json, report page, JUnit, JSON copy and summary, or this run's first ones,
            // would say otherwise than its exit code 2 (`ResultFiles.withdraw`).
            ResultFiles(junit: junit, json: json).withdraw(report: report, summary: summary)
            throw error
        }
    }

    /// The run up to its results: what `run` writes.
    private func verified(
        note: (TerminalText.Line) -> Void, progress: (@Sendable (Int, Int) -> Void)?
    ) throws(RunnerError) -> (RunResults, ReportBuilder) {
        let started = DispatchTime.now()
        try OutputPaths.existingFolder(settings.goldens, option: "--goldens")
        if let junit { try OutputPaths.file(junit, option: "--junit") }
        if let json { try OutputPaths.file(json, option: "--json") }
        if let summary { try OutputPaths.file(summary, option: "--summary") }

        // The goldens' manifest, the cache (loading the rendering libraries to fingerprint the
        // environment) and the hash of the project's defaults, each on a thread of its own
        // while this one finds the fixtures: none needs another, and a warm run is mostly such
        // start-up. Their notes come after the selection's, as when they ran in turn, and the
        // selection's error comes first. The language is pinned before any thread starts.
        FontSystem.pinLanguage()
        // A run without a cache builds its fonts before its first fixture: it starts now, while
        // the fixtures are found. So does the first run into a new local folder, which renders
        // every fixture, with the font hash memo (the user's, else the folder's). (Otherwise a
        // run with a cache builds them at its first miss: a run of hits never does.)
        if settings.cache.isOff {
            FontSystem.startBuilding()
        } else if let folder = settings.cache.newFolder {
            FontSystem.rememberHashes(at: folder + "/fonts")
            FontSystem.startBuilding()
        }
        let reading = Background { [settings] in Self.readManifest(settings) }
        let opening = Background { [settings, version] in Self.openCache(settings, version: version) }
        let defaults = settings.project?.config.defaults ?? settings.defaults
        let hashing = Background { [cache = settings.cache, source = settings.project?.defaultsSource] in
            cache.isOff ? nil : ResultCache.digest(of: defaults, source: source, folder: cache.folder)
        }
        defer { _ = (reading.value, opening.value, hashing.value) }
        let selection = try settings.select()
        // An audited hit is rendered: a run that draws one sets up its fonts from here, beside
        // the manifest, the cache and the lookups, instead of at that hit.
        let audits = settings.cache.isOff ? nil : AuditPlan(rate: settings.cache.auditRate, count: selection.refs.count)
        if audits?.any == true {
            if let folder = settings.cache.folder {
                FontSystem.rememberHashes(at: folder + "/fonts")
            }
            FontSystem.startBuilding()
        }
        if let shardNote = selection.shardNote { note(.info(shardNote)) }
        let empty = selection.empty
        let shardPlan = selection.shardPlan
        var lintingBuilder = ReportBuilder(reportDirectory: report, goldens: settings.goldens)
        lintingBuilder.lintSeverity = settings.lint == .error ? .failure : .warning
        let builder = lintingBuilder
        let clearing = builder.clearPrevious(keepingExpected: true)
        defer { clearing.wait() }
        // The earlier results are gone from here on, so `run`'s clearing after an error finds
        // no results.json to vouch for the folder: the `expected/` kept for this run goes here.
        var reachedResults = false
        defer { if !reachedResults { builder.removeExpected(clearing) } }
        let manifest = reading.value.manifest
        reading.value.notes.forEach(note)
        opening.value.notes.forEach(note)
        // Without a manifest no hit can be checked against the goldens: nothing to read, and
        // what this run renders is stored all the same.
        let cache = try opening.value.cache.get()
        if let cache, let audits { cache.use(audits) }
        if let cache, let digest = hashing.value { cache.remember(defaults, digest: digest) }
        var handler = VerifyHandler(goldens: settings.goldens, manifest: manifest, reportDirectory: report)
        handler.goldenHashes = cache?.goldenHashes()
        defer { cache?.finish() }
        // Each fixture becomes its report entry as it finishes, spooled to disk (memory stays
        // flat in the number of fixtures); its frame results go with it.
        // Without a writable temporary folder they stay in memory: the run is the same, only
        // not flat.
        let spool = try? FixtureSpool(count: selection.refs.count)
        let memory = spool == nil ? Collected<FixtureEntry>(count: selection.refs.count) : nil
        try settings.run(
            selection, handler: handler, cache: cache,
            finished: { i, result in
                let entry = builder.entry(result, command: .verify)
                if let spool { spool.put(i, entry) } else { memory?.put(i, entry) }
            }, progress: progress)
        let fixtures = spool.map(FixtureEntries.init) ?? FixtureEntries(memory?.all() ?? [])
        builder.sweepExpected(clearing)

        var findings: [Finding] = empty.map { [$0] } ?? []
        var differences: [String] = []
        // The cache's own (from its libraries memo when that holds): a run of hits loads nothing.
        if let recorded = manifest?.environment,
            let current = cache?.renderEnvironment ?? (try? RenderEnvironment.current())
        {
            differences = current.differences(from: recorded)
        } else if strictEnv && empty == nil {
            // --strict-env asks for a check; one that cannot be made is not a pass.
            let why =
                manifest == nil
                ? "there is no readable \(GoldenStore(settings.goldens).manifestPath)"
                : manifest?.environment == nil
                    ? "\(GoldenStore(settings.goldens).manifestPath) does not say which environment recorded the goldens"
                    : "the rendering environment cannot be read"
            findings.append(
                Finding(
                    kind: .environment, severity: .failure,
                    message: "the environment cannot be compared: \(why) (--strict-env); record the goldens again"))
        }
        if let finding = Self.environmentFinding(differences, strict: strictEnv) { findings.append(finding) }
        if let cache {
            cache.finish()
            findings += cache.findings
        }
        if checkOrphans {
            let orphans = OrphanCheck.find(
                goldens: settings.goldens, entries: fixtures, wholeSet: settings.coversWholeSet)
            findings += OrphanCheck.findings(orphans, goldens: settings.goldens)
        }

        var results = builder.results(
            entries: fixtures, command: .verify, findings: findings, environmentDifferences: differences,
            durationSeconds: secondsSince(started), version: version, fixturesRoot: settings.fixturesRoot)
        results.shard = settings.shard?.description
        results.shardPlan = shardPlan
        reachedResults = true
        return (results, builder)
    }

    private static func readManifest(_ settings: BatchSettings) -> (
        manifest: GoldenManifest?, notes: [TerminalText.Line]
    ) {
        do {
            return (try GoldenManifest.load(path: GoldenStore(settings.goldens).manifestPath), [])
        } catch {
            return (nil, [.warning("\(error); every golden will be decoded and compared")])
        }
    }

    private static func openCache(_ settings: BatchSettings, version: String)
        -> (cache: Result<ResultCache?, RunnerError>, notes: [TerminalText.Line])
    {
        var notes: [TerminalText.Line] = []
        let cache = Result { () throws(RunnerError) in
            try ResultCache.open(
                settings.cache, version: version, lints: settings.lint != .off, goldens: settings.goldens
            ) { notes.append($0) }
        }
        // Read here, off the main thread: the hits check their goldens against it.
        if case .success(let opened?) = cache { _ = opened.goldenHashes() }
        return (cache, notes)
    }

    /// The environment policy: drift is a warning, or with `--strict-env` a failure.
    public static func environmentFinding(_ differences: [String], strict: Bool) -> Finding? {
        guard !differences.isEmpty else { return nil }
        let message =
            "environment differs from the one that recorded the goldens: \(differences.joined(separator: "; "))"
        return strict
            ? Finding(kind: .environment, severity: .failure, message: message + " (--strict-env)")
            : Finding(kind: .environment, severity: .warning, message: message)
    }
}

/// `--junit` and `--json`: the extra copies of a run's results.
public struct ResultFiles: Sendable {
    public var junit: String?
    public var json: String?

    public init(junit: String? = nil, json: String? = nil) {
        self.junit = junit
        self.json = json
    }

    /// What a run that stops with an error (exit 2) leaves of its results, its own first ones
    /// or an earlier run's: nothing that could say otherwise than its exit code. The report
    /// folder's results.json, page and images (`ReportBuilder.clearPrevious`: only when its
    /// results.json is layoutsnap's), these files and the `--summary` file go, each only when
    /// layoutsnap wrote it. `report`: nil when the folder itself could not be used.
    public func withdraw(report: String?, summary: String? = nil) {
        if let report { ReportBuilder(reportDirectory: report, goldens: "").clearPrevious().wait() }
        if let json, ReportBuilder.isLayoutsnapResults(json) { try? FileManager.default.removeItem(atPath: json) }
        // `JUnitWriter`'s root element, after the XML declaration.
        if let junit, Self.opens(junit, with: "<testsuites name=\"layoutsnap ", within: 128) {
            try? FileManager.default.removeItem(atPath: junit)
        }
        // `CIReport.markdown`'s heading.
        if let summary, Self.opens(summary, with: "## layoutsnap ") {
            try? FileManager.default.removeItem(atPath: summary)
        }
    }

    /// Whether the file at `path` holds `marker` within its first `within` bytes (at its start
    /// when `within` is the marker's length).
    static func opens(_ path: String, with marker: String, within: Int? = nil) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let bytes = Data(marker.utf8)
        guard let head = try? handle.read(upToCount: within ?? bytes.count) else { return false }
        return within == nil ? head == bytes : head.range(of: bytes) != nil
    }

    /// `report`: the report folder the results' image paths are relative to; JUnit names the
    /// images as attachments from its own folder.
    public func write(_ results: RunResults, report: String? = nil) throws(RunnerError) {
        if let junit {
            let attachments = report.map {
                Self.relativePath(from: (junit as NSString).deletingLastPathComponent, to: $0)
            }
            try ResultFiles.write(junit) { emit in
                try JUnitWriter.write(results, attachments: attachments) { try emit(Data($0.utf8)) }
            }
        }
        if let json { try ResultFiles.write(json) { emit in try ResultsJSON.write(results, emit) } }
    }

    /// `to` as seen from the folder `from` (both relative to the working directory or absolute):
    /// `../report` from `out` to `report`, `.layoutsnap/report` from `` to it.
    static func relativePath(from: String, to: String) -> String {
        let cwd = FileManager.default.currentDirectoryPath
        func parts(_ p: String) -> [String] {
            // Through symbolic links: the attachment must resolve where the files really are.
            let absolute = URL(fileURLWithPath: p.hasPrefix("/") ? p : cwd + "/" + p).resolvingSymlinksInPath().path
            var out: [String] = []
            for part in absolute.split(separator: "/") where part != "." {
                if part == ".." { if !out.isEmpty { out.removeLast() } } else { out.append(String(part)) }
            }
            return out
        }
        let a = parts(from)
        let b = parts(to)
        var common = 0
        while common < a.count && common < b.count && a[common] == b[common] { common += 1 }
        let path = Array(repeating: "..", count: a.count - common) + b[common...]
        return path.isEmpty ? "." : path.joined(separator: "/")
    }

    /// Writes a file made in pieces, buffered, atomically.
    /// `durable: false` for the report folder's own files, which a run makes again.
    static func write(_ path: String, durable: Bool = true, _ produce: ((Data) throws -> Void) throws -> Void)
        throws(RunnerError)
    {
        try AtomicFile.write(to: path, durable: durable) { write in
            try withoutActuallyEscaping(write) { write in
                var buffer = Data()
                try produce { piece in
                    buffer.append(piece)
                    if buffer.count >= 1 << 20 {
                        try buffer.withUnsafeBytes { try write($0) }
                        buffer.removeAll(keepingCapacity: true)
                    }
                }
                try buffer.withUnsafeBytes { try write($0) }
            }
        }
    }
}

extension VerifyRun {
    /// `review --watch`: the fixtures of `settings.paths` (fixture files) verified again into the
    /// same report folder, their entries in `results` replaced (the other fixtures', and their
    /// images, stay as they were), and results.json and index.html written again. The report's
    /// images of the replaced entries go first, so none of them is stale.
    public func verifyAgain(in results: RunResults) throws(RunnerError) -> RunResults {
        let selection = try settings.select()
        let files = Set(settings.paths + selection.refs.map(\.displayPath))
        var entries = Array(results.fixtures)
        for entry in entries where files.contains(entry.file) {
            for state in entry.states {
                for folder in ["actual", "expected", "diff"] {
                    try? FileManager.default.removeItem(atPath: "\(report)/\(folder)/\(entry.id)/\(state.name)")
                }
            }
            try? FileManager.default.removeItem(atPath: "\(report)/actual/\(GoldenStore.layoutKey(fixture: entry.id))")
        }
        var builder = ReportBuilder(reportDirectory: report, goldens: settings.goldens)
        builder.lintSeverity = settings.lint == .error ? .failure : .warning
        let handler = VerifyHandler(
            goldens: settings.goldens,
            manifest: try? GoldenManifest.load(path: GoldenStore(settings.goldens).manifestPath),
            reportDirectory: report)
        let fresh = try settings.run(selection, handler: handler).map { builder.entry($0, command: .verify) }
        entries.removeAll { files.contains($0.file) }
        entries += fresh
        entries.sort { $0.id < $1.id }
        var updated = results
        updated.fixtures = FixtureEntries(entries)
        try builder.write(updated)
        return updated
    }
}
