import LayoutSnapRender

extension RenderEnvironment {
    /// The environment this process renders with.
    public static func current() throws(RunnerError) -> RenderEnvironment {
        let fonts: FontSystem
        do {
            fonts = try FontSystem.shared()
        } catch {
            throw RunnerError.render(error)
        }
        var hashes: [String: String] = [:]
        for f in fonts.fonts { hashes[f.name] = f.hash }
        return RenderEnvironment(
            architecture: RenderLibraries.architecture, libraries: RenderLibraries.versions(), fonts: hashes)
    }
}
