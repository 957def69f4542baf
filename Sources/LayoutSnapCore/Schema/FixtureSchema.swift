/// schema/fixture.schema.json: the fields every fixture has (FixtureDecoder's), each kind's
/// (its decoder's `fields`), and the definitions they share. `layoutsnap schema fixture` writes it.
public enum FixtureSchema {
    public static let id = "https://layoutsnap.dev/schema/fixture.schema.json"

    static let stepDelay = SchemaField(
        "at", .number(Limits.stepDelay), "Seconds after the previous step began; interrupts its animation.")
    static let scrollDistance = SchemaNode.number(-1_000_000...1_000_000)
    static let keyboardMotion = SchemaNode.enumeration(["show", "hide"])

    /// The fields FixtureDecoder reads for every kind (`kind` itself is each kind's constant).
    static let commonFields: [SchemaField] = [
        SchemaField("$schema", .string, "This schema, for editors."),
        SchemaField(
            "device", .ref("device"),
            "The device preset: canvas size, scale, safe areas and keyboard (default iphone-15)."),
        SchemaField(
            "textSize", .ref("textSize"), "The Dynamic Type size every text style is scaled to (default large)."),
        SchemaField("direction", .ref("direction"), "rtl mirrors the view (default ltr)."),
        SchemaField(
            "variants", .ref("variants"),
            "More ways to render the same fixture, each a fixture <id>@<name> with its own goldens."),
        SchemaField("width", .number(Limits.canvasSide), "Canvas width in points (default: the device's)."),
        SchemaField("height", .number(Limits.canvasSide), "Canvas height in points (default: the device's)."),
        SchemaField("scale", .ref("scale"), "Pixels per point (default: the device's)."),
        SchemaField("appearance", .ref("appearance"), "Canvas colours (default light)."),
        SchemaField("fps", .ref("fps"), "Frames per second of animations (default 60)."),
        SchemaField(
            "tolerance", .ref("tolerance"),
            "How much a frame may differ from its golden and still pass (default: exact)."),
        SchemaField("lint", lint, "Layout lints: findings accepted on purpose."),
        SchemaField(
            "theme", .oneOf([.nonEmptyString, .ref("theme")]),
            "A theme of layoutsnap.json's by name, or tokens over the project's theme (docs/themes.md)."),
    ]

    /// A fixture's `lint` (and layoutsnap.json's `defaults.lint`): the findings it accepts.
    static let lint = SchemaNode.object([
        SchemaField(
            "ignore",
            .array(
                .object(
                    [
                        SchemaField("rule", .enumeration(LintRule.self)),
                        SchemaField(
                            "element", .nonEmptyString,
                            "The element id (message:* for every message); absent: every element."),
                        SchemaField(
                            "reason", .leaf([("type", "string"), ("pattern", "\\S")]), "Why the finding is accepted."),
                    ], required: ["rule", "reason"])), "Lint findings the fixture accepts on purpose.")
    ])

    /// Each kind's decoder's fields.
    static func fields(of kind: FixtureKind) -> [SchemaField] { kind.definition.fields }

    /// A kind's whole file: `kind` as a constant, the common fields, the kind's own.
    static func kindNode(_ kind: FixtureKind) -> SchemaNode {
        .object(
            [SchemaField("kind", .leaf([("const", .string(kind.rawValue))]))] + commonFields + fields(of: kind),
            required: ["kind"])
    }

    static let variantName = SchemaNode.leaf([
        ("type", "string"), ("pattern", "^[a-zA-Z0-9._+-]{1,100}$"), ("not", ["enum": [".", ".."]]),
    ])

    static func matrix(_ name: String) -> SchemaNode { .array(.ref(name), minItems: 1) }

    /// Definitions shared by several places (and by schema/config.schema.json's `defaults`).
    static let definitions: [(name: String, node: SchemaNode)] = [
        ("device", .enumeration(Device.allNames)),
        ("theme", ThemePatch.schema),
        (
            "textSize",
            .anyCase(
                ContentSizeCategory.allCases.map(\.rawValue), pattern: [SchemaNode.caseless("accessibility") + "[1-5]"])
        ),
        ("direction", .enumeration(LayoutDirection.self)),
        ("appearance", .enumeration(Appearance.self)),
        ("scale", .number(Limits.scale)),
        ("fps", .number(Limits.fps)),
        (
            "tolerance",
            .object([
                SchemaField(
                    "threshold", .number(0...1),
                    "Per-pixel colour distance (YIQ, 0 to 1) under which pixels count as equal (default 0.1)."),
                SchemaField("maxDiffPixels", .integer(0...Int(Int32.max)), "Differing pixels allowed (default 0)."),
                SchemaField(
                    "maxDiffRatio", .number(0...1), "Differing pixels allowed, as a fraction of the frame (default 0)."),
                SchemaField("includeAntialiasing", .boolean, "Count anti-aliased pixels as different (default false)."),
                SchemaField(
                    "timing",
                    .object([
                        SchemaField(
                            "frames", .integer(0...Limits.maxTimingToleranceFrames),
                            "A motion may start or end this many frames earlier or later and be similar.")
                    ]), "Timing tolerance; alone it keeps pixels exact."),
            ])
        ),
        (
            "variants",
            .oneOf([
                .object(
                    [
                        SchemaField("device", matrix("device")),
                        SchemaField("textSize", matrix("textSize")),
                        SchemaField("appearance", matrix("appearance")),
                        SchemaField("direction", matrix("direction")),
                        SchemaField(
                            "theme", .array(variantName, minItems: 1),
                            "Theme names: default (the project's) or one of layoutsnap.json's themes."),
                    ], atLeastOneOf: variantKeys),
                .array(
                    .object(
                        [
                            SchemaField("device", .ref("device")),
                            SchemaField("textSize", .ref("textSize")),
                            SchemaField("appearance", .ref("appearance")),
                            SchemaField("direction", .ref("direction")),
                            SchemaField("theme", variantName, "A theme's name: default or one of layoutsnap.json's."),
                            SchemaField(
                                "name", variantName, "The variant's folder name (default: its values joined by +)."),
                        ], atLeastOneOf: variantKeys), maxItems: Limits.maxVariants),
            ])
        ),
        (
            "font",
            .oneOf([
                .enumeration(TextStyle.self),
                .object(
                    [
                        SchemaField("size", .number(FontSpec.sizeRange), "Points."),
                        SchemaField("weight", .enumeration(FontWeight.self), "Default regular."),
                        SchemaField("italic", .boolean),
                    ], required: ["size"]),
            ])
        ),
        (
            "curve",
            .oneOf([
                .enumeration(CubicBezier.presets.map(\.name)),
                .object(
                    [
                        SchemaField(
                            "cubic",
                            .numbers([
                                ("x1", Limits.cubicX), ("y1", Limits.cubicY), ("x2", Limits.cubicX),
                                ("y2", Limits.cubicY),
                            ]), "CSS's cubic-bezier(x1, y1, x2, y2): x is time, y progress.")
                    ], required: ["cubic"]),
                .object(
                    [
                        SchemaField(
                            "spring",
                            springObject,
                            "SwiftUI's spring(response:dampingFraction:) or spring(mass:stiffness:damping:); its duration is its settling time."
                        )
                    ], required: ["spring"]),
            ])
        ),
    ]

    /// A spring's parameters: SwiftUI's response and damping fraction, or mass, stiffness and
    /// damping (a curve's `spring`, a theme's `motion.keyboard`).
    static let springObject = SchemaNode.oneOf([
        .object(
            [
                SchemaField("response", .number(Limits.springParameter), "Seconds."),
                SchemaField("dampingFraction", .number(Limits.springParameter)),
            ], required: ["response", "dampingFraction"]),
        .object(
            [
                SchemaField("mass", .number(Limits.springMass)),
                SchemaField("stiffness", .number(Limits.springStiffness)),
                SchemaField(
                    "damping", .number(Limits.springDamping),
                    "A coefficient; with mass and stiffness it must make a response and a damping fraction from 0.01 to 10."
                ),
            ], required: ["mass", "stiffness", "damping"]),
    ])

    static let variantKeys = ["device", "textSize", "appearance", "direction", "theme"]

    /// The whole schema: `kind` picks one kind's definition, which refuses every other field.
    public static let document = JSONSchemaDocument(
        id: id, title: "layoutsnap fixture",
        description:
            "A layoutsnap fixture: one view (\(kindList)) and the steps that change it. Generated by `layoutsnap schema fixture` from the decoders' field tables.",
        root: .leaf([
            ("type", "object"),
            ("required", ["kind"]),
            (
                "properties",
                [
                    "kind": .object([
                        ("description", "What the fixture draws."),
                        ("enum", .array(FixtureKind.allCases.map { .string($0.rawValue) })),
                    ])
                ]
            ),
        ]),
        rootExtras: [
            (
                "allOf",
                .array(
                    FixtureKind.allCases.map { kind in
                        [
                            "if": ["properties": ["kind": ["const": .string(kind.rawValue)]], "required": ["kind"]],
                            "then": ["$ref": .string("#/$defs/" + kind.rawValue)],
                        ]
                    })
            )
        ],
        definitions: FixtureKind.allCases.map { ($0.rawValue, kindNode($0)) } + definitions
            + FixtureKind.allCases.flatMap(\.definition.schemaDefinitions))

    /// "transcript, composer, chat or post".
    static var kindList: String {
        let names = FixtureKind.allCases.map(\.rawValue)
        return names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    /// The fields the schema allows at each place of a `kind` fixture (see `fieldsByPath`).
    public static func fieldsByPath(_ kind: FixtureKind) -> [String: Set<String>] {
        document.fieldsByPath(from: .ref(kind.rawValue))
    }
}
