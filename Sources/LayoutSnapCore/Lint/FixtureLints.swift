/// `--lint`: whether verify lints its frames, and whether a finding fails the run.
public enum LintMode: String, Sendable, CaseIterable {
    /// No lints are computed.
    case off
    /// Findings are reported; they do not change the exit code (verify's default).
    case warn
    /// A finding not ignored fails the run (exit 1), as `layoutsnap lint` does.
    case error
}

/// A fixture's lint findings, frame by frame, with its ignores and the built-in design's accepted
/// findings (`BuiltInDesign`) applied.
public struct FixtureLints: Sendable {
    /// Per state (in the layout's order), per frame: what was found and not ignored.
    public var frames: [[[LintFinding]]]
    /// Findings the fixture's `lint.ignore` (or the project's) left out.
    public var ignored: Int
    /// Findings the built-in design accepts (`BuiltInDesign.accepted`) that no ignore covered.
    public var accepted: Int = 0

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
        var accepted = 0
        let kind = fixture.kind.rawValue
        // The built-in design's own colours, whatever the fixture is drawn with: its entries
        // accept what it draws, never a theme's.
        let palette = Theme.default.palette(fixture.appearance)
        let builtInGeometry = BuiltInDesign.hasBuiltInGeometry(fixture.theme, kind: kind)
        var frames: [[[LintFinding]]] = []
        for state in layout.states {
            var perFrame: [[LintFinding]] = []
            for (i, frame) in state.frames.enumerated() {
                try check()
                let settled = i == state.frames.count - 1 && !state.interrupted
                let found = try linter.lint(frame, settled: settled)
                let own = found.filter { finding in !fixture.lintIgnores.contains { $0.covers(finding) } }
                let kept = own.filter {
                    BuiltInDesign.acceptance(
                        for: $0, kind: kind, palette: palette, settled: settled, builtInGeometry: builtInGeometry)
                        == nil
                }
                ignored += found.count - own.count
                accepted += own.count - kept.count
                perFrame.append(kept)
            }
            frames.append(perFrame)
        }
        return FixtureLints(frames: frames, ignored: ignored, accepted: accepted)
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
    /// The frame the worst finding is in.
    public var worstFrame: Int

    /// `frame 3` or `frames 2-8`.
    public var frames: String { first == last ? "frame \(first)" : "frames \(first)-\(last)" }

    /// How many frames it covers, each with one finding.
    public var count: Int { last - first + 1 }

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
                    if f.amount > r.worst.amount {
                        r.worst = f
                        r.worstFrame = index
                    }
                    open[key] = r
                } else {
                    if let r = open[key] { done.append(r) }
                    open[key] = LintRange(state: state, first: index, last: index, worst: f, worstFrame: index)
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

/// A fixture's findings of one rule, over every element, frame and state: how the terminal speaks
/// of them unless asked for each (`--verbose`): `contrast: 51 findings on 12 elements in 8 frames
/// of 8 states`, quoting the worst.
public struct LintGroup: Sendable, Hashable {
    public var rule: LintRule
    /// Findings, one per frame for each element (or pair) found in it: the ranges' frames summed.
    public var findings: Int
    /// The distinct element sets found (`["body", "summary"]` is one).
    public var elements: Int
    /// The frames by state, in the order the states came.
    public var frames: [StateFrames]
    /// The worst finding, its state and frame.
    public var worst: LintFinding
    public var worstState: String
    public var worstFrame: Int

    public struct StateFrames: Sendable, Hashable {
        public var state: String
        /// In order, each once.
        public var indices: [Int]

        public init(state: String, indices: [Int]) {
            self.state = state
            self.indices = indices
        }
    }

    /// One group per rule, in the order of `LintRule.allCases`, from a fixture's ranges.
    public static func groups(_ ranges: [LintRange]) -> [LintGroup] {
        LintRule.allCases.compactMap { rule in
            let ofRule = ranges.filter { $0.worst.rule == rule }
            guard var worst = ofRule.first else { return nil }
            var frames: [StateFrames] = []
            var elements = Set<[String]>()
            for range in ofRule {
                if range.worst.amount > worst.worst.amount { worst = range }
                elements.insert(range.worst.elements)
                if let i = frames.firstIndex(where: { $0.state == range.state }) {
                    frames[i].indices += Array(range.first...range.last)
                } else {
                    frames.append(StateFrames(state: range.state, indices: Array(range.first...range.last)))
                }
            }
            for i in frames.indices { frames[i].indices = Array(Set(frames[i].indices)).sorted() }
            return LintGroup(
                rule: rule, findings: ofRule.reduce(0) { $0 + $1.count }, elements: elements.count, frames: frames,
                worst: worst.worst, worstState: worst.state, worstFrame: worst.worstFrame)
        }
    }
}
