import ArgumentParser
import Foundation
import LayoutSnapCore
import LayoutSnapReport
import LayoutSnapRunner

struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Render every frame of every fixture and compare it with its golden (the default command).",
        discussion: "Writes a report (index.html, results.json, actual and diff images of failing frames) to --report.")

    @OptionGroup var options: BatchOptions

    @Option(
        help:
            "The report folder (index.html, results.json, images of failing frames); not inside the goldens folder (default: layoutsnap.json's report, else .layoutsnap/report)."
    )
    var report: String?

    @OptionGroup var resultFiles: ResultFileOptions

    @OptionGroup(title: "Result cache") var cache: CacheOptions

    @Option(
        help:
            "terminal, or github: also GitHub Actions annotations on stdout and the job summary in $GITHUB_STEP_SUMMARY (the default when GITHUB_ACTIONS=true)."
    )
    var reporter: Reporter?

    @Option(
        help: ArgumentHelp(
            "Also write the run as Markdown here (counts and a table of what failed), for a PR comment.",
            valueName: "file.md"))
    var summary: String?

    @Flag(help: "Fail (exit 1) on goldens whose fixture, state or frame no longer exists.")
    var checkOrphans = false

    @Option(
        help:
            "Layout lints on every frame: warn (report them, the default), error (a finding not ignored fails the run, exit 1) or off. Default: layoutsnap.json's lint.mode, else warn."
    )
    var lint: LintMode?

    @Flag(
        help:
            "Every failing state's own lines (motion, frames, layout changes) instead of the failing frames grouped by cause, and each lint finding instead of one line per rule and fixture."
    )
    var verbose = false

    @Flag(
        help:
            "Fail (exit 1) when the rendering environment (library versions, fonts, CPU architecture) differs from the one that recorded the goldens."
    )
    var strictEnv = false

    func run() throws {
        try Diagnostics.run {
            let project = try ProjectSettings.load()
            let report = self.report ?? project.report
            var settings = options.settings(project)
            settings.lint = lint ?? project.config.lintMode ?? .warn
            settings.cache = cache.settings(project)
            var run = VerifyRun(
                settings: settings, report: report, junit: resultFiles.junit, json: resultFiles.json,
                checkOrphans: checkOrphans, strictEnv: strictEnv, version: LayoutSnap.version)
            run.summary = summary
            let results = try run.run(note: Diagnostics.print, progress: options.progress("verify"))
            Diagnostics.print(
                TerminalText.verify(
                    results, context: TerminalText.Context(report: report, quiet: options.quiet, verbose: verbose)))
            if (reporter ?? project.config.reporter.flatMap(Reporter.init(rawValue:)) ?? .fromEnvironment) == .github {
                Reporter.github(results, report: report)
            }
            return results.outcome
        }
    }
}

extension Verify {
    /// Every property at its default, as argument-parser leaves a command line without options
    /// (`FastPath.verify` sets what the words give). A property added above must be set here:
    /// reading an unset one stops the process, and `FastPathTests` compares every property.
    static func unparsed() -> Verify {
        var verify = Verify()
        verify.options = .unparsed()
        verify.report = nil
        verify.resultFiles = ResultFileOptions()
        verify.resultFiles.junit = nil
        verify.resultFiles.json = nil
        verify.cache = .unparsed()
        verify.reporter = nil
        verify.summary = nil
        verify.checkOrphans = false
        verify.lint = nil
        verify.verbose = false
        verify.strictEnv = false
        return verify
    }
}

/// `--lint warn|error|off`: the help lists the default first, as it always has.
extension LintMode: ExpressibleByArgument {
    public static var allValueStrings: [String] { ["warn", "error", "off"] }
}

/// How verify speaks to a CI server besides the terminal's lines.
enum Reporter: String, ExpressibleByArgument, CaseIterable {
    case terminal, github

    /// github inside GitHub Actions, else terminal.
    static var fromEnvironment: Reporter {
        ProcessInfo.processInfo.environment["GITHUB_ACTIONS"] == "true" ? .github : .terminal
    }

    /// Annotations on stdout (GitHub reads workflow commands from the step's output), and the
    /// Markdown summary appended to `$GITHUB_STEP_SUMMARY` when the runner gives one.
    static func github(_ results: RunResults, report: String) {
        let environment = ProcessInfo.processInfo.environment
        for line in CIReport.githubAnnotations(
            results, workspace: environment["GITHUB_WORKSPACE"], cwd: FileManager.default.currentDirectoryPath)
        {
            Diagnostics.out(line)
        }
        guard let path = environment["GITHUB_STEP_SUMMARY"], !path.isEmpty else { return }
        let markdown = Data(CIReport.markdown(results, report: report).utf8)
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            Diagnostics.printError("cannot append the job summary to $GITHUB_STEP_SUMMARY (\(path))")
            return
        }
        defer { try? handle.close() }
        _ = try? handle.seekToEnd()
        try? handle.write(contentsOf: markdown)
    }
}
