import LayoutSnapCore
import LayoutSnapDiff
import LayoutSnapReport

/// The outcome of one fixture in a batch.
public struct FixtureResult: Sendable {
    public var ref: FixtureRef
    /// Why the fixture could not be used (bad input: exit 2), naming the file and JSON path.
    public var error: Diagnostic?
    public var frames: [FrameResult]
    /// What the handler did beyond the frames.
    public var notes: [FixtureNote]
    /// Seconds the whole fixture took (decoded, laid out, rendered, compared).
    public var seconds: Double = 0
    /// Lint findings the fixture's `lint.ignore` left out.
    public var lintsIgnored = 0
    /// The canvas the fixture was laid out on (points).
    public var canvas: Canvas?
    /// With the result cache on: the XXH3 of the fixture's layout.json as rendered.
    public var layoutHash: String?
    /// Verify: the frames are the result cache's, checked against the goldens, not rendered.
    public var cached = false
    /// A text of the rendering named a brand family (its pixels may depend on the brand fonts'
    /// bytes, which the result cache then checks beside the key).
    public var usedBrandFonts = false

    public init(ref: FixtureRef, error: Diagnostic? = nil, frames: [FrameResult] = [], notes: [FixtureNote] = []) {
        self.ref = ref
        self.error = error
        self.frames = frames
        self.notes = notes
    }

    public func count(_ status: FrameStatus) -> Int { frames.reduce(0) { $0 + ($1.status == status ? 1 : 0) } }
}

/// What a frame handler did for a fixture beyond its frames.
public enum FixtureNote: Sendable, Hashable {
    /// Record staged the fixture's layout.json (it goes into place with the frames, or not at all).
    case layoutStaged
    /// Verify: how the motion of each changed state differs from its golden layout.json's, by
    /// state name (states whose tracks are all the same are absent).
    case motion([String: MotionReport])
}
