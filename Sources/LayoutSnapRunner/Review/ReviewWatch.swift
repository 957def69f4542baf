import Foundation
import LayoutSnapCore
import LayoutSnapReport

/// `review --watch`: the fixture files results.json lists (`fixtures[].file`, as seen from where
/// verify ran: run review there too) polled four times a second; the fixtures of a file that
/// changed are verified again into the same report, results.json and index.html are written
/// again, the generation goes up and the page is told (`event: results`).
public struct ReviewWatch: Sendable {
    /// layoutsnap.json's fixture defaults, as verify had them.
    public var defaults: FixtureDefaults
    public var jobs: Int
    public var version: String
    public var interval = 0.25

    public init(defaults: FixtureDefaults, jobs: Int = BatchRunner.defaultJobs, version: String) {
        self.defaults = defaults
        self.jobs = jobs
        self.version = version
    }

    /// Watches until the server stops; `note` gets a line for each change and each new result.
    public func run(_ server: ReviewServer, note: (String) -> Void) {
        var seen: [String: [Int]] = [:]
        func files() -> [String] { Array(Set(server.session.snapshot.results.fixtures.map(\.file))).sorted() }
        for file in files() { seen[file] = PreviewWatcher.stamp(file) }
        while !server.isStopping {
            Thread.sleep(forTimeInterval: interval)
            let now = Dictionary(uniqueKeysWithValues: files().map { ($0, PreviewWatcher.stamp($0)) })
            let changed = now.filter { seen[$0.key] != $0.value }.map(\.key).sorted()
            seen = now
            guard !changed.isEmpty else { continue }
            note("changed: \(changed.map(PreviewWatcher.display).joined(separator: ", "))")
            do throws(RunnerError) {
                let generation = try server.session.replaceResults(files: Set(changed)) { results throws(RunnerError) in
                    try verifyRun(changed, results: results, acceptance: server.session.acceptance).verifyAgain(
                        in: results)
                }
                let results = server.session.snapshot.results
                note(
                    "verified again (generation \(generation)): \(results.summary.failed) failed, \(results.summary.missing) missing of \(Plural.count(results.summary.frames, "frame"))"
                )
            } catch {
                note("error: \(error.description)")
            }
        }
    }

    /// A verify of `files` as the first run had it: its fixtures root, goldens and report.
    func verifyRun(_ files: [String], results: RunResults, acceptance: GoldenAcceptance) -> VerifyRun {
        var settings = BatchSettings(paths: files, goldens: acceptance.goldensFolder(results), jobs: jobs)
        settings.defaultRoot = results.fixturesRoot ?? settings.defaultRoot
        settings.defaults = defaults
        settings.lint = .warn
        return VerifyRun(
            settings: settings, report: (acceptance.resultsPath as NSString).deletingLastPathComponent, version: version
        )
    }
}
