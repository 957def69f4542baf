import CZlib
import Foundation
import LayoutSnapImaging

/// PNG files taken apart and put together chunk by chunk, straight from the PNG spec and sharing
/// no code with the library's encoder and decoder (zlib's CRC only): for tests that write PNGs of
/// their own, and for tests that damage, forge or repair a chunk.
public enum PNGChunks {
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// One chunk of a file: its type and where its length field (`start`) and data begin.
    public struct Chunk {
        public var type: String
        public var start: Int
        public var length: Int
        public var dataStart: Int { start + 8 }
        /// Where the CRC, over the type and data, is stored.
        public var crcStart: Int { start + 8 + length }
    }

    public static func be32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    public static func be32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }

    /// The PNG CRC (CRC-32) of `bytes`.
    public static func crc<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt32 {
        Array(bytes).withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, UInt32($0.count))) }
    }

    /// A whole chunk: length, type, data and CRC.
    public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeAndData = Array(type.utf8) + data
        return be32(UInt32(data.count)) + typeAndData + be32(crc(typeAndData))
    }

    /// The chunks of a file whose lengths can be trusted (a test's own or the library's output);
    /// CRCs are not checked.
    public static func list(_ png: [UInt8]) -> [Chunk] {
        var result: [Chunk] = []
        var at = 8
        while at + 12 <= png.count {
            let length = Int(be32(png, at))
            result.append(
                Chunk(type: String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self), start: at, length: length))
            at += 12 + length
        }
        return result
    }

    /// Writes the right CRC for `chunk` after its type or data were changed in place.
    public static func fixCRC(_ png: inout [UInt8], _ chunk: Chunk) {
        png.replaceSubrange(
            chunk.crcStart..<(chunk.crcStart + 4), with: be32(crc(png[(chunk.start + 4)..<chunk.crcStart])))
    }
}
