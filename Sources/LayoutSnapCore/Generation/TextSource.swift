/// The scripts generated text is written in (docs/commands.md "generate"): each exercises a different path through
/// shaping and line breaking (spaces or none, right to left, colour glyphs, fallbacks mid-line).
public enum Script: String, Sendable, Hashable, CaseIterable {
    case latin, cjk, arabic, emoji, mixed
}

/// Word lists and the rules that string them into text: from one word to a few thousand
/// characters, with the inline markup of docs/fixtures/README.md "Text" and, for post bodies, headings, bullets and
/// blank-line paragraphs. Every choice is drawn from the `SeededRandom` it is given.
public enum TextSource {
    /// Plain words, a few with accents (one precomposed, one decomposed: "e" + U+0301, a single
    /// character that must never be split), long words and an unbreakable URL that is wider than
    /// most lines.
    static let latin = [
        "the", "a", "and", "of", "to", "in", "is", "it", "you", "that", "was", "for", "on", "are", "with",
        "as", "at", "be", "this", "have", "from", "or", "one", "had", "by", "word", "but", "not", "what",
        "all", "were", "when", "we", "there", "can", "an", "your", "which", "their", "said", "if", "do",
        "will", "each", "about", "how", "up", "out", "them", "then", "she", "many", "some", "so", "these",
        "would", "other", "into", "has", "more", "her", "two", "like", "him", "see", "time", "could", "no",
        "make", "than", "first", "been", "its", "who", "now", "people", "my", "made", "over", "did", "down",
        "only", "way", "find", "use", "may", "water", "long", "little", "very", "after", "called", "just",
        "where", "most", "know", "get", "through", "back", "much", "before", "go", "good", "new", "write",
        "our", "used", "me", "man", "too", "any", "day", "same", "right", "look", "think", "also", "around",
        "another", "came", "come", "work", "three", "must", "because", "does", "part", "even", "place",
        "well", "such", "here", "take", "why", "help", "put", "different", "away", "again", "off", "went",
        "old", "number", "great", "tell", "men", "say", "small", "every", "found", "still", "between",
        "name", "should", "home", "big", "give", "air", "line", "set", "own", "under", "read", "last",
        "never", "us", "left", "end", "along", "while", "might", "next", "sound", "below", "saw",
        "something", "thought", "both", "few", "those", "always", "show", "large", "often", "together",
        "asked", "house", "world", "going", "want", "school", "important", "until", "form", "food",
        "keep", "children", "feet", "land", "side", "without", "boy", "once", "animal", "life", "enough",
        "took", "sometimes", "four", "head", "above", "kind", "began", "almost", "live", "page", "got",
        "café", "naïve", "cafe\u{301}", "résumé", "Zürich", "São", "Paulo", "jalapeño", "façade",
        "internationalization", "counterrevolutionaries", "Donaudampfschifffahrt", "2024", "3.5",
        "42%", "$19.99", "e-mail", "(really)", "well-known", "don't", "it's", "O'Brien", "#42",
        "https://example.com/a/very/long/path/that/never/breaks/at/a/space/index.html",
    ]

    /// Chinese, Japanese (kanji, hiragana, katakana) and Korean: no spaces between words, so
    /// lines break between characters.
    static let cjk = [
        "我们", "今天", "天气", "很好", "学习", "中文", "朋友", "时间", "工作", "问题", "因为", "所以", "但是",
        "已经", "现在", "可以", "知道", "觉得", "喜欢", "一起", "吃饭", "电话", "手机", "北京", "上海",
        "今日は", "ありがとう", "東京", "大阪", "駅", "電車", "会議", "明日", "コーヒー", "カタカナ",
        "ひらがな", "日本語", "勉強", "しています", "です", "ます", "でした", "漢字", "天気予報",
        "안녕하세요", "감사합니다", "서울", "오늘", "날씨", "좋아요", "한국어", "공부", "친구", "내일",
    ]
    static let cjkPunctuation = ["，", "。", "、", "！", "？", "：", "「", "」"]

    /// Arabic, written right to left; digits stay left to right inside it.
    static let arabic = [
        "مرحبا", "كيف", "حالك", "اليوم", "الطقس", "جميل", "شكرا", "جزيلا", "كتاب", "مدرسة", "بيت", "سيارة",
        "الصباح", "المساء", "صديق", "عمل", "وقت", "سؤال", "جواب", "نعم", "لا", "ربما", "غدا", "أمس",
        "القهوة", "الشاي", "مدينة", "القاهرة", "دبي", "الرياض", "عربي", "لغة", "تعلم", "قراءة", "كتابة",
        "هذا", "ذلك", "في", "على", "من", "إلى", "مع", "عن", "كل", "بعض", "جدا", "أيضا", "الآن", "٢٠٢٤", "١٢٣",
    ]

    /// Single code points, variation selectors, skin tones, ZWJ sequences, flags and keycaps:
    /// each one character (grapheme cluster) however many scalars it takes.
    static let emoji = [
        "😀", "😂", "🥲", "😍", "🤔", "😴", "🙃", "🎉", "👍", "👍🏽", "👋🏿", "🙏", "💪🏻", "❤️", "🔥", "✨",
        "🚀", "🌧️", "☕️", "🍕", "🐈", "🐶", "🌍", "⭐", "✅", "❌", "⚠️", "📎", "📷", "🎧", "🏃‍♀️",
        "👨‍👩‍👧‍👦", "🧑‍💻", "👩🏾‍🚀", "🏳️‍🌈", "🇫🇷", "🇯🇵", "🇧🇷", "🇪🇬", "1️⃣", "#️⃣", "©️",
    ]

    /// Text that looks like markup or Pango markup but must stay literal (docs/fixtures/README.md "Text").
    static let literals = ["5 * 3 = 15", "a < b && c > d", "<b>not bold</b>", "&amp;", "**", "*", "R&D", "x*y"]

    /// A length in characters for a text: 0 means a single word. Mostly short, sometimes
    /// thousands of characters (`longest` caps it).
    public static func length(_ r: inout SeededRandom, longest: Int = 4000) -> Int {
        let n = r.weighted([(0, 0.15), (1, 0.35), (2, 0.3), (3, 0.14), (4, 0.06)])
        let ranges = [0...0, 10...80, 80...400, 400...1500, 1500...4000]
        return min(r.int(ranges[n]), longest)
    }

    /// One word (a CJK word, an emoji, ...), never empty and never starting or ending with a space.
    public static func word(_ script: Script, _ r: inout SeededRandom) -> String {
        switch script {
        case .latin: r.pick(latin)
        case .cjk: r.pick(cjk)
        case .arabic: r.pick(arabic)
        case .emoji: r.pick(emoji)
        case .mixed: word(r.pick([.latin, .latin, .cjk, .arabic, .emoji]), &r)
        }
    }

    /// Words of `script` until the text holds at least `length` characters (one word for 0),
    /// as sentences; with `markup`, some runs are `**bold**` or `*italic*` and a few literal
    /// asterisks and angle brackets appear; `lineBreaks` is the chance of a "\n" after a sentence.
    public static func text(
        _ script: Script, length: Int, markup: Bool = true, lineBreaks: Double = 0,
        _ r: inout SeededRandom
    ) -> String {
        var out = ""
        var count = 0
        var sentence = 0
        var sentenceLength = r.int(4...14)
        var needsSeparator = false
        while true {
            var token = word(script, &r)
            let wordScript = script == .mixed ? scriptOf(token) : script
            if markup && r.chance(0.05) {
                // A styled run of one to three words, closed on the same line (docs/fixtures/README.md "Text").
                for _ in 0..<r.int(0...2) { token += separator(wordScript, &r) + word(wordScript, &r) }
                token = r.chance(0.5) ? "**" + token + "**" : "*" + token + "*"
            } else if markup && r.chance(0.01) {
                token = r.pick(literals)
            }
            if needsSeparator { out += separator(wordScript, &r) }
            out += token
            count += token.unicodeScalars.count
            needsSeparator = true
            if count >= length { break }
            sentence += 1
            if sentence >= sentenceLength {
                sentence = 0
                sentenceLength = r.int(4...14)
                switch wordScript {
                case .cjk:
                    out += "。"
                    needsSeparator = false
                case .arabic: out += "."
                default: out += r.pick([".", ".", "!", "?", ","])
                }
                if r.chance(lineBreaks) {
                    out += "\n"
                    count += 1
                    needsSeparator = false
                }
            }
        }
        return out
    }

    /// A post body (docs/fixtures/README.md "Text"): paragraphs, `# ` headings, runs of `- ` bullets and blank lines
    /// (sometimes a line of spaces), up to about `length` characters.
    public static func postBody(_ script: Script, length: Int, _ r: inout SeededRandom) -> String {
        if length == 0 { return word(script, &r) }
        var lines: [String] = []
        var count = 0
        while count < length {
            let room = max(length - count, 1)
            let line: String
            switch r.weighted([(0, 0.5), (1, 0.12), (2, 0.2), (3, 0.15), (4, 0.03)]) {
            case 0: line = text(script, length: min(r.int(20...300), room), &r)
            case 1: line = "# " + text(script, length: min(r.int(5...40), room), markup: false, &r)
            case 2:
                var items: [String] = []
                for _ in 0..<r.int(1...4) { items.append("- " + text(script, length: min(r.int(5...80), room), &r)) }
                line = items.joined(separator: "\n")
            case 3: line = ""
            default: line = "   "
            }
            lines.append(line)
            count += line.unicodeScalars.count + 1
        }
        return lines.joined(separator: "\n")
    }

    /// The script of one of the lists' words (for separators and punctuation in mixed text).
    static func scriptOf(_ word: String) -> Script {
        guard let first = word.unicodeScalars.first?.value else { return .latin }
        switch first {
        case 0x0600...0x06FF: return .arabic
        case 0x1100...0x11FF, 0x3000...0x9FFF, 0xAC00...0xD7AF, 0xFF00...0xFFEF: return .cjk
        case 0x2000...0x2BFF, 0x1F000...0x1FAFF: return .emoji
        default: return .latin
        }
    }

    /// Spaces between words; CJK runs words together, with the odd comma.
    static func separator(_ script: Script, _ r: inout SeededRandom) -> String {
        switch script {
        case .cjk: r.chance(0.15) ? r.pick(cjkPunctuation) : ""
        case .emoji: r.chance(0.3) ? "" : " "
        default: " "
        }
    }
}
