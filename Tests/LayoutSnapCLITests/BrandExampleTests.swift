import Foundation
import LayoutSnapTestSupport
import XCTest

/// Examples/brand, the bundled brand theme (docs/themes.md): its fixtures record in both the
/// built-in design and the brand theme, differ in every fixture, are lint-clean as a team's
/// theme is linted (in full), and the brand font is in the goldens' environment.
final class BrandExampleTests: XCTestCase {
    func testTheBrandExampleRecordsInBothThemesAndLintsClean() throws {
        let dir = try TempDir()
        try dir.copyBundled("Examples/brand", to: "brand")
        let project = dir.path("brand")
        // Goldens a maintainer recorded in the checkout are not the example's (it ignores them).
        try? FileManager.default.removeItem(at: project.appendingPathComponent("Goldens"))
        let record = try CLI.run(["record", "--no-progress", "--allow-ci", "--no-cache"], in: project)
        XCTAssertEqual(record.status, 0, record.output)
        XCTAssertTrue(record.stdout.hasSuffix("374 recorded, 0 unchanged\n"), record.stdout)
        for fixture in ["chat", "composer", "post", "transcript"] {
            let base = try Data(contentsOf: project.appendingPathComponent("Goldens/\(fixture)/initial/000.png"))
            let brand = try Data(
                contentsOf: project.appendingPathComponent("Goldens/\(fixture)@brand/initial/000.png"))
            XCTAssertNotEqual(base, brand, fixture)
        }
        let lint = try CLI.run(["lint", "--no-progress"], in: project)
        XCTAssertEqual(lint.status, 0, lint.output)
        XCTAssertTrue(lint.output.contains(": 0 findings"), lint.output)
        let manifest = try String(contentsOf: project.appendingPathComponent("Goldens/manifest.json"), encoding: .utf8)
        XCTAssertTrue(manifest.contains("Brand Serif: DejaVuSerif.ttf"), manifest)
        let verify = try CLI.run(["verify", "--no-progress"], in: project)
        XCTAssertEqual(verify.status, 0, verify.output)
    }
}
