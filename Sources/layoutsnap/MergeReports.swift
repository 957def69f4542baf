import ArgumentParser
import Foundation
import LayoutSnapReport
import LayoutSnapRunner

struct MergeReports: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge-reports",
        abstract: "Join the report folders of verify shards (--shard I/N) into one report.",
        discussion: "Exit code as a whole verify would give: 0 all passed, 1 a frame failed or is missing, 2 an error in any shard.")

    @Argument(help: "The shards' report folders (each with its results.json).")
    var reports: [String] = []

    @Option(help: "The merged report folder (index.html, results.json, images).")
    var out: String

    @OptionGroup var resultFiles: ResultFileOptions

    @Flag(help: "Print only errors and the summary line.")
    var quiet = false

    func run() throws {
        try Diagnostics.run {
            let merged = try ReportMerger(inputs: reports, output: out).merge()
            for warning in merged.warnings { Diagnostics.printWarning(warning) }
            let builder = ReportBuilder(reportDirectory: out, goldens: "")
            try builder.write(merged.results)
            try resultFiles.write(merged.results)
            let s = merged.results.summary
            if !merged.results.environmentDifferences.isEmpty {
                Diagnostics.printWarning(TerminalReport.environmentDiffers(merged.results.environmentDifferences))
            }
            if !quiet { Diagnostics.out("merged \(reports.count) report\(reports.count == 1 ? "" : "s"), \(merged.results.fixtures.count) fixtures: \(out)/index.html") }
            Diagnostics.out(TerminalReport.summaryLine(passed: s.passed, failed: s.failed, similar: s.similar, missing: s.missing, errors: s.errors))
            return s.exitCode
        }
    }
}
