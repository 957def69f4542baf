import ArgumentParser
import Foundation
import LayoutSnapRunner

struct Accept: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Promote the actual frames of an earlier verify to goldens, without rendering again.",
        discussion: "Takes failed, missing and similar frames from the report that verify wrote. Refuses to run when CI is set, unless --allow-ci is given.")

    @Argument(help: "Fixture ids or globs to accept (default: every fixture in the results).")
    var ids: [String] = []

    @Option(help: "The results.json of the verify run.")
    var from: String = ".layoutsnap/report/results.json"

    @Option(help: "The goldens folder.")
    var goldens: String = "Goldens"

    @Flag(help: "Accept even though CI is set.")
    var allowCI = false

    func run() throws {
        try Diagnostics.run {
            if let ci = ProcessInfo.processInfo.environment["CI"], !ci.isEmpty, !allowCI {
                throw RunnerError.refusedUnderCI
            }
            let outcome = try GoldenAcceptance(resultsPath: from, goldens: goldens).run(ids: ids)
            for problem in outcome.problems { Diagnostics.printError(problem) }
            Diagnostics.out("\(outcome.accepted.count) frames accepted into \(goldens)/" + (outcome.layouts.isEmpty ? "" : ", \(outcome.layouts.count) layout.json updated"))
            return outcome.problems.isEmpty ? 0 : 2
        }
    }
}
