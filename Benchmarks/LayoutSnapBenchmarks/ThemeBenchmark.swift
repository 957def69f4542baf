import Foundation
import LayoutSnapCore
import LayoutSnapJSON
import LayoutSnapRunner

/// Issue 32's target: theme resolution costs nothing measurable. The bundled suite verified
/// without the cache, as whole processes in interleaved rounds (the fastest of each counting):
/// once as it is, once in a project whose layoutsnap.json spells out every theme token at its
/// built-in value, so the pixels and goldens are the same and only the theme's decoding,
/// merging and reading differ.
public struct ThemeBenchmark {
    public let executable: String
    public let peakOf: String
    public let repeats: Int
    public let fixtures: String
    public let goldens: String

    public init(
        executable: String, peakOf: String, repeats: Int, fixtures: String = "Fixtures", goldens: String = "Goldens"
    ) {
        self.executable = executable
        self.peakOf = peakOf
        self.repeats = repeats
        self.fixtures = fixtures
        self.goldens = goldens
    }

    public struct Figures: Sendable {
        public var without = Double.infinity
        public var with = Double.infinity
        public var tokens = 0
        public var passed = ""
        public var failures: [String] = []
    }

    public func run(progress: (String) -> Void) throws(RunnerError) -> Figures {
        var f = Figures()
        let root = NSTemporaryDirectory() + "layoutsnap-bench-theme-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let plain = root + "/plain"
        let themed = root + "/themed"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let cwd = FileManager.default.currentDirectoryPath
        func absolute(_ p: String) -> String { p.hasPrefix("/") ? p : cwd + "/" + p }
        for project in [plain, themed] {
            try? FileManager.default.createDirectory(atPath: project, withIntermediateDirectories: true)
            // Copies, not links: a fixture's layoutsnap.json is looked up from its real folder.
            try? FileManager.default.copyItem(atPath: absolute(fixtures), toPath: project + "/Fixtures")
        }
        // Every token at its built-in value, minus those 8-bit hex cannot spell exactly.
        var patch = ThemePatch.whole(.default)
        for (path, value) in patch.values {
            var one = ThemePatch()
            one.values[path] = value
            let text = JSONWriter(style: .compact).string(one.json)
            let back = try? ProjectConfig.decode(bytes: Array("{\"theme\": \(text)}".utf8), file: "check")
            if back?.defaults.themes.theme() != .default { patch.values.removeValue(forKey: path) }
        }
        f.tokens = patch.values.count
        let config = "{\"theme\": " + JSONWriter(style: .pretty).string(patch.json) + "}\n"
        try? config.write(toFile: themed + "/layoutsnap.json", atomically: true, encoding: .utf8)

        for round in 0..<repeats {
            for (name, project) in [("without", plain), ("with", themed)] {
                progress("round \(round + 1) of \(repeats): \(name) a theme")
                let out = try ChildProcess.run(
                    executable,
                    [
                        "verify", project + "/Fixtures", "--goldens", absolute(goldens), "--no-cache", "--no-progress",
                        "--report", root + "/report-" + name,
                    ], peakOf: peakOf)
                if out.status != 0 { f.failures.append("\(name): exit \(out.status): \(out.stderrTail.suffix(300))") }
                f.passed = out.stdoutLastLine
                if name == "without" {
                    f.without = min(f.without, out.seconds)
                } else {
                    f.with = min(f.with, out.seconds)
                }
            }
        }
        return f
    }
}
