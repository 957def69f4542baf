import LayoutSnapRender

extension RenderEnvironment {
    /// The environment this process renders with: the libraries' versions (loaded, not set up)
    /// and the font files' hashes (read, not given to fontconfig), so that a run whose fixtures
    /// all come from the result cache never sets up fonts.
    public static func current() throws(RunnerError) -> RenderEnvironment {
        let files: [FontSystem.FontFile]
        do {
            try RenderLibraries.load()
            files = try FontSystem.files()
        } catch {
            throw RunnerError.render(error)
        }
        var hashes: [String: String] = [:]
        for f in files { hashes[f.name] = f.hash }
        return RenderEnvironment(
            architecture: RenderLibraries.architecture, libraries: RenderLibraries.versions(), fonts: hashes)
    }
}
