import Foundation
import LayoutSnapRunner
import LayoutSnapCore
import LayoutSnapDiff
import LayoutSnapRender

/// `layoutsnap-bench`'s motion figure: how long the motion analysis of one 200-frame failing state
/// takes (a post card expanding for 3.3 s at 60 fps, easeInOut against easeIn, every track of
/// every element), the fastest of `repeats` runs of many.
public struct MotionBenchmark {
    public let repeats: Int

    public init(repeats: Int) { self.repeats = max(1, repeats) }

    public struct Figures: Sendable {
        public var frames = 0
        public var tracks = 0
        public var milliseconds = 0.0
        public var kinds: [String] = []
    }

    public func run() throws(RunnerError) -> Figures {
        let engine: TextEngine
        do { engine = try TextEngine(fonts: try FontSystem.shared()) } catch {
            throw RunnerError.environment("\(error)")
        }
        func expand(_ curve: CubicBezier) throws(RunnerError) -> StateMotion {
            let post = PostFixture(
                title: "A field guide to sourdough", summary: "Starter, hydration and the two mistakes everyone makes.",
                body: "# The starter\nFeed it at the **same time** every day.\n- 500 g flour\n- 350 g water",
                image: PostImage(path: nil, aspectRatio: 1.5), author: "Hannah", curve: .timing(curve, duration: 3.3),
                steps: [PostStep(event: .expand)])
            do {
                let states = try PostRules(
                    post: post, canvas: Canvas(width: 390, height: 844, scale: 1), measurer: engine
                )
                .states(fps: 60, palette: .light)
                return StateMotion(states[1].frames)
            } catch {
                throw RunnerError.environment("bench: the motion fixture cannot be laid out: \(error)")
            }
        }
        let expected = try expand(.easeInOut)
        let actual = try expand(.easeIn)
        var f = Figures()
        f.frames = actual.times.count
        f.tracks = actual.tracks.count
        var fastest = Double.infinity
        for _ in 0..<repeats {
            let start = DispatchTime.now()
            let runs = 20
            for _ in 0..<runs { f.kinds = MotionAnalysis.compare(expected: expected, actual: actual)?.kinds ?? [] }
            fastest = min(fastest, Stopwatch.seconds(since: start) / Double(runs))
        }
        f.milliseconds = fastest * 1000
        return f
    }
}
