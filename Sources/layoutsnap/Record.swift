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
            let fixtures = try options.discover()
            let manifestPath = options.goldens + "/manifest.json"
            var manifest: GoldenManifest?
            do {
                manifest = try GoldenManifest.load(path: manifestPath)
            } catch {
                Diagnostics.printWarning("\(error); it will be rebuilt from the goldens")
            }
            GoldenTransaction.removeStale(goldens: options.goldens)
            let environment = try RenderEnvironment.current()
            let handler = RecordHandler(goldens: options.goldens, manifest: manifest)
            var results = try options.run(fixtures, handler: handler, label: "record")

            // A fixture is recorded whole or not at all: one that failed part-way (a layout
            // error, the watchdog, a frame that could not be staged on a full disk) keeps its old
            // goldens and their manifest entries, and what it staged is dropped.
            func complete(_ result: FixtureResult) -> Bool {
                result.error == nil && !result.frames.contains { $0.status == .error }
            }
            var updated = manifest ?? GoldenManifest(environment: nil, frames: [:])
            updated.environment = environment
            for result in results where complete(result) {
                // The fixture's frames are exactly what it renders now.
                let prefix = result.ref.id + "/"
                updated.frames = updated.frames.filter { !$0.key.hasPrefix(prefix) || !isFrameOf(result.ref.id, $0.key) }
                for frame in result.frames {
                    if let entry = frame.manifestEntry { updated.frames[frame.goldenKey] = entry }
                    // What a killed record was replacing is settled: the frame is described anew.
                    updated.previous.removeValue(forKey: frame.goldenKey)
                }
            }
            updated.previous = updated.previous.filter { updated.frames[$0.key] != nil }
            // Orphans leave the manifest before their files go: a kill in between leaves files
            // the manifest no longer mentions, never entries without files.
            var orphans: [OrphanCheck.Orphan] = []
            if prune {
                orphans = OrphanCheck.find(goldens: options.goldens, results: results, wholeSet: true)
                for orphan in orphans { updated.frames.removeValue(forKey: orphan.key) }
            }
            var staged: [String: GoldenManifest.Previous] = [:]
            var layouts: [String] = []
            for result in results where result.notes.contains(RecordHandler.layoutNote) {
                let key = GoldenPaths.layoutKey(fixture: result.ref.id)
                if complete(result) {
                    layouts.append(key)
                } else {
                    unlink(GoldenTransaction.pendingPath(options.goldens + "/" + key))
                }
            }
            for result in results {
                for frame in result.frames where frame.status == .recorded {
                    if complete(result) {
                        staged[frame.goldenKey] = frame.replacing ?? .absent
                    } else {
                        unlink(GoldenTransaction.pendingPath(options.goldens + "/" + frame.goldenKey))
                    }
                }
            }
            try GoldenTransaction.commit(staged: staged, layouts: layouts, goldens: options.goldens, before: manifest, after: updated)
            // Say so for a fixture whose goldens were kept because a frame could not be staged:
            // none of its frames counts as recorded.
            for i in results.indices where results[i].error == nil && !complete(results[i]) {
                let failed = results[i].frames.first { $0.status == .error }
                results[i].error = "\(results[i].ref.displayPath): nothing recorded, its goldens are as they were: \(failed?.goldenKey ?? ""): \(failed?.detail ?? "could not be written")"
                results[i].frames.removeAll { $0.status == .recorded || $0.status == .error }
            }
            for key in OrphanCheck.prune(orphans, goldens: options.goldens) where !options.quiet {
                Diagnostics.out("pruned \(key)")
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
