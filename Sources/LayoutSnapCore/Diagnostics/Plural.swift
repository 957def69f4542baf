/// How every user-facing count is worded: `1 frame`, `2 frames`, `1 cause explains`, `2 causes
/// explain`. The one place the terminal, accept, prune, lint, review and fuzz put a noun (or verb)
/// beside a number; the report's pages have its JavaScript twin, `Words.plural` in `words.js`.
public enum Plural {
    /// `1 frame`, `0 frames`, `3 frames`; `plural` for words that do not just take an `s`
    /// (`count(2, "match", "matches")`).
    public static func count(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(n) " + word(n, singular, plural)
    }

    /// The word alone, as `n` wants it: `word(1, "differs", "differ")`, `word(2, "its", "their")`.
    public static func word(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
        n == 1 ? singular : plural ?? singular + "s"
    }

    /// `a`, `a and b`, `a, b and c`.
    public static func list(_ items: [String]) -> String {
        guard let last = items.last else { return "" }
        return items.count == 1 ? last : items.dropLast().joined(separator: ", ") + " and " + last
    }
}
