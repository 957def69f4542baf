import LayoutSnapCore
import Foundation

/// One state's motion: the time of each frame and, for every element property that has a number
/// (x, y, width, height, opacity, revealed, lines, ..., and the scroll offset), its value in each
/// frame (nil where the element is absent). Built from a layout, or from a golden layout.json, so
/// a changed animation is explained from geometry alone, without pixels.
public struct StateMotion: Sendable, Hashable {
    public var times: [Double]
    /// "card.height" → one value per frame.
    public var tracks: [String: [Double?]]

    public init(times: [Double], tracks: [String: [Double?]]) {
        self.times = times
        self.tracks = tracks
    }

    /// From frames as layout.json stores them: values rounded to hundredths, as the golden's are,
    /// so an unchanged motion compares equal.
    public init(_ frames: [LayoutFrame]) {
        times = frames.map(\.time)
        var tracks: [String: [Double?]] = [:]
        for (i, frame) in frames.enumerated() {
            func put(_ key: String, _ value: Double) {
                if tracks[key] == nil { tracks[key] = Array(repeating: nil, count: frames.count) }
                tracks[key]![i] = LayoutSnapshot.rounded(value)
            }
            for element in frame.elements {
                put(element.id + ".x", element.rect.x)
                put(element.id + ".y", element.rect.y)
                put(element.id + ".width", element.rect.width)
                put(element.id + ".height", element.rect.height)
                for (key, value) in element.attributes {
                    switch value {
                    case .number(let n): put(element.id + "." + key, n)
                    case .int(let n): put(element.id + "." + key, Double(n))
                    case .bool(let b): put(element.id + "." + key, b ? 1 : 0)
                    default: break
                    }
                }
            }
            if let scroll = frame.scroll { put("scroll.offset", scroll.offset) }
        }
        self.tracks = tracks
    }

    /// The element ids that appear in any frame.
    var elements: Set<String> { Set(tracks.keys.map(Self.element)) }

    static func element(_ key: String) -> String { String(key[..<(key.lastIndex(of: ".") ?? key.endIndex)]) }
    static func property(_ key: String) -> String {
        guard let dot = key.lastIndex(of: ".") else { return key }
        return String(key[key.index(after: dot)...])
    }
}

/// What changed in a state's motion between its golden and now (docs/report.md "Motion").
public struct MotionReport: Codable, Sendable, Hashable {
    /// Frame counts, [expected, actual].
    public var frames: [Int]
    /// The last frame's time in seconds, [expected, actual].
    public var duration: [Double]
    /// Frames the same motion starts later (positive) or earlier, when the tracks agree after it.
    public var shift: Int?
    /// Every actual frame and every unpaired expected frame: [expectedIndex or nil, actualIndex or nil].
    public var pairs: [[Int?]]
    /// Every kind that applies: duration, shift, curve, start, end, appeared, disappeared.
    public var kinds: [String]
    public var changes: [MotionChange]
    /// The fixture's timing tolerance covers the change: the tracks match after a shift of at
    /// most that many frames and the end states are the same, so the state is similar, not failed.
    public var tolerated: Bool
    /// Each frame's time, [expected, actual], and the values of every changed track ("card.height"
    /// → [expected, actual]), for the report's plots.
    public var times: [[Double]]
    public var tracks: [String: [[Double?]]]

    public init(
        frames: [Int], duration: [Double], shift: Int?, pairs: [[Int?]], kinds: [String], changes: [MotionChange],
        tolerated: Bool = false, times: [[Double]] = [], tracks: [String: [[Double?]]] = [:]
    ) {
        self.frames = frames
        self.duration = duration
        self.shift = shift
        self.pairs = pairs
        self.kinds = kinds
        self.changes = changes
        self.tolerated = tolerated
        self.times = times
        self.tracks = tracks
    }

    /// Whether frames are paired other than by index: then the verdict and the report's views
    /// compare each frame with its counterpart, and some frames have none.
    public var repaired: Bool { pairs.enumerated().contains { i, pair in pair[0] != pair[1] || pair[1] != i } }

    private enum CodingKeys: String, CodingKey {
        case frames, duration, shift, pairs, kinds, changes, tolerated, times, tracks, summary
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        frames = try c.decode([Int].self, forKey: .frames)
        duration = try c.decode([Double].self, forKey: .duration)
        shift = try c.decodeIfPresent(Int.self, forKey: .shift)
        pairs = try c.decode([[Int?]].self, forKey: .pairs)
        kinds = try c.decode([String].self, forKey: .kinds)
        changes = try c.decode([MotionChange].self, forKey: .changes)
        tolerated = try c.decodeIfPresent(Bool.self, forKey: .tolerated) ?? false
        times = try c.decodeIfPresent([[Double]].self, forKey: .times) ?? []
        tracks = try c.decodeIfPresent([String: [[Double?]]].self, forKey: .tracks) ?? [:]
    }

    /// `shift` is written as null when there is none, so every report has the same keys; `summary`
    /// is the terminal's line, for the HTML report (derived, not read back).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(frames, forKey: .frames)
        try c.encode(duration, forKey: .duration)
        try c.encode(shift, forKey: .shift)
        try c.encode(pairs, forKey: .pairs)
        try c.encode(kinds, forKey: .kinds)
        try c.encode(changes, forKey: .changes)
        try c.encode(tolerated, forKey: .tolerated)
        try c.encode(times, forKey: .times)
        try c.encode(tracks, forKey: .tracks)
        try c.encode(description, forKey: .summary)
    }

    /// The terminal's line: "duration 19 → 22 frames, 0.30 → 0.35 s; card.height: curve changed, ...".
    public var description: String {
        var parts: [String] = []
        if kinds.contains("duration") {
            parts.append(
                "duration \(frames[0]) → \(Plural.count(frames[1], "frame")), \(Self.seconds(duration[0])) → \(Self.seconds(duration[1])) s"
            )
        }
        if let shift {
            parts.append("starts \(Plural.count(abs(shift), "frame")) \(shift > 0 ? "later" : "earlier")")
        }
        for change in changes.prefix(4) { parts.append(change.description) }
        if changes.count > 4 { parts.append("\(changes.count - 4) more") }
        if tolerated, let shift {
            parts.append("within the timing tolerance (\(Plural.count(abs(shift), "frame")))")
        }
        return parts.joined(separator: "; ")
    }

    static func seconds(_ v: Double) -> String { String(format: "%.2f", v) }
}

public struct MotionChange: Codable, Sendable, Hashable {
    public var element: String
    /// nil for an element that appeared or disappeared.
    public var property: String?
    /// curve, start, end, appeared, disappeared.
    public var kind: String
    /// The largest difference, actual - expected (points, or the property's unit).
    public var largest: Double?
    /// The actual frame where it is largest.
    public var atFrame: Int?
    /// The known curve the actual track follows, when it follows one.
    public var curve: String?

    public init(
        element: String, property: String? = nil, kind: String, largest: Double? = nil, atFrame: Int? = nil,
        curve: String? = nil
    ) {
        self.element = element
        self.property = property
        self.kind = kind
        self.largest = largest
        self.atFrame = atFrame
        self.curve = curve
    }

    public var description: String {
        let name = property.map { "\(element).\($0)" } ?? element
        switch kind {
        case "appeared": return "\(name) appeared"
        case "disappeared": return "\(name) disappeared"
        case "start", "end": return "\(name) \(kind) \(LayoutSnapshot.signed(largest ?? 0))"
        default:
            var text = "\(name): curve changed"
            if let largest, let atFrame { text += ", largest \(LayoutSnapshot.signed(largest)) at frame \(atFrame)" }
            if let curve { text += " (now \(curve))" }
            return text
        }
    }
}

public enum MotionAnalysis {
    /// Values closer than this are the same (layout.json keeps hundredths).
    public static let tolerance = 0.011
    /// At most this many tracks are kept for the report's plots (a chat of 200 moving bubbles
    /// would otherwise store them all in results.json).
    public static let maxPlots = 24

    /// The change from `expected` to `actual`, or nil when every track is the same: then motion
    /// is not the story (colour, text or an image changed) and no kind is reported.
    /// `timingFrames`: the fixture's timing tolerance, the largest shift that is only similar.
    /// A state of one frame, then and now, has no motion: what changed in it is a layout change
    /// (the frame's `layoutChanges`), so it has no report either.
    public static func compare(expected e: StateMotion, actual a: StateMotion, timingFrames: Int = 0) -> MotionReport? {
        if e.times.count <= 1 && a.times.count <= 1 { return nil }
        var changes: [MotionChange] = []
        var kinds = Set<String>()
        let before = e.elements
        let after = a.elements
        for id in after.subtracting(before).sorted() {
            changes.append(MotionChange(element: id, kind: "appeared"))
            kinds.insert("appeared")
        }
        for id in before.subtracting(after).sorted() {
            changes.append(MotionChange(element: id, kind: "disappeared"))
            kinds.insert("disappeared")
        }
        let common = Set(e.tracks.keys).intersection(a.tracks.keys).filter {
            before.contains(StateMotion.element($0)) && after.contains(StateMotion.element($0))
        }
        let keys = common.sorted()

        let sameCount = e.times.count == a.times.count
        let identical = sameCount && keys.allSatisfy { equal(e.tracks[$0]!, a.tracks[$0]!) }
        if identical && changes.isEmpty { return nil }

        let durationChanged = !sameCount || abs((e.times.last ?? 0) - (a.times.last ?? 0)) > 0.005
        if durationChanged { kinds.insert("duration") }
        let shift = identical ? nil : findShift(e, a, keys: keys)
        if shift != nil { kinds.insert("shift") }
        // A motion cut at another time (an interrupting step's `at` moved) is the same motion
        // frame for frame until the shorter one ends: pair by time, not by progress.
        let byTime =
            shift == nil && !sameCount
            && keys.allSatisfy { key in
                let ev = e.tracks[key]!
                let av = a.tracks[key]!
                let n = min(ev.count, av.count)
                return equal(Array(ev[..<n]), Array(av[..<n]))
            }

        for key in keys {
            let ev = e.tracks[key]!
            let av = a.tracks[key]!
            guard let e0 = ev.first(where: { $0 != nil }) ?? nil, let a0 = av.first(where: { $0 != nil }) ?? nil,
                let e1 = ev.last(where: { $0 != nil }) ?? nil, let a1 = av.last(where: { $0 != nil }) ?? nil
            else { continue }
            let element = StateMotion.element(key)
            let property = StateMotion.property(key)
            if abs(a0 - e0) > tolerance {
                changes.append(MotionChange(element: element, property: property, kind: "start", largest: a0 - e0))
                kinds.insert("start")
            }
            if abs(a1 - e1) > tolerance {
                changes.append(MotionChange(element: element, property: property, kind: "end", largest: a1 - e1))
                kinds.insert("end")
            }
            guard shift == nil, !byTime, abs(a0 - e0) <= tolerance, abs(a1 - e1) <= tolerance, e1 != e0 || a1 != a0
            else { continue }
            // Same start and end: compare the shapes, frame by frame when the counts agree, else
            // at the same fraction of the state's time (between two expected frames the
            // expected value is only known to within part of that step).
            let named = knownCurve(times: a.times, values: av)
            if !sameCount, let named, named == knownCurve(times: e.times, values: ev) { continue }
            var largest = 0.0
            var at = 0
            var beyond = false
            for (i, value) in av.enumerated() {
                guard let value,
                    let (expected, step) = valueAt(e, ev, fraction: sameCount ? nil : fraction(a, i), index: i)
                else { continue }
                let difference = value - expected
                if abs(difference) > tolerance * 2 + step / 2 { beyond = true }
                if abs(difference) > abs(largest) {
                    largest = difference
                    at = i
                }
            }
            guard beyond else { continue }
            changes.append(
                MotionChange(
                    element: element, property: property, kind: "curve", largest: largest, atFrame: at, curve: named))
            kinds.insert("curve")
        }
        let order = ["duration", "shift", "curve", "start", "end", "appeared", "disappeared"]
        // The biggest changes first (the terminal shows four): elements that came or went, then
        // by size; ties by name, so the order is stable.
        func weight(_ c: MotionChange) -> Double { c.largest.map(abs) ?? .infinity }
        changes.sort {
            weight($0) != weight($1)
                ? weight($0) > weight($1)
                : ($0.element, $0.property ?? "", $0.kind) < ($1.element, $1.property ?? "", $1.kind)
        }
        // Similar, not failed: the same motion moved by at most the tolerance, ending where it did.
        let tolerated =
            shift.map { abs($0) <= timingFrames } == true && changes.isEmpty
            && keys.allSatisfy { key in
                let ev = e.tracks[key]!
                let av = a.tracks[key]!
                return equal([ev.last ?? nil], [av.last ?? nil])
            }
        // Plots: each changed track, biggest change first; when the timing changed, every moving
        // track too (the new timing is theirs).
        var plotted: [String] = []
        for c in changes {
            if let p = c.property, !plotted.contains(c.element + "." + p) { plotted.append(c.element + "." + p) }
        }
        if durationChanged || shift != nil {
            for key in keys
            where !plotted.contains(key)
                && (Set(e.tracks[key]!.compactMap { $0 }).count > 1 || Set(a.tracks[key]!.compactMap { $0 }).count > 1)
            {
                plotted.append(key)
            }
        }
        var tracks: [String: [[Double?]]] = [:]
        for key in plotted.prefix(maxPlots) { tracks[key] = [e.tracks[key]!, a.tracks[key]!] }
        return MotionReport(
            frames: [e.times.count, a.times.count], duration: [e.times.last ?? 0, a.times.last ?? 0], shift: shift,
            pairs: pairs(e, a, shift: byTime ? 0 : shift), kinds: order.filter(kinds.contains), changes: changes,
            tolerated: tolerated, times: [e.times, a.times], tracks: tracks)
    }

    static func equal(_ x: [Double?], _ y: [Double?]) -> Bool {
        x.count == y.count
            && zip(x, y).allSatisfy { p in
                switch p {
                case (nil, nil): true
                case (let u?, let v?): abs(u - v) <= tolerance
                default: false
                }
            }
    }

    /// The smallest shift k ≠ 0 with actual frame i matching expected frame i - k in every track
    /// that moves, over at least two frames, the frames outside the overlap holding the first or
    /// last value (a motion that starts or ends k frames later).
    static func findShift(_ e: StateMotion, _ a: StateMotion, keys: [String]) -> Int? {
        let moving = keys.filter { k in
            Set(e.tracks[k]!.compactMap { $0 }).count > 1 || Set(a.tracks[k]!.compactMap { $0 }).count > 1
        }
        guard !moving.isEmpty else { return nil }
        let limit = max(e.times.count, a.times.count) - 2
        guard limit >= 1 else { return nil }
        for magnitude in 1...limit {
            for k in [magnitude, -magnitude] {
                let ok = moving.allSatisfy { key in
                    let ev = e.tracks[key]!
                    let av = a.tracks[key]!
                    var overlap = 0
                    for i in av.indices {
                        let j = i - k
                        let expected: Double?? =
                            j < 0 ? .some(ev.first ?? nil) : j >= ev.count ? .some(ev.last ?? nil) : .some(ev[j])
                        if j >= 0 && j < ev.count { overlap += 1 }
                        switch (expected!, av[i]) {
                        case (nil, nil): continue
                        case (let x?, let y?) where abs(x - y) <= tolerance: continue
                        default: return false
                        }
                    }
                    return overlap >= 2
                }
                if ok { return k }
            }
        }
        return nil
    }

    /// How far frame i is through its state's time (0 at the first frame, 1 at the last).
    static func fraction(_ m: StateMotion, _ i: Int) -> Double {
        guard let last = m.times.last, let first = m.times.first, last > first else {
            return m.times.count > 1 ? Double(i) / Double(m.times.count - 1) : 0
        }
        return (m.times[i] - first) / (last - first)
    }

    /// The expected value to compare with actual frame `index`: the same frame (nil fraction), or
    /// the value at a fraction of the state's time, linearly between frames, with the size of the
    /// step between those two frames (how far off a straight line between them can be).
    static func valueAt(_ m: StateMotion, _ values: [Double?], fraction u: Double?, index: Int) -> (Double, Double)? {
        guard let u else { return index < values.count ? values[index].map { ($0, 0) } : nil }
        guard values.count > 1 else { return (values.first ?? nil).map { ($0, 0) } }
        let fractions = values.indices.map { fraction(m, $0) }
        guard let upper = fractions.firstIndex(where: { $0 >= u - 1e-9 }) else {
            return (values.last ?? nil).map { ($0, 0) }
        }
        if upper == 0 || abs(fractions[upper] - u) < 1e-9 { return values[upper].map { ($0, 0) } }
        guard let v0 = values[upper - 1], let v1 = values[upper] else { return values[upper].map { ($0, 0) } }
        let w = (u - fractions[upper - 1]) / (fractions[upper] - fractions[upper - 1])
        return (v0 + (v1 - v0) * w, abs(v1 - v0))
    }

    /// Every actual frame with its counterpart, one to one: the same index when the counts agree,
    /// i - shift when a shift was found (0: the same time, for a motion cut earlier or later),
    /// else by the fraction of the state's time, each frame of the sparser side taking the
    /// nearest free frame of the denser one. Frames left over have no counterpart: an actual one
    /// is paired with nil (new), an expected one follows as [j, nil] (removed). So a motion with
    /// another frame count always has a frame without a counterpart.
    static func pairs(_ e: StateMotion, _ a: StateMotion, shift: Int?) -> [[Int?]] {
        var expectedFor = [Int?](repeating: nil, count: a.times.count)
        if let shift {
            for i in a.times.indices where (0..<e.times.count).contains(i - shift) { expectedFor[i] = i - shift }
        } else if e.times.count == a.times.count {
            for i in a.times.indices { expectedFor[i] = i }
        } else {
            let denserIsActual = a.times.count > e.times.count
            let (sparse, dense) = denserIsActual ? (e, a) : (a, e)
            var taken = Set<Int>()
            for k in sparse.times.indices {
                let u = fraction(sparse, k)
                guard
                    let nearest = dense.times.indices.filter({ !taken.contains($0) })
                        .min(by: { abs(fraction(dense, $0) - u) < abs(fraction(dense, $1) - u) })
                else { continue }
                taken.insert(nearest)
                if denserIsActual { expectedFor[nearest] = k } else { expectedFor[k] = nearest }
            }
        }
        var pairs: [[Int?]] = a.times.indices.map { [expectedFor[$0], $0] }
        let used = Set(expectedFor.compactMap { $0 })
        for j in e.times.indices where !used.contains(j) { pairs.append([j, nil]) }
        return pairs
    }

    /// The name of the known curve a track follows from its first to its last value, if any:
    /// linear, easeIn, easeOut, easeInOut over the state's time, the default spring or the
    /// keyboard's (the last frame of a spring lands on its target: it is left out).
    public static func knownCurve(times: [Double], values: [Double?]) -> String? {
        let points = zip(times, values).compactMap { t, v in v.map { (t - times[0], $0) } }
        guard points.count >= 3, let v0 = points.first?.1, let v1 = points.last?.1, abs(v1 - v0) > 0.5 else {
            return nil
        }
        let total = points.last!.0
        guard total > 0 else { return nil }
        // Hundredths of a point on the values: the shape's own tolerance grows for short moves.
        let tolerance = max(0.01, 0.02 / abs(v1 - v0))
        func follows(_ curve: (Double) -> Double, skipLast: Bool) -> Bool {
            let checked = skipLast ? points.dropLast() : points[...]
            return checked.allSatisfy { t, v in abs((v - v0) / (v1 - v0) - curve(t)) <= tolerance }
        }
        let timings: [(String, CubicBezier)] = [
            ("linear", .linear), ("easeIn", .easeIn), ("easeOut", .easeOut), ("easeInOut", .easeInOut),
        ]
        for (name, bezier) in timings where follows({ bezier.value(at: $0 / total) }, skipLast: false) { return name }
        let springs: [(String, Spring)] = [("the default spring", .default), ("the keyboard spring", Keyboard.spring)]
        for (name, spring) in springs where follows({ spring.step(at: $0).position }, skipLast: true) { return name }
        return nil
    }
}
