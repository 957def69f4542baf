import ArgumentParser
import XCTest

@testable import layoutsnap

/// `layoutsnap verify` without argument-parser (`FastPath.verify`): the command it makes is the
/// one argument-parser makes, every property, and whatever it does not fully understand is
/// left to argument-parser, which says what is wrong.
final class VerifyFastPathTests: XCTestCase {
    func testTheFastPathMakesTheCommandTheParserMakes() throws {
        let lines: [[String]] = [
            [],
            ["Fixtures"],
            [
                "Fixtures/posts", "Fixtures/chats/a.json", "--goldens", "G", "--filter", "posts/*", "--variant", "rtl",
                "--jobs", "3", "--timeout", "2.5", "--shard", "1/2", "--device", "iphone-se", "--scale", "2",
                "--fps", "30", "--quiet", "--no-progress",
            ],
            [
                "--report", "r", "--junit", "j.xml", "--json", "r.json", "--cache", "c", "--remote-cache",
                "http://127.0.0.1:9/x", "--remote-cache-header", "A: b", "--remote-cache-header", "C: d",
                "--remote-cache-upload", "never", "--remote-cache-timeout", "0.5", "--cache-audit", "0",
                "--reporter", "github", "--summary", "s.md", "--check-orphans", "--lint", "error", "--verbose",
                "--strict-env",
            ],
            ["--no-cache", "--lint", "off", "--reporter", "terminal", "--remote-cache-upload", "always"],
        ]
        for words in lines {
            let fast = try XCTUnwrap(FastPath.verify(words), "\(words)")
            let parsed = try Verify.parse(words)
            XCTAssertEqual(Self.described(fast), Self.described(parsed), "\(words)")
        }
        // The comparison sees every property: one option apart is told apart.
        XCTAssertNotEqual(
            Self.described(try XCTUnwrap(FastPath.verify(["--verbose"]))), Self.described(try Verify.parse([])))
        XCTAssertNotEqual(
            Self.described(try XCTUnwrap(FastPath.verify(["--remote-cache-header", "A: b"]))),
            Self.described(try Verify.parse([])))
    }

    /// verify is the default command: a line whose first word names no command is verify's, as
    /// argument-parser reads it; another command's is not.
    func testTheDefaultCommandIsVerify() throws {
        XCTAssertEqual(FastPath.verifyWords(["verify", "Fixtures"]), ["Fixtures"])
        XCTAssertEqual(FastPath.verifyWords([]), [])
        for line in [["Fixtures/posts", "--quiet"], ["--goldens", "G", "--no-cache"]] {
            XCTAssertEqual(FastPath.verifyWords(line), line)
            let parsed = try XCTUnwrap(try LayoutSnap.parseAsRoot(line) as? Verify)
            XCTAssertEqual(Self.described(try XCTUnwrap(FastPath.verify(line))), Self.described(parsed))
        }
        for line in [["record"], ["help", "verify"], ["cache", "clear"], ["merge-reports", "a"], ["schema"]] {
            XCTAssertNil(FastPath.verifyWords(line), "\(line)")
        }
    }

    func testWhatItDoesNotFullyUnderstandIsArgumentParsers() {
        let left: [[String]] = [
            ["--jobs", "0"], ["--jobs", "x"], ["--jobs=2"], ["--help"], ["-h"], ["--goldens"],
            ["--goldens", "--quiet"],
            ["--quiet", "--quiet"], ["--goldens", "a", "--goldens", "b"], ["--cache", "c", "--no-cache"],
            ["--device", "nope"], ["--scale", "100"], ["--shard", "3/2"], ["--lint", "loud"], ["--bogus"],
            ["--", "x"], ["--cache-audit", "2"], ["--timeout", "-1"], ["--remote-cache-timeout", "0"],
            ["--reporter", "xml"], ["-q"],
        ]
        for words in left { XCTAssertNil(FastPath.verify(words), "\(words)") }
    }

    /// Every stored property, wrappers and all, as `dump` writes it; but an option group's
    /// title, help text that argument-parser blanks once it has parsed the group.
    static func described(_ verify: Verify) -> String {
        var text = ""
        dump(verify, to: &text)
        return text.split(separator: "\n").filter { !$0.hasPrefix("    - title: ") }.joined(separator: "\n")
    }
}
