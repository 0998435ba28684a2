import Foundation
import Testing

// The story runs over the Linux PhotoKit shim; on Apple platforms the example only says so.
#if !canImport(Photos)
    @Suite("avatar-picker example")
    struct AvatarPickerExampleTests {
        static let summary =
            "loads shown: 2, denials shown as guidance: 5, failures shown: 2,\n"
            + "loader calls: 4, loader calls for denied requests: 0, empty images shown: 0"

        /// The numbered step `number` of the story: its lines up to the next blank line.
        static func step(_ number: Int, of run: ExampleRun) -> [String] {
            let lines = run.stdout.components(separatedBy: "\n")
            guard let start = lines.firstIndex(where: { $0.hasPrefix("\(number). ") }) else { return [] }
            return Array(lines[start...].prefix { !$0.isEmpty })
        }

        @Test func theStoryHoldsEveryInvariantAndEndsWithTheCounts() async throws {
            let run = try await Examples.run("avatar-picker", [])
            #expect(run.status == 0)
            #expect(run.stderr.isEmpty)
            #expect(run.stdout.hasSuffix("\n\(Self.summary)\n"))
            #expect(!run.stdout.contains("Invariants broken"))
        }

        @Test(arguments: [[], ["--hide-denials"]])
        func everyLineFitsInOneHundredColumns(_ arguments: [String]) async throws {
            let run = try await Examples.run("avatar-picker", arguments)
            for line in run.stdout.components(separatedBy: "\n") {
                #expect(line.count <= 100, "\(line.count) columns: \(line)")
            }
        }

        @Test func eachDenialReasonIsPrintedOnce() async throws {
            let run = try await Examples.run("avatar-picker", [])
            let once = run.stdout.components(separatedBy: "tap Allow Photo Access\n     to choose an avatar")
            #expect(once.count == 2)
            let repeated = run.stdout.components(separatedBy: "\n").filter {
                $0.hasPrefix("   view: needs permission (") && $0.contains("): ")
            }
            #expect(repeated.isEmpty)
            #expect(run.stdout.components(separatedBy: "showing the gate's reason as guidance").count == 6)
        }

        @Test func theStoryIsTheSameOnEveryRun() async throws {
            let first = try await Examples.run("avatar-picker", [])
            let second = try await Examples.run("avatar-picker", [])
            #expect(first.stdout == second.stdout)
        }

        @Test func authorizationChangesBetweenCallsAsIfTheUserWentToSettings() async throws {
            let run = try await Examples.run("avatar-picker", [])
            let headers = (1...9).map { Self.step($0, of: run).first ?? "missing step \($0)" }
            #expect(
                headers == [
                    "1. The view model asks for IMG_0001 (photo access not determined).",
                    "2. The view model asks for IMG_0001 (photo access denied).",
                    "3. The view model asks for IMG_0002 (photo access limited to IMG_0002).",
                    "4. The view model asks for IMG_0001 (photo access limited to IMG_0002).",
                    "5. The view model asks for IMG_0001 (photo access authorized).",
                    "6. The view model asks for IMG_0004 (photo access authorized).",
                    "7. The view model asks for IMG_0009 (photo access authorized).",
                    "8. The view model asks for IMG_0001 (photo access denied).",
                    "9. The view model asks for IMG_0001 (photo access restricted).",
                ])
        }

        @Test func notDeterminedDeniesWithoutCallingTheLoaderAndAsksOnlyAtAUserAction() async throws {
            let run = try await Examples.run("avatar-picker", [])
            #expect(
                Self.step(1, of: run) == [
                    "1. The view model asks for IMG_0001 (photo access not determined).",
                    "   gatekeeper photoLibrary: denies: photo access has not been requested yet; tap Allow Photo Access",
                    "     to choose an avatar from your library",
                    "   loader: not called (loader calls so far: 0)",
                    "   view: needs permission (ask for access), showing the gate's reason as guidance",
                ])
            #expect(
                run.stdout.contains(
                    "The app requests authorization now, at the user's\n   > action (the gate never asks)"))
        }

        @Test func deniedAccessShowsOpenSettingsGuidanceInsteadOfAnImage() async throws {
            let run = try await Examples.run("avatar-picker", [])
            #expect(
                Self.step(2, of: run) == [
                    "2. The view model asks for IMG_0001 (photo access denied).",
                    "   gatekeeper photoLibrary: denies: photo access is off for this app; open Settings > Privacy &",
                    "     Security > Photos to allow it",
                    "   loader: not called (loader calls so far: 0)",
                    "   view: needs permission (open Settings), showing the gate's reason as guidance",
                ])
        }

        @Test func limitedAccessAllowsOnlyTheSelectedAssets() async throws {
            let run = try await Examples.run("avatar-picker", [])
            #expect(
                Self.step(3, of: run).suffix(3) == [
                    "   gatekeeper photoLibrary: allows",
                    "   loader: called with \"IMG_0002\" (loader calls so far: 1)",
                    "   view: image, 15 bytes (a beach at dusk)",
                ])
            #expect(
                Array(Self.step(4, of: run).dropFirst()) == [
                    "   gatekeeper photoLibrary: denies: the photo is not among the photos you shared with this app; open",
                    "     Settings > Privacy & Security > Photos to select more photos or allow full access",
                    "   loader: not called (loader calls so far: 1)",
                    "   view: needs permission (select more photos), showing the gate's reason as guidance",
                ])
        }

        @Test func everyDenialRoutesOnItsCauseAskSettingsOrSelectMore() async throws {
            let run = try await Examples.run("avatar-picker", [])
            let routes = [1, 2, 4, 8, 9].map { Self.step($0, of: run).last ?? "missing step \($0)" }
            #expect(
                routes == [
                    "   view: needs permission (ask for access), showing the gate's reason as guidance",
                    "   view: needs permission (open Settings), showing the gate's reason as guidance",
                    "   view: needs permission (select more photos), showing the gate's reason as guidance",
                    "   view: needs permission (open Settings), showing the gate's reason as guidance",
                    "   view: needs permission (open Settings), showing the gate's reason as guidance",
                ])
        }

        @Test func anEmptyThumbnailIsShownAsAFailureNeverAsAnImage() async throws {
            let run = try await Examples.run("avatar-picker", [])
            #expect(
                Self.step(6, of: run).suffix(3) == [
                    "   loader: called with \"IMG_0004\" (loader calls so far: 3)",
                    "   view: failed: the thumbnail of IMG_0004 could not be loaded: Photos could not deliver IMG_0004:",
                    "     no image data came back",
                ])
            #expect(!run.stdout.contains("view: image, 0 bytes"))
        }

        @Test func aLoaderErrorReachesTheViewUnchanged() async throws {
            let run = try await Examples.run("avatar-picker", [])
            #expect(
                Self.step(7, of: run).last
                    == "   view: failed: the thumbnail of IMG_0009 could not be loaded: no photo IMG_0009 in the library"
            )
        }

        @Test func accessTurnedOffDeniesAThumbnailThatWasShownBefore() async throws {
            let run = try await Examples.run("avatar-picker", [])
            #expect(
                Self.step(5, of: run).last == "   view: image, 32 bytes (a tabby cat asleep on a keyboard)")
            let afterRevocation = Self.step(8, of: run)
            #expect(
                afterRevocation.dropFirst().first?.hasPrefix(
                    "   gatekeeper photoLibrary: denies: photo access is off")
                    == true)
            #expect(afterRevocation.dropFirst(3).first == "   loader: not called (loader calls so far: 4)")
        }

        @Test func hidingDenialsAsEmptyDataBreaksTheInvariantsAndExitsOne() async throws {
            let run = try await Examples.run("avatar-picker", ["--hide-denials"])
            #expect(run.status == 1)
            #expect(run.stdout.contains("Invariants broken:"))
            #expect(
                run.stdout.contains(
                    "  - step 1: expected guidance, but the view shows a failure (the denial was hidden)"))
            #expect(
                run.stdout.hasSuffix(
                    "loads shown: 2, denials shown as guidance: 0, failures shown: 7,\n"
                        + "loader calls: 4, loader calls for denied requests: 0, empty images shown: 0\n"))
        }

        @Test func anUnknownArgumentIsAUsageErrorExitingTwo() async throws {
            let run = try await Examples.run("avatar-picker", ["--verbose"])
            #expect(run.status == 2)
            #expect(run.stdout.isEmpty)
            #expect(
                run.stderr.hasPrefix(
                    "error: unknown argument \"--verbose\"; expected --hide-denials or --help\n")
            )
        }

        @Test func helpPrintsUsageAndExitsZero() async throws {
            let run = try await Examples.run("avatar-picker", ["--help"])
            #expect(run.status == 0)
            #expect(run.stdout.hasPrefix("usage: avatar-picker [--hide-denials]\n"))
        }
    }
#endif
