import ArgumentParser
import LayoutSnapReport
import LayoutSnapRunner

struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Write goldens that are missing or fail verification; the others are left untouched.",
        discussion:
            "Refuses to run when the CI environment variable is set, unless --allow-ci is given. Holds the goldens folder's lock while it writes."
    )

    @OptionGroup var options: BatchOptions

    @Option(
        help:
            "changed: rewrite frames that fail verification under the fixture's tolerance; missing: write only missing goldens; all: rewrite every frame whose pixels differ.",
        transform: { text throws in
            guard let mode = RecordMode(rawValue: text) else {
                throw ValidationError("--update must be changed, missing or all, found \"\(text)\"")
            }
            return mode
        })
    var update: RecordMode = .changed

    @Flag(help: "Record even though CI is set (for example into a temporary --goldens folder).")
    var allowCI = false

    @Flag(help: "Also delete goldens whose fixture, state or frame no longer exists (whole fixture set only).")
    var prune = false

    @OptionGroup(title: "Result cache (record fills it)") var cache: CacheOptions

    func run() throws {
        try Diagnostics.run {
            let project = try ProjectSettings.load()
            var settings = options.settings(project)
            settings.cache = cache.settings(project)
            settings.cacheLints = (project.config.lintMode ?? .warn) != .off
            var run = RecordRun(
                settings: settings, mode: update, prune: prune, allowCI: allowCI, version: LayoutSnap.version)
            // --device, --scale and --fps may not overwrite the project's own goldens.
            run.canonicalGoldens = project.goldens
            let outcome = try run.run(note: Diagnostics.print, progress: options.progress("record"))
            Diagnostics.print(
                TerminalText.record(
                    outcome.results, pruned: outcome.pruned, context: TerminalText.Context(quiet: options.quiet)))
            return outcome.results.outcome
        }
    }
}
