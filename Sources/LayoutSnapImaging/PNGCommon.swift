import CZlib

/// Constants and small helpers shared by the encoder and the decoder. (The chunk types are
/// `package` for the APNG reader in Tests/LayoutSnapTestSupport.)
package enum PNG {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    // Chunk types as big-endian UInt32s, so the decoder compares one integer per chunk.
    package static let IHDR: UInt32 = 0x4948_4452
    static let PLTE: UInt32 = 0x504C_5445
    package static let IDAT: UInt32 = 0x4944_4154
    package static let IEND: UInt32 = 0x4945_4E44
    static let tRNS: UInt32 = 0x7452_4E53
    // APNG: animation control, frame control, frame data.
    package static let acTL: UInt32 = 0x6163_544C
    package static let fcTL: UInt32 = 0x6663_544C
    package static let fdAT: UInt32 = 0x6664_4154

    /// The largest chunk length the PNG spec allows (2^31 - 1); also the largest width/height.
    static let maxChunkLength = 0x7FFF_FFFF

    /// zlib's CRC-32 (the PNG CRC) of `bytes`, continuing from `crc`. (`crc32_z` takes a
    /// size_t length, so no 4 GiB split is needed; it returns 0 for a NULL buffer, hence the
    /// empty-input guard.)
    static func crc(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return crc }
        return UInt32(truncatingIfNeeded: crc32_z(UInt(crc), base.assumingMemoryBound(to: UInt8.self), bytes.count))
    }

    @inline(__always)
    static func readBE32(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16
            | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    static func bigEndianBytes(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// Appends one chunk to `out`: length, type, data, and the CRC of type + data.
    static func appendChunk(_ type: UInt32, _ data: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        out += bigEndianBytes(UInt32(data.count))
        let typeBytes = bigEndianBytes(type)
        out += typeBytes
        out.append(contentsOf: data)
        out += bigEndianBytes(typeBytes.withUnsafeBytes { crc(data, continuing: crc($0)) })
    }

    static func appendChunk(_ type: UInt32, _ data: [UInt8], to out: inout [UInt8]) {
        data.withUnsafeBytes { appendChunk(type, $0, to: &out) }
    }

    /// A chunk type for messages: the four letters if they are letters, else escaped bytes.
    static func chunkName(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> String {
        sanitize(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + 4)]), quoted: false)
    }

    /// Printable ASCII as is (backslash and quote escaped), other bytes as `\xNN`.
    static func sanitize(_ bytes: UnsafeRawBufferPointer, quoted: Bool) -> String {
        var out = quoted ? "\"" : ""
        let hex = Array("0123456789abcdef")
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\\"): out += "\\\\"
            case UInt8(ascii: "\""): out += "\\\""
            case 0x20...0x7E: out.append(Character(Unicode.Scalar(byte)))
            default:
                out += "\\x"
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            }
        }
        return quoted ? out + "\"" : out
    }

    static func isLetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}
