import Foundation

/// `avatar-picker`: the avatar story, see docs/examples.md. Exit status 0 when every invariant
/// held, 1 when one broke, 2 for a usage error.
@main
struct AvatarPickerMain {
    static let usage = """
        usage: avatar-picker [--hide-denials]

        Tells the avatar story: a photo-library gate in front of a thumbnail loader, with the user's
        photo access changing between calls. Exits 0 when every invariant held, 1 when one broke.

          --hide-denials   put the anti-pattern in: turn every denial into empty image data
          -h, --help       show this help
        """

    @MainActor
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        var hidingDenials = false
        for argument in arguments {
            switch argument {
            case "--hide-denials":
                hidingDenials = true
            case "-h", "--help":
                print(usage)
                exit(0)
            default:
                FileHandle.standardError.write(
                    Data(
                        "error: unknown argument \"\(argument)\"; expected --hide-denials or --help\n\(usage)\n"
                            .utf8))
                exit(2)
            }
        }
        #if canImport(Photos)
            // The story needs the simulated library of the Linux PhotoKit shim; on an Apple
            // platform, GatehousePhotos reads the real library (docs/photokit.md).
            _ = hidingDenials
            print("avatar-picker tells its story over a simulated photo library, on Linux only.")
            exit(0)
        #else
            let tally = await AvatarStory(hidingDenials: hidingDenials).run()
            exit(tally.violations.isEmpty ? 0 : 1)
        #endif
    }
}
