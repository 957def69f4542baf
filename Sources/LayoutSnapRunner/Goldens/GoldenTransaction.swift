import Foundation
import LayoutSnapSystem
import LayoutSnapCore
import LayoutSnapImaging

/// How `record` and `accept` change goldens so that a kill at any moment (SIGKILL, power loss)
/// leaves every golden either its complete old or its complete new file, and `manifest.json`
/// describing whichever is there.
///
/// 1. **Stage**: each new golden is written beside its place as `.<name>.pending` (temporary
///    file, fsync, rename: a pending file is always complete). Nothing visible has changed.
/// 2. **Announce**: the manifest is rewritten with the new entries, each carrying the entry it
///    replaces as `previous` (or `"previous": null` for a golden that did not exist). A file is
///    now described whether it is old or new.
/// 3. **Swap**: each pending file is renamed over its golden (one atomic rename each).
/// 4. **Settle**: the manifest is rewritten with the new entries alone.
///
/// A kill before 2 leaves old goldens, the old manifest and stray pending files (removed by the
/// next record); between 2 and 4, a mix of old and new goldens that the announced manifest
/// describes (verify checks a file against the entry or its `previous`); after 4, the new state.
/// A full disk fails in step 1, before any golden is touched.
public enum GoldenTransaction {
    public static let pendingSuffix = ".pending"
    /// The pixel hash announced for a replaced golden that could not be decoded.
    public static let unreadablePixels = "unreadable"

    /// `posts/x/01-expand/.007.png.pending` for `posts/x/01-expand/007.png`.
    public static func pendingPath(_ path: String) -> String {
        let dir = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        return (dir.isEmpty ? "" : dir + "/") + "." + name + pendingSuffix
    }

    /// Step 1 for one golden. Never through a folder that leads out of `goldens` (a link to a
    /// folder elsewhere): the staged file and then the golden would be written there.
    public static func stage(_ bytes: [UInt8], goldenPath: String, goldens: String) throws(RunnerError) {
        let folder = (goldenPath as NSString).deletingLastPathComponent
        if let outside = GoldenStore.outsideTarget(folder, goldens: goldens) {
            throw RunnerError.write(
                "cannot write \(goldenPath): its folder \(folder) leads out of \(goldens)/ (to \(outside)); make it a folder of its own, then record again"
            )
        }
        try AtomicFile.write(bytes, to: pendingPath(goldenPath))
    }

    /// The XXH3-64 of the file's bytes, as manifest.json's `file` and results.json's
    /// `goldenHash` give it; nil when there is no file to read.
    public static func fileHash(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { data in
            data.withUnsafeBytes { PixelHash.hex(PixelHash.ofBytes($0)) }
        }
    }

    /// What the golden at `path` is now, for the manifest to announce as `previous` (accept;
    /// record's handler derives it from the file it has already read): the
    /// manifest's entry whose file hash matches the file (after a killed record that may be the
    /// manifest's own `previous`), else the file's own hashes, else `.absent`. A file that cannot
    /// be decoded is described by its file hash alone (pixels "unreadable").
    public static func describe(_ path: String, key: String, manifest: GoldenManifest?) -> GoldenManifest.Previous {
        guard let data = FileManager.default.contents(atPath: path) else { return .absent }
        let fileHash = data.withUnsafeBytes { PixelHash.hex(PixelHash.ofBytes($0)) }
        if let entry = manifest?.entry(key, fileHash: fileHash) { return .entry(entry) }
        guard let image = try? PNGDecoder.decode([UInt8](data), maxPixels: Limits.maxGoldenPixels) else {
            return .entry(GoldenManifest.Entry(pixels: unreadablePixels, file: fileHash, width: 0, height: 0))
        }
        return .entry(
            GoldenManifest.Entry(pixels: image.hashHex, file: fileHash, width: image.width, height: image.height))
    }

    /// Steps 2 to 4 for the staged goldens: `staged` maps each key (path below `goldens`) to what
    /// its golden was when it was staged (`describe`). `layouts` are staged `layout.json` keys,
    /// swapped in step 3 with the frames (the manifest does not describe them). `before` is the
    /// manifest as it stood; `after` the manifest to end with.
    public static func commit(
        staged: [String: GoldenManifest.Previous], layouts: [String] = [], goldens: String,
        before: GoldenManifest?, after: GoldenManifest
    ) throws(RunnerError) {
        let manifestPath = GoldenStore(goldens).manifestPath
        let keys = staged.keys.sorted()
        // Layouts first: no manifest entry describes them, so before or after the announcement
        // is the same, and a record that changed only layouts has nothing else to swap.
        for key in layouts.sorted() {
            let path = GoldenStore(goldens).path(key)
            do throws(SystemError) {
                try Posix.rename(pendingPath(path), path)
            } catch {
                throw RunnerError.write("cannot move the new \(path) into place: \(error.reason); record again")
            }
        }
        guard !keys.isEmpty else {
            if after != before { try AtomicFile.write(after.encoded(), to: manifestPath) }
            return
        }
        var announced = after
        for (key, previous) in staged { announced.previous[key] = previous }
        try AtomicFile.write(announced.encoded(), to: manifestPath)
        var folders = Set<String>()
        // Fault injection for the crash-safety test: a pause before each swap widens the window
        // in which a kill leaves a mix of old and new goldens. Never set in normal use.
        let pause = ProcessInfo.processInfo.environment["LAYOUTSNAP_FAULT_SWAP_DELAY_MS"].flatMap { useconds_t($0) }.map
        { $0 * 1000 }
        for key in keys {
            if let pause { usleep(pause) }
            let path = GoldenStore(goldens).path(key)
            do throws(SystemError) {
                try Posix.rename(pendingPath(path), path)
            } catch {
                throw RunnerError.write(
                    "cannot move the new golden into \(path): \(error.reason); the manifest describes the old and the new file, so nothing is lost: record again"
                )
            }
            folders.insert((path as NSString).deletingLastPathComponent)
        }
        for folder in folders {
            SystemCall.syncFolder(folder)
        }
        var settled = after
        for key in keys { settled.previous.removeValue(forKey: key) }
        try AtomicFile.write(settled.encoded(), to: manifestPath)
    }

    /// Removes pending and temporary files a killed record left (they never replaced anything, or the manifest
    /// still describes the golden they were meant to replace). Returns how many.
    @discardableResult
    public static func removeStale(goldens: String) -> Int {
        guard let enumerator = FileManager.default.enumerator(atPath: goldens) else { return 0 }
        var removed = 0
        while let item = enumerator.nextObject() as? String {
            let name = (item as NSString).lastPathComponent
            let stale = name.hasPrefix(".") && name.hasSuffix(pendingSuffix) || AtomicWriter.isTemporaryFile(name)
            if stale, (try? Posix.unlink(GoldenStore(goldens).path(item))) != nil { removed += 1 }
        }
        return removed
    }
}
