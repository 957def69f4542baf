import Foundation
@testable import LayoutSnapRunner
import LayoutSnapTestSupport
import XCTest

final class PreviewWatcherTests: XCTestCase {
    /// A save of the fixture, then of an image it reads, each builds again and names the file;
    /// a bad edit (build returns nil) keeps the files watched so far.
    func testEveryChangeBuildsAgainAndNamesTheFile() throws {
        let folder = try makeTemporaryFolder("runner-watch").path
        defer { removeTemporaryFolder(folder) }
        let fixture = folder + "/card.json"
        let image = folder + "/images/a.png"
        try Support.write("{}", to: fixture)
        try Support.write("png", to: image)
        var watcher = PreviewWatcher(fixture: fixture)
        watcher.interval = 0.02
        var builds = 0
        var changes: [[String]] = []
        var watched: [String] = []
        var edits: [() throws -> Void] = [
            { try Support.write("{\"a\": 1}", to: fixture) },
            { try Support.write("png2", to: image) },
            { try Support.write("{\"a\": 2}", to: fixture) },
        ]
        try watcher.run(
            build: {
                builds += 1
                // The second build is a bad edit: nothing read, the watch goes on.
                return builds == 2 ? nil : [fixture, image]
            },
            watching: { watched = $0 },
            changed: { changes.append($0) },
            until: {
                // One edit per poll once the previous change has been built.
                if builds == changes.count + 1, !edits.isEmpty {
                    Thread.sleep(forTimeInterval: 0.01)
                    try? edits.removeFirst()()
                }
                return changes.count == 3 && builds == 4
            })
        XCTAssertEqual(watched, [fixture, image])
        XCTAssertEqual(changes, [[fixture], [image], [fixture]])
        XCTAssertEqual(builds, 4)
    }
}
