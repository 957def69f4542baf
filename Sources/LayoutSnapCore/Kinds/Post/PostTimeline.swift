extension PostRules {
    /// Every state and frame of a post fixture. The expansion progress f is one AnimatedValue
    /// driven by the steps; the text was measured once in `init`, so each frame is arithmetic.
    public func states(fps: Double, palette: Palette) throws(LayoutError) -> [StateLayout] {
        var f = AnimatedValue(post.expanded ? 1 : 0)
        var schedules = [Timeline.Schedule(start: 0, settle: 0)]
        var names = ["initial"]
        // Each state is drawn with f as its own step left it (see TranscriptRules).
        var snapshots = [f]
        var motions: [StepMotion?] = [nil]
        for (i, step) in post.steps.enumerated() {
            let start = Timeline.stepStart(after: schedules[schedules.count - 1], at: step.at, running: f.endTime)
            // f = 1 moves the card's bottom by the whole height difference.
            let runs = f.set(
                step.event == .expand ? 1 : 0, at: start, curve: post.curve, pixelsPerPoint: canvas.scale,
                pointsPerUnit: max(abs(expandedCardHeight - style.compactHeight), 1))
            motions.append(runs > 0 ? StepMotion(curve: post.curve, seconds: runs) : nil)
            schedules.append(Timeline.Schedule(start: start, settle: max(start, f.endTime)))
            names.append(StateNaming.name(index: i + 1, event: step.event.rawValue))
            snapshots.append(f)
        }
        let samples = try Timeline.checkedSamples(schedules: schedules, fps: fps, advice: "lower fps or the durations")
        return Timeline.placingOnTimeline(
            schedules,
            names.indices.map { i in
                var state = StateLayout(
                    name: names[i],
                    frames: samples[i].map { s in
                        frame(index: s.index, time: s.time, f: snapshots[i].value(at: s.absolute), palette: palette)
                    })
                state.motion = motions[i]
                return state
            })
    }
}

/// A rule failure that is the fixture's fault (a limit), with the JSON path it concerns.
public struct LayoutError: Error, Sendable, Equatable {
    public var path: String
    public var message: String
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }
}

public enum StateNaming {
    /// `01-expand`, `02-collapse`, ... (docs/fixtures/README.md "Common fields").
    public static func name(index: Int, event: String) -> String {
        (index < 10 ? "0\(index)" : "\(index)") + "-" + event
    }
}

extension Double {
    var formattedCount: String {
        self < 1e15 ? String(Int(self)) : "more than 10^15"
    }
}
