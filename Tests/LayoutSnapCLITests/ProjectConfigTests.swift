import Foundation
import XCTest

/// `layoutsnap.json`: found from the working directory upward, its folders relative to itself,
/// overridden by flags, printed by `layoutsnap config`.
final class ProjectConfigTests: XCTestCase {
    func testARunUsesTheNearestConfigAndFlagsOverrideIt() throws {
        let dir = try TempDir()
        try dir.write(
            "app/ui-fixtures/cards/a.json",
            #"{"kind": "transcript", "width": 200, "height": 120, "scale": 1, "text": "One"}"#)
        try dir.write(
            "app/layoutsnap.json",
            #"{"$schema": "../schema/config.schema.json", "fixtures": "ui-fixtures", "goldens": "ui-goldens", "report": "out/report", "jobs": 1}"#
        )
        try FileManager.default.createDirectory(at: dir.path("app/sub"), withIntermediateDirectories: true)
        let sub = dir.path("app/sub")
        let record = try CLI.run(["record", "--no-progress", "--allow-ci"], in: sub)
        XCTAssertEqual(record.status, 0, record.output)
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: dir.path("app/ui-goldens/cards/a/initial/000.png").path),
            "goldens go where the config says")
        let verify = try CLI.run(["verify", "--no-progress"], in: sub)
        XCTAssertEqual(verify.status, 0, verify.output)
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: dir.path("app/out/report/results.json").path),
            "the report goes where the config says")
        // A flag wins over the file.
        let flag = try CLI.run(["verify", "--no-progress", "--goldens", "../other-goldens"], in: sub)
        XCTAssertEqual(flag.status, 1, flag.output)
        XCTAssertTrue(flag.stdout.contains("MISSING cards/a"), flag.output)

        let config = try CLI.run(["config"], in: sub)
        XCTAssertEqual(config.status, 0, config.output)
        // The nearest file above: shown as an absolute path, since it is not below the working directory.
        XCTAssertTrue(
            config.stdout.hasPrefix("config file: /") && config.stdout.contains("/app/layoutsnap.json\n"), config.stdout
        )
        XCTAssertTrue(config.stdout.contains("goldens   ") && config.stdout.contains("ui-goldens"), config.stdout)
        XCTAssertTrue(config.stdout.contains("timeout   120.0 s  [default]"), config.stdout)

        // accept from the subfolder writes into the project's goldens, not ./ui-goldens here.
        try dir.write(
            "app/ui-fixtures/cards/a.json",
            #"{"kind": "transcript", "width": 200, "height": 120, "scale": 1, "text": "Two"}"#)
        XCTAssertEqual(try CLI.run(["verify", "--no-progress"], in: dir.path("app")).status, 1)
        let accept = try CLI.run(["accept", "--allow-ci"], in: sub)
        XCTAssertEqual(accept.status, 0, accept.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("app/sub/ui-goldens").path), accept.output)
        XCTAssertEqual(try CLI.run(["verify", "--no-progress"], in: sub).status, 0)
        // --device may not overwrite the project's own goldens.
        let device = try CLI.run(["record", "--no-progress", "--allow-ci", "--device", "iphone-se"], in: sub)
        XCTAssertEqual(device.status, 2, device.output)

        // A mistake names the file, line and JSON path, and stops the run (exit 2).
        try dir.write("app/layoutsnap.json", #"{"jobs": 0}"#)
        let bad = try CLI.run(["verify", "--no-progress"], in: sub)
        XCTAssertEqual(bad.status, 2, bad.output)
        XCTAssertTrue(
            bad.stderr.contains("layoutsnap.json:1:")
                && bad.stderr.contains("$.jobs: expected a number of jobs from 1 to 1024"), bad.stderr)
    }
}

/// layoutsnap.json's `defaults`: fixture fields for every fixture that does not write its own.
final class FixtureDefaultsTests: XCTestCase {
    func testDefaultsStandInForTheFieldsAFixtureDoesNotWrite() throws {
        let dir = try TempDir()
        try dir.write("app/Fixtures/plain.json", #"{"kind": "transcript", "text": "One"}"#)
        try dir.write(
            "app/Fixtures/own.json", #"{"kind": "transcript", "device": "iphone-15", "variants": [], "text": "Two"}"#)
        try dir.write(
            "app/layoutsnap.json",
            #"{"defaults": {"device": "iphone-se", "scale": 1, "fps": 30, "tolerance": {"maxDiffPixels": 5}, "variants": [{"textSize": "AX3"}]}}"#
        )
        let app = dir.path("app")

        let layout = try CLI.run(["layout", "Fixtures/plain.json"], in: app)
        XCTAssertEqual(layout.status, 0, layout.output)
        XCTAssertTrue(
            layout.stdout.contains(#""width": 375"#) && layout.stdout.contains(#""height": 667"#), "the default device")
        // The default variants are the fixture's: `--variant` finds them.
        let variant = try CLI.run(["layout", "Fixtures/plain.json", "--variant", "ax3"], in: app)
        XCTAssertEqual(variant.status, 0, variant.output)

        let record = try CLI.run(["record", "--no-progress", "--allow-ci"], in: app)
        XCTAssertEqual(record.status, 0, record.output)
        func size(_ png: String) throws -> [UInt32] {
            let bytes = [UInt8](try Data(contentsOf: dir.path("app/Goldens/" + png)))
            return [16, 20].map { o in bytes[o..<o + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
        }
        XCTAssertEqual(try size("plain/initial/000.png"), [375, 667], "iphone-se at the default scale 1")
        XCTAssertEqual(try size("plain@AX3/initial/000.png"), [375, 667])
        // A fixture's own device wins; the scale it does not write is still the default's.
        XCTAssertEqual(try size("own/initial/000.png"), [393, 852])
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: dir.path("app/Goldens/own@AX3").path), "\"variants\": [] has none")

        let verify = try CLI.run(["verify", "--no-progress"], in: app)
        XCTAssertEqual(verify.status, 0, verify.output)
        XCTAssertTrue(verify.stdout.contains("3 passed") || verify.stdout.contains("3 fixtures"), verify.stdout)

        let config = try CLI.run(["config"], in: app)
        XCTAssertEqual(config.status, 0, config.output)
        XCTAssertTrue(config.stdout.contains("  device     iphone-se  [layoutsnap.json]"), config.stdout)
        XCTAssertTrue(
            config.stdout.contains("  tolerance  threshold 0.1, maxDiffPixels 5, maxDiffRatio 0  [layoutsnap.json]"),
            config.stdout)
        XCTAssertTrue(config.stdout.contains("  variants   AX3  [layoutsnap.json]"), config.stdout)

        // A broken default is the config's mistake, with its path.
        try dir.write("app/layoutsnap.json", #"{"defaults": {"fps": 0}}"#)
        let bad = try CLI.run(["verify", "--no-progress"], in: app)
        XCTAssertEqual(bad.status, 2, bad.output)
        XCTAssertTrue(bad.stderr.contains("$.defaults.fps: expected frames per second from 1 to 240"), bad.stderr)
    }
}

/// A project's config as a new user grows one: every common fixture field as a default, lint
/// settings, its reach (only the fixtures under its folder), and what `config` says (issue 31).
final class ProjectSettingsReachTests: XCTestCase {
    let chat =
        #"{"kind": "chat", "messages": [{"role": "user", "text": "Hello there"}, {"role": "assistant", "text": "Hi!"}]}"#
    /// Offline at AX5: the banner's label is cut at its 32 pt bar, a finding of the fixture's own
    /// (the built-in design's colours are accepted by the design itself).
    let offlineAX5 =
        #"{"kind": "chat", "textSize": "AX5", "online": false, "messages": [{"role": "user", "text": "Hello there"}, {"role": "assistant", "text": "Hi!"}]}"#

    func testDefaultsLintAndReach() throws {
        let dir = try TempDir()
        try dir.write(
            "proj/layoutsnap.json",
            #"{"lint": {"mode": "error"}, "defaults": {"textSize": "AX3", "appearance": "dark", "direction": "rtl", "lint": {"ignore": [{"rule": "clipped-text", "reason": "the banner is cut at AX5 on purpose"}]}}}"#
        )
        try dir.write("proj/Fixtures/chat.json", offlineAX5)
        try dir.write("elsewhere/chat.json", offlineAX5)
        let proj = dir.path("proj")

        // The project's ignore applies: lint passes; the defaults reach the fixture.
        let lint = try CLI.run(["lint"], in: proj)
        XCTAssertEqual(lint.status, 0, lint.output)
        let layout = try CLI.run(["layout", "Fixtures/chat.json"], in: proj)
        XCTAssertEqual(layout.status, 0, layout.output)
        let plain = try CLI.run(["layout", "../elsewhere/chat.json"], in: proj)
        XCTAssertEqual(plain.status, 0, plain.output)
        XCTAssertNotEqual(layout.stdout, plain.stdout, "rtl lays the project's fixture out differently")

        // A fixture outside the project's folder gets none of its defaults: its clipped banner is
        // not ignored, and lint fails on it.
        let outside = try CLI.run(["lint", "../elsewhere"], in: proj)
        XCTAssertEqual(outside.status, 1, outside.output)
        XCTAssertTrue(outside.stdout.contains("clipped-text"), outside.output)
        let which = try CLI.run(["config", "../elsewhere"], in: proj)
        XCTAssertTrue(
            which.stdout.hasPrefix(
                "config file for ../elsewhere: none (no layoutsnap.json at or above it: its fixtures get no defaults)"),
            which.output)
        let own = try CLI.run(["config", "Fixtures/chat.json"], in: proj)
        XCTAssertTrue(own.stdout.hasPrefix("config file for Fixtures/chat.json: layoutsnap.json\n"), own.output)

        // verify takes lint.mode: a finding not ignored fails the run.
        try dir.write(
            "proj/layoutsnap.json", #"{"lint": {"mode": "error"}, "defaults": {"appearance": "dark"}}"#)
        XCTAssertEqual(try CLI.run(["record", "--no-progress", "--allow-ci"], in: proj).status, 0)
        let verify = try CLI.run(["verify", "--no-progress"], in: proj)
        XCTAssertEqual(verify.status, 1, verify.output)
        XCTAssertEqual(try CLI.run(["verify", "--no-progress", "--lint", "warn"], in: proj).status, 0)

        // Where each value comes from, without implying a detection that did not happen.
        let config = try CLI.run(["config"], in: proj, removing: ["GITHUB_ACTIONS"])
        XCTAssertTrue(
            config.stdout.contains("reporter  terminal  [default; github when GITHUB_ACTIONS=true]"), config.stdout)
        XCTAssertTrue(config.stdout.contains("lint      error  [layoutsnap.json]"), config.stdout)
        XCTAssertTrue(config.stdout.contains("  appearance dark  [layoutsnap.json]"), config.stdout)
        let onGitHub = try CLI.run(["config"], in: proj, environment: ["GITHUB_ACTIONS": "true"])
        XCTAssertTrue(onGitHub.stdout.contains("reporter  github  [GITHUB_ACTIONS=true]"), onGitHub.stdout)
    }

    func testEveryConfigKeyHasDidYouMeanAndListsWhatIsAllowed() throws {
        let dir = try TempDir()
        try dir.write("Fixtures/chat.json", chat)
        try dir.write("layoutsnap.json", #"{"defaults": {"appearence": "dark", "colour": 1}, "repoter": "github"}"#)
        let r = try CLI.run(["config"], in: dir.url)
        XCTAssertEqual(r.status, 2, r.output)
        let errors = r.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(
            errors,
            [
                #"error: layoutsnap.json:1:15: $.defaults.appearence: unknown field "appearence"; did you mean "appearance"?"#,
                #"error: layoutsnap.json:1:37: $.defaults.colour: unknown field "colour"; allowed here: appearance, device, direction, fps, lint, scale, textSize, tolerance, variants"#,
                #"error: layoutsnap.json:1:51: $.repoter: unknown field "repoter"; did you mean "reporter"?"#,
            ], r.output)
    }
}
