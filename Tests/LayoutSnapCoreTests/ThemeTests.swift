import XCTest
@testable import LayoutSnapCore
import LayoutSnapTestSupport

/// Themes (docs/themes.md): layoutsnap.json's `theme` and `themes`, a fixture's `theme`, and a
/// variant's; each token moves exactly what it names, by the numbers of the kinds' rules.
final class ThemeTests: XCTestCase {
    func config(_ json: String) throws -> ProjectConfig {
        try ProjectConfig.decode(bytes: Array(json.utf8), file: "layoutsnap.json")
    }

    func fixture(_ json: String, project: String = "{}") throws -> Fixture {
        try FixtureDecoder.decode(
            bytes: Array(json.utf8), id: "t", file: "t.json", folder: .empty(), defaults: config(project).defaults)
    }

    func firstFrame(_ f: Fixture) throws -> LayoutFrame {
        try LayoutEngine.layout(f, measurer: FakeMeasurer()).states[0].frames[0]
    }

    let chat = #"{"kind": "chat", "messages": [{"id": "m1", "role": "user", "text": "Hi"}]}"#

    // MARK: the table

    /// Each token changes its own value and nothing else's: writing every token's value back
    /// into a theme changed in one token finds exactly that token changed.
    func testEveryTokenIsLiveAndItsOwn() {
        for token in ThemeTokens.all {
            var changed = Theme.default
            token.write(&changed, perturbed(token.read(.default)))
            XCTAssertNotEqual(changed, .default, "\(token.path) changes nothing")
            let moved = ThemeTokens.all.filter { $0.read(changed) != $0.read(.default) }.map(\.path)
            XCTAssertEqual(moved, [token.path], "\(token.path)")
        }
        XCTAssertEqual(Set(ThemeTokens.all.map(\.path)).count, ThemeTokens.all.count, "paths are unique")
    }

    /// Every number and colour stored in a theme (its palettes and kinds' styles) is some
    /// token's: a field added to a style without a token fails here.
    func testEveryStoredValueHasAToken() {
        var leaves: [String: String] = [:]
        func walk(_ value: Any, _ path: String) {
            let m = Mirror(reflecting: value)
            if path.hasPrefix("textStyles") || path.hasPrefix("motion") { return }  // generated per style; enums
            if m.displayStyle == .struct, !(value is Color) {
                for child in m.children { walk(child.value, path.isEmpty ? child.label! : path + "." + child.label!) }
            } else {
                leaves[path] = "\(value)"
            }
        }
        walk(Theme.default, "")
        // The keyboard's label fonts are the system's: only their sizes are tokens.
        let fixed = leaves.keys.filter {
            ($0.contains("letterFont.") || $0.contains("wordFont.")) && !$0.hasSuffix(".size")
        }
        for token in ThemeTokens.all {
            var changed = Theme.default
            token.write(&changed, perturbed(token.read(.default)))
            var after: [String: String] = [:]
            swap(&leaves, &after)
            walk(changed, "")
            swap(&leaves, &after)
            for (path, value) in after where leaves[path] != value { leaves.removeValue(forKey: path) }
        }
        XCTAssertEqual(Set(leaves.keys).subtracting(fixed).sorted(), [], "stored values no token reaches")
    }

    func perturbed(_ v: ThemeValue) -> ThemeValue {
        switch v {
        case .color(let c): .color(Color(red: 1 - c.red, green: c.green, blue: c.blue, alpha: c.alpha))
        case .number(let n): .number(n + 0.5)
        case .integer(let i): .integer(i + 1)
        case .family(let f): .family((f ?? "") + "Brand")
        case .weight(let w): .weight(w == .bold ? .regular : .bold)
        case .curve: .curve(.timing(.linear, duration: 1))
        case .spring(let s): .spring(Spring(response: s.response + 0.1, dampingFraction: s.dampingFraction))
        }
    }

    // MARK: decoding

    func testAProjectThemeANamedThemeAndAFixturesOwnMergeInThatOrder() throws {
        let project = #"""
            {"theme": {"colors": {"light": {"accent": "#34C759"}}, "chat": {"bubbleRadius": 16, "spacing": 12}},
             "themes": {"brand": {"chat": {"bubbleRadius": 4}, "colors": {"dark": {"canvas": "#101010"}}}}}
            """#
        let plain = try fixture(chat, project: project)
        XCTAssertEqual(plain.theme.light.accent, Color(hex: 0x34C759))
        XCTAssertEqual(plain.theme.chat.bubbleRadius, 16)
        XCTAssertEqual(plain.theme.dark, Palette.dark, "what the project leaves out is built-in")

        let named = try fixture(##"{"kind": "chat", "theme": "brand"}"##, project: project)
        XCTAssertEqual(named.theme.chat.bubbleRadius, 4)
        XCTAssertEqual(named.theme.chat.spacing, 12, "a named theme is over the project's")
        XCTAssertEqual(named.theme.dark.canvas, Color(hex: 0x101010))

        let own = try fixture(##"{"kind": "chat", "theme": {"chat": {"spacing": 2}}}"##, project: project)
        XCTAssertEqual(own.theme.chat.spacing, 2)
        XCTAssertEqual(own.theme.chat.bubbleRadius, 16)
        XCTAssertEqual(own.theme.light.accent, Color(hex: 0x34C759))
    }

    func testMistakesAreNamedWithTheirPlace() throws {
        func message(_ json: String, project: String = "{}") -> String {
            do {
                _ = try fixture(json, project: project)
                return "decoded"
            } catch { return "\(error)" }
        }
        let misspelt = message(##"{"kind": "chat", "theme": {"chat": {"bubleRadius": 3}}}"##)
        XCTAssertTrue(misspelt.contains("$.theme.chat.bubleRadius"), misspelt)
        XCTAssertTrue(misspelt.contains("did you mean \"bubbleRadius\"?"), misspelt)
        let colour = message(##"{"kind": "chat", "theme": {"colors": {"light": {"accent": "green"}}}}"##)
        XCTAssertTrue(colour.contains("$.theme.colors.light.accent"), colour)
        XCTAssertTrue(colour.contains("\"#RRGGBB\" or \"#RRGGBBAA\""), colour)
        let range = message(##"{"kind": "chat", "theme": {"chat": {"bubbleFraction": 2}}}"##)
        XCTAssertTrue(range.contains("$.theme.chat.bubbleFraction"), range)
        let name = message(
            ##"{"kind": "chat", "theme": "brnad"}"##, project: ##"{"themes": {"brand": {}}}"##)
        XCTAssertTrue(name.contains("unknown theme \"brnad\"; did you mean \"brand\"?"), name)
        let variant = message(##"{"kind": "chat", "variants": {"theme": ["default", "nope"]}}"##)
        XCTAssertTrue(variant.contains("$.variants.theme[1]"), variant)
        XCTAssertTrue(variant.contains("themes: default"), variant)
        let family = message(
            ##"{"kind": "chat", "theme": {"textStyles": {"family": "Brand Snas"}}}"##,
            project: ##"{"fonts": {"Brand Sans": "b.ttf"}}"##)
        XCTAssertTrue(
            family.contains("$.theme.textStyles.family: no font family \"Brand Snas\"; did you mean \"Brand Sans\"?"),
            family)
        XCTAssertThrowsError(try config(##"{"themes": {"default": {}}}"##))
        XCTAssertThrowsError(try config(##"{"theme": {"motion": {"keyboard": {"response": 0}}}}"##))
    }

    // MARK: what tokens move, by the rules' numbers

    /// The chat's bubble: "Hi" is 2 x 8.5 = 17 fake points wide and 20.2878 tall (17 pt body);
    /// with 20 / 10 pt padding the bubble is 17 + 40 = 57 by 20.2878 + 20, with 16 pt corners
    /// in the theme's accent.
    func testChatGeometryAndColourComeFromTheTheme() throws {
        let project = #"""
            {"theme": {"colors": {"light": {"accent": "#34C759"}},
                       "chat": {"bubbleRadius": 16, "bubblePaddingH": 20, "bubblePaddingV": 10}}}
            """#
        let frame = try firstFrame(fixture(chat, project: project))
        let bubble = try XCTUnwrap(frame.element("message:m1")?.rect)
        XCTAssertEqual(bubble.width, 57)
        XCTAssertEqual(bubble.height, 20.2878 + 20, accuracy: 1e-9)
        XCTAssertTrue(
            frame.drawList.contains {
                if case .roundedRect(bubble, 16, Color(hex: 0x34C759), true) = $0 { true } else { false }
            }, "\(frame.drawList)")
    }

    /// The post card: 24 pt corners 30 pt down; a 0.5 s easeOut expand at 60 fps has 31 frames
    /// (0 to 30), and a fixture's own curve wins over the theme's.
    func testPostGeometryAndMotionComeFromTheTheme() throws {
        let project = #"""
            {"theme": {"post": {"cornerRadius": 24, "cardTop": 30},
                       "motion": {"expand": {"curve": "easeOut", "duration": 0.5}}}}
            """#
        let post = #"{"kind": "post", "title": "T", "body": "B", "steps": [{"expand": true}]}"#
        let f = try fixture(post, project: project)
        let states = try LayoutEngine.layout(f, measurer: FakeMeasurer()).states
        XCTAssertEqual(states[1].frames.count, 31)
        XCTAssertEqual(states[1].motion?.curve, "easeOut")
        XCTAssertEqual(states[1].motion?.seconds, 0.5)
        let card = try XCTUnwrap(states[0].frames[0].element("card")?.rect)
        XCTAssertEqual(card.y, 30)
        XCTAssertTrue(
            states[0].frames[0].drawList.contains {
                if case .roundedRect(card, 24, _, true) = $0 { true } else { false }
            })
        let own = try fixture(
            ##"{"kind": "post", "title": "T", "duration": 0.2, "steps": [{"expand": true}]}"##, project: project)
        XCTAssertEqual((own.content as? PostFixture)?.curve, .timing(.easeInOut, duration: 0.2))
    }

    /// A text style's size and leading at a Dynamic Type size, and every text's family: a
    /// transcript in body at AX3 with body 44 / 50 there is 1.1934 x 44 + 50 tall for two lines.
    func testTextStylesComeFromTheThemeAtEverySize() throws {
        let project = #"""
            {"fonts": {"Brand Sans": "Fonts/Brand.ttf"}, "theme": {"textStyles": {"family": "Brand Sans", "body": {"size": {"AX3": 44}, "leading": {"AX3": 50}}}}}
            """#
        let json = #"{"kind": "transcript", "text": "One\nTwo", "variants": {"textSize": ["AX3", "large"]}}"#
        let base = try fixture(json, project: project)
        let font = try XCTUnwrap((base.content as? TranscriptFixture)?.font)
        XCTAssertEqual(font.family, "Brand Sans")
        XCTAssertEqual(font.size, 17, "other sizes keep the table's")
        let ax3 = base.variants[0].apply(to: base)
        let big = try XCTUnwrap((ax3.content as? TranscriptFixture)?.font)
        XCTAssertEqual([big.size, big.leading], [44, 50])
        let viewport = try XCTUnwrap(try firstFrame(ax3).element("viewport")?.rect)
        XCTAssertEqual(viewport.height, 1.1934 * 44 + 50, accuracy: 1e-9)
    }

    /// `"theme": ["default", "brand"]` renders the fixture in both, its own tokens over each.
    func testVariantsVaryTheTheme() throws {
        let project = ##"{"themes": {"brand": {"colors": {"light": {"accent": "#AF52DE"}}, "chat": {"spacing": 3}}}}"##
        let base = try fixture(
            ##"{"kind": "chat", "theme": {"chat": {"spacing": 5}}, "variants": {"theme": ["default", "brand"], "appearance": ["light"]}}"##,
            project: project)
        XCTAssertEqual(base.variants.map(\.name), ["light+default", "light+brand"])
        let brand = base.variants[1].apply(to: base)
        XCTAssertEqual(brand.theme.light.accent, Color(hex: 0xAF52DE))
        XCTAssertEqual(brand.theme.chat.spacing, 5, "the fixture's own tokens win over the variant's theme")
        XCTAssertEqual(base.variants[0].apply(to: base).theme, base.theme)
    }

    // MARK: the built-in design and the cache key

    /// No theme, an empty one, and one that writes the defaults out are the built-in design,
    /// with the same key; a token changes the key.
    func testTheDefaultThemeIsTheBuiltInDesignAndKeysFollowTokens() throws {
        func key(_ f: Fixture) -> ResultKey {
            ResultKey.of(f, inputs: [], renderer: "r", environment: "e", lints: true)
        }
        let plain = try fixture(chat)
        XCTAssertEqual(plain.theme, .default)
        let empty = try fixture(chat, project: ##"{"theme": {}}"##)
        let spelt = try fixture(
            chat, project: ##"{"theme": {"chat": {"bubbleRadius": 18}, "colors": {"light": {"accent": "#007AFF"}}}}"##)
        XCTAssertEqual(key(empty), key(plain))
        XCTAssertEqual(key(spelt), key(plain))
        let changed = try fixture(chat, project: ##"{"theme": {"chat": {"bubbleRadius": 17}}}"##)
        XCTAssertNotEqual(key(changed), key(plain))
        XCTAssertEqual(try firstFrame(plain), try firstFrame(spelt))
    }
}
