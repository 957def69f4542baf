/// Turns steps into states and sample times (docs/fixtures/README.md "Common fields").
///
/// A step starts when the previous state has settled, or at `at` seconds after the previous step
/// began. A state's frames are sampled at `fps` from its start to the end of every animation still
/// running, inclusive (0.3 s at 60 fps: 19 frames); a state cut short by the next step's `at` keeps
/// only the frames before that moment, and the next state's frame 0 is the moment itself.
public struct Timeline: Sendable {
    public struct Sample: Sendable, Hashable {
        public var index: Int
        /// Seconds since the state's step began.
        public var time: Double
        /// Seconds since the fixture's first step began (the clock of every AnimatedValue).
        public var absolute: Double
    }

    public struct Schedule: Sendable, Hashable {
        /// Absolute start of the state.
        public var start: Double
        /// Absolute end of the animations running in this state (≤ start when nothing moves).
        public var settle: Double
    }

    public static let maxFramesPerFixture = 10_000

    /// The last frame index of each state, as a Double so absurd durations cannot overflow.
    static func lastIndices(schedules: [Schedule], fps: Double) -> [Double] {
        schedules.enumerated().map { i, s in
            guard s.settle > s.start else { return 0 }
            // Guard against 0.3 * 60 = 17.999…: a frame within a nanosecond of the end is the end.
            let toEnd = ((s.settle - s.start) * fps - 1e-9).rounded(.up)
            // A step that starts when this one has settled does not cut it: its last frame is the
            // settled view. Only an interruption (`at` before the end) drops the frames from then on.
            guard i + 1 < schedules.count, schedules[i + 1].start < s.settle else { return max(0, toEnd) }
            // Frames strictly before the next step's start: k / fps < cut - start.
            let toCut = ((schedules[i + 1].start - s.start) * fps).rounded(.up) - 1
            return max(0, min(toEnd, toCut))
        }
    }

    /// When a step's state begins (docs/fixtures/README.md "Common fields"): `at` seconds after the previous step began, or once
    /// everything the previous steps started has settled (`running`: the latest end of the
    /// animated values; -infinity when nothing ever ran).
    public static func stepStart(after previous: Schedule, at: Double?, running: Double) -> Double {
        at.map { previous.start + $0 } ?? max(previous.start, running)
    }

    /// The states placed on the fixture's clock: each gets its step's start, and is marked
    /// `interrupted` when the next step began before it settled (its last frame is mid-motion,
    /// not the settled view).
    public static func placingOnTimeline(_ schedules: [Schedule], _ states: [StateLayout]) -> [StateLayout] {
        states.enumerated().map { i, state in
            var s = state
            s.start = schedules[i].start
            s.interrupted = i + 1 < schedules.count && schedules[i + 1].start < schedules[i].settle
            return s
        }
    }

    /// Total frames the schedules produce, without building them (checked against the limit first).
    public static func frameCount(schedules: [Schedule], fps: Double) -> Double {
        lastIndices(schedules: schedules, fps: fps).reduce(0) { $0 + $1 + 1 }
    }

    /// The sample times of every state, after checking the frame limit (docs/fixtures/README.md "Limits"): too many frames
    /// is an error at `$.steps`, with `advice` on what to lower.
    public static func checkedSamples(schedules: [Schedule], fps: Double, advice: String = "lower fps")
        throws(LayoutError) -> [[Sample]]
    {
        let count = frameCount(schedules: schedules, fps: fps)
        if count > Double(maxFramesPerFixture) {
            throw LayoutError(
                path: "$.steps",
                message:
                    "the steps produce \(count.formattedCount) frames, more than the limit of \(maxFramesPerFixture); \(advice)"
            )
        }
        return samples(schedules: schedules, fps: fps)
    }

    /// The sample times of every state. Call only after `frameCount` passed the limit.
    public static func samples(schedules: [Schedule], fps: Double) -> [[Sample]] {
        zip(schedules, lastIndices(schedules: schedules, fps: fps)).map { s, last in
            (0...Int(last)).map { k in
                let t = Double(k) / fps
                return Sample(index: k, time: t, absolute: s.start + t)
            }
        }
    }
}
