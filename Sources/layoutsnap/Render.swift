import ArgumentParser
import Foundation
import LayoutSnapRunner

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write every frame as PNG (and each fixture's layout.json) without comparing.")

    @OptionGroup var options: BatchOptions

    @Option(help: "The output folder (frames go to OUT/<fixture>/<state>/<frame>.png).")
    var out: String

    func run() throws {
        try Diagnostics.run {
            let refs = try options.discover()
            let progress = ProgressBar(label: "render", enabled: !options.quiet && !options.noProgress)
            let results = try BatchRunner(jobs: options.jobs, overrides: options.overrides, timeout: options.timeout)
                .run(refs, handler: RenderHandler(output: out), progress: progress.update)
            let summary = BatchSummary(results)
            TerminalReport.errors(results)
            Diagnostics.out("\(summary.rendered) frames rendered to \(out)" + TerminalReport.errorSuffix(summary))
            return summary.exitCode
        }
    }
}
