import Foundation
import LayoutSnapImaging

/// The PNG at `file` with up to `count` pixels along its first rows made `levels` less red
/// (premultiplied, so only where red is at least `levels`), written back: a golden that fails
/// or passes by a known amount.
public func nudgeRed(_ file: URL, pixels count: Int, levels: UInt32) throws {
    let image = try PNGDecoder.decode([UInt8](Data(contentsOf: file)))
    var pixels = image.pixels
    var nudged = 0
    for i in pixels.indices where nudged < count && (pixels[i] >> 16) & 0xFF >= levels {
        pixels[i] -= levels << 16
        nudged += 1
    }
    try Data(PixelImage(width: image.width, height: image.height, pixels: pixels).encodePNG()).write(to: file)
}
