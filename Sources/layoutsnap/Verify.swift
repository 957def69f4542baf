import ArgumentParser
import Foundation
import LayoutSnapCore
import LayoutSnapReport
import LayoutSnapRunner

struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render every frame of every fixture and compare it with its golden (the default command).",
        discussion: "Writes a report (index.html, results.json, actual and diff images of failing frames) to --report.")

    @OptionGroup var options: BatchOptions

    @Option(help: "The report folder (index.html, results.json, images of failing frames).")
    var report: String = ".layoutsnap/report"

    @OptionGroup var resultFiles: ResultFileOptions

    @Flag(help: "Fail (exit 1) on goldens whose fixture, state or frame no longer exists.")
    var checkOrphans = false

    @Flag(help: "Fail (exit 1) when the rendering environment (library versions, fonts, CPU architecture) differs from the one that recorded the goldens.")
    var strictEnv = false

    func run() throws {
        try Diagnostics.run {
            let started = DispatchTime.now()
            let fixtures = try options.discover()
            var manifest: GoldenManifest?
            do {
                manifest = try GoldenManifest.load(path: options.goldens + "/manifest.json")
            } catch {
                Diagnostics.printWarning("\(error); every golden will be decoded and compared")
            }
            let builder = ReportBuilder(reportDirectory: report, goldens: options.goldens)
            builder.clearPrevious()
            let handler = VerifyHandler(goldens: options.goldens, manifest: manifest, reportDirectory: report)
            let results = try options.run(fixtures, handler: handler, label: "verify")
            let summary = BatchSummary(results)
            TerminalReport.verify(results, summary: summary, quiet: options.quiet, goldens: options.goldens, report: report)

            var environmentDifferences: [String] = []
            if let recorded = manifest?.environment, let current = try? RenderEnvironment.current() {
                environmentDifferences = current.differences(from: recorded)
            }
            var code = summary.exitCode
            if !environmentDifferences.isEmpty {
                let message = TerminalReport.environmentDiffers(environmentDifferences)
                if strictEnv {
                    Diagnostics.printError(message + " (--strict-env)")
                    code = max(code, 1)
                } else {
                    Diagnostics.printWarning(message)
                }
            }
            if checkOrphans {
                let orphans = OrphanCheck.find(goldens: options.goldens, results: results, wholeSet: options.coversWholeSet)
                for g in OrphanCheck.grouped(orphans) {
                    let files = g.count == 1 || !g.group.hasSuffix("/") ? "" : " (\(g.count) files)"
                    Diagnostics.out("ORPHAN \(options.goldens)/\(g.group)\(files): \(g.reason)")
                }
                if !orphans.isEmpty {
                    Diagnostics.out("Remove them with: layoutsnap record --prune")
                    code = max(code, 1)
                }
            }

            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
            var runResults = builder.results(results, summary: summary, environmentDifferences: environmentDifferences,
                                             durationSeconds: seconds, version: LayoutSnap.version)
            runResults.shard = options.shard?.description
            try builder.write(runResults)
            try resultFiles.write(runResults)
            if summary.failed + summary.missing + summary.unreadable > 0 && !options.quiet {
                Diagnostics.out("Report: \(report)/index.html")
            }
            Diagnostics.out(TerminalReport.summaryLine(summary))
            return code
        }
    }
}
