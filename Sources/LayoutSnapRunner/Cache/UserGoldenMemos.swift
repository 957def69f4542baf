import Foundation
import LayoutSnapCore
import LayoutSnapSystem

/// The goldens' file-hash memos that a remote store alone keeps in the user's cache
/// (`$XDG_CACHE_HOME/layoutsnap/golden-hashes/`): one file per goldens folder, named by the
/// SHA-256 of the folder's whole path. A warm run then reads, and when it learnt a golden
/// `lstat`s, its own project's lines only, not those of every checkout the machine has verified
/// (a shared CI runner checks each job out into a folder of its own). The most recently written
/// `kept` memos stay; a folder not verified since is read again at its next run.
struct UserGoldenMemos {
    /// The user's cache folder (`UserCache.folder()`).
    let folder: String

    /// How many memos (goldens folders) are kept.
    static let kept = 64

    /// The one memo every project shared before: no longer read, removed at the first prune.
    static let sharedMemo = "golden-hashes-xxh3"

    init(_ folder: String) { self.folder = folder }

    var memosFolder: String { folder + "/golden-hashes" }

    /// The memo of the goldens folder `goldens` (by its resolved path, so that two spellings
    /// of one folder share it).
    func memo(of goldens: String) -> String {
        memosFolder + "/" + SHA256.hex(of: Array(Self.resolved(goldens).utf8)) + Self.suffix
    }

    /// `path` with every link and `.` or `..` resolved; for a folder that does not exist (a
    /// verify before the first record: record makes the folder before it opens the cache), its
    /// nearest existing folder resolved and the rest appended, so that the name does not depend
    /// on whether the folder exists yet. (A part that exists but cannot be resolved, a dangling
    /// link, is appended as text: realpath would refuse it too.)
    static func resolved(_ path: String) -> String {
        if let whole = try? SystemCall.resolvedPath(path) { return whole }
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var parts = absolute.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var missing: [String] = []
        while let last = parts.popLast() {
            missing.insert(last, at: 0)
            if let found = try? SystemCall.resolvedPath("/" + parts.joined(separator: "/")) {
                var whole = found == "/" ? [] : found.split(separator: "/").map(String.init)
                for part in missing {
                    if part == "." { continue }
                    if part == ".." {
                        _ = whole.popLast()
                    } else {
                        whole.append(part)
                    }
                }
                return "/" + whole.joined(separator: "/")
            }
        }
        return absolute
    }

    /// Every memo's name ends so (the writer's temporary files do not).
    static let suffix = ".xxh3"

    /// Removes all but the `keeping` most recently written memos, and the shared memo of old.
    /// Called after a memo was written, so a run that learnt nothing pays nothing here.
    func prune(keeping: Int = kept) {
        _ = try? Posix.unlink(folder + "/" + Self.sharedMemo)
        guard case .success(let entries) = SystemCall.folderEntries(memosFolder) else { return }
        let written = entries.compactMap { entry -> (name: String, modified: Int)? in
            guard !entry.isFolder, entry.name.hasSuffix(Self.suffix),
                let info = SystemCall.status(memosFolder + "/" + entry.name, followsLinks: false)
            else { return nil }
            return (entry.name, Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec))
        }
        guard written.count > keeping else { return }
        let newestFirst = written.sorted { $0.modified != $1.modified ? $0.modified > $1.modified : $0.name < $1.name }
        for old in newestFirst.dropFirst(keeping) { _ = try? Posix.unlink(memosFolder + "/" + old.name) }
    }
}
