import Foundation
import LayoutSnapImaging
import LayoutSnapTestSupport
import XCTest

/// Goldens damaged in every way docs/guarantees.md "Fuzzing" lists, through `verify` as CI runs it: each is reported as
/// an unreadable golden with its reason, the rest of the batch is still compared, nothing crashes,
/// and verify changes no golden.
final class HostileGoldenTests: XCTestCase {
    /// A post whose expand animation has many frames, so one verify run checks many variants.
    static let fixture = """
        {"kind": "post", "width": 200, "height": 160, "scale": 1, "availableWidth": 160, "title": "Hostile",
         "summary": "A summary", "body": "Body text", "author": "Ann", "fps": 120, "steps": [{"expand": true}]}
        """

    func testDamagedGoldensAreUnreadableWithTheirReason() throws {
        let dir = try TempDir()
        try dir.write("Fixtures/cards/hostile.json", Self.fixture)
        XCTAssertEqual(try CLI.run(["record", "--no-progress", "--allow-ci"], in: dir.url).status, 0)
        let frames = dir.path("Goldens/cards/hostile/01-expand")
        let names = try FileManager.default.contentsOfDirectory(atPath: frames.path).filter { $0.hasSuffix(".png") }
            .sorted()
        let good = [UInt8](try Data(contentsOf: frames.appendingPathComponent(names[0])))

        // (damaged bytes, what the report must say). Truncations sweep the signature, the IHDR,
        // the IDAT and the IEND.
        var variants: [([UInt8], String)] = [
            ([], "empty file (0 bytes)"),
            (Array("version https://git-lfs.github.com/spec/v1\noid sha256:4d7a\nsize 1234\n".utf8), "Git LFS pointer"),
            ([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0, count: 40), "looks like a JPEG"),
            (Array("<html><body>502 Bad Gateway</body></html>".utf8), "looks like HTML"),
            (Self.withCRCBroken(good, chunk: "IHDR"), "bad CRC in chunk IHDR"),
            (Self.withCRCBroken(good, chunk: "IDAT"), "bad CRC in chunk IDAT"),
            (Self.claiming(width: 100_000, height: 100_000, png: good), "more than the limit"),
            (Self.bomb(), "decompression bomb"),
        ]
        for offset in [
            1, 7, 8, 12, 16, 20, 29, 33, 37, 41, good.count / 2, good.count - 13, good.count - 12, good.count - 1,
        ] {
            variants.append((Array(good.prefix(offset)), ""))
        }
        XCTAssertLessThanOrEqual(variants.count, names.count, "one frame for each variant")
        var before: [String: Data] = [:]
        for (i, variant) in variants.enumerated() {
            let url = frames.appendingPathComponent(names[i])
            try Data(variant.0).write(to: url)
            before[names[i]] = Data(variant.0)
        }

        let r = try CLI.run(["verify", "--no-progress"], in: dir.url)
        XCTAssertEqual(r.status, 2, r.output)
        for (i, variant) in variants.enumerated() {
            let line = r.stderr.split(separator: "\n").first {
                $0.contains("unreadable golden cards/hostile/01-expand/\(names[i])")
            }
            XCTAssertNotNil(line, "variant \(i) (\(variant.1)) is reported\n\(r.stderr)")
            if let line, !variant.1.isEmpty { XCTAssertTrue(line.contains(variant.1), "variant \(i): \(line)") }
        }
        // The frames after the damaged ones, and the initial state, were still compared.
        XCTAssertTrue(r.stdout.contains("passed"), r.stdout)
        // verify never writes a golden.
        for (name, data) in before {
            XCTAssertEqual(try Data(contentsOf: frames.appendingPathComponent(name)), data, name)
        }
    }

    // MARK: Damage

    static func withCRCBroken(_ png: [UInt8], chunk: String) -> [UInt8] {
        var out = png
        let c = PNGChunks.list(png).first { $0.type == chunk }!
        out[c.crcStart] ^= 0xFF
        return out
    }

    /// The IHDR rewritten to claim another size, with a correct CRC: only the size is wrong.
    static func claiming(width: UInt32, height: UInt32, png: [UInt8]) -> [UInt8] {
        var out = png
        let c = PNGChunks.list(png).first { $0.type == "IHDR" }!
        out.replaceSubrange(c.dataStart..<(c.dataStart + 8), with: PNGChunks.be32(width) + PNGChunks.be32(height))
        PNGChunks.fixCRC(&out, c)
        return out
    }

    /// A 4096 x 4096 blank image (64 MB of scanlines, a few KB of zlib) whose header claims 2 x 2.
    static func bomb() -> [UInt8] {
        let pixels = [UInt32](repeating: 0, count: 4096 * 4096)
        let png = pixels.withUnsafeBufferPointer {
            PNGEncoder.encode(pixels: $0.baseAddress!, width: 4096, height: 4096, stride: 4096)
        }
        return claiming(width: 2, height: 2, png: png)
    }
}
