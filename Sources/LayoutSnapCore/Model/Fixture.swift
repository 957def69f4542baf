public enum Appearance: String, Sendable, Hashable, CaseIterable {
    case light, dark
}

/// Per-fixture comparison tolerance (docs/goldens.md "Tolerance").
public struct Tolerance: Sendable, Hashable {
    public var threshold: Double = 0.1
    public var maxDiffPixels: Int = 0
    public var maxDiffRatio: Double = 0
    public var includeAntialiasing: Bool = false

    public init(
        threshold: Double = 0.1, maxDiffPixels: Int = 0, maxDiffRatio: Double = 0, includeAntialiasing: Bool = false
    ) {
        self.threshold = threshold
        self.maxDiffPixels = maxDiffPixels
        self.maxDiffRatio = maxDiffRatio
        self.includeAntialiasing = includeAntialiasing
    }
}

/// A decoded, validated fixture (docs/fixtures/README.md).
public struct Fixture: Sendable {
    /// Path below the fixtures root without `.json` (`posts/long-body`).
    public var id: String
    /// The file it came from, as the user named it (for messages).
    public var file: String
    public var device: Device
    public var canvas: Canvas
    public var appearance: Appearance
    public var fps: Double
    /// nil: exact comparison.
    public var tolerance: Tolerance?
    /// `tolerance.timing.frames`: a state whose motion only moved by at most this many frames,
    /// ending as it did, is similar rather than failed (0: any change of timing fails).
    public var timingFrames: Int = 0
    /// The Dynamic Type size every text style is at (`textSize`; a variant's). The fonts in
    /// `content` are already at it; the kinds' own text styles read it from here.
    public var textSize: ContentSizeCategory = .large
    /// `direction`: rtl mirrors the view as SwiftUI does under a right-to-left layout direction.
    public var direction: LayoutDirection = .ltr
    /// The variants the fixture asks for (`variants`); each is rendered as a fixture of its own,
    /// `<id>@<variant name>`, beside this one, the base.
    public var variants: [FixtureVariant] = []
    /// The visual tokens it is drawn with: its theme (a named one or the project's) with its own
    /// `theme` object over it.
    public var theme: Theme = .default
    /// Its own `theme` object, kept to lay it over a variant's theme.
    public var ownTheme = ThemePatch()
    /// `lint.ignore`: lint findings the fixture accepts, each with its reason.
    public var lintIgnores: [LintIgnore] = []
    /// The kind-specific part (`Kinds/<Kind>/`), which knows its kind and lays itself out.
    public var content: any KindContent

    public init(
        id: String, file: String, device: Device, canvas: Canvas, appearance: Appearance,
        fps: Double, tolerance: Tolerance?, content: any KindContent
    ) {
        self.id = id
        self.file = file
        self.device = device
        self.canvas = canvas
        self.appearance = appearance
        self.fps = fps
        self.tolerance = tolerance
        self.content = content
    }

    public var palette: Palette { theme.palette(appearance) }

    public var kind: FixtureKind { content.kind }

    /// The fixture's image file at `path` as the fixture names it, with its place in the file.
    public func imageSource(path: String) -> InputFile? {
        content.inputFiles.first { $0.path == path }
    }

    /// A rough count of the frames the fixture renders, known before any layout: what the batch
    /// uses to start the most expensive fixtures first.
    public var estimatedFrames: Double { content.estimatedFrames(fps: fps) }

    /// Estimated work, in pixels drawn: frames times pixels, and the texts laid out at about
    /// what drawing 10,000 pixels costs each (a 500-message chat of one frame takes as long as
    /// some twenty frames of a phone's screen; weighed by its frame alone, it came last and kept
    /// one worker busy after the other had finished).
    public var estimatedCost: Double {
        estimatedFrames * Double(canvas.pixelWidth) * Double(canvas.pixelHeight)
            + content.estimatedTexts * Self.textCostInPixels
    }

    static let textCostInPixels = 10_000.0
}

/// The limits of docs/fixtures/README.md "Limits", checked before anything reaches Pango or Cairo.
public enum Limits {
    public static let canvasSide: ClosedRange<Double> = 1...8192
    public static let maxCanvasPixels = 64 * 1024 * 1024
    /// Cairo's image surfaces are at most 32767 pixels on a side.
    public static let maxCanvasSidePixels = 32767
    public static let scale: ClosedRange<Double> = 0.25...8
    public static let fps: ClosedRange<Double> = 1...240
    public static let maxTextBytes = 1_000_000
    /// Line breaks in all of a fixture's text. Not in docs/fixtures/README.md "Limits": Pango 1.50 lays out a text of n
    /// paragraphs in O(n²) (2,000 took 0.26 s, 4,000 took 1 s), inside one call no watchdog can
    /// stop; 1 MB of "\n" would take hours. 5,000 keeps any single layout under about 2 s.
    public static let maxLineBreaks = 5_000
    public static let maxFramesPerFixture = Timeline.maxFramesPerFixture
    public static let maxFixtureFileBytes = 16 * 1024 * 1024
    /// A result cache entry (a fixture's frame hashes and lints): larger is not one.
    public static let maxCacheEntryBytes = 64 * 1024 * 1024
    /// A file a fixture names, read whole for its cache key: larger is hashed as unreadable.
    public static let maxInputFileBytes = 256 * 1024 * 1024
    /// Errors reported for one file: enough for any real mix of mistakes, few enough to read.
    public static let maxErrorsPerFile = 20
    public static let maxGoldenPixels = 64 * 1024 * 1024
    public static let animationDuration: ClosedRange<Double> = 0...60
    public static let stepDelay: ClosedRange<Double> = 0...3600
    /// A spring's response (seconds) and damping fraction.
    public static let springParameter: ClosedRange<Double> = 0.01...10
    /// A spring's physical constants (`spring(mass:stiffness:damping:)`); the response and damping
    /// fraction they make must also be within `springParameter`.
    public static let springMass: ClosedRange<Double> = 0.01...100
    public static let springStiffness: ClosedRange<Double> = 0.01...1_000_000
    public static let springDamping: ClosedRange<Double> = 0...100_000
    /// A cubic Bézier's control points: x within the curve's time (as CSS requires, so time
    /// never runs backwards), y free to overshoot within reason.
    public static let cubicX: ClosedRange<Double> = 0...1
    public static let cubicY: ClosedRange<Double> = -5...5
    /// Variants per fixture: each is rendered in full, so this bounds a fixture's cost.
    public static let maxVariants = 64
    /// `tolerance.timing.frames`: ten seconds at 60 fps is far beyond any timing slip worth calling similar.
    public static let maxTimingToleranceFrames = 600
}
