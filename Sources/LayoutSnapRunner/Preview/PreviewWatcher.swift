import Foundation

/// `preview --watch`: polls the fixture and the files it reads (its images) four times a second
/// and builds again after a change, so a saved edit shows within a second plus the render. A
/// bad edit is reported by `build` and the watch goes on. Stamps are taken before each build: an
/// edit saved while a build runs is seen next time.
public struct PreviewWatcher {
    /// The fixture file, watched from the start.
    public let fixture: String
    public var interval: Double = 0.25

    public init(fixture: String) { self.fixture = fixture }

    /// Builds once, then forever: waits for a change, tells `changed` which files changed, and
    /// builds again. `build` returns the files the fixture read (nil after a bad edit, which
    /// keeps the files watched so far). `watching` is told the files watched after the first build.
    /// Stops only when `build` throws (a failure the fixture cannot cause, such as a full disk).
    public func run(
        build: () throws -> [String]?, watching: ([String]) -> Void, changed: ([String]) -> Void,
        until stop: () -> Bool = { false }
    ) throws {
        var inputs = [fixture]
        var seen = inputs.map(Self.stamp)
        if let read = try build(), read != inputs {
            inputs = read
            seen = [seen[0]] + inputs.dropFirst().map(Self.stamp)
        }
        watching(inputs)
        while !stop() {
            Thread.sleep(forTimeInterval: interval)
            let now = inputs.map(Self.stamp)
            guard now != seen else { continue }
            changed(zip(inputs, zip(now, seen)).filter { $1.0 != $1.1 }.map(\.0))
            seen = now
            if let read = try build(), read != inputs {
                let previous = Dictionary(zip(inputs, now), uniquingKeysWith: { a, _ in a })
                inputs = read
                seen = inputs.map { previous[$0] ?? Self.stamp($0) }
            }
        }
    }

    /// Modification time, size and inode: what a save changes (an editor that writes a new file
    /// and renames it changes the inode).
    public static func stamp(_ path: String) -> [Int] {
        var info = stat()
        guard stat(path, &info) == 0 else { return [-1] }
        return [Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec), Int(info.st_size), Int(info.st_ino)]
    }

    /// A path as messages show it: relative to the working directory when below it.
    public static func display(_ path: String) -> String {
        let cwd = FileManager.default.currentDirectoryPath
        return path.hasPrefix(cwd + "/") ? String(path.dropFirst(cwd.count + 1)) : path
    }
}
