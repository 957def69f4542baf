/// Device presets of reference/swiftui-facts.md (portrait, points).
public struct Device: Sendable, Hashable {
    public var name: String
    public var width: Double
    public var height: Double
    public var scale: Double
    public var safeAreaTop: Double
    public var safeAreaBottom: Double
    /// Keyboard height including the suggestion bar.
    public var keyboardHeight: Double

    public static let all: [Device] = [
        Device(
            name: "iphone-se", width: 375, height: 667, scale: 2, safeAreaTop: 20, safeAreaBottom: 0,
            keyboardHeight: 260),
        Device(
            name: "iphone-15", width: 393, height: 852, scale: 3, safeAreaTop: 59, safeAreaBottom: 34,
            keyboardHeight: 336),
        Device(
            name: "iphone-15-pro-max", width: 430, height: 932, scale: 3, safeAreaTop: 59, safeAreaBottom: 34,
            keyboardHeight: 345),
        Device(
            name: "iphone-16-pro", width: 402, height: 874, scale: 3, safeAreaTop: 62, safeAreaBottom: 34,
            keyboardHeight: 335),
        Device(
            name: "iphone-16-pro-max", width: 440, height: 956, scale: 3, safeAreaTop: 62, safeAreaBottom: 34,
            keyboardHeight: 346),
    ]

    /// Other names the reference table gives for the same sizes.
    static let aliases: [String: String] = [
        "iphone-15-pro": "iphone-15", "iphone-16": "iphone-15",
        "iphone-15-plus": "iphone-15-pro-max", "iphone-16-plus": "iphone-15-pro-max",
    ]

    public static let defaultName = "iphone-15"

    public static func named(_ name: String) -> Device? {
        let canonical = aliases[name] ?? name
        return all.first { $0.name == canonical }
    }

    public static var allNames: [String] { all.map(\.name) + aliases.keys.sorted() }
}
