/// A theme as written (layoutsnap.json's `theme`, one of its `themes`, a fixture's `theme`
/// object): the tokens it sets over what it is merged onto. Decoded by `ThemeTokens`' paths, so
/// a misspelt key is refused with a did-you-mean like any fixture field.

import LayoutSnapJSON

public struct ThemePatch: Sendable, Hashable {
    /// By token path.
    public var values: [String: ThemeValue] = [:]

    public init() {}

    public var isEmpty: Bool { values.isEmpty }

    /// `theme` with these tokens set (each token is one field, so their order does not matter).
    public func applied(to theme: Theme) -> Theme {
        var t = theme
        for (path, value) in values { ThemeTokens.token(path)?.write(&t, value) }
        return t
    }

    // MARK: decoding

    /// The token paths as a tree of object keys.
    final class KeyTree: Sendable {
        let children: [(key: String, tree: KeyTree)]
        let token: ThemeToken?

        init(children: [(key: String, tree: KeyTree)], token: ThemeToken?) {
            self.children = children
            self.token = token
        }

        static func build(_ tokens: [(keys: ArraySlice<String>, token: ThemeToken)]) -> KeyTree {
            if tokens.count == 1, tokens[0].keys.isEmpty { return KeyTree(children: [], token: tokens[0].token) }
            var order: [String] = []
            var groups: [String: [(keys: ArraySlice<String>, token: ThemeToken)]] = [:]
            for t in tokens {
                let key = t.keys.first!
                if groups[key] == nil { order.append(key) }
                groups[key, default: []].append((t.keys.dropFirst(), t.token))
            }
            return KeyTree(children: order.map { ($0, build(groups[$0]!)) }, token: nil)
        }

        static let root = build(ThemeTokens.all.map { ($0.keys[...], $0) })
    }

    /// `families`: the font families a family token may name (the bundled ones and
    /// layoutsnap.json's `fonts`); any other would silently be set in Inter.
    public static func decode(_ element: JSONElement, families: [String]) throws(JSONDecodingError) -> ThemePatch {
        var patch = ThemePatch()
        try decode(element, tree: KeyTree.root, families: families, into: &patch)
        return patch
    }

    static func decode(
        _ element: JSONElement, tree: KeyTree, families: [String], into patch: inout ThemePatch
    ) throws(JSONDecodingError) {
        let o = try element.object()
        for (key, child) in tree.children {
            guard let e = o.optional(key) else { continue }
            if let token = child.token {
                let value = try value(e, token.type)
                if case .family(let name?) = value, !families.contains(name) {
                    let close = families.first { ObjectReader.editDistance($0.lowercased(), name.lowercased()) <= 2 }
                    throw e.error(
                        "no font family \"\(name)\"" + (close.map { "; did you mean \"\($0)\"?" } ?? "")
                            + " (families: \(families.joined(separator: ", ")); layoutsnap.json's \"fonts\" adds a family from its files)"
                    )
                }
                patch.values[token.path] = value
            } else {
                try decode(e, tree: child, families: families, into: &patch)
            }
        }
        try o.finish()
    }

    static func value(_ e: JSONElement, _ type: ThemeToken.ValueType) throws(JSONDecodingError) -> ThemeValue {
        switch type {
        case .color: return .color(try color(e))
        case .number(let range): return .number(try e.double(in: range, what: "a number"))
        case .integer(let range): return .integer(try e.int(in: range, what: "a whole number"))
        case .family:
            let name = try e.string()
            guard !name.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw e.error("a font family may not be empty")
            }
            return .family(name)
        case .weight: return .weight(try e.enumeration(FontWeight.self))
        case .curve: return .curve(try FixtureDecoder.decodeCurve(e, duration: MotionStyle().expandDuration))
        case .spring: return .spring(try FixtureDecoder.decodeSpring(e))
        }
    }

    /// `#RRGGBB` or `#RRGGBBAA`.
    static func color(_ e: JSONElement) throws(JSONDecodingError) -> Color {
        let text = try e.string()
        let digits = text.dropFirst()
        guard text.hasPrefix("#"), digits.count == 6 || digits.count == 8,
            digits.allSatisfy(\.isHexDigit), let hex = UInt32(digits, radix: 16)
        else {
            throw e.error("expected a colour as \"#RRGGBB\" or \"#RRGGBBAA\" (hex digits), found \"\(text)\"")
        }
        return Color(hex: hex, hasAlpha: digits.count == 8)
    }

    /// The JSON Schema of a theme object, from the same tree.
    public static let schema: SchemaNode = schema(KeyTree.root)

    static func schema(_ tree: KeyTree) -> SchemaNode {
        .object(
            tree.children.map { key, child in
                if let token = child.token { return SchemaField(key, node(token.type), token.help) }
                return SchemaField(key, schema(child), groupHelp[key])
            })
    }

    static func node(_ type: ThemeToken.ValueType) -> SchemaNode {
        switch type {
        case .color: .leaf([("type", "string"), ("pattern", "^#([0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$")])
        case .number(let range): .number(range)
        case .integer(let range): .integer(range)
        case .family: .leaf([("type", "string"), ("pattern", "\\S")])
        case .weight: .enumeration(FontWeight.self)
        case .curve: .ref("curve")
        case .spring: FixtureSchema.springObject
        }
    }

    static let groupHelp: [String: String] = [
        "colors": "Colours per appearance, \"#RRGGBB\" or \"#RRGGBBAA\".",
        "light": "The light appearance's colours.", "dark": "The dark appearance's colours.",
        "chat": "The chat's geometry.", "composer": "The composer's geometry.",
        "post": "The post card's geometry, colours and fixed fonts.",
        "transcript": "The transcript's scroll indicator.",
        "keyboard": "The drawn keyboard's geometry and label sizes.",
        "textStyles": "Text styles: family, weight, and size and leading per Dynamic Type size.",
        "size": "Points per Dynamic Type size.", "leading": "Line height per Dynamic Type size.",
        "motion": "Springs and the post card's expand curve.", "expand": "The post card's expand and collapse.",
    ]
}

extension ThemePatch: CanonicallyHashed {
    /// What a fixture's own theme does is in its `theme`, which the key hashes; how it was
    /// written is not.
    public var canonicalValue: Any { "" }
}

extension Theme: CanonicallyHashed {
    /// Every token's value by path, or one word for the built-in design (the common case, kept
    /// cheap: a warm run hashes every fixture).
    public var canonicalValue: Any {
        if self == .default { return "built-in" }
        return ThemeTokens.all.map { "\($0.path)=\($0.read(self))" }.joined(separator: "\n")
    }
}

/// A project's themes: layoutsnap.json's `theme` over the built-in design (the one named
/// `default`), and its `themes`, each over that.
public struct ThemeBook: Sendable, Hashable {
    /// Each patch is merged once, when set: every fixture decoded asks for its theme.
    public var project = ThemePatch() {
        didSet { resolve() }
    }
    public var named: [String: ThemePatch] = [:] {
        didSet { resolve() }
    }
    private var projectTheme = Theme.default
    private var namedThemes: [String: Theme] = [:]

    private mutating func resolve() {
        projectTheme = project.applied(to: .default)
        namedThemes = named.mapValues { $0.applied(to: projectTheme) }
    }
    /// The font families a theme may name: the bundled ones and layoutsnap.json's `fonts`.
    public var families = BrandFont.bundledFamilies

    public init() {}

    public static let defaultName = "default"

    /// Every name a fixture or a variant may give, `default` first.
    public var names: [String] { [Self.defaultName] + named.keys.sorted() }

    /// The theme named `name` (nil or `default`: the project's), or nil when there is none.
    public func theme(named name: String? = nil) -> Theme? {
        guard let name, name != Self.defaultName else { return projectTheme }
        return namedThemes[name]
    }

    /// The theme `element` names, or an error listing the names there are.
    func theme(named element: JSONElement) throws(JSONDecodingError) -> Theme {
        let name = try element.string()
        if let theme = theme(named: name) { return theme }
        let close = names.first { ObjectReader.editDistance($0, name) <= 2 }
        throw element.error(
            "unknown theme \"\(name)\"" + (close.map { "; did you mean \"\($0)\"?" } ?? "")
                + " (themes: \(names.joined(separator: ", ")); layoutsnap.json's \"themes\" names more)")
    }
}

extension ThemePatch {
    /// The patch as a theme object, in the table's order: what layoutsnap.json would hold to set
    /// these tokens (a colour as 8-bit hex, so one that is not 8-bit exact moves by less than half
    /// a level when read back).
    public var json: JSONOutput {
        func insert(
            _ keys: ArraySlice<String>, _ value: JSONOutput, into object: inout [(key: String, value: JSONOutput)]
        ) {
            let key = keys.first!
            if keys.count == 1 {
                object.append((key, value))
                return
            }
            var child: [(key: String, value: JSONOutput)] = []
            if let i = object.firstIndex(where: { $0.key == key }), case .object(let existing) = object[i].value {
                child = existing
                insert(keys.dropFirst(), value, into: &child)
                object[i].value = .object(child)
            } else {
                insert(keys.dropFirst(), value, into: &child)
                object.append((key, .object(child)))
            }
        }
        var root: [(key: String, value: JSONOutput)] = []
        for token in ThemeTokens.all {
            guard let value = values[token.path], let output = value.json else { continue }
            insert(token.keys[...], output, into: &root)
        }
        return .object(root)
    }

    /// Every token of `theme`: a theme object that spells it out whole.
    public static func whole(_ theme: Theme) -> ThemePatch {
        var p = ThemePatch()
        for token in ThemeTokens.all { p.values[token.path] = token.read(theme) }
        return p
    }
}

extension ThemeValue {
    /// As a theme object writes it; nil for the bundled family (written by leaving it out).
    var json: JSONOutput? {
        switch self {
        case .color(let c): return .string(c.hexString)
        case .number(let n): return .number(n)
        case .integer(let i): return .int(i)
        case .family(let f): return f.map { .string($0) }
        case .weight(let w): return .string(w.rawValue)
        case .curve(.timing(let c, _)):
            if let preset = CubicBezier.presets.first(where: { $0.curve == c }) { return .string(preset.name) }
            return .object([("cubic", .array([c.x1, c.y1, c.x2, c.y2].map { .number($0) }))])
        case .curve(.spring(let s)): return .object([("spring", ThemeValue.spring(s).json!)])
        case .spring(let s):
            return .object([("response", .number(s.response)), ("dampingFraction", .number(s.dampingFraction))])
        }
    }
}
