import Foundation
import XCTest

/// Shell completion as a user installs it (`layoutsnap --generate-completion-script bash`): the
/// scripts know devices, kinds and appearances, and call the binary back for the project's
/// variants and a fixture's states.
final class CompletionTests: XCTestCase {
    func testScriptsForEveryShell() throws {
        for shell in ["bash", "zsh", "fish"] {
            let r = try CLI.run(["--generate-completion-script", shell])
            XCTAssertEqual(r.status, 0, "\(shell): \(r.output)")
            XCTAssertTrue(r.stdout.contains("iphone-se"), "\(shell): devices")
            XCTAssertTrue(r.stdout.contains("transcript"), "\(shell): kinds")
            XCTAssertTrue(
                r.stdout.contains("---completion"), "\(shell): the project's variants and states are asked for")
        }
        let bash = try CLI.run(["--generate-completion-script", "bash"]).stdout
        XCTAssertTrue(bash.contains("---completion verify -- --variant"), bash)
        XCTAssertTrue(bash.contains("---completion layout -- --state"), bash)
    }

    /// What the scripts ask the binary: the variants under Fixtures/ (not in the goldens folder
    /// named on the line), and the states of the fixture on the line.
    func testTheProjectsVariantsAndStates() throws {
        let dir = try TempDir()
        try dir.write(
            "Fixtures/t/v.json", #"{"kind": "transcript", "text": "One", "variants": {"textSize": ["AX1", "AX5"]}}"#)
        try dir.write("Fixtures/c/p.json", smallPost())
        try dir.write("Goldens/x/layout.json", #"{"variants": {"textSize": ["xSmall"]}}"#)
        let variants = try CLI.run(
            [
                "---completion", "verify", "--", "--variant", "4", "0", "layoutsnap", "--goldens", "Goldens",
                "--variant", "A",
            ], in: dir.url)
        XCTAssertEqual(variants.status, 0, variants.output)
        XCTAssertEqual(variants.stdout.split(separator: "\n"), ["AX1", "AX5"])
        let states = try CLI.run(
            [
                "---completion", "layout", "--", "--state", "4", "0", "layoutsnap", "layout", "Fixtures/c/p.json",
                "--state", "",
            ], in: dir.url)
        XCTAssertEqual(states.status, 0, states.output)
        XCTAssertEqual(states.stdout.split(separator: "\n"), ["initial", "01-expand"])
    }
}
