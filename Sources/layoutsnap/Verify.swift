import ArgumentParser
import Foundation
import LayoutSnapCore
import LayoutSnapRunner

struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render every frame of every fixture and compare it with its golden (the default command).")

    @OptionGroup var options: BatchOptions

    @Option(help: "Where failing frames and reports are written.")
    var report: String = ".layoutsnap/report"

    func run() throws {
        try Diagnostics.run {
            let refs = try options.discover()
            let manifestPath = options.goldens + "/manifest.json"
            var manifest: GoldenManifest?
            do {
                manifest = try GoldenManifest.load(path: manifestPath)
            } catch {
                Diagnostics.printWarning("\(error); every golden will be decoded and compared")
            }
            let handler = VerifyHandler(goldens: options.goldens, manifest: manifest, reportDirectory: report)
            let progress = ProgressBar(label: "verify", enabled: !options.quiet && !options.noProgress)
            let results = try BatchRunner(jobs: options.jobs, overrides: options.overrides)
                .run(refs, handler: handler, progress: progress.update)
            let summary = BatchSummary(results)
            TerminalReport.verify(results, summary: summary, quiet: options.quiet, goldens: options.goldens, report: report)
            if let recorded = manifest?.environment, let current = try? RenderEnvironment.current() {
                let differences = current.differences(from: recorded)
                if !differences.isEmpty {
                    Diagnostics.printWarning("environment differs from the one that recorded the goldens: \(differences.joined(separator: "; "))")
                }
            }
            Diagnostics.out(TerminalReport.summaryLine(summary))
            return summary.exitCode
        }
    }
}
