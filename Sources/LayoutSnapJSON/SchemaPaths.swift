/// Paths as the schema comparison writes them: JSONPath's spelling with every index as `[*]`.
public enum SchemaPaths {
    public static func appending(key: String, to path: String) -> String {
        JSONPath.isIdentifier(key)
            ? path + "." + key : path + "[" + JSONWriter(style: .compact).string(.string(key)) + "]"
    }

    /// `$.steps[3].receive` → `$.steps[*].receive`.
    public static func normalized(_ path: JSONPath) -> String {
        var out = "$"
        for component in path.components {
            switch component {
            case .index: out += "[*]"
            case .key(let key): out = appending(key: key, to: out)
            }
        }
        return out
    }
}
