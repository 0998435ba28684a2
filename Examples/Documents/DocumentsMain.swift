import Foundation

/// `documents`: owners, editors and viewers of a tenant's documents, guarded by one gate.
@main
struct DocumentsMain {
    static func main() async {
        let broken = await DocumentsStory().run { print($0) }
        if !broken.isEmpty {
            for expectation in broken {
                FileHandle.standardError.write(Data("broken: \(expectation)\n".utf8))
            }
            exit(1)
        }
    }
}
