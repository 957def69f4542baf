import LayoutSnapRunner

/// What a batch prints: problems grouped per fixture and state, each with what to do next.
enum TerminalReport {
    /// The one warning about a different rendering environment (SPEC §6), apart from pixel results.
    static func environmentDiffers(_ differences: [String]) -> String {
        "environment differs from the one that recorded the goldens: \(differences.joined(separator: "; "))"
    }

    static func summaryLine(_ s: BatchSummary) -> String {
        summaryLine(passed: s.passed, failed: s.failed, similar: s.similar, missing: s.missing,
                    errors: s.fixtureErrors + s.writeErrors + s.unreadable)
    }

    /// `710 passed, 0 failed` plus similar, missing and errors when there are any: the last line
    /// of verify and of merge-reports.
    static func summaryLine(passed: Int, failed: Int, similar: Int, missing: Int, errors: Int) -> String {
        var line = "\(passed) passed, \(failed) failed"
        if similar > 0 { line += ", \(similar) similar" }
        if missing > 0 { line += ", \(missing) missing" }
        return line + (errors > 0 ? ", " + count(errors, "error") : "")
    }

    /// `1 error`, `3 errors`.
    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)" + (n == 1 ? "" : "s") }

    /// `, 2 errors` when there were any fixture or write errors.
    static func errorSuffix(_ s: BatchSummary) -> String {
        let n = s.fixtureErrors + s.writeErrors + s.unreadable
        return n > 0 ? ", " + count(n, "error") : ""
    }

    static func errors(_ results: [FixtureResult]) {
        for r in results {
            if let error = r.error { Diagnostics.printError(error) }
            for f in r.frames where f.status == .error || f.status == .unreadable {
                Diagnostics.printError("\(r.ref.displayPath): \(f.state) frame \(f.index): \(f.detail ?? "failed")")
            }
        }
    }

    static func verify(_ results: [FixtureResult], summary: BatchSummary, quiet: Bool, goldens: String, report: String) {
        errors(results)
        var failing: [String] = []
        for r in results {
            let bad = r.frames.filter { $0.status == .failed || $0.status == .missing }
            guard !bad.isEmpty else { continue }
            failing.append(r.ref.id)
            var byState: [(String, [FrameResult])] = []
            for f in bad {
                if byState.last?.0 == f.state { byState[byState.count - 1].1.append(f) } else { byState.append((f.state, [f])) }
            }
            for (state, frames) in byState {
                let missing = frames.filter { $0.status == .missing }
                let failed = frames.filter { $0.status == .failed }
                if !failed.isEmpty {
                    let worst = failed.max { ($0.metrics?.differentPixels ?? Int.max) < ($1.metrics?.differentPixels ?? Int.max) }!
                    Diagnostics.out("FAIL \(r.ref.id) \(state): \(ranges(failed.map(\.index))) \(failed.count == 1 ? "differs" : "differ") (\(failed.count == 1 ? "" : "most: frame \(worst.index), ")\(worst.detail ?? ""))")
                    if !worst.layoutChanges.isEmpty {
                        let shown = worst.layoutChanges.prefix(4).joined(separator: ", ")
                        let more = worst.layoutChanges.count > 4 ? " and \(worst.layoutChanges.count - 4) more" : ""
                        Diagnostics.out("  layout: \(shown)\(more) in \(state) frame \(worst.index)")
                    }
                }
                if !missing.isEmpty {
                    Diagnostics.out("MISSING \(r.ref.id) \(state): \(ranges(missing.map(\.index))) \(missing.count == 1 ? "has" : "have") no golden")
                }
            }
        }
        if !failing.isEmpty && !quiet {
            Diagnostics.out("Actual and diff images are in \(report)/ (open \(report)/index.html).")
            let ids = failing.count <= 3 ? " " + failing.joined(separator: " ") : ""
            Diagnostics.out("If the change is intended, accept it: layoutsnap accept\(ids) (or record again: layoutsnap record)")
        }
    }

    static func record(_ results: [FixtureResult], summary: BatchSummary, quiet: Bool) {
        errors(results)
        guard !quiet else { return }
        for r in results where r.count(.recorded) > 0 {
            let new = r.frames.filter { $0.status == .recorded && $0.detail == "new" }.count
            let changed = r.count(.recorded) - new
            Diagnostics.out("recorded \(r.ref.id): \(new) new, \(changed) changed frames")
        }
    }

    /// `frames 1-18`, `frame 3`, `frames 0, 2-4`.
    static func ranges(_ indices: [Int]) -> String {
        let sorted = indices.sorted()
        var parts: [String] = []
        var i = 0
        while i < sorted.count {
            var j = i
            while j + 1 < sorted.count && sorted[j + 1] == sorted[j] + 1 { j += 1 }
            parts.append(i == j ? "\(sorted[i])" : "\(sorted[i])-\(sorted[j])")
            i = j + 1
        }
        return (sorted.count == 1 ? "frame " : "frames ") + parts.joined(separator: ", ")
    }
}
