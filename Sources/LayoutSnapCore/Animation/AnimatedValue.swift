/// A value animated the SwiftUI way: the model value jumps to each new target at once, and every
/// animation still running adds its remaining part on top. An interrupted animation is therefore
/// never cancelled: it finishes underneath the new one.
///
/// The value keeps its whole history (every change with its start), so it can be asked for any
/// time after all steps were applied: value(t) = initial + Σ delta x progress(t), where a change
/// not started yet contributes nothing and a finished one its whole delta.
public struct AnimatedValue: Sendable, Hashable {
    struct Change: Sendable, Hashable {
        var start: Double
        var delta: Double
        /// nil: an immediate change.
        var curve: AnimationCurve?
        var end: Double
        /// When a jump froze it (a finger grabbing a scrolling view): its contribution stays at
        /// what it was then.
        var stopped: Double = .infinity

        func progress(at time: Double) -> Double {
            guard time >= start else { return 0 }
            guard let curve else { return 1 }
            let t = min(time, stopped)
            return t >= end ? 1 : curve.progress(elapsed: t - start)
        }
    }

    private let initial: Double
    private var changes: [Change] = []
    /// The model value: where the value ends up once everything running has finished.
    public private(set) var target: Double

    public init(_ value: Double) {
        initial = value
        target = value
    }

    /// Moves to `newTarget` at absolute time `time`; without a curve the change is immediate.
    /// A spring settles by the rule of docs/fixtures/README.md "Common fields" in canvas terms: `pointsPerUnit` says how many points
    /// on screen one unit of this value moves (a progress value moves a whole card), and
    /// `pixelsPerPoint` is the canvas scale. Returns how long the new change runs (0 when it is
    /// immediate or moves nothing).
    @discardableResult
    public mutating func set(
        _ newTarget: Double, at time: Double, curve: AnimationCurve?, pixelsPerPoint: Double = 1,
        pointsPerUnit: Double = 1
    ) -> Double {
        let delta = newTarget - target
        guard delta != 0 else { return 0 }
        target = newTarget
        guard let curve else {
            changes.append(Change(start: time, delta: delta, curve: nil, end: time))
            return 0
        }
        let duration = curve.duration(distance: delta * pointsPerUnit, pixelsPerPoint: pixelsPerPoint)
        changes.append(Change(start: time, delta: delta, curve: duration > 0 ? curve : nil, end: time + duration))
        return duration
    }

    /// Jumps to `value` at `time`, freezing whatever was running there: from then on the value is
    /// exactly `value` (until later changes). Earlier times keep their values.
    public mutating func jump(to value: Double, at time: Double) {
        for i in changes.indices where changes[i].end > time && changes[i].start < time {
            changes[i].stopped = min(changes[i].stopped, time)
        }
        let current = self.value(at: time)
        changes.append(Change(start: time, delta: value - current, curve: nil, end: time))
        target = value
    }

    /// The presented value at absolute time `time`.
    public func value(at time: Double) -> Double {
        var v = initial
        for c in changes { v += c.delta * c.progress(at: time) }
        return v
    }

    /// When the last animation ends (or -infinity when nothing ever ran).
    public var endTime: Double {
        changes.filter { $0.curve != nil }.map { min($0.end, $0.stopped) }.max() ?? -Double.infinity
    }
}
