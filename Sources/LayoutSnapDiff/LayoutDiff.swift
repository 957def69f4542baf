/// Which elements moved or resized between a golden `layout.json` and the current layout, and by
/// how much: what a failing frame's report says next to its pixels ("body.y +4.00").

import LayoutSnapCore
import LayoutSnapJSON

public struct LayoutSnapshot: Sendable {
    /// state name → frame index → element id → rect.
    public var frames: [String: [Int: [(id: String, rect: Rect)]]]
    /// state name → its motion (every numeric property over time), for the motion diff.
    public var motion: [String: StateMotion] = [:]
    /// The states in order, their frames as stored (for preview's `--compare-goldens`); no
    /// start or interruption, which layout.json does not store.
    public var states: [StateLayout] = []
    /// The canvas layout.json names.
    public var canvas: Canvas?

    public init(frames: [String: [Int: [(id: String, rect: Rect)]]]) { self.frames = frames }

    public init(_ layout: FixtureLayout) {
        var frames: [String: [Int: [(id: String, rect: Rect)]]] = [:]
        for state in layout.states {
            var byIndex: [Int: [(id: String, rect: Rect)]] = [:]
            for frame in state.frames {
                // Rounded as layout.json stores them, so a golden read back compares equal.
                byIndex[frame.index] = frame.elements.map { ($0.id, LayoutSnapshot.rounded($0.rect)) }
            }
            frames[state.name] = byIndex
            motion[state.name] = StateMotion(state.frames)
        }
        self.frames = frames
    }

    /// Reads a stored `layout.json` (docs/commands.md "render, layout"). Unknown keys are ignored: this reads goldens that
    /// older or newer versions wrote, and a broken one only costs the layout part of a report.
    public static func parse(_ bytes: [UInt8]) -> LayoutSnapshot? {
        guard let root = try? JSONParser.parse(bytes), case .object(let members) = root.value,
            let states = members.first(where: { $0.key == "states" })?.value, case .array(let stateNodes) = states.value
        else { return nil }
        var frames: [String: [Int: [(id: String, rect: Rect)]]] = [:]
        var motion: [String: StateMotion] = [:]
        var ordered: [StateLayout] = []
        for stateNode in stateNodes {
            guard case .object(let s) = stateNode.value,
                case .string(let name)? = s.first(where: { $0.key == "name" })?.value.value,
                case .array(let frameNodes)? = s.first(where: { $0.key == "frames" })?.value.value
            else { continue }
            var byIndex: [Int: [(id: String, rect: Rect)]] = [:]
            var layoutFrames: [LayoutFrame] = []
            for frameNode in frameNodes {
                guard case .object(let f) = frameNode.value,
                    case .number(let index)? = f.first(where: { $0.key == "index" })?.value.value,
                    case .array(let elementNodes)? = f.first(where: { $0.key == "elements" })?.value.value
                else { continue }
                var elements: [(id: String, rect: Rect)] = []
                var layoutElements: [LayoutElement] = []
                for elementNode in elementNodes {
                    guard case .object(let e) = elementNode.value,
                        case .string(let id)? = e.first(where: { $0.key == "id" })?.value.value,
                        case .array(let r)? = e.first(where: { $0.key == "rect" })?.value.value, r.count == 4
                    else { continue }
                    let numbers = r.compactMap { node -> Double? in
                        if case .number(let n) = node.value { return n } else { return nil }
                    }
                    guard numbers.count == 4 else { continue }
                    let rect = Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
                    elements.append((id, rect))
                    // Numbers and booleans are what a motion track can follow.
                    let attributes = e.compactMap { member -> (key: String, value: LayoutValue)? in
                        guard member.key != "id", member.key != "rect" else { return nil }
                        switch member.value.value {
                        case .number(let n): return (member.key, .number(n))
                        case .bool(let b): return (member.key, .bool(b))
                        default: return nil
                        }
                    }
                    layoutElements.append(LayoutElement(id: id, rect: rect, attributes: attributes))
                }
                byIndex[Int(index)] = elements
                var time = 0.0
                if case .number(let t)? = f.first(where: { $0.key == "time" })?.value.value { time = t }
                var progress = 0.0
                if case .number(let p)? = f.first(where: { $0.key == "progress" })?.value.value { progress = p }
                var scroll: ScrollInfo?
                if case .object(let sc)? = f.first(where: { $0.key == "scroll" })?.value.value,
                    case .number(let offset)? = sc.first(where: { $0.key == "offset" })?.value.value
                {
                    scroll = ScrollInfo(offset: offset, contentHeight: 0, viewportHeight: 0, following: false)
                }
                layoutFrames.append(
                    LayoutFrame(
                        index: Int(index), time: time, progress: progress, elements: layoutElements, scroll: scroll,
                        drawList: []))
            }
            frames[name] = byIndex
            motion[name] = StateMotion(layoutFrames)
            ordered.append(StateLayout(name: name, frames: layoutFrames))
        }
        var snapshot = LayoutSnapshot(frames: frames)
        snapshot.motion = motion
        snapshot.states = ordered
        if case .object(let c)? = members.first(where: { $0.key == "canvas" })?.value.value {
            let number = { (key: String) -> Double? in
                guard case .number(let n)? = c.first(where: { $0.key == key })?.value.value else { return nil }
                return n
            }
            if let w = number("width"), let h = number("height"), let s = number("scale") {
                snapshot.canvas = Canvas(width: w, height: h, scale: s)
            }
        }
        return snapshot
    }

    /// A frame's elements as a stored layout.json gives them back (rounded to hundredths).
    public static func elements(_ frame: LayoutFrame) -> [(id: String, rect: Rect)] {
        frame.elements.map { ($0.id, rounded($0.rect)) }
    }

    static func rounded(_ r: Rect) -> Rect {
        Rect(x: rounded(r.x), y: rounded(r.y), width: rounded(r.width), height: rounded(r.height))
    }

    /// To hundredths, as layout.json stores numbers.
    static func rounded(_ v: Double) -> Double { (v * 100).rounded() / 100 }

    /// Changes from `golden` to `self` in one frame: `body.y +4.00`, `image added`, `author removed`.
    /// Moves below 0.005 pt (the stored rounding) are not changes.
    /// `goldenFrame`: the golden frame to compare with, when frames are paired by motion.
    public func changes(from golden: LayoutSnapshot, state: String, frame: Int, goldenFrame: Int? = nil) -> [String] {
        guard let now = frames[state]?[frame] else { return [] }
        guard let before = golden.frames[state]?[goldenFrame ?? frame] else {
            return ["\(state) frame \(frame) is new"]
        }
        var result: [String] = []
        let beforeByID = Dictionary(before.map { ($0.id, $0.rect) }, uniquingKeysWith: { a, _ in a })
        let nowIDs = Set(now.map(\.id))
        for (id, rect) in now {
            guard let old = beforeByID[id] else {
                result.append("\(id) added")
                continue
            }
            for (name, a, b) in [
                ("x", old.x, rect.x), ("y", old.y, rect.y), ("width", old.width, rect.width),
                ("height", old.height, rect.height),
            ] {
                let delta = b - a
                if abs(delta) >= 0.005 {
                    result.append("\(id).\(name) \(Self.signed(delta))")
                }
            }
        }
        for (id, _) in before where !nowIDs.contains(id) { result.append("\(id) removed") }
        return result
    }

    /// `+4.00`, `-22.50`, `+0.00`: every signed number layoutsnap writes, in the terminal,
    /// results.json and the report, with an ASCII hyphen-minus (docs/decisions.md, "Minus sign").
    public static func signed(_ v: Double) -> String { (v < 0 ? "-" : "+") + format(abs(v)) }

    /// To hundredths, `4.00`; a number past what an Int holds (an absurd golden layout.json) in
    /// printf's words rather than a trap.
    static func format(_ v: Double) -> String {
        guard v.isFinite, abs(v) < 1e15 else { return String(format: "%.2f", v) }
        let hundredths = Int((v * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }
}
