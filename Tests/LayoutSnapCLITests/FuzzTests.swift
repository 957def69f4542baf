import Foundation
import LayoutSnapTestSupport
import XCTest

/// `layoutsnap fuzz` (docs/guarantees.md "Fuzzing"): hostile fixtures through the whole pipeline with no crash, no hang
/// and no unclear error; and, with faults injected, proof that a crash or a hang costs one case,
/// which is written out for replay, while the campaign goes on. The 10,000-case campaign runs
/// in CI on the release build (`.ci/fuzz`, about 5 minutes); here the debug build runs 400.
final class FuzzTests: XCTestCase {
    func testHostileCasesRenderOrSayWhereAndNothingCrashesOrHangs() throws {
        let tmp = try TempDir()
        let r = try CLI.run([
            "fuzz", "Fixtures", "--cases", "400", "--seed", "5", "--jobs", "2", "--timeout", "10",
            "--findings", tmp.path("findings").path, "--no-progress",
        ])
        XCTAssertEqual(r.status, 0, r.output)
        let summary = try XCTUnwrap(r.stdout.split(separator: "\n").last.map(String.init))
        XCTAssertTrue(summary.hasPrefix("fuzz: 400 cases from 48 fixtures (seed 5): "), summary)
        XCTAssertTrue(summary.contains("0 crashes, 0 hangs, 0 unclear errors"), summary)
        // The run exercised both sides: many cases rendered (with their frames), many refused.
        let numbers = summary.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        let rendered = numbers[3]
        let frames = numbers[4]
        let rejected = numbers[5]
        let stopped = numbers[6]
        XCTAssertGreaterThan(rendered, 40, summary)
        XCTAssertGreaterThan(frames, rendered, summary)
        XCTAssertGreaterThan(rejected, 200, summary)
        XCTAssertEqual(rendered + rejected + stopped, 400, summary)
        for mutation in [
            "truncate", "wrongType", "extremeNumber", "invalidUTF8", "loneSurrogate", "hostileText", "unknownKind",
        ] {
            XCTAssertTrue(r.stdout.contains("\n\(mutation) "), "the table has a row for \(mutation)")
        }
        let findings = (try? FileManager.default.contentsOfDirectory(atPath: tmp.path("findings").path)) ?? []
        XCTAssertFalse(
            findings.contains { $0.hasPrefix("crash-") || $0.hasPrefix("hang-") || $0.hasPrefix("unclear-") },
            "\(findings)")
    }

    func testACrashCostsOneCaseWhichIsWrittenForReplay() throws {
        let tmp = try TempDir()
        let findings = tmp.path("findings").path
        let r = try CLI.run(
            ["fuzz", "Fixtures/transcripts", "--cases", "12", "--jobs", "1", "--findings", findings, "--no-progress"],
            environment: ["LAYOUTSNAP_FAULT_FUZZ_CRASH": "4"])
        XCTAssertEqual(r.status, 1, r.output)
        XCTAssertTrue(r.stderr.contains("crash: case 4 ("), r.stderr)
        XCTAssertTrue(r.stderr.contains("signal 11"), r.stderr)
        XCTAssertTrue(r.stdout.contains("; 1 crash, 0 hangs, 0 unclear errors"), r.stdout)
        // The other 11 cases ran, in a second worker after the first died.
        let summary = String(r.stdout.split(separator: "\n").last ?? "")
        let numbers = summary.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        XCTAssertEqual(numbers[3] + numbers[5] + numbers[6], 11, summary)
        // The case is written with a note that says how to replay it and keep it.
        let note = try String(contentsOfFile: findings + "/crash-1-4.txt", encoding: .utf8)
        XCTAssertTrue(note.contains("replay: layoutsnap fuzz Fixtures/transcripts --seed 1 --from 4 --cases 1"), note)
        XCTAssertTrue(note.contains("Tests/Regressions/"), note)
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: findings + "/crash-1-4.json"))
        XCTAssertFalse(bytes.isEmpty)
        // The replay command reproduces the case: run alone (the fault still injected), case 4
        // is written with the same bytes; without the fault, it runs like any other case.
        let replay = try CLI.run(
            [
                "fuzz", "Fixtures/transcripts", "--from", "4", "--cases", "1", "--jobs", "1",
                "--findings", tmp.path("replay").path, "--no-progress",
            ], environment: ["LAYOUTSNAP_FAULT_FUZZ_CRASH": "4"])
        XCTAssertEqual(replay.status, 1)
        XCTAssertEqual(FileManager.default.contents(atPath: tmp.path("replay/crash-1-4.json").path), bytes)
        let clean = try CLI.run([
            "fuzz", "Fixtures/transcripts", "--from", "4", "--cases", "1", "--jobs", "1",
            "--findings", tmp.path("clean").path, "--no-progress",
        ])
        XCTAssertEqual(clean.status, 0, clean.output)
        XCTAssertTrue(clean.stdout.contains("fuzz: 1 case from 11 fixtures (seed 1): "), clean.stdout)
    }

    func testAHangIsKilledAfterTheLimitAndTheCampaignGoesOn() throws {
        let tmp = try TempDir()
        let start = Date()
        let r = try CLI.run(
            [
                "fuzz", "Fixtures/transcripts", "--cases", "6", "--jobs", "1", "--hang-after", "2",
                "--findings", tmp.path("findings").path, "--no-progress",
            ],
            environment: ["LAYOUTSNAP_FAULT_FUZZ_HANG": "2"])
        XCTAssertEqual(r.status, 1, r.output)
        XCTAssertTrue(r.stderr.contains("hang: case 2 ("), r.stderr)
        XCTAssertTrue(r.stdout.contains("; 0 crashes, 1 hang, 0 unclear errors"), r.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: tmp.path("findings/hang-1-2.json").path))
        XCTAssertLessThan(Date().timeIntervalSince(start), 60, "the hang was cut off, not waited out")
    }

    /// A base that is not JSON is refused, naming it, before any worker starts (a worker could
    /// not run either; the campaign would stop on its first exit rather than restart it).
    func testABaseThatIsNotJSONIsRefusedBeforeAnyWorker() throws {
        let tmp = try TempDir()
        _ = try tmp.write("bases/broken.json", "{\"kind\": ")
        let r = try CLI.run([
            "fuzz", tmp.path("bases").path, "--cases", "50", "--no-progress", "--findings", tmp.path("f").path,
        ])
        XCTAssertEqual(r.status, 2, r.output)
        XCTAssertTrue(r.stderr.contains("a fuzz base must be valid JSON"), r.stderr)
    }

    func testBadArgumentsAreUsageErrors() throws {
        for args in [
            ["--cases", "0"], ["--seed", "-1"], ["--timeout", "nan"], ["--hang-after", "0"], ["Fixtures/nowhere"],
        ] {
            let r = try CLI.run(["fuzz"] + args + ["--no-progress"])
            XCTAssertEqual(r.status, 2, "\(args): \(r.output)")
            XCTAssertFalse(r.stderr.isEmpty, "\(args)")
        }
    }

    /// Every case a fuzz run ever found is kept in Tests/Regressions/ and must stay harmless: it
    /// renders, or it is refused naming the file and the place. Never a signal.
    func testRegressionFixturesStayHarmless() throws {
        let dir = TestPaths.packageRoot.appendingPathComponent("Tests/Regressions")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".json") }
            .sorted()
        XCTAssertFalse(files.isEmpty)
        let tmp = try TempDir()
        for file in files {
            let r = try CLI.run([
                "render", "Tests/Regressions/" + file, "--out", tmp.path("out").path, "--no-progress", "--timeout",
                "20",
            ])
            XCTAssertTrue(r.status == 0 || r.status == 2, "\(file): exit \(r.status)\n\(r.output)")
            if r.status == 2 {
                XCTAssertTrue(
                    r.stderr.contains("Tests/Regressions/\(file):"), "\(file): the error names the file\n\(r.stderr)")
                XCTAssertTrue(
                    r.stderr.contains(": $") || r.stderr.contains("\(file):1:") || r.stderr.contains(".json:"),
                    "\(file): says where\n\(r.stderr)")
            }
        }
    }
}
