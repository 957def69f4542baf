@_spi(Reflection) import Swift
import Foundation
import XCTest

@testable import LayoutSnapCore
import LayoutSnapTestSupport

/// The key's walk reads structs, arrays, optionals and enum cases without `Mirror`
/// (`CanonicalHash.Walk`); it must write the very bytes `Mirror` does, for every value a key or a
/// memo hashes.
final class CanonicalWalkTests: XCTestCase {
    func assertSameBytes(_ value: Any, _ name: String, file: StaticString = #filePath, line: UInt = #line) {
        let reference = CanonicalHash.bytes(of: value, fast: false)
        // Twice: the first walk works out each type's walk, the second uses what it remembered.
        for round in 0..<2 {
            let fast = CanonicalHash.bytes(of: value, fast: true)
            guard fast != reference else { continue }
            let at =
                zip(fast, reference).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(fast.count, reference.count)
            XCTFail(
                "\(name), walk \(round + 1): differs from Mirror's at byte \(at): "
                    + "\(String(decoding: fast[max(0, at - 40)..<min(fast.count, at + 40)], as: UTF8.self)) "
                    + "against \(String(decoding: reference[max(0, at - 40)..<min(reference.count, at + 40)], as: UTF8.self))",
                file: file, line: line)
            return
        }
    }

    func testEveryBundledAndGeneratedFixtureWalksAsMirrorDoes() throws {
        var fixtures: [(String, Fixture)] = []
        let roots = ["Fixtures", "Examples/brand/Fixtures"].map { TestPaths.packageRoot.appendingPathComponent($0) }
        let brand = try ProjectConfig.decode(
            bytes: [UInt8](
                try Data(contentsOf: TestPaths.packageRoot.appendingPathComponent("Examples/brand/layoutsnap.json"))),
            file: "layoutsnap.json")
        for root in roots {
            let defaults = root.path.contains("brand") ? brand.defaults : FixtureDefaults()
            let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)!
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "json" && !$0.path.contains("/images/") }
            XCTAssertFalse(files.isEmpty, root.path)
            for url in files {
                let fixture = try FixtureDecoder.decode(
                    bytes: [UInt8](try Data(contentsOf: url)), id: url.lastPathComponent, file: url.path,
                    folder: .bundled(url.deletingLastPathComponent()), defaults: defaults)
                fixtures.append((url.lastPathComponent, fixture))
                for variant in fixture.variants {
                    fixtures.append(("\(url.lastPathComponent)@\(variant.name)", variant.apply(to: fixture)))
                }
            }
            assertSameBytes(defaults, "the defaults of \(root.lastPathComponent)")
        }
        for kind in FixtureKind.allCases {
            let generator = FixtureGenerator(kind: kind, seed: 11)
            for index in 0..<25 {
                let fixture = try FixtureDecoder.decode(
                    bytes: generator.fixture(at: index), id: "g", file: "g.json", folder: .empty())
                fixtures.append(("generated \(kind) \(index)", fixture))
            }
        }
        XCTAssertGreaterThan(fixtures.count, 150)
        for (name, fixture) in fixtures { assertSameBytes(fixture, name) }
        assertNoReferenceFields()
        var overrides = FixtureOverrides()
        overrides.scale = 2
        assertSameBytes(overrides, "overrides")
        assertSameBytes(FixtureOverrides(), "no overrides")
    }

    /// Every struct the walks read by offset holds values only: a field that could be `weak` or
    /// `unowned` (a class, or a class-bound protocol) is not a plain reference in memory. Classes
    /// and optionals of them go to `Mirror` on their own; a field of protocol type, bare or
    /// optional, is checked here by name, each one known not to be class-bound.
    func assertNoReferenceFields() {
        let valueProtocols = ["LayoutSnapCore.KindContent"]
        struct Box<T> { var value: T }
        func kind(of type: Any.Type) -> _MetadataKind {
            func box<T>(_: T.Type) -> Any.Type { Box<T>.self }
            var found = _MetadataKind.unknown
            _ = _forEachField(of: _openExistential(type, do: box)) { _, _, _, kind in
                found = kind
                return false
            }
            return found
        }
        let walks = CanonicalHash.known.withLock { $0.walks ?? [:] }
        var structs = 0
        for walk in walks.values {
            guard case .fields(let type, let fields) = walk else { continue }
            structs += 1
            for field in fields {
                var fieldType = field.type
                XCTAssertEqual(kind(of: fieldType), field.kind)
                if _MetadataKind(rawValue: CanonicalHash.metadataKind(fieldType)) == .optional {
                    fieldType = CanonicalHash.genericArgument(of: fieldType)
                }
                let name = "\(type).\(String(decoding: field.label, as: UTF8.self)): \(String(reflecting: fieldType))"
                XCTAssertNotEqual(kind(of: fieldType), .class, name)
                if kind(of: fieldType) == .existential {
                    XCTAssertTrue(valueProtocols.contains(String(reflecting: fieldType)), name)
                }
            }
        }
        XCTAssertGreaterThan(structs, 20)
    }

    protocol Shape {}
    struct Square: Shape, Hashable {
        var side: Double
        var name: String?
    }
    enum Mark: Hashable {
        case none, dot
        case text(String)
        case nested(Square?)
    }
    final class Node {}
    /// Fields whose storage is not a plain reference: left to `Mirror`.
    struct Linked {
        weak var parent: Node?
        unowned let owner: Node
        var next: Node?
    }
    /// An enum of no bytes at all.
    enum Only { case only }
    struct Holder {
        var shape: any Shape
        var shapes: [any Shape]
        var maybe: (any Shape)?
        var marks: [Mark]
        var deep: Int??
        var table: [String: Int]
        var set: Set<Square>
        var pair: (Int, String)
        var empty: Empty
        var flags: [Bool]
        var only: Only
        var numbers: Numbers = Numbers()
        struct Empty {}
    }

    /// Leaves read from a struct's storage (`CanonicalHash.Leaf`) and lengths and counts of
    /// more than one digit, as `Mirror`'s walk writes them.
    struct Numbers {
        var negative = -12
        var zero = 0
        var ten = 10
        var thousand = 1000
        var largest = Int.max
        var smallest = Int.min
        var minusZero = -0.0
        var huge = 1e300
        var long = String(repeating: "é", count: 120)
        var empty = ""
        var flag = true
        var many = Array(-3...9)
        var texts = (0..<11).map { String(repeating: "x", count: $0 * 3) }
    }

    /// The shapes the walks must leave to `Mirror`, or match it in: values held as a protocol,
    /// enums with and without payloads, nested optionals, dictionaries, sets, tuples, a struct of
    /// no fields.
    func testEveryShapeOfValueWalksAsMirrorDoes() {
        let holder = Holder(
            shape: Square(side: 2, name: nil), shapes: [Square(side: 1, name: "a"), Square(side: 3, name: nil)],
            maybe: Square(side: 4, name: "m"),
            marks: [.none, .dot, .text("t"), .nested(nil), .nested(Square(side: 5))],
            deep: .some(nil), table: ["b": 2, "a": 1], set: [Square(side: 1), Square(side: 2)], pair: (1, "x"),
            empty: .init(), flags: [true, false], only: .only)
        assertSameBytes(holder, "holder")
        assertSameBytes(Numbers(), "numbers")
        // Both walks write leaves alike, so their form is pinned here: a tag, the text's length
        // in bytes, a colon, the text.
        let numbers = String(decoding: CanonicalHash.bytes(of: Numbers()), as: UTF8.self)
        for leaf in [
            "negative=i3:-12", "zero=i1:0", "ten=i2:10", "thousand=i4:1000", "largest=i19:9223372036854775807",
            "smallest=i20:-9223372036854775808", "minusZero=d4:-0.0", "huge=d6:1e+300",
            "long=s240:" + String(repeating: "é", count: 120), "empty=s0:", "flag=T",
            "many=[Swift.Array<Swift.Int>#13:_=i2:-3_=i2:-2", "_=i1:9]",
        ] {
            XCTAssertTrue(numbers.contains(leaf), "\(leaf) in \(numbers)")
        }
        assertSameBytes([holder, holder], "an array of holders")
        assertSameBytes(holder.shapes as [Any], "an array of Any")
        assertSameBytes(Mark.none, "a case alone")
        assertSameBytes(Optional(Optional(Mark.dot)) as Any, "a nested optional")
        let node = Node()
        assertSameBytes(Linked(parent: node, owner: node, next: nil), "weak and unowned fields")
        assertSameBytes(Linked(parent: nil, owner: node, next: node), "weak and unowned fields, others set")
        var other = holder
        other.marks[1] = .none
        XCTAssertNotEqual(CanonicalHash.bytes(of: holder), CanonicalHash.bytes(of: other), "a case changed")
        other = holder
        other.shapes[1] = Square(side: 3, name: "")
        XCTAssertNotEqual(CanonicalHash.bytes(of: holder), CanonicalHash.bytes(of: other), "a field behind a protocol")
    }

    /// The walks `Mirror` tells (for types not of layoutsnap's modules, which the metadata
    /// tells alone) agree with the metadata's for layoutsnap's own, and leave to `Mirror` what
    /// it cannot vouch for.
    func testTheWalkMirrorTellsAgreesWithTheMetadatas() {
        func describe(_ walk: CanonicalHash.Walk) -> String {
            switch walk {
            case .fields(let type, let fields):
                return "fields \(type) "
                    + fields.map { String(decoding: $0.label, as: UTF8.self) }.joined(separator: ",")
            case .cases(let type, let size): return "cases \(type) \(size)"
            case .elements(let type, _): return "elements \(type)"
            case .optional: return "optional"
            case .mirror: return "mirror"
            }
        }
        let node = Node()
        let samples: [(Any.Type, Any)] = [
            (Square.self, Square(side: 1, name: nil)), (Mark.self, Mark.dot), (Printed.self, Printed.first),
            (Numbers.self, Numbers()), (Holder.Empty.self, Holder.Empty()),
            (Linked.self, Linked(parent: nil, owner: node, next: nil)),
        ]
        for (type, sample) in samples {
            let told = CanonicalHash.Walk.of(type, sample: sample)
            XCTAssertTrue(told.direct, "\(type)")
            XCTAssertEqual(describe(CanonicalHash.Walk.mirrored(type, sample: sample)), describe(told.walk), "\(type)")
        }
        XCTAssertEqual(
            describe(CanonicalHash.Walk.of(Linked.self, sample: Linked(parent: nil, owner: node, next: nil)).walk),
            "mirror")
        XCTAssertEqual(
            describe(CanonicalHash.Walk.of([Square].self, sample: [Square]()).walk), "elements Array<Square>")
        XCTAssertFalse(CanonicalHash.Walk.of(Int?.self, sample: Int?.none as Any).direct)
        XCTAssertFalse(CanonicalHash.Walk.of((Int, Int).self, sample: (1, 2)).direct)
    }

    /// Two cases that print alike, and whose names the hash must tell apart.
    enum Printed: CustomStringConvertible {
        case first, second
        var description: String { "same" }
    }

    /// A case without payload goes in by its name, not its description: cases that print alike
    /// hash apart, and the name is what both walks write.
    func testACaseIsHashedByItsNameNotItsDescription() {
        let first = CanonicalHash.bytes(of: Printed.first)
        XCTAssertNotEqual(first, CanonicalHash.bytes(of: Printed.second))
        XCTAssertTrue(
            String(decoding: first, as: UTF8.self).hasSuffix("=5:first"), String(decoding: first, as: UTF8.self))
        assertSameBytes(Printed.second, "a printed case")
        assertSameBytes([Printed.first, .second], "printed cases in an array")
        XCTAssertEqual(CanonicalHash.caseName(Mark.dot), "dot")
        XCTAssertEqual(CanonicalHash.caseName(Mark.text("t")), "text")
    }
}
