/// `--lint`: whether verify lints its frames, and whether a finding fails the run.
public enum LintMode: String, Sendable, CaseIterable {
    /// No lints are computed.
    case off
    /// Findings are reported; they do not change the exit code (verify's default).
    case warn
    /// A finding not ignored fails the run (exit 1), as `layoutsnap lint` does.
    case error
}

/// A fixture's lint findings, frame by frame, with its ignores applied.
public struct FixtureLints: Sendable {
    /// Per state (in the layout's order), per frame: what was found and not ignored.
    public var frames: [[[LintFinding]]]
    /// Findings the fixture's `lint.ignore` left out.
    public var ignored: Int

    public var count: Int { frames.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } } }

    /// Lints every frame of `layout`. A state's last frame is its settled one, unless the next
    /// step interrupted it.
    /// `check` runs before each frame (verify's watchdog: a fixture's lints count towards its
    /// `--timeout`).
    public static func lint(
        _ fixture: Fixture, layout: FixtureLayout, measurer: some TextMeasuring,
        check: () throws -> Void = {}
    ) throws -> FixtureLints {
        let linter = LayoutLinter(kind: fixture.kind, canvas: layout.canvas, measurer: measurer)
        var ignored = 0
        var frames: [[[LintFinding]]] = []
        for state in layout.states {
            var perFrame: [[LintFinding]] = []
            for (i, frame) in state.frames.enumerated() {
                try check()
                let found = try linter.lint(frame, settled: i == state.frames.count - 1 && !state.interrupted)
                let kept = found.filter { finding in !fixture.lintIgnores.contains { $0.covers(finding) } }
                ignored += found.count - kept.count
                perFrame.append(kept)
            }
            frames.append(perFrame)
        }
        return FixtureLints(frames: frames, ignored: ignored)
    }
}

/// Findings of one rule about the same elements over consecutive frames of a state: how the
/// terminal and the annotations speak of them (`body overlaps summary by 14.2 pt in 01-expand
/// frames 2-8`, quoting the worst frame).
public struct LintRange: Sendable, Hashable {
    public var state: String
    public var first: Int
    public var last: Int
    public var worst: LintFinding

    /// `frame 3` or `frames 2-8`.
    public var frames: String { first == last ? "frame \(first)" : "frames \(first)-\(last)" }

    /// Groups per state: frames (index, findings) in order; a range breaks where a frame lacks the finding.
    public static func ranges(state: String, frames: [(index: Int, findings: [LintFinding])]) -> [LintRange] {
        var open: [String: LintRange] = [:]
        var done: [LintRange] = []
        var order: [String] = []
        var previous: Int?
        for (index, all) in frames {
            // One finding per rule and elements in a frame: the worst.
            var worstOf: [String: LintFinding] = [:]
            var keys: [String] = []
            for f in all {
                let key = f.rule.rawValue + "|" + f.elements.joined(separator: ",")
                if let w = worstOf[key] {
                    if f.amount > w.amount { worstOf[key] = f }
                } else {
                    worstOf[key] = f
                    keys.append(key)
                }
            }
            let findings = keys.map { worstOf[$0]! }
            var seen = Set<String>()
            for f in findings {
                let key = f.rule.rawValue + "|" + f.elements.joined(separator: ",")
                seen.insert(key)
                if var r = open[key], let previous, r.last == previous {
                    r.last = index
                    if f.amount > r.worst.amount { r.worst = f }
                    open[key] = r
                } else {
                    if let r = open[key] { done.append(r) }
                    open[key] = LintRange(state: state, first: index, last: index, worst: f)
                    if !order.contains(key) { order.append(key) }
                }
            }
            for key in Array(open.keys) where !seen.contains(key) {
                done.append(open.removeValue(forKey: key)!)
            }
            previous = index
        }
        done += open.values
        return done.sorted {
            ($0.first, order.firstIndex(of: $0.key) ?? 0) < ($1.first, order.firstIndex(of: $1.key) ?? 0)
        }
    }

    var key: String { worst.rule.rawValue + "|" + worst.elements.joined(separator: ",") }
}
