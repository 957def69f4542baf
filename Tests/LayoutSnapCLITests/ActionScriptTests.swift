import Foundation
import LayoutSnapTestSupport
import XCTest

/// The GitHub Action's verify step (`Tools/action/run.sh`, which action.yml runs) with the files and
/// variables a runner sets, against the built binary: the annotations on stdout, the job summary,
/// the step outputs and the exit code, for a passing, a failing and an unusable suite.
final class ActionScriptTests: XCTestCase {
    /// A workspace with one recorded fixture, and the runner's files.
    private struct Runner {
        let dir: TempDir
        var workspace: URL { dir.path("workspace") }
        var outputFile: URL { dir.path("github-output") }
        var summaryFile: URL { dir.path("step-summary.md") }

        init() throws {
            dir = try TempDir()
            try dir.write("workspace/Fixtures/cards/card.json", smallPost())
            try dir.write("github-output", "")
            try dir.write("step-summary.md", "")
            try FileManager.default.createDirectory(at: dir.path("runner-temp"), withIntermediateDirectories: true)
            let record = try CLI.run(["record", "--allow-ci", "--no-progress"], in: workspace)
            XCTAssertEqual(record.status, 0, record.output)
        }

        func run(_ inputs: [String: String]) throws -> CLI.Result {
            var environment = [
                "GITHUB_OUTPUT": outputFile.path, "GITHUB_STEP_SUMMARY": summaryFile.path,
                "GITHUB_WORKSPACE": workspace.path, "RUNNER_TEMP": dir.path("runner-temp").path,
                "GITHUB_ACTIONS": "true", "LAYOUTSNAP": CLI.binary.path,
            ]
            environment.merge(inputs) { $1 }
            try Data().write(to: outputFile)
            try Data().write(to: summaryFile)
            let script = TestPaths.packageRoot.appendingPathComponent("Tools/action/run.sh")
            return try TestProcess.run(
                URL(fileURLWithPath: "/bin/bash"), [script.path], in: workspace, environment: environment,
                timeout: 300)
        }

        /// The step outputs, as the runner reads `GITHUB_OUTPUT`'s `name=value` lines.
        func outputs() throws -> [String: String] {
            var values: [String: String] = [:]
            for line in try String(contentsOf: outputFile, encoding: .utf8).split(separator: "\n") {
                let parts = line.split(separator: "=", maxSplits: 1)
                XCTAssertEqual(parts.count, 2, "not name=value: \(line)")
                if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
            }
            return values
        }

        /// The step outputs, each of `expected` checked against its value.
        @discardableResult
        func outputs(
            expecting expected: [String: String], file: StaticString = #filePath, line: UInt = #line
        ) throws -> [String: String] {
            let values = try outputs()
            for (name, value) in expected.sorted(by: { $0.key < $1.key }) {
                XCTAssertEqual(values[name], value, "output \(name)", file: file, line: line)
            }
            return values
        }

        func summary() throws -> String { try String(contentsOf: summaryFile, encoding: .utf8) }
    }

    func testAPassingSuite() throws {
        let runner = try Runner()
        let r = try runner.run(["INPUT_SHARD": "1/1", "INPUT_LINT": "warn", "INPUT_GOLDENS": "Goldens"])
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertFalse(r.stdout.contains("::error"), r.stdout)
        XCTAssertTrue(r.stdout.contains("--shard 1/1"), r.stdout)
        let outputs = try runner.outputs(expecting: [
            "outcome": "passed", "exit-code": "0", "failed": "0", "fixtures": "1",
            "artifact-name": "layoutsnap-report-1",
        ])
        let frames = try XCTUnwrap(Int(outputs["frames"] ?? ""))
        XCTAssertGreaterThan(frames, 1)
        XCTAssertEqual(outputs["passed"], String(frames))
        let report = try XCTUnwrap(outputs["report"])
        XCTAssertEqual(report, runner.dir.path("runner-temp/layoutsnap-report").path)
        XCTAssertTrue(FileManager.default.fileExists(atPath: report + "/index.html"))
        XCTAssertEqual(outputs["results"], report + "/results.json")
        let summary = try runner.summary()
        XCTAssertTrue(summary.contains("layoutsnap verify: passed"), summary)
    }

    func testAFailingSuite() throws {
        let runner = try Runner()
        try runner.dir.write("workspace/Fixtures/cards/card.json", smallPost(title: "Another card"))
        let r = try runner.run(["INPUT_PATHS": "Fixtures/cards", "INPUT_REPORT": "report"])
        XCTAssertEqual(r.status, 1, r.output)
        XCTAssertTrue(
            r.stdout.contains("::error file=Fixtures/cards/card.json,line="),
            "no annotation on the fixture: \(r.stdout)")
        let outputs = try runner.outputs(expecting: [
            "outcome": "failed", "exit-code": "1", "artifact-name": "layoutsnap-report", "report": "report",
        ])
        XCTAssertGreaterThan(Int(outputs["failed"] ?? "") ?? 0, 0, "\(outputs)")
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: runner.workspace.appendingPathComponent("report/index.html").path))
        let summary = try runner.summary()
        XCTAssertTrue(summary.contains("layoutsnap verify: failed"), summary)
        XCTAssertTrue(summary.contains("cards/card"), summary)
    }

    /// A fixture path that does not exist: exit 2; the outputs and the summary still say so.
    func testAnUnusableSuiteStillGivesOutputs() throws {
        let runner = try Runner()
        let r = try runner.run(["INPUT_PATHS": "Fixtures/nothing-here.json", "INPUT_CACHE": "cache"])
        XCTAssertEqual(r.status, 2, r.output)
        try runner.outputs(expecting: ["exit-code": "2", "outcome": "error"])
        XCTAssertTrue(r.stdout.contains("::error title=layoutsnap::verify exited 2"), r.stdout)
        XCTAssertFalse(try runner.summary().isEmpty)
        // The cache input became verify's --cache: no notice that it is ignored.
        XCTAssertTrue(try CLI.run(["verify", "--help"]).stdout.contains("--cache <dir>"))
        XCTAssertFalse(r.stdout.contains("has no --cache option"), r.stdout)
    }

    /// Two shards' reports, joined by the merge-reports input: the outputs and a summary of the whole.
    func testShardsMergedIntoOneReport() throws {
        let runner = try Runner()
        try runner.dir.write("workspace/Fixtures/cards/second.json", smallPost(title: "Second card"))
        let record = try CLI.run(["record", "--allow-ci", "--no-progress"], in: runner.workspace)
        XCTAssertEqual(record.status, 0, record.output)
        var frames = 0
        for shard in 1...2 {
            let r = try runner.run([
                "INPUT_SHARD": "\(shard)/2", "INPUT_REPORT": "downloaded/layoutsnap-report-\(shard)",
            ])
            XCTAssertEqual(r.status, 0, r.output)
            XCTAssertEqual(try runner.outputs()["artifact-name"], "layoutsnap-report-\(shard)")
            frames += Int(try runner.outputs()["frames"] ?? "") ?? 0
        }
        let r = try runner.run([
            "INPUT_MERGE_REPORTS": "downloaded/layoutsnap-report-*", "INPUT_REPORT": "merged",
            "INPUT_ARGS": "--junit merged-junit.xml",
            // Inputs of verify are not merge-reports': a shard input left in the workflow is ignored.
            "INPUT_SHARD": "1/2",
        ])
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertTrue(
            r.stdout.contains("layoutsnap merge-reports downloaded/layoutsnap-report-1 downloaded/layoutsnap-report-2"),
            r.stdout)
        try runner.outputs(expecting: [
            "outcome": "passed", "fixtures": "2", "frames": String(frames), "artifact-name": "layoutsnap-report",
        ])
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: runner.workspace.appendingPathComponent("merged-junit.xml").path))
        let summary = try runner.summary()
        XCTAssertTrue(summary.contains("layoutsnap merge-reports: passed"), summary)
        XCTAssertTrue(summary.contains("\(frames) frames of 2 fixtures from 2 reports"), summary)
    }

    /// Every input action.yml declares reaches a step: its INPUT_ variable is set for a script that
    /// reads it, or action.yml uses it itself.
    func testEveryInputOfTheActionIsUsed() throws {
        let root = TestPaths.packageRoot
        let action = try String(contentsOf: root.appendingPathComponent("action.yml"), encoding: .utf8)
        let scripts = try ["Tools/action/run.sh", "Tools/action/install.sh"].map {
            try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8)
        }.joined()
        var inputs: [String] = []
        var inInputs = false
        for line in action.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" ") && !line.isEmpty { inInputs = line == "inputs:" }
            if inInputs, line.hasPrefix("  "), !line.hasPrefix("   "), line.hasSuffix(":") {
                inputs.append(String(line.dropFirst(2).dropLast()))
            }
        }
        XCTAssertTrue(inputs.contains("paths") && inputs.contains("shard") && inputs.contains("cache"), "\(inputs)")
        for input in inputs {
            let variable = "INPUT_" + input.uppercased().replacingOccurrences(of: "-", with: "_")
            if action.contains("\(variable): ${{ inputs.\(input) }}") {
                XCTAssertTrue(scripts.contains(variable), "\(variable) is set but no script reads it")
            } else {
                XCTAssertTrue(action.contains("inputs.\(input) =="), "input \(input) is used nowhere")
            }
        }
    }
}
