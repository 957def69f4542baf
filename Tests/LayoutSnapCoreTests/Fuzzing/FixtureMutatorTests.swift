import Foundation
import LayoutSnapTestSupport
import XCTest
@testable import LayoutSnapCore
import LayoutSnapJSON

/// The fuzzer's mutations (docs/guarantees.md "Fuzzing"): deterministic per case, each kind of damage actually done,
/// and the decoder's side of the promise: every mutated fixture decodes or is refused with the
/// file and a JSON path (line and column for broken JSON). Rendering is FuzzTests' part.
final class FixtureMutatorTests: XCTestCase {
    static let root = TestPaths.packageRoot.appendingPathComponent("Fixtures")

    /// The bundled fixtures, parsed, with their folders (posts name images relative to theirs).
    static let bundled: [(base: FixtureMutator.Base, directory: String)] = {
        let files = FileManager.default.enumerator(atPath: root.path)!.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".json") }.sorted()
        return files.map { rel in
            let url = root.appendingPathComponent(rel)
            let node = try! JSONParser.parse([UInt8](try! Data(contentsOf: url)))
            return (FixtureMutator.Base(name: rel, tree: FuzzJSON(node)), url.deletingLastPathComponent().path)
        }
    }()

    var mutator: FixtureMutator { FixtureMutator(bases: Self.bundled.map(\.base), seed: 7) }

    func testTheTreeWritesBackToTheSameDocument() throws {
        for (base, _) in Self.bundled {
            let reparsed = try JSONParser.parse(base.tree.bytes)
            XCTAssertEqual(FuzzJSON(reparsed), base.tree, base.name)
        }
    }

    func testACaseDependsOnlyOnSeedAndIndex() {
        let a = mutator
        let b = mutator
        for i in [0, 1, 17, 9_999, 123_456] {
            XCTAssertTrue(a.makeCase(i).bytes == b.makeCase(i).bytes, "case \(i)")
        }
        let other = FixtureMutator(bases: Self.bundled.map(\.base), seed: 8)
        let differing = (0..<50).filter { mutator.makeCase($0).bytes != other.makeCase($0).bytes }
        XCTAssertGreaterThan(differing.count, 45, "another seed gives other cases")
    }

    func testEveryMutationIsUsedAndChangesTheBytes() {
        var seen: [FixtureMutator.Mutation: Int] = [:]
        for i in 0..<2_000 {
            let c = mutator.makeCase(i)
            XCTAssertFalse(c.mutations.isEmpty, "case \(i) did nothing")
            XCTAssertFalse(
                c.bytes == Self.bundled[c.base].base.tree.bytes, "case \(i) (\(c.summary)) left its base as it was")
            for m in c.mutations { seen[m, default: 0] += 1 }
        }
        for m in FixtureMutator.Mutation.allCases {
            XCTAssertGreaterThan(seen[m] ?? 0, 5, "\(m) is hardly ever applied")
        }
    }

    func testTheHostileShapesAreReallyThere() throws {
        var r = SeededRandom(seed: 3)
        // Deep nesting: 100,000 levels, refused by the parser's depth limit.
        let deepest = (0..<2_000).map { mutator.makeCase($0) }.filter { $0.mutations == [.deepNesting] }.map(\.bytes)
            .max { $0.count < $1.count }
        XCTAssertGreaterThan(deepest?.count ?? 0, 200_000, "some case nests 100,000 levels")
        XCTAssertThrowsError(try JSONParser.parse(deepest ?? []))
        // Long words: 300 KB, just under a megabyte, and past the limit.
        let words = (0..<30).map { _ in FixtureMutator.hugeWord(&r) }
        XCTAssertTrue(words.allSatisfy { $0.count >= 300_000 && !$0.contains(0x20) })
        XCTAssertTrue(words.contains { $0.count > 1_000_000 })
        // Invalid UTF-8 and lone surrogates reach the parser as written.
        var tree = FuzzJSON.object([FuzzMember(key: Array("kind".utf8), value: .string([0x61, 0xED, 0xA0, 0x80]))])
        XCTAssertThrowsError(try JSONParser.parse(tree.bytes))
        tree = .object([FuzzMember(key: Array("kind".utf8), value: .string(Array("\\ud800".utf8)))])
        XCTAssertThrowsError(try JSONParser.parse(tree.bytes))
    }

    /// The decoder's half of the fuzz promise, in this process (FuzzTests runs 10,000 cases
    /// through the whole pipeline): a fixture, or an error that names the file and says where.
    func testEveryCaseDecodesOrSaysWhere() {
        var decoded = 0
        var refused = 0
        for i in 0..<2_000 {
            let c = mutator.makeCase(i)
            do {
                _ = try FixtureDecoder.decode(
                    bytes: c.bytes, id: "case", file: "case.json",
                    folder: .bundled(URL(fileURLWithPath: Self.bundled[c.base].directory)))
                decoded += 1
            } catch {
                refused += 1
                XCTAssertEqual(error.file, "case.json")
                XCTAssertTrue(
                    error.path != nil || error.line != nil,
                    "case \(i) (\(c.summary)): \(error) says neither a JSON path nor a line")
                XCTAssertFalse(error.message.isEmpty)
            }
        }
        // Both outcomes are common: mutations are neither all fatal nor all harmless.
        XCTAssertGreaterThan(decoded, 300)
        XCTAssertGreaterThan(refused, 800)
    }
}
