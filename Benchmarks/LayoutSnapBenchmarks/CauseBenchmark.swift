import Foundation
import LayoutSnapCore
import LayoutSnapDiff
import LayoutSnapReport
import LayoutSnapRunner

/// `layoutsnap-bench causes`: attribution and grouping of many failing frames (docs/review.md).
/// Chat frames of 12 bubbles on an iPhone 15 canvas (393 x 852 pt) whose bubble padding grew by
/// 2 pt a side (every bubble 4 pt wider, user bubbles 4 pt further left), one in five also with
/// a message inserted in the middle; each frame's pixels are filled rects, compared first as
/// verify compares them (not timed: verify does that for a failing frame anyway). Timed: the
/// attribution of every frame, the grouping of all of them, and a `RunResults` of them deriving
/// its causes (what results.json and the report pay).
public struct CauseBenchmark {
    public let frames: Int
    public let scale: Double
    public let repeats: Int

    public init(frames: Int = 10_000, scale: Double = 3, repeats: Int = 3) {
        self.frames = max(1, frames)
        self.scale = scale
        self.repeats = max(1, repeats)
    }

    public struct Figures: Sendable {
        public var frames = 0
        public var width = 0, height = 0
        public var attributionSeconds = 0.0
        public var groupingSeconds = 0.0
        public var resultsSeconds = 0.0
        public var causes: [String] = []
    }

    struct Variant {
        var golden: Attribution.Elements
        var actual: Attribution.Elements
        var expected: [UInt32]
        var now: [UInt32]
        var regions: [PixelRegion]?
    }

    public func run() -> Figures {
        let width = Int(393 * scale)
        let height = Int(852 * scale)
        let variants = (0..<10).map { makeVariant($0, width: width, height: height) }
        var f = Figures()
        f.frames = frames
        f.width = width
        f.height = height
        var best = (attribution: Double.infinity, grouping: Double.infinity, results: Double.infinity)
        for _ in 0..<repeats {
            var start = DispatchTime.now()
            var attributions: [FrameAttribution] = []
            attributions.reserveCapacity(frames)
            for i in 0..<frames {
                let v = variants[i % variants.count]
                let a = v.expected.withUnsafeBufferPointer { e in
                    v.now.withUnsafeBufferPointer { n in
                        Attribution.attribute(
                            golden: v.golden, actual: v.actual,
                            pixels: Attribution.Pixels(
                                expected: e, actual: n, width: width, height: height, scale: scale, regions: v.regions))
                    }
                }
                attributions.append(a)
            }
            best.attribution = min(best.attribution, Stopwatch.seconds(since: start))
            start = DispatchTime.now()
            let inputs = attributions.enumerated().map { i, a in
                CauseAnalysis.frame(fixture: "chats/c\(i / 40)", state: "s\(i % 40 / 8)", attribution: a)
            }
            let (causes, _) = CauseAnalysis.group(inputs)
            best.grouping = min(best.grouping, Stopwatch.seconds(since: start))
            f.causes = causes.map { "\($0.frames): \($0.summary)" }
            // The same frames as a run's results: causes derived as results.json is made.
            let fixtures = stride(from: 0, to: frames, by: 40).map { first in
                FixtureEntry(
                    id: "chats/c\(first / 40)", file: "Fixtures/chats/c\(first / 40).json",
                    states: (0..<5).map { s in
                        StateEntry(
                            name: "s\(s)",
                            frames: (0..<8).compactMap { k -> FrameEntry? in
                                let i = first + s * 8 + k
                                guard i < frames else { return nil }
                                return FrameEntry(
                                    index: k, time: 0, progress: 0, status: .failed,
                                    golden: "chats/c\(first / 40)/s\(s)/\(k).png",
                                    attribution: attributions[i])
                            })
                    })
            }
            start = DispatchTime.now()
            let results = RunResults(version: "bench", durationSeconds: 0, fixtures: fixtures)
            best.results = min(best.results, Stopwatch.seconds(since: start))
            precondition(results.causes.reduce(0) { $0 + $1.frames } == frames)
        }
        f.attributionSeconds = best.attribution
        f.groupingSeconds = best.grouping
        f.resultsSeconds = best.results
        return f
    }

    /// Twelve bubbles bottom-up; variant `k` shifts their texts' widths a little and, for every
    /// fifth, inserts a message in the middle.
    func makeVariant(_ k: Int, width: Int, height: Int) -> Variant {
        var golden: Attribution.Elements = [("list", Rect(x: 0, y: 59, width: 393, height: 700))]
        var actual = golden
        var y = 740.0
        for m in (0..<12).reversed() {
            let user = m % 2 == 1
            let w = 120 + Double((m * 37 + k * 11) % 140)
            let h = m % 3 == 0 ? 58.29 : 36.29
            y -= h
            let x = user ? 393 - 12 - w : 12
            golden.append(("message:m\(m)", Rect(x: x, y: y, width: w, height: h)))
            let insertedAbove = k % 5 == 0 && m < 6
            let dy = insertedAbove ? -(36.29 + 8) : 0
            actual.append(("message:m\(m)", Rect(x: user ? x - 4 : x, y: y + dy, width: w + 4, height: h)))
            if k % 5 == 0 && m == 6 {
                actual.append(("message:new", Rect(x: 12, y: y - 8 - 36.29, width: 180, height: 36.29)))
            }
            y -= 8
        }
        let expected = paint(golden, width: width, height: height)
        let now = paint(actual, width: width, height: height)
        var regions: [PixelRegion]?
        expected.withUnsafeBufferPointer { e in
            now.withUnsafeBufferPointer { n in
                regions = Attribution.Pixels.regions(of: PixelDiff.compare(e, n, width: width, height: height))
            }
        }
        return Variant(golden: golden, actual: actual, expected: expected, now: now, regions: regions)
    }

    func paint(_ elements: Attribution.Elements, width: Int, height: Int) -> [UInt32] {
        var image = [UInt32](repeating: 0xFFFF_FFFF, count: width * height)
        for (i, (_, r)) in elements.enumerated() {
            let color: UInt32 = i == 0 ? 0xFFF2_F2F7 : (i % 2 == 0 ? 0xFF00_7AFF : 0xFFE9_E9EB)
            for py in max(0, Int(r.y * scale))..<min(height, Int((r.y + r.height) * scale)) {
                for px in max(0, Int(r.x * scale))..<min(width, Int((r.x + r.width) * scale)) {
                    image[py * width + px] = color
                }
            }
        }
        return image
    }
}
