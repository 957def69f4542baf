import ArgumentParser
import LayoutSnapCore
import LayoutSnapReport
import LayoutSnapRunner

struct MergeReports: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge-reports",
        abstract: "Join the report folders of verify shards (--shard I/N) into one report.",
        discussion:
            "Exit code as a whole verify would give: 0 all passed, 1 a frame failed or is missing (or a shard of the set is missing), 2 an error in any shard."
    )

    @Argument(help: "The shards' report folders (each with its results.json).")
    var reports: [String] = []

    @Option(help: "The merged report folder (index.html, results.json, images).")
    var out: String

    @OptionGroup var resultFiles: ResultFileOptions

    @Flag(help: "A shard missing from the set is a warning, not a failure.")
    var allowMissingShards = false

    @Flag(help: "Print only errors and the summary line.")
    var quiet = false

    func run() throws {
        try Diagnostics.run {
            let results = try ReportMerger(inputs: reports, output: out, allowMissingShards: allowMissingShards).run(
                resultFiles: resultFiles.files)
            if !quiet {
                Diagnostics.out(
                    "merged \(Plural.count(reports.count, "report")), \(Plural.count(results.fixtures.count, "fixture")): \(out)/index.html"
                )
            }
            Diagnostics.print(
                TerminalText.diagnostics(results) + TerminalText.findings(results) + [
                    .out(TerminalText.summaryLine(results))
                ])
            return results.outcome
        }
    }
}
