import Foundation
import LayoutSnapSystem

/// The user's own cache of what layoutsnap works out about the machine's fonts, as fontconfig
/// keeps its reading of the system's fonts in `~/.cache/fontconfig`: `$XDG_CACHE_HOME/layoutsnap`,
/// else `~/.cache/layoutsnap`. It holds the faces' memos (`FaceMemo`) and the font files'
/// hashes (`FontSystem.hashFile`), both used with `--no-cache` too, and none of the result
/// cache's entries; with a remote result cache and no local folder, also what the folder would
/// remember of the goldens and libraries (`ResultCache.open`).
public enum UserCache {
    /// The variables `folder` reads.
    public static let variables = ["XDG_CACHE_HOME", "HOME"]

    /// nil when neither `XDG_CACHE_HOME` nor `HOME` names an absolute folder.
    public static func folder(environment: [String: String] = ProcessEnvironment.values(variables)) -> String? {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/layoutsnap" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.cache/layoutsnap" }
        return nil
    }

    /// The font files' hashes, remembered by their `stat` (`FileHashMemo`); the name says the
    /// hash, so another function's values are never read as these.
    static func fontHashes(environment: [String: String] = ProcessEnvironment.values(variables)) -> String? {
        folder(environment: environment).map { $0 + "/font-hashes-xxh3" }
    }

    /// Whether `folder` exists (made now if need be) and this process may write in it.
    public static func writable(_ folder: String) -> Bool {
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return access(folder, W_OK) == 0
    }
}
