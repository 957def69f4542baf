/// The user's preferred text size (iOS's content size category, reference/dynamic-type.md): it
/// scales every text style, its size and its leading. Seven standard categories and five
/// accessibility ones; `large` is the default and the sizes of `TextStyle.font`.
public enum ContentSizeCategory: String, Sendable, Hashable, CaseIterable {
    case xSmall, small, medium, large, xLarge, xxLarge, xxxLarge
    case ax1 = "AX1"
    case ax2 = "AX2"
    case ax3 = "AX3"
    case ax4 = "AX4"
    case ax5 = "AX5"

    /// The category a fixture names: its name in any case (`AX3`, `ax3`, `Large`), or SwiftUI's
    /// (`accessibility3`, `extraSmall`... are not SwiftUI's; `xSmall` and `xxxLarge` are).
    public static func named(_ text: String) -> ContentSizeCategory? {
        let lower = text.lowercased()
        if let c = allCases.first(where: { $0.rawValue.lowercased() == lower }) { return c }
        if lower.hasPrefix("accessibility"), let n = Int(lower.dropFirst("accessibility".count)), (1...5).contains(n) {
            return allCases[6 + n]
        }
        return nil
    }

    /// Whether this is one of the five accessibility sizes.
    public var isAccessibility: Bool { rawValue.hasPrefix("AX") }

    /// `size/leading` per style, in the order of `TextStyle.allCases`, one row per category
    /// (Apple's Human Interface Guidelines, "Dynamic Type sizes", iOS).
    private static let table: [ContentSizeCategory: [(Double, Double)]] = [
        .xSmall: [
            (31, 38), (25, 31), (19, 24), (17, 22), (14, 19), (14, 19), (13, 18), (12, 16), (12, 16), (11, 13),
            (11, 13),
        ],
        .small: [
            (32, 39), (26, 32), (20, 25), (18, 23), (15, 20), (15, 20), (14, 19), (13, 18), (12, 16), (11, 13),
            (11, 13),
        ],
        .medium: [
            (33, 40), (27, 33), (21, 26), (19, 24), (16, 21), (16, 21), (15, 20), (14, 19), (12, 16), (11, 13),
            (11, 13),
        ],
        .large: [
            (34, 41), (28, 34), (22, 28), (20, 25), (17, 22), (17, 22), (16, 21), (15, 20), (13, 18), (12, 16),
            (11, 13),
        ],
        .xLarge: [
            (36, 43), (30, 37), (24, 30), (22, 28), (19, 24), (19, 24), (18, 23), (17, 22), (15, 20), (14, 19),
            (13, 18),
        ],
        .xxLarge: [
            (38, 46), (32, 39), (26, 32), (24, 30), (21, 27), (21, 27), (20, 25), (19, 24), (17, 22), (16, 21),
            (15, 20),
        ],
        .xxxLarge: [
            (40, 48), (34, 41), (28, 34), (26, 32), (23, 29), (23, 29), (22, 28), (21, 28), (19, 24), (18, 23),
            (17, 22),
        ],
        .ax1: [
            (44, 52), (38, 46), (34, 41), (31, 38), (28, 34), (28, 34), (26, 32), (25, 31), (23, 29), (22, 28),
            (20, 25),
        ],
        .ax2: [
            (48, 57), (43, 51), (39, 47), (37, 44), (33, 40), (33, 40), (32, 39), (30, 37), (27, 33), (26, 32),
            (24, 30),
        ],
        .ax3: [
            (52, 61), (48, 57), (44, 52), (43, 51), (40, 48), (40, 48), (38, 46), (36, 43), (33, 40), (32, 39),
            (29, 35),
        ],
        .ax4: [
            (56, 66), (53, 62), (50, 59), (49, 58), (47, 56), (47, 56), (44, 52), (42, 50), (38, 46), (37, 44),
            (34, 41),
        ],
        .ax5: [
            (60, 70), (58, 68), (56, 66), (55, 65), (53, 62), (53, 62), (51, 60), (49, 58), (44, 52), (43, 51),
            (40, 48),
        ],
    ]

    /// A style's size and leading at this category.
    public func metrics(_ style: TextStyle) -> (size: Double, leading: Double) {
        let row = Self.table[self]!
        let (size, leading) = row[TextStyle.allCases.firstIndex(of: style)!]
        return (size, leading)
    }
}
