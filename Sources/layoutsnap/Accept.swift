import ArgumentParser
import LayoutSnapReport
import LayoutSnapRunner

struct Accept: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accept",
        abstract: "Promote the actual frames of an earlier verify to goldens, without rendering again.",
        discussion:
            "Takes failed, missing, unreadable and similar frames from the report that verify wrote, into the goldens folder that verify checked (results.json says which). With --approvals, only the frames a reviewer approved in a static report, each only while its golden is still the one verify read (docs/review.md). A missing or unreadable golden is written like any other; a frame the report has no actual image for is named with the record command that renders it. Refuses to run when CI is set, unless --allow-ci is given. Holds the goldens folder's lock while it writes."
    )

    @Argument(help: "Fixture ids or globs to accept (default: every fixture in the results).")
    var ids: [String] = []

    @Option(
        help: ArgumentHelp(
            "The approvals.json a static report wrote: accept just the frames it approves.", valueName: "file"))
    var approvals: String?

    @Option(
        help:
            "The results.json of the verify run (default: in layoutsnap.json's report folder, else .layoutsnap/report)."
    )
    var from: String?

    @Option(help: "The goldens folder (default: the one the verify run checked).")
    var goldens: String?

    @Flag(help: "Accept even though CI is set.")
    var allowCI = false

    func validate() throws {
        if approvals != nil && !ids.isEmpty {
            throw ValidationError("--approvals names its frames: give no fixture ids with it")
        }
    }

    func run() throws {
        try Diagnostics.run {
            // In a project with a layoutsnap.json its folders, seen from here, win over the
            // results' (which are the verify run's, seen from where it ran).
            let project = try ProjectSettings.load()
            let acceptance = GoldenAcceptance(
                resultsPath: from ?? project.report + "/results.json",
                goldens: goldens ?? (project.file != nil ? project.goldens : nil), allowCI: allowCI)
            let outcome = try acceptance.run(
                try approvals.map { file throws(RunnerError) in .frames(try ApprovalsFile.load(path: file).approvals) }
                    ?? .fixtures(ids))
            for problem in outcome.problems { Diagnostics.printError(problem.description) }
            for line in outcome.lines(defaultGoldens: project.goldens) { Diagnostics.out(line) }
            return outcome.outcome
        }
    }
}
