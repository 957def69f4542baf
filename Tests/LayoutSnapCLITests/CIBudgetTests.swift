import Foundation
import LayoutSnapTestSupport
import XCTest

/// `.ci/fuzz` under `.ci/run`'s time budget (docs/guarantees.md, CI and its time budget): the
/// campaign runs in chunks of 1,000 cases, the same cases as one run, at least two, and stops
/// when one more chunk would leave libFuzzer too little of the budget; without a budget, it is
/// 10,000 cases in one run. A stand-in for the release binary writes down what it is asked.
final class CIBudgetTests: XCTestCase {
    /// The commands `.ci/fuzz` gave the stand-in, and its exit status. `deadline`: seconds from
    /// now, or none; `failing`: the `--from` at which the stand-in fails.
    func campaign(deadline: Int?, failing: Int? = nil) throws -> (commands: [String], status: Int32) {
        let dir = try TempDir()
        // A copy of the script in a folder of its own: it works in its parent folder.
        try FileManager.default.createDirectory(at: dir.path(".ci"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: TestPaths.packageRoot.appendingPathComponent(".ci/fuzz"), to: dir.path(".ci/fuzz"))
        let log = dir.path("commands.log").path
        let fail = failing.map { "case \"$*\" in *\"--from \($0) \"*) exit 1 ;; esac\n" } ?? ""
        let standIn = try dir.write("layoutsnap", "#!/bin/sh\necho \"$*\" >> '\(log)'\n\(fail)exit 0\n")
        XCTAssertEqual(chmod(standIn.path, 0o755), 0)
        var environment = ["LAYOUTSNAP_RELEASE_BIN": standIn.path]
        if let deadline { environment["LAYOUTSNAP_CI_DEADLINE"] = String(Int(Date().timeIntervalSince1970) + deadline) }
        let run = try TestProcess.run(
            URL(fileURLWithPath: "/bin/bash"), [dir.path(".ci/fuzz").path], in: dir.url, environment: environment,
            removing: deadline == nil ? ["LAYOUTSNAP_CI_DEADLINE", "LAYOUTSNAP_FUZZ_SEED"] : ["LAYOUTSNAP_FUZZ_SEED"],
            timeout: 60)
        let commands =
            (try? String(contentsOfFile: log, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
        return (commands, run.status)
    }

    func chunk(from: Int) -> String {
        "fuzz Fixtures --cases 1000 --from \(from) --seed 1 --timeout 2 --no-progress"
    }

    func testWithoutABudgetTheCampaignIsTenThousandCasesInOneRun() throws {
        let run = try campaign(deadline: nil)
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.commands, ["fuzz Fixtures --cases 10000 --seed 1 --timeout 2 --no-progress"])
    }

    func testABudgetRunsChunksOfTheSameCasesAndAtLeastTwo() throws {
        // Room for everything: the ten chunks of the campaign.
        let roomy = try campaign(deadline: 100_000)
        XCTAssertEqual(roomy.status, 0)
        XCTAssertEqual(roomy.commands, stride(from: 0, to: 10_000, by: 1000).map { chunk(from: $0) })
        // A deadline that leaves no room for libFuzzer after a chunk: the first two anyway.
        let tight = try campaign(deadline: 100)
        XCTAssertEqual(tight.status, 0)
        XCTAssertEqual(tight.commands, [chunk(from: 0), chunk(from: 1000)])
        // A deadline already past: the same.
        XCTAssertEqual(try campaign(deadline: -600).commands, [chunk(from: 0), chunk(from: 1000)])
    }

    func testAChunkWithAFindingFailsTheStepAtOnce() throws {
        let run = try campaign(deadline: 100_000, failing: 1000)
        XCTAssertNotEqual(run.status, 0)
        XCTAssertEqual(run.commands, [chunk(from: 0), chunk(from: 1000)])
    }
}
