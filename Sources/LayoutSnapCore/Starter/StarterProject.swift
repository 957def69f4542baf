import LayoutSnapJSON

/// What `layoutsnap init` writes (docs/commands.md "init"), as bytes: the project file, the
/// schemas editors check against, one small starter fixture per kind, and the merges into an
/// existing `.gitignore` and `.vscode/settings.json`. The runner writes them; nothing here reads
/// a file.
public enum StarterProject {
    /// A file `init` creates, relative to the project folder.
    public struct File: Sendable, Equatable {
        public var path: String
        public var bytes: [UInt8]
    }

    public static let fixtureSchemaPath = "schema/fixture.schema.json"
    public static let configSchemaPath = "schema/config.schema.json"

    /// The files `init` creates (and refuses to overwrite when they hold something else).
    public static var files: [File] {
        [
            File(path: ProjectConfig.fileName, bytes: FixtureText.bytes(config)),
            File(path: fixtureSchemaPath, bytes: FixtureSchema.document.bytes()),
            File(path: configSchemaPath, bytes: ProjectConfig.document.bytes()),
        ]
            + FixtureKind.allCases.compactMap { kind in
                fixture(kind).map { File(path: "Fixtures/first-\(kind.rawValue).json", bytes: $0) }
            }
    }

    /// layoutsnap.json: its folders written out (they are the defaults) and one fixture default.
    static let config: [(key: String, value: JSONOutput)] = [
        ("$schema", .string(configSchemaPath)), ("fixtures", "Fixtures"), ("goldens", "Goldens"),
        ("report", ".layoutsnap/report"), ("defaults", .object([("device", "iphone-15")])),
    ]

    /// A starter fixture: small, every value showing what its field does (docs/fixtures/first-<kind>.md
    /// walks through each). Chat messages carry explicit ids, so the layout names them
    /// `message:question`, not by their position.
    /// (A kind without one is a kind added since: `StarterProjectTests` asks for one.)
    public static func fixture(_ kind: FixtureKind) -> [UInt8]? {
        let head: [(key: String, value: JSONOutput)] = [
            ("$schema", "../schema/fixture.schema.json"), ("kind", .string(kind.rawValue)),
        ]
        let members: [(key: String, value: JSONOutput)]
        switch kind.rawValue {
        case "transcript":
            members = [
                ("text", "Welcome to the weekly sync."),
                (
                    "steps",
                    [
                        ["append": "\nToday: the **release** plan."], ["append": "\nFirst, last week's numbers."],
                        ["append": "\nThen a *short* demo."], ["append": "\nLine five: the view scrolls."],
                        ["append": "\nLine six, 0.2 s later.", "at": 0.2],
                    ]
                ),
            ]
        case "composer":
            members = [
                ("placeholder", "Message"), ("suggestions", ["Thanks!", "On my way", "Sounds good"]),
                (
                    "steps",
                    [
                        ["type": "See you at "], ["insertSuggestion": "noon"],
                        ["type": "\nA second line: the field grows."], ["keyboard": "hide"],
                    ]
                ),
            ]
        case "chat":
            members = [
                (
                    "messages",
                    [
                        ["id": "question", "role": "user", "text": "Can you summarise the meeting?"],
                        [
                            "id": "summary", "role": "assistant",
                            "text": "The release moves to **Friday**; the demo stays on Thursday.",
                        ],
                    ]
                ),
                ("input", "Thanks!"),
                (
                    "steps",
                    [
                        ["status": "thinking"], ["receive": ["id": "follow-up", "text": "One more thing:"]],
                        ["stream": " the notes are in the *shared* folder."], ["status": "idle"],
                        ["keyboard": "show"],
                    ]
                ),
            ]
        case "post":
            members = [
                ("title", "Release notes"), ("summary", "What changed this week, in two lines at most."),
                ("body", "# Highlights\n- Faster sync\n- **Dark mode** everywhere\n\nThanks to *everyone* who tested."),
                ("author", "Ann"), ("image", ["aspectRatio": 1.5]), ("steps", [["expand": true], ["collapse": true]]),
            ]
        default: return nil
        }
        return FixtureText.bytes(head + members)
    }

    /// The `.gitignore` line for what layoutsnap writes besides goldens (reports, previews).
    public static let ignoreLine = ".layoutsnap/"

    /// `.gitignore` with the line added at its end, or nil when it already ignores the folder
    /// (`.layoutsnap/`, `.layoutsnap`, `/.layoutsnap/` or `/.layoutsnap`).
    public static func gitignore(_ existing: [UInt8]?) -> [UInt8]? {
        guard var bytes = existing, !bytes.isEmpty else { return Array((ignoreLine + "\n").utf8) }
        let lines = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline)
        if lines.contains(where: {
            [".layoutsnap/", ".layoutsnap", "/.layoutsnap/", "/.layoutsnap"].contains($0.trimmingWhitespace())
        }) {
            return nil
        }
        if bytes.last != 0x0A { bytes.append(0x0A) }
        return bytes + Array((ignoreLine + "\n").utf8)
    }

    /// The VS Code setting that checks fixtures and layoutsnap.json against the schemas.
    static let schemaMappings: [JSONOutput] = [
        ["fileMatch": ["Fixtures/**/*.json"], "url": .string("./" + fixtureSchemaPath)],
        ["fileMatch": [.string(ProjectConfig.fileName)], "url": .string("./" + configSchemaPath)],
    ]

    /// What to add to `.vscode/settings.json` by hand, when `init` cannot merge it.
    public static var settingsSnippet: String {
        String(decoding: JSONWriter(style: .pretty).bytes(["json.schemas": .array(schemaMappings)]), as: UTF8.self)
    }

    /// Why `.vscode/settings.json` was left alone.
    public struct SettingsRefusal: Error, Sendable, Equatable {
        public var reason: String
    }

    /// `.vscode/settings.json` with the schema mappings in `json.schemas`, or nil when it has
    /// them already. A file that is not a plain JSON object (VS Code allows comments and trailing
    /// commas; layoutsnap does not rewrite such a file) or whose `json.schemas` is not a list is
    /// refused, with the reason.
    public static func vscodeSettings(_ existing: [UInt8]?) throws(SettingsRefusal) -> [UInt8]? {
        guard let existing, existing.contains(where: { !isSpace($0) }) else {
            return JSONWriter(style: .pretty).bytes(["json.schemas": .array(schemaMappings)]) + [0x0A]
        }
        let root: JSONNode
        do {
            root = try JSONParser.parse(existing)
        } catch {
            throw SettingsRefusal(reason: "it is not plain JSON (\(error.position): \(error.message))")
        }
        guard case .object(var members) = JSONOutput(root) else {
            throw SettingsRefusal(reason: "it is not a JSON object")
        }
        var mappings: [JSONOutput] = []
        let index = members.firstIndex { $0.key == "json.schemas" }
        if let index {
            guard case .array(let items) = members[index].value else {
                throw SettingsRefusal(reason: "its \"json.schemas\" is not a list")
            }
            mappings = items
        }
        let missing = schemaMappings.filter { !mappings.contains($0) }
        guard !missing.isEmpty else { return nil }
        if let index {
            members[index].value = .array(mappings + missing)
        } else {
            members.append((key: "json.schemas", value: .array(missing)))
        }
        return JSONWriter(style: .pretty).bytes(.object(members)) + [0x0A]
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }
}
