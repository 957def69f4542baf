/// The layout direction a view is mirrored in (`direction`): SwiftUI's `layoutDirection`.
public enum LayoutDirection: String, Sendable, Hashable, CaseIterable {
    case ltr, rtl
}

/// One way a fixture is also rendered (`variants`): another device, Dynamic Type size, appearance
/// or direction. Each is a fixture of its own, `<id>@<name>`, with its own goldens; the fixture as
/// written is the base.
public struct FixtureVariant: Sendable, Hashable {
    public var name: String
    public var device: Device?
    public var textSize: ContentSizeCategory?
    public var appearance: Appearance?
    public var direction: LayoutDirection?
    /// A theme of the project's by name (`default` is the project's own), and that theme: the
    /// fixture's own `theme` object is laid over it.
    public var theme: String?
    public var themeBase: Theme?
    /// Where it was declared, for messages about what fails only in it; not part of what it is.
    public var origin: Origin?

    /// A variant's declaration: the file (nil for the fixture's own `variants`), the JSON path
    /// and line of its entry.
    public struct Origin: Sendable, Hashable, CustomStringConvertible {
        public var file: String?
        public var path: String
        public var line: Int

        /// `layoutsnap.json defaults.variants[1]`, `variants[0] (line 7)`.
        public var description: String {
            let place = path.hasPrefix("$.") ? String(path.dropFirst(2)) : path
            return file.map { "\($0) \(place)" } ?? "\(place) (line \(line))"
        }
    }

    public static func == (a: FixtureVariant, b: FixtureVariant) -> Bool {
        (a.name, a.device, a.textSize, a.appearance, a.direction, a.theme) == (
            b.name, b.device, b.textSize, b.appearance, b.direction, b.theme
        ) && a.themeBase == b.themeBase
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(device)
        hasher.combine(textSize)
        hasher.combine(appearance)
        hasher.combine(direction)
        hasher.combine(theme)
    }

    public init(
        name: String? = nil, device: Device? = nil, textSize: ContentSizeCategory? = nil, appearance: Appearance? = nil,
        direction: LayoutDirection? = nil, theme: String? = nil, themeBase: Theme? = nil
    ) {
        self.theme = theme
        self.themeBase = themeBase
        self.device = device
        self.textSize = textSize
        self.appearance = appearance
        self.direction = direction
        self.name = ""
        self.name = name ?? defaultName
    }

    /// Its values joined by `+` in the order device, textSize, appearance, direction, theme
    /// (`iphone-se+AX3`, `dark+rtl`, `dark+brand`).
    public var defaultName: String {
        [device?.name, textSize?.rawValue, appearance?.rawValue, direction?.rawValue, theme].compactMap { $0 }
            .joined(separator: "+")
    }

    /// A variant's fixture id, `<base id>@<name>`: also its folder in the goldens.
    public static func id(base: String, name: String) -> String { base + "@" + name }

    /// The base fixture's id of a variant's (`posts/x` for `posts/x@dark`); any other id is its own.
    public static func baseID(of id: String) -> String { String(id[..<(id.lastIndex(of: "@") ?? id.endIndex)]) }

    /// Whether `given` (`--variant`) names the variant `name`: the same letters in any case
    /// (`Large` for `large`, `ax3` for `AX3`), as the Dynamic Type table and SwiftUI spell them
    /// differently.
    public static func sameName(_ name: String, _ given: String) -> Bool {
        name.lowercased() == given.lowercased()
    }

    /// What a variant name may hold: it is a folder name in the goldens.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 100 && name != "." && name != ".."
            && name.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                    || "._+-".unicodeScalars.contains($0)
            }
    }

    /// The base fixture rendered this way: id `<base id>@<name>`, the device's canvas (size and
    /// scale), every text style at the text size, the appearance and the direction. It has no
    /// variants of its own.
    public func apply(to base: Fixture) -> Fixture {
        var f = base
        f.id = Self.id(base: base.id, name: name)
        f.variants = []
        if let device {
            f.device = device
            f.canvas = Canvas(width: device.width, height: device.height, scale: device.scale)
        }
        if let themeBase { f = f.themed(base.ownTheme.applied(to: themeBase)) }
        if let textSize { f = f.at(textSize) }
        if let appearance { f.appearance = appearance }
        if let direction { f.direction = direction }
        return f
    }
}

extension Fixture {
    /// The fixture at another Dynamic Type size: the fonts it names by text style take that
    /// size's metrics (explicit sizes stay), and the kinds' own styles follow `textSize`.
    public func at(_ textSize: ContentSizeCategory) -> Fixture {
        var f = self
        f.textSize = textSize
        f.content = content.at(textSize, theme: theme)
        return f
    }

    /// The fixture drawn in `theme`: its fonts set in the theme and the theme's defaults for
    /// what the fixture leaves out (`KindContent.at(_:theme:)`).
    public func themed(_ theme: Theme) -> Fixture {
        var f = self
        f.theme = theme
        f.content = content.at(textSize, theme: theme)
        return f
    }
}
