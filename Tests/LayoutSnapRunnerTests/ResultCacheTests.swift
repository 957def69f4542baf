import Foundation
import LayoutSnapCore
import LayoutSnapImaging
import LayoutSnapTestSupport
import XCTest

@testable import LayoutSnapRunner

/// The result cache's parts: its value, the Bazel action result that points at it, the local
/// folder's least-recently-used bound, and the executable's build id.
final class ResultCacheTests: XCTestCase {
    let key = ResultKey(hex: String(repeating: "ab", count: 32))

    var value: CachedResult {
        CachedResult(
            key: key.hex, layout: "0123456789abcdef", canvas: Canvas(width: 393, height: 852, scale: 3),
            lintsIgnored: 2,
            frames: [
                .init(state: "initial", index: 0, time: 0, progress: 0, pixels: "00000000000000ff"),
                .init(
                    state: "01-expand", index: 1, time: 1.0 / 60, progress: 0.123456789012345,
                    pixels: "fedcba9876543210",
                    lints: [
                        LintFinding(
                            rule: .textOverlap, elements: ["body", "summary"],
                            detail: "body overlaps summary by 14.2 pt",
                            rect: Rect(x: 1.5, y: 2.25, width: 3, height: 0.1), amount: 14.2)
                    ]),
            ])
    }

    func testValueReadsBackExactly() throws {
        let bytes = value.encoded()
        XCTAssertEqual(try CachedResult.decode(bytes, key: key.hex).get(), value)
    }

    func testTruncatedEditedOrMovedEntriesAreRefused() {
        let bytes = value.encoded()
        for cut in [0, 1, bytes.count / 2, bytes.count - 1] {
            guard case .failure = CachedResult.decode(Array(bytes[..<cut]), key: key.hex) else {
                return XCTFail("\(cut) bytes of \(bytes.count) read as an entry")
            }
        }
        guard case .failure(let moved) = CachedResult.decode(bytes, key: String(repeating: "cd", count: 32)) else {
            return XCTFail("an entry under another key was taken")
        }
        XCTAssertTrue(moved.message.contains("stored for key"), moved.message)
        let edited = String(decoding: bytes, as: UTF8.self).replacingOccurrences(
            of: "fedcba9876543210", with: "not a hash")
        guard case .failure(let e) = CachedResult.decode(Array(edited.utf8), key: key.hex) else {
            return XCTFail("an edited hash was taken")
        }
        XCTAssertTrue(e.message.contains("pixels"), e.message)
    }

    /// The common entry (no lints, ASCII) is read straight from its bytes, and exactly as the full
    /// parse reads it: every ASCII value below takes the quick way, and no edit of one byte makes the
    /// quick way take what the full parse refuses, or read it otherwise.
    func testPlainEntriesReadAsTheFullParseReadsThem() throws {
        var values: [CachedResult] = []
        for (state, time, progress) in [
            ("initial", 0.0, 0.0), ("01-expand", 1.0 / 60, 0.123456789012345), ("état ✓", 2.5e-7, 1),
            ("02-scroll", 123456.75, 0.5),
        ] {
            var v = value
            v.lintsIgnored = 0
            v.frames = [
                .init(state: state, index: 0, time: time, progress: progress, pixels: "00000000000000ff"),
                .init(state: "second", index: 12, time: 1e21, progress: 1, pixels: "FEDCBA9876543210"),
            ]
            values.append(v)
        }
        var empty = value
        empty.frames = []
        values.append(empty)
        for v in values {
            let bytes = v.encoded()
            // Text beyond ASCII is the full parse's (it makes strings stream-safe).
            let ascii = v.frames.allSatisfy { $0.state.utf8.allSatisfy { $0 < 0x80 } }
            XCTAssertEqual(
                PlainEntry.read(bytes, key: key.hex), ascii ? v : nil, String(decoding: bytes, as: UTF8.self))
            XCTAssertEqual(try CachedResult.decodeTree(bytes, key: key.hex).get(), v)
            XCTAssertEqual(try CachedResult.decode(bytes, key: key.hex).get(), v)
        }
        // An entry with lints, or an escape, is the full parse's.
        XCTAssertNil(PlainEntry.read(value.encoded(), key: key.hex))
        var quoted = values[0]
        quoted.frames[0].state = "a \"quoted\" state"
        XCTAssertNil(PlainEntry.read(quoted.encoded(), key: key.hex))
        XCTAssertEqual(try CachedResult.decode(quoted.encoded(), key: key.hex).get(), quoted)

        let bytes = values[1].encoded()
        var taken = 0
        for at in bytes.indices {
            for replacement in [UInt8(ascii: "0"), UInt8(ascii: "9"), UInt8(ascii: "\""), UInt8(ascii: " "), 0x80] {
                var edited = bytes
                edited[at] = replacement
                let quick = PlainEntry.read(edited, key: key.hex)
                guard let quick else { continue }
                taken += 1
                XCTAssertEqual(
                    quick, try? CachedResult.decodeTree(edited, key: key.hex).get(),
                    "byte \(at) as \(replacement): \(String(decoding: edited, as: UTF8.self))")
            }
        }
        XCTAssertGreaterThan(taken, 0, "some edits (a digit for a digit) are still plain entries")
    }

    /// An entry whose rendering named a brand family holds the brand fonts' hashes, and a hit needs
    /// them to be the fonts' now. Such a rendering is also stored under a key of its own brand
    /// fonts, so renderings with two versions of a brand font stay side by side; an entry without
    /// the claim is a hit whatever the brand fonts. An audit finds an entry that left a named
    /// brand family out.
    func testBrandFontsOfAnEntryMustStillHoldForAHit() throws {
        var branded = value
        branded.lintsIgnored = 0
        branded.frames = [.init(state: "initial", index: 0, time: 0, progress: 0, pixels: "00000000000000ff")]
        let plain = branded
        branded.brandFonts = ["Brand Serif: Brand.ttf": "0123456789abcdef"]
        XCTAssertEqual(try CachedResult.decode(branded.encoded(), key: key.hex).get(), branded)
        XCTAssertNil(PlainEntry.read(branded.encoded(), key: key.hex), "the full parse's")
        XCTAssertEqual(PlainEntry.read(plain.encoded(), key: key.hex), plain)
        XCTAssertEqual(plain.difference(from: branded), "a brand family named only by the rendering")
        XCTAssertEqual(branded.difference(from: plain), "a brand family named only by the entry")
        XCTAssertNil(branded.difference(from: branded))

        let folder = try makeTemporaryFolder("brand-fonts")
        defer { removeTemporaryFolder(folder) }
        let local = LocalResultStore(folder: folder.path, maxBytes: 1 << 20)
        func cache(_ hash: String) -> ResultCache {
            ResultCache(
                store: TieredResultStore(local: local, remote: nil), local: local, renderer: "test",
                environment: "test", auditRate: 0, lints: false, brandFonts: ["Brand Serif: Brand.ttf": hash])
        }
        let (first, second) = (cache("0123456789abcdef"), cache("fedcba9876543210"))
        XCTAssertNotEqual(first.brandedKey(key), second.brandedKey(key))
        func rendering(usedBrandFonts: Bool, pixels: UInt64) -> FixtureResult {
            var frame = FrameResult(state: "initial", index: 0, status: .passed, goldenKey: "initial/000")
            frame.pixelHash = pixels
            var result = FixtureResult(ref: FixtureRef(id: "card", path: "card.json", displayPath: "card.json"))
            result.frames = [frame]
            result.canvas = value.canvas
            result.layoutHash = value.layout
            result.usedBrandFonts = usedBrandFonts
            return result
        }
        first.store(key, rendering(usedBrandFonts: true, pixels: 0xff))
        first.finish()
        XCTAssertEqual(first.lookup(key)?.brandFonts, ["Brand Serif: Brand.ttf": "0123456789abcdef"])
        XCTAssertEqual(first.lookup(key)?.frames.map(\.pixels), ["00000000000000ff"])
        XCTAssertNil(second.lookup(key), "rendered with another brand font")
        second.store(key, rendering(usedBrandFonts: true, pixels: 0xee))
        second.finish()
        XCTAssertEqual(second.lookup(key)?.frames.map(\.pixels), ["00000000000000ee"])
        // The first version's rendering is still there, under its own brand fonts' key.
        let again = try XCTUnwrap(cache("0123456789abcdef").lookup(key))
        XCTAssertEqual(again.frames.map(\.pixels), ["00000000000000ff"])
        XCTAssertEqual(again.key, key.hex)
        XCTAssertNil(cache("00000000000000aa").lookup(key), "a third version was never rendered")

        // A rendering that named no brand family is a hit for any brand fonts, and has no copy.
        let other = ResultKey(hex: String(repeating: "cd", count: 32))
        let third = cache("00000000000000aa")
        third.store(other, rendering(usedBrandFonts: false, pixels: 0xdd))
        third.finish()
        XCTAssertNil(first.lookup(other)?.brandFonts)
        XCTAssertEqual(first.lookup(other)?.frames.map(\.pixels), ["00000000000000dd"])
        XCTAssertNil(local.get(third.brandedKey(other)))
    }

    /// A variant's key is remembered under its name, which picks out one value only for the
    /// bytes its variants were read from: a file saved between finding the fixtures and weighing
    /// them has no memo (so nothing is filed under the name for the new bytes).
    func testAVariantReadFromOtherBytesHasNoMemo() throws {
        let folder = try makeTemporaryFolder("variant-memo")
        defer { removeTemporaryFolder(folder) }
        let file = folder.appendingPathComponent("card.json")
        let first = Data(#"{"kind": "post", "variants": [{"name": "dark", "appearance": "dark"}]}"#.utf8)
        try first.write(to: file)
        let local = LocalResultStore(folder: folder.appendingPathComponent("cache").path, maxBytes: 1 << 20)
        let cache = ResultCache(
            store: TieredResultStore(local: local, remote: nil), local: local, renderer: "test", environment: "test",
            auditRate: 0, lints: false)
        var ref = FixtureRef(
            id: "card@dark", path: file.path, displayPath: "card.json",
            variant: FixtureVariant(name: "dark", appearance: .dark))
        ref.variantSource = first.withUnsafeBytes { PixelHash.ofBytes($0) }
        XCTAssertNotNil(cache.rememberedKey(ref: ref, overrides: FixtureOverrides(), files: LocalInputFiles()).memo)
        try Data(#"{"kind": "post", "variants": [{"name": "dark", "textSize": "AX3"}]}"#.utf8).write(to: file)
        XCTAssertNil(cache.rememberedKey(ref: ref, overrides: FixtureOverrides(), files: LocalInputFiles()).memo)
        ref.variantSource = nil
        XCTAssertNil(cache.rememberedKey(ref: ref, overrides: FixtureOverrides(), files: LocalInputFiles()).memo)
    }

    /// A run's audits are drawn before it, each fixture with the rate's probability, and the
    /// cache follows the plan it is given (without one it draws at each hit).
    func testAuditsAreDrawnBeforeTheRunAndFollowed() throws {
        XCTAssertFalse(AuditPlan(rate: 0, count: 1_000).any)
        XCTAssertEqual(AuditPlan(rate: 1, count: 3).audited, [true, true, true])
        XCTAssertEqual(AuditPlan(rate: 0.5, count: 0).audited, [])
        // 10,000 draws at 0.3: 3,000 expected, with a standard deviation of 46.
        let drawn = AuditPlan(rate: 0.3, count: 10_000).audited.filter { $0 }.count
        XCTAssertTrue((2_700...3_300).contains(drawn), "\(drawn)")

        let folder = try makeTemporaryFolder("audit-plan")
        defer { removeTemporaryFolder(folder) }
        let local = LocalResultStore(folder: folder.path, maxBytes: 1 << 20)
        let cache = ResultCache(
            store: TieredResultStore(local: local, remote: nil), local: local, renderer: "test", environment: "test",
            auditRate: 1, lints: false)
        XCTAssertTrue(cache.audits(fixture: 0), "no plan: the rate")
        cache.use(AuditPlan(audited: [false, true, false]))
        XCTAssertEqual((0..<3).map { cache.audits(fixture: $0) }, [false, true, false])
    }

    /// What a run read is remembered by hash, so a result is stored only under the key of what
    /// was rendered: a file that reads otherwise the second time, or otherwise than when the
    /// fixture was weighed, is a change.
    func testReadFilesSeeAFileSavedBetweenTwoReads() throws {
        let folder = try makeTemporaryFolder("reads")
        defer { removeTemporaryFolder(folder) }
        let file = folder.appendingPathComponent("card.json").path
        let image = folder.appendingPathComponent("photo.png").path
        try Data("one".utf8).write(to: URL(fileURLWithPath: file))
        try Data("picture".utf8).write(to: URL(fileURLWithPath: image))
        let weighing = ReadFiles()
        _ = try weighing.read(file, upTo: 1 << 20)
        _ = try weighing.read(image, upTo: 1 << 20)
        _ = try weighing.read(file, upTo: 1 << 20)
        XCTAssertFalse(weighing.changed())
        XCTAssertEqual(Set(weighing.hashes.keys), ["\(1 << 20) \(file)", "\(1 << 20) \(image)"])
        // A header read is not the whole file.
        _ = try weighing.read(image, upTo: 4)
        XCTAssertFalse(weighing.changed())

        // The same bytes again when rendering: no change.
        let rendering = ReadFiles()
        _ = try rendering.read(file, upTo: 1 << 20)
        XCTAssertFalse(rendering.changed(since: weighing.hashes))
        XCTAssertTrue(ReadFiles.stillRead(weighing.hashes))
        // Saved since it was weighed (the same size, other bytes).
        try Data("two".utf8).write(to: URL(fileURLWithPath: file))
        XCTAssertFalse(ReadFiles.stillRead(weighing.hashes), "read again, the file is seen changed")
        let later = ReadFiles()
        _ = try later.read(file, upTo: 1 << 20)
        XCTAssertTrue(later.changed(since: weighing.hashes))
        // Saved between two reads of one weighing.
        _ = try weighing.read(file, upTo: 1 << 20)
        XCTAssertTrue(weighing.changed())
        // An image saved after the weighing (the renderer reads it on its own), or gone.
        let images = ReadFiles()
        _ = try images.read(image, upTo: 1 << 20)
        try Data("PICTURE".utf8).write(to: URL(fileURLWithPath: image))
        XCTAssertFalse(ReadFiles.stillRead(images.hashes))
        try FileManager.default.removeItem(atPath: image)
        XCTAssertFalse(ReadFiles.stillRead(images.hashes))
    }

    /// A remembered key's record reads back exactly, whatever bytes its paths hold, and every
    /// cut of it is refused.
    func testKeyMemoReadsBackAndRefusesTornRecords() {
        let memo = KeyMemo(
            key: key,
            inputs: [
                ("images/a b.png", String(repeating: "0f", count: 32)),
                ("odd\nname 12:3.png", String(repeating: "e1", count: 32)), ("", String(repeating: "00", count: 32)),
            ])
        let bytes = memo.encoded()
        XCTAssertEqual(KeyMemo.parse(bytes), memo)
        XCTAssertEqual(KeyMemo.parse(KeyMemo(key: key, inputs: []).encoded())?.inputs.count, 0)
        for cut in 0..<bytes.count {
            XCTAssertNil(KeyMemo.parse(Array(bytes[..<cut])), "a record cut at \(cut) of \(bytes.count) read")
        }
        XCTAssertNil(KeyMemo.parse(Array(key.hex.utf8)), "a key alone (the old format) is no record")
        XCTAssertNil(KeyMemo.parse(bytes + [0x41]))
    }

    /// A pack of remembered keys reads back exactly, and every cut of it is refused whole.
    /// A compaction names its pack just after the newest it read; a stray file named with the
    /// largest time there is gives that time again instead of trapping on the overflow.
    func testACompactedPackIsNamedAfterTheNewestRead() throws {
        let name = PackFormat.name(
            after: [
                "0123456789abcdef-00000000000000000005-1-00000000", "0123456789abcdef-00000000000000000009-1-00000000",
            ],
            generation: "0123456789abcdef")
        XCTAssertEqual(PackFormat.timeInName(name), 10)
        let stray = PackFormat.name(
            after: ["0123456789abcdef-9223372036854775807-1-00000000"], generation: "0123456789abcdef")
        XCTAssertEqual(PackFormat.timeInName(stray), Int.max)
        XCTAssertTrue(stray.hasPrefix("0123456789abcdef-"))
    }

    func testMemoPackReadsBackAndRefusesTornPacks() {
        let records: [(memo: String, bytes: [UInt8])] = [
            (String(repeating: "0a", count: 32), KeyMemo(key: key, inputs: []).encoded()),
            (String(repeating: "f1", count: 32), Array("odd\nrecord 12 \n".utf8)),
            (String(repeating: "22", count: 32), []),
        ]
        let bytes = MemoPacks.encoded(records)
        let read = MemoPacks.parse(bytes)
        XCTAssertEqual(read?.map(\.memo), records.map(\.memo))
        XCTAssertEqual(read?.map(\.bytes), records.map(\.bytes))
        XCTAssertEqual(MemoPacks.parse(MemoPacks.encoded([]))?.count, 0)
        for cut in 0..<bytes.count {
            XCTAssertNil(MemoPacks.parse(Array(bytes[..<cut])), "a pack cut at \(cut) of \(bytes.count) read")
        }
        XCTAssertNil(MemoPacks.parse(bytes + [0x0A]))
        XCTAssertNil(MemoPacks.parse(Array(String(decoding: bytes, as: UTF8.self).uppercased().utf8)))
    }

    /// Each run that learns keys writes one pack; a later pack wins; a run that read `maxPacks`
    /// writes them again as one, named before a pack written meanwhile, and removes them; a
    /// warm run writes nothing; another generation's packs are neither read nor removed.
    func testMemoPacksAreOneFileARunAndAreCompacted() throws {
        let folder = try makeTemporaryFolder("memo-packs").path + "/memos"
        func packs() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") }
                .sorted()
        }
        let memo = (0..<20).map { ResultKey(hex: String(format: "%064x", $0)) }
        func record(_ n: Int) -> [UInt8] {
            KeyMemo(key: ResultKey(hex: String(format: "%064x", 1000 + n)), inputs: []).encoded()
        }
        func run(_ generation: String = "0123456789abcdef") -> MemoPacks {
            MemoPacks(folder: folder, generation: generation)
        }

        let first = run()
        XCTAssertNil(first.record(memo[0]), "no folder yet: no packs")
        first.remember(record(0), for: memo[0])
        first.remember(record(1), for: memo[1])
        XCTAssertEqual(first.record(memo[1]), record(1), "learnt: found in the same run")
        XCTAssertNil(first.finish())
        XCTAssertEqual(packs().count, 1)
        XCTAssertNil(first.finish(), "once")
        XCTAssertEqual(packs().count, 1)

        let warm = run()
        XCTAssertEqual(warm.record(memo[0]), record(0))
        XCTAssertNil(warm.finish())
        XCTAssertEqual(packs().count, 1, "a warm run writes nothing")

        // Another build's run reads none of them and writes its own.
        let other = run("fedcba9876543210")
        XCTAssertNil(other.record(memo[0]))
        other.remember(record(50), for: memo[0])
        XCTAssertNil(other.finish())
        let otherPack = try XCTUnwrap(packs().first { $0.hasPrefix("fedcba9876543210-") })

        // Filed again with another key: the later pack wins.
        for n in 2..<MemoPacks.maxPacks + 1 {
            let run = run()
            _ = run.record(memo[n])
            run.remember(record(100 + n), for: memo[0])
            run.remember(record(n), for: memo[n])
            XCTAssertNil(run.finish())
        }
        XCTAssertEqual(packs().count, MemoPacks.maxPacks + 1)
        // A torn pack is read as none, and goes with the compaction.
        let newest = try XCTUnwrap(packs().last { $0.hasPrefix("0123456789abcdef-") })
        let torn = "0123456789abcdef-" + String(repeating: "0", count: 20) + "-1-torn"
        try Data("layoutsnap memo pack 1\nmemo".utf8).write(to: URL(fileURLWithPath: folder + "/" + torn))
        let compacting = run()
        XCTAssertEqual(compacting.record(memo[0]), record(100 + MemoPacks.maxPacks))
        XCTAssertEqual(compacting.record(memo[1]), record(1))
        // Another run writes a pack while this one works (one that looked nothing up): it
        // stays after the compaction's.
        let meanwhile = run()
        meanwhile.remember(record(200), for: memo[0])
        XCTAssertNil(meanwhile.finish())
        XCTAssertNil(compacting.finish())
        let after = packs()
        XCTAssertEqual(after.count, 3, "\(after)")
        XCTAssertTrue(after.contains(otherPack), "another generation's pack is left to age out")
        let own = after.filter { $0.hasPrefix("0123456789abcdef-") }
        XCTAssertGreaterThan(own[0], newest)
        func count(_ pack: String) throws -> Int? {
            MemoPacks.parse(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + pack))))?.count
        }
        XCTAssertEqual(
            try count(own[0]), MemoPacks.maxPacks + 1, "the compaction's, named just after the newest it read")
        XCTAssertEqual(try count(own[1]), 1, "the one written meanwhile, after it")
        let next = run()
        XCTAssertEqual(next.record(memo[0]), record(200), "the pack written meanwhile wins")
        for n in 1..<MemoPacks.maxPacks + 1 { XCTAssertEqual(next.record(memo[n]), record(n), "\(n)") }
    }

    /// A store in memory that counts what it is asked.
    final class CountingStore: ResultStore, @unchecked Sendable {
        var entries: [String: [UInt8]] = [:]
        var gets = 0
        var puts = 0
        func get(_ key: ResultKey) -> [UInt8]? {
            gets += 1
            return entries[key.hex]
        }
        func put(_ key: ResultKey, _ bytes: [UInt8]) {
            puts += 1
            entries[key.hex] = bytes
        }
        var problems: [String] { [] }
    }

    /// The shared pack: read only at the first memo the local packs lack, and only when they are
    /// none (a warm local run asks nothing, nor does one with a fixture that never decodes), under
    /// the local packs; put back, merged, only by a run that learnt a memo it
    /// lacked or held otherwise, never smaller than it was read; kept by a local folder in front.
    /// A small local folder bounds the packs it writes, not the team's shared pack: one larger
    /// than a tenth of the folder's bound is read, and put back whole with what a run learnt.
    func testASmallFolderDoesNotBoundTheSharedPack() throws {
        let folder = try makeTemporaryFolder("memo-shared-small").path + "/memos"
        let store = CountingStore()
        let shared = MemoPacks.Shared(
            store: store, key: MemoPacks.Shared.key(generation: String(repeating: "7", count: 64)))
        func record(_ n: Int) -> [UInt8] {
            KeyMemo(key: ResultKey(hex: String(format: "%064x", 1000 + n)), inputs: []).encoded()
        }
        let memo = (0..<40).map { ResultKey(hex: String(format: "%064x", $0)) }
        store.entries[shared.key.hex] = MemoPacks.encoded(memo.prefix(39).enumerated().map { ($1.hex, record($0)) })
        let size = try XCTUnwrap(store.entries[shared.key.hex]).count
        let run = MemoPacks(folder: folder, generation: "7777777777777777", shared: shared, folderBytes: size * 5)
        XCTAssertLessThan(run.writtenBytes, size)
        XCTAssertEqual(run.record(memo[0]), record(0))
        XCTAssertEqual(run.record(memo[38]), record(38))
        run.remember(record(39), for: memo[39])
        run.finishShared()
        let put = try XCTUnwrap(store.entries[shared.key.hex].flatMap(MemoPacks.parse))
        XCTAssertEqual(put.count, 40, "the team's pack whole, with what was learnt")
        XCTAssertNil(run.finish())
        let written = try FileManager.default.contentsOfDirectory(atPath: folder)
        XCTAssertEqual(written.count, 1)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + written[0]))
        XCTAssertLessThanOrEqual(bytes.count, run.writtenBytes, "the folder's own pack within its tenth")
    }

    func testTheSharedPackIsAskedForWhatTheFolderLacks() throws {
        let folder = try makeTemporaryFolder("memo-shared").path + "/memos"
        let store = CountingStore()
        let generation = String(repeating: "5", count: 64)
        let shared = MemoPacks.Shared(store: store, key: MemoPacks.Shared.key(generation: generation))
        let memo = (0..<6).map { ResultKey(hex: String(format: "%064x", $0)) }
        func record(_ n: Int) -> [UInt8] {
            KeyMemo(key: ResultKey(hex: String(format: "%064x", 1000 + n)), inputs: []).encoded()
        }
        func sharedRecords() -> [String: [UInt8]] {
            Dictionary(
                uniqueKeysWithValues: (store.entries[shared.key.hex].flatMap(MemoPacks.parse) ?? []).map {
                    ($0.memo, $0.bytes)
                })
        }
        XCTAssertNotEqual(shared.key, MemoPacks.Shared.key(generation: String(repeating: "6", count: 64)))

        // A machine without a folder: learns two, puts them.
        let first = MemoPacks(folder: nil, generation: "5555555555555555", shared: shared)
        XCTAssertNil(first.record(memo[0]))
        first.remember(record(0), for: memo[0])
        first.remember(record(1), for: memo[1])
        XCTAssertNil(first.finish(), "no folder: nothing written, nothing wrong")
        first.finishShared()
        first.finishShared()
        XCTAssertEqual(store.puts, 1, "once")
        XCTAssertEqual(sharedRecords(), [memo[0].hex: record(0), memo[1].hex: record(1)])

        // Another machine finds both; learns nothing, puts nothing.
        let second = MemoPacks(folder: nil, generation: "5555555555555555", shared: shared)
        XCTAssertEqual(second.record(memo[1]), record(1))
        XCTAssertEqual(second.record(memo[0]), record(0))
        second.finishShared()
        XCTAssertEqual(store.puts, 1)

        // A folder in front, empty: the shared memos are found, and kept in its pack.
        let gets = store.gets
        let local = MemoPacks(folder: folder, generation: "5555555555555555", shared: shared)
        XCTAssertEqual(local.record(memo[0]), record(0))
        XCTAssertEqual(store.gets, gets + 1)
        XCTAssertNil(local.record(memo[2]))
        XCTAssertEqual(store.gets, gets + 1, "read once")
        local.finishShared()
        XCTAssertNil(local.finish())
        XCTAssertEqual(store.puts, 1, "nothing learnt")

        // Warm from the folder: the store is not asked. One learnt otherwise (a fixture edited
        // back and forth): the pack put back with it, and with what it held.
        let warm = MemoPacks(folder: folder, generation: "5555555555555555", shared: shared)
        XCTAssertEqual(warm.record(memo[1]), record(1))
        XCTAssertEqual(warm.record(memo[0]), record(0))
        XCTAssertEqual(store.gets, gets + 1, "the folder had both")
        warm.remember(record(9), for: memo[0])
        warm.finishShared()
        XCTAssertEqual(store.puts, 2)
        XCTAssertEqual(sharedRecords(), [memo[0].hex: record(9), memo[1].hex: record(1)])

        // A folder that holds a pack of the generation never asks: a memo it lacks (a fixture
        // changed since, or one that never decodes) is worked out by decoding.
        store.entries[shared.key.hex] = MemoPacks.encoded([(memo[1].hex, record(7)), (memo[3].hex, record(3))])
        let asked = store.gets
        let both = MemoPacks(folder: folder, generation: "5555555555555555", shared: shared)
        XCTAssertNil(both.record(memo[3]), "lacked by the folder: not asked for")
        XCTAssertEqual(both.record(memo[1]), record(1), "held by both: the folder's")
        XCTAssertEqual(store.gets, asked, "the folder holds packs: the store is not asked")

        // An empty folder takes the store's.
        let emptyFolder = try makeTemporaryFolder("memo-shared-empty").path + "/memos"
        let fresh = MemoPacks(folder: emptyFolder, generation: "5555555555555555", shared: shared)
        XCTAssertEqual(fresh.record(memo[3]), record(3), "lacked by an empty folder: from the store")
        XCTAssertEqual(fresh.record(memo[1]), record(7))

        // A shared entry that is not a whole pack is none, and a run that learnt puts a whole one.
        store.entries[shared.key.hex] = Array("layoutsnap memo pack 1\nmemo".utf8)
        let torn = MemoPacks(folder: nil, generation: "5555555555555555", shared: shared)
        XCTAssertNil(torn.record(memo[0]))
        torn.remember(record(4), for: memo[4])
        torn.finishShared()
        XCTAssertEqual(sharedRecords(), [memo[4].hex: record(4)])

        // What another run put meanwhile is read again before the put, and kept.
        let late = MemoPacks(folder: nil, generation: "5555555555555555", shared: shared)
        XCTAssertNil(late.record(memo[5]))
        late.remember(record(5), for: memo[5])
        var meanwhile = sharedRecords()
        meanwhile[memo[2].hex] = record(2)
        store.entries[shared.key.hex] = MemoPacks.encoded(
            meanwhile.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        late.finishShared()
        XCTAssertEqual(sharedRecords(), [memo[4].hex: record(4), memo[2].hex: record(2), memo[5].hex: record(5)])

        // With uploads off, the pack is read and never put back.
        var readOnly = shared
        readOnly.puts = false
        let putsBefore = store.puts
        let reader = MemoPacks(folder: nil, generation: "5555555555555555", shared: readOnly)
        XCTAssertEqual(reader.record(memo[5]), record(5))
        reader.remember(record(1), for: memo[1])
        reader.finishShared()
        XCTAssertEqual(store.puts, putsBefore)
    }

    /// A record from the server is taken only as layoutsnap writes one: it may send the run to
    /// files below the working folder only, and to a few of them.
    func testASharedRecordNamesOnlyFilesBelowTheWorkingFolder() {
        func record(_ paths: [String]) -> [UInt8] {
            KeyMemo(key: key, inputs: paths.map { ($0, String(repeating: "0", count: 64)) }).encoded()
        }
        XCTAssertTrue(MemoPacks.usable(record([])))
        XCTAssertTrue(MemoPacks.usable(record(["Fixtures/posts/images/x.png", "a..b/c"])))
        for paths in [["/etc/passwd"], ["../x.png"], ["Fixtures/../../x"], ["a//b"], [""], ["a/"]] {
            XCTAssertFalse(MemoPacks.usable(record(paths)), "\(paths)")
        }
        XCTAssertTrue(MemoPacks.usable(record(Array(repeating: "x.png", count: 64))))
        XCTAssertFalse(MemoPacks.usable(record(Array(repeating: "x.png", count: 65))))
        XCTAssertFalse(MemoPacks.usable(Array("layoutsnap key memo 1\nkey".utf8)), "torn")
        let large = KeyMemo(
            key: key,
            inputs: [(String(repeating: "a", count: LocalResultStore.maxMemoBytes), String(repeating: "0", count: 64))])
        XCTAssertFalse(MemoPacks.usable(large.encoded()))
    }

    /// No pack is larger than its bound: a run that learnt more writes what fits (its first
    /// records), and the rest are worked out again by a later run.
    func testAPackIsNeverLargerThanItsBound() throws {
        let folder = try makeTemporaryFolder("memo-bound").path + "/memos"
        let run = MemoPacks(folder: folder, generation: "0123456789abcdef", maxBytes: 1000)
        let memo = (0..<20).map { ResultKey(hex: String(format: "%064x", $0)) }
        for (n, m) in memo.enumerated() { run.remember(Array(repeating: 0x41, count: 50 + n), for: m) }
        XCTAssertNil(run.finish())
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        XCTAssertEqual(names.count, 1)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + names[0]))
        XCTAssertLessThanOrEqual(bytes.count, 1000)
        let read = try XCTUnwrap(MemoPacks.parse(Array(bytes)))
        // 27 bytes of header and end, 124 + n for the record of n: seven fit in 1,000.
        XCTAssertEqual(read.count, 7, "as many as fit, first learnt first")
        XCTAssertEqual(Set(read.map(\.memo)), Set(memo.prefix(7).map(\.hex)))
        let next = MemoPacks(folder: folder, generation: "0123456789abcdef", maxBytes: 1000)
        XCTAssertEqual(next.record(memo[6]), Array(repeating: 0x41, count: 56))
        XCTAssertNil(next.record(memo[7]))

        // What a run writes into a folder: a tenth of the folder's bound, at most 32 MB. What it
        // reads, and the shared pack, keep their own bounds.
        XCTAssertEqual(MemoPacks.localBytes(folderBytes: 512 << 20), 32 << 20)
        XCTAssertEqual(MemoPacks.localBytes(folderBytes: 100_000), 10_000)
        let small = LocalResultStore(folder: folder + "-cache", maxBytes: 100_000)
        let cache = ResultCache(
            store: TieredResultStore(local: small, remote: nil), local: small, renderer: "test", environment: "test",
            auditRate: 0, lints: false)
        XCTAssertEqual(cache.memos?.writtenBytes, 10_000)
        XCTAssertEqual(cache.memos?.maxBytes, 32 << 20)
        let wrote = MemoPacks(folder: folder, generation: "0123456789abcdef", maxBytes: 1000, folderBytes: 5000)
        for (n, m) in memo.enumerated() { wrote.remember(Array(repeating: 0x42, count: 50 + n), for: m) }
        XCTAssertNil(wrote.finish())
        let sizes = try FileManager.default.contentsOfDirectory(atPath: folder).map {
            try Data(contentsOf: URL(fileURLWithPath: folder + "/" + $0)).count
        }
        XCTAssertEqual(sizes.count, 2)
        XCTAssertLessThanOrEqual(sizes.max() ?? 0, 1000)
        XCTAssertLessThanOrEqual(sizes.min() ?? .max, 500, "a tenth of the folder's 5,000 bytes")
        // Both packs are still read whole, the larger one too.
        let reads = MemoPacks(folder: folder, generation: "0123456789abcdef", maxBytes: 1000, folderBytes: 5000)
        XCTAssertEqual(reads.record(memo[6]), Array(repeating: 0x41, count: 56))
    }

    func testDefaultsMemoReadsBackAndRefusesTornRecords() {
        let digest = (0..<32).map { UInt8($0 * 7 % 256) }
        let bytes = DefaultsMemo.encoded(digest)
        XCTAssertEqual(DefaultsMemo.parse(bytes), digest)
        for cut in 0..<bytes.count {
            XCTAssertNil(DefaultsMemo.parse(Array(bytes[..<cut])), "a record cut at \(cut) of \(bytes.count) read")
        }
        XCTAssertNil(DefaultsMemo.parse(bytes + [0x0A]))
        XCTAssertNil(DefaultsMemo.parse(Array(String(decoding: bytes, as: UTF8.self).uppercased().utf8)))
        XCTAssertNil(DefaultsMemo.parse(KeyMemo(key: key, inputs: []).encoded()), "a key memo is not one")
    }

    /// What the defaults were decoded from picks out their remembered hash: the same file's bytes
    /// give the same source, other bytes or a changed value none of its.
    func testDefaultsAreRememberedUnderWhatTheyWereDecodedFrom() throws {
        let folder = try makeTemporaryFolder("defaults-memo")
        defer { removeTemporaryFolder(folder) }
        let project = folder.appendingPathComponent("project").path
        try FileManager.default.createDirectory(atPath: project, withIntermediateDirectories: true)
        let file = project + "/layoutsnap.json"
        try Data(#"{"defaults": {"appearance": "dark"}}"#.utf8).write(to: URL(fileURLWithPath: file))
        let dark = try ProjectSettings.load(from: project, cwd: project)
        let source = try XCTUnwrap(dark.defaultsSource)
        XCTAssertEqual(try ProjectSettings.load(from: project, cwd: project).defaultsSource, source)
        try Data(#"{"defaults": {"appearance": "dark"} }"#.utf8).write(to: URL(fileURLWithPath: file))
        XCTAssertNotEqual(try ProjectSettings.load(from: project, cwd: project).defaultsSource, source)
        var changed = dark
        changed.config.defaults.appearance = .light
        XCTAssertNil(changed.defaultsSource, "defaults changed after loading are not the file's")
        XCTAssertNil(ProjectSettings().defaultsSource)

        let defaults = dark.config.defaults
        let cache = folder.appendingPathComponent("cache").path
        let digest = ResultCache.digest(of: defaults, source: source, folder: cache)
        XCTAssertEqual(digest, ResultCache.digest(of: defaults))
        let memos = try FileManager.default.subpathsOfDirectory(atPath: cache + "/keys").filter { $0.count > 3 }
        XCTAssertEqual(memos.count, 1)
        // Read back, not worked out again: a memo edited to another hash gives that hash.
        let other = [UInt8](repeating: 0x5A, count: 32)
        try Data(DefaultsMemo.encoded(other)).write(to: URL(fileURLWithPath: cache + "/keys/" + memos[0]))
        XCTAssertEqual(ResultCache.digest(of: defaults, source: source, folder: cache), other)
        XCTAssertEqual(ResultCache.digest(of: defaults, source: source + [0], folder: cache), digest)
        XCTAssertEqual(ResultCache.digest(of: defaults, source: nil, folder: cache), digest)
    }

    func testActionResultNamesTheBlob() {
        let hash = SHA256.hex(of: value.encoded())
        let message = ActionResult.encode(path: "layoutsnap-result.json", hash: hash, size: 1234)
        let digest = ActionResult.output(message, path: "layoutsnap-result.json")
        XCTAssertEqual(digest?.hash, hash)
        XCTAssertEqual(digest?.size, 1234)
        XCTAssertNil(digest?.contents)
        XCTAssertNil(ActionResult.output(message, path: "other"))
        // Bazel's own fields around it (exit_code = 4, stdout_raw = 5) are skipped.
        let withExtras = [0x20, 0x00] + message + [0x2A, 0x02, 0x68, 0x69]
        XCTAssertEqual(ActionResult.output(withExtras, path: "layoutsnap-result.json")?.hash, hash)
        for cut in 1..<message.count {
            XCTAssertNil(ActionResult.output(Array(message[..<cut]), path: "layoutsnap-result.json"), "\(cut)")
        }
        XCTAssertNil(ActionResult.output(Array("<html>not found</html>".utf8), path: "layoutsnap-result.json"))

        // The entry's bytes inline (OutputFile.contents = 5), over 127 bytes (a two-byte length).
        let entry = value.encoded()
        XCTAssertGreaterThan(entry.count, 127)
        let inline = ActionResult.encode(
            path: "layoutsnap-result.json", hash: SHA256.hex(of: entry), size: entry.count, contents: entry)
        let read = ActionResult.output(inline, path: "layoutsnap-result.json")
        XCTAssertEqual(read?.contents, entry)
        XCTAssertEqual(read?.size, entry.count)
        for cut in 1..<inline.count {
            XCTAssertNil(ActionResult.output(Array(inline[..<cut]), path: "layoutsnap-result.json"), "\(cut)")
        }
    }

    /// A hit moves its pack's time to now only when it is an hour old or more: a warm run
    /// within the hour writes nothing to the folder, and a lookup that misses touches nothing.
    func testAHitTouchesOnlyAPackUnusedForAnHour() throws {
        let folder = try makeTemporaryFolder("cache")
        defer { removeTemporaryFolder(folder) }
        let writer = LocalResultStore(folder: folder.path)
        let key = ResultKey(hex: String(repeating: "a", count: 64))
        writer.put(key, [1, 2, 3])
        writer.finish(nil)
        let packs = try FileManager.default.contentsOfDirectory(atPath: writer.packsFolder)
        XCTAssertEqual(packs.count, 1)
        let path = writer.packsFolder + "/" + packs[0]
        func modified() -> Int {
            var info = stat()
            XCTAssertEqual(stat(path, &info), 0)
            return Int(info.st_mtim.tv_sec)
        }
        func setModified(_ seconds: Int) {
            var times = [timeval(tv_sec: seconds, tv_usec: 0), timeval(tv_sec: seconds, tv_usec: 0)]
            XCTAssertEqual(utimes(path, &times), 0)
        }
        let now = Int(time(nil))
        setModified(now - 3000)
        XCTAssertEqual(LocalResultStore(folder: folder.path).get(key), [1, 2, 3])
        XCTAssertEqual(modified(), now - 3000, "used within the hour: left alone")
        setModified(now - 3700)
        let store = LocalResultStore(folder: folder.path)
        XCTAssertTrue(store.has(key))
        XCTAssertNil(store.get(ResultKey(hex: String(repeating: "b", count: 64))))
        XCTAssertEqual(modified(), now - 3700, "no hit yet")
        XCTAssertEqual(store.get(key), [1, 2, 3])
        XCTAssertGreaterThanOrEqual(modified(), now, "an hour old: moved to now")
    }

    /// A run's entries are one file, written at its end (`finish`); the next run's lookups find
    /// them, a later pack wins for a key stored twice, and a pack that is not whole is refused
    /// with a warning while the others are still read.
    func testARunsEntriesAreOnePack() throws {
        let folder = try makeTemporaryFolder("cache")
        defer { removeTemporaryFolder(folder) }
        let keys = (0..<3).map { ResultKey(hex: String(repeating: "\($0)", count: 64)) }
        let first = LocalResultStore(folder: folder.path, flushNanoseconds: .max)
        first.use(generation: "0123456789abcdef")
        for (n, key) in keys.enumerated() { first.put(key, Array("entry \(n)".utf8)) }
        XCTAssertEqual(first.get(keys[1]), Array("entry 1".utf8), "the run's own, before they are written")
        XCTAssertFalse(FileManager.default.fileExists(atPath: first.packsFolder), "nothing written before the end")
        first.finish(nil)
        func packs() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: first.packsFolder).sorted()
        }
        XCTAssertEqual(try packs().count, 1)
        XCTAssertTrue(try packs()[0].hasPrefix("0123456789abcdef-"))

        let second = LocalResultStore(folder: folder.path)
        second.use(generation: "0123456789abcdef")
        XCTAssertEqual(second.get(keys[0]), Array("entry 0".utf8))
        second.put(keys[0], Array("again".utf8))
        second.finish(nil)
        XCTAssertEqual(second.get(keys[0]), Array("again".utf8), "read again after the end: the later pack wins")
        XCTAssertEqual(try packs().count, 2)
        XCTAssertEqual(second.stats().entries, 4)

        let other = LocalResultStore(folder: folder.path)
        other.use(generation: "fedcba9876543210")
        XCTAssertNil(other.get(keys[0]), "another generation's packs are not read")

        // The second pack cut short: refused with a warning; the first is still read.
        let cut = first.packsFolder + "/" + (try packs()[1])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: cut))
        try bytes.prefix(bytes.count - 3).write(to: URL(fileURLWithPath: cut))
        let third = LocalResultStore(folder: folder.path)
        third.use(generation: "0123456789abcdef")
        XCTAssertEqual(third.get(keys[0]), Array("entry 0".utf8))
        XCTAssertEqual(third.problems.count, 1)
        XCTAssertTrue(third.problems[0].contains("refused: not whole"), "\(third.problems)")
        XCTAssertTrue(third.problems[0].contains(try packs()[1]), "\(third.problems)")
        // The run that refused it writes what it read as one pack, and the refused one goes.
        third.finish(nil)
        XCTAssertEqual(try packs().count, 1)
        let fourth = LocalResultStore(folder: folder.path)
        fourth.use(generation: "0123456789abcdef")
        XCTAssertEqual(fourth.get(keys[0]), Array("entry 0".utf8))
        XCTAssertEqual(fourth.get(keys[2]), Array("entry 2".utf8))
        XCTAssertTrue(fourth.problems.isEmpty, "\(fourth.problems)")

        // The only pack torn: the run that refuses it removes it, and writes no empty pack.
        try Data("layoutsnap entry pack 1\nentry".utf8).write(
            to: URL(fileURLWithPath: first.packsFolder + "/" + (try packs()[0])))
        let fifth = LocalResultStore(folder: folder.path)
        fifth.use(generation: "0123456789abcdef")
        XCTAssertNil(fifth.get(keys[0]))
        fifth.finish(nil)
        XCTAssertEqual(try packs(), [])
    }

    /// What waits is written once it reaches a tenth of the folder's bound (4 MB in the default
    /// folder), so a long run's memory stays flat; the next lookup reads it back.
    func testWhatWaitsIsWrittenAtItsBound() throws {
        let folder = try makeTemporaryFolder("cache")
        defer { removeTemporaryFolder(folder) }
        // Never written for its age here: a loaded machine may stall a second between two stores.
        let store = LocalResultStore(folder: folder.path, maxBytes: 100_000, flushNanoseconds: .max)
        let keys = (0..<3).map { ResultKey(hex: String(repeating: "\($0 + 4)", count: 64)) }
        func packs() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: store.packsFolder))?.count ?? 0 }
        store.put(keys[0], [UInt8](repeating: 1, count: 4000))
        store.put(keys[1], [UInt8](repeating: 2, count: 4000))
        XCTAssertEqual(packs(), 0)
        store.put(keys[2], [UInt8](repeating: 3, count: 4000))
        XCTAssertEqual(packs(), 1, "past 10,000 bytes")
        XCTAssertEqual(store.get(keys[0]), [UInt8](repeating: 1, count: 4000))
        store.finish(nil)
        XCTAssertEqual(packs(), 1, "nothing waited")
    }

    /// A run that read `maxPacks` packs or more writes their entries again as one and removes
    /// them; its own entries go in a pack of their own, which wins.
    func testManyPacksAreCompactedIntoOne() throws {
        let folder = try makeTemporaryFolder("cache")
        defer { removeTemporaryFolder(folder) }
        let keys = (0..<EntryPacks.maxPacks).map {
            ResultKey(hex: String(format: "%02x", $0) + String(repeating: "0", count: 62))
        }
        for (n, key) in keys.enumerated() {
            let store = LocalResultStore(folder: folder.path)
            store.put(key, [UInt8(n)])
            store.put(keys[0], [UInt8(n)])
            store.finish(nil)
        }
        let store = LocalResultStore(folder: folder.path)
        func packs() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: store.packsFolder) }
        XCTAssertEqual(try packs().count, EntryPacks.maxPacks)
        XCTAssertEqual(store.get(keys[0]), [UInt8(EntryPacks.maxPacks - 1)], "the latest pack's")
        store.put(keys[1], [99])
        store.finish(nil)
        XCTAssertEqual(try packs().count, 2, "the compacted pack and the run's own")
        let after = LocalResultStore(folder: folder.path)
        XCTAssertEqual(after.get(keys[1]), [99])
        XCTAssertEqual(after.get(keys[0]), [UInt8(EntryPacks.maxPacks - 1)])
        for (n, key) in keys.enumerated().dropFirst(2) { XCTAssertEqual(after.get(key), [UInt8(n)]) }
        XCTAssertEqual(after.stats().entries, EntryPacks.maxPacks, "keys[1] once, in the run's own pack")
        XCTAssertTrue(after.problems.isEmpty, "\(after.problems)")
    }

    func testLocalStoreEvictsTheLeastRecentlyUsed() throws {
        let folder = try makeTemporaryFolder("cache")
        defer { removeTemporaryFolder(folder) }
        let keys = (0..<6).map { ResultKey(hex: String(format: "%02x", $0) + String(repeating: "0", count: 62)) }
        let packSize = EntryPacks.format.encoded([(keys[0].hex, [UInt8](repeating: 0, count: 3000))]).count
        // 90% of the bound is three and a half packs.
        let maxBytes = packSize * 35 / 9
        for (n, k) in keys.enumerated() {
            // A pack each, each older than the next, 10 s apart.
            let writer = LocalResultStore(folder: folder.path, maxBytes: maxBytes)
            writer.put(k, [UInt8](repeating: UInt8(n), count: 3000))
            writer.finish(nil)
            let new = try FileManager.default.contentsOfDirectory(atPath: writer.packsFolder).sorted().last!
            var times = [
                timeval(tv_sec: 1_000_000 + n * 10, tv_usec: 0), timeval(tv_sec: 1_000_000 + n * 10, tv_usec: 0),
            ]
            XCTAssertEqual(utimes(writer.packsFolder + "/" + new, &times), 0)
        }
        let store = LocalResultStore(folder: folder.path, maxBytes: maxBytes)
        XCTAssertEqual(store.stats().entries, 6)
        XCTAssertEqual(store.stats().bytes, 6 * packSize)
        // Reading the oldest makes it the most recently used.
        XCTAssertEqual(store.get(keys[0]), [UInt8](repeating: 0, count: 3000))
        XCTAssertEqual(store.evict(), 3)
        let after = LocalResultStore(folder: folder.path, maxBytes: maxBytes)
        XCTAssertNotNil(after.get(keys[0]))
        XCTAssertNil(after.get(keys[1]))
        XCTAssertNil(after.get(keys[2]))
        XCTAssertNil(after.get(keys[3]))
        XCTAssertNotNil(after.get(keys[4]))
        XCTAssertNotNil(after.get(keys[5]))
        XCTAssertEqual(after.stats().bytes, 3 * packSize)
        // The hash memos beside the entries go with them.
        for memo in ["fonts", "goldens", "libraries"] {
            try Data("memo".utf8).write(to: folder.appendingPathComponent(memo))
        }
        // And the remembered keys, which count towards the bound.
        let before = after.stats().bytes
        let memos = MemoPacks(folder: after.memosFolder, generation: "0123456789abcdef")
        let key = keys[0]
        memos.remember(Array("a record".utf8), for: key)
        XCTAssertNil(memos.finish())
        XCTAssertEqual(after.stats().bytes, before + MemoPacks.encoded([(key.hex, Array("a record".utf8))]).count)
        XCTAssertEqual(after.clear(), 3)
        XCTAssertEqual(after.stats().entries, 0)
        XCTAssertEqual(after.stats().bytes, 0)
        for memo in ["fonts", "goldens", "libraries", "memos", "packs"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent(memo).path), memo)
        }
        XCTAssertTrue(after.problems.isEmpty, "\(after.problems)")
    }

    func testBuildIDIsTheLinkersNote() throws {
        let current = try XCTUnwrap(BuildID.current)
        XCTAssertTrue(current.hasPrefix("gnu-") || current.hasPrefix("xxh3-"), current)
        // The test bundle's own note, as readelf shows it.
        let head = try SystemCallTestHelper.head("/proc/self/exe")
        if let id = BuildID.gnuBuildID(head) {
            XCTAssertEqual(id.count, "gnu-".count + 40)
        }
        XCTAssertNil(BuildID.gnuBuildID(Array("#!/bin/sh\n".utf8)))
    }

    func testRemoteURLs() {
        func parse(_ url: String) -> String {
            switch HTTPClient.Endpoint.parse(url) {
            case .success(let e): "\(e.host) \(e.port) \(e.path)"
            case .failure(let error): error.message
            }
        }
        XCTAssertEqual(parse("http://127.0.0.1:9090"), "127.0.0.1 9090 ")
        XCTAssertEqual(parse("http://cache.example/team/"), "cache.example 80 /team")
        XCTAssertEqual(parse("http://[::1]:8080/x"), "::1 8080 /x")
        XCTAssertTrue(parse("https://cache.example").contains("https is not supported"))
        XCTAssertTrue(parse("grpc://cache.example").contains("grpc is not supported"))
        XCTAssertTrue(parse("http://user:pw@cache.example").contains("--remote-cache-header"))
        XCTAssertTrue(parse("http://cache.example:0").contains("port"))
    }
}

enum SystemCallTestHelper {
    static func head(_ path: String) throws -> [UInt8] {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        return [UInt8](try handle.read(upToCount: 1 << 16) ?? Data())
    }
}
