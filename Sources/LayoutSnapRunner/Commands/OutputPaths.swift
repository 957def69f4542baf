import Foundation
import LayoutSnapSystem

/// Checks of the places a run will write, made before any work: a file where a folder is
/// needed, a folder that cannot be created or written, a report that would land in the goldens.
/// One clear error (exit 2) instead of one failure per frame after minutes of rendering.
public enum OutputPaths {
    /// A folder the run writes into (`--out`, `--report`): it is a folder that can be written,
    /// or it can be created (its nearest existing parent is a folder that can be written).
    /// Nothing is created here: a run refused later leaves no trace.
    public static func folder(_ path: String, option: String) throws(RunnerError) {
        guard !path.isEmpty else { throw RunnerError.usage("\(option) needs a folder") }
        // Absolute, so that walking up ends at "/" (and never asks Foundation for the parent of "").
        let cwd = FileManager.default.currentDirectoryPath
        let written = path.hasPrefix("/") ? path : cwd + "/" + path
        // The usual case, a folder that is there, asked as written: Foundation's standardizing
        // resolves links a component at a time, for walking up to a parent that exists.
        if let info = SystemCall.status(written), info.st_mode & S_IFMT == S_IFDIR {
            do throws(SystemError) {
                try Posix.access(written, W_OK | X_OK)
                return
            } catch {
                throw RunnerError.usage("\(option) \(path): cannot write into the folder: \(error.reason)")
            }
        }
        var candidate = (written as NSString).standardizingPath
        let start = candidate
        while true {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDir) {
                guard isDir.boolValue else {
                    let what = candidate == start ? "" : " (\(candidate) is a file)"
                    throw RunnerError.usage("\(option) \(path): a file is there, and a folder is needed\(what)")
                }
                do throws(SystemError) {
                    try Posix.access(candidate, W_OK | X_OK)
                } catch {
                    let verb =
                        candidate == start ? "cannot write into the folder" : "cannot create the folder in \(candidate)"
                    throw RunnerError.usage("\(option) \(path): \(verb): \(error.reason)")
                }
                return
            }
            guard candidate != "/" else { return }
            let parent = (candidate as NSString).deletingLastPathComponent
            candidate = parent
        }
    }

    /// A folder that may be absent (goldens not recorded yet) but must not be a file.
    public static func existingFolder(_ path: String, option: String) throws(RunnerError) {
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue {
            throw RunnerError.usage("\(option) \(path): a file is there, and a folder is needed")
        }
    }

    /// A file the run writes (`--junit`, `--json`): its folder is created when missing.
    public static func file(_ path: String, option: String) throws(RunnerError) {
        guard !path.isEmpty else { throw RunnerError.usage("\(option) needs a file name") }
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue {
            throw RunnerError.usage("\(option) \(path): a folder is there, and a file is needed")
        }
        let parent = (path as NSString).deletingLastPathComponent
        try folder(parent.isEmpty ? "." : parent, option: option)
    }

    /// A report folder inside, equal to, or containing the goldens folder would put report files
    /// among the goldens (and the next `--check-orphans` would flag them) or clear goldens with
    /// the old report.
    public static func reportOutsideGoldens(report: String, goldens: String) throws(RunnerError) {
        let r = canonical(report)
        let g = canonical(goldens)
        if r == g {
            throw RunnerError.usage(
                "--report \(report) is the goldens folder: choose a report folder outside \(goldens)/")
        }
        if r.hasPrefix(g + "/") {
            throw RunnerError.usage(
                "--report \(report) is inside the goldens folder \(goldens)/: choose a report folder outside it")
        }
        if r == "/" || g.hasPrefix(r + "/") {
            throw RunnerError.usage(
                "--report \(report) contains the goldens folder \(goldens)/: choose a report folder that does not")
        }
    }

    /// The absolute path with links resolved as far as the path exists.
    static func canonical(_ path: String) -> String {
        let cwd = FileManager.default.currentDirectoryPath
        let written = path.hasPrefix("/") ? path : cwd + "/" + path
        // A path that exists is resolved whole by realpath, links and dots alike; Foundation's
        // standardizing (links resolved a component at a time) is for a path that does not.
        if let resolved = realpath(written, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        var absolute = (written as NSString).standardizingPath
        var rest: [String] = []
        while absolute != "/" && !absolute.isEmpty {
            if let resolved = realpath(absolute, nil) {
                defer { free(resolved) }
                return ([String(cString: resolved)] + rest.reversed()).joined(separator: "/")
            }
            rest.append((absolute as NSString).lastPathComponent)
            absolute = (absolute as NSString).deletingLastPathComponent
        }
        return "/" + rest.reversed().joined(separator: "/")
    }

}
