import PackagePlugin

/// Embeds the recording viewer's page (`Viewer/viewer.html`, `.css`, `.js` in the target's
/// directory) into the target as string constants (`ViewerPageFiles`), so that the page is
/// edited as the files it is and still ships inside the binary, with no resource bundle to
/// lose.
@main
struct EmbedViewerPage: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
    guard let target = target as? SourceModuleTarget else { return [] }
    let viewer = target.directoryURL.appending(path: "Viewer")
    let files = [("html", "viewer.html"), ("css", "viewer.css"), ("script", "viewer.js")].map {
      (name: $0.0, url: viewer.appending(path: $0.1))
    }
    let output = context.pluginWorkDirectoryURL.appending(path: "ViewerPageFiles.swift")
    return [
      .buildCommand(
        displayName: "Embedding the recording viewer's page",
        executable: try context.tool(named: "EmbedText").url,
        arguments: [output.path(), "ViewerPageFiles"]
          + files.map { "\($0.name)=\($0.url.path())" },
        inputFiles: files.map(\.url),
        outputFiles: [output])
    ]
  }
}
