import Foundation
import LayoutSnapTestSupport
import XCTest
@testable import LayoutSnapCore

/// A kind is its folder plus one registry line (docs/adding-a-kind.md). This fails when a
/// registered kind lacks one of the pieces the rest of the project expects of it.
final class KindRegistryTests: XCTestCase {
    func testKindsHaveDistinctNamesStreamsAndSchemaDefinitions() {
        let kinds = KindRegistry.kinds
        XCTAssertEqual(Set(kinds.map(\.rawValue)).count, kinds.count, "two kinds share a name")
        XCTAssertEqual(
            Set(kinds.map(\.definition.generatorStream)).count, kinds.count, "two kinds share a generator stream")
        let definitions =
            kinds.flatMap(\.definition.schemaDefinitions).map(\.name) + FixtureSchema.definitions.map(\.name)
            + kinds.map(\.rawValue)
        XCTAssertEqual(
            Set(definitions).count, definitions.count, "schema definition names collide: \(definitions.sorted())")
        for kind in kinds {
            XCTAssertEqual(FixtureKind(rawValue: kind.rawValue), kind)
            XCTAssertTrue(
                kind.rawValue.allSatisfy { $0.isLowercase && $0.isASCII },
                "\(kind): a kind's name is lower-case letters")
        }
        XCTAssertNil(FixtureKind(rawValue: "Post"))
    }

    func testEveryRegisteredKindHasEveryPiece() throws {
        let fm = FileManager.default
        let root = TestPaths.packageRoot
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let kindIndex = try String(contentsOf: root.appendingPathComponent("docs/fixtures/README.md"), encoding: .utf8)
        let manifest = try String(contentsOf: root.appendingPathComponent("Goldens/manifest.json"), encoding: .utf8)
        for kind in KindRegistry.kinds {
            let name = kind.rawValue
            // Its folder of sources, with the kind's definition and its rules' tests.
            let typeName = name.prefix(1).uppercased() + name.dropFirst()
            let folder = root.appendingPathComponent("Sources/LayoutSnapCore/Kinds").appendingPathComponent(typeName)
            for piece in ["Kind", "Fixture", "Decoder", "Rules", "Generator"] {
                let file = folder.appendingPathComponent("\(typeName)\(piece).swift")
                XCTAssertTrue(fm.fileExists(atPath: file.path), "\(name): no \(file.path)")
            }
            let tests = root.appendingPathComponent(
                "Tests/LayoutSnapCoreTests/\(name.prefix(1).uppercased() + name.dropFirst())RulesTests.swift")
            XCTAssertTrue(fm.fileExists(atPath: tests.path), "\(name): no unit tests of its rules at \(tests.path)")

            // Bundled fixtures of the kind, each with goldens.
            let fixtures = root.appendingPathComponent("Fixtures/\(name)s")
            let files = (try? fm.contentsOfDirectory(atPath: fixtures.path).filter { $0.hasSuffix(".json") }) ?? []
            XCTAssertFalse(files.isEmpty, "\(name): no bundled fixtures in Fixtures/\(name)s")
            for file in files {
                let fixture = try FixtureDecoder.load(
                    path: fixtures.appendingPathComponent(file).path, id: "\(name)s/" + file.dropLast(5),
                    displayPath: file, files: FixtureFolder.bundledFiles)
                XCTAssertEqual(fixture.kind, kind, "\(file) is in the \(name) folder but is a \(fixture.kind)")
                let goldens = root.appendingPathComponent("Goldens/\(fixture.id)")
                let states = (try? fm.contentsOfDirectory(atPath: goldens.path)) ?? []
                XCTAssertTrue(states.contains("initial"), "\(fixture.id): no goldens at \(goldens.path)")
                XCTAssertTrue(
                    manifest.contains("\"\(fixture.id)/initial/000.png\""),
                    "\(fixture.id): the goldens manifest has no frames of it")
            }

            // A generator whose fixtures decode as the kind.
            let generator = FixtureGenerator(kind: kind, seed: 5)
            for i in 0..<20 {
                let fixture = try FixtureDecoder.decode(
                    bytes: generator.fixture(at: i), id: "g", file: "g.json", folder: .empty())
                XCTAssertEqual(fixture.kind, kind)
            }

            // Its schema: a definition of its own, and a fixture that uses every field.
            XCTAssertNotNil(
                FixtureSchema.document.definitions.first { $0.name == name }, "\(name): no schema definition")
            XCTAssertNotNil(
                SchemaTests.everyField[kind], "\(name): SchemaTests.everyField has no fixture using every field")

            // Its page in docs/fixtures/, with its generated field table (DocsFieldTableTests keeps
            // it current), linked from the index and the README.
            let page = "docs/fixtures/\(name).md"
            let text = (try? String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)) ?? ""
            XCTAssertFalse(text.isEmpty, "\(name): no \(page)")
            XCTAssertTrue(
                text.contains(FieldTable.markers(kind).begin),
                "\(name): \(page) has no \(FieldTable.markers(kind).begin)")
            XCTAssertTrue(
                kindIndex.contains("(\(name).md)"), "\(name): docs/fixtures/README.md does not link \(name).md")
            XCTAssertTrue(readme.contains("](\(page))"), "\(name): the README does not link \(page)")
        }
    }
}
