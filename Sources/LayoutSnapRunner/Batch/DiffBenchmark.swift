import Foundation
import LayoutSnapCore
import LayoutSnapImaging

/// The diff engine's figures for `layoutsnap bench`: an identical 8-megapixel pair, the same
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
    }

    public let repeats: Int
    /// The layoutsnap binary to time as a whole process.
    public let executable: String

    public init(repeats: Int, executable: String) {
        self.repeats = max(repeats, 3); self.executable = executable
    }

    public func run() throws(RunnerError) -> Figures {
        var f = Figures()
        let (w, h) = (3840, 2160)
        f.megapixels = Double(w * h) / 1e6
        let (a, b) = Self.pair(width: w, height: h)
        let same = a.map { $0 }   // a separate buffer: the same memory twice would be too easy
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
        f.processMs = best {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: executable)
            p.arguments = ["diff", dir + "/a.png", dir + "/b.png"]
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try? p.run()
            p.waitUntilExit()
        }
        return f
    }

    static func compare(_ a: [UInt32], _ b: [UInt32], _ w: Int, _ h: Int) -> DiffResult {
        a.withUnsafeBufferPointer { pa in b.withUnsafeBufferPointer { pb in PixelDiff.compare(pa, pb, width: w, height: h) } }
    }

    private func best(_ body: () -> Void) -> Double {
        var fastest = Double.infinity
        for _ in 0..<repeats {
            let start = DispatchTime.now()
            body()
            fastest = min(fastest, Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6)
        }
        return fastest
    }

    /// A UI-like frame (canvas, white cards, rows of anti-aliased dots like glyphs) and a copy in
    /// which some glyphs moved by one pixel, some changed colour, and a few pixels flipped.
    static func pair(width: Int, height: Int) -> ([UInt32], [UInt32]) {
        var a = [UInt32](repeating: 0xFFF2_F2F7, count: width * height)
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(n))
        }
        for _ in 0..<(width * height / 250_000 + 4) {
            let x0 = next(width), y0 = next(height), w = 100 + next(500), h = 40 + next(260)
            for y in y0..<min(height, y0 + h) { for x in x0..<min(width, x0 + w) { a[y * width + x] = 0xFFFF_FFFF } }
        }
        var b = a
        func glyph(_ img: inout [UInt32], _ cx: Double, _ cy: Double, _ ink: UInt32) {
            for y in Int(cy) - 6...Int(cy) + 6 {
                for x in Int(cx) - 6...Int(cx) + 6 where x >= 0 && y >= 0 && x < width && y < height {
                    let d = ((Double(x) + 0.5 - cx) * (Double(x) + 0.5 - cx) + (Double(y) + 0.5 - cy) * (Double(y) + 0.5 - cy)).squareRoot()
                    let coverage = min(1, max(0, 4.5 - d))
                    guard coverage > 0 else { continue }
                    let dst = img[y * width + x]
                    func mix(_ s: UInt32, _ shift: UInt32) -> UInt32 {
                        let d = Double((dst >> shift) & 0xFF), c = Double((ink >> shift) & 0xFF)
                        return UInt32((c * coverage + d * (1 - coverage)).rounded()) << shift
                    }
                    img[y * width + x] = 0xFF00_0000 | mix(ink, 16) | mix(ink, 8) | mix(ink, 0)
                }
            }
        }
        for g in 0..<600 {
            let cx = Double(20 + next(width - 40)) + 0.3, cy = Double(20 + next(height - 40)) + 0.6
            glyph(&a, cx, cy, 0xFF1E_1E28)
            glyph(&b, g < 150 ? cx + 1 : cx, cy, g >= 150 && g < 180 ? 0xFFC8_1414 : 0xFF1E_1E28)
        }
        for _ in 0..<500 { b[next(width * height)] ^= 0x00FF_FFFF }
        return (a, b)
    }
}
