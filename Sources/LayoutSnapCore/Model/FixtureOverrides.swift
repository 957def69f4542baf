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
        if curve != nil || duration != nil {
            guard var animated = f.content as? any CurveAnimatedContent else {
                let flags = [curve.map { _ in "--curve" }, duration.map { _ in "--duration" }].compactMap { $0 }
                throw FixtureError(
                    file: fixture.file,
                    message:
                        "\(flags.joined(separator: " and ")) change a post card's animation; a \(fixture.kind.rawValue) has no curve field (its animations follow its kind's own rules)"
                )
            }
            animated.curve = CurveOverride.apply(curve, duration: duration, to: animated.curve)
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

/// Content whose animations follow one curve the fixture names (`curve`, `duration`): what
/// `--curve` and `--duration` change.
public protocol CurveAnimatedContent: KindContent {
    var curve: AnimationCurve { get set }
}

/// `--curve`: `easeInOut`, `easeIn`, `easeOut`, `linear`, `spring` (the default spring) or
/// `spring:RESPONSE,DAMPING` (`spring:0.4,0.7`), the fixture format's curves in one word.
public enum CurveOverride: Sendable, Hashable {
    case timing(CubicBezier)
    case spring(Spring)

    public static let names: [(String, CubicBezier)] = [
        ("easeInOut", .easeInOut), ("easeIn", .easeIn), ("easeOut", .easeOut), ("linear", .linear),
    ]

    /// The curve `text` names, or why it names none.
    public static func parse(_ text: String) -> Result<CurveOverride, ArgumentError> {
        if let named = names.first(where: { $0.0 == text }) { return .success(.timing(named.1)) }
        if text == "spring" { return .success(.spring(.default)) }
        if text.hasPrefix("spring:") {
            let parts = text.dropFirst("spring:".count).split(separator: ",", omittingEmptySubsequences: false)
            if parts.count == 2, let response = Double(parts[0]), let damping = Double(parts[1]),
                Limits.springParameter.contains(response), Limits.springParameter.contains(damping)
            {
                return .success(.spring(Spring(response: response, dampingFraction: damping)))
            }
            return .failure(
                ArgumentError(
                    message: "--curve spring:RESPONSE,DAMPING takes two numbers from 0.01 to 10, found \"\(text)\""))
        }
        return .failure(
            ArgumentError(
                message:
                    "unknown curve \"\(text)\"; expected easeInOut, easeIn, easeOut, linear, spring or spring:RESPONSE,DAMPING"
            ))
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
