import Foundation
import XCTest

/// Errors say where the cause is: every mistake of a file with its line, a limit that only a
/// variant reaches with the variant and where it was declared, once per cause, and GitHub
/// annotations on the line of what changed (issue 31).
final class ErrorsAtTheCauseTests: XCTestCase {
    func testEveryMistakeOfAFileWithItsLineOncePerCause() throws {
        let dir = try TempDir()
        // Three default variants: each meets the file's mistakes, which are still said once.
        try dir.write(
            "layoutsnap.json", #"{"defaults": {"variants": [{"appearance": "dark"}, {"textSize": "AX5"}]}}"#)
        try dir.write(
            "Fixtures/m.json",
            """
            {
              "kind": "chat",
              "messages": [
                {"role": "user", "txt": "hello"},
                {"role": "assistent", "text": "hi"}
              ],
              "steps": [{"receve": {"text": "x"}}]
            }
            """)
        for command in [["verify", "--no-progress"], ["lint"]] {
            let r = try CLI.run(command, in: dir.url)
            XCTAssertEqual(r.status, 2, r.output)
            let errors = r.stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }
            XCTAssertEqual(
                errors,
                [
                    #"error: Fixtures/m.json:4:22: $.messages[0].txt: unknown field "txt"; did you mean "text"?"#,
                    #"error: Fixtures/m.json:5:14: $.messages[1].role: unknown value "assistent"; expected one of: user, assistant"#,
                    #"error: Fixtures/m.json:7:14: $.steps[0].receve: unknown field "receve"; did you mean "receive"?"#,
                ], r.output)
        }
    }

    func testALimitOnlyAVariantReachesNamesTheVariantAndWhereItWasDeclared() throws {
        let dir = try TempDir()
        try dir.write(
            "layoutsnap.json",
            #"{"defaults": {"variants": [{"appearance": "dark"}, {"textSize": "AX5"}, {"textSize": "AX5", "appearance": "dark"}]}}"#
        )
        try dir.write(
            "Fixtures/c.json",
            """
            {
              "kind": "composer",
              "height": 460,
              "text": "Hello there",
              "suggestions": ["hi"]
            }
            """)
        let r = try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url)
        XCTAssertEqual(r.status, 2, r.output)
        XCTAssertTrue(r.stdout.contains("recorded c@dark"), r.output)
        let errors = r.stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }
        XCTAssertEqual(errors.count, 1, r.output)
        XCTAssertTrue(
            errors.first?.hasPrefix(
                "error: Fixtures/c.json:3:13: $.height: in c@AX5 (from layoutsnap.json defaults.variants[1]), c@AX5+dark (from layoutsnap.json defaults.variants[2]): the canvas is 460 pt tall"
            ) == true, r.output)
        let github = try CLI.run(["verify", "--no-progress", "--reporter", "github"], in: dir.url)
        let annotations = github.stdout.split(separator: "\n").filter { $0.hasPrefix("::error") }
        XCTAssertEqual(annotations.count, 1, github.output)
        XCTAssertTrue(
            annotations.first?.hasPrefix("::error file=Fixtures/c.json,line=3,col=13,") == true, github.output)
    }

    func testTheAnnotationOfAChangedMessageIsOnItsLine() throws {
        let dir = try TempDir()
        let chat = """
            {
              "kind": "chat",
              "messages": [
                {"role": "user", "text": "Hello there"},
                {"role": "assistant", "text": "Hi! How can I help?"},
                {"role": "user", "text": "Tell me a joke"}
              ],
              "steps": [
                {"receive": {"text": "Why did the chicken cross the road?"}}
              ]
            }
            """
        try dir.write("Fixtures/chat.json", chat)
        XCTAssertEqual(try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url).status, 0)
        try dir.write("Fixtures/chat.json", chat.replacingOccurrences(of: "How can I help?", with: "What's up?"))
        let r = try CLI.run(["verify", "--no-progress", "--reporter", "github"], in: dir.url)
        XCTAssertEqual(r.status, 1, r.output)
        let annotations = r.stdout.split(separator: "\n").filter { $0.hasPrefix("::error") }
        // Line 5, the message; not line 9, the step, though state 01-receive fails too.
        XCTAssertTrue(annotations.first?.hasPrefix("::error file=Fixtures/chat.json,line=5,") == true, r.output)
    }
}
