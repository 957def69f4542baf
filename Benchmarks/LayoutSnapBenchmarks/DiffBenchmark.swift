import Foundation
import LayoutSnapRunner
import LayoutSnapCore
import LayoutSnapDiff
import LayoutSnapImaging

/// The diff engine's figures for `layoutsnap-bench`: an identical 8-megapixel pair, the same
/// pair with a few thousand differing pixels (glyph edges moved by a pixel, recoloured glyphs,
/// stray dots) with anti-aliasing detection on, and `layoutsnap diff` on a 1-megapixel PNG pair
/// as a whole process.
public struct DiffBenchmark {
    public struct Figures: Sendable {
        public var identicalMs = 0.0
        public var differentMs = 0.0
        public var megapixels = 0.0
        public var differentPixels = 0
        public var antialiasedPixels = 0
        public var processMs = 0.0
        /// `layoutsnap diff` as a whole process against blazediff's in-process `compare()` (when
        /// the Python package is importable), on the same PNG files, side by side in one run.
        public var sideBySide: [PeerFigure] = []
        /// Why blazediff was not measured, when it was not.
        public var peerMissing: String?
    }

    /// One pair of files: layoutsnap's whole process and blazediff's call, best of the repeats.
    public struct PeerFigure: Sendable {
        public var name: String
        public var megapixels: Double
        public var differentPixels: Int
        public var layoutsnapMs: Double
        /// The `--baseline` binary's time in the same rounds, when one was named.
        public var baselineMs: Double?
        public var blazediffMs: Double?
        /// The target for layoutsnap / blazediff.
        public var target: Double
    }

    public let repeats: Int
    /// The layoutsnap binary to time as a whole process.
    public let executable: String

    public init(repeats: Int, executable: String) {
        self.repeats = max(repeats, 3)
        self.executable = executable
    }

    public func run() throws(RunnerError) -> Figures {
        var f = Figures()
        let (w, h) = (3840, 2160)
        f.megapixels = Double(w * h) / 1e6
        let (a, b) = Self.pair(width: w, height: h)
        let same = a.map { $0 }  // a separate buffer: the same memory twice would be too easy
        f.identicalMs = best { _ = Self.compare(a, same, w, h) }
        var last: DiffResult?
        f.differentMs = best { last = Self.compare(a, b, w, h) }
        f.differentPixels = last?.differentPixels ?? 0
        f.antialiasedPixels = last?.antialiasedPixels ?? 0

        let dir = NSTemporaryDirectory() + "/layoutsnap-diff-bench-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (small1, small2) = Self.pair(width: 1024, height: 1024)
        try AtomicFile.write(PixelImage(width: 1024, height: 1024, pixels: small1).encodePNG(), to: dir + "/a.png")
        try AtomicFile.write(PixelImage(width: 1024, height: 1024, pixels: small2).encodePNG(), to: dir + "/b.png")
        f.processMs = best { runDiff(executable, dir + "/a.png", dir + "/b.png") }

        let side = try sideBySide(in: dir)
        f.sideBySide = side.figures
        f.peerMissing = side.peerMissing
        return f
    }

    /// One pair of PNG files of the side-by-side table.
    public struct PairFiles: Sendable {
        public var name: String, a: String, b: String, megapixels: Double, target: Double
    }

    /// Writes the side-by-side pairs into `dir`: 1 MP and 8 MP, byte-identical and about 0.1%
    /// changed (kept there, for profiling one of them by hand).
    public static func writePairs(to dir: String) throws(RunnerError) -> [PairFiles] {
        var pairs: [PairFiles] = []
        for (w, h, label, targetRatio) in [(1024, 1024, "1 MP", 2.0), (3840, 2160, "8 MP", 1.0)] {
            let (x, y) = Self.pair(width: w, height: h, glyphs: w * h / 1700)
            let a = dir + "/\(w)-a.png"
            let copy = dir + "/\(w)-a-copy.png"
            let b = dir + "/\(w)-b.png"
            let encoded = PixelImage(width: w, height: h, pixels: x).encodePNG()
            try AtomicFile.write(encoded, to: a)
            try AtomicFile.write(encoded, to: copy)
            try AtomicFile.write(PixelImage(width: w, height: h, pixels: y).encodePNG(), to: b)
            let mp = Double(w * h) / 1e6
            pairs.append(PairFiles(name: "\(label) identical", a: a, b: copy, megapixels: mp, target: targetRatio))
            pairs.append(PairFiles(name: "\(label) changed", a: a, b: b, megapixels: mp, target: targetRatio))
        }
        return pairs
    }

    /// `layoutsnap diff` as a whole process beside blazediff's `compare()` on the same files,
    /// written into `dir`; with `baseline`, another layoutsnap binary timed in the same rounds.
    public func sideBySide(in dir: String, baseline: String? = nil) throws(RunnerError) -> (
        figures: [PeerFigure], peerMissing: String?
    ) {
        let pairs = try Self.writePairs(to: dir)
        let peer = Self.blazediff(pairs.map { ($0.a, $0.b) }, repeats: repeats)
        var figures: [PeerFigure] = []
        for (i, pair) in pairs.enumerated() {
            // Interleaved rounds, so a busy moment of the machine falls on both binaries alike.
            var mine = Double.infinity
            var theirs = Double.infinity
            for _ in 0..<repeats {
                mine = min(mine, best(1) { runDiff(executable, pair.a, pair.b) })
                if let baseline { theirs = min(theirs, best(1) { runDiff(baseline, pair.a, pair.b) }) }
            }
            let counts = diffCount(pair.a, pair.b)
            figures.append(
                PeerFigure(
                    name: pair.name, megapixels: pair.megapixels, differentPixels: counts, layoutsnapMs: mine,
                    baselineMs: baseline == nil ? nil : theirs,
                    blazediffMs: (try? peer.get())?[i], target: pair.target))
        }
        let missing: String? = if case .failure(let why) = peer { why.message } else { nil }
        return (figures, missing)
    }

    /// One `layoutsnap diff` as a whole process: posix_spawn and wait4, output to /dev/null.
    /// (Foundation's Process added about 30 ms of its own to every run.)
    private func runDiff(_ program: String, _ a: String, _ b: String) {
        guard
            let pid = try? Spawn.start(
                program, ["diff", a, b],
                files: { actions in
                    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
                    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
                })
        else { return }
        _ = try? Spawn.wait(pid)
    }

    /// The differing pixels `layoutsnap diff --json` reports for the pair (0 when identical).
    private func diffCount(_ a: String, _ b: String) -> Int {
        guard let result = try? ImageDiff(expected: a, actual: b).run() else { return -1 }
        return result.metrics?.differentPixels ?? 0
    }

    struct PeerError: Error { var message: String }

    /// blazediff's `compare()` timed in one Python process (import and start-up not counted,
    /// as the issue measures it), best of `repeats` per pair, in milliseconds.
    static func blazediff(_ pairs: [(String, String)], repeats: Int) -> Result<[Double], PeerError> {
        let script = """
            import sys, json, time
            try:
                import blazediff
            except Exception as e:
                print(json.dumps({"missing": "blazediff is not importable: " + str(e)})); sys.exit(0)
            pairs = json.loads(sys.argv[1]); repeats = int(sys.argv[2]); out = []
            for a, b in pairs:
                best = float("inf")
                for _ in range(repeats):
                    t = time.perf_counter(); blazediff.compare(a, b); best = min(best, time.perf_counter() - t)
                out.append(best * 1000)
            print(json.dumps({"ms": out}))
            """
        let candidates =
            (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { $0 + "/python3" } + [
                "/usr/bin/python3"
            ]
        guard let python = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return .failure(PeerError(message: "python3 not found"))
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: python)
        let list =
            (try? JSONSerialization.data(withJSONObject: pairs.map { [$0.0, $0.1] })).map {
                String(decoding: $0, as: UTF8.self)
            } ?? "[]"
        p.arguments = ["-c", script, list, String(repeats)]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch { return .failure(PeerError(message: "python3 could not start")) }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return .failure(PeerError(message: "blazediff gave no figures"))
        }
        if let missing = object["missing"] as? String { return .failure(PeerError(message: missing)) }
        guard let ms = object["ms"] as? [Double], ms.count == pairs.count else {
            return .failure(PeerError(message: "blazediff gave no figures"))
        }
        return .success(ms)
    }

    static func compare(_ a: [UInt32], _ b: [UInt32], _ w: Int, _ h: Int) -> DiffResult {
        a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in PixelDiff.compare(pa, pb, width: w, height: h) }
        }
    }

    private func best(_ runs: Int? = nil, _ body: () -> Void) -> Double {
        var fastest = Double.infinity
        for _ in 0..<(runs ?? repeats) {
            let start = DispatchTime.now()
            body()
            fastest = min(fastest, Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6)
        }
        return fastest
    }

    /// A UI-like frame (canvas, white cards, rows of anti-aliased dots like glyphs) and a copy in
    /// which some glyphs moved by one pixel, some changed colour, and a few pixels flipped.
    static func pair(width: Int, height: Int, glyphs: Int = 600) -> ([UInt32], [UInt32]) {
        var a = [UInt32](repeating: 0xFFF2_F2F7, count: width * height)
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(n))
        }
        for _ in 0..<(width * height / 250_000 + 4) {
            let x0 = next(width)
            let y0 = next(height)
            let w = 100 + next(500)
            let h = 40 + next(260)
            for y in y0..<min(height, y0 + h) { for x in x0..<min(width, x0 + w) { a[y * width + x] = 0xFFFF_FFFF } }
        }
        var b = a
        func glyph(_ img: inout [UInt32], _ cx: Double, _ cy: Double, _ ink: UInt32) {
            for y in Int(cy) - 6...Int(cy) + 6 {
                for x in Int(cx) - 6...Int(cx) + 6 where x >= 0 && y >= 0 && x < width && y < height {
                    let d =
                        ((Double(x) + 0.5 - cx) * (Double(x) + 0.5 - cx) + (Double(y) + 0.5 - cy)
                            * (Double(y) + 0.5 - cy))
                        .squareRoot()
                    let coverage = min(1, max(0, 4.5 - d))
                    guard coverage > 0 else { continue }
                    let dst = img[y * width + x]
                    func mix(_ s: UInt32, _ shift: UInt32) -> UInt32 {
                        let d = Double((dst >> shift) & 0xFF)
                        let c = Double((ink >> shift) & 0xFF)
                        return UInt32((c * coverage + d * (1 - coverage)).rounded()) << shift
                    }
                    img[y * width + x] = 0xFF00_0000 | mix(ink, 16) | mix(ink, 8) | mix(ink, 0)
                }
            }
        }
        for g in 0..<glyphs {
            let cx = Double(20 + next(width - 40)) + 0.3
            let cy = Double(20 + next(height - 40)) + 0.6
            glyph(&a, cx, cy, 0xFF1E_1E28)
            glyph(
                &b, g < glyphs / 4 ? cx + 1 : cx, cy, g >= glyphs / 4 && g < glyphs * 3 / 10 ? 0xFFC8_1414 : 0xFF1E_1E28
            )
        }
        for _ in 0..<500 { b[next(width * height)] ^= 0x00FF_FFFF }
        return (a, b)
    }
}
