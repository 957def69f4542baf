/// Why a file could not be decoded. `description` is a one-line message fit for a test log.
public enum PNGError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file has no bytes at all.
    case empty
    /// The file is a Git LFS pointer (text starting `version https://git-lfs.github.com/spec/`):
    /// the repository uses LFS for PNGs and the real file was never fetched.
    case gitLFSPointer
    /// The file does not start with the PNG signature. The payload is the first bytes,
    /// sanitised (printable ASCII kept, everything else as `\xNN`), in quotes.
    case notPNG(String)
    /// The file ends early (inside the signature, a chunk header, a chunk's data or CRC).
    case truncated(String)
    /// A chunk's stored CRC does not match its type + data.
    case badCRC(chunk: String)
    /// The header claims more than `limit` pixels; rejected before any pixel memory is allocated.
    case tooLarge(width: Int, height: Int, limit: Int)
    /// A chunk the PNG needs is absent ("IHDR", "PLTE", "IDAT", "IEND").
    case missingChunk(String)
    /// The IDAT zlib stream inflates to more than the image needs (a decompression bomb or a
    /// wrong header). `expected` is the exact byte count of the filtered scanlines.
    case tooMuchImageData(expected: Int)
    /// The IDAT zlib stream ends (or the IDATs run out) before the image is complete.
    case notEnoughImageData(expected: Int, actual: Int)
    /// A scanline starts with a filter type other than 0...4. `row` counts rows from 0 across
    /// all interlace passes, in file order.
    case badFilter(type: UInt8, row: Int)
    /// A valid-looking feature this decoder does not implement (unknown critical chunk, a
    /// compression/filter/interlace method other than those in the PNG spec).
    case unsupported(String)
    /// Anything else that violates the PNG format.
    case corrupt(String)

    public var description: String {
        switch self {
        case .empty:
            return "empty file (0 bytes): not a PNG"
        case .gitLFSPointer:
            return "file is a Git LFS pointer, not a PNG: the real file was not fetched "
                + "(run `git lfs pull`, and check that git-lfs is installed where the repository was cloned)"
        case .notPNG(let start):
            return "not a PNG file (starts with \(start))" + PNGError.formatHint(start)
        case .truncated(let message):
            return message
        case .badCRC(let chunk):
            return "bad CRC in chunk \(chunk)"
        case .tooLarge(let width, let height, let limit):
            return "PNG claims \(width) x \(height) pixels, more than the limit of \(limit)"
        case .missingChunk(let chunk):
            return "missing \(chunk) chunk"
        case .tooMuchImageData(let expected):
            return "too much image data (decompression bomb?): the IDAT stream inflates to more than "
                + "the \(expected) bytes the header's size and format need"
        case .notEnoughImageData(let expected, let actual):
            return "not enough image data: the header's size and format need \(expected) bytes of "
                + "scanlines, the IDAT stream holds \(actual)"
        case .badFilter(let type, let row):
            return "bad filter type \(type) on scanline \(row) (valid: 0...4)"
        case .unsupported(let message):
            return "unsupported PNG: \(message)"
        case .corrupt(let message):
            return "corrupt PNG: \(message)"
        }
    }

    /// A guess at what the file is instead, from its sanitised first bytes.
    private static func formatHint(_ start: String) -> String {
        let body = start.hasPrefix("\"") ? String(start.dropFirst()) : start
        if body.hasPrefix("\\xff\\xd8\\xff") { return "; looks like a JPEG" }
        if body.hasPrefix("GIF8") { return "; looks like a GIF" }
        if body.hasPrefix("RIFF") && body.contains("WEBP") { return "; looks like a WebP" }
        if body.hasPrefix("%PDF") { return "; looks like a PDF" }
        if body.hasPrefix("<") || body.hasPrefix("\\xef\\xbb\\xbf<") {
            return "; looks like HTML/XML/SVG text (an error page saved instead of the image?)"
        }
        return ""
    }
}
