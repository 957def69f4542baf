/// layoutsnap.json's `fonts`: the project's own font files, each under the family name a text
/// style asks for (docs/commands.md, "Brand fonts").
///
///     "fonts": {
///       "Brand Sans": ["Fonts/BrandSans-Regular.ttf", "Fonts/BrandSans-Bold.ttf"],
///       "Brand CJK": {"file": "Fonts/BrandCJK.ttc", "face": "Brand CJK SC"}
///     }

import LayoutSnapJSON

/// One font file of a brand family, and where layoutsnap.json names it (errors about the file
/// point there).
public struct BrandFont: Sendable, Hashable {
    /// The family name text asks for; the file's own family name does not matter.
    public var family: String
    /// The path as written (relative to layoutsnap.json's folder), until `ProjectSettings`
    /// resolves it; then as seen from the working directory.
    public var file: String
    /// Only the faces of the file whose own family, full name or style is this (one face of a
    /// collection, one named instance of a variable font); nil for every face.
    public var face: String?
    /// The file's absolute path, once `ProjectSettings` has resolved `file`.
    public var resolved: String?
    /// `$.fonts["Brand Sans"][1]`.
    public var path: JSONPath
    public var position: SourcePosition

    public init(family: String, file: String, face: String? = nil, path: JSONPath, position: SourcePosition) {
        self.family = family
        self.file = file
        self.face = face
        self.path = path
        self.position = position
    }

    /// `fonts["Brand Sans"]`: the config key, as errors name it.
    public var key: String { path.description }

    /// An error about the file, at its place in layoutsnap.json.
    public func error(_ message: String) -> JSONDecodingError {
        JSONDecodingError(path: path, position: position, message: message)
    }

    /// Families the private fontconfig already has: a brand family of one of these names would
    /// mix its faces with the bundled ones.
    public static let bundledFamilies = ["Inter", "Noto Sans Arabic", "Noto Color Emoji", "emoji"]

    /// What one entry of `fonts` may be: a file, or a file and the face to take from it.
    static let fileNode = SchemaNode.oneOf([
        .nonEmptyString,
        .object(
            [
                SchemaField("file", .nonEmptyString, "The font file, relative to layoutsnap.json's folder."),
                SchemaField(
                    "face", .nonEmptyString,
                    "Only the faces whose own family, full name or style is this: one face of a collection (TTC), or one named instance of a variable font."
                ),
            ], required: ["file"]),
    ])

    /// `fonts`' schema: family names (not blank, no commas, none of the bundled ones in any case)
    /// to a file or a list.
    static let schema = SchemaNode.leaf([
        ("type", "object"),
        (
            "propertyNames",
            [
                "pattern": "^[^,]*[^,\\s][^,]*$",
                "not": [
                    "pattern": .string("^(" + bundledFamilies.map(spaceless).joined(separator: "|") + ")$")
                ],
            ]
        ),
        (
            "additionalProperties",
            JSONSchemaDocument.output(.oneOf([fileNode, .array(fileNode, minItems: 1)]), description: nil)
        ),
    ])

    /// Every file of every family, in the order written.
    static func decodeAll(_ element: JSONElement) throws(JSONDecodingError) -> [BrandFont] {
        let families = try element.object()
        var fonts: [BrandFont] = []
        var seen: [String: String] = [:]
        for member in families.members {
            guard let value = families.optional(member.key) else { continue }
            let family = member.key
            if family.allSatisfy(\.isWhitespace) { throw value.error("a family name may not be empty") }
            // Pango reads "A,B" as a list of two families.
            if family.contains(",") { throw value.error("a family name may not contain a comma") }
            if let bundled = bundledFamilies.first(where: { familyKey($0) == familyKey(family) }) {
                throw value.error("\"\(bundled)\" is a bundled family; give the brand font a name of its own")
            }
            if let other = seen[familyKey(family)] {
                throw value.error(
                    "\"\(family)\" is \"\(other)\" to fontconfig, which compares family names ignoring case and spaces; give the files one family"
                )
            }
            seen[familyKey(family)] = family
            var files: [BrandFont] = []
            if case .array = value.value {
                let items = try value.array()
                if items.isEmpty { throw value.error("expected at least one font file") }
                for item in items { files.append(try decodeFile(item, family: family)) }
            } else {
                files.append(try decodeFile(value, family: family))
            }
            // The environment (and the manifest) name a brand file by family, file name and face.
            for (i, font) in files.enumerated() {
                if let first = files[..<i].first(where: { $0.fileName == font.fileName && $0.face == font.face }) {
                    throw JSONDecodingError(
                        path: font.path, position: font.position,
                        message:
                            "\(font.file) and \(first.file) are both \(font.fileName)\(font.face.map { " (\($0))" } ?? ""): brand files are told apart by family, file name and face; rename one"
                    )
                }
            }
            fonts += files
        }
        // Every member was read above: family names are the user's own, so no unknown keys here.
        return fonts
    }

    /// A pattern of `family` as `familyKey` compares it: any case, spaces anywhere.
    private static func spaceless(_ family: String) -> String {
        " *" + family.filter { $0 != " " }.map { SchemaNode.caseless(String($0)) }.joined(separator: " *") + " *"
    }

    /// A family name as fontconfig compares it: ignoring case and spaces.
    public static func familyKey(_ family: String) -> String {
        String(family.lowercased().unicodeScalars.filter { $0 != " " })
    }

    /// The file's name without its folder.
    var fileName: String { file.split(separator: "/").last.map(String.init) ?? file }

    private static func decodeFile(_ e: JSONElement, family: String) throws(JSONDecodingError) -> BrandFont {
        switch e.value {
        case .string:
            let file = try e.string()
            if file.isEmpty { throw e.error("a font file's path may not be empty") }
            return BrandFont(family: family, file: file, path: e.path, position: e.position)
        case .object:
            let o = try e.object()
            let fileElement = try o.required("file")
            let file = try fileElement.string()
            if file.isEmpty { throw fileElement.error("a font file's path may not be empty") }
            let face = try o.optional("face")?.string()
            if face?.isEmpty == true { throw o.optional("face")!.error("a face name may not be empty") }
            try o.finish()
            return BrandFont(family: family, file: file, face: face, path: e.path, position: e.position)
        default:
            throw e.error(
                "expected a font file's path, {\"file\": ..., \"face\": ...} or an array of them, found \(e.typeName)")
        }
    }

    /// The first bytes of every font file fontconfig is given: TrueType (1.0 or `true`),
    /// OpenType with CFF outlines (`OTTO`), or a collection (`ttcf`).
    public static func isFontSignature(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4 else { return false }
        let tag = Array(bytes.prefix(4))
        return tag == [0, 1, 0, 0] || tag == Array("OTTO".utf8) || tag == Array("true".utf8)
            || tag == Array("ttcf".utf8)
    }
}
