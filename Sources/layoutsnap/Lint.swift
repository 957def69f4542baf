import ArgumentParser
import Foundation
import LayoutSnapCore
import LayoutSnapReport
import LayoutSnapRunner

/// `layoutsnap lint`: layout bugs in every frame, found from the layout alone (no golden, no pixels).
struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract:
            "Find visual bugs in every frame from the layout: overlapping text, elements outside their container, cut lines, low contrast, a hidden caret.",
        discussion:
            "Rules: \(LintRule.allCases.map(\.rawValue).joined(separator: ", ")). A fixture accepts a finding with \"lint\": {\"ignore\": [{\"rule\", \"element\", \"reason\"}]}. Prints one line per rule and fixture with its counts, quoting the worst finding; --verbose prints each. Exit 1 when anything not ignored is found, 2 when a fixture cannot be read."
    )

    @OptionGroup var options: BatchOptions

    @Flag(help: "Every finding by state and frames, instead of one line per rule and fixture with its counts.")
    var verbose = false

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
            var accepted = 0
            var frames = 0
            var fixtures = 0
            var grouped = false
            let sorted = results.sorted(by: { $0.ref.id < $1.ref.id })
            // One line per cause: a file's mistake is met by each of its variants.
            for cause in Diagnostic.byCause(sorted.compactMap(\.error)) {
                for diagnostic in cause.all { Diagnostics.printError(diagnostic.description) }
            }
            for r in sorted {
                if r.error != nil {
                    errors += 1
                    continue
                }
                frames += r.frames
                findings += r.findings
                ignored += r.ignored
                accepted += r.accepted
                if !r.ranges.isEmpty { fixtures += 1 }
                let lines = TerminalText.lintLines(id: r.ref.id, ranges: r.ranges, verbose: verbose)
                for line in lines.lines { Diagnostics.out(line) }
                grouped = grouped || lines.grouped
            }
            if grouped && !options.quiet {
                Diagnostics.out("Each finding by state and frame: layoutsnap lint --verbose")
            }
            Diagnostics.out(
                TerminalText.lintSummary(
                    fixtures: results.count, frames: frames, findings: findings, ignored: ignored, accepted: accepted,
                    linted: fixtures,
                    unreadable: errors))
            return errors > 0 ? .error : findings > 0 ? .failed : .passed
        }
    }
}
