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

    public init(
        name: String? = nil, device: Device? = nil, textSize: ContentSizeCategory? = nil, appearance: Appearance? = nil,
        direction: LayoutDirection? = nil
    ) {
        self.device = device
        self.textSize = textSize
        self.appearance = appearance
        self.direction = direction
        self.name = ""
        self.name = name ?? defaultName
    }

    /// Its values joined by `+` in the order device, textSize, appearance, direction
    /// (`iphone-se+AX3`, `dark+rtl`).
    public var defaultName: String {
        [device?.name, textSize?.rawValue, appearance?.rawValue, direction?.rawValue].compactMap { $0 }.joined(
            separator: "+")
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
        f.content = content.at(textSize)
        return f
    }
}
