/// A value attached to an element in the layout JSON (`lines`, `truncated`, `revealed`, ...).
public enum LayoutValue: Sendable, Hashable {
    case number(Double)
    case int(Int)
    case bool(Bool)
    case string(String)
    case ints([Int])
    /// A rect as [x, y, width, height] in points (a clip).
    case numbers([Double])
    case strings([String])
    /// A fact that does not apply now (no marked text).
    case null
}

/// One element of a frame's layout (docs/commands.md "render, layout"): an id, a rect in canvas points, and extra facts.
public struct LayoutElement: Sendable, Hashable {
    public var id: String
    public var rect: Rect
    /// Extra keys in the order they are printed.
    public var attributes: [(key: String, value: LayoutValue)]

    public init(id: String, rect: Rect, attributes: [(key: String, value: LayoutValue)] = []) {
        self.id = id
        self.rect = rect
        self.attributes = attributes
    }

    public subscript(key: String) -> LayoutValue? {
        attributes.first { $0.key == key }?.value
    }

    public static func == (a: LayoutElement, b: LayoutElement) -> Bool {
        a.id == b.id && a.rect == b.rect
            && a.attributes.elementsEqual(b.attributes) { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(rect)
        for (k, v) in attributes {
            hasher.combine(k)
            hasher.combine(v)
        }
    }
}

/// The scroll block of a scrolling view's frame.
public struct ScrollInfo: Sendable, Hashable {
    public var offset: Double
    public var contentHeight: Double
    public var viewportHeight: Double
    public var following: Bool

    public init(offset: Double, contentHeight: Double, viewportHeight: Double, following: Bool) {
        self.offset = offset
        self.contentHeight = contentHeight
        self.viewportHeight = viewportHeight
        self.following = following
    }
}

/// One frame: its timing, the layout facts it reports, and what to paint.
public struct LayoutFrame: Sendable, Hashable {
    public var index: Int
    public var time: Double
    public var progress: Double
    public var elements: [LayoutElement]
    public var scroll: ScrollInfo?
    public var drawList: [DrawOp]

    public init(
        index: Int, time: Double, progress: Double, elements: [LayoutElement], scroll: ScrollInfo? = nil,
        drawList: [DrawOp]
    ) {
        self.index = index
        self.time = time
        self.progress = progress
        self.elements = elements
        self.scroll = scroll
        self.drawList = drawList
    }

    public func element(_ id: String) -> LayoutElement? { elements.first { $0.id == id } }
}

public struct StateLayout: Sendable, Hashable {
    public var name: String
    public var frames: [LayoutFrame]
    /// Why the step changed nothing, when it was ignored ("insertSuggestion ignored: marked text
    /// is active").
    public var note: String?
    /// The next step began before this state settled: its last frame is mid-motion.
    public var interrupted = false
    /// Seconds from the fixture's first step to this state's step (the clock every frame's
    /// `time` is counted from): where the state sits on the fixture's timeline.
    public var start = 0.0
    /// The curve the state's step moves with and how long that move runs: what preview reports
    /// (a spring's run is its settling time). nil when the kind names no curve or nothing moved.
    public var motion: StepMotion?

    public init(name: String, frames: [LayoutFrame], note: String? = nil) {
        self.name = name
        self.frames = frames
        self.note = note
    }
}

/// A step's move on its fixture's curve: the curve's name and the seconds from the step's start
/// until the move ends (for a spring, until it settles by the rule of docs/fixtures/README.md).
public struct StepMotion: Sendable, Hashable {
    public var curve: String
    public var seconds: Double
    public var isSpring: Bool

    public init(curve: AnimationCurve, seconds: Double) {
        self.curve = curve.shapeName
        self.seconds = seconds
        if case .spring = curve { isSpring = true } else { isSpring = false }
    }

    /// `spring(response: 0.55, dampingFraction: 1) settles in 0.583 s`, `easeInOut runs 0.3 s`.
    public var summary: String {
        "\(curve) \(isSpring ? "settles in" : "runs") \(CurveNumber.text((seconds * 1000).rounded() / 1000)) s"
    }
}

public struct Canvas: Sendable, Hashable {
    public var width: Double
    public var height: Double
    public var scale: Double

    public init(width: Double, height: Double, scale: Double) {
        self.width = width
        self.height = height
        self.scale = scale
    }

    public var pixelWidth: Int { Int((width * scale).rounded()) }
    public var pixelHeight: Int { Int((height * scale).rounded()) }
}

/// Everything the rules decided for one fixture: the canvas and every frame of every state.
public struct FixtureLayout: Sendable {
    public var fixtureID: String
    public var canvas: Canvas
    public var states: [StateLayout]

    public init(fixtureID: String, canvas: Canvas, states: [StateLayout]) {
        self.fixtureID = fixtureID
        self.canvas = canvas
        self.states = states
    }

    public var frameCount: Int { states.reduce(0) { $0 + $1.frames.count } }
}
