/// A font as a fixture names it (docs/fixtures/README.md "Text"): a text style (`"body"`) or
/// `{"size": 22, "weight": "bold", "italic": true}`.

import LayoutSnapJSON

enum FontDecoder {
    static func decode(_ element: JSONElement) throws(JSONDecodingError) -> FontSpec {
        if case .string = element.value {
            let name = try element.string()
            guard let style = TextStyle(rawValue: name) else {
                throw element.error(
                    "unknown text style \"\(name)\"; expected one of: \(TextStyle.allCases.map(\.rawValue).joined(separator: ", ")) or {\"size\": ...}"
                )
            }
            return style.font
        }
        let o = try element.object()
        let size = try o.required("size").double(in: FontSpec.sizeRange, what: "a font size in points")
        let weight = try o.enumeration("weight", FontWeight.self) ?? .regular
        let italic = try o.optional("italic")?.bool() ?? false
        try o.finish()
        return FontSpec(size: size, weight: weight, italic: italic)
    }
}
