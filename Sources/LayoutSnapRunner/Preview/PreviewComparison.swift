import LayoutSnapCore
import Foundation
import LayoutSnapDiff
import LayoutSnapJSON

/// `preview A --compare ...`: side B, another fixture or the same one with other options, rendered
/// as a preview of its own into `OUT/compare/`, or the fixture's recorded goldens; carried in A's
/// page (`compare` in its JSON), with the frames paired by `PreviewPairing`.
public struct PreviewComparison: Sendable {
    /// B's preview, inside A's output folder so the page reaches its frames by a relative path.
    public static let folder = "compare"

    public enum Source: Sendable {
        /// A fixture with A's overrides and B's own in their place.
        case fixture(FixtureRef, FixtureOverrides)
        /// `--compare-goldens DIR`: A's fixture as recorded there.
        case goldens(String)
    }

    public var source: Source
    /// How the page names B: what differs from A (`curve easeIn`, `dark`, another fixture's id).
    public var label: String

    public init(ref: FixtureRef, overrides: FixtureOverrides, label: String) {
        // B's messages name the options as typed for it: `--compare-curve applies only to ...`.
        var own = overrides
        own.optionPrefix = "--compare-"
        self.init(.fixture(ref, own), label: label)
    }

    public init(_ source: Source, label: String) {
        self.source = source
        self.label = label
    }
}

extension PreviewBuilder {
    /// `--compare-goldens DIR`: side B is the fixture as recorded in DIR, its golden frames
    /// copied into `OUT/compare/states/` (so the page reaches them beside its own) at the times and
    /// progress of the goldens' layout.json. layout.json does not store when each step began, so
    /// a golden state sits on the timeline where the state of that name does now (after the one
    /// before it when there is none).
    func goldenSide(_ goldens: String, label: String) throws(RunnerError) -> Side {
        let store = GoldenStore(goldens)
        let layoutPath = store.path(GoldenStore.layoutKey(fixture: ref.id))
        guard let data = FileManager.default.contents(atPath: layoutPath) else {
            throw RunnerError.usage(
                "--compare-goldens \(goldens): \(layoutPath) cannot be read (record \(ref.id) into \(goldens) first)")
        }
        guard let snapshot = LayoutSnapshot.parse([UInt8](data)), let canvas = snapshot.canvas,
            !snapshot.states.isEmpty
        else {
            throw RunnerError.usage("--compare-goldens \(goldens): \(layoutPath) is not a layout.json layoutsnap wrote")
        }
        // The goldens were recorded from the fixture as written: its steps start where they did then.
        let now = try LayoutComputation.layout(ref)
        var states = snapshot.states
        var next = 0.0
        for i in states.indices {
            states[i].start = now.states.first { $0.name == states[i].name }?.start ?? next
            next = states[i].start + (states[i].frames.last?.time ?? 0)
        }
        let folder = output + "/" + PreviewComparison.folder
        let stateObjects = try states.map { (state) throws(RunnerError) -> JSONOutput in
            let frames = try state.frames.map { (frame) throws(RunnerError) -> JSONOutput in
                let key = GoldenStore.frameKey(fixture: ref.id, state: state.name, index: frame.index)
                guard let png = FileManager.default.contents(atPath: store.path(key)) else {
                    throw RunnerError.usage(
                        "--compare-goldens \(goldens): the golden frame \(store.path(key)) is missing")
                }
                try AtomicFile.write(
                    [UInt8](png), to: folder + "/" + Self.framePath(state.name, frame.index), durable: false)
                guard case .object(var members) = LayoutJSON.json(frame) else { return .null }
                members.append(("image", .string(Self.framePath(state.name, frame.index))))
                return .object(members)
            }
            return .object([("name", .string(state.name)), ("frames", .array(frames))])
        }
        let timeline = PreviewTimeline(states, hold: Self.holdLastFrame)
        let pageData = JSONOutput.object([
            (
                "canvas",
                .object([
                    ("width", .number(canvas.width)), ("height", .number(canvas.height)),
                    ("scale", .number(canvas.scale)),
                ])
            ),
            ("timeline", timeline.json),
            ("states", .array(stateObjects)),
        ])
        return Side(summary: Summary(), data: pageData, states: states, canvas: canvas, label: label)
    }
}
