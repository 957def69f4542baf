import Foundation
import LayoutSnapCore
import LayoutSnapJSON
import LayoutSnapTestSupport
import XCTest

/// The result cache's key changes with every input that changes pixels and with nothing else
/// (docs/cache.md "The key").
final class ResultKeyTests: XCTestCase {
    let post = """
        {"kind": "post", "width": 200, "height": 160, "scale": 1, "availableWidth": 160,
         "title": "Small card", "summary": "A summary", "body": "Body text", "author": "Ann",
         "fps": 20, "steps": [{"expand": true}]}
        """

    func fixture(_ json: String, id: String = "cards/small", defaults: FixtureDefaults = FixtureDefaults()) throws
        -> Fixture
    {
        try FixtureDecoder.decode(bytes: Array(json.utf8), id: id, file: "x.json", folder: .empty(), defaults: defaults)
    }

    func key(
        _ f: Fixture, inputs: [(path: String, bytes: [UInt8])] = [], renderer: String = "r1",
        environment: String = "e1",
        lints: Bool = true
    ) -> String {
        ResultKey.of(f, inputs: inputs, renderer: renderer, environment: environment, lints: lints).hex
    }

    func testEveryInputThatChangesPixelsChangesTheKey() throws {
        let base = key(try fixture(post))
        XCTAssertEqual(base.count, 64)
        var seen: [String: String] = ["base": base]
        func distinct(_ name: String, _ k: String) {
            for (other, value) in seen { XCTAssertNotEqual(value, k, "\(name) has the key of \(other)") }
            seen[name] = k
        }
        distinct("a fixture field", key(try fixture(post.replacingOccurrences(of: "Body text", with: "Body text."))))
        distinct("a number", key(try fixture(post.replacingOccurrences(of: "\"fps\": 20", with: "\"fps\": 21"))))
        distinct("the id (the goldens' folder)", key(try fixture(post, id: "cards/other")))
        distinct("the renderer", key(try fixture(post), renderer: "r2"))
        distinct("the environment (a font's hash)", key(try fixture(post), environment: "e2"))
        distinct("lints on or off", key(try fixture(post), lints: false))
        distinct("an input file's byte", key(try fixture(post), inputs: [("/i.png", [1, 2, 3])]))
        distinct("another input file byte", key(try fixture(post), inputs: [("/i.png", [1, 2, 4])]))
        let variant = FixtureVariant(name: "dark", appearance: .dark)
        distinct("a variant", key(variant.apply(to: try fixture(post))))
        var override = FixtureOverrides()
        override.scale = 2
        distinct("an override", key(try override.apply(to: try fixture(post))))
        let dark = key(
            try fixture(post.replacingOccurrences(of: "\"kind\"", with: "\"appearance\": \"dark\", \"kind\"")))
        distinct("a field the fixture writes", dark)
        var defaults = FixtureDefaults()
        defaults.appearance = .dark
        // A project default decodes to the same fixture as the field written in it.
        XCTAssertEqual(key(try fixture(post, defaults: defaults)), dark)
    }

    func testHowTheJSONIsWrittenDoesNotChangeTheKey() throws {
        let base = key(try fixture(post))
        let reordered = """
            {"steps":[{"expand":true}],"fps":20,"author":"Ann","body":"Body text","summary":"A summary",
            "title":"Small card","availableWidth":160,"scale":1,"height":160,"width":200,"kind":"post"}
            """
        XCTAssertEqual(key(try fixture(reordered)), base)
        XCTAssertEqual(key(try fixture("\n\n   " + post.replacingOccurrences(of: ", ", with: ",\n\t "))), base)
        // A default written out decodes to the same fixture.
        XCTAssertEqual(
            key(try fixture(post.replacingOccurrences(of: "\"kind\"", with: "\"appearance\": \"light\", \"kind\""))),
            base)
    }

    /// Every bundled fixture, its keys reversed and whitespace changed, keeps its key: nothing a
    /// fixture decodes to remembers where in the file a value was.
    func testEveryBundledFixtureKeepsItsKeyWhenReformatted() throws {
        let root = TestPaths.packageRoot.appendingPathComponent("Fixtures")
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "json" && !$0.path.contains("/images/") }
        XCTAssertGreaterThan(files.count, 20)
        func reversed(_ v: JSONOutput) -> JSONOutput {
            switch v {
            case .object(let members): .object(members.reversed().map { ($0.key, reversed($0.value)) })
            case .array(let items): .array(items.map(reversed))
            default: v
            }
        }
        for url in files {
            let bytes = [UInt8](try Data(contentsOf: url))
            let node = try JSONParser.parse(bytes)
            let rewritten = JSONWriter(style: .pretty).bytes(reversed(JSONOutput(node))) + Array("\n\n".utf8)
            XCTAssertNotEqual(rewritten, bytes)
            let folder = FixtureFolder.bundled(url.deletingLastPathComponent())
            let a = try FixtureDecoder.decode(bytes: bytes, id: "x", file: url.path, folder: folder)
            let b = try FixtureDecoder.decode(bytes: rewritten, id: "x", file: "elsewhere.json", folder: folder)
            XCTAssertEqual(key(a), key(b), url.lastPathComponent)
            for variant in a.variants {
                XCTAssertEqual(
                    key(variant.apply(to: a)), key(variant.apply(to: b)), "\(url.lastPathComponent)@\(variant.name)")
                XCTAssertNotEqual(key(variant.apply(to: a)), key(a), "\(url.lastPathComponent)@\(variant.name)")
            }
        }
    }
}
