/// layoutsnap.json's `defaults`: fixture fields a project sets once. They apply when a fixture is
/// decoded, as if written in every fixture that does not write the field itself, so a fixture's
/// own `device`, `scale`, `fps`, `tolerance` or `variants` always wins (a tolerance or a variants
/// list replaces the default whole; `"variants": []` has none). They are defaults, not overrides:
/// `--device`, `--scale` and `--fps` are the overrides.

import LayoutSnapJSON

public struct FixtureDefaults: Sendable, Hashable {
    public var device: Device?
    public var scale: Double?
    public var fps: Double?
    public var tolerance: DecodedTolerance?
    public var variants: [FixtureVariant]?

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
        SchemaField("tolerance", .ref("tolerance"), "The tolerance of every fixture that has none (else exact)."),
        SchemaField("variants", .ref("variants"), "The variants of every fixture that declares none."),
    ]

    /// The fixture schema's definitions the fields above refer to, directly or not.
    static let definitionsUsed: Set<String> = [
        "device", "scale", "fps", "tolerance", "variants", "textSize", "appearance", "direction",
    ]

    static func decode(_ element: JSONElement) throws(JSONDecodingError) -> FixtureDefaults {
        let o = try element.object()
        var d = FixtureDefaults()
        d.device = try o.optional("device").map(FixtureDecoder.deviceValue)
        d.scale = try o.double("scale", in: Limits.scale, what: "a scale")
        d.fps = try o.double("fps", in: Limits.fps, what: "frames per second")
        if let e = o.optional("tolerance") {
            let (pixels, frames) = try FixtureDecoder.decodeTolerance(e)
            d.tolerance = DecodedTolerance(pixels: pixels, timingFrames: frames)
        }
        d.variants = try o.optional("variants").map(FixtureDecoder.decodeVariants)
        try o.finish()
        return d
    }
}
