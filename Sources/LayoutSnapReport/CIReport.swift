import Foundation
import LayoutSnapCore
import LayoutSnapDiff
import LayoutSnapJSON

/// What a CI server shows from a run, drawn from the one verdict like every other output:
/// GitHub Actions workflow commands (an annotation per fixture that did not pass, warnings for
/// similar frames and environment drift) and a Markdown summary (the job summary, or a PR comment
/// on any CI).
public enum CIReport {
    /// GitHub's workflow-command lines for the run. `workspace` is the repository root
    /// (`$GITHUB_WORKSPACE`) and `cwd` the working directory: annotations name fixture files
    /// relative to the root, as GitHub needs to place them.
    public static func githubAnnotations(_ results: RunResults, workspace: String?, cwd: String) -> [String] {
        var lines: [String] = []
        // A fixture that cannot be used: one annotation per cause (a mistake in a file is met by
        // each of its variants), each at its own line.
        let unusable = results.fixtures.noteworthy.filter { $0.diagnostic != nil }
        // The first fixture of each cause, found once (not a scan per cause: a fuzzed suite has
        // thousands of both).
        var firstOf: [Diagnostic: FixtureEntry] = [:]
        for fixture in unusable {
            if let key = fixture.diagnostic?.withoutVariant, firstOf[key] == nil { firstOf[key] = fixture }
        }
        for cause in Diagnostic.byCause(unusable.compactMap(\.diagnostic)) {
            let first = firstOf[cause.withoutVariant]
            let title = "layoutsnap: \(first.map { FixtureVariant.baseID(of: $0.id) } ?? "fixture") cannot be used"
            for one in cause.all {
                var properties = [
                    ("file", repositoryPath(one.file ?? first?.file ?? "", workspace: workspace, cwd: cwd))
                ]
                if let line = one.line { properties.append(("line", String(line))) }
                if let column = one.column { properties.append(("col", String(column))) }
                lines.append(command("error", properties + [("title", title)], one.description))
            }
        }
        for fixture in results.fixtures.noteworthy where fixture.diagnostic == nil {
            let properties = [("file", repositoryPath(fixture.file, workspace: workspace, cwd: cwd))]
            let source = FixtureSource(file: fixture.file, cwd: cwd)
            let failing = fixture.states.filter { $0.frames.contains { $0.status.outcome != .passed } }
            if !failing.isEmpty {
                let text = failing.map { stateLine($0) }.joined(separator: "\n")
                // At what changed: the changed element's entry in the fixture, else the step that
                // made the first failing state, else the fixture's first line.
                let line =
                    failing.lazy.flatMap(\.frames).compactMap { frame in
                        frame.attribution?.elements.lazy.filter { !$0.isMovedUnchanged }.compactMap {
                            source.elementLine($0.id)
                        }.first
                    }.first
                    ?? failing.lazy.compactMap { source.stepLine(state: $0.name) }.first ?? 1
                lines.append(
                    command(
                        "error", properties + [("line", String(line)), ("title", "layoutsnap: \(fixture.id) failed")],
                        text))
            }
            // Lint findings: an error when they fail the run (--lint error), else a warning.
            let linted = fixture.states.filter { !$0.lintRanges.isEmpty }
            if !linted.isEmpty {
                var placed = properties
                if let line = linted.lazy.compactMap({ source.stepLine(state: $0.name) }).first {
                    placed.append(("line", String(line)))
                }
                let text = linted.flatMap { state in
                    state.lintRanges.map { "\(state.name) \($0.frames): \($0.worst.rule.rawValue): \($0.worst.detail)" }
                }
                let failingLints = linted.contains { $0.hasFailingLints }
                lines.append(
                    command(
                        failingLints ? "error" : "warning", placed + [("title", "layoutsnap lint: \(fixture.id)")],
                        text.joined(separator: "\n")))
            }
            let similar = fixture.states.filter {
                $0.outcome == .passed && $0.frames.contains { $0.status == .similar }
            }
            if !similar.isEmpty {
                let text = similar.map { stateLine($0) }.joined(separator: "\n")
                lines.append(
                    command("warning", properties + [("title", "layoutsnap: \(fixture.id) within tolerance")], text))
            }
        }
        for finding in results.findings {
            let kind = finding.severity == .warning ? "warning" : "error"
            lines.append(command(kind, [("title", "layoutsnap: \(finding.kind.rawValue)")], finding.message))
        }
        if !results.environmentDifferences.isEmpty {
            lines.append(
                command(
                    "warning", [("title", "layoutsnap: rendering environment differs from the goldens'")],
                    results.environmentDifferences.joined(separator: "\n")))
        }
        return lines
    }

    /// One state's line: what changed in motion terms, then its frames' counts and the largest
    /// pixel difference.
    static func stateLine(_ state: StateEntry) -> String {
        var parts: [String] = []
        var counts: [FrameStatus: Int] = [:]
        for frame in state.frames { counts[frame.status, default: 0] += 1 }
        for status in [FrameStatus.failed, .missing, .unreadable, .error, .similar] where (counts[status] ?? 0) > 0 {
            // Statuses read as adjectives (`2 failed`), but `error` is a noun: `2 errors`.
            let n = counts[status]!
            parts.append(status == .error ? Plural.count(n, "error") : "\(n) \(status.rawValue)")
        }
        var line =
            "\(state.name): " + parts.joined(separator: ", ") + " of " + Plural.count(state.frames.count, "frame")
        if let worst = state.frames.compactMap({ f in f.metrics.map { (f, $0) } }).max(by: {
            $0.1.differentPixels < $1.1.differentPixels
        }) {
            line +=
                "; most: frame \(worst.0.index), \(Plural.count(worst.1.differentPixels, "pixel")) \(Plural.word(worst.1.differentPixels, "differs", "differ"))"
        }
        if let motion = state.motion {
            line += "; motion: " + motion.description
        } else if let changes = state.frames.first(where: { !$0.layoutChanges.isEmpty })?.layoutChanges {
            line += "; layout: " + changes.prefix(4).joined(separator: ", ")
        }
        return line
    }

    /// A fixture's file, parsed again to place annotations (only for fixtures that did not pass).
    struct FixtureSource {
        let root: JSONNode?

        init(file: String, cwd: String) {
            let path = file.hasPrefix("/") ? file : (cwd.hasSuffix("/") ? cwd : cwd + "/") + file
            root = FileManager.default.contents(atPath: path).flatMap { try? JSONParser.parse([UInt8]($0)) }
        }

        private func member(_ key: String, of node: JSONNode?) -> JSONNode? {
            guard case .object(let members)? = node?.value else { return nil }
            return members.last { $0.key == key }?.value
        }

        private func items(_ node: JSONNode?) -> [JSONNode] {
            guard case .array(let items)? = node?.value else { return [] }
            return items
        }

        /// The line of the step that makes state `NN-event` (`steps[NN - 1]`), or nil (the
        /// initial state, or a file that cannot be read).
        func stepLine(state: String) -> Int? {
            guard let dash = state.firstIndex(of: "-"), let n = Int(state[..<dash]), n >= 1 else { return nil }
            let steps = items(member("steps", of: root))
            return n - 1 < steps.count ? steps[n - 1].position.line : nil
        }

        /// The line where the element `id` of the layout is written: a message's entry (by its
        /// `id`, or by its place when it has none, or a step that adds it), or the top-level field
        /// of the same name (`title`, `suggestions`, `input`); nil when the fixture does not write it.
        func elementLine(_ id: String) -> Int? {
            if id.hasPrefix("message:") {
                let name = String(id.dropFirst("message:".count))
                func named(_ node: JSONNode) -> Bool {
                    if case .string(let s)? = member("id", of: node)?.value { return s == name }
                    return false
                }
                let messages = items(member("messages", of: root))
                if let entry = messages.first(where: named) { return entry.position.line }
                if let n = Int(name), n >= 1, n <= messages.count, member("id", of: messages[n - 1]) == nil {
                    return messages[n - 1].position.line
                }
                for step in items(member("steps", of: root)) {
                    for event in ["receive", "send", "stream"] {
                        if let added = member(event, of: step), named(added) { return step.position.line }
                    }
                }
                return nil
            }
            return member(id, of: root)?.position.line
        }
    }

    /// `file` relative to the repository root when it lies inside it.
    static func repositoryPath(_ file: String, workspace: String?, cwd: String) -> String {
        let absolute = file.hasPrefix("/") ? file : (cwd.hasSuffix("/") ? cwd : cwd + "/") + file
        guard let workspace, !workspace.isEmpty else { return file }
        let root = workspace.hasSuffix("/") ? workspace : workspace + "/"
        return absolute.hasPrefix(root) ? String(absolute.dropFirst(root.count)) : file
    }

    /// `::error file=a.json,title=...::message`, escaped as GitHub's workflow commands require.
    static func command(_ name: String, _ properties: [(String, String)], _ message: String) -> String {
        func data(_ s: String) -> String {
            s.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
                .replacingOccurrences(of: "\n", with: "%0A")
        }
        func property(_ s: String) -> String {
            data(s).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
        }
        let props = properties.map { "\($0.0)=\(property($0.1))" }.joined(separator: ",")
        return "::\(name)" + (props.isEmpty ? "" : " " + props) + "::" + data(message)
    }

    /// GitHub keeps at most 1 MiB of a step's summary.
    public static let maxSummaryBytes = 1 << 20

    /// The run as Markdown: the verdict and counts, then a table of every state that did not pass
    /// (fixture, state, frames, largest difference, what changed), cut with a note to stay under
    /// `maxBytes`.
    public static func markdown(_ results: RunResults, report: String? = nil, maxBytes: Int = maxSummaryBytes) -> String
    {
        let s = results.summary
        let verdict = results.outcome == .passed ? "passed" : results.outcome == .failed ? "failed" : "error"
        var head = "## layoutsnap \(results.command.rawValue): \(verdict)\n\n"
        var counts = ["\(s.passed) passed", "\(s.failed) failed", "\(s.missing) missing"]
        if s.similar > 0 { counts.append("\(s.similar) similar") }
        if s.errors > 0 { counts.append(Plural.count(s.errors, "error")) }
        if s.orphans > 0 { counts.append(Plural.count(s.orphans, "orphan")) }
        if s.lints > 0 {
            counts.append(
                Plural.count(s.lints, "lint finding")
                    + (s.failingLints > 0 ? "" : " (\(Plural.word(s.lints, "warning")))"))
        }
        head +=
            "\(Plural.count(s.frames, "frame")) of \(Plural.count(s.fixtures, "fixture")): "
            + counts.joined(separator: ", ") + ".\n\n"
        // Thousands of orphans must not push the table out: the first 50 findings, then a count.
        for finding in results.findings.prefix(50) {
            head += "- **\(finding.kind.rawValue)**: \(cell(finding.message))\n"
        }
        if results.findings.count > 50 {
            head += "- … and \(Plural.count(results.findings.count - 50, "more finding")) (results.json has them all)\n"
        }
        if !results.environmentDifferences.isEmpty {
            head += "- **environment**: " + cell(results.environmentDifferences.joined(separator: "; ")) + "\n"
        }
        if !results.findings.isEmpty || !results.environmentDifferences.isEmpty { head += "\n" }
        // What explains the failing frames comes first: one line per cause.
        if !results.causes.isEmpty {
            let total = results.causes.reduce(0) { $0 + $1.frames }
            head +=
                results.causes.count == 1
                ? "1 cause explains \(total) of \(Plural.count(total, "failing frame")):\n\n"
                : "\(results.causes.count) causes explain \(Plural.count(total, "failing frame")):\n\n"
            for cause in results.causes.prefix(20) {
                let summary: String = cell(cause.summary).replacingOccurrences(of: "*", with: "\\*")
                let counts: String =
                    "\(Plural.count(cause.frames, "frame")) in \(Plural.count(cause.states, "state")) of \(Plural.count(cause.fixtures, "fixture"))"
                head += "\(cause.id). **" + summary + "**: " + counts + "\n"
            }
            if results.causes.count > 20 {
                head += "- … and \(Plural.count(results.causes.count - 20, "more cause")) (results.json has them all)\n"
            }
            head += "\n"
        }
        var rows: [String] = []
        for fixture in results.fixtures.noteworthy {
            if let error = fixture.error {
                rows.append("| `\(cell(fixture.id))` | | error | | | \(cell(error)) |")
                continue
            }
            for state in fixture.states
            where state.outcome != .passed || state.frames.contains(where: { $0.status == .similar }) {
                var bad = 0
                var worst = 0
                for frame in state.frames where frame.status != .passed {
                    bad += 1
                    worst = max(worst, frame.metrics?.differentPixels ?? 0)
                }
                let lint = state.lintRanges.first.map {
                    "lint \($0.worst.rule.rawValue) \($0.frames): \($0.worst.detail)"
                }
                let causeIDs: [Int] = Set(state.frames.compactMap { results.causeOfFrame[$0.causeKey] }).sorted()
                let causeText: String? = causeIDs.isEmpty ? nil : causeIDs.map { "cause \($0)" }.joined(separator: ", ")
                let detail =
                    state.motion.map { "motion: " + $0.description }
                    ?? state.frames.first(where: { !$0.layoutChanges.isEmpty }).map {
                        "layout: " + $0.layoutChanges.prefix(4).joined(separator: ", ")
                    }
                    ?? state.frames.first(where: { $0.status != .passed })?.message ?? lint ?? ""
                let what = causeText.map { $0 + "; " + detail } ?? detail
                let outcome = state.outcome == .passed ? "similar" : state.outcome.rawValue
                rows.append(
                    "| `\(cell(fixture.id))` | `\(cell(state.name))` | \(outcome) | \(bad) of \(state.frames.count) | \(worst) | \(cell(what)) |"
                )
            }
        }
        var out = head
        if !rows.isEmpty {
            out += "| fixture | state | outcome | frames | most pixels | what changed |\n|---|---|---|---|---|---|\n"
            let tail =
                report.map { "\nThe report: `\($0)/index.html` (actual, expected and diff images of each frame).\n" }
                ?? ""
            for (i, row) in rows.enumerated() {
                let note =
                    "\n… and \(rows.count - i) more rows, cut to keep this summary under \(maxBytes / 1024) KiB; results.json has them all.\n"
                if out.utf8.count + row.utf8.count + 1 + note.utf8.count + tail.utf8.count > maxBytes {
                    out += note
                    return out + tail
                }
                out += row + "\n"
            }
            out += tail
        }
        return out
    }

    /// Text for a table cell: no line breaks, pipes escaped.
    static func cell(_ s: String) -> String {
        s.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\r", with: " ").replacingOccurrences(
            of: "\n", with: " ")
    }
}
