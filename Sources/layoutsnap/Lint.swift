import ArgumentParser
import Foundation
import LayoutSnapCore
import LayoutSnapReport
import LayoutSnapRunner

/// `layoutsnap lint`: layout bugs in every frame, found from the layout alone (no golden, no pixels).
struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Find visual bugs in every frame from the layout: overlapping text, elements outside their container, cut lines, low contrast, a hidden caret.",
        discussion:
            "Rules: \(LintRule.allCases.map(\.rawValue).joined(separator: ", ")). A fixture accepts a finding with \"lint\": {\"ignore\": [{\"rule\", \"element\", \"reason\"}]}. Exit 1 when anything not ignored is found, 2 when a fixture cannot be read."
    )

    @OptionGroup var options: BatchOptions

    func run() throws {
        try Diagnostics.run {
            let run = LintRun(settings: options.settings(try ProjectSettings.load()))
            let (results, empty) = try run.run(progress: options.progress("lint"))
            if let empty {
                Diagnostics.printError(empty)
                return .error
            }
            var errors = 0
            var findings = 0
            var ignored = 0
            var frames = 0
            var fixtures = 0
            for r in results.sorted(by: { $0.ref.id < $1.ref.id }) {
                if let error = r.error {
                    Diagnostics.printError(error.description)
                    errors += 1
                    continue
                }
                frames += r.frames
                findings += r.findings
                ignored += r.ignored
                if !r.ranges.isEmpty { fixtures += 1 }
                for range in r.ranges {
                    Diagnostics.out(
                        "LINT \(r.ref.id) \(range.state) \(range.frames): \(range.worst.rule.rawValue): \(range.worst.detail)"
                    )
                }
            }
            let ignoredNote = ignored > 0 ? " (\(ignored) ignored)" : ""
            Diagnostics.out(
                "lint: \(Plural.count(results.count, "fixture")), \(Plural.count(frames, "frame")): "
                    + "\(Plural.count(findings, "finding"))\(ignoredNote) in \(Plural.count(fixtures, "fixture"))"
                    + (errors > 0 ? ", \(errors) unreadable" : ""))
            return errors > 0 ? .error : findings > 0 ? .failed : .passed
        }
    }
}
