import Foundation
import LayoutSnapCore
@testable import LayoutSnapRunner
import LayoutSnapTestSupport
import XCTest

/// A fixture's error stays a Diagnostic on its way up: line, column and JSON path reach the
/// fixture entry, never rebuilt from a message.
final class TypedErrorTests: XCTestCase {
    func testABrokenFixtureKeepsItsPlaceThroughRunnerError() throws {
        let folder = try makeTemporaryFolder("typed-errors").path
        defer { removeTemporaryFolder(folder) }
        let file = folder + "/broken.json"
        try Support.write("{\n  \"kind\": \"chat\",\n  \"canvas\": [\n}", to: file)
        let ref = FixtureRef(id: "broken", path: file, displayPath: "Fixtures/broken.json")
        XCTAssertThrowsError(try LayoutComputation.layout(ref)) { error in
            guard case .fixture(let diagnostic)? = error as? RunnerError else { return XCTFail("\(error)") }
            XCTAssertEqual(diagnostic.category, .fixture)
            XCTAssertEqual(diagnostic.file, "Fixtures/broken.json")
            XCTAssertNotNil(diagnostic.line, diagnostic.description)
            XCTAssertNotNil(diagnostic.column, diagnostic.description)
            // What a batch records for the fixture is the same diagnostic, not one rebuilt from text.
            XCTAssertEqual((error as! RunnerError).diagnostic(file: ref.displayPath), diagnostic)
            XCTAssertEqual((error as! RunnerError).description, diagnostic.description)
        }
    }

    func testABrokenProjectFileIsAnInputDiagnosticWithItsPlace() throws {
        let folder = try makeTemporaryFolder("typed-errors-config").path
        defer { removeTemporaryFolder(folder) }
        try Support.write("{\n  \"jobs\": \"many\"\n}", to: folder + "/layoutsnap.json")
        XCTAssertThrowsError(try ProjectSettings.load(from: folder, cwd: folder)) { error in
            guard case .input(let diagnostic)? = error as? RunnerError else { return XCTFail("\(error)") }
            XCTAssertEqual(diagnostic.category, .input)
            XCTAssertEqual(diagnostic.file, "layoutsnap.json")
            XCTAssertNotNil(diagnostic.path ?? diagnostic.line.map(String.init), diagnostic.description)
            XCTAssertEqual((error as! RunnerError).description, diagnostic.description)
        }
    }

    func testALayoutErrorNamesItsJSONPath() {
        let error = LayoutError(path: "$.steps[1].at", message: "cannot be met")
        let ref = FixtureRef(id: "x", path: "Fixtures/x.json", displayPath: "Fixtures/x.json")
        let diagnostic = Diagnostic.fixtureStage(error, ref: ref)
        XCTAssertEqual(
            diagnostic,
            Diagnostic(.error, .fixture, file: "Fixtures/x.json", path: "$.steps[1].at", message: "cannot be met"))
        XCTAssertEqual(diagnostic.description, "Fixtures/x.json: $.steps[1].at: cannot be met")
    }
}
