import Foundation
import LayoutSnapTestSupport
import XCTest

/// Runs the built `layoutsnap` binary as a user would and captures what it prints.
enum CLI {
    typealias Result = TestProcess.Output

    /// The binary SwiftPM built next to the test bundle.
    static var binary: URL { TestPaths.builtProduct("layoutsnap") }

    /// The environment is the test's own, CI included: a test that records passes --allow-ci,
    /// exactly as a user would.
    /// `launcher`, when given, runs the binary: its first word is the program, the binary's path
    /// and `arguments` follow the rest (`["/usr/bin/setpriv", "--reuid=65534"]`, or a shell
    /// that sets a limit: `["/bin/bash", "-c", "ulimit -f 1; exec \"$0\" \"$@\""]`).
    /// A run still going after `timeout` (15 minutes) has hung: it is killed and the test fails on
    /// its status.
    static func run(
        _ arguments: [String], in directory: URL = TestPaths.packageRoot, environment: [String: String] = [:],
        removing: [String] = [], launcher: [String] = [], timeout: TimeInterval = 900
    ) throws -> Result {
        let program = launcher.first.map { URL(fileURLWithPath: $0) } ?? binary
        let words = launcher.isEmpty ? arguments : Array(launcher.dropFirst()) + [binary.path] + arguments
        return try TestProcess.run(
            program, words, in: directory, environment: environment, removing: removing, timeout: timeout)
    }
}

/// A temporary folder removed after the test.
final class TempDir {
    let url: URL

    init() throws {
        url = try makeTemporaryFolder("test")
    }

    deinit { removeTemporaryFolder(url) }

    func path(_ relative: String) -> URL { url.appendingPathComponent(relative) }

    @discardableResult
    func write(_ relative: String, _ text: String) throws -> URL {
        let target = path(relative)
        try FileManager.default.createDirectory(
            at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: target)
        return target
    }

    func copyBundled(_ relative: String, to destination: String? = nil) throws {
        let target = path(destination ?? relative)
        try FileManager.default.createDirectory(
            at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestPaths.packageRoot.appendingPathComponent(relative), to: target)
    }
}

/// Runs the binary with SIGXFSZ ignored and at most 1 KiB per file: every write of a PNG fails
/// with EFBIG, as a full disk fails with ENOSPC.
let fullDisk = ["/bin/bash", "-c", "trap '' XFSZ; ulimit -f 1; exec \"$0\" \"$@\""]

/// A small fast post fixture written from docs/fixtures/post.md alone.
func smallPost(title: String = "Small card", extra: String = "") -> String {
    """
    {
      "kind": "post", "width": 200, "height": 160, "scale": 1, "availableWidth": 160,
      "title": "\(title)", "summary": "A summary", "body": "Body text", "author": "Ann",
      "fps": 20, "steps": [{"expand": true}]\(extra)
    }
    """
}

/// `text` with verify's `(N from cache)` taken out of its summary line: for the tests whose
/// verdicts are the same whether a fixture's frames came from the result cache or were rendered.
func withoutCacheCount(_ text: String) -> String {
    text.replacingOccurrences(of: #" \(\d+ from cache\)"#, with: "", options: .regularExpression)
}
