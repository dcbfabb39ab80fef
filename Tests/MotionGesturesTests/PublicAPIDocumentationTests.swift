import Foundation
import Testing

/// Every public declaration of the two library products carries a doc comment, so a package
/// depending on them sees what each name does.
@Test func everyPublicDeclarationOfTheLibrariesIsDocumented() throws {
    let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")
    var undocumented: [String] = []
    var files = 0
    for library in ["MotionStreams", "MotionGestures"] {
        let folder = sources.appendingPathComponent(library)
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            files += 1
            let lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
            var previous = ""
            for (number, line) in lines.enumerated() {
                let text = line.trimmingCharacters(in: .whitespaces)
                if text.hasPrefix("@") { continue }  // attributes sit between a comment and its declaration
                if (text.hasPrefix("public ") || text.hasPrefix("open ")) && !text.contains("override ")
                    && !previous.hasPrefix("///") {
                    undocumented.append("\(library)/\(url.lastPathComponent):\(number + 1): \(text)")
                }
                previous = text
            }
        }
    }
    #expect(files > 40)
    #expect(undocumented == [])
}
