/// A type that hashes as something other than its stored fields: what it contributes to
/// pixels, without how the fixture spelled it.
public protocol CanonicallyHashed {
    var canonicalValue: Any { get }
}

extension InputFile: CanonicallyHashed {
    /// The file as the fixture writes it (its bytes are hashed on their own): where the project
    /// is checked out changes no pixel, so two checkouts share keys. Where it is written is for
    /// messages only.
    public var canonicalValue: Any { written }
}

extension PostImage: CanonicallyHashed {
    /// The picture by its file as the fixture writes it (whose bytes are hashed on their own)
    /// and shape; where the fixture names it is for messages only.
    public var canonicalValue: Any { (source?.written ?? path, aspectRatio) }
}

/// The result cache's key of one fixture as one variant (docs/cache.md): SHA-256 over everything
/// a rendering depends on and nothing else.
public struct ResultKey: Sendable, Hashable, CustomStringConvertible {
    /// 64 lowercase hex digits.
    public let hex: String

    public init(hex: String) { self.hex = hex }

    public var description: String { hex }

    /// Bumped when the key's own layout changes (what goes in, in which order).
    public static let schema = "layoutsnap-result-key 2"

    /// - fixture: decoded, with project defaults, the variant and command-line overrides
    ///   applied. Its display path and its list of variants are left out: neither changes a
    ///   pixel of this rendering.
    /// - inputs: every file the fixture names, by its path as the fixture writes it, with its
    ///   whole bytes.
    /// - renderer: the renderer's identity (version and build id).
    /// - environment: the rendering environment's fingerprint (libraries, fonts, architecture).
    /// - lints: whether the value holds the layout lints' findings (a run with lints off
    ///   stores none).
    public static func of(
        _ fixture: Fixture, inputs: [(path: String, bytes: [UInt8])], renderer: String, environment: String,
        lints: Bool
    ) -> ResultKey {
        of(fixture, inputs: inputs, prefix: prefix(renderer: renderer, environment: environment, lints: lints))
    }

    /// What every key of a run starts with, hashed (the environment alone is kilobytes): made
    /// once and copied for each fixture. Only `prefix(renderer:environment:lints:)` makes one, so
    /// no key can start without them.
    public struct Prefix: Sendable {
        fileprivate let hasher: SHA256

        /// The digest of the prefix alone: what names the run's generation of entries
        /// (`EntryPacks`), the same for every key of the run.
        public var hex: String { hasher.hex() }
    }

    public static func prefix(renderer: String, environment: String, lints: Bool) -> Prefix {
        var hasher = SHA256()
        for (name, text) in [
            ("schema", schema), ("renderer", renderer), ("environment", environment), ("lints", lints ? "on" : "off"),
        ] {
            field(&hasher, name, text)
        }
        return Prefix(hasher: hasher)
    }

    private static func field(_ hasher: inout SHA256, _ name: String, _ text: String) {
        hasher.update("\(name)#\(text.utf8.count):")
        hasher.update(text)
    }

    /// The key with `prefix` (`prefix(renderer:environment:lints:)`) for what the run shares.
    public static func of(_ fixture: Fixture, inputs: [(path: String, bytes: [UInt8])], prefix: Prefix) -> ResultKey {
        var hasher = prefix.hasher
        func field(_ name: String, _ text: String) { Self.field(&hasher, name, text) }
        var hashed = fixture
        hashed.file = ""
        hashed.variants = []
        CanonicalHash.update(&hasher, with: hashed)
        for input in inputs.sorted(by: { $0.path < $1.path }) {
            field("input", input.path)
            hasher.update("#\(input.bytes.count):")
            hasher.update(input.bytes)
        }
        return ResultKey(hex: hasher.hex())
    }
}
