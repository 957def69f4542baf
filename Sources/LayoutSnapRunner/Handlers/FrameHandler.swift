import Foundation
import LayoutSnapCore
import LayoutSnapDiff
import LayoutSnapRender
import LayoutSnapReport

public struct FrameResult: Sendable, Hashable {
    public var state: String
    public var index: Int
    /// Seconds since the state's step began, and the state's progress value (for reports).
    public var time: Double = 0
    public var progress: Double = 0
    /// Seconds it took to render and hand to the handler (a state's JUnit time is their sum).
    public var seconds: Double = 0
    public var status: FrameStatus
    /// A short explanation for anything but success ("1234 pixels differ").
    public var detail: String?
    /// Where the frame's golden lives (relative to the goldens folder).
    public var goldenKey: String
    /// Verify failure: where the actual frame was written for inspection.
    public var actualPath: String?
    /// Record: the manifest entry of the golden as it now stands.
    public var manifestEntry: GoldenManifest.Entry?
    /// Record: what the staged golden replaces (see `GoldenTransaction`).
    public var replacing: GoldenManifest.Previous?
    /// Verify: the comparison with the golden, when one was made (its figures are the report's
    /// `metrics`).
    public var comparison: Comparison?
    /// Verify: where the diff image was written.
    public var diffPath: String?
    /// Verify: elements that moved or resized against the golden layout.json ("body.y +4.00").
    public var layoutChanges: [String] = []
    /// Verify, for a state whose motion changed its timing: the golden frame compared with, when
    /// not its own index, and whether the frame has no counterpart (see `MotionReport.pairs`).
    public var pairedWith: Int?
    public var pairing: FramePairing?
    /// What the layout lints found in this frame (with `--lint warn|error`), ignores applied.
    public var lints: [LintFinding] = []
    /// Verify, a failing frame: which elements explain its pixels (docs/review.md).
    public var attribution: FrameAttribution?
    /// Verify, a frame that did not pass: the XXH3-64 of its golden file as read (nil: none).
    public var goldenHash: String?
    /// With the result cache on: the hash of the frame's pixels as rendered.
    public var pixelHash: UInt64?

    public init(
        state: String, index: Int, status: FrameStatus, detail: String? = nil,
        goldenKey: String, actualPath: String? = nil, manifestEntry: GoldenManifest.Entry? = nil
    ) {
        self.state = state
        self.index = index
        self.status = status
        self.detail = detail
        self.goldenKey = goldenKey
        self.actualPath = actualPath
        self.manifestEntry = manifestEntry
    }
}

/// Decides what a rendered frame is for (verify, record, render): the renderer never knows.
/// Called on worker threads; one call per fixture for `fixtureStarted`/`fixtureFinished`.
public protocol FrameHandler: Sendable {
    func fixtureStarted(_ fixture: Fixture, layout: FixtureLayout) throws(RunnerError)
    func handle(_ fixture: Fixture, state: String, frame: LayoutFrame, pixels: FramePixels) -> FrameResult
    /// After the last frame; may annotate the fixture's frame results. Returns what it did
    /// beyond the frames (record: the layout.json it staged), or nil.
    func fixtureFinished(_ fixture: Fixture, layout: FixtureLayout, frames: inout [FrameResult]) throws(RunnerError)
        -> FixtureNote?
    /// The frames of a result cache hit, when the handler can take them for a rendering (verify:
    /// every frame's hash is its golden's); nil, and the fixture is rendered. `id` is the
    /// fixture's: a hit is taken before the fixture is decoded.
    func cachedFrames(id: String, _ value: CachedResult) -> [FrameResult]?
}

extension FrameHandler {
    public func fixtureStarted(_ fixture: Fixture, layout: FixtureLayout) throws(RunnerError) {}
    public func fixtureFinished(_ fixture: Fixture, layout: FixtureLayout, frames: inout [FrameResult])
        throws(RunnerError) -> FixtureNote?
    { nil }
    public func cachedFrames(id: String, _ value: CachedResult) -> [FrameResult]? { nil }
}
