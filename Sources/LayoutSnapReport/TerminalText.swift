import Foundation
import LayoutSnapCore

/// What a batch command prints, drawn from the run's one value (`RunResults`): problems grouped
/// per fixture and state, each with what to do next, the run's findings, and the summary line.
/// The command line only prints these lines (stdout for results, stderr for diagnostics).
public enum TerminalText {
    public enum Line: Sendable, Equatable {
        /// A result, on stdout.
        case out(String)
        /// `error: ...` on stderr.
        case error(String)
        /// `warning: ...` on stderr.
        case warning(String)
        /// Information on stderr (stdout stays the results): the shard plan.
        case info(String)
    }

    /// Where the run's report went and how it was called, for the advice after a failure.
    public struct Context: Sendable {
        /// The report folder (verify), nil for runs without one.
        public var report: String?
        /// The defaults of `accept`: when the run's goldens or report differ, the advice says so.
        public var defaultGoldens: String
        public var defaultReport: String
        public var quiet: Bool
        /// Every state's own lines (MOTION, FAIL, layout, MISSING) instead of the causes.
        public var verbose: Bool

        public init(
            report: String? = nil, defaultGoldens: String = "Goldens", defaultReport: String = ".layoutsnap/report",
            quiet: Bool = false,
            verbose: Bool = false
        ) {
            self.report = report
            self.defaultGoldens = defaultGoldens
            self.defaultReport = defaultReport
            self.quiet = quiet
            self.verbose = verbose
        }
    }

    /// The whole output of verify (and merge-reports): diagnostics, the causes with one FAIL or
    /// MISSING line per state under each (or, `verbose`, every state's MOTION, FAIL, MISSING and
    /// layout lines), the findings, the advice and the summary line.
    public static func verify(_ results: RunResults, context: Context) -> [Line] {
        var lines = diagnostics(results)
        var failing: [String] = []
        // Only fixtures that did not pass have FAIL or MISSING lines, and those whose motion
        // changed within their timing tolerance a MOTION line (a spooled run keeps both in memory).
        let noteworthy = results.fixtures.noteworthy
        if context.verbose {
            for fixture in noteworthy {
                var any = false
                for state in fixture.states {
                    let stateLines = self.stateLines(fixture, state, frames: state.frames, motion: true, layout: true)
                    any = any || stateLines.failed
                    lines += stateLines.lines.map { .out($0) }
                }
                if any { failing.append(fixture.id) }
            }
        } else {
            lines += causeLines(results, fixtures: noteworthy)
            for fixture in noteworthy {
                if fixture.states.contains(where: { $0.frames.contains { $0.status.outcome == .failed } }) {
                    failing.append(fixture.id)
                }
                // Motion within the timing tolerance fails nothing, so no cause has it.
                for state in fixture.states where !state.frames.contains(where: { $0.status.outcome == .failed }) {
                    if let motion = state.motion {
                        lines.append(.out("MOTION \(fixture.id) \(state.name): \(motion.description)"))
                    }
                }
            }
        }
        // Lints after the pixel results: what is wrong in a frame, golden or not; grouped per rule
        // and fixture unless `verbose` (the report has each frame's).
        let lints = noteworthy.map {
            lintLines(id: $0.id, ranges: $0.states.flatMap(\.lintRanges), verbose: context.verbose)
        }
        lines += lints.flatMap(\.lines).map { .out($0) }
        if !context.quiet, lints.contains(where: \.grouped) {
            lines.append(.out("Each lint finding by state and frame: layoutsnap verify --verbose, or the report"))
        }
        lines += findings(results)
        if !context.quiet, let report = context.report {
            var options = ""
            if report != context.defaultReport { options += " --from \(shellQuoted(report + "/results.json"))" }
            if let goldens = results.goldens, goldens != context.defaultGoldens {
                options += " --goldens \(shellQuoted(goldens))"
            }
            let record =
                results.goldens.map { $0 != context.defaultGoldens ? " --goldens \(shellQuoted($0))" : "" } ?? ""
            if !failing.isEmpty {
                lines.append(.out("Actual and diff images are in \(report)/ (open \(report)/index.html)."))
                let ids = failing.count <= 3 ? " " + failing.joined(separator: " ") : ""
                lines.append(
                    .out(
                        "If the change is intended, accept it: layoutsnap accept\(ids)\(options) (or record again: layoutsnap record\(record))"
                    ))
                let reviewOptions = report != context.defaultReport ? " --report \(shellQuoted(report))" : ""
                lines.append(.out("Or review it by cause in the browser: layoutsnap review\(reviewOptions)"))
            }
            lines += healingLines(results, failing: failing, options: options, record: record)
        }
        if !context.quiet {
            if results.outcome != .passed, let report = context.report {
                lines.append(.out("Report: \(report)/index.html"))
            }
        }
        lines.append(.out(summaryLine(results)))
        return lines
    }

    /// Goldens that cannot be read are healed as any other golden is written: the line names the
    /// `accept` that writes the actual frames verify rendered over them (only their fixtures' ids
    /// when other fixtures failed too, so their changes are not accepted along), and the `record`
    /// of their fixture files that renders them again. Nothing when every golden could be read.
    static func healingLines(_ results: RunResults, failing: [String], options: String, record: String) -> [Line] {
        var ids: [String] = []
        var files: [String] = []
        var frames = 0
        for fixture in results.fixtures.notPassed {
            let n = fixture.states.reduce(0) { $0 + $1.frames.filter { $0.status == .unreadable }.count }
            guard n > 0 else { continue }
            frames += n
            ids.append(fixture.id)
            if !files.contains(fixture.file) { files.append(fixture.file) }
        }
        guard frames > 0 else { return [] }
        let named = ids.count <= 3 || !failing.isEmpty
        let accept = "layoutsnap accept" + (named ? " " + ids.map(shellQuoted).joined(separator: " ") : "") + options
        let recordFiles =
            files.count <= 3 || !failing.isEmpty ? " " + files.map(shellQuoted).joined(separator: " ") : ""
        return [
            .out(
                "\(Plural.count(frames, "golden")) cannot be read: \(accept) writes the actual \(Plural.word(frames, "frame")) "
                    + "over \(Plural.word(frames, "it", "them")) (or record \(Plural.word(frames, "it", "them")) again: layoutsnap record\(recordFiles)\(record))"
            )
        ]
    }

    /// `1 cause explains 199 of 199 failing frames: message:* width +4.00, message:* x -4.00`,
    /// then each cause with one line per state whose failing frames it explains.
    public static func causeLines(_ results: RunResults, fixtures: [FixtureEntry]) -> [Line] {
        let causes = results.causes
        guard !causes.isEmpty else { return [] }
        let total = causes.reduce(0) { $0 + $1.frames }
        var lines: [Line] = []
        if causes.count == 1 {
            lines.append(
                .out("1 cause explains \(total) of \(Plural.count(total, "failing frame")): \(causes[0].summary)"))
        } else {
            lines.append(
                .out(
                    "\(causes.count) causes explain \(Plural.count(total, "failing frame")); the first explains \(causes[0].frames): \(causes[0].summary)"
                ))
        }
        // The states of each cause, in fixture order.
        var byCause: [[(fixture: FixtureEntry, state: StateEntry, frames: [FrameEntry])]] = Array(
            repeating: [], count: causes.count)
        for fixture in fixtures {
            for state in fixture.states {
                var framesOf: [Int: [FrameEntry]] = [:]
                for frame in state.frames where frame.status.outcome == .failed {
                    if let id = results.causeOfFrame[frame.causeKey] { framesOf[id, default: []].append(frame) }
                }
                for (id, frames) in framesOf { byCause[id - 1].append((fixture, state, frames)) }
            }
        }
        var motionShown = Set<String>()
        for (i, cause) in causes.enumerated() {
            let where_ =
                "\(Plural.count(cause.frames, "frame")) in \(Plural.count(cause.states, "state")) of \(Plural.count(cause.fixtures, "fixture"))"
            lines.append(.out("CAUSE \(cause.id): \(cause.summary) (\(where_))"))
            for (fixture, state, frames) in byCause[i] {
                // A state's MOTION line, once, before its first frames, when its timing or curve
                // changed (values that only start or end elsewhere are the cause's own changes).
                let timing =
                    state.motion.map { !Set($0.kinds).isDisjoint(with: ["duration", "shift", "curve"]) } ?? false
                let motion = timing && motionShown.insert(fixture.id + "\u{0}" + state.name).inserted
                lines += stateLines(fixture, state, frames: frames, motion: motion, layout: false).lines.map {
                    .out("  " + $0)
                }
            }
        }
        return lines
    }

    /// The lines of one state, for `frames` (the state's, or those of one cause): its motion (when
    /// `motion`), FAIL for new, removed and differing frames, the layout changes of the worst
    /// (when `layout`), MISSING. `failed`: whether a FAIL or MISSING line was written.
    static func stateLines(
        _ fixture: FixtureEntry, _ state: StateEntry, frames: [FrameEntry], motion: Bool, layout: Bool
    ) -> (lines: [String], failed: Bool) {
        var lines: [String] = []
        let failed = frames.filter { $0.status == .failed && $0.pairing == nil }
        let missing = frames.filter { $0.status == .missing }
        // Frames without a counterpart when paired by motion: new ones, and golden ones the new
        // motion does not have (their indices are the golden's).
        let added = frames.filter { $0.status == .failed && $0.pairing == .new }
        let removed = frames.filter { $0.status == .failed && $0.pairing == .removed }
        // What changed in motion terms comes before the pixel counts.
        if motion, let report = state.motion {
            lines.append("MOTION \(fixture.id) \(state.name): \(report.description)")
        }
        if !added.isEmpty {
            lines.append(
                "FAIL \(fixture.id) \(state.name): \(ranges(added.map(\.index))) new (the golden motion has no frame at \(Plural.word(added.count, "its", "their")) point)"
            )
        }
        if !removed.isEmpty {
            lines.append(
                "FAIL \(fixture.id) \(state.name): golden \(ranges(removed.map(\.index))) removed (the new motion has no frame at \(Plural.word(removed.count, "its", "their")) point)"
            )
        }
        if !failed.isEmpty {
            let worst = failed.max {
                ($0.metrics?.differentPixels ?? Int.max) < ($1.metrics?.differentPixels ?? Int.max)
            }!
            let verb = Plural.word(failed.count, "differs", "differ")
            let most = failed.count == 1 ? "" : "most: frame \(worst.index), "
            lines.append(
                "FAIL \(fixture.id) \(state.name): \(ranges(failed.map(\.index))) \(verb) (\(most)\(worst.message ?? ""))"
            )
            if layout, !worst.layoutChanges.isEmpty {
                let shown = worst.layoutChanges.prefix(4).joined(separator: ", ")
                let more = worst.layoutChanges.count > 4 ? " and \(worst.layoutChanges.count - 4) more" : ""
                lines.append("  layout: \(shown)\(more) in \(state.name) frame \(worst.index)")
            }
        }
        if !missing.isEmpty {
            lines.append(
                "MISSING \(fixture.id) \(state.name): \(ranges(missing.map(\.index))) \(Plural.word(missing.count, "has", "have")) no golden"
            )
        }
        return (lines, !(added.isEmpty && removed.isEmpty && failed.isEmpty && missing.isEmpty))
    }

    /// A fixture's lint findings (its states' ranges, in order), for verify and lint alike: one
    /// line per rule, `LINT posts/x text-overlap: 7 findings in 01-expand frames 2-8: body overlaps
    /// summary by 14.2 pt (the worst, frame 5)`; `verbose`, one per rule and elements over
    /// consecutive frames, `LINT posts/x 01-expand frames 2-8: text-overlap: body overlaps summary
    /// by 14.2 pt`, quoting the worst frame. `grouped`: whether the lines left some of those out.
    public static func lintLines(id: String, ranges: [LintRange], verbose: Bool) -> (lines: [String], grouped: Bool) {
        let each = ranges.map { "LINT \(id) \($0.state) \($0.frames): \($0.worst.rule.rawValue): \($0.worst.detail)" }
        if verbose { return (each, false) }
        let groups = LintGroup.groups(ranges).map { group in
            let states = group.frames.count
            let frames = group.frames.reduce(0) { $0 + $1.indices.count }
            var line = "LINT \(id) \(group.rule.rawValue): \(Plural.count(group.findings, "finding"))"
            if group.elements > 1 { line += " on \(Plural.count(group.elements, "element"))" }
            line +=
                states == 1
                ? " in \(group.frames[0].state) \(Self.ranges(group.frames[0].indices))"
                : " in \(Plural.count(frames, "frame")) of \(Plural.count(states, "state"))"
            line += ": \(group.worst.detail)"
            if frames > 1 {
                line += " (the worst, " + (states == 1 ? "" : group.worstState + " ") + "frame \(group.worstFrame))"
            }
            return line
        }
        return (groups, groups.count < each.count)
    }

    /// `lint: 160 fixtures, 2385 frames: 1443 findings (4 ignored, 47 accepted by the built-in
    /// design) in 85 fixtures, 2 unreadable`.
    public static func lintSummary(
        fixtures: Int, frames: Int, findings: Int, ignored: Int, accepted: Int = 0, linted: Int, unreadable: Int
    )
        -> String
    {
        let left =
            (ignored > 0 ? ["\(ignored) ignored"] : [])
            + (accepted > 0 ? ["\(accepted) accepted by the built-in design"] : [])
        return
            "lint: \(Plural.count(fixtures, "fixture")), \(Plural.count(frames, "frame")): \(Plural.count(findings, "finding"))"
            + (left.isEmpty ? "" : " (" + left.joined(separator: ", ") + ")") + " in \(Plural.count(linted, "fixture"))"
            + (unreadable > 0 ? ", \(unreadable) unreadable" : "")
    }

    /// The whole output of record.
    public static func record(_ results: RunResults, pruned: [String], context: Context) -> [Line] {
        var lines = diagnostics(results)
        if !context.quiet {
            for fixture in results.fixtures {
                let frames = fixture.states.flatMap(\.frames)
                let recorded = frames.filter { $0.status == .recorded }
                if !recorded.isEmpty {
                    let new = recorded.filter { $0.message == "new" }.count
                    // The noun agrees with the number nearest it: `1 new, 0 changed frames`.
                    let changed = recorded.count - new
                    lines.append(
                        .out("recorded \(fixture.id): \(new) new, \(Plural.count(changed, "changed frame"))"))
                }
            }
            for key in pruned { lines.append(.out("pruned \(key)")) }
        }
        for fixture in results.fixtures {
            for state in fixture.states {
                let kept = state.frames.filter { $0.status == .failed }
                if !kept.isEmpty {
                    lines.append(
                        .out(
                            "DIFFERS \(fixture.id) \(state.name): \(ranges(kept.map(\.index))) not updated (--update missing writes only missing goldens)"
                        ))
                }
            }
        }
        lines += findings(results)
        lines.append(.out(summaryLine(results)))
        return lines
    }

    /// The whole output of render.
    public static func render(_ results: RunResults, output: String) -> [Line] {
        diagnostics(results) + findings(results) + [.out(summaryLine(results, output: output))]
    }

    /// Fixtures that could not be used and frames whose golden or file could not be used.
    public static func diagnostics(_ results: RunResults) -> [Line] {
        // One line per cause: a file's mistake is met by each of its variants.
        let causes = Diagnostic.byCause(results.fixtures.notPassed.compactMap(\.diagnostic))
        var lines: [Line] = causes.flatMap(\.all).map { .error($0.description) }
        for fixture in results.fixtures.notPassed {
            for state in fixture.states {
                for frame in state.frames where frame.status.outcome == .error {
                    lines.append(
                        .error(
                            "\(fixture.file): \(state.name) frame \(frame.index): \(frame.message ?? frame.status.rawValue)"
                        ))
                }
            }
        }
        return lines
    }

    /// One line per finding: orphans on stdout (they are results), the others as warnings or
    /// errors on stderr.
    public static func findings(_ results: RunResults) -> [Line] {
        var lines: [Line] = []
        for finding in results.findings where finding.kind != .orphan {
            switch finding.severity {
            case .warning: lines.append(.warning(finding.message))
            case .failure, .error: lines.append(.error(finding.message))
            }
        }
        let orphans = results.findings.filter { $0.kind == .orphan }
        for orphan in orphans { lines.append(.out("ORPHAN \(orphan.message)")) }
        if !orphans.isEmpty {
            lines.append(
                .out(
                    "Remove them with: layoutsnap record --prune"
                        + (results.goldens.map { $0 == "Goldens" ? "" : " --goldens \(shellQuoted($0))" } ?? "")))
        }
        return lines
    }

    /// `710 passed, 0 failed` plus similar, missing, errors and failing findings when there are
    /// any (`708 passed, 0 failed, 2 orphans`); record's and render's counts for those commands.
    public static func summaryLine(_ results: RunResults, output: String? = nil) -> String {
        let s = results.summary
        var parts: [String]
        switch results.command {
        case .record:
            parts = ["\(s.recorded) recorded", "\(s.unchanged) unchanged"]
            if s.similar > 0 { parts.append("\(s.similar) kept within tolerance") }
            if s.failed > 0 { parts.append("\(s.failed) not updated") }
            if s.missing > 0 { parts.append("\(s.missing) missing") }
        case .render:
            parts = [Plural.count(s.rendered, "frame") + " rendered" + (output.map { " to \($0)" } ?? "")]
        case .verify:
            parts = ["\(s.passed) passed" + (s.cached > 0 ? " (\(s.cached) from cache)" : ""), "\(s.failed) failed"]
            if s.similar > 0 { parts.append("\(s.similar) similar") }
            if s.missing > 0 { parts.append("\(s.missing) missing") }
        }
        if s.errors > 0 { parts.append(Plural.count(s.errors, "error")) }
        if s.lints > 0 {
            parts.append(
                Plural.count(s.lints, "lint finding")
                    + (s.failingLints > 0 ? "" : " (\(Plural.word(s.lints, "warning")))"))
        }
        if s.orphans > 0 { parts.append(Plural.count(s.orphans, "orphan")) }
        return (parts + findingPhrases(results)).joined(separator: ", ")
    }

    /// The run's failing findings other than orphans, each kind in a few words (`no fixtures
    /// matched`, `environment differs`): the summary line's and the report title's words.
    static func findingPhrases(_ results: RunResults) -> [String] {
        var parts: [String] = []
        for kind in Finding.Kind.allCases where kind != .orphan {
            let n = results.findings.filter { $0.kind == kind && $0.severity != .warning }.count
            guard n > 0 else { continue }
            switch kind {
            case .environment: parts.append("environment differs")
            case .missingShard: parts.append(Plural.count(n, "shard") + " missing")
            case .mixedShards: parts.append("shards of different splits")
            case .versionMismatch: parts.append("shards of different versions")
            case .emptySelection: parts.append("no fixtures matched")
            case .missingImage: parts.append(Plural.count(n, "missing image"))
            case .cacheAudit: parts.append(Plural.count(n, "cache audit failure"))
            case .orphan, .cache: break
            }
        }
        return parts
    }

    /// `frames 1-18`, `frame 3`, `frames 0, 2-4`.
    public static func ranges(_ indices: [Int]) -> String {
        let sorted = indices.sorted()
        var parts: [String] = []
        var i = 0
        while i < sorted.count {
            var j = i
            while j + 1 < sorted.count && sorted[j + 1] == sorted[j] + 1 { j += 1 }
            parts.append(i == j ? "\(sorted[i])" : "\(sorted[i])-\(sorted[j])")
            i = j + 1
        }
        return Plural.word(sorted.count, "frame") + " " + parts.joined(separator: ", ")
    }

    /// A path as a shell word: as it is when it has only safe characters, else in single quotes.
    public static func shellQuoted(_ s: String) -> String {
        let safe = s.unicodeScalars.allSatisfy {
            $0.properties.isAlphabetic || "0123456789-_./@%+=:,".unicodeScalars.contains($0)
        }
        return safe && !s.isEmpty ? s : "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
