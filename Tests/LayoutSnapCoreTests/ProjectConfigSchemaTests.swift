import Foundation
import XCTest
@testable import LayoutSnapCore

/// schema/config.schema.json lists exactly the fields `ProjectConfig` decodes, and a real
/// validator (python jsonschema, installed by .ci/install) accepts and refuses what the decoder does.
final class ProjectConfigSchemaTests: XCTestCase {
    func testTheSchemaListsTheDecodersFieldsAndAValidatorAgrees() throws {
        let schemaURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("schema/config.schema.json")
        let schema = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: schemaURL)) as? [String: Any])
        let properties = try XCTUnwrap(schema["properties"] as? [String: Any])
        XCTAssertEqual(Set(properties.keys), Set(ProjectConfig.fields), "schema/config.schema.json and ProjectConfig.fields disagree")
        XCTAssertEqual(schema["additionalProperties"] as? Bool, false)

        let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let onPath = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map { $0 + "/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let interpreter = onPath ?? python else { throw XCTSkip("python3 not found") }
        let cases: [(String, Bool)] = [
            (#"{"fixtures": ["a", "b"], "goldens": "g", "report": "r", "jobs": 2, "timeout": 30, "reporter": "github"}"#, true),
            (#"{"fixtures": "Fixtures"}"#, true),
            (#"{"jobs": 0}"#, false),
            (#"{"reporter": "teamcity"}"#, false),
            (#"{"goldns": "g"}"#, false),
            (#"{"timeout": "30"}"#, false),
            (#"{"fixtures": []}"#, false),
        ]
        for (json, valid) in cases {
            let decoded = (try? ProjectConfig.decode(bytes: Array(json.utf8), file: "layoutsnap.json")) != nil
            XCTAssertEqual(decoded, valid, "the decoder on \(json)")
            let script = "import json, sys, jsonschema\nschema = json.load(open(sys.argv[1]))\ntry:\n    jsonschema.validate(json.loads(sys.argv[2]), schema, cls=jsonschema.Draft202012Validator)\n    print('valid')\nexcept jsonschema.ValidationError:\n    print('invalid')\n"
            let p = Process()
            p.executableURL = URL(fileURLWithPath: interpreter)
            p.arguments = ["-c", script, schemaURL.path, json]
            let out = Pipe()
            p.standardOutput = out
            try p.run(); p.waitUntilExit()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            XCTAssertEqual(p.terminationStatus, 0, "python jsonschema is not installed (bash .ci/install installs it)")
            XCTAssertEqual(text.trimmingCharacters(in: .whitespacesAndNewlines), valid ? "valid" : "invalid", "the schema on \(json)")
        }
    }
}
