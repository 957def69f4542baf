import CXXH3
import CXXHash

/// Content hashes for frames and files: XXH3-64 with seed 0 (libxxhash, or the same function
/// computed with AVX2 where the CPU has it: `CXXH3`).
///
/// **What the pixel hash covers:** the tightly packed, *premultiplied* ARGB32 words
/// (`0xAARRGGBB`, Cairo's `CAIRO_FORMAT_ARGB32`) exactly as they lie in memory, i.e. in the
/// machine's native byte order (bytes B, G, R, A on little-endian x86-64/arm64). Row padding
/// is not included: hash a `PixelImage` (stride = width), not a raw Cairo buffer with a wider
/// stride. Consequences worth knowing:
/// - the hash of a frame is not the hash of its PNG file (use `ofBytes` for files);
/// - two PNGs that decode to the same premultiplied pixels hash the same, whatever their
///   colour type, bit depth, filters or compression;
/// - fully transparent pixels are all `0x00000000` after premultiplication, so their
///   "hidden" colour never affects the hash;
/// - the value would differ on a big-endian machine.
public enum PixelHash {
    /// XXH3-64 (seed 0) of `pixels`' bytes in native byte order.
    public static func of(_ pixels: UnsafeBufferPointer<UInt32>) -> UInt64 {
        ofBytes(UnsafeRawBufferPointer(pixels))
    }

    /// XXH3-64 (seed 0) of arbitrary bytes, e.g. a whole PNG file.
    public static func ofBytes(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        ofBytes(bytes, vectors: avx2)
    }

    /// With `vectors`, AVX2 (only where `avx2` is true); else libxxhash. The same value either way.
    static func ofBytes(_ bytes: UnsafeRawBufferPointer, vectors: Bool) -> UInt64 {
        // XXH3 accepts (NULL, 0); an empty Swift buffer may have a nil base address.
        vectors
            ? layoutsnap_xxh3_avx2(bytes.baseAddress, bytes.count) : UInt64(XXH3_64bits(bytes.baseAddress, bytes.count))
    }

    /// Whether this CPU runs AVX2.
    static let avx2 = layoutsnap_xxh3_avx2_available() != 0

    /// 16 lowercase hex digits, zero-padded (`0000000000000001`), stable for file names/JSON.
    public static func hex(_ hash: UInt64) -> String {
        // Written straight into the string's storage: every golden a warm run checks has one.
        String(unsafeUninitializedCapacity: 16) { out in
            var value = hash
            for i in stride(from: 15, through: 0, by: -1) {
                let nibble = UInt8(value & 0xF)
                out[i] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
                value >>= 4
            }
            return 16
        }
    }
}
