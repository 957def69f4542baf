import Foundation
import LayoutSnapCore
import LayoutSnapSystem

/// `layoutsnap init [DIR]` (docs/commands.md "init"): a new project in DIR. Every file is checked
/// before any is written: a file that is there with other bytes stops the whole run (nothing is
/// overwritten), one with the same bytes is left as it is, so running it again changes nothing.
public enum ProjectInit {
    public struct Result: Sendable, Equatable {
        /// Paths relative to the folder, in the order written.
        public var created: [String] = []
        /// Already there with the same bytes.
        public var unchanged: [String] = []
        /// Existing files a line or a setting was added to.
        public var merged: [String] = []
        /// `.vscode/settings.json` left alone, and why (the setting to add by hand is
        /// `StarterProject.settingsSnippet`).
        public var settingsRefused: String?
    }

    public static let gitignorePath = ".gitignore"
    public static let settingsPath = ".vscode/settings.json"

    public static func run(in folder: String) throws(RunnerError) -> Result {
        try OutputPaths.folder(folder, option: "DIR")
        func path(_ relative: String) -> String { folder == "." ? relative : folder + "/" + relative }
        var result = Result()
        var writes: [(String, [UInt8])] = []
        var conflicts: [String] = []
        for file in StarterProject.files {
            switch try existing(path(file.path)) {
            case nil: writes.append((file.path, file.bytes))
            case file.bytes?: result.unchanged.append(file.path)
            default: conflicts.append(file.path)
            }
        }
        guard conflicts.isEmpty else {
            let list = conflicts.map { path($0) }.joined(separator: ", ")
            throw RunnerError.usage(
                "\(conflicts.count == 1 ? "a file is" : "\(conflicts.count) files are") already there with other contents: \(list). init overwrites nothing and wrote nothing; move \(conflicts.count == 1 ? "it" : "them") away, or start the project in another folder (layoutsnap init DIR)"
            )
        }
        let ignore = try existing(path(gitignorePath))
        if let merged = StarterProject.gitignore(ignore) {
            writes.append((gitignorePath, merged))
            if ignore != nil { result.merged.append(gitignorePath) }
        } else {
            result.unchanged.append(gitignorePath)
        }
        let settings = try existing(path(settingsPath))
        do throws(StarterProject.SettingsRefusal) {
            if let merged = try StarterProject.vscodeSettings(settings) {
                writes.append((settingsPath, merged))
                if settings != nil { result.merged.append(settingsPath) }
            } else {
                result.unchanged.append(settingsPath)
            }
        } catch {
            result.settingsRefused = error.reason
        }
        for (relative, bytes) in writes {
            try AtomicFile.write(bytes, to: path(relative))
            if !result.merged.contains(relative) { result.created.append(relative) }
        }
        return result
    }

    /// The file's bytes, nil when there is none; a folder in its place is an error.
    private static func existing(_ path: String) throws(RunnerError) -> [UInt8]? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return nil }
        guard !isFolder.boolValue else { throw RunnerError.usage("\(path) is a folder, where init writes a file") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RunnerError.usage("\(path) cannot be read")
        }
        return [UInt8](data)
    }
}
