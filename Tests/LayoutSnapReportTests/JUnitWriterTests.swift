import Foundation
import LayoutSnapCore
import LayoutSnapTestSupport
import XCTest
@testable import LayoutSnapReport

final class JUnitWriterTests: XCTestCase {
    static let nasty = "golden <b>was</b> & \"quoted\" 'single'\u{01}\u{1B}\u{7F} end\nsecond line"

    func nastyResults() -> RunResults {
        var results = Samples.small()
        results.fixtures[2].states[1].frames[7].message = Self.nasty
        results.fixtures[5].diagnostic = Diagnostic(
            .error, .fixture, file: "Fixtures/broken/bad-json.json", line: 3, column: 14,
            path: "$.states[0]", message: "expected \"<steps>\" & more\u{0}")
        return results
    }

    func testCounts() {
        let xml = JUnitWriter.xml(Samples.small())
        // A testcase per state (1 + 1 + 2 + 1 + 1 = 6) plus one "fixture" testcase.
        XCTAssertTrue(
            xml.contains(
                "<testsuites name=\"layoutsnap verify\" tests=\"7\" failures=\"2\" errors=\"2\" time=\"3.520\">"), xml)
        XCTAssertTrue(
            xml.contains("<testsuite name=\"posts/long-body\" tests=\"2\" failures=\"1\" errors=\"0\" skipped=\"0\""))
        XCTAssertTrue(xml.contains("<testsuite name=\"profile/avatar\" tests=\"1\" failures=\"1\" errors=\"0\""))
        XCTAssertTrue(xml.contains("<testsuite name=\"media/gallery\" tests=\"1\" failures=\"0\" errors=\"1\""))
        XCTAssertTrue(xml.contains("<testsuite name=\"broken/bad-json\" tests=\"1\" failures=\"0\" errors=\"1\""))
        XCTAssertTrue(xml.contains("<testcase classname=\"posts/long-body\" name=\"01-expand\" time=\"0.000\">"))
        XCTAssertTrue(
            xml.contains(
                "<failure message=\"cause 2: pixels differ; no golden layout.json says where; 1 of 12 frames differs (most: frame 7, 2210 pixels differ (0.41%)); 1 similar (frame 9, 12 pixels differ (0.02%))\" type=\"failed\">"
            ), xml)
        XCTAssertTrue(xml.contains("<testcase classname=\"broken/bad-json\" name=\"fixture\" time=\"0.000\""))
        XCTAssertTrue(
            xml.contains(
                "<error message=\"Fixtures/broken/bad-json.json:3:14: $.states[0].steps: expected an array\" type=\"fixture\">"
            ))
        XCTAssertTrue(
            xml.contains(
                "<error message=\"1 unreadable (frame 0, unreadable golden: truncated PNG (IDAT ends early))\" type=\"unreadable\">"
            ), xml)
        XCTAssertTrue(xml.contains("<system-out>similar: 3 pixels differ (0.00%)"))
        XCTAssertFalse(xml.contains("<skipped"))
        XCTAssertEqual(count("<testcase ", in: xml), 7)
        // No report folder given: no attachments.
        XCTAssertFalse(xml.contains("[[ATTACHMENT|"))
    }

    /// Real times: a state's from its frames, a suite's the fixture's.
    func testTimesAndAttachments() {
        var results = Samples.small()
        results.fixtures[2].durationSeconds = 1.25
        results.fixtures[2].states[1].durationSeconds = 0.75
        let xml = JUnitWriter.xml(results, attachments: "../report")
        XCTAssertTrue(
            xml.contains(
                "<testsuite name=\"posts/long-body\" tests=\"2\" failures=\"1\" errors=\"0\" skipped=\"0\" time=\"1.250\""
            ), xml)
        XCTAssertTrue(xml.contains("<testcase classname=\"posts/long-body\" name=\"01-expand\" time=\"0.750\">"), xml)
        XCTAssertTrue(
            xml.contains(
                "<system-out>[[ATTACHMENT|../report/posts/long-body/01-expand/007-actual.png]]\n[[ATTACHMENT|../report/posts/long-body/01-expand/007-diff.png]]"
            ), xml)
    }

    func testEscaping() {
        let xml = JUnitWriter.xml(nastyResults())
        XCTAssertTrue(
            xml.contains(
                "message=\"cause 2: pixels differ; no golden layout.json says where; 1 of 12 frames differs (most: frame 7, golden &lt;b&gt;was&lt;/b&gt; &amp; &quot;quoted&quot; &apos;single&apos; end&#10;second line); 1 similar"
            ), xml)
        XCTAssertTrue(xml.contains("failed: golden &lt;b&gt;was&lt;/b&gt; &amp; \"quoted\" 'single' end\nsecond line"))
        for scalar in xml.unicodeScalars {
            let v = scalar.value
            XCTAssertFalse(
                v < 0x20 && v != 0x09 && v != 0x0A && v != 0x0D, "control character U+\(String(v, radix: 16)) in XML")
            XCTAssertFalse(v == 0x7F)
        }
        XCTAssertTrue(
            JUnitWriter.xml(RunResults(version: "1", durationSeconds: .nan, fixtures: []))
                .hasSuffix(
                    "<testsuites name=\"layoutsnap verify\" tests=\"0\" failures=\"0\" errors=\"0\" time=\"0.000\"/>\n")
        )
    }

    func testXmllintAcceptsIt() throws {
        guard let xmllint = TestTools.find(["xmllint"]) else {
            throw XCTSkip("xmllint not found (apt-get install libxml2-utils)")
        }
        let dir = try makeTemporaryFolder("report-junit")
        defer { removeTemporaryFolder(dir) }
        let file = dir.appendingPathComponent("junit.xml")
        try JUnitWriter.xml(nastyResults()).write(to: file, atomically: true, encoding: .utf8)
        let result = try TestProcess.run(xmllint, ["--noout", file.path], timeout: 30)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        // And the parsed attribute carries the message with the control characters removed.
        let xpath = try TestProcess.run(
            xmllint, ["--xpath", "string(//testcase[@name='01-expand']/failure/@message)", file.path], timeout: 30)
        XCTAssertEqual(
            xpath.stdout.hasSuffix("\n") ? String(xpath.stdout.dropLast()) : xpath.stdout,
            "cause 2: pixels differ; no golden layout.json says where; 1 of 12 frames differs (most: frame 7, "
                + Self.nasty.replacingOccurrences(of: "\u{01}\u{1B}\u{7F}", with: "")
                + "); 1 similar (frame 9, 12 pixels differ (0.02%))")
    }

    /// Valid against the JUnit XSD of Jenkins's xUnit plugin, shipped in Tests/Schemas.
    func testJenkinsSchemaAcceptsIt() throws {
        guard let xmllint = TestTools.find(["xmllint"]) else {
            throw XCTSkip("xmllint not found (apt-get install libxml2-utils)")
        }
        let schema = TestPaths.packageRoot.appendingPathComponent("Tests/Schemas/junit-10.xsd")
        let dir = try makeTemporaryFolder("report-junit-xsd")
        defer { removeTemporaryFolder(dir) }
        var results = nastyResults()
        results.findings = [
            Finding(kind: .orphan, severity: .failure, message: "Goldens/x/: no fixture", subject: "x/")
        ]
        for (name, xml) in [
            ("nasty", JUnitWriter.xml(results, attachments: "report")),
            ("empty", JUnitWriter.xml(RunResults(version: "1", durationSeconds: 1, fixtures: []))),
        ] {
            let file = dir.appendingPathComponent(name + ".xml")
            try xml.write(to: file, atomically: true, encoding: .utf8)
            let result = try TestProcess.run(xmllint, ["--noout", "--schema", schema.path, file.path], timeout: 30)
            XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("validates"), result.stderr)
        }
    }

    func testPythonParsesCountsAndMessages() throws {
        guard let python = TestTools.python3() else { throw XCTSkip("python3 not found") }
        let dir = try makeTemporaryFolder("report-junit-py")
        defer { removeTemporaryFolder(dir) }
        let file = dir.appendingPathComponent("junit.xml")
        try JUnitWriter.xml(nastyResults()).write(to: file, atomically: true, encoding: .utf8)
        let script = """
            import json, sys, xml.etree.ElementTree as ET
            root = ET.parse(sys.argv[1]).getroot()
            suites = root.findall('testsuite')
            out = {
              'root': root.tag,
              'tests': int(root.get('tests')), 'failures': int(root.get('failures')), 'errors': int(root.get('errors')),
              'cases': len(root.findall('.//testcase')),
              'failureElements': len(root.findall('.//failure')), 'errorElements': len(root.findall('.//error')),
              'suiteSums': [sum(int(s.get(k)) for s in suites) for k in ('tests', 'failures', 'errors')],
              'suiteCasesMatch': all(int(s.get('tests')) == len(s.findall('testcase')) for s in suites),
              'message': root.find(".//testcase[@name='01-expand']/failure").get('message'),
              'fixtureError': root.find(".//testcase[@name='fixture']/error").get('message'),
            }
            print(json.dumps(out))
            """
        let result = try TestProcess.run(python, ["-c", script, file.path], timeout: 30)
        XCTAssertEqual(result.status, 0, result.stderr)
        let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        XCTAssertEqual(parsed["root"] as? String, "testsuites")
        XCTAssertEqual(parsed["tests"] as? Int, 7)
        XCTAssertEqual(parsed["failures"] as? Int, 2)
        XCTAssertEqual(parsed["errors"] as? Int, 2)
        XCTAssertEqual(parsed["cases"] as? Int, 7)
        XCTAssertEqual(parsed["failureElements"] as? Int, 2)
        XCTAssertEqual(parsed["errorElements"] as? Int, 2)
        XCTAssertEqual(parsed["suiteSums"] as? [Int], [7, 2, 2])
        XCTAssertEqual(parsed["suiteCasesMatch"] as? Bool, true)
        XCTAssertEqual(
            parsed["message"] as? String,
            "cause 2: pixels differ; no golden layout.json says where; 1 of 12 frames differs (most: frame 7, golden <b>was</b> & \"quoted\" 'single' end\nsecond line); 1 similar (frame 9, 12 pixels differ (0.02%))"
        )
        XCTAssertEqual(
            parsed["fixtureError"] as? String,
            "Fixtures/broken/bad-json.json:3:14: $.states[0]: expected \"<steps>\" & more")
    }
}
