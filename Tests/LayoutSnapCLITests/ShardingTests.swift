import Foundation
import XCTest

/// docs/outcomes.md and docs/ci.md "Sharding a large suite": `--shard I/N` and `merge-reports`: 4 shards plus a merge give the same results as
/// one unsharded run, failures, a missing golden and a broken fixture included.
final class ShardingTests: XCTestCase {
    /// A report's results.json, without the fixtures' and states' timings (real times differ
    /// from run to run).
    func results(_ dir: URL, _ report: String) throws -> [String: Any] {
        var r =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: dir.appendingPathComponent(report + "/results.json"))) as! [String: Any]
        r["fixtures"] = (r["fixtures"] as! [[String: Any]]).map { fixture -> [String: Any] in
            var f = fixture
            f["durationSeconds"] = nil
            f["states"] = (fixture["states"] as? [[String: Any]])?.map { state -> [String: Any] in
                var s = state
                s["durationSeconds"] = nil
                return s
            }
            return f
        }
        return r
    }

    func testFourShardsAndAMergeEqualOneRun() throws {
        let dir = try TempDir()
        try dir.copyBundled("Fixtures/posts", to: "Fixtures/posts")
        try dir.copyBundled("Goldens/posts", to: "Goldens/posts")
        for name in ["two-lines", "growing", "sticky-scrolled-up"] {
            try dir.copyBundled("Fixtures/transcripts/\(name).json", to: "Fixtures/transcripts/\(name).json")
            try dir.copyBundled("Goldens/transcripts/\(name)", to: "Goldens/transcripts/\(name)")
        }
        try dir.copyBundled("Goldens/manifest.json", to: "Goldens/manifest.json")
        // A changed fixture (failing frames), a deleted golden (missing) and a broken fixture (error).
        let changed = dir.path("Fixtures/posts/no-image.json")
        let text = try String(contentsOf: changed, encoding: .utf8)
        try Data(
            text.replacingOccurrences(of: "Moving one line fixed it.", with: "Moving one line fixed it, and then some.")
                .utf8
        ).write(to: changed)
        try FileManager.default.removeItem(at: dir.path("Goldens/transcripts/growing/initial/000.png"))
        try dir.write("Fixtures/posts/broken.json", #"{"kind": "post", "title": 5}"#)

        // Rendered every time (no result cache): the shards and the whole run are the same work.
        let whole = try CLI.run(
            ["verify", "--no-progress", "--no-cache", "--report", "whole", "--junit", "whole.xml"], in: dir.url)
        XCTAssertEqual(whole.status, 2, whole.output)

        var owners: [String: Int] = [:]
        var shardFrames: [Int] = []
        var statuses: [Int32] = []
        for i in 1...4 {
            let r = try CLI.run(
                ["verify", "--no-progress", "--no-cache", "--shard", "\(i)/4", "--report", "s\(i)"], in: dir.url)
            XCTAssertTrue([0, 1, 2].contains(r.status), r.output)
            statuses.append(r.status)
            let line = r.stderr.split(separator: "\n").first { $0.hasPrefix("shard \(i)/4: ") }
            XCTAssertNotNil(line, r.stderr)
            // "shard 2/4: 4 of 15 fixtures, 97 of 380 frames"
            let numbers = line.map { $0.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) } } ?? []
            if numbers.count >= 6 { shardFrames.append(numbers[4]) }
            for fixture in try results(dir.url, "s\(i)")["fixtures"] as! [[String: Any]] {
                let id = fixture["id"] as! String
                XCTAssertNil(owners[id], "\(id) is in shards \(owners[id] ?? 0) and \(i)")
                owners[id] = i
            }
        }
        let wholeIDs = (try results(dir.url, "whole")["fixtures"] as! [[String: Any]]).map { $0["id"] as! String }
        XCTAssertEqual(Set(owners.keys), Set(wholeIDs), "every fixture in exactly one shard")
        XCTAssertEqual(statuses.max(), whole.status, "the worst shard's exit code is the whole run's")
        XCTAssertEqual(shardFrames.count, 4)
        print("shard frames: \(shardFrames)")
        // The figures are the real frames (they add up to the whole run's) and the parts are
        // balanced to within the largest fixture (posts/no-image, 39 frames).
        XCTAssertEqual(
            shardFrames.reduce(0, +), try (results(dir.url, "whole")["summary"] as! [String: Any])["frames"] as? Int)
        XCTAssertLessThanOrEqual((shardFrames.max() ?? 0) - (shardFrames.min() ?? 0), 39, "\(shardFrames)")

        let merge = try CLI.run(
            ["merge-reports", "s1", "s2", "s3", "s4", "--out", "merged", "--junit", "merged.xml"], in: dir.url)
        XCTAssertEqual(merge.status, whole.status, merge.output)
        XCTAssertEqual(
            merge.stdout.split(separator: "\n").last, whole.stdout.split(separator: "\n").last, "the same summary line")
        let a = try results(dir.url, "whole")
        let b = try results(dir.url, "merged")
        XCTAssertEqual(a["summary"] as? NSDictionary, b["summary"] as? NSDictionary)
        XCTAssertEqual(
            a["fixtures"] as? NSArray, b["fixtures"] as? NSArray,
            "the same fixtures, states, frames, messages and image paths")
        XCTAssertEqual(b["shard"] as? String, "1/4,2/4,3/4,4/4")
        // Every image the merged report points at is there.
        for case let fixture as [String: Any] in b["fixtures"] as! [Any] {
            for case let state as [String: Any] in fixture["states"] as! [Any] {
                for case let frame as [String: Any] in state["frames"] as! [Any] {
                    for key in ["expected", "actual", "diff"] {
                        if let path = frame[key] as? String {
                            XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path("merged/" + path).path), path)
                        }
                    }
                }
            }
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path("merged/index.html").path))
        // Merging again into the same folder replaces the earlier merge: no image of it is left.
        let stale = dir.path("merged/actual/stale-from-an-earlier-run.png")
        try FileManager.default.createDirectory(
            at: stale.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: stale)
        let again = try CLI.run(["merge-reports", "s1", "s2", "s3", "s4", "--out", "merged"], in: dir.url)
        XCTAssertEqual(again.status, whole.status, again.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale.path), "the earlier merge's images are gone")
        func junit(_ name: String) throws -> String {
            try String(contentsOf: dir.path(name), encoding: .utf8)
                .replacingOccurrences(of: #"time="[0-9.]+""#, with: "", options: .regularExpression)
                // Attachments name each report's own folder (whole/, merged/).
                .replacingOccurrences(
                    of: #"\[\[ATTACHMENT\|(whole|merged)/"#, with: "[[ATTACHMENT|", options: .regularExpression)
        }
        XCTAssertEqual(try junit("merged.xml"), try junit("whole.xml"))

        let partial = try CLI.run(["merge-reports", "s1", "s2", "s3", "--out", "partial"], in: dir.url)
        XCTAssertEqual(partial.status, max(whole.status, 1), "a missing shard fails the merge")
        XCTAssertTrue(partial.stderr.contains("error: shard 4/4 missing"), partial.stderr)
        let twice = try CLI.run(["merge-reports", "s1", "s1", "--out", "twice"], in: dir.url)
        XCTAssertEqual(twice.status, 2)
        XCTAssertTrue(twice.stderr.contains("is in both s1 and s1"), twice.stderr)
        let none = try CLI.run(["merge-reports", "nowhere", "--out", "x"], in: dir.url)
        XCTAssertEqual(none.status, 2)
        XCTAssertTrue(none.stderr.contains("nowhere/results.json: no such file"), none.stderr)
    }

    func testShardArgumentsAndPrune() throws {
        let dir = try TempDir()
        try dir.copyBundled("Fixtures/posts/no-image.json", to: "Fixtures/posts/no-image.json")
        for bad in ["0/4", "5/4", "2", "a/b"] {
            let r = try CLI.run(["verify", "--shard", bad], in: dir.url)
            XCTAssertEqual(r.status, 2, bad)
            XCTAssertTrue(r.stderr.contains("--shard"), r.stderr)
        }
        let prune = try CLI.run(["record", "--shard", "1/2", "--prune", "--allow-ci"], in: dir.url)
        XCTAssertEqual(prune.status, 2)
        XCTAssertTrue(prune.stderr.contains("--prune needs the whole fixture set"), prune.stderr)
        // One fixture, two shards: one renders it, the other has nothing to do and says so.
        let one = try CLI.run(["render", "--shard", "1/2", "--out", "a", "--no-progress"], in: dir.url)
        let two = try CLI.run(["render", "--shard", "2/2", "--out", "b", "--no-progress"], in: dir.url)
        XCTAssertEqual(one.status, 0, one.output)
        XCTAssertEqual(two.status, 0, two.output)
        let rendered = [dir.path("a/posts/no-image/layout.json"), dir.path("b/posts/no-image/layout.json")]
            .filter { FileManager.default.fileExists(atPath: $0.path) }
        XCTAssertEqual(rendered.count, 1)
    }
}
