import LayoutSnapRender

extension RenderEnvironment {
    /// The environment this process renders with: the libraries' versions (loaded, not set up)
    /// and the font files' hashes (read, not given to fontconfig), so that a run whose fixtures
    /// all come from the result cache never sets up fonts. With `librariesMemo` (a file in the
    /// cache's folder, and the executable's build id) the versions come from it while it holds
    /// (`LibrariesMemo`), so such a run does not load the libraries either.
    public static func current(librariesMemo: (path: String, build: String)? = nil) throws(RunnerError)
        -> RenderEnvironment
    {
        let files: [FontSystem.FontFile]
        let versions: [String: String]
        do {
            if let librariesMemo {
                versions = try LibrariesMemo.versions(memo: librariesMemo.path, build: librariesMemo.build)
            } else {
                try RenderLibraries.load()
                versions = RenderLibraries.versions()
            }
            files = try FontSystem.files()
        } catch {
            throw RunnerError.render(error)
        }
        var hashes: [String: String] = [:]
        for f in files { hashes[f.name] = f.hash }
        return RenderEnvironment(architecture: RenderLibraries.architecture, libraries: versions, fonts: hashes)
    }
}
