// Causes: a run's failing frames grouped by what explains them (docs/review.md). A frame's
// signature is the set of its changes with element ids folded (`message:m10` → `message:*`) and
// deltas rounded to 0.01 pt; the change that covers the most frames forms the first cause with
// every frame that has it, and so on over the frames left. A cause never changes a verdict.

import LayoutSnapCore

/// One explanation shared by failing frames of a run.
public struct Cause: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// Elements moved, resized, appeared, disappeared or were restyled.
        case layout
        /// Content scrolled: every changed element moved together.
        case scrolled
        /// Layout identical; colours, glyphs or images differ.
        case pixelsOnly = "pixels-only"
        /// The canvas changed size.
        case size
        /// Frames new or removed because a state's timing changed.
        case timing
        /// Frames with no golden yet.
        case missing
        /// Pixels differ and no golden layout.json says where.
        case unexplained
    }

    /// One change of a signature: `message:*` `width` `+4.00`; `message:*` `appeared` (no delta).
    public struct Change: Codable, Sendable, Hashable, Comparable {
        public var element: String
        public var property: String
        public var delta: Double?

        public init(element: String, property: String, delta: Double? = nil) {
            self.element = element
            self.property = property
            self.delta = delta
        }

        /// `message:* width +4.00`, `message:* appeared`.
        public var description: String {
            "\(element) \(property)" + (delta.map { " " + LayoutSnapshot.signed($0) } ?? "")
        }

        public static func < (a: Change, b: Change) -> Bool {
            (a.element, a.property, a.delta ?? -.infinity) < (b.element, b.property, b.delta ?? -.infinity)
        }
    }

    /// 1 for the cause that explains the most frames.
    public var id: Int
    /// `message:* width +4.00, message:* x -4.00 (12 elements moved, pixels unchanged)`.
    public var summary: String
    public var kind: Kind
    /// Failing frames it explains, and the states and fixtures they are in.
    public var frames: Int
    public var states: Int
    public var fixtures: Int
    /// The changes most of its frames share, the defining one first.
    public var changes: [Change]

    public init(id: Int, summary: String, kind: Kind, frames: Int, states: Int, fixtures: Int, changes: [Change]) {
        self.id = id
        self.summary = summary
        self.kind = kind
        self.frames = frames
        self.states = states
        self.fixtures = fixtures
        self.changes = changes
    }
}

/// Groups failing frames into causes.
public enum CauseAnalysis {
    /// What grouping needs of one failing frame.
    public struct Frame: Sendable {
        public var fixture: String
        public var state: String
        public var kind: Cause.Kind
        /// The changes that may cause it (not those that are only their consequence).
        public var signature: [Cause.Change]
        /// Elements that only moved with their pixels unchanged (consequences).
        public var movedUnchanged: Int

        public init(
            fixture: String, state: String, kind: Cause.Kind, signature: [Cause.Change], movedUnchanged: Int = 0
        ) {
            self.fixture = fixture
            self.state = state
            self.kind = kind
            self.signature = signature
            self.movedUnchanged = movedUnchanged
        }
    }

    /// `message:m10` → `message:*`; ids without a colon are kept.
    public static func pattern(_ id: String) -> String {
        guard let colon = id.firstIndex(of: ":") else { return id }
        return id[...colon] + "*"
    }

    /// A failing frame's kind and signature, from its attribution; `missing` (no golden),
    /// `timing` (no counterpart in the other motion) and `unexplained` (no attribution) have fixed
    /// signatures.
    public static func frame(
        fixture: String, state: String, attribution: FrameAttribution?, missing: Bool = false,
        timing: Bool = false
    ) -> Frame {
        if missing {
            return Frame(
                fixture: fixture, state: state, kind: .missing,
                signature: [Cause.Change(element: "frame", property: "no golden")])
        }
        if timing {
            return Frame(
                fixture: fixture, state: state, kind: .timing,
                signature: [Cause.Change(element: "frame", property: "timing")])
        }
        guard let a = attribution else {
            return Frame(
                fixture: fixture, state: state, kind: .unexplained,
                signature: [Cause.Change(element: "frame", property: "pixels")])
        }
        var primary = Set<Cause.Change>()
        var consequences = Set<Cause.Change>()
        var movedUnchanged = 0
        for e in a.elements {
            let p = pattern(e.id)
            switch e.change {
            case .appeared, .disappeared, .restyled:
                primary.insert(Cause.Change(element: p, property: e.change.rawValue))
            case .resized:
                for (name, d) in [("width", e.dw), ("height", e.dh), ("x", e.dx), ("y", e.dy)] where d != 0 {
                    primary.insert(Cause.Change(element: p, property: name, delta: d))
                }
            case .moved:
                for (name, d) in [("x", e.dx), ("y", e.dy)] where d != 0 {
                    if e.pixelsUnchanged == true {
                        consequences.insert(Cause.Change(element: p, property: name, delta: d))
                    } else {
                        primary.insert(Cause.Change(element: p, property: name, delta: d))
                    }
                }
                if e.pixelsUnchanged == true { movedUnchanged += 1 }
            }
        }
        switch a.kind {
        case .scrolled:
            return Frame(
                fixture: fixture, state: state, kind: .scrolled,
                signature: [Cause.Change(element: "content", property: "scrolled", delta: a.dy ?? 0)])
        case .size:
            let g = a.goldenSize ?? [0, 0]
            let n = a.actualSize ?? [0, 0]
            var signature: [Cause.Change] = []
            if g.count == 2, n.count == 2 {
                if n[0] != g[0] {
                    signature.append(Cause.Change(element: "canvas", property: "width px", delta: Double(n[0] - g[0])))
                }
                if n[1] != g[1] {
                    signature.append(Cause.Change(element: "canvas", property: "height px", delta: Double(n[1] - g[1])))
                }
            }
            return Frame(
                fixture: fixture, state: state, kind: .size,
                signature: signature.isEmpty ? [Cause.Change(element: "canvas", property: "size")] : signature)
        case .pixelsOnly:
            return Frame(
                fixture: fixture, state: state, kind: .pixelsOnly,
                signature: primary.isEmpty
                    ? [Cause.Change(element: "background", property: "restyled")] : primary.sorted())
        case .layout:
            let signature = primary.isEmpty ? consequences : primary
            return Frame(
                fixture: fixture, state: state, kind: .layout, signature: signature.sorted(),
                movedUnchanged: primary.isEmpty ? 0 : movedUnchanged)
        }
    }

    /// The causes, ranked by frames covered (then by their defining change), and the cause id of
    /// each frame, in order. `environment`: how the goldens' rendering environment differs from
    /// this one, named in pixels-only causes.
    public static func group(_ frames: [Frame], environment: [String] = []) -> (causes: [Cause], frameCauses: [Int]) {
        guard !frames.isEmpty else { return ([], []) }
        // Kinds never mix: a change is keyed with its frame's kind.
        struct Key: Hashable, Comparable {
            var kind: Cause.Kind
            var change: Cause.Change
            static func < (a: Key, b: Key) -> Bool { (a.kind.rawValue, a.change) < (b.kind.rawValue, b.change) }
        }
        var framesOf: [Key: [Int]] = [:]
        for (i, frame) in frames.enumerated() {
            for change in Set(frame.signature) {
                framesOf[Key(kind: frame.kind, change: change), default: []].append(i)
            }
        }
        var remaining = framesOf.mapValues(\.count)
        var owner = [Int](repeating: -1, count: frames.count)
        var groups: [(key: Key, members: [Int])] = []
        while true {
            // The change that covers the most frames not yet explained.
            guard let best = remaining.filter({ $0.value > 0 }).max(by: { ($0.value, $1.key) < ($1.value, $0.key) })
            else { break }
            var members: [Int] = []
            for i in framesOf[best.key]! where owner[i] < 0 {
                owner[i] = groups.count
                members.append(i)
                for change in Set(frames[i].signature) { remaining[Key(kind: frames[i].kind, change: change)]! -= 1 }
            }
            groups.append((best.key, members))
        }
        // Ranked by frames covered; equal ones keep the order they were found in.
        let order = groups.indices.sorted { (groups[$1].members.count, $0) < (groups[$0].members.count, $1) }
        var idOfGroup = [Int](repeating: 0, count: groups.count)
        var causes: [Cause] = []
        for (rank, g) in order.enumerated() {
            idOfGroup[g] = rank + 1
            let (key, members) = groups[g]
            // Besides the defining change, those that at least half of its frames share.
            var tally: [Cause.Change: Int] = [:]
            for i in members { for change in Set(frames[i].signature) { tally[change, default: 0] += 1 } }
            let shared = tally.filter { $0.key != key.change && $0.value * 2 >= members.count }
                .sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map(\.key)
            let changes = [key.change] + shared.prefix(5)
            let moved = members.reduce(0) { $0 + frames[$1].movedUnchanged }
            let states = Set(members.map { frames[$0].fixture + "\u{0}" + frames[$0].state }).count
            let fixtures = Set(members.map { frames[$0].fixture }).count
            causes.append(
                Cause(
                    id: rank + 1,
                    summary: summary(
                        key.kind, changes: changes, movedUnchanged: moved, frames: members.count,
                        environment: environment),
                    kind: key.kind, frames: members.count, states: states, fixtures: fixtures, changes: changes))
        }
        return (causes, owner.map { idOfGroup[$0] })
    }

    static func summary(
        _ kind: Cause.Kind, changes: [Cause.Change], movedUnchanged: Int, frames: Int, environment: [String]
    ) -> String {
        switch kind {
        case .missing: return "no golden yet (new frames)"
        case .timing: return "frames new or removed by a timing change"
        case .unexplained: return "pixels differ; no golden layout.json says where"
        case .scrolled:
            return "content scrolled " + LayoutSnapshot.signed(changes.first?.delta ?? 0) + " pt, nothing else changed"
        case .size:
            return "canvas size: "
                + changes.map {
                    "\($0.property.replacingOccurrences(of: " px", with: "")) \(LayoutSnapshot.signed($0.delta ?? 0)) px"
                }
                .joined(separator: ", ")
        case .pixelsOnly:
            let what = changes.map { $0.element == "background" ? "background" : $0.element }.joined(separator: ", ")
            let elsewhere =
                environment.isEmpty
                ? "" : " (the goldens were recorded elsewhere: \(environment.joined(separator: "; ")))"
            return "pixels only, layout identical: \(what)\(elsewhere)"
        case .layout:
            var text = changes.map(\.description).joined(separator: ", ")
            if movedUnchanged > 0 {
                text +=
                    " (\(Plural.count(movedUnchanged, "element")) moved, pixels unchanged, in \(Plural.count(frames, "frame")))"
            }
            return text
        }
    }
}
