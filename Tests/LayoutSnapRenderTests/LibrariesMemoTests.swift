import Foundation
import LayoutSnapSystem
import LayoutSnapTestSupport
import XCTest

@testable import LayoutSnapRender

/// The libraries' versions remembered in the cache folder (`LibrariesMemo`): used only while
/// everything the dynamic loader's choice depends on reads the same, otherwise worked out again.
final class LibrariesMemoTests: XCTestCase {
    func testTheMemoIsWrittenThenUsedWhileItsInputsHold() throws {
        let folder = try makeTemporaryFolder("libraries")
        defer { removeTemporaryFolder(folder) }
        let path = folder.appendingPathComponent("libraries").path
        try RenderLibraries.load()
        let loaded = RenderLibraries.versions()
        XCTAssertEqual(Set(loaded.keys), ["cairo", "pixman", "pango", "harfbuzz", "freetype", "fontconfig"])

        // No memo: the loaded libraries answer, and the memo is written.
        XCTAssertEqual(try LibrariesMemo.versions(memo: path, build: "build-1"), loaded)
        let written = try XCTUnwrap(LibrariesMemo.parse([UInt8](Data(contentsOf: URL(fileURLWithPath: path)))))
        XCTAssertEqual(written.versions, loaded)
        XCTAssertEqual(written.files.count, 10)
        XCTAssertTrue(written.files.contains { $0.hasSuffix("/libcairo.so.2") }, "\(written.files)")

        // The memo is what answers while its inputs hold: an edited version is taken as written.
        var edited = written
        edited.versions["cairo"] = "0.0.1"
        try Data(edited.encoded()).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(try LibrariesMemo.versions(memo: path, build: "build-1")["cairo"], "0.0.1")

        // Another build, or an input that reads otherwise: loaded again, and written again.
        XCTAssertEqual(try LibrariesMemo.versions(memo: path, build: "build-2"), loaded)
        try Data(edited.encoded()).write(to: URL(fileURLWithPath: path))
        var moved = edited
        moved.inputs[moved.inputs.count - 1] += " "
        try Data(moved.encoded()).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(try LibrariesMemo.versions(memo: path, build: "build-1"), loaded)
        XCTAssertEqual(
            LibrariesMemo.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))?.versions, loaded)

        // A torn memo is no memo.
        let bytes = written.encoded()
        for cut in [0, 10, bytes.count / 2, bytes.count - 1] {
            XCTAssertNil(LibrariesMemo.parse(Array(bytes[..<cut])), "\(cut) of \(bytes.count) bytes")
        }
        XCTAssertEqual(LibrariesMemo.parse(bytes), written)
    }

    /// Each thing the loader's choice depends on is in the inputs: the build, the executable's
    /// folder, the loader's variables, a file added to a folder it searches or to a subfolder it
    /// probes there, and a library file written over.
    func testTheInputsSeeWhatTheLoaderSees() throws {
        let folder = try makeTemporaryFolder("loader")
        defer { removeTemporaryFolder(folder) }
        let search = folder.appendingPathComponent("lib")
        try FileManager.default.createDirectory(at: search, withIntermediateDirectories: true)
        let library = search.appendingPathComponent("libexample.so.1")
        try Data("one".utf8).write(to: library)
        func inputs(
            build: String = "b", environment: [String: String] = ["LD_LIBRARY_PATH": search.path],
            executableFolder: String = "/opt/layoutsnap/bin"
        ) -> [String] {
            LibrariesMemo.inputs(
                build: build, files: [library.path], environment: environment, executableFolder: executableFolder,
                searched: [search.path, executableFolder])
        }
        let before = inputs()
        XCTAssertEqual(inputs(), before, "the same world reads the same")
        XCTAssertNotEqual(inputs(build: "c"), before)
        XCTAssertNotEqual(inputs(executableFolder: "/usr/bin"), before)
        XCTAssertNotEqual(inputs(environment: [:]), before)
        XCTAssertNotEqual(inputs(environment: ["LD_LIBRARY_PATH": search.path, "LD_PRELOAD": "/x.so"]), before)
        XCTAssertNotEqual(inputs(environment: ["LD_LIBRARY_PATH": search.path, "GLIBC_TUNABLES": "a=1"]), before)

        XCTAssertNotEqual(
            LibrariesMemo.inputs(
                build: "b", files: [library.path], environment: ["LD_LIBRARY_PATH": search.path],
                executableFolder: "/opt/layoutsnap/bin", searched: ["/opt/layoutsnap/bin", search.path]),
            before, "the loader's folders, in its order")
        // The loader's own list: the system's folders, and the executable's run path expanded.
        let searched = try XCTUnwrap(LibrariesMemo.searchPath())
        XCTAssertTrue(searched.contains { $0.hasPrefix("/lib") || $0.hasPrefix("/usr/lib") }, "\(searched)")
        XCTAssertFalse(searched.contains { $0.contains("$ORIGIN") }, "\(searched)")

        // A file added where the loader looks first (its folder's times change).
        Thread.sleep(forTimeInterval: 0.01)
        try Data().write(to: search.appendingPathComponent("libcairo.so.2"))
        let added = inputs()
        XCTAssertNotEqual(added, before)
        // A subfolder it probes appears.
        try FileManager.default.createDirectory(
            at: search.appendingPathComponent("glibc-hwcaps/x86-64-v3"), withIntermediateDirectories: true)
        let probed = inputs()
        XCTAssertNotEqual(probed, added)
        // The library file written over in place, its size kept (only its own times tell).
        let handle = try FileHandle(forWritingTo: library)
        try handle.write(contentsOf: Data("two".utf8))
        try handle.close()
        XCTAssertNotEqual(inputs(), probed)
    }
    /// The inodes of /proc/self/maps read over its bytes: anonymous mappings (inode 0), short or
    /// broken lines, numbers up to UInt64.max and paths with spaces are as the fields say, and
    /// the real file names the running executable.
    func testTheMappedInodesAreReadFromTheMapsFields() throws {
        let maps = """
            55f28195f000-55f281e60000 r--p 00000000 fe:00 333151                     /usr/bin/layout snap
            7f1d58f72000-7f1d58f74000 rw-p 00000000 00:00 0
            7f1d58f74000-7f1d58f75000 r-xp 00001000 fe:00 12x45                      /broken
            7f1d58f75000-7f1d58f76000 r--p 00000000 fe:00 18446744073709551615       /overlay/high
            7f1d58f75000-7f1d58f76000 r--p 00000000 fe:00 18446744073709551616       /too/large
            short line
            ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]
            7f1d58f76000-7f1d58f77000 r--p 00000000 fe:00 42                         /lib/x.so
            """
        XCTAssertEqual(LibrariesMemo.inodes(inMaps: Array(maps.utf8)), [333151, 42, UInt64.max])
        let own = LibrariesMemo.mappedInodes()
        let executable = try XCTUnwrap(SystemCall.status("/proc/self/exe")).st_ino
        XCTAssertTrue(own.contains(UInt64(executable)), "the running executable is mapped")
    }
}
