/// Just enough of PNG to learn an image's size while decoding a fixture (the pixels are decoded
/// by the renderer, which checks everything).
public enum PNGHeader {
    public struct Failure: Error { public var message: String }

    /// The bytes `parse` needs: the signature and the IHDR chunk's width and height.
    public static let byteCount = 24

    public static func parse(_ bytes: [UInt8]) throws(Failure) -> (width: Int, height: Int) {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 24, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8) else {
            throw Failure(message: "not a PNG file")
        }
        func be32(_ i: Int) -> Int { bytes[i..<i + 4].reduce(0) { $0 << 8 | Int($1) } }
        let w = be32(16)
        let h = be32(20)
        guard w > 0, h > 0 else { throw Failure(message: "the PNG claims a size of \(w) x \(h)") }
        return (w, h)
    }
}
