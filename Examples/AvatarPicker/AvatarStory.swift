#if !canImport(Photos)
    import Foundation
    import GatehouseCore
    import GatehousePhotos
    import PhotosShim

    /// The avatar story, told call by call. Gatehouse grew from an article (not part of this
    /// repository) about a permission-aware thumbnail proxy in Swift: a type that conforms to the
    /// thumbnail loader's protocol, checks the current photo-library authorization on every call, and
    /// throws instead of calling the real loader when access is denied. Here the proxy is
    /// GatehousePhotos' `PhotoThumbnailLoader` behind its `PhotoLibraryPolicy`, on Linux over the
    /// PhotoKit shim's simulated library. The user's photo access changes between calls (as if they
    /// went to Settings), the view model asks for thumbnails through the proxy, and every step is
    /// checked against the invariants.
    @MainActor
    final class AvatarStory {
        /// What a step expects the view to show.
        enum Expectation: String {
            case image = "an image"
            case guidance = "guidance"
            case failure = "a failure"
        }

        /// The simulated library: image bytes by asset identifier. IMG_0004 is damaged (0 bytes).
        private let photos = PhotoLibrarySimulation(
            status: .notDetermined,
            assets: [
                "IMG_0001": .data(Data("a tabby cat asleep on a keyboard".utf8)),
                "IMG_0002": .data(Data("a beach at dusk".utf8)),
                "IMG_0003": .data(Data("a red kite over a hill".utf8)),
                "IMG_0004": .data(Data()),
            ])
        private let spy = LoaderSpy(
            PhotoThumbnailLoader(settings: PhotoThumbnailSettings(allowsNetworkAccess: false)))
        private let audit = AuditTrail()
        private let viewModel: AvatarViewModel
        private let hidingDenials: Bool
        private var tally = StoryTally()
        private var stepNumber = 0

        /// Creates the story; with `hidingDenials`, the anti-pattern ``EmptyDataOnDenial`` stands
        /// between the proxy and the view model.
        init(hidingDenials: Bool) {
            self.hidingDenials = hidingDenials
            let proxy = AccessProxy(
                spy, gatekeepers: [PhotoLibraryPolicy()], observer: audit,
                clock: { Date(timeIntervalSince1970: 1_796_000_000) })
            viewModel = AvatarViewModel(
                thumbnails: hidingDenials ? EmptyDataOnDenial(base: proxy) : proxy)
        }

        /// Tells the story, with the simulated library as the one PhotoKit reads, and returns what
        /// it counted.
        func run() async -> StoryTally {
            await PhotoLibrarySimulation.$current.withValue(photos) { await tell() }
        }

        private func tell() async -> StoryTally {
            say(
                """
                Avatar picker: a photo-library gate in front of a thumbnail loader, simulated on Linux.
                The view model asks for thumbnails through an AccessProxy whose one gate, photoLibrary,
                reads the photo authorization on every call. A spy on the real loader records every call
                that reaches it. Library: IMG_0001 (a cat), IMG_0002 (a beach), IMG_0003 (a kite),
                IMG_0004 (damaged, 0 bytes); IMG_0009 was deleted.
                """)
            if hidingDenials {
                say(
                    """
                    Anti-pattern on (--hide-denials): a wrapper between the proxy and the view model turns
                    every denial into empty image data. The view model's guard still shows no empty image,
                    but every denial loses its route to Settings.
                    """)
            }

            await show("IMG_0001", expecting: .guidance, route: .askForAccess)
            photos.userWillAnswer(.denied)
            _ = await PhotoLibraryPolicy.requestAuthorization()
            user(
                """
                The user taps Allow Photo Access. The app requests authorization now, at the user's
                action (the gate never asks), and the user answers Don't Allow.
                """
            ) { _ in }
            await show("IMG_0001", expecting: .guidance, route: .openSettings)
            user("In Settings, the user chooses Limited Access and selects IMG_0002.") {
                $0.changeInSettings(to: .limited, sharing: ["IMG_0002"])
            }
            await show("IMG_0002", expecting: .image)
            await show("IMG_0001", expecting: .guidance, route: .selectMorePhotos)
            user("In Settings, the user chooses Full Access.") { $0.changeInSettings(to: .authorized) }
            await show("IMG_0001", expecting: .image)
            await show("IMG_0004", expecting: .failure)
            await show("IMG_0009", expecting: .failure)
            user("In Settings, the user turns photo access off again (None).") {
                $0.changeInSettings(to: .denied)
            }
            await show("IMG_0001", expecting: .guidance, route: .openSettings)
            user("A device-management profile now restricts photo access.") {
                $0.changeInSettings(to: .restricted)
            }
            await show("IMG_0001", expecting: .guidance, route: .openSettings)

            tally.loaderCalls = spy.calls
            say("")
            if tally.violations.isEmpty {
                say(
                    """
                    Every invariant held: each denied call was shown as guidance and never reached the
                    loader, each allowed call reached it once with its exact asset identifier, and no
                    empty data was shown as an image.
                    """)
            } else {
                say("Invariants broken:")
                for violation in tally.violations { say("  - \(violation)") }
            }
            say(tally.summary)
            return tally
        }

        private func say(_ text: String) {
            print(text)
        }

        /// `text` broken at spaces into lines of at most 100 columns; the lines after the first are
        /// indented two columns more than the first.
        private func wrapped(_ text: String) -> String {
            let indent = String(text.prefix { $0 == " " }) + "  "
            var lines: [String] = []
            var line = ""
            for word in text.split(separator: " ", omittingEmptySubsequences: true) {
                let start = lines.isEmpty && line.isEmpty ? String(text.prefix { $0 == " " }) : ""
                if line.isEmpty {
                    line = (lines.isEmpty ? start : indent) + word
                } else if line.count + 1 + word.count <= 100 {
                    line += " " + word
                } else {
                    lines.append(line)
                    line = indent + word
                }
            }
            lines.append(line)
            return lines.joined(separator: "\n")
        }

        private func user(_ action: String, _ change: (PhotoLibrarySimulation) -> Void) {
            change(photos)
            say("")
            say(action.split(separator: "\n").map { "   > \($0)" }.joined(separator: "\n"))
        }

        /// Asks for `assetID` and checks what the view shows against `expected` and, for guidance,
        /// against the route the denial's cause calls for.
        private func show(
            _ assetID: String, expecting expected: Expectation, route expectedRoute: PermissionRoute? = nil
        ) async {
            stepNumber += 1
            let step = stepNumber
            var access = "photo access \(Self.describe(photos.status))"
            if photos.status == .limited {
                access += " to \(photos.shared.sorted().joined(separator: ", "))"
            }
            say("")
            say("\(step). The view model asks for \(assetID) (\(access)).")

            let callsBefore = spy.calls
            await viewModel.showThumbnail(for: assetID)
            let reached = Array(spy.receivedKeys.dropFirst(callsBefore))
            let records = audit.takeRecords()

            var allowed = false
            if records.count == 1, let record = records.first {
                allowed = record.decision.isAllowed
                switch record.decision {
                case .allow: say("   gatekeeper \(record.gatekeeper): allows")
                case .deny(let reason): say(wrapped("   gatekeeper \(record.gatekeeper): denies: \(reason)"))
                }
            } else {
                violate("step \(step): the gate decided \(records.count) times for one call, expected once")
            }

            if reached.isEmpty {
                say("   loader: not called (loader calls so far: \(spy.calls))")
            } else {
                let keys = reached.map { "\"\($0)\"" }.joined(separator: ", ")
                say("   loader: called with \(keys) (loader calls so far: \(spy.calls))")
            }
            if allowed, reached != [assetID] {
                violate(
                    "step \(step): the allowed call did not reach the loader exactly once with \"\(assetID)\""
                )
            }
            if !allowed, !reached.isEmpty {
                tally.loaderCallsForDeniedRequests += reached.count
                violate("step \(step): a denied call reached the loader")
            }

            let shown: Expectation?
            switch viewModel.state {
            case .image(let data):
                shown = .image
                tally.loadsShown += 1
                say("   view: image, \(data.count) bytes (\(String(decoding: data, as: UTF8.self)))")
                if data.isEmpty {
                    tally.emptyImagesShown += 1
                    violate("step \(step): empty data was shown as an image")
                }
                if !allowed { violate("step \(step): a denied call was shown as an image") }
            case .needsPermission(let route, let guidance):
                shown = .guidance
                if route != expectedRoute {
                    violate(
                        "step \(step): the view routes to \(route.rawValue), expected \(expectedRoute?.rawValue ?? "no route")"
                    )
                }
                tally.denialsShownAsGuidance += 1
                let deniedReason = records.first.flatMap { record -> String? in
                    if case .deny(let reason) = record.decision { return reason }
                    return nil
                }
                // The reason is printed once: on the gate's line when the view shows that same text.
                say(
                    guidance == deniedReason
                        ? "   view: needs permission (\(route.rawValue)), showing the gate's reason as guidance"
                        : wrapped("   view: needs permission (\(route.rawValue)): \(guidance)"))
            case .failed(let message):
                shown = .failure
                tally.failuresShown += 1
                say(wrapped("   view: failed: \(message)"))
            case nil:
                shown = nil
                say("   view: nothing")
            }
            if shown != expected {
                let hidden = !allowed && shown != .guidance ? " (the denial was hidden)" : ""
                violate(
                    "step \(step): expected \(expected.rawValue), but the view shows \(shown?.rawValue ?? "nothing")\(hidden)"
                )
            }
        }

        private func violate(_ violation: String) {
            tally.violations.append(violation)
        }

        /// The status as a person reads it, such as `not determined`.
        private static func describe(_ status: PHAuthorizationStatus) -> String {
            switch status {
            case .notDetermined: "not determined"
            case .restricted: "restricted"
            case .denied: "denied"
            case .limited: "limited"
            case .authorized: "authorized"
            }
        }
    }
#endif
