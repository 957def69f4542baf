import Foundation
import LayoutSnapCore
import LayoutSnapDiff
import LayoutSnapReport

/// `layoutsnap-bench page`: how soon the report page is interactive in headless Chromium with
/// thousands of failing frames, each with a cause and an attribution (docs/review.md, "The page").
/// The page marks `body[data-interactive-ms]` (ms since navigation start: the HTML, the embedded
/// results' JSON.parse, the model, the causes and the first fixtures drawn) and `data-parse-ms`;
/// the fastest of `repeats` loads counts. No images are written (each shows its placeholder), so
/// the figure is the page's own work. Not a test: nothing here asserts a time.
public struct PageBenchmark {
    public let failingFrames: Int
    public let repeats: Int
    public let chromium: String

    public init(failingFrames: Int, repeats: Int, chromium: String) {
        self.failingFrames = max(1, failingFrames)
        self.repeats = max(1, repeats)
        self.chromium = chromium
    }

    public struct Figures: Sendable {
        public var frames = 0
        public var causes = 0
        public var htmlBytes = 0
        public var interactiveMs = Double.infinity
        public var parseMs = Double.infinity
        public var processSeconds = Double.infinity
    }

    /// Chromium: LAYOUTSNAP_CHROMIUM, else the usual names on PATH.
    public static func findChromium() -> String? {
        let env = ProcessInfo.processInfo.environment
        let names =
            [env["LAYOUTSNAP_CHROMIUM"]].compactMap { $0 } + [
                "chromium", "chromium-browser", "google-chrome", "google-chrome-stable",
            ]
        let path = (env["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        for name in names {
            for candidate in name.hasPrefix("/") ? [name] : path.map({ "\($0)/\(name)" })
            where FileManager.default.isExecutableFile(atPath: candidate) {
                return candidate
            }
        }
        return nil
    }

    /// `failingFrames` failing frames: fixtures of 10 states of 5 frames, every bubble 4 pt wider
    /// (the bubbles below moved, pixels unchanged), every 7th frame a restyled composer instead,
    /// every 50th without a golden layout; each state with a moving and a constant motion track.
    public static func results(failingFrames: Int) -> RunResults {
        var fixtures: [FixtureEntry] = []
        var made = 0
        var f = 0
        while made < failingFrames {
            let id = "chats/group-\(f / 20)/chat-\(String(format: "%04d", f))"
            var states: [StateEntry] = []
            for s in 0..<10 where made < failingFrames {
                let state = String(format: "%02d-step", s)
                var frames: [FrameEntry] = []
                for i in 0..<5 where made < failingFrames {
                    let name = "\(id)/\(state)/\(String(format: "%03d", i)).png"
                    var frame = FrameEntry(
                        index: i, time: Double(i) / 15, progress: Double(i) / 4, status: .failed,
                        message: "\(9000 + made % 1000) pixels differ (3.\(made % 10)%)", golden: name,
                        expected: "expected/" + name, actual: "actual/" + name, diff: "diff/" + name,
                        metrics: DiffFigures(
                            differentPixels: 9000 + made % 1000, ratio: 0.036, maxChannelDifference: 255,
                            regions: [[12, 40, 270, 60], [117, 106, 264, 58]], width: 393, height: 640),
                        layoutChanges: ["message:m1.width +4.00", "message:m2.x -4.00", "message:m2.width +4.00"],
                        goldenHash: String(format: "%016llx", UInt64(made) &* 0x9E37_79B9_7F4A_7C15))
                    if made % 50 != 49 {
                        let elements: [ElementChange] =
                            made % 7 == 6
                            ? [ElementChange(id: "composer", change: .restyled, pixels: 900, rect: [0, 590, 393, 50])]
                            : (1...6).map { m in
                                m <= 2
                                    ? ElementChange(
                                        id: "message:m\(m)", change: .resized, dw: 4, pixels: 3000,
                                        rect: [12, Double(m) * 70, 274.86, 58.29])
                                    : ElementChange(
                                        id: "message:m\(m)", change: .moved, dy: 4, pixelsUnchanged: true, pixels: 200,
                                        rect: [12, Double(m) * 70 + 4, 200, 36.29])
                            }
                        frame.attribution = FrameAttribution(
                            kind: made % 7 == 6 ? .pixelsOnly : .layout, elements: elements)
                    }
                    frames.append(frame)
                    made += 1
                }
                let n = frames.count
                let motion = MotionReport(
                    frames: [n, n], duration: [Double(n - 1) / 15, Double(n - 1) / 15], shift: nil,
                    pairs: (0..<n).map { [$0, $0] },
                    kinds: ["end"],
                    changes: [MotionChange(element: "message:m1", property: "width", kind: "end", largest: 4)],
                    times: [(0..<n).map { Double($0) / 15 }, (0..<n).map { Double($0) / 15 }],
                    tracks: [
                        "message:m1.width": [Array(repeating: 270.86, count: n), Array(repeating: 274.86, count: n)],
                        "message:13.y": [(0..<n).map { 600 - Double($0) * 10 }, (0..<n).map { 600 - Double($0) * 11 }],
                    ])
                if !frames.isEmpty { states.append(StateEntry(name: state, frames: frames, motion: motion)) }
            }
            var fixture = FixtureEntry(id: id, file: "Fixtures/\(id).json", states: states)
            fixture.canvas = [393, 640]
            fixtures.append(fixture)
            f += 1
        }
        return RunResults(version: "bench", durationSeconds: 60, fixtures: fixtures)
    }

    public func run(keep: String? = nil) throws -> Figures {
        let dir = keep ?? NSTemporaryDirectory() + "/layoutsnap-page-bench-\(getpid())"
        defer { if keep == nil { try? FileManager.default.removeItem(atPath: dir) } }
        let results = Self.results(failingFrames: failingFrames)
        try HTMLReport.write(results, to: URL(fileURLWithPath: dir, isDirectory: true))
        var f = Figures()
        f.frames = results.summary.failed
        f.causes = results.causes.count
        f.htmlBytes = (try? FileManager.default.attributesOfItem(atPath: dir + "/index.html")[.size] as? Int) ?? 0
        for round in 0..<repeats {
            let profile = dir + "/.chromium-profile-\(round)"
            let out = dir + "/.dom-\(round).html"
            _ = FileManager.default.createFile(atPath: out, contents: nil)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: chromium)
            process.arguments = [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--user-data-dir=\(profile)", "--window-size=1280,900", "--dump-dom",
                URL(fileURLWithPath: dir + "/index.html").absoluteString,
            ]
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
            process.standardError = FileHandle.nullDevice
            let start = Date()
            try process.run()
            process.waitUntilExit()
            let seconds = Date().timeIntervalSince(start)
            let dom = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
            guard process.terminationStatus == 0, dom.contains("data-ready=\"true\"") else {
                throw PageBenchmarkError(
                    message: "chromium (\(chromium)) exited \(process.terminationStatus) without a ready page")
            }
            func attribute(_ name: String) -> Double? {
                guard let r = dom.range(of: "\(name)=\"") else { return nil }
                return Double(dom[r.upperBound...].prefix { $0 != "\"" })
            }
            f.interactiveMs = min(f.interactiveMs, attribute("data-interactive-ms") ?? .infinity)
            f.parseMs = min(f.parseMs, attribute("data-parse-ms") ?? .infinity)
            f.processSeconds = min(f.processSeconds, seconds)
        }
        return f
    }
}

public struct PageBenchmarkError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
