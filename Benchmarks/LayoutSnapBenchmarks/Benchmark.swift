import Foundation
import LayoutSnapCore
import LayoutSnapImaging
import LayoutSnapRunner
import LayoutSnapRender
import LayoutSnapReport

/// Figures for `layoutsnap-bench`: what a frame costs rendered, verified and recorded, how PNG
/// writing compares with Cairo's own, how two jobs scale, and how often Pango lays text out.
public struct Benchmark {
    public struct Figures: Sendable {
        public var fixtures = 0
        public var frames = 0
        public var megapixels = 0.0
        public var renderSeconds = 0.0
        public var verifySeconds = 0.0
        public var recordSeconds = 0.0
        public var encodeSeconds = 0.0
        public var encodedBytes = 0
        public var cairoBytes = 0
        /// The same frames written with zlib level 1, filter None (the original specification's suggestion, docs/goldens.md).
        public var zlibFastSeconds = 0.0
        public var zlibFastBytes = 0
        /// Frames whose PNG came out larger than Cairo's own for the same pixels.
        public var framesLargerThanCairo = 0
        public var comparedFrames = 0
        public var verifyOneJobSeconds = 0.0
        public var verifyTwoJobsSeconds = 0.0
        /// verify with the layout lints on (`--lint warn`, the command's default), one job, and
        /// the findings it made (ignores applied).
        public var verifyLintSeconds = 0.0
        public var lintFindings = 0
        public var layoutsCreated = 0
        public var states = 0
        public var peakMemoryMB = 0.0
    }

    public let refs: [FixtureRef]
    public let goldens: String
    public let repeats: Int

    public init(refs: [FixtureRef], goldens: String, repeats: Int) {
        self.refs = refs
        self.goldens = goldens
        self.repeats = max(1, repeats)
    }

    /// Renders without keeping anything: the cost every other mode adds to.
    struct RenderOnly: FrameHandler {
        func handle(_ fixture: Fixture, state: String, frame: LayoutFrame, pixels: FramePixels) -> FrameResult {
            FrameResult(state: state, index: frame.index, status: .rendered, goldenKey: "")
        }
    }

    public func run(progress: (String) -> Void) throws(RunnerError) -> Figures {
        var f = Figures()
        f.fixtures = refs.count
        let manifest = try GoldenManifest.load(path: GoldenStore(goldens).manifestPath)
        guard manifest != nil else {
            throw RunnerError.goldens(
                Diagnostic(
                    .error, .golden, file: GoldenStore(goldens).manifestPath,
                    message: "no manifest: bench verifies unchanged frames against it; record the goldens first"))
        }

        // Layout counts and sizes, single thread, one engine.
        let fonts: FontSystem
        do { fonts = try FontSystem.shared() } catch { throw RunnerError.environment(error.description) }
        progress("counting layouts")
        for ref in refs {
            do {
                let engine = try TextEngine(fonts: fonts)
                let fixture = try ref.load()
                let layout = try LayoutEngine.layout(fixture, measurer: engine)
                let renderer = try FrameRenderer(canvas: fixture.canvas, engine: engine)
                for state in layout.states {
                    for frame in state.frames {
                        let pixels = try renderer.render(frame)
                        f.frames += 1
                        f.megapixels += Double(pixels.width * pixels.height) / 1e6
                        // Each frame encoded `repeats` times, the fastest counting: one sample
                        // per frame is at the mercy of whatever else the machine does.
                        var png: [UInt8] = []
                        var fastest = Double.infinity
                        for _ in 0..<repeats {
                            let start = DispatchTime.now()
                            png = PNGEncoder.encode(
                                pixels: pixels.pixels.baseAddress!, width: pixels.width, height: pixels.height,
                                stride: pixels.width)
                            fastest = min(fastest, Stopwatch.seconds(since: start))
                        }
                        f.encodeSeconds += fastest
                        f.encodedBytes += png.count
                        guard let cairo = CairoPNGSize.of(pixels) else {
                            throw RunnerError.environment("Cairo could not write a PNG of \(ref.displayPath)")
                        }
                        f.cairoBytes += cairo
                        if png.count > cairo { f.framesLargerThanCairo += 1 }
                        var zlibBytes = 0
                        var zlibFastest = Double.infinity
                        for _ in 0..<repeats {
                            let zlibStart = DispatchTime.now()
                            zlibBytes =
                                AlternativePNGEncoder.encode(
                                    pixels: pixels.pixels.baseAddress!, width: pixels.width, height: pixels.height,
                                    stride: pixels.width, options: .zlibFast
                                ).count
                            zlibFastest = min(zlibFastest, Stopwatch.seconds(since: zlibStart))
                        }
                        f.zlibFastSeconds += zlibFastest
                        f.zlibFastBytes += zlibBytes
                    }
                }
                f.states += layout.states.count
                // Bullet markers are laid out when first drawn, so count after rendering.
                f.layoutsCreated += engine.layoutsCreated
            } catch {
                throw RunnerError.fixture(.fixtureStage(error, ref: ref))
            }
        }

        progress("render only")
        f.renderSeconds = try best { () throws(RunnerError) in
            _ = try BatchRunner(jobs: 1).run(refs, handler: RenderOnly())
        }
        progress("verify")
        let verify = VerifyHandler(
            goldens: goldens, manifest: manifest,
            reportDirectory: NSTemporaryDirectory() + "/layoutsnap-bench-report")
        var compared = 0
        f.verifySeconds = try best { () throws(RunnerError) in
            let results = try BatchRunner(jobs: 1).run(refs, handler: verify)
            compared = results.reduce(0) { $0 + $1.count(.passed) }
        }
        f.comparedFrames = compared
        f.verifyOneJobSeconds = f.verifySeconds
        progress("verify, lints on")
        var findings = 0
        f.verifyLintSeconds = try best { () throws(RunnerError) in
            let results = try BatchRunner(jobs: 1, lint: .warn).run(refs, handler: verify)
            findings = results.reduce(0) { $0 + $1.frames.reduce(0) { $0 + $1.lints.count } }
        }
        f.lintFindings = findings
        progress("verify, 2 jobs")
        f.verifyTwoJobsSeconds = try best { () throws(RunnerError) in
            _ = try BatchRunner(jobs: 2).run(refs, handler: verify)
        }
        progress("record")
        let temp = NSTemporaryDirectory() + "/layoutsnap-bench-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: temp) }
        f.recordSeconds = try best { () throws(RunnerError) in
            try? FileManager.default.removeItem(atPath: temp)
            _ = try BatchRunner(jobs: 1).run(refs, handler: RecordHandler(goldens: temp, manifest: nil))
        }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        f.peakMemoryMB = Double(usage.ru_maxrss) / 1024
        return f
    }

    /// The fastest of `repeats` runs: the least disturbed by whatever else the machine does.
    private func best(_ body: () throws(RunnerError) -> Void) throws(RunnerError) -> Double {
        var fastest = Double.infinity
        for _ in 0..<repeats {
            let start = DispatchTime.now()
            try body()
            fastest = min(fastest, Stopwatch.seconds(since: start))
        }
        return fastest
    }
}
