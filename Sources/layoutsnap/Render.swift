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
            let fixtures = try options.discover()
            let results = try options.run(fixtures, handler: RenderHandler(output: out), label: "render")
            let summary = BatchSummary(results)
            TerminalReport.errors(results)
            Diagnostics.out("\(summary.rendered) frames rendered to \(out)" + TerminalReport.errorSuffix(summary))
            return summary.exitCode
        }
    }
}
