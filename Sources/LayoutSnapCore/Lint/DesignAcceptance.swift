/// A lint finding the built-in design causes and accepts, with its reason: the design's own
/// colours or geometry, which a user's fixture cannot change and so cannot fix.
///
/// A finding is the design's only when everything that caused it is the design's: the same rule,
/// kind and element, and then, for contrast, the very colours the design draws there (the text's
/// token, alpha included, over the background its tokens composite to, each channel within half
/// an 8-bit level), or, for geometry, the seed's placement in a frame the design animates. The
/// same element in another colour (a fixture's or a theme's own) is linted in full.
public struct DesignAcceptance: Sendable {
    public enum Cause: Sendable {
        /// Text in `text` over the opaque colour the `background` layers (bottom first)
        /// composite to, resolved in the fixture's appearance.
        case contrast(text: @Sendable (Palette) -> Color, background: [@Sendable (Palette) -> Color])
        /// An element outside `container` in a frame that is not the state's settled one: where
        /// the seed's lerps put it while the view animates.
        case outsideWhileAnimating(container: String)
    }

    public var rule: LintRule
    public var kind: String
    /// The element the finding is about; `message:*` matches every message.
    public var element: String
    public var cause: Cause
    public var reason: String

    public init(rule: LintRule, kind: String, element: String, cause: Cause, reason: String) {
        self.rule = rule
        self.kind = kind
        self.element = element
        self.cause = cause
        self.reason = reason
    }

    /// Whether `finding`, in a frame of a `kind` fixture drawn with `palette`'s appearance (settled
    /// or not), is this entry's. `builtInGeometry`: the fixture's theme lays the kind out with the
    /// built-in numbers (a theme's own geometry is linted in full).
    public func accepts(
        _ finding: LintFinding, kind: String, palette: Palette, settled: Bool, builtInGeometry: Bool = true
    ) -> Bool {
        guard finding.rule == rule, kind == self.kind, let subject = finding.elements.first,
            element.hasSuffix("*") ? subject.hasPrefix(element.dropLast()) : subject == element
        else { return false }
        switch cause {
        case .contrast(let text, let layers):
            guard let colors = finding.colors else { return false }
            let background = layers.reduce(Color.white) { LayoutLinter.over($1(palette), $0) }
            return Self.same(colors.text, text(palette)) && Self.same(colors.background, background)
        case .outsideWhileAnimating(let container):
            return builtInGeometry && !settled && finding.elements == [element, container]
        }
    }

    /// The same colour once drawn: every channel (and alpha) within half an 8-bit level.
    static func same(_ a: Color, _ b: Color) -> Bool {
        let half = 0.5 / 255
        return abs(a.red - b.red) <= half && abs(a.green - b.green) <= half && abs(a.blue - b.blue) <= half
            && abs(a.alpha - b.alpha) <= half
    }
}

/// The built-in design (the seeds' iOS look, `Palette` and the kinds' rules): the findings it
/// accepts. A new project's first verify shows none of them.
public enum BuiltInDesign {
    public static let accepted: [DesignAcceptance] = [
        DesignAcceptance(
            rule: .contrast, kind: "chat", element: "message:*",
            cause: .contrast(text: { $0.onAccent }, background: [{ $0.accent }]),
            reason:
                "user bubbles are iOS's white on the system accent blue (4.02:1 light, 3.65:1 dark), Apple's own Messages colours as seed 002 draws them"
        ),
        DesignAcceptance(
            rule: .contrast, kind: "chat", element: "input",
            cause: .contrast(text: { $0.secondary }, background: [{ $0.field }]),
            reason:
                "the empty draft shows the \"Message\" placeholder in iOS's secondary label colour (3.44:1), as UIKit draws placeholders"
        ),
        DesignAcceptance(
            rule: .contrast, kind: "chat", element: "status",
            cause: .contrast(text: { $0.secondary }, background: [{ $0.canvas }]),
            reason: "the status row (\"Thinking\") is iOS's secondary label colour (3.3:1), as seed 002 styles it"),
        DesignAcceptance(
            rule: .contrast, kind: "chat", element: "banner",
            cause: .contrast(text: { $0.secondary }, background: [{ $0.bubbleGray }]),
            reason: "the offline banner's label is iOS's secondary label colour, as seed 002 styles it"),
        DesignAcceptance(
            rule: .contrast, kind: "composer", element: "placeholder",
            cause: .contrast(text: { $0.secondary }, background: [{ $0.field }]),
            reason: "placeholders are iOS's secondary label colour (3.44:1), as UIKit draws them"),
        DesignAcceptance(
            rule: .contrast, kind: "post", element: "author",
            cause: .contrast(
                text: { _ in PostStyle.default.authorColor },
                background: [{ $0.canvas }, { _ in PostStyle.default.cardFill }]),
            reason: "seed 003 draws the author line at 50% black: 3.97:1 on the card, kept as the seed has it"),
        DesignAcceptance(
            rule: .outsideContainer, kind: "post", element: "author", cause: .outsideWhileAnimating(container: "card"),
            reason:
                "seed 003 places the author 24 pt below the whole body while the card's height follows f, so it hangs below the card until the card catches up"
        ),
        DesignAcceptance(
            rule: .outsideContainer, kind: "post", element: "body", cause: .outsideWhileAnimating(container: "card"),
            reason:
                "seed 003 reveals the body from the image's bottom while the card's height is lerped, so its first revealed lines lie below the card for a few frames"
        ),
    ]

    /// The entry that accepts `finding`, if any.
    public static func acceptance(
        for finding: LintFinding, kind: String, palette: Palette, settled: Bool, builtInGeometry: Bool = true
    ) -> DesignAcceptance? {
        accepted.first {
            $0.accepts(finding, kind: kind, palette: palette, settled: settled, builtInGeometry: builtInGeometry)
        }
    }

    /// Whether `theme` lays out and moves `kind` with the built-in design's numbers.
    public static func hasBuiltInGeometry(_ theme: Theme, kind: String) -> Bool {
        switch kind {
        case "post": theme.post == .default && theme.motion == MotionStyle() && theme.textStyles == TextStyles()
        default: true
        }
    }
}
