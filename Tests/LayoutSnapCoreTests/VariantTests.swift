import XCTest
@testable import LayoutSnapCore

/// `variants`: a matrix (every combination, named by its values joined by `+` in the order
/// device, textSize, appearance, direction) or a list of objects with an optional name.
final class VariantTests: XCTestCase {
    func decode(_ variants: String) throws -> Fixture {
        let json = #"{"kind": "post", "title": "T", "summary": "S", "body": "B", "variants": \#(variants)}"#
        return try FixtureDecoder.decode(bytes: Array(json.utf8), id: "posts/t", file: "t.json", folder: .empty())
    }

    func testAMatrixIsEveryCombinationInOrder() throws {
        let f = try decode(
            #"{"appearance": ["dark"], "textSize": ["Large", "AX3"], "device": ["iphone-se", "iphone-15"]}"#)
        XCTAssertEqual(
            f.variants.map(\.name),
            ["iphone-se+large+dark", "iphone-se+AX3+dark", "iphone-15+large+dark", "iphone-15+AX3+dark"])
        let v = f.variants[1].apply(to: f)
        XCTAssertEqual(v.id, "posts/t@iphone-se+AX3+dark")
        XCTAssertEqual(v.canvas, Canvas(width: 375, height: 667, scale: 2))
        XCTAssertEqual(v.textSize, .ax3)
        XCTAssertEqual(v.appearance, .dark)
        XCTAssertTrue(v.variants.isEmpty)
        // The base stays as written.
        XCTAssertEqual(f.textSize, .large)
        XCTAssertEqual(f.appearance, .light)
    }

    func testAListNamesItsVariants() throws {
        let f = try decode(#"[{"textSize": "AX5", "name": "huge"}, {"direction": "ltr", "appearance": "dark"}]"#)
        XCTAssertEqual(f.variants.map(\.name), ["huge", "dark+ltr"])
        XCTAssertEqual(f.variants[0].apply(to: f).textSize, .ax5)
    }

    func testMistakesNameTheirPath() {
        for (variants, expected) in [
            (#"{"textSize": ["AX9"]}"#, "$.variants.textSize[0]: unknown text size \"AX9\""),
            (#"{"device": []}"#, "$.variants.device: expected a non-empty array"),
            (#"{"devices": ["iphone-se"]}"#, "$.variants.devices: unknown field \"devices\"; did you mean \"device\"?"),
            (#"{}"#, "$.variants: a variants matrix needs at least one of"),
            (#"[{"name": "x"}]"#, "$.variants[0]: a variant needs at least one of"),
            (
                #"[{"textSize": "AX1", "name": "a"}, {"textSize": "AX2", "name": "A"}]"#,
                "$.variants[1]: two variants are named \"A\" (in any case)"
            ),
            (#"[{"textSize": "AX1", "name": "a/b"}]"#, "$.variants[0]: the variant name \"a/b\" is a folder name"),
            (#"[{"device": "pixel"}]"#, "$.variants[0].device: unknown device \"pixel\""),
            (#""AX3""#, "$.variants: expected a matrix object"),
            (#"{"direction": ["ltr", "up"]}"#, "$.variants.direction[1]: "),
        ] {
            XCTAssertThrowsError(try decode(variants), variants) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(variants): \(error)")
            }
        }
    }

    /// The same reading of `variants`, cheap enough for discovery, gives the same variants, and
    /// none for a file whose variants are wrong (decoding the base reports that).
    func testDiscoveryReadsTheSameVariants() throws {
        let json = #"{"kind": "post", "variants": {"textSize": ["AX1", "AX3"]}}"#
        XCTAssertEqual(FixtureDecoder.variants(in: Array(json.utf8))?.map(\.name), ["AX1", "AX3"])
        XCTAssertNil(FixtureDecoder.variants(in: Array(#"{"variants": {"textSize": ["AX9"]}}"#.utf8)))
        XCTAssertNil(FixtureDecoder.variants(in: Array("not json".utf8)))
        XCTAssertEqual(
            FixtureDecoder.variants(in: Array(#"{"title": "variants"}"#.utf8)), [], "the word alone is not variants")
    }

    /// `"$schema"` (an editor's pointer to a JSON Schema) is allowed in a fixture, as a string.
    func testASchemaKeyIsAllowed() throws {
        let json = #"{"$schema": "../schema/fixture.schema.json", "kind": "post", "title": "T"}"#
        XCTAssertNoThrow(try FixtureDecoder.decode(bytes: Array(json.utf8), id: "t", file: "t.json", folder: .empty()))
        XCTAssertThrowsError(
            try FixtureDecoder.decode(
                bytes: Array(#"{"$schema": 3, "kind": "post"}"#.utf8), id: "t", file: "t.json", folder: .empty()))
    }
}

/// layoutsnap.json's `defaults` as FixtureDecoder applies them: as if written in the fixture.
final class FixtureDefaultsDecodingTests: XCTestCase {
    func decode(_ json: String, _ defaults: FixtureDefaults) throws -> Fixture {
        try FixtureDecoder.decode(
            bytes: Array(json.utf8), id: "f", file: "f.json", folder: .empty(), defaults: defaults)
    }

    func testDefaultsFillOnlyWhatTheFixtureDoesNotWrite() throws {
        var d = FixtureDefaults()
        d.device = Device.named("iphone-se")
        d.scale = 1
        d.fps = 30
        d.tolerance = .init(
            pixels: Tolerance(threshold: 0.1, maxDiffPixels: 7, maxDiffRatio: 0, includeAntialiasing: false),
            timingFrames: 2)
        d.variants = [FixtureVariant(textSize: .ax3)]

        let plain = try decode(#"{"kind": "post"}"#, d)
        XCTAssertEqual(plain.device.name, "iphone-se")
        XCTAssertEqual([plain.canvas.width, plain.canvas.height, plain.canvas.scale], [375, 667, 1])
        XCTAssertEqual(plain.fps, 30)
        XCTAssertEqual(plain.tolerance?.maxDiffPixels, 7)
        XCTAssertEqual(plain.timingFrames, 2)
        XCTAssertEqual(plain.variants.map(\.name), ["AX3"])

        let own = try decode(
            #"{"kind": "post", "device": "iphone-15", "fps": 60, "tolerance": {"timing": {"frames": 1}}, "variants": []}"#,
            d)
        XCTAssertEqual(own.device.name, "iphone-15")
        XCTAssertEqual(
            [own.canvas.width, own.canvas.height, own.canvas.scale], [393, 852, 1],
            "the scale it does not write is the default's")
        XCTAssertEqual(own.fps, 60)
        XCTAssertNil(own.tolerance, "a fixture's tolerance replaces the default whole: timing alone keeps pixels exact")
        XCTAssertEqual(own.timingFrames, 1)
        XCTAssertEqual(own.variants, [])

        // Without defaults nothing changes.
        let none = try decode(#"{"kind": "post"}"#, FixtureDefaults())
        XCTAssertEqual([none.canvas.width, none.canvas.scale], [393, 3])
        XCTAssertEqual(none.fps, 60)
        XCTAssertNil(none.tolerance)
        XCTAssertEqual(FixtureDecoder.variants(in: Array(#"{"kind": "post"}"#.utf8), defaults: d)?.map(\.name), ["AX3"])
    }
}
