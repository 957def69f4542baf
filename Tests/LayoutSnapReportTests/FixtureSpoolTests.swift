import Foundation
@testable import LayoutSnapReport
import XCTest

/// A run's fixtures spooled to disk read the same as the fixtures held in memory: every output
/// drawn from them is byte for byte the same, and the summary needs no reading back.
final class FixtureSpoolTests: XCTestCase {
    func spooled(_ results: RunResults) throws -> RunResults {
        let entries = Array(results.fixtures)
        let spool = try FixtureSpool(count: entries.count)
        // Put from several threads in a scrambled order, as workers finish.
        let order = entries.indices.sorted { ($0 * 7919) % entries.count < ($1 * 7919) % entries.count }
        DispatchQueue.concurrentPerform(iterations: order.count) { spool.put(order[$0], entries[order[$0]]) }
        return RunResults(
            tool: results.tool, version: results.version, command: results.command,
            durationSeconds: results.durationSeconds,
            environmentDifferences: results.environmentDifferences, fixtures: FixtureEntries(spool),
            findings: results.findings)
    }

    func testSpooledRunReadsAndWritesAsTheRunInMemory() throws {
        for results in [Samples.small(), Samples.large(fixtureCount: 120, framesPerAnimation: 30)] {
            let spooled = try spooled(results)
            XCTAssertEqual(spooled.summary, results.summary)
            XCTAssertEqual(spooled.exitCode, results.exitCode)
            XCTAssertEqual(spooled, results)
            XCTAssertEqual(spooled.fixtures.count, results.fixtures.count)
            XCTAssertEqual(spooled.fixtures.notPassed, Array(results.fixtures).filter { $0.outcome != .passed })
            XCTAssertEqual(ResultsJSON.encode(spooled), ResultsJSON.encode(results))
            // The compact form writes spooled passes as they were spooled.
            XCTAssertEqual(ResultsJSON.encode(spooled, pretty: false), ResultsJSON.encode(results, pretty: false))
            XCTAssertEqual(try HTMLReport.html(spooled), try HTMLReport.html(results))
            XCTAssertEqual(JUnitWriter.xml(spooled), JUnitWriter.xml(results))
            XCTAssertEqual(
                TerminalText.verify(spooled, context: .init(report: "r")),
                TerminalText.verify(results, context: .init(report: "r")))
        }
    }

    /// Changing a spooled run's fixture (a merge, a test) holds the fixtures in memory from then
    /// on, and the summary follows the change.
    func testAChangeIsKeptAndCounted() throws {
        var results = try spooled(Samples.large(fixtureCount: 20, framesPerAnimation: 5))
        XCTAssertEqual(results.summary.failed, 2 * 1)
        results.fixtures[0].states[1].frames[0].status = .failed
        XCTAssertEqual(results.fixtures[0].states[1].frames[0].status, .failed)
        XCTAssertEqual(results.summary.failed, 3)
    }
}
