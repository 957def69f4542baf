/// layoutsnap.json's `defaults`: fixture fields a project sets once. They apply when a fixture is
/// decoded, as if written in every fixture that does not write the field itself, so a fixture's
/// own field always wins (a tolerance or a variants list replaces the default whole;
/// `"variants": []` has none). The one exception is `lint`: the project's ignores are added to
/// each fixture's own. They are defaults, not overrides: `--device`, `--scale` and `--fps` are.

import LayoutSnapJSON

public struct FixtureDefaults: Sendable, Hashable {
    public var device: Device?
    public var scale: Double?
    public var fps: Double?
    public var textSize: ContentSizeCategory?
    public var appearance: Appearance?
    public var direction: LayoutDirection?
    public var tolerance: DecodedTolerance?
    public var variants: [FixtureVariant]?
    /// Lint findings every fixture accepts, besides its own.
    public var lintIgnores: [LintIgnore] = []
    /// layoutsnap.json's `theme` and `themes` (top-level, not in `defaults`): what a fixture is
    /// drawn in and the names its `theme` and its variants may give.
    public var themes = ThemeBook()

    public init() {}

    public var isEmpty: Bool { self == FixtureDefaults() }

    /// A `tolerance` object as decoded: the pixel tolerance (nil: exact) and the timing tolerance.
    public struct DecodedTolerance: Sendable, Hashable {
        public var pixels: Tolerance?
        public var timingFrames: Int

        public init(pixels: Tolerance?, timingFrames: Int) {
            self.pixels = pixels
            self.timingFrames = timingFrames
        }
    }

    static let fields: [SchemaField] = [
        SchemaField("device", .ref("device"), "The device of every fixture that names none."),
        SchemaField("scale", .ref("scale"), "The scale of every fixture that gives none (else its device's)."),
        SchemaField("fps", .ref("fps"), "The frames per second of every fixture that gives none (else 60)."),
        SchemaField(
            "textSize", .ref("textSize"), "The Dynamic Type size of every fixture that names none (else large)."),
        SchemaField("appearance", .ref("appearance"), "The appearance of every fixture that names none (else light)."),
        SchemaField("direction", .ref("direction"), "The direction of every fixture that names none (else ltr)."),
        SchemaField("tolerance", .ref("tolerance"), "The tolerance of every fixture that has none (else exact)."),
        SchemaField("variants", .ref("variants"), "The variants of every fixture that declares none."),
        SchemaField(
            "lint", FixtureSchema.lint, "Lint findings every fixture accepts on purpose, besides its own `lint.ignore`."
        ),
    ]

    /// The fixture schema's definitions the fields above refer to, directly or not.
    static let definitionsUsed: Set<String> = [
        "device", "scale", "fps", "tolerance", "variants", "textSize", "appearance", "direction", "theme", "curve",
    ]

    /// `themes`: the project's, decoded first, so the variants' theme names are checked.
    static func decode(_ element: JSONElement, themes: ThemeBook) throws(JSONDecodingError) -> FixtureDefaults {
        let o = try element.object()
        var d = FixtureDefaults()
        d.themes = themes
        d.device = try o.optional("device").map(FixtureDecoder.deviceValue)
        d.scale = try o.double("scale", in: Limits.scale, what: "a scale")
        d.fps = try o.double("fps", in: Limits.fps, what: "frames per second")
        d.textSize = try o.optional("textSize").map(FixtureDecoder.textSizeValue)
        d.appearance = try o.enumeration("appearance", Appearance.self)
        d.direction = try o.optional("direction").map(FixtureDecoder.directionValue)
        if let e = o.optional("tolerance") {
            let (pixels, frames) = try FixtureDecoder.decodeTolerance(e)
            d.tolerance = DecodedTolerance(pixels: pixels, timingFrames: frames)
        }
        d.variants = try o.optional("variants").map { (e: JSONElement) throws(JSONDecodingError) in
            try FixtureDecoder.decodeVariants(e, themes: themes)
        }
        d.lintIgnores = try o.optional("lint").map(FixtureDecoder.decodeLint) ?? []
        try o.finish()
        return d
    }
}
