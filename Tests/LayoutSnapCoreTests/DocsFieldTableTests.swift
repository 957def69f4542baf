import Foundation
import LayoutSnapTestSupport
import XCTest
@testable import LayoutSnapCore

/// Each kind's page in docs/fixtures/ carries its field table between the markers
/// `<!-- fields:<kind> begin -->` and `<!-- fields:<kind> end -->`, written by `FieldTable` from the
/// kind's `fields` (the table the decoder and schema/ are held to). This fails while a page's table
/// is not what the code gives, as `SchemaTests` does for schema/; with `LAYOUTSNAP_UPDATE_DOCS=1`
/// it writes the tables instead.
final class DocsFieldTableTests: XCTestCase {
    static let regenerate = "LAYOUTSNAP_UPDATE_DOCS=1 swift test --disable-swift-testing --filter DocsFieldTableTests"

    func testEveryKindsPageHasItsGeneratedFieldTable() throws {
        let update = ProcessInfo.processInfo.environment["LAYOUTSNAP_UPDATE_DOCS"] == "1"
        for kind in KindRegistry.kinds {
            let page = "docs/fixtures/\(kind.rawValue).md"
            let url = TestPaths.packageRoot.appendingPathComponent(page)
            let text = try String(contentsOf: url, encoding: .utf8)
            guard let generated = FieldTable.replacingTable(in: text, kind: kind) else {
                let (begin, end) = FieldTable.markers(kind)
                XCTFail("\(page) has no \(begin) … \(end) pair around its field table")
                continue
            }
            if generated == text { continue }
            if update {
                try Data(generated.utf8).write(to: url, options: .atomic)
            } else {
                XCTFail(
                    "\(page): the field table is not what \(kind.rawValue)'s `fields` give: run `\(Self.regenerate)`")
            }
        }
    }

    func testTheTableHasARowPerFieldAndNestedField() {
        let post = FixtureKind(rawValue: "post")!
        let table = FieldTable.markdown(post)
        XCTAssertTrue(table.hasPrefix("| field | type, range | meaning |\n|---|---|---|\n"))
        XCTAssertTrue(table.contains("| `availableWidth` | number 1–8192 | "), table)
        XCTAssertTrue(table.contains("| `image.aspectRatio` | number 0.01–100 | "), table)
        XCTAssertTrue(table.contains("| `imageState` | `loaded` \\| `loading` \\| `failed` | "), table)
        XCTAssertTrue(table.contains("| `steps[].expand` | `true` | "), table)
        for field in post.definition.fields {
            XCTAssertTrue(table.contains("| `\(field.name)` |"), "no row for \(field.name)")
        }
    }

    func testReplacingKeepsWhatLiesOutsideTheMarkers() {
        let post = FixtureKind(rawValue: "post")!
        let page = "# Post\n\nbefore\n\n<!-- fields:post begin -->\nstale\n<!-- fields:post end -->\n\nafter\n"
        XCTAssertEqual(
            FieldTable.replacingTable(in: page, kind: post),
            "# Post\n\nbefore\n\n<!-- fields:post begin -->\n" + FieldTable.markdown(post)
                + "<!-- fields:post end -->\n\nafter\n")
        XCTAssertNil(FieldTable.replacingTable(in: "<!-- fields:post end --> <!-- fields:post begin -->", kind: post))
    }
}
