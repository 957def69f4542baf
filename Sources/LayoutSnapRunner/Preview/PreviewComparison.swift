import LayoutSnapCore

/// `preview A --compare ...`: side B, another fixture or the same one with other options, rendered
/// as a preview of its own into `OUT/compare/` and carried in A's page (`compare` in its JSON),
/// with the frames paired by `PreviewPairing`.
public struct PreviewComparison: Sendable {
    /// B's preview, inside A's output folder so the page reaches its frames by a relative path.
    public static let folder = "compare"

    public var ref: FixtureRef
    /// A's overrides with B's own in their place.
    public var overrides: FixtureOverrides
    /// How the page names B: what differs from A (`curve easeIn`, `dark`, another fixture's id).
    public var label: String

    public init(ref: FixtureRef, overrides: FixtureOverrides, label: String) {
        (self.ref, self.label) = (ref, label)
        // B's messages name the options as typed for it: `--compare-curve applies only to ...`.
        self.overrides = overrides
        self.overrides.optionPrefix = "--compare-"
    }
}
