// The results of one `layoutsnap verify` run. The property names are the
// results.json schema: renaming one is a breaking change for every consumer
// (CI scripts, the HTML report, older reports on disk).
//
// Optional properties that are nil are omitted from the JSON (not `null`).

import LayoutSnapCore
import LayoutSnapDiff

/// Everything one batch run found (`verify`, and the merge of its shards; `record` and `render`
/// describe their runs with the same value). It is the one verdict of the run: the terminal
/// summary, results.json, JUnit, the HTML report and the exit code are all drawn from it, and
/// its `summary` is derived from its fixtures and findings (never stored apart from them).
public struct RunResults: Codable, Sendable, Equatable {
    /// Always "layoutsnap".
    public var tool: String
    public var version: String
    public var command: Command
    public var durationSeconds: Double
    /// Counts, the outcome and the exit code, derived from `fixtures` and `findings`.
    public private(set) var summary: Summary
    /// Human-readable differences between the environment the goldens were
    /// recorded in and this one; empty when they match.
    public var environmentDifferences: [String]
    /// In memory, or spooled to disk by a large verify (see `FixtureEntries`).
    public var fixtures: FixtureEntries { didSet { recount() } }
    /// What the run found beyond its frames: orphans, environment drift, missing shards, an
    /// empty selection.
    public var findings: [Finding] { didSet { recount() } }
    /// `2/4` when the run was one shard of a split suite (`--shard`); a merged report lists the
    /// shards it joined (`1/4,2/4,3/4,4/4`). Absent for a whole run.
    public var shard: String?
    /// A hash of the shard plan (every fixture id and the shard it went to): shards of one run
    /// must agree on it, and merge-reports checks that they do.
    public var shardPlan: String?
    /// The fixtures root the ids are relative to, and the goldens folder the frames were
    /// checked against, as given on the command line (accept defaults to them).
    public var fixturesRoot: String?
    public var goldens: String?
    /// The failing frames grouped by what explains them, most frames first (docs/review.md);
    /// derived from the frames' attributions like `summary`, never stored apart from them.
    public private(set) var causes: [Cause] = []
    /// The cause id of each failing frame, by `FrameEntry.causeKey`.
    public private(set) var causeOfFrame: [String: Int] = [:]

    /// The batch command that ran; results.json writes its name.
    public enum Command: String, Codable, Sendable, CaseIterable, NamedCases {
        case verify, record, render

        public static let caseKind = "command"
    }

    public init(
        tool: String = "layoutsnap",
        version: String,
        command: Command = .verify,
        durationSeconds: Double,
        environmentDifferences: [String] = [],
        fixtures: FixtureEntries,
        findings: [Finding] = [],
        shard: String? = nil,
        shardPlan: String? = nil,
        fixturesRoot: String? = nil,
        goldens: String? = nil
    ) {
        self.tool = tool
        self.version = version
        self.command = command
        self.durationSeconds = durationSeconds
        self.environmentDifferences = environmentDifferences
        self.fixtures = fixtures
        self.findings = findings
        self.shard = shard
        self.shardPlan = shardPlan
        self.fixturesRoot = fixturesRoot
        self.goldens = goldens
        self.summary = Summary(tally: fixtures.tally, findings: findings)
        findCauses()
    }

    /// The same, from fixtures held in memory.
    public init(
        tool: String = "layoutsnap", version: String, command: Command = .verify, durationSeconds: Double,
        environmentDifferences: [String] = [], fixtures: [FixtureEntry], findings: [Finding] = [], shard: String? = nil,
        shardPlan: String? = nil, fixturesRoot: String? = nil, goldens: String? = nil
    ) {
        self.init(
            tool: tool, version: version, command: command, durationSeconds: durationSeconds,
            environmentDifferences: environmentDifferences,
            fixtures: FixtureEntries(fixtures), findings: findings, shard: shard, shardPlan: shardPlan,
            fixturesRoot: fixturesRoot,
            goldens: goldens)
    }

    private enum CodingKeys: String, CodingKey {
        case tool, version, command, durationSeconds, summary, environmentDifferences, fixtures, findings, shard,
            shardPlan, fixturesRoot, goldens,
            causes, outcomeOf
    }

    /// The outcome of each frame status and severity, written once into results.json so that
    /// the report page reads which ones fail instead of deciding it again (never read back).
    public struct OutcomeTable: Encodable, Sendable {
        public var status: [String: Outcome] = Dictionary(
            uniqueKeysWithValues: FrameStatus.allCases.map { ($0.rawValue, $0.outcome) })
        public var severity: [String: Outcome] = Dictionary(
            uniqueKeysWithValues: Severity.allCases.map { ($0.rawValue, $0.outcome) })
    }
    public static let outcomeOf = OutcomeTable()

    /// Reads a results.json; the summary is derived again from what it lists, whatever the file
    /// said, and the keys added since the first version (findings, folders) may be absent.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        tool = try c.decode(String.self, forKey: .tool)
        version = try c.decode(String.self, forKey: .version)
        command = try c.decode(Command.self, forKey: .command)
        durationSeconds = try c.decode(Double.self, forKey: .durationSeconds)
        _ = try c.decode(Summary.self, forKey: .summary)
        environmentDifferences = try c.decodeIfPresent([String].self, forKey: .environmentDifferences) ?? []
        // A frame's cause is derived again below, whatever the file said.
        fixtures = FixtureEntries(
            try c.decode([FixtureEntry].self, forKey: .fixtures).map { fixture in
                var fixture = fixture
                for s in fixture.states.indices {
                    for f in fixture.states[s].frames.indices { fixture.states[s].frames[f].cause = nil }
                }
                return fixture
            })
        findings = try c.decodeIfPresent([Finding].self, forKey: .findings) ?? []
        shard = try c.decodeIfPresent(String.self, forKey: .shard)
        shardPlan = try c.decodeIfPresent(String.self, forKey: .shardPlan)
        fixturesRoot = try c.decodeIfPresent(String.self, forKey: .fixturesRoot)
        goldens = try c.decodeIfPresent(String.self, forKey: .goldens)
        summary = Summary(tally: fixtures.tally, findings: findings)
        findCauses()
    }

    /// As `ResultsJSON` writes it: each failing frame names its cause.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(tool, forKey: .tool)
        try c.encode(version, forKey: .version)
        try c.encode(command, forKey: .command)
        try c.encode(durationSeconds, forKey: .durationSeconds)
        try c.encode(summary, forKey: .summary)
        try c.encode(environmentDifferences, forKey: .environmentDifferences)
        try c.encode(fixtures.map(withCauses), forKey: .fixtures)
        try c.encode(findings, forKey: .findings)
        try c.encodeIfPresent(shard, forKey: .shard)
        try c.encodeIfPresent(shardPlan, forKey: .shardPlan)
        try c.encodeIfPresent(fixturesRoot, forKey: .fixturesRoot)
        try c.encodeIfPresent(goldens, forKey: .goldens)
        try c.encode(causes, forKey: .causes)
        try c.encode(Self.outcomeOf, forKey: .outcomeOf)
    }

    /// Sets `summary` and `causes` from the fixtures and findings.
    public mutating func recount() {
        summary = Summary(tally: fixtures.tally, findings: findings)
        findCauses()
    }

    /// Groups the failing frames (only fixtures that did not pass have any: a spooled run keeps
    /// those in memory).
    private mutating func findCauses() {
        var keys: [String] = []
        var frames: [CauseAnalysis.Frame] = []
        for fixture in fixtures.notPassed {
            for state in fixture.states {
                for frame in state.frames where frame.status.outcome == .failed {
                    keys.append(frame.causeKey)
                    frames.append(
                        CauseAnalysis.frame(
                            fixture: fixture.id, state: state.name, attribution: frame.attribution,
                            missing: frame.status == .missing, timing: frame.pairing != nil))
                }
            }
        }
        let (causes, ids) = CauseAnalysis.group(frames, environment: environmentDifferences)
        self.causes = causes
        causeOfFrame = Dictionary(zip(keys, ids), uniquingKeysWith: { a, _ in a })
    }

    /// The fixture as results.json writes it: each failing frame names its cause.
    public func withCauses(_ fixture: FixtureEntry) -> FixtureEntry {
        guard !causeOfFrame.isEmpty, fixture.outcome != .passed else { return fixture }
        var copy = fixture
        for s in copy.states.indices {
            for f in copy.states[s].frames.indices {
                copy.states[s].frames[f].cause = causeOfFrame[copy.states[s].frames[f].causeKey]
            }
        }
        return copy
    }

    /// The cause of a frame, nil unless it failed.
    public func cause(of frame: FrameEntry) -> Cause? {
        causeOfFrame[frame.causeKey].map { causes[$0 - 1] }
    }

    /// The run's outcome: the worst of its fixtures' and findings' outcomes.
    public var outcome: Outcome { summary.outcome }
    /// The one function from a run to its exit code.
    public var exitCode: Int32 { summary.outcome.exitCode }
}

/// The outcome of a frame, a state, a fixture, a finding or a run, worst last: the exit code
/// is the run's outcome.
public enum Outcome: String, Codable, Sendable, Comparable, CaseIterable {
    /// Nothing failed (exit 0).
    case passed
    /// A frame differs or has no golden, or a check failed (exit 1).
    case failed
    /// Something could not be used: a fixture, a golden, an argument, a write (exit 2).
    case error

    public var exitCode: Int32 {
        switch self {
        case .passed: 0
        case .failed: 1
        case .error: 2
        }
    }

    public static func < (a: Outcome, b: Outcome) -> Bool { a.exitCode < b.exitCode }

    /// A fuzz worker exits so when its parent is gone: no outcome can reach anyone, and the
    /// code is none of a command's.
    public static let orphanedWorkerExitCode: Int32 = 3
}

extension Severity {
    public var outcome: Outcome {
        switch self {
        case .warning: .passed
        case .failure: .failed
        case .error: .error
        }
    }
}

/// Something a run found beyond its frames.
public struct Finding: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// A golden whose fixture, state or frame no longer exists (`--check-orphans`).
        case orphan
        /// The goldens were recorded in another rendering environment.
        case environment
        /// A shard of the set did not report (merge-reports).
        case missingShard
        /// The reports merged come from different splits.
        case mixedShards
        /// The shards ran different layoutsnap versions.
        case versionMismatch
        /// No fixture was selected: a path or filter that matches nothing.
        case emptySelection
        /// An image a report names is gone (merge-reports).
        case missingImage
        /// The result cache could not be used as configured (a server that did not answer, an
        /// entry refused): a warning; the fixtures ran without it.
        case cache
        /// `--cache-audit`: a cached result disagreed with a rendering of the same key.
        case cacheAudit
    }

    public var kind: Kind
    public var severity: Severity
    public var message: String
    /// What it is about: a golden key (`posts/x/01-expand/003.png`), a shard (`4/4`).
    public var subject: String?

    public init(kind: Kind, severity: Severity, message: String, subject: String? = nil) {
        self.kind = kind
        self.severity = severity
        self.message = message
        self.subject = subject
    }

    public var outcome: Outcome { severity.outcome }
}

/// Counts over the whole run, derived from its fixtures and findings. `passed`…`missing`
/// (and `recorded`, `unchanged`, `rendered` for record and render) count frames; `errors` counts
/// unreadable and unwritable frames plus fixtures that could not be used; `frames` is the total
/// number of frames; `orphans` and `failingFindings` count findings that fail the run.
public struct Summary: Codable, Sendable, Equatable {
    public var passed = 0
    public var similar = 0
    public var failed = 0
    public var missing = 0
    public var errors = 0
    public var frames = 0
    public var recorded = 0
    public var unchanged = 0
    public var rendered = 0
    public var fixtures = 0
    /// Frames whose result came from the result cache (counted in passed too).
    public var cached = 0
    /// States, and those that failed or errored, and fixtures that could not be used: JUnit's
    /// counts (a testcase per state), kept here so its header needs no second pass over a
    /// spooled run. Not written to results.json; derived again when one is read.
    public internal(set) var states = 0
    public internal(set) var failingStates = 0
    public internal(set) var erroredStates = 0
    public internal(set) var unusableFixtures = 0
    public var orphans = 0
    /// Lint findings not ignored, and those of them that fail the run (`--lint error`).
    public var lints = 0
    public var failingLints = 0
    /// Findings that fail the run (orphans included).
    public var failingFindings = 0
    public var outcome: Outcome = .passed
    /// The run's exit code: its outcome's (written to results.json for scripts, never read back).
    public var exitCode: Int32 { outcome.exitCode }

    public init(fixtures entries: [FixtureEntry], findings: [Finding]) {
        var tally = Tally()
        for fixture in entries { tally.add(fixture) }
        self.init(tally: tally, findings: findings)
    }

    init(tally: Tally, findings: [Finding]) {
        self = tally.counts
        var worst = tally.worst
        for finding in findings {
            if finding.kind == .orphan { orphans += 1 }
            if finding.severity != .warning { failingFindings += 1 }
            worst = max(worst, finding.outcome)
        }
        outcome = worst
    }

    private init() {}

    /// The fixtures' part of a summary, added to one fixture at a time.
    struct Tally: Sendable {
        var counts = Summary()
        var worst = Outcome.passed

        mutating func add(_ fixture: FixtureEntry) {
            counts.fixtures += 1
            if fixture.error != nil {
                counts.errors += 1
                counts.unusableFixtures += 1
            }
            for state in fixture.states {
                if fixture.cached == true { counts.cached += state.frames.count }
                counts.states += 1
                switch state.outcome {
                case .passed: break
                case .failed: counts.failingStates += 1
                case .error: counts.erroredStates += 1
                }
                for frame in state.frames {
                    counts.frames += 1
                    for lint in frame.lints ?? [] {
                        counts.lints += 1
                        if lint.severity != .warning { counts.failingLints += 1 }
                    }
                    switch frame.status {
                    case .passed: counts.passed += 1
                    case .similar: counts.similar += 1
                    case .failed: counts.failed += 1
                    case .missing: counts.missing += 1
                    case .unreadable, .error: counts.errors += 1
                    case .recorded: counts.recorded += 1
                    case .unchanged: counts.unchanged += 1
                    case .rendered: counts.rendered += 1
                    }
                }
            }
            worst = max(worst, fixture.outcome)
        }
    }

    private enum CodingKeys: String, CodingKey {
        case passed, similar, failed, missing, errors, frames, recorded, unchanged, rendered, fixtures, orphans,
            failingFindings, lints, failingLints, cached,
            outcome, exitCode
    }

    // Older results.json files have only the first six counts; the rest is derived again after
    // decoding (`RunResults.recount`), so missing keys read as 0.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func count(_ key: CodingKeys) throws -> Int { try c.decodeIfPresent(Int.self, forKey: key) ?? 0 }
        passed = try count(.passed)
        similar = try count(.similar)
        failed = try count(.failed)
        missing = try count(.missing)
        errors = try count(.errors)
        frames = try count(.frames)
        recorded = try count(.recorded)
        unchanged = try count(.unchanged)
        rendered = try count(.rendered)
        fixtures = try count(.fixtures)
        orphans = try count(.orphans)
        failingFindings = try count(.failingFindings)
        lints = try count(.lints)
        failingLints = try count(.failingLints)
        cached = try count(.cached)
        outcome = try c.decodeIfPresent(Outcome.self, forKey: .outcome) ?? .passed
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        for (key, value) in [
            (CodingKeys.passed, passed), (.similar, similar), (.failed, failed), (.missing, missing), (.errors, errors),
            (.frames, frames), (.recorded, recorded), (.unchanged, unchanged), (.rendered, rendered),
            (.fixtures, fixtures), (.orphans, orphans), (.failingFindings, failingFindings), (.lints, lints),
            (.failingLints, failingLints), (.cached, cached),
        ] {
            try c.encode(value, forKey: key)
        }
        try c.encode(outcome, forKey: .outcome)
        try c.encode(exitCode, forKey: .exitCode)
    }
}

public struct FixtureEntry: Codable, Sendable, Equatable {
    /// "posts/long-body".
    public var id: String
    /// "Fixtures/posts/long-body.json".
    public var file: String
    /// Set when the fixture could not be used at all: category, file, line, column, JSON path.
    public var diagnostic: Diagnostic?
    public var states: [StateEntry]
    /// Seconds the fixture took: decoding, layout, every frame and the comparison (JUnit's suite
    /// time). Absent in older results.
    public var durationSeconds: Double?
    /// The canvas in points, [width, height], when a lint found something or a failing frame has an
    /// attribution (the report draws the findings' and the changed elements' rects over the frame
    /// with it).
    public var canvas: [Double]?
    /// Its frames came from the result cache (docs/cache.md), checked against the goldens
    /// without rendering. Absent when rendered.
    public var cached: Bool?

    public init(
        id: String, file: String, diagnostic: Diagnostic? = nil, states: [StateEntry] = [],
        durationSeconds: Double? = nil
    ) {
        self.id = id
        self.file = file
        self.diagnostic = diagnostic
        self.states = states
        self.durationSeconds = durationSeconds
    }

    /// The diagnostic as one line, "file:line:col: $.path: message"; results.json writes it
    /// beside the diagnostic, as it always has.
    public var error: String? { diagnostic?.description }

    private enum CodingKeys: String, CodingKey {
        case id, file, error, diagnostic, states, durationSeconds, canvas, cached
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        file = try c.decode(String.self, forKey: .file)
        // Files written before the diagnostic have its line alone.
        diagnostic =
            try c.decodeIfPresent(Diagnostic.self, forKey: .diagnostic)
            ?? c.decodeIfPresent(String.self, forKey: .error).map { Diagnostic(.error, .fixture, message: $0) }
        states = try c.decode([StateEntry].self, forKey: .states)
        durationSeconds = try c.decodeIfPresent(Double.self, forKey: .durationSeconds)
        canvas = try c.decodeIfPresent([Double].self, forKey: .canvas)
        cached = try c.decodeIfPresent(Bool.self, forKey: .cached)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(file, forKey: .file)
        try c.encodeIfPresent(error, forKey: .error)
        try c.encodeIfPresent(diagnostic, forKey: .diagnostic)
        try c.encode(states, forKey: .states)
        try c.encodeIfPresent(durationSeconds, forKey: .durationSeconds)
        try c.encodeIfPresent(canvas, forKey: .canvas)
        try c.encodeIfPresent(cached, forKey: .cached)
    }

    /// Whether a state's motion changed (it has a line in the terminal even when it is similar).
    public var hasMotion: Bool { states.contains { $0.motion != nil } }

    /// Whether a lint found something in one of its frames.
    public var hasLints: Bool { states.contains { $0.frames.contains { !($0.lints ?? []).isEmpty } } }

    /// Whether it passed only within a tolerance: CI summaries and annotations mention it.
    public var hasSimilar: Bool { states.contains { $0.frames.contains { $0.status == .similar } } }

    /// Worth a line of its own (and kept in memory by a spool): it did not pass, its motion
    /// changed, it passed only within a tolerance, or a lint found something.
    public var isNoteworthy: Bool { outcome != .passed || hasMotion || hasSimilar || hasLints }

    /// `error` when the fixture could not be used, else the worst of its states.
    public var outcome: Outcome {
        error != nil ? .error : states.reduce(.passed) { max($0, $1.outcome) }
    }
}

public struct StateEntry: Codable, Sendable, Equatable {
    /// "initial", "01-expand".
    public var name: String
    public var frames: [FrameEntry]
    /// verify: how the state's motion differs from its golden's (absent when the motion is the
    /// same, or the state passed).
    public var motion: MotionReport?
    /// Seconds its frames took to render and compare (JUnit's testcase time).
    public var durationSeconds: Double?

    public init(name: String, frames: [FrameEntry], motion: MotionReport? = nil, durationSeconds: Double? = nil) {
        self.name = name
        self.frames = frames
        self.motion = motion
        self.durationSeconds = durationSeconds
    }

    /// The worst of its frames (their pixels and their lints).
    public var outcome: Outcome { frames.reduce(.passed) { max($0, $1.outcome) } }

    /// Its lint findings grouped over consecutive frames.
    public var lintRanges: [LintRange] {
        // Every frame, those without findings too: a frame without one breaks a range.
        LintRange.ranges(
            state: name,
            frames: frames.filter { $0.pairing != .removed }.map { f in (f.index, (f.lints ?? []).map(\.finding)) })
    }

    /// Whether any of its lint findings fails the run.
    public var hasFailingLints: Bool { frames.contains { ($0.lints ?? []).contains { $0.severity != .warning } } }
}

public struct FrameEntry: Codable, Sendable, Equatable {
    public var index: Int
    /// Seconds since the state's step.
    public var time: Double
    public var progress: Double
    public var status: FrameStatus
    /// "2210 pixels differ (0.41%)", "size differs: golden 390x500, actual 390x520", …
    public var message: String?
    /// Key below the goldens folder: "posts/x/01-expand/007.png".
    public var golden: String
    /// Path, relative to the report folder, of the expected image copied into it.
    public var expected: String?
    /// Path, relative to the report folder, of the actual frame.
    public var actual: String?
    /// Path, relative to the report folder, of the diff image.
    public var diff: String?
    public var metrics: DiffFigures?
    /// "body.y +4.00", "card.height -12.50".
    public var layoutChanges: [String]
    /// verify, when a state's motion changed its timing: the golden frame this frame was compared
    /// with (at the same progress, or time after a shift), when it is not its own index.
    public var pairedWith: Int?
    /// verify: `new` for a frame the golden motion has no counterpart for; `removed` for a golden
    /// frame the new motion has none for (its `index` is the golden's, and it has no actual image).
    public var pairing: FramePairing?
    /// verify: what the layout lints found in this frame and the fixture does not ignore (absent
    /// when nothing, or when lints are off).
    public var lints: [LintEntry]?
    /// verify, a failing frame: which elements explain its differing pixels (docs/review.md).
    public var attribution: FrameAttribution?
    /// verify, a failing frame: the id of its cause in `RunResults.causes` (set as results.json is
    /// written; derived, never read back).
    public var cause: Int?
    /// verify, a frame that did not pass: the XXH3-64 of the golden file's bytes as verify read
    /// them (absent when there was none). An approval writes the golden only while it still has
    /// this hash.
    public var goldenHash: String?

    /// The frame's key among the run's frames (a removed golden frame may share its index with a
    /// new one).
    public var causeKey: String { pairing == .removed ? golden + "#removed" : golden }

    public init(
        index: Int,
        time: Double,
        progress: Double,
        status: FrameStatus,
        message: String? = nil,
        golden: String,
        expected: String? = nil,
        actual: String? = nil,
        diff: String? = nil,
        metrics: DiffFigures? = nil,
        layoutChanges: [String] = [],
        pairedWith: Int? = nil,
        pairing: FramePairing? = nil,
        lints: [LintEntry]? = nil,
        attribution: FrameAttribution? = nil,
        goldenHash: String? = nil
    ) {
        self.index = index
        self.time = time
        self.progress = progress
        self.status = status
        self.message = message
        self.golden = golden
        self.expected = expected
        self.actual = actual
        self.diff = diff
        self.metrics = metrics
        self.layoutChanges = layoutChanges
        self.pairedWith = pairedWith
        self.pairing = pairing
        self.lints = lints
        self.attribution = attribution
        self.goldenHash = goldenHash
    }

    /// The worst of its pixels' verdict and its lints'.
    public var outcome: Outcome {
        (lints ?? []).reduce(status.outcome) { max($0, $1.severity.outcome) }
    }
}

/// A layout lint's finding in a frame (see `LayoutLinter`).
public struct LintEntry: Codable, Sendable, Equatable {
    /// Written as its name (`text-overlap`); reading a name no rule has is an error naming it.
    public var rule: LintRule
    /// The elements involved (`["body", "summary"]`).
    public var elements: [String]
    /// `body overlaps summary by 14.2 pt`.
    public var detail: String
    /// Where, in canvas points: [x, y, width, height].
    public var rect: [Double]
    /// The size of the problem (points, or how far under the contrast needed): how a range of
    /// frames picks its worst frame to quote.
    public var amount: Double
    /// `warning` (verify --lint warn, the default) or `failure` (--lint error, and `lint`).
    public var severity: Severity

    public init(_ finding: LintFinding, severity: Severity) {
        rule = finding.rule
        elements = finding.elements
        detail = finding.detail
        let r = finding.rect
        rect = [r.x, r.y, r.width, r.height].map { ($0 * 100).rounded() / 100 }
        amount = (finding.amount * 100).rounded() / 100
        self.severity = severity
    }

    /// Back to a finding (for grouping frames into ranges).
    public var finding: LintFinding {
        LintFinding(
            rule: rule, elements: elements, detail: detail,
            rect: Rect(
                x: rect.first ?? 0, y: rect.count > 1 ? rect[1] : 0, width: rect.count > 2 ? rect[2] : 0,
                height: rect.count > 3 ? rect[3] : 0),
            amount: amount)
    }
}

/// A frame without a counterpart when frames are paired by motion (see `MotionReport.pairs`).
public enum FramePairing: String, Codable, Sendable, Hashable {
    /// The new motion has this frame; the golden motion has nothing at its point.
    case new
    /// The golden has this frame; the new motion has nothing at its point.
    case removed
}

/// What happened to one frame: the frame's verdict. verify gives the first six (`passed` is an
/// identical frame, `failed` a different one, in the words of `layoutsnap diff`); record gives
/// `recorded` and `unchanged` (and `similar` for a golden kept within the tolerance, `failed` for
/// a difference `--update missing` leaves alone); render gives `rendered`. Any command can give
/// `error` (the frame could not be written).
public enum FrameStatus: String, Codable, Sendable, CaseIterable {
    /// Identical to the golden.
    case passed
    /// Pixels differ within the fixture's tolerance: a pass, reported.
    case similar
    /// Pixels (or the size) differ from the golden.
    case failed
    /// There is no golden for this frame.
    case missing
    /// The golden could not be used (truncated, not a PNG, a link out of the goldens folder).
    case unreadable
    /// The frame could not be written (disk full, permissions).
    case error
    /// Record: a golden was written (new or changed).
    case recorded
    /// Record: the golden already had these pixels; nothing was written.
    case unchanged
    /// Render: the frame was written to the output folder.
    case rendered

    public var outcome: Outcome {
        switch self {
        case .passed, .similar, .recorded, .unchanged, .rendered: .passed
        case .failed, .missing: .failed
        case .unreadable, .error: .error
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let raw = try container.decode(String.self)
        guard let status = FrameStatus(rawValue: raw) else {
            let known = FrameStatus.allCases.map(\.rawValue).joined(separator: ", ")
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "unknown frame status \"\(raw)\" (expected one of: \(known))"
            )
        }
        self = status
    }
}
