/// Bulk fixtures for `layoutsnap generate` (docs/commands.md "generate"): valid, varied, cheap enough to render, and
/// deterministic. Fixture `i` of a kind depends only on (seed, kind, i): `--count 10` is a prefix
/// of `--count 100`, and indices can be generated in any order on any number of threads.
///
///     let bytes = FixtureGenerator(kind: .chat, seed: 7).fixture(at: 42)   // the JSON file's bytes

import LayoutSnapJSON

public struct FixtureGenerator: Sendable {
    public let kind: FixtureKind
    public let seed: UInt64

    public init(kind: FixtureKind, seed: UInt64) {
        self.kind = kind
        self.seed = seed
    }

    /// The most fixtures one run may ask for; file names have room for every index below it.
    public static let maxCount = 1_000_000
    /// Digits of the zero-padded index in file names, enough for `maxCount`.
    public static let indexDigits = 6

    /// The fixture's JSON (pretty printed, keys in the order of the field tables, as docs/fixtures/ shows them, a final
    /// newline).
    public func fixture(at index: Int) -> [UInt8] {
        precondition(index >= 0, "fixture indices start at 0")
        var r = SeededRandom(seed: seed, stream: kind.definition.generatorStream, index: UInt64(index))
        let json = kind.definition.generate(&r)
        var bytes = JSONWriter(style: .pretty).bytes(json)
        bytes.append(0x0A)
        return bytes
    }

    /// Where fixture `index` goes below the output folder: `chat/chat-000042.json`, so its id is
    /// `chat/chat-000042`.
    public static func relativePath(kind: FixtureKind, index: Int) -> String {
        let digits = String(index)
        let padded = String(repeating: "0", count: max(0, indexDigits - digits.count)) + digits
        return "\(kind.rawValue)/\(kind.rawValue)-\(padded).json"
    }

    /// How `--kind all` spreads `count` fixtures: fixture j is kind j % 4 (in `FixtureKind.allCases`
    /// order), index j / 4 of that kind. So an `all` batch holds the same files as four batches of
    /// one kind with the same seed, and a smaller count is still a prefix.
    public static func spread(count: Int, over kinds: [FixtureKind]) -> [(kind: FixtureKind, count: Int)] {
        kinds.enumerated().map { k, kind in (kind, (count - k + kinds.count - 1) / kinds.count) }
    }
}

/// Members of a JSON object in the order they are added.
struct Members {
    var items: [(key: String, value: JSONOutput)] = []

    mutating func add(_ key: String, _ value: JSONOutput) { items.append((key, value)) }
    /// Adds the member only when there is a value (absent fields take their defaults).
    mutating func set(_ key: String, _ value: JSONOutput?) { if let value { items.append((key, value)) } }
    mutating func append(_ other: Members) { items.append(contentsOf: other.items) }

    var json: JSONOutput { .object(items) }
}

/// The common fields of docs/fixtures/README.md. The kind decides the canvas height and fps, which depend on
/// what it draws and how long its steps animate.
struct CommonFields {
    var deviceName: String?
    var device: Device
    var width: Double?
    var height: Double?
    var scale: Double?
    var appearance: String?
    var fps: Double?
    var tolerance: JSONOutput?

    var canvasWidth: Double { width ?? device.width }
    var canvasHeight: Double { height ?? device.height }
    var canvasScale: Double { scale ?? device.scale }

    /// Device, scale, width, appearance and tolerance. Most fixtures render at scale 1, as the
    /// bundled ones do: pixels are what a batch of thousands pays for.
    static func random(_ r: inout SeededRandom) -> CommonFields {
        let name: String? = r.chance(0.4) ? nil : r.pick(Device.allNames)
        let device = Device.named(name ?? Device.defaultName)!
        var c = CommonFields(deviceName: name, device: device)
        c.scale = r.weighted([(1, 0.66), (2, 0.14), (1.5, 0.06), (0.5, 0.04), (nil, 0.1)] as [(Double?, Double)])
        if r.chance(0.1) { c.width = Double(r.int(300...600)) }
        c.appearance = r.weighted([(nil, 0.5), ("light", 0.15), ("dark", 0.35)] as [(String?, Double)])
        if r.chance(0.05) {
            var t = Members()
            if r.chance(0.7) { t.add("threshold", .number(r.double(0...0.3))) }
            if r.chance(0.7) { t.add("maxDiffPixels", .int(r.int(0...200))) }
            if r.chance(0.5) { t.add("maxDiffRatio", .number(r.double(0...0.01, decimals: 4))) }
            if r.chance(0.3) { t.add("includeAntialiasing", .bool(r.chance(0.5))) }
            c.tolerance = t.json
        }
        return c
    }

    /// `kind` and the common fields, in the order of docs/fixtures/README.md "Common fields".
    func members(kind: FixtureKind) -> Members {
        var m = Members()
        m.add("kind", .string(kind.rawValue))
        m.set("device", deviceName.map(JSONOutput.string))
        m.set("width", width.map(JSONOutput.number))
        m.set("height", height.map(JSONOutput.number))
        m.set("scale", scale.map(JSONOutput.number))
        m.set("appearance", appearance.map(JSONOutput.string))
        m.set("fps", fps.map(JSONOutput.number))
        m.set("tolerance", tolerance)
        return m
    }
}

enum GeneratorSupport {
    /// The frame budget of one generated fixture: enough for every rule to show, small enough
    /// that a thousand fixtures render in minutes.
    static let frameBudget = 140.0

    /// A frame rate for steps that animate for about `seconds` in all (keyboard springs, scrolls,
    /// expansions), plus one frame per step: the first of `preferred` that fits the budget, else
    /// the largest whole rate that does.
    static func fps(animatedSeconds seconds: Double, steps: Int, preferred: [Double]) -> Double {
        let room = frameBudget - Double(steps + 1)
        for fps in preferred where seconds * fps <= room { return fps }
        return max(1, (room / max(seconds, 0.001)).rounded(.down))
    }

    /// Roughly how long the keyboard's critically damped spring runs (about 0.55 s at scale 1,
    /// 0.6 s at scale 3).
    static let keyboardSeconds = 0.7
    /// The default spring's scroll (response 0.55, critically damped) settles in about a second.
    static let scrollSeconds = 1.2

    /// A text style name or an explicit `{"size", "weight", "italic"}`, and the font it means.
    static func font(_ r: inout SeededRandom, sizes: ClosedRange<Int>) -> (json: JSONOutput, spec: FontSpec) {
        if r.chance(0.6) {
            let style = r.pick(TextStyle.allCases)
            return (.string(style.rawValue), style.font)
        }
        let size = Double(r.int(sizes))
        var m = Members()
        m.add("size", .number(size))
        var weight = FontWeight.regular
        var italic = false
        if r.chance(0.6) {
            weight = r.pick(FontWeight.allCases)
            m.add("weight", .string(weight.rawValue))
        }
        if r.chance(0.4) {
            italic = r.chance(0.7)
            m.add("italic", .bool(italic))
        }
        return (m.json, FontSpec(size: size, weight: weight, italic: italic))
    }

    /// `at` for a step: usually absent (the step waits for the previous one to settle), sometimes
    /// inside the previous animation (an interruption, added on top: docs/fixtures/README.md "Common fields").
    static func at(_ r: inout SeededRandom, chance: Double, within: ClosedRange<Double>) -> JSONOutput? {
        r.chance(chance) ? .number(r.double(within)) : nil
    }

    /// A script for a fixture's text: mostly one, sometimes mixed.
    static func script(_ r: inout SeededRandom) -> Script {
        r.weighted([(.latin, 0.4), (.cjk, 0.15), (.arabic, 0.15), (.emoji, 0.1), (.mixed, 0.2)])
    }
}
