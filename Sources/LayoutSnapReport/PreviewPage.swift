/// The page `layoutsnap preview` writes: one fixture's states played as one timeline and each on
/// its own, with a scrubber (slider, arrow keys, play/pause at 1x, 0.5x or 0.25x of the frames'
/// real timing), overlays of the layout's geometry (element rects with ids, line boxes,
/// baselines, rulers, distances) drawn from the layout JSON, a pixel loupe and zoom, the frame's
/// elements as a table, motion plots, and clickable filmstrips; with `--compare`, side B beside A
/// or over it (onion skin, difference), scrubbed with it by time or progress. Self-contained: it opens from
/// disk, with no network. Served by `preview --serve` (which puts `<meta
/// name="layoutsnap-preview-server">` with its token in the head), it zooms on to 8x, asking the
/// server for the region in view (`PreviewServer`). Its stylesheet and script are `preview.css`
/// and `preview.js` (`PageAssets`).
///
/// The data is the preview's JSON (fixture, canvas, the `timeline`, and per state its frames: the
/// layout JSON's frame plus `image`, `pixels` and the text `lines`), embedded in a
/// `<script type="application/json">`.
public enum PreviewPage {
    /// Throws when the page's stylesheet or script cannot be read (a broken installation): what
    /// `preview` checks before it renders anything.
    public static func checkResources() throws {
        _ = try PageAssets.loaded.get()
    }

    public static func html(title: String, dataJSON: String, buildID: String, watching: Bool) throws -> String {
        let assets = try PageAssets.loaded.get()
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        out +=
            "<title>\(HTMLReport.escape(title))</title>\n<style>\n\(assets.previewCSS)\(assets.motionPlotCSS)\n</style>\n</head>\n"
        out += "<body data-build=\"\(HTMLReport.escape(buildID))\" data-watch=\"\(watching)\">\n"
        out +=
            "<noscript><p>The preview needs JavaScript. The frames are in the states/ folder beside this page.</p></noscript>\n"
        out += "<div id=\"app\"></div>\n"
        out += "<script type=\"application/json\" id=\"layoutsnap-preview\">"
        out += HTMLReport.scriptSafe(dataJSON)
        out +=
            "</script>\n<script>\n\(assets.wordsJS)\(assets.motionPlotJS)\(assets.previewJS)</script>\n</body>\n</html>\n"
        return out
    }
}
