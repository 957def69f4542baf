import Foundation
import LayoutSnapCore
import LayoutSnapSystem

/// The goldens folder's layout (README "Goldens"), known here alone:
///
///     manifest.json                  every golden frame's hashes (GoldenManifest)
///     <fixture>/layout.json          the fixture's layout, for motion and attribution
///     <fixture>/<state>/007.png      frame 7 of a state
///
/// A variant's goldens sit in the folder of its id, `<fixture>@<variant>` (FixtureVariant.id).
/// Keys are paths below the folder; files are replaced through AtomicWriter (GoldenTransaction).
public struct GoldenStore: Sendable {
    /// The goldens folder (`--goldens`, `Goldens` by default).
    public let root: String

    public init(_ root: String) { self.root = root }

    public static let manifestKey = "manifest.json"
    static let layoutName = "layout.json"

    /// The file a key names.
    public func path(_ key: String) -> String { root + "/" + key }

    public var manifestPath: String { path(Self.manifestKey) }

    /// `posts/x/01-expand/007.png`.
    public static func frameKey(fixture: String, state: String, index: Int) -> String {
        "\(fixture)/\(state)/\(frameName(index))"
    }

    public static func frameName(_ index: Int) -> String {
        // The usual three digits without the strings padding them (a warm run names every golden).
        if (0..<1000).contains(index) {
            return String(unsafeUninitializedCapacity: 7) { out in
                out[0] = UInt8(ascii: "0") + UInt8(index / 100)
                out[1] = UInt8(ascii: "0") + UInt8(index / 10 % 10)
                out[2] = UInt8(ascii: "0") + UInt8(index % 10)
                for (i, c) in ".png".utf8.enumerated() { out[3 + i] = c }
                return 7
            }
        }
        let digits = String(index)
        return String(repeating: "0", count: max(0, 3 - digits.count)) + digits + ".png"
    }

    /// The key of another frame of the same state: `posts/x/01-expand/005.png` for index 5.
    public static func frameKey(goldenKey: String, index: Int) -> String {
        let folder = (goldenKey as NSString).deletingLastPathComponent
        return (folder.isEmpty ? "" : folder + "/") + frameName(index)
    }

    /// The fixture and state of a frame's key (`posts/x`, `01-expand`); nil for any other key.
    public static func frame(ofKey key: String) -> (fixture: String, state: String)? {
        let parts = key.split(separator: "/")
        guard key.hasSuffix(".png"), parts.count >= 3 else { return nil }
        return (parts.dropLast(2).joined(separator: "/"), String(parts[parts.count - 2]))
    }

    /// `posts/x/layout.json`.
    public static func layoutKey(fixture: String) -> String { "\(fixture)/\(layoutName)" }

    /// The fixture whose layout.json `key` is; nil for any other key.
    public static func fixture(ofLayoutKey key: String) -> String? {
        key.hasSuffix("/" + layoutName) ? String(key.dropLast(layoutName.count + 1)) : nil
    }

    /// Where `path` really leads when a symbolic link on the way takes it out of the goldens
    /// folder (a golden must not read, or be written through to, a file elsewhere); nil when it
    /// stays inside or leads nowhere.
    public static func outsideTarget(_ path: String, goldens: String) -> String? {
        outsideTarget(path, resolvedGoldens: try? SystemCall.resolvedPath(goldens))
    }

    /// The same with the goldens folder resolved once (a verify run's every frame asks).
    public static func outsideTarget(_ path: String, resolvedGoldens root: String?) -> String? {
        guard let root else { return nil }
        // Nothing there, or a dangling link: reported as a missing golden.
        guard let target = try? SystemCall.resolvedPath(path) else { return nil }
        return target.hasPrefix(root + "/") ? nil : target
    }

    /// The same for a golden file below `folders`' goldens: a file that is no symbolic link, in
    /// folders that are none, is inside without resolving its path.
    public static func outsideTarget(_ path: String, resolvedGoldens root: String?, folders: RealFolders) -> String? {
        guard root != nil else { return nil }
        if let slash = path.lastIndex(of: "/"), folders.contain(String(path[..<slash])),
            let info = SystemCall.status(path, followsLinks: false), info.st_mode & S_IFMT != S_IFLNK
        {
            return nil
        }
        return outsideTarget(path, resolvedGoldens: root)
    }

    /// Which folders below a goldens folder are real folders, not symbolic links, each asked once
    /// per run: a folder whose every part below the goldens folder is real lies inside it.
    /// Resolving each golden's path instead (realpath) read every part of it, the working
    /// folder's too, for every frame of a run: most of a warm run's system calls. A folder
    /// replaced by a link during the run is not noticed; one that is a link from the start is
    /// resolved as before.
    public final class RealFolders: Sendable {
        private let goldens: [UInt8]
        /// By the bytes of each path: names are compared as the file system compares them, not
        /// as Swift compares strings (two spellings of "é" are two folders).
        private let known = LockedValue<[[UInt8]: Bool]>([:])

        public init(goldens: String) { self.goldens = Array(goldens.utf8) }

        /// Whether `folder` is the goldens folder or below it through real folders only; false
        /// for any other (the caller resolves it).
        public func contain(_ folder: String) -> Bool {
            let bytes = Array(folder.utf8)
            guard bytes.starts(with: goldens) else { return false }
            let rest = bytes[goldens.count...]
            if rest.isEmpty { return true }
            guard rest.first == UInt8(ascii: "/") else { return false }
            var path = goldens
            for part in rest.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
                guard !part.isEmpty, !part.elementsEqual([UInt8(ascii: ".")]),
                    !part.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")])
                else { return false }
                path.append(UInt8(ascii: "/"))
                path.append(contentsOf: part)
                if let real = known.withLock({ $0[path] }) {
                    guard real else { return false }
                    continue
                }
                var info = stat()
                let found = (path + [0]).withUnsafeBufferPointer {
                    $0.withMemoryRebound(to: CChar.self) { lstat($0.baseAddress!, &info) }
                }
                let real = found == 0 && info.st_mode & S_IFMT == S_IFDIR
                known.withLock { $0[path] = real }
                guard real else { return false }
            }
            return true
        }
    }
}
