import LayoutSnapCore
import LayoutSnapJSON

/// A fixture's states one after another on the fixture's own clock (seconds since its first step
/// began, the clock of every animated value): what the preview page's Timeline plays, scrubs and
/// shows as one filmstrip (docs/commands.md "preview").
///
/// A state occupies the clock from its step's start until the next step's start: an interrupted
/// state is cut where the next step arrives, and a settled one shows its last frame until then.
/// A state where nothing moved is an instant: one frame, marked on the axis at its moment, however
/// long it lasts (zero when the next step follows at once, as every fixture's `initial` does).
public struct PreviewTimeline: Sendable, Equatable {
    public struct Segment: Sendable, Equatable {
        public var state: String
        /// When the state's step began.
        public var start: Double
        /// Until the next state's step began; the last state's lasts until its last frame.
        public var duration: Double
        /// When each frame shows on the timeline: the step's start plus the frame's time. A settled
        /// last frame sampled after the next step already began (the frames are sampled on the fps
        /// grid, the settle is not) shows from that step's start, so the times never go back.
        public var frameTimes: [Double]
        public var interrupted: Bool
        public var instant: Bool
    }

    /// A moment marked on the axis: an instant step, or where a step cut the one before.
    public struct Marker: Sendable, Equatable {
        public var state: String
        public var time: Double
    }

    public var segments: [Segment]
    /// When the last frame shows.
    public var end: Double
    /// How long playback shows the last frame before playing again (the last state always settles).
    public var hold: Double

    public init(_ states: [StateLayout], hold: Double) {
        segments = states.indices.map { i in
            let state = states[i]
            let lastTime = state.frames.last?.time ?? 0
            let next = i + 1 < states.count ? states[i + 1].start : nil
            let duration = next.map { max(0, $0 - state.start) } ?? lastTime
            return Segment(
                state: state.name, start: state.start, duration: duration,
                frameTimes: state.frames.map { state.start + min($0.time, duration) },
                interrupted: state.interrupted,
                instant: state.frames.count == 1 && !state.interrupted)
        }
        end = segments.last.map { $0.start + $0.duration } ?? 0
        self.hold = hold
    }

    public var instants: [Marker] {
        segments.filter(\.instant).map { Marker(state: $0.state, time: $0.start) }
    }

    /// Where each interrupted state was cut: the next step's start.
    public var cuts: [Marker] {
        segments.filter(\.interrupted).map { Marker(state: $0.state, time: $0.start + $0.duration) }
    }

    /// The page's `timeline` object.
    public var json: JSONOutput {
        func markers(_ list: [Marker]) -> JSONOutput {
            .array(list.map { .object([("state", .string($0.state)), ("time", .number($0.time))]) })
        }
        return .object([
            ("end", .number(end)),
            ("hold", .number(hold)),
            (
                "segments",
                .array(
                    segments.map { s in
                        .object([
                            ("state", .string(s.state)), ("start", .number(s.start)),
                            ("duration", .number(s.duration)),
                            ("times", .array(s.frameTimes.map { .number($0) })),
                            ("interrupted", .bool(s.interrupted)), ("instant", .bool(s.instant)),
                        ])
                    })
            ),
            ("instants", markers(instants)),
            ("cuts", markers(cuts)),
        ])
    }
}
