import LayoutSnapCore
import LayoutSnapRunner
import XCTest

/// The goldens folder's names, each built and read back in one place.
final class GoldenStoreTests: XCTestCase {
    func testKeysAndPaths() {
        let store = GoldenStore("Goldens")
        XCTAssertEqual(store.manifestPath, "Goldens/manifest.json")
        XCTAssertEqual(
            GoldenStore.frameKey(fixture: "posts/x", state: "01-expand", index: 7), "posts/x/01-expand/007.png")
        XCTAssertEqual(
            GoldenStore.frameKey(goldenKey: "posts/x/01-expand/007.png", index: 1234), "posts/x/01-expand/1234.png")
        XCTAssertEqual(store.path(GoldenStore.layoutKey(fixture: "posts/x")), "Goldens/posts/x/layout.json")
        XCTAssertEqual(GoldenStore.fixture(ofLayoutKey: GoldenStore.layoutKey(fixture: "posts/x@dark")), "posts/x@dark")
        XCTAssertNil(GoldenStore.fixture(ofLayoutKey: "posts/x/01-expand/000.png"))
        let frame = GoldenStore.frame(
            ofKey: GoldenStore.frameKey(fixture: "posts/x@dark", state: "01-expand", index: 3))
        XCTAssertEqual(frame?.fixture, "posts/x@dark")
        XCTAssertEqual(frame?.state, "01-expand")
        XCTAssertNil(GoldenStore.frame(ofKey: "posts/x/layout.json"))
        XCTAssertNil(GoldenStore.frame(ofKey: "x/000.png"))
        XCTAssertNil(GoldenStore.fixture(ofLayoutKey: "posts/xlayout.json"))
    }

    func testVariantIDs() {
        let id = FixtureVariant.id(base: "posts/x", name: "iphone-se+AX3")
        XCTAssertEqual(id, "posts/x@iphone-se+AX3")
        XCTAssertEqual(FixtureVariant.baseID(of: id), "posts/x")
        XCTAssertEqual(FixtureVariant.baseID(of: "posts/x"), "posts/x")
    }
}
