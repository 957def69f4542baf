/// A value animated the SwiftUI way: the model value jumps to each new target at once, and every
/// animation still running adds its remaining part on top (`delta x (1 - progress)`). An
/// interrupted animation is therefore never cancelled: it finishes underneath the new one.
public struct AnimatedValue: Sendable, Hashable {
    struct Running: Sendable, Hashable {
        var start: Double
        var from: Double
        var to: Double
        var curve: AnimationCurve
        var end: Double
    }

    public private(set) var target: Double
    private var running: [Running] = []

    public init(_ value: Double) { target = value }

    /// Moves to `newTarget` at absolute time `time`; without a curve the change is immediate.
    /// A spring settles by SPEC §3.3's rule in canvas terms: `pointsPerUnit` says how many points
    /// on screen one unit of this value moves (a progress value moves a whole card), and
    /// `pixelsPerPoint` is the canvas scale.
    public mutating func set(_ newTarget: Double, at time: Double, curve: AnimationCurve?, pixelsPerPoint: Double = 1,
                             pointsPerUnit: Double = 1) {
        // Finished animations are kept: value(at:) must stay right for earlier times too, and a
        // finished one contributes nothing (progress 1).
        defer { target = newTarget }
        guard let curve, newTarget != target else { return }
        let duration = curve.duration(distance: (newTarget - target) * pointsPerUnit, pixelsPerPoint: pixelsPerPoint)
        guard duration > 0 else { return }
        running.append(Running(start: time, from: target, to: newTarget, curve: curve, end: time + duration))
    }

    /// The presented value at absolute time `time`: the starting value plus each animation's
    /// `delta x progress`; one that has not started yet contributes nothing.
    public func value(at time: Double) -> Double {
        var v = target
        for r in running {
            let elapsed = time - r.start
            if elapsed >= r.end - r.start { continue }
            let p = elapsed <= 0 ? 0 : r.curve.progress(elapsed: elapsed)
            v -= (r.to - r.from) * (1 - p)
        }
        return v
    }

    /// When the last running animation ends (or -infinity when nothing runs).
    public var endTime: Double { running.map(\.end).max() ?? -Double.infinity }
}
