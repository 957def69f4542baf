/// Command-line overrides (`--device`, `--scale`, `--fps`, and for previews `--appearance`,
/// `--curve`, `--duration`) applied over a decoded fixture.
public struct FixtureOverrides: Sendable, Hashable {
    public var device: Device?
    public var scale: Double?
    public var fps: Double?
    public var appearance: Appearance?
    /// A timing curve's shape or a spring; `duration` replaces a timing curve's length.
    public var curve: CurveOverride?
    public var duration: Double?
    /// A Dynamic Type size instead of the fixture's (preview's `--compare-text-size`).
    public var textSize: ContentSizeCategory?
    /// How the messages spell the options: `--` (`--curve`), or `--compare-` for the other side of
    /// a preview's comparison, so a refusal names the option the user typed.
    public var optionPrefix = "--"

    public init(
        device: Device? = nil, scale: Double? = nil, fps: Double? = nil, appearance: Appearance? = nil,
        curve: CurveOverride? = nil, duration: Double? = nil
    ) {
        self.device = device
        self.scale = scale
        self.fps = fps
        self.appearance = appearance
        self.curve = curve
        self.duration = duration
    }

    /// A device replaces the canvas (size and scale); the others replace their field. The canvas
    /// limits are checked again. `curve` and `duration` change the fields of that name, which only
    /// post cards have: on another kind they are an error rather than silently doing nothing.
    public func apply(to fixture: Fixture) throws(FixtureError) -> Fixture {
        var f = fixture
        if let device {
            f.device = device
            f.canvas = Canvas(width: device.width, height: device.height, scale: device.scale)
        }
        if let scale { f.canvas.scale = scale }
        if let fps { f.fps = fps }
        if let appearance { f.appearance = appearance }
        // Before the curve: a text size restyles the content from its theme.
        if let textSize { f = f.at(textSize) }
        if curve != nil || duration != nil {
            if let refused = refusedOptions(for: fixture.kind) {
                throw FixtureError(file: fixture.file, message: refused)
            }
            guard var animated = f.content as? any CurveAnimatedContent else {
                throw FixtureError(file: fixture.file, message: "a \(fixture.kind.rawValue) has no curve to change")
            }
            let changed = CurveOverride.apply(curve, duration: duration, to: animated.curve)
            if let duration, case .spring(let spring) = changed {
                throw FixtureError(
                    file: fixture.file,
                    message: Self.springDurationMessage(
                        duration, spring: spring, fromFixture: curve == nil, prefix: optionPrefix))
            }
            animated.curve = changed
            animated.ownsCurve = true
            f.content = animated
        }
        let pixels = Double(f.canvas.pixelWidth) * Double(f.canvas.pixelHeight)
        if pixels > Double(Limits.maxCanvasPixels)
            || max(f.canvas.pixelWidth, f.canvas.pixelHeight) > Limits.maxCanvasSidePixels
        {
            throw FixtureError(
                file: fixture.file,
                message:
                    "with the overrides the canvas is \(f.canvas.pixelWidth) x \(f.canvas.pixelHeight) pixels, more than the limit of \(Limits.maxCanvasPixels)"
            )
        }
        return f
    }
}

extension FixtureOverrides {
    /// The options that change a kind's own field, and that field: each applies only to the kinds
    /// whose field table has it.
    static let kindFieldOptions: [(option: String, field: String)] = [("curve", "curve"), ("duration", "duration")]

    /// Why options given here do not apply to a fixture of `kind`, naming the kinds they apply
    /// to; nil when they all apply.
    func refusedOptions(for kind: FixtureKind) -> String? {
        let given = Self.kindFieldOptions.filter { $0.option == "curve" ? curve != nil : duration != nil }
            .map { (option: optionPrefix + $0.option, field: $0.field) }
        // Options refused alike (the same kinds) are named in one sentence.
        var groups: [(options: [String], field: String, kinds: [String])] = []
        for (option, field) in given {
            let kinds = FixtureKind.allCases.filter { k in k.definition.fields.contains { $0.name == field } }
            guard !kinds.contains(kind) else { continue }
            let names = kinds.map(\.rawValue)
            if let i = groups.firstIndex(where: { $0.kinds == names }) {
                groups[i].options.append(option)
            } else {
                groups.append(([option], field, names))
            }
        }
        guard !groups.isEmpty else { return nil }
        return groups.map { g in
            let verb = Plural.word(g.options.count, "applies", "apply")
            let kinds = g.kinds.isEmpty ? "no kind of fixture" : Plural.list(g.kinds) + " fixtures"
            return
                "\(Plural.list(g.options)) \(verb) only to \(kinds) (the kinds with a `\(g.field)` field); a \(kind.rawValue) has none: its animations follow its kind's own rules"
        }.joined(separator: "; ")
    }

    /// `--duration` where the curve is a spring: refused, as SwiftUI gives a spring no duration.
    static func springDurationMessage(_ duration: Double, spring: Spring, fromFixture: Bool, prefix: String = "--")
        -> String
    {
        let whose = fromFixture ? "this fixture's curve, a spring" : "a spring"
        let slower =
            "spring(response:\(CurveNumber.text(duration)),dampingFraction:\(CurveNumber.text(spring.dampingFraction)))"
        return
            "\(prefix)duration \(CurveNumber.text(duration)) does not apply to \(whose): a spring's duration is its settling time, computed from the distance it moves (preview prints it for each state). For a slower spring give a longer response, as SwiftUI's spring(duration:bounce:) does: \(prefix)curve '\(slower)'; for a fixed duration use a timing curve (\(prefix)curve easeInOut \(prefix)duration \(CurveNumber.text(duration)))"
    }
}

/// Content whose animations follow one curve the fixture names (`curve`, `duration`): what
/// `--curve` and `--duration` change.
public protocol CurveAnimatedContent: KindContent {
    var curve: AnimationCurve { get set }
    /// Whether the curve is the fixture's own (or the command line's) rather than its theme's.
    var ownsCurve: Bool { get set }
}

/// `--curve`: a preset (`easeInOut`, `easeIn`, `easeOut`, `linear`), `cubic(X1,Y1,X2,Y2)`,
/// `spring` (the default spring), `spring(response:R,dampingFraction:Z)`,
/// `spring(mass:M,stiffness:K,damping:C)`, or the older `spring:R,Z`: the fixture format's curves
/// in one word, spelt as in SwiftUI.
public enum CurveOverride: Sendable, Hashable {
    case timing(CubicBezier)
    case spring(Spring)

    /// What `--curve` accepts, for messages and help.
    public static let forms =
        "easeInOut, easeIn, easeOut, linear, cubic(X1,Y1,X2,Y2), spring, spring(response:R,dampingFraction:Z) or spring(mass:M,stiffness:K,damping:C)"

    /// The curve `text` names, or why it names none. Spaces are ignored (`cubic(0.2, 0, 0, 1)`).
    public static func parse(_ text: String) -> Result<CurveOverride, ArgumentError> {
        let compact = String(text.filter { !$0.isWhitespace })
        if let preset = CubicBezier.presets.first(where: { $0.name == compact }) {
            return .success(.timing(preset.curve))
        }
        if compact == "spring" { return .success(.spring(.default)) }
        if compact.hasPrefix("spring:") {
            let parts = compact.dropFirst("spring:".count).split(separator: ",", omittingEmptySubsequences: false)
            if parts.count == 2, let response = Double(parts[0]), let damping = Double(parts[1]),
                Limits.springParameter.contains(response), Limits.springParameter.contains(damping)
            {
                return .success(.spring(Spring(response: response, dampingFraction: damping)))
            }
            return failure("--curve spring:RESPONSE,DAMPING takes two numbers from 0.01 to 10, found \"\(text)\"")
        }
        if let arguments = arguments(of: "cubic", in: compact) {
            let numbers = arguments.compactMap { Double($0) }.filter(\.isFinite)
            guard arguments.count == 4, numbers.count == 4 else {
                return failure("--curve cubic(X1,Y1,X2,Y2) takes four numbers, found \"\(text)\"")
            }
            let curve = CubicBezier(numbers[0], numbers[1], numbers[2], numbers[3])
            if let problem = curve.rangeProblem { return failure("--curve \(text): \(problem)") }
            return .success(.timing(curve))
        }
        if let arguments = arguments(of: "spring", in: compact) {
            return spring(labelled: arguments, text: text)
        }
        return failure("unknown curve \"\(text)\"; expected \(forms)")
    }

    /// The comma-separated arguments of `name(...)`, or nil when `text` is not that call.
    private static func arguments(of name: String, in text: String) -> [Substring]? {
        guard text.hasPrefix(name + "("), text.hasSuffix(")") else { return nil }
        return text.dropFirst(name.count + 1).dropLast().split(separator: ",", omittingEmptySubsequences: false)
    }

    /// `spring(response:R,dampingFraction:Z)` or `spring(mass:M,stiffness:K,damping:C)`, the labels
    /// in any order.
    private static func spring(labelled arguments: [Substring], text: String) -> Result<CurveOverride, ArgumentError> {
        var values: [String: Double] = [:]
        for argument in arguments {
            let pair = argument.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2, let value = Double(pair[1]), value.isFinite, values[String(pair[0])] == nil else {
                values = [:]
                break
            }
            values[String(pair[0])] = value
        }
        let spring: Spring
        switch Set(values.keys) {
        case ["response", "dampingFraction"]:
            spring = Spring(response: values["response"]!, dampingFraction: values["dampingFraction"]!)
        case ["mass", "stiffness", "damping"]:
            let (m, k, c) = (values["mass"]!, values["stiffness"]!, values["damping"]!)
            for (label, value, range) in [
                ("mass", m, Limits.springMass), ("stiffness", k, Limits.springStiffness),
                ("damping", c, Limits.springDamping),
            ] where !range.contains(value) {
                return failure(
                    "--curve \(text): \(label) must be from \(CurveNumber.text(range.lowerBound)) to \(CurveNumber.text(range.upperBound))"
                )
            }
            spring = Spring(mass: m, stiffness: k, damping: c)
            if let problem = spring.rangeProblem {
                return failure("--curve \(text): \(problem) (\(Spring.physicalNote))")
            }
        default:
            return failure(
                "--curve spring(...) takes response: and dampingFraction:, or mass:, stiffness: and damping:, each with a number, found \"\(text)\""
            )
        }
        if let problem = spring.rangeProblem { return failure("--curve \(text): \(problem)") }
        return .success(.spring(spring))
    }

    private static func failure(_ message: String) -> Result<CurveOverride, ArgumentError> {
        .failure(ArgumentError(message: message))
    }

    /// The fixture's curve after the overrides: a new timing shape keeps the fixture's duration
    /// unless `duration` is given; a spring has no duration (it settles when it settles).
    static func apply(_ override: CurveOverride?, duration: Double?, to curve: AnimationCurve) -> AnimationCurve {
        let currentDuration: Double? = if case .timing(_, let d) = curve { d } else { nil }
        switch override {
        case .timing(let shape)?: return .timing(shape, duration: duration ?? currentDuration ?? 0.3)
        case .spring(let spring)?: return .spring(spring)
        case nil:
            if case .timing(let shape, let d) = curve { return .timing(shape, duration: duration ?? d) }
            return curve
        }
    }
}

/// A command-line value that cannot be used (`--curve bouncy`, `--shard 5/4`).
public struct ArgumentError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
