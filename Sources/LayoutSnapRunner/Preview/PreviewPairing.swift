import LayoutSnapCore
import LayoutSnapJSON

/// How the two sides of `preview A --compare ...` are scrubbed together: for every frame side A
/// shows, the frame side B shows, by time (B's last frame that has begun at A's frame's time) or
/// by progress (B's frame nearest A's progress, ties by time), in the timeline and in each
/// state's view. Computed here and carried in the page's JSON, so the page only looks it up and
/// the rules are unit-tested without a browser.
public struct PreviewPairing: Sendable, Equatable {
    /// One side's frames, per state: their times on the state's own clock, on the timeline's, and
    /// their progress.
    public struct Side: Sendable, Equatable {
        public struct State: Sendable, Equatable {
            public var name: String
            public var times: [Double]
            public var timelineTimes: [Double]
            public var progress: [Double]

            public init(name: String, times: [Double], timelineTimes: [Double], progress: [Double]) {
                self.name = name
                self.times = times
                self.timelineTimes = timelineTimes
                self.progress = progress
            }
        }
        public var states: [State]

        public init(states: [State]) { self.states = states }

        public init(_ states: [StateLayout], hold: Double) {
            let timeline = PreviewTimeline(states, hold: hold)
            self.states = zip(states, timeline.segments).map { state, segment in
                State(
                    name: state.name, times: state.frames.map(\.time), timelineTimes: segment.frameTimes,
                    progress: state.frames.map(\.progress))
            }
        }
    }

    /// B's frames for one of A's views: an index into B's view for each of A's frames and then
    /// each moment of `tail`, or nil when B has nothing to show there.
    public struct View: Sendable, Equatable {
        /// B's state shown beside A's (nil for the timeline, or when B has no such state).
        public var state: Int?
        /// When B still moves after A's last frame (B is longer): the times of B's later frames,
        /// where the page shows A's last frame again so that scrubbing by time reaches B's end.
        public var tail: [Double]
        public var byTime: [Int?]
        public var byProgress: [Int?]
    }

    /// Indices into B's timeline (its frames in order, state after state).
    public var timeline: View
    /// Per state of A: indices into the frames of B's state `state`.
    public var states: [View]

    /// Less than a microsecond apart is the same moment (times are sums of doubles).
    static let epsilon = 1e-6

    public init(a: Side, b: Side) {
        let paired = Self.pairStates(a.states.map(\.name), b.states.map(\.name))
        states = zip(a.states, paired).map { state, j in
            guard let j else {
                let none = state.times.map { _ -> Int? in nil }
                return View(state: nil, tail: [], byTime: none, byProgress: none)
            }
            let other = b.states[j]
            let tail = Self.tail(state.times, other.times)
            return View(
                state: j, tail: tail, byTime: Self.byTime(state.times + tail, in: other.times),
                byProgress: Self.byProgress(
                    state.progress + tail.map { _ in state.progress.last ?? 0 }, times: state.times + tail,
                    in: other.progress, times: other.times))
        }
        // The timeline: by time on the timeline's clock; by progress within the paired state,
        // found in B's timeline at that state's offset.
        let bTimes = b.states.flatMap(\.timelineTimes)
        var offsets: [Int] = []
        var count = 0
        for s in b.states {
            offsets.append(count)
            count += s.timelineTimes.count
        }
        let bState = b.states.indices.flatMap { j in b.states[j].timelineTimes.map { _ in j } }
        let aTimes = a.states.flatMap(\.timelineTimes)
        let tail = Self.tail(aTimes, bTimes)
        var byTime = Self.byTime(aTimes + tail, in: bTimes)
        var byProgress: [Int?] = []
        var k = 0
        for (state, view) in zip(a.states, states) {
            for i in state.times.indices {
                // Of B's frames at one moment (an instant and the step after it), the one of the
                // paired state: A's `initial` beside B's, not beside B's next step.
                if let j = view.state, let r = byTime[k], bState[r] != j {
                    var q = r
                    while q > 0 && abs(bTimes[q - 1] - bTimes[r]) <= Self.epsilon && bState[q] != j { q -= 1 }
                    if bState[q] == j { byTime[k] = q }
                }
                if let j = view.state, let frame = view.byProgress[i] {
                    byProgress.append(offsets[j] + frame)
                } else {
                    byProgress.append(byTime[k])
                }
                k += 1
            }
        }
        // After A's end, A's last frame stays: B's frame paired with it stays too.
        for _ in tail { byProgress.append(byProgress.last ?? nil) }
        timeline = View(state: nil, tail: tail, byTime: byTime, byProgress: byProgress)
    }

    /// B's frame times after A's last.
    static func tail(_ a: [Double], _ b: [Double]) -> [Double] {
        guard let last = a.last else { return [] }
        return b.filter { $0 > last + epsilon }
    }

    /// B's state for each of A's: the one of the same name, else the one at the same place when
    /// its name is not one of A's (another fixture's states), else none.
    public static func pairStates(_ a: [String], _ b: [String]) -> [Int?] {
        let named = Set(a)
        return a.enumerated().map { i, name in
            if let j = b.firstIndex(of: name) { return j }
            return i < b.count && !named.contains(b[i]) ? i : nil
        }
    }

    /// For each time of `a`, B's last frame that has begun by then (B's first before it begins).
    public static func byTime(_ a: [Double], in b: [Double]) -> [Int?] {
        guard !b.isEmpty else { return a.map { _ in nil } }
        return a.map { t in
            var j = 0
            while j + 1 < b.count && b[j + 1] <= t + epsilon { j += 1 }
            return j
        }
    }

    /// For each of A's frames, B's frame nearest its progress, of several the one nearest its time.
    /// A side whose progress never changes (nothing moved) has no progress to match: by time.
    public static func byProgress(_ a: [Double], times aTimes: [Double], in b: [Double], times bTimes: [Double])
        -> [Int?]
    {
        func moves(_ p: [Double]) -> Bool { p.contains { abs($0 - (p.first ?? 0)) > epsilon } }
        guard moves(a), moves(b) else { return byTime(aTimes, in: bTimes) }
        return zip(a, aTimes).map { p, t in
            var best = 0
            for j in b.indices.dropFirst() {
                let d = abs(b[j] - p)
                let bestD = abs(b[best] - p)
                if d < bestD - epsilon || (abs(d - bestD) <= epsilon && abs(bTimes[j] - t) < abs(bTimes[best] - t)) {
                    best = j
                }
            }
            return best
        }
    }

    /// The page's `compare.pairs`.
    public var json: JSONOutput {
        func indices(_ list: [Int?]) -> JSONOutput { .array(list.map { $0.map(JSONOutput.int) ?? .null }) }
        func view(_ v: View) -> JSONOutput {
            .object([
                ("state", v.state.map(JSONOutput.int) ?? .null), ("tail", .array(v.tail.map { .number($0) })),
                ("time", indices(v.byTime)),
                ("progress", indices(v.byProgress)),
            ])
        }
        return .object([("timeline", view(timeline)), ("states", .array(states.map(view)))])
    }
}
