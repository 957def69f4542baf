import Foundation
@testable import LayoutSnapImaging
import XCTest

/// Runs the built `layoutsnap` binary as a user would and captures what it prints.
struct CLI {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var output: String { stdout + stderr }
    }

    /// The package root (for the bundled Fixtures/ and Goldens/).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The binary SwiftPM built next to the test bundle.
    static var binary: URL {
        let candidates = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
            + Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        for dir in candidates {
            let url = dir.appendingPathComponent("layoutsnap")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return packageRoot.appendingPathComponent(".build/debug/layoutsnap")
    }

    /// The environment is the test's own, CI included: a test that records passes --allow-ci,
    /// exactly as a user would.
    /// `launcher`, when given, runs the binary: its first word is the program, the binary's path
    /// and `arguments` follow the rest (`["/usr/bin/setpriv", "--reuid=65534"]`, or a shell
    /// that sets a limit: `["/bin/bash", "-c", "ulimit -f 1; exec \"$0\" \"$@\""]`).
    static func run(_ arguments: [String], in directory: URL = packageRoot, environment: [String: String] = [:],
                    removing: [String] = [], launcher: [String] = []) throws -> Result {
        let process = Process()
        if let program = launcher.first {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = Array(launcher.dropFirst()) + [binary.path] + arguments
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        for key in removing { env.removeValue(forKey: key) }
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes while the process runs so a full pipe cannot block it.
        final class Sink: @unchecked Sendable { var data = Data() }
        let outSink = Sink()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async { outSink.data = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        let outData = outSink.data
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// A temporary folder removed after the test.
final class TempDir {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("layoutsnap-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ relative: String) -> URL { url.appendingPathComponent(relative) }

    @discardableResult
    func write(_ relative: String, _ text: String) throws -> URL {
        let target = path(relative)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: target)
        return target
    }

    func copyBundled(_ relative: String, to destination: String? = nil) throws {
        let target = path(destination ?? relative)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent(relative), to: target)
    }
}

/// Runs the binary with SIGXFSZ ignored and at most 1 KiB per file: every write of a PNG fails
/// with EFBIG, as a full disk fails with ENOSPC.
let fullDisk = ["/bin/bash", "-c", "trap '' XFSZ; ulimit -f 1; exec \"$0\" \"$@\""]

/// A small fast post fixture written from the README alone.
func smallPost(title: String = "Small card", extra: String = "") -> String {
    """
    {
      "kind": "post", "width": 200, "height": 160, "scale": 1, "availableWidth": 160,
      "title": "\(title)", "summary": "A summary", "body": "Body text", "author": "Ann",
      "fps": 20, "steps": [{"expand": true}]\(extra)
    }
    """
}

/// The PNG chunk CRC, the project's own (zlib's), for tests that forge or repair chunks.
func pngCRC(_ bytes: [UInt8]) -> UInt32 {
    bytes.withUnsafeBytes { PNG.crc($0) }
}
