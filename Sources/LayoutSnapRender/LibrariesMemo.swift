import CRenderLibraries
import Foundation
import LayoutSnapSystem

/// The libraries' versions remembered in the result cache's folder (`<cache>/libraries`), so that
/// a warm verify, which draws nothing, does not load some forty shared objects only to ask them
/// their versions: that loading was a third of its CPU time and kept the second core busy.
///
/// The versions are a function of the files the dynamic loader takes. The memo records those
/// files and everything the loader's choice depends on, and is used only while all of it reads
/// the same:
/// - the executable's build and folder, and the environment variables the loader reads
///   (`LD_LIBRARY_PATH`, `LD_PRELOAD`, `LD_AUDIT`, `GLIBC_TUNABLES`);
/// - each folder it searches, as the loader itself lists them (`dlinfo`: the library path, the
///   run path with `$ORIGIN` expanded, the system's), with the subfolders it probes there, by
///   `stat` (a file added or removed changes a folder's times);
/// - `/etc/ld.so.cache` and `/etc/ld.so.preload`;
/// - each library file, by `stat` and `lstat` (an upgrade replaces the file and its link), and
///   its folder.
/// Anything else (no memo, a torn one, one line different) loads the libraries and writes the
/// memo again, unless a library file is not the one mapped (replaced while it loaded). Text, one
/// record:
///
///     layoutsnap libraries memo 1
///     in <bytes>:<an input line>          (each input)
///     file <bytes>:<path>                 (each library file, in load order)
///     version <bytes>:<name>=<version>    (each library)
///     end
public enum LibrariesMemo {
    static let header = "layoutsnap libraries memo 1\n"

    /// The folders below a search folder that the loader probes first (glibc 2.36, x86-64 and
    /// arm64).
    static let probed = [
        "", "/glibc-hwcaps", "/glibc-hwcaps/x86-64-v4", "/glibc-hwcaps/x86-64-v3", "/glibc-hwcaps/x86-64-v2", "/tls",
        "/tls/x86_64", "/tls/x86_64/x86_64", "/x86_64", "/x86_64/x86_64", "/tls/aarch64", "/aarch64",
    ]

    /// The versions, from the memo at `path` when it still holds, else from the loaded libraries
    /// (and the memo written again). `build` names the executable (its build id).
    public static func versions(memo path: String?, build: String) throws(RenderError) -> [String: String] {
        if let path, let bytes = FileManager.default.contents(atPath: path), let record = parse([UInt8](bytes)),
            record.inputs == inputs(build: build, files: record.files)
        {
            return record.versions
        }
        try RenderLibraries.load()
        let versions = RenderLibraries.versions()
        if let path {
            let files = (0..<layoutsnap_render_library_count()).compactMap { i in
                layoutsnap_render_library_file(Int32(i)).map { String(cString: $0) }
            }
            // A loader that cannot name every file gives no memo, nor does a file that is not the
            // one mapped (replaced as it loaded): the next run loads again.
            let mapped = mappedInodes()
            if files.count == Int(layoutsnap_render_library_count()),
                files.allSatisfy({ file in SystemCall.status(file).map { mapped.contains(UInt64($0.st_ino)) } ?? false }
                )
            {
                let record = Record(inputs: inputs(build: build, files: files), files: files, versions: versions)
                try? AtomicWriter.write(record.encoded(), to: path, durable: false)
            }
        }
        return versions
    }

    /// The variables that change which files the loader picks.
    static let loaderVariables = ["LD_LIBRARY_PATH", "LD_PRELOAD", "LD_AUDIT", "GLIBC_TUNABLES"]

    /// What the loader's choice of `files` depends on, one line each, as this process sees it.
    static func inputs(
        build: String, files: [String], environment: [String: String] = ProcessEnvironment.values(loaderVariables),
        executableFolder: String? = executableFolder(), searched: [String]? = searchPath()
    ) -> [String] {
        var lines = ["build \(build)", "executable folder \(executableFolder ?? "unknown")"]
        for name in loaderVariables {
            lines.append("env \(name)" + (environment[name].map { "=" + $0 } ?? " unset"))
        }
        // A loader that cannot list its folders: the executable's own is the one commonly searched
        // before the system's; the inputs say which list they stand on.
        lines.append(searched == nil ? "search path unknown" : "search path from the loader")
        for folder in searched ?? (executableFolder.map { [$0] } ?? []) {
            for below in probed { lines.append("folder \(folder + below) \(signature(folder + below))") }
        }
        for file in ["/etc/ld.so.cache", "/etc/ld.so.preload"] { lines.append("system \(file) \(signature(file))") }
        for file in files {
            let folder = (file as NSString).deletingLastPathComponent
            lines.append("library \(file) \(signature(file)) link \(signature(file, followsLinks: false))")
            lines.append("library folder \(folder) \(signature(folder))")
        }
        return lines
    }

    /// The folders the loader searches, in its order, as it expands them; nil when it cannot say.
    static func searchPath() -> [String]? {
        let needed = layoutsnap_render_search_path(nil, 0)
        guard needed >= 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(needed))
        guard layoutsnap_render_search_path(&buffer, buffer.count) == needed else { return nil }
        return buffer.split(separator: 0, omittingEmptySubsequences: false).dropLast().map {
            String(decoding: $0.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// The inodes of the files mapped into this process (`/proc/self/maps`, which names them by
    /// their real paths, not the links the loader followed).
    static func mappedInodes() -> Set<UInt64> {
        // Read to its end: the file has no size, and a read of one "whole" file stops at a page.
        guard let data = FileHandle(forReadingAtPath: "/proc/self/maps")?.readDataToEndOfFile() else { return [] }
        return inodes(inMaps: [UInt8](data))
    }

    /// The inodes `maps` (the text of a /proc/PID/maps) names, over its bytes: split as a
    /// String by Characters, a grapheme break at a time, this was a quarter of a first run's
    /// start-up.
    static func inodes(inMaps maps: [UInt8]) -> Set<UInt64> {
        var inodes: Set<UInt64> = []
        for line in maps.split(separator: UInt8(ascii: "\n")) {
            // address perms offset dev inode path
            let fields = line.split(separator: UInt8(ascii: " "), maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count == 6, !fields[4].isEmpty else { continue }
            // Up to UInt64.max, as UInt64(String) reads it (overlayfs numbers inodes that high).
            var inode: UInt64? = 0
            for byte in fields[4] {
                guard let value = inode, (0x30...0x39).contains(byte) else {
                    inode = nil
                    break
                }
                let (times10, over) = value.multipliedReportingOverflow(by: 10)
                let (sum, carry) = times10.addingReportingOverflow(UInt64(byte - 0x30))
                inode = over || carry ? nil : sum
            }
            if let inode, inode != 0 { inodes.insert(inode) }
        }
        return inodes
    }

    static func executableFolder() -> String? {
        guard let path = try? SystemCall.resolvedPath("/proc/self/exe") else { return nil }
        return (path as NSString).deletingLastPathComponent
    }

    /// Device, inode, size and both times to the nanosecond; `absent` for no such file.
    static func signature(_ path: String, followsLinks: Bool = true) -> String {
        guard let info = SystemCall.status(path, followsLinks: followsLinks) else { return "absent" }
        return
            "\(info.st_dev) \(info.st_ino) \(info.st_mode) \(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec) \(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec)"
    }

    struct Record: Equatable {
        var inputs: [String]
        var files: [String]
        var versions: [String: String]

        func encoded() -> [UInt8] {
            var out = Array(LibrariesMemo.header.utf8)
            func line(_ tag: String, _ text: String) {
                out += Array("\(tag) \(text.utf8.count):".utf8) + Array(text.utf8)
                out.append(0x0A)
            }
            for input in inputs { line("in", input) }
            for file in files { line("file", file) }
            for (name, version) in versions.sorted(by: { $0.key < $1.key }) { line("version", "\(name)=\(version)") }
            return out + Array("end\n".utf8)
        }
    }

    /// nil for anything that is not a whole record.
    static func parse(_ bytes: [UInt8]) -> Record? {
        let header = Array(Self.header.utf8)
        guard bytes.starts(with: header) else { return nil }
        var at = header.count
        var record = Record(inputs: [], files: [], versions: [:])
        while true {
            guard let space = bytes[at...].firstIndex(of: 0x20) else {
                return bytes[at...].elementsEqual(Array("end\n".utf8)) ? record : nil
            }
            let tag = String(decoding: bytes[at..<space], as: UTF8.self)
            var count = 0
            var i = space + 1
            while i < bytes.count, (0x30...0x39).contains(bytes[i]), i - space <= 9 {
                count = count * 10 + Int(bytes[i] - 0x30)
                i += 1
            }
            guard i > space + 1, i < bytes.count, bytes[i] == UInt8(ascii: ":"), bytes.count - (i + 1) >= count + 1,
                bytes[i + 1 + count] == 0x0A
            else { return nil }
            let text = String(decoding: bytes[(i + 1)..<(i + 1 + count)], as: UTF8.self)
            switch tag {
            case "in": record.inputs.append(text)
            case "file": record.files.append(text)
            case "version":
                guard let equals = text.firstIndex(of: "=") else { return nil }
                record.versions[String(text[..<equals])] = String(text[text.index(after: equals)...])
            default: return nil
            }
            at = i + 2 + count
        }
    }
}
