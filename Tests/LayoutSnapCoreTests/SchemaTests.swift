import Foundation
import LayoutSnapTestSupport
import XCTest
@testable import LayoutSnapCore
import LayoutSnapJSON

/// schema/fixture.schema.json and schema/config.schema.json: written from the field tables, the
/// tables equal to what the decoders read, and a validator from outside the repository (python
/// jsonschema, installed by .ci/install) agreeing with the decoders.
final class SchemaTests: XCTestCase {
    func testTheCommittedSchemasAreTheGeneratedOnes() throws {
        for (file, document, name) in [
            ("fixture.schema.json", FixtureSchema.document, "fixture"),
            ("config.schema.json", ProjectConfig.document, "config"),
        ] {
            let committed = try Data(contentsOf: TestPaths.packageRoot.appendingPathComponent("schema/" + file))
            XCTAssertTrue(
                [UInt8](committed) == document.bytes(),
                "schema/\(file) is not what the field tables give: run `swift run layoutsnap schema \(name) > schema/\(file)`"
            )
        }
    }

    // MARK: The decoders read exactly the schema's fields

    /// Fixtures that between them reach every object the decoders read: every optional object
    /// present (a spring curve, a font object, an image, both forms of variants, every event).
    static let everyField: [FixtureKind: [String]] = [
        .post: [
            #"{"$schema": "s", "kind": "post", "device": "iphone-se", "textSize": "AX3", "direction": "rtl", "width": 300, "height": 500, "scale": 2, "appearance": "dark", "fps": 30, "tolerance": {"threshold": 0.2, "maxDiffPixels": 3, "maxDiffRatio": 0.01, "includeAntialiasing": true, "timing": {"frames": 2}}, "variants": {"device": ["iphone-15"], "textSize": ["xSmall"], "appearance": ["light"], "direction": ["ltr"]}, "title": "T", "summary": "S", "body": "B", "author": "A", "aiGenerated": true, "expanded": false, "imageState": "loading", "availableWidth": 250, "image": {"aspectRatio": 1.5}, "curve": {"spring": {"response": 0.5, "dampingFraction": 0.8}}, "steps": [{"expand": true, "at": 0}, {"collapse": true}]}"#,
            #"{"kind": "post", "variants": [{"device": "iphone-se", "textSize": "AX1", "appearance": "dark", "direction": "rtl", "name": "small"}], "curve": "linear", "duration": 0.2}"#,
            #"{"kind": "post", "curve": {"cubic": [0.2, 0, 0, 1]}}"#,
            #"{"kind": "post", "curve": {"spring": {"mass": 1, "stiffness": 100, "damping": 10}}}"#,
        ],
        .transcript: [
            #"{"kind": "transcript", "text": "a", "font": {"size": 20, "weight": "bold", "italic": true}, "maxLines": 3, "padding": 4, "margin": 4, "sticky": false, "indicators": "always", "steps": [{"append": "b", "at": 0.1}, {"scrollBy": -4}, {"scrollToBottom": true}]}"#
        ],
        .composer: [
            #"{"kind": "composer", "text": "hello", "selection": [0, 2], "font": "title2", "lineSpacing": 4, "maxLines": 3, "margin": 8, "border": false, "enabled": true, "disabledPlaceholder": "off", "placeholder": "type", "pattern": "h.*", "keyboard": false, "suggestions": ["a"], "steps": [{"type": "x", "at": 0, "suggestions": ["b"]}, {"keyboard": "show"}]}"#
        ],
        .chat: [
            #"{"kind": "chat", "messages": [{"id": "m", "role": "user", "text": "hi", "image": {"aspectRatio": 1}}], "status": "thinking", "online": false, "input": "d", "keyboard": true, "steps": [{"receive": {"id": "r", "role": "assistant", "text": "x", "image": {"aspectRatio": 2}}, "at": 0.5}, {"send": "y"}]}"#
        ],
    ]

    /// Theme objects that between them reach every token and both forms of every curve and spring.
    static let everyTheme: [String] = [
        JSONWriter(style: .compact).string(ThemePatch.whole(.default).json),
        #"{"motion": {"expand": {"curve": {"cubic": [0.2, 0, 0, 1]}}, "keyboard": {"mass": 3, "stiffness": 1000, "damping": 100}, "scroll": {"mass": 1, "stiffness": 100, "damping": 20}}}"#,
        #"{"motion": {"expand": {"curve": {"spring": {"response": 0.5, "dampingFraction": 0.8}}}}}"#,
        #"{"motion": {"expand": {"curve": {"spring": {"mass": 1, "stiffness": 100, "damping": 10}}}}}"#,
    ]

    func testTheSchemaHasExactlyTheFieldsTheDecodersRead() throws {
        let bundled = try Self.bundledFixtures()
        for kind in FixtureKind.allCases {
            let recorder = FieldRecorder()
            try FieldRecorder.$current.withValue(recorder) {
                // The fields every kind has, with both forms of variants.
                let common = [
                    #"{"$schema": "s", "kind": "KIND", "lint": {"ignore": [{"rule": "contrast", "element": "x", "reason": "why"}]}, "device": "iphone-se", "textSize": "AX3", "direction": "rtl", "width": 300, "height": 500, "scale": 2, "appearance": "dark", "fps": 30, "tolerance": {"threshold": 0.2, "maxDiffPixels": 3, "maxDiffRatio": 0.01, "includeAntialiasing": true, "timing": {"frames": 2}}, "variants": {"device": ["iphone-15"], "textSize": ["xSmall"], "appearance": ["light"], "direction": ["ltr"]}}"#,
                    #"{"kind": "KIND", "variants": [{"device": "iphone-se", "textSize": "AX1", "appearance": "dark", "direction": "rtl", "name": "small"}]}"#,
                ].map { $0.replacingOccurrences(of: "KIND", with: kind.rawValue) }
                let themed =
                    Self.everyTheme.map { #"{"kind": "\#(kind.rawValue)", "theme": \#($0)}"# } + [
                        #"{"kind": "\#(kind.rawValue)", "theme": "default", "variants": {"theme": ["default"]}}"#,
                        #"{"kind": "\#(kind.rawValue)", "variants": [{"theme": "default"}]}"#,
                    ]
                for json in Self.everyField[kind]! + common + themed {
                    XCTAssertNoThrow(
                        try FixtureDecoder.decode(
                            bytes: Array(json.utf8), id: "every", file: "every.json", folder: .empty()), json)
                }
                for url in bundled where try Self.kind(of: url) == kind {
                    _ = try FixtureDecoder.decode(
                        bytes: [UInt8](Data(contentsOf: url)), id: "bundled", file: url.path,
                        folder: .bundled(url.deletingLastPathComponent()))
                }
                let generator = FixtureGenerator(kind: kind, seed: 11)
                for i in 0..<100 {
                    _ = try FixtureDecoder.decode(
                        bytes: generator.fixture(at: i), id: "g", file: "g.json", folder: .empty())
                }
            }
            let read = recorder.fieldsByPath
            let table = FixtureSchema.fieldsByPath(kind)
            for path in Set(read.keys).union(table.keys).sorted() {
                let decoder = read[path] ?? []
                let schema = table[path] ?? []
                XCTAssertEqual(
                    decoder.subtracting(schema).sorted(), [],
                    "\(kind) \(path): the decoder reads fields the schema's table lacks")
                XCTAssertEqual(
                    schema.subtracting(decoder).sorted(), [],
                    "\(kind) \(path): the schema's table has fields the decoder never reads")
            }
        }
    }

    func testTheConfigSchemaHasExactlyTheFieldsTheDecoderReads() throws {
        let recorder = FieldRecorder()
        let json =
            #"{"$schema": "s", "fixtures": ["F"], "goldens": "G", "report": "R", "jobs": 2, "timeout": 30, "reporter": "github", "lint": {"mode": "error"}, "cache": {"local": true, "folder": "C", "maxMegabytes": 64, "remote": "http://cache:8080", "upload": "never", "audit": 0.1}, "defaults": {"device": "iphone-se", "scale": 2, "fps": 30, "textSize": "AX1", "appearance": "dark", "direction": "rtl", "tolerance": {"maxDiffPixels": 4, "timing": {"frames": 1}}, "variants": [{"textSize": "AX3", "name": "big"}], "lint": {"ignore": [{"rule": "contrast", "element": "input", "reason": "brand"}]}}}"#
        let matrix =
            #"{"defaults": {"variants": {"device": ["iphone-se"], "textSize": ["AX3"], "appearance": ["dark"], "direction": ["rtl"]}}}"#
        try FieldRecorder.$current.withValue(recorder) {
            let themes = Self.everyTheme.map {
                #"{"theme": \#($0), "themes": {"brand": \#($0)}, "defaults": {"variants": [{"theme": "brand"}]}}"#
            }
            for config in [json, matrix] + themes {
                _ = try ProjectConfig.decode(bytes: Array(config.utf8), file: "layoutsnap.json")
            }
        }
        let read = recorder.fieldsByPath
        let table = ProjectConfig.document.fieldsByPath(from: ProjectConfig.document.root)
        // The defaults' tolerance and variants are the fixture's own objects, read by the same decoders.
        // `themes` holds the user's names, each a theme object as `theme` is (checked there).
        for path in Set(read.keys).union(table.keys).sorted() where !path.hasPrefix("$.themes") {
            XCTAssertEqual(read[path] ?? [], table[path] ?? [], "layoutsnap.json \(path)")
        }
        XCTAssertNotNil(read["$.defaults.tolerance.timing"])
        XCTAssertEqual(read["$.themes.brand"], read["$.theme"])
    }

    // MARK: A real validator agrees

    func testAValidatorAcceptsEveryBundledFixtureAndAThousandGeneratedOnes() throws {
        let folder = try makeTemporaryFolder("schema")
        defer { removeTemporaryFolder(folder) }
        var files = try Self.bundledFixtures().map(\.path)
        XCTAssertGreaterThan(files.count, 40)
        for (kind, count) in FixtureGenerator.spread(count: 1000, over: FixtureKind.allCases) {
            let generator = FixtureGenerator(kind: kind, seed: 2026)
            for i in 0..<count {
                let url = folder.appendingPathComponent("\(kind.rawValue)-\(i).json")
                try Data(generator.fixture(at: i)).write(to: url)
                files.append(url.path)
            }
        }
        let verdicts = try Self.validate(files: files, schema: "fixture.schema.json")
        XCTAssertEqual(verdicts.count, files.count)
        for (file, verdict) in zip(files, verdicts) { XCTAssertEqual(verdict, "valid", file) }
    }

    /// Each document's verdict from the decoder and from the schema, and what both should say.
    static let cases: [(json: String, valid: Bool)] = [
        (#"{"kind": "post"}"#, true),
        (#"{"kind": "post", "textSize": "ax3", "variants": []}"#, true),
        (#"{"kind": "post", "textSize": "Accessibility2", "variants": [{"textSize": "large"}]}"#, true),
        (#"{"kind": "chat", "steps": [{"receive": {"text": "no role needed here"}}]}"#, true),
        (#"{"kind": "composer", "steps": [{"select": [1, 1]}]}"#, true),
        (#"{"kind": "post", "curve": {"spring": {"response": 0.4, "dampingFraction": 1}}}"#, true),
        (#"{"kind": "post", "curve": {"spring": {"mass": 3, "stiffness": 1000, "damping": 109.5}}}"#, true),
        (#"{"kind": "post", "curve": {"cubic": [0.2, -0.5, 0.1, 1.4]}, "duration": 0.5}"#, true),
        (#"{"kind": "transcript", "font": "largeTitle"}"#, true),
        (#"{"kind": "post", "tolerance": {}}"#, true),
        // Unknown fields, at every depth.
        (#"{"kind": "post", "titel": "x"}"#, false),
        (#"{"kind": "post", "steps": [{"expand": true, "att": 1}]}"#, false),
        (#"{"kind": "chat", "messages": [{"role": "user", "txt": "x"}]}"#, false),
        (#"{"kind": "post", "tolerance": {"timing": {"frame": 2}}}"#, false),
        (#"{"kind": "post", "variants": {"devices": ["iphone-se"]}}"#, false),
        (#"{"kind": "transcript", "title": "a post's field"}"#, false),
        // Wrong types.
        (#"{"kind": "post", "fps": "60"}"#, false),
        (#"{"kind": "transcript", "maxLines": 2.5}"#, false),
        (#"{"kind": "post", "steps": [{"expand": "yes"}]}"#, false),
        (#"{"kind": "chat", "online": 1}"#, false),
        (#"{"kind": "composer", "suggestions": "a"}"#, false),
        // Out of range, unknown names.
        (#"{"kind": "post", "fps": 0}"#, false),
        (#"{"kind": "post", "scale": 9}"#, false),
        (#"{"kind": "post", "width": 9000}"#, false),
        (#"{"kind": "transcript", "maxLines": 0}"#, false),
        (#"{"kind": "post", "tolerance": {"threshold": 1.5}}"#, false),
        (#"{"kind": "post", "tolerance": {"timing": {"frames": 601}}}"#, false),
        (#"{"kind": "post", "textSize": "huge"}"#, false),
        (#"{"kind": "post", "device": "pixel-8"}"#, false),
        (#"{"kind": "card"}"#, false),
        (#"{"title": "no kind"}"#, false),
        (#"{"kind": "post", "variants": [{"name": "a/b", "textSize": "AX1"}]}"#, false),
        (#"{"kind": "post", "variants": [{"name": "only-a-name"}]}"#, false),
        (#"{"kind": "post", "steps": [{"expand": true, "collapse": true}]}"#, false),
        (#"{"kind": "chat", "steps": [{"at": 1}]}"#, false),
        (#"{"kind": "chat", "messages": [{"text": "a role is required here"}]}"#, false),
        (#"{"kind": "composer", "suggestions": [""]}"#, false),
        (#"{"kind": "post", "image": {"path": "a.png", "aspectRatio": 1}}"#, false),
        (#"{"kind": "post", "curve": "bouncy"}"#, false),
        (#"{"kind": "post", "curve": "cubic(0.2,0,0,1)"}"#, false),
        (#"{"kind": "post", "curve": {"cubic": [0.2, 0, 0]}}"#, false),
        (#"{"kind": "post", "curve": {"cubic": [1.2, 0, 0, 1]}}"#, false),
        (#"{"kind": "post", "curve": {"cubic": [0.2, 6, 0, 1]}}"#, false),
        (#"{"kind": "post", "curve": {"cubik": [0.2, 0, 0, 1]}}"#, false),
        (
            #"{"kind": "post", "curve": {"cubic": [0.2, 0, 0, 1], "spring": {"response": 1, "dampingFraction": 1}}}"#,
            false
        ),
        (#"{"kind": "post", "curve": {"spring": {"mass": 1, "stiffness": 100}}}"#, false),
        (#"{"kind": "post", "curve": {"spring": {"mass": 1, "stiffness": 100, "damping": 10, "response": 1}}}"#, false),
        (#"{"kind": "post", "curve": {"spring": {"mass": 0, "stiffness": 100, "damping": 10}}}"#, false),
        (
            #"{"kind": "post", "lint": {"ignore": [{"rule": "contrast", "element": "author", "reason": "the seed's colour"}]}}"#,
            true
        ),
        (#"{"kind": "post", "lint": {"ignore": [{"rule": "contrast", "element": "author"}]}}"#, false),
        (#"{"kind": "post", "lint": {"ignore": [{"rule": "contrast", "reason": " "}]}}"#, false),
        (#"{"kind": "post", "lint": {"ignore": [{"rule": "overlap", "reason": "typo in the rule"}]}}"#, false),
    ]

    func testAValidatorAndTheDecoderAgreeOnTyposWrongTypesAndRanges() throws {
        let verdicts = try Self.validate(documents: Self.cases.map(\.json), schema: "fixture.schema.json")
        for ((json, valid), verdict) in zip(Self.cases, verdicts) {
            let decoded = Result {
                try FixtureDecoder.decode(bytes: Array(json.utf8), id: "case", file: "case.json", folder: .empty())
            }
            XCTAssertEqual((try? decoded.get()) != nil, valid, "the decoder on \(json)")
            XCTAssertEqual(verdict == "valid", valid, "the schema on \(json): \(verdict)")
        }
    }

    func testAValidatorAndTheDecoderAgreeOnProjectConfigs() throws {
        let cases: [(String, Bool)] = [
            (
                #"{"fixtures": ["a", "b"], "goldens": "g", "report": "r", "jobs": 2, "timeout": 30, "reporter": "github"}"#,
                true
            ),
            (
                #"{"fixtures": "Fixtures", "defaults": {"device": "iphone-se", "fps": 30, "tolerance": {"maxDiffPixels": 2}, "variants": {"textSize": ["AX3"]}}}"#,
                true
            ),
            (#"{"jobs": 0}"#, false),
            (#"{"reporter": "teamcity"}"#, false),
            (#"{"goldns": "g"}"#, false),
            (#"{"timeout": "30"}"#, false),
            (#"{"timeout": 0}"#, false),
            (#"{"fixtures": []}"#, false),
            (#"{"defaults": {"title": "not a default"}}"#, false),
            (#"{"defaults": {"fps": 1000}}"#, false),
            (#"{"defaults": {"device": "pixel-8"}}"#, false),
            (#"{"fonts": {"Brand Sans": "Fonts/Brand.ttf", "Brand Serif": ["a.ttf", "b.otf"]}}"#, true),
            (#"{"fonts": {"Brand CJK": {"file": "c.ttc", "face": "Brand CJK SC"}}}"#, true),
            (#"{"fonts": {"Brand": [{"file": "c.ttc"}, "b.otf"]}}"#, true),
            (#"{"fonts": {"Brand": {"fil": "c.ttc"}}}"#, false),
            (#"{"fonts": {"Brand": {"file": "c.ttc", "face": ""}}}"#, false),
            (#"{"fonts": {"Brand": []}}"#, false),
            (#"{"fonts": {"Brand": ""}}"#, false),
            (#"{"fonts": {"Brand": 3}}"#, false),
            (#"{"fonts": {"Brand, Sans": "a.ttf"}}"#, false),
            (#"{"fonts": {" ": "a.ttf"}}"#, false),
            (#"{"fonts": {"inter": "a.ttf"}}"#, false),
            (#"{"fonts": {"In ter": "a.ttf"}}"#, false),
            (#"{"fonts": {" NotoColor emoji": "a.ttf"}}"#, false),
            (#"{"fonts": {"Interstate": "a.ttf"}}"#, true),
            (#"{"fonts": "a.ttf"}"#, false),
        ]
        let verdicts = try Self.validate(documents: cases.map(\.0), schema: "config.schema.json")
        for ((json, valid), verdict) in zip(cases, verdicts) {
            XCTAssertEqual(
                (try? ProjectConfig.decode(bytes: Array(json.utf8), file: "layoutsnap.json")) != nil, valid,
                "the decoder on \(json)")
            XCTAssertEqual(verdict == "valid", valid, "the schema on \(json): \(verdict)")
        }
    }

    // MARK: Helpers

    static func bundledFixtures() throws -> [URL] {
        let root = TestPaths.packageRoot.appendingPathComponent("Fixtures")
        let names = try XCTUnwrap(FileManager.default.subpathsOfDirectory(atPath: root.path))
        return names.filter { $0.hasSuffix(".json") && !$0.contains("/images/") }.sorted().map {
            root.appendingPathComponent($0)
        }
    }

    static func kind(of url: URL) throws -> FixtureKind? {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        return (object?["kind"] as? String).flatMap(FixtureKind.init(rawValue:))
    }

    /// One verdict per document ("valid" or the validator's message), from python jsonschema's
    /// Draft 2020-12 validator, after checking the schema itself against the meta-schema.
    static func validate(documents: [String], schema: String) throws -> [String] {
        try runValidator(schema: schema, mode: "documents", items: documents)
    }

    static func validate(files: [String], schema: String) throws -> [String] {
        try runValidator(schema: schema, mode: "files", items: files)
    }

    /// `items` (documents or file paths, per `mode`) go to the validator as a JSON list on its
    /// standard input.
    static func runValidator(schema: String, mode: String, items: [String]) throws -> [String] {
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            validator = jsonschema.Draft202012Validator(schema)
            items = json.load(sys.stdin)
            for item in items:
                document = json.load(open(item)) if sys.argv[2] == "files" else json.loads(item)
                error = jsonschema.exceptions.best_match(validator.iter_errors(document))
                print("valid" if error is None else "invalid: " + error.message.replace("\\n", " ")[:300])
            """
        guard let python = TestTools.python3() else { throw XCTSkip("python3 not found") }
        let result = try TestProcess.run(
            python, ["-c", script, TestPaths.packageRoot.appendingPathComponent("schema/" + schema).path, mode],
            stdin: try JSONSerialization.data(withJSONObject: items), timeout: 600)
        XCTAssertEqual(result.status, 0, "python jsonschema failed (bash .ci/install installs it): \(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }
}
