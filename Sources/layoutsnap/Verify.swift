import ArgumentParser
import LayoutSnapReport
import LayoutSnapRunner

struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render every frame of every fixture and compare it with its golden (the default command).",
        discussion: "Writes a report (index.html, results.json, actual and diff images of failing frames) to --report.")

    @OptionGroup var options: BatchOptions

    @Option(help: "The report folder (index.html, results.json, images of failing frames); not inside the goldens folder.")
    var report: String = VerifyRun.defaultReport

    @OptionGroup var resultFiles: ResultFileOptions

    @Flag(help: "Fail (exit 1) on goldens whose fixture, state or frame no longer exists.")
    var checkOrphans = false

    @Flag(help: "Fail (exit 1) when the rendering environment (library versions, fonts, CPU architecture) differs from the one that recorded the goldens.")
    var strictEnv = false

    func run() throws {
        try Diagnostics.run {
            let run = VerifyRun(settings: options.settings, report: report, junit: resultFiles.junit, json: resultFiles.json,
                                checkOrphans: checkOrphans, strictEnv: strictEnv, version: LayoutSnap.version)
            let results = try run.run(note: Diagnostics.print, progress: options.progress("verify"))
            Diagnostics.print(TerminalText.verify(results, context: TerminalText.Context(report: report, quiet: options.quiet)))
            return results.exitCode
        }
    }
}
