import ArgumentParser
import Foundation
import LayoutSnapRunner

struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write goldens that are missing or differ; identical ones are left untouched.",
        discussion: "Refuses to run when the CI environment variable is set, unless --allow-ci is given.")

    @OptionGroup var options: BatchOptions

    @Flag(help: "Record even though CI is set (for example into a temporary --goldens folder).")
    var allowCI = false

    @Flag(help: "Also delete goldens whose fixture, state or frame no longer exists (whole fixture set only).")
    var prune = false

    func run() throws {
        try Diagnostics.run {
            if let ci = ProcessInfo.processInfo.environment["CI"], !ci.isEmpty, !allowCI {
                throw RunnerError.refusedUnderCI
            }
            if prune && !options.coversWholeSet {
                throw RunnerError.usage("--prune needs the whole fixture set: it cannot tell an orphan from a fixture left out by --filter, --shard or PATH arguments")
            }
            let refs = try options.discover()
            let manifestPath = options.goldens + "/manifest.json"
            var manifest: GoldenManifest?
            do {
                manifest = try GoldenManifest.load(path: manifestPath)
            } catch {
                Diagnostics.printWarning("\(error); it will be rebuilt from the goldens")
            }
            let environment = try RenderEnvironment.current()
            let handler = RecordHandler(goldens: options.goldens, manifest: manifest)
            let progress = ProgressBar(label: "record", enabled: !options.quiet && !options.noProgress)
            let results = try BatchRunner(jobs: options.jobs, overrides: options.overrides)
                .run(refs, handler: handler, progress: progress.update)

            var updated = manifest ?? GoldenManifest(environment: nil, frames: [:])
            updated.environment = environment
            for result in results where result.error == nil {
                // The fixture's frames are exactly what it renders now.
                let prefix = result.ref.id + "/"
                updated.frames = updated.frames.filter { !$0.key.hasPrefix(prefix) || !isFrameOf(result.ref.id, $0.key) }
                for frame in result.frames {
                    if let entry = frame.manifestEntry { updated.frames[frame.goldenKey] = entry }
                }
            }
            if prune {
                let orphans = OrphanCheck.find(goldens: options.goldens, results: results, wholeSet: true)
                for key in OrphanCheck.prune(orphans, goldens: options.goldens) {
                    updated.frames.removeValue(forKey: key)
                    if !options.quiet { Diagnostics.out("pruned \(key)") }
                }
            }
            if updated != manifest {
                try AtomicFile.write(updated.encoded(), to: manifestPath)
            }
            let summary = BatchSummary(results)
            TerminalReport.record(results, summary: summary, quiet: options.quiet)
            Diagnostics.out("\(summary.recorded) recorded, \(summary.unchanged) unchanged" + TerminalReport.errorSuffix(summary))
            return summary.exitCode
        }
    }

    /// `posts/a/initial/000.png` belongs to `posts/a`, not to `posts/a/b` (a fixture in a folder
    /// named like another fixture).
    private func isFrameOf(_ id: String, _ key: String) -> Bool {
        let rest = key.dropFirst(id.count + 1)
        return rest.split(separator: "/").count == 2
    }
}
