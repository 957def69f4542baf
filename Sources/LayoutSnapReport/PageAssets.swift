import Foundation
import LayoutSnapSystem

/// The stylesheets and scripts inlined into the report's index.html and the preview page, kept
/// as files in `Sources/LayoutSnapReport/Resources/` where editors and linters see them. SwiftPM
/// copies that folder into the target's resource bundle (`layoutsnap_LayoutSnapReport.resources`,
/// beside the binary in .build/debug and .build/release, static build included), as it does
/// LayoutSnapRender's fonts; the Debian package installs it as /usr/share/layoutsnap/page.
/// `ResourceLocator` finds it (installed, beside the binary, or `$LAYOUTSNAP_RESOURCES/page`).
/// The files are read once.
///
/// - `report.css`, `report.js`: the report page.
/// - `preview.css`, `preview.js`: the `layoutsnap preview` page.
/// - `motion-plot.css`, `motion-plot.js`: the one drawing of a motion track (`MotionPlot`), shared
///   by both pages: inline SVG written as markup, so no namespace URL is needed.
/// - `words.js`: counts and signs in words (`Words`), shared by both pages as LayoutSnapCore's
///   `Plural` is by every Swift output.
///
/// None may reference the network: the pages open from disk (a test checks for "http"). A page
/// takes each file's text without the file's final newline, as the Swift string literals they
/// came from had it, so the pages are byte for byte what they were.
struct PageAssets: Sendable {
    var reportCSS: String
    var reportJS: String
    var previewCSS: String
    var previewJS: String
    var motionPlotCSS: String
    var motionPlotJS: String
    var wordsJS: String

    static let fileNames = [
        "report.css", "report.js", "preview.css", "preview.js", "motion-plot.css", "motion-plot.js", "words.js",
    ]

    /// The bundled files, read on first use.
    static let loaded: Result<PageAssets, PageAssetError> = Result { () throws(PageAssetError) in
        try PageAssets(folder: folder())
    }

    /// Reads every file of `folder`.
    init(folder: URL) throws(PageAssetError) {
        func text(_ name: String) throws(PageAssetError) -> String {
            let url = folder.appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw PageAssetError(file: url.path)
            }
            var text = String(decoding: data, as: UTF8.self)
            if text.hasSuffix("\n") { text.removeLast() }
            return text
        }
        reportCSS = try text("report.css")
        reportJS = try text("report.js")
        previewCSS = try text("preview.css")
        previewJS = try text("preview.js")
        motionPlotCSS = try text("motion-plot.css")
        motionPlotJS = try text("motion-plot.js")
        wordsJS = try text("words.js")
    }

    /// The folder of the files, where `ResourceLocator` finds it.
    static func folder() throws(PageAssetError) -> URL {
        do {
            return URL(fileURLWithPath: try ResourceLocator.locate(.page), isDirectory: true)
        } catch {
            throw PageAssetError(message: error.description)
        }
    }
}

/// A page resource that cannot be read: the message names the file, or every place its folder
/// was looked for, and how to fix it.
struct PageAssetError: Error, CustomStringConvertible {
    var message: String

    init(message: String) {
        self.message = message
    }

    init(file: String) {
        message =
            "the report's page resource \(file) cannot be read: the build copies Sources/LayoutSnapReport/Resources "
            + "into layoutsnap_LayoutSnapReport.resources beside the layoutsnap binary (the package into "
            + "/usr/share/layoutsnap/page); keep that folder beside a copied binary, or set "
            + "\(ResourceLocator.environmentVariable) to a folder whose page/ holds "
            + PageAssets.fileNames.joined(separator: ", ")
    }

    var description: String { message }
}
