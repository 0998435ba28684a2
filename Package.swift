// swift-tools-version: 6.0
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

/// Where Photos does not exist and GatehousePhotos compiles against PhotosShim instead.
let shimPlatforms: [Platform] = [.linux, .android, .windows, .openbsd, .wasi]

let package = Package(
    name: "Gatehouse",
    platforms: [
        .macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1),
    ],
    products: [
        .library(name: "GatehouseCore", targets: ["GatehouseCore"]),
        .library(name: "GatehousePolicies", targets: ["GatehousePolicies"]),
        .library(name: "GatehouseLoaders", targets: ["GatehouseLoaders"]),
        .library(name: "GatehouseAudit", targets: ["GatehouseAudit"]),
        .library(name: "GatehouseRemote", targets: ["GatehouseRemote"]),
        .library(name: "GatehousePhotos", targets: ["GatehousePhotos"]),
        .library(name: "GatehouseSQLite", targets: ["GatehouseSQLite"]),
        .library(name: "GatehouseComposition", targets: ["GatehouseComposition"]),
        .library(name: "GatehouseCommandLine", targets: ["GatehouseCommandLine"]),
        .library(name: "GatehouseTesting", targets: ["GatehouseTesting"]),
        .executable(name: "gatehouse", targets: ["gatehouse"]),
    ],
    targets: [
        // Libraries: lower layers never import higher ones.
        .target(name: "GatehouseCore"),
        .target(name: "GatehousePolicies", dependencies: ["GatehouseCore"]),
        .target(
            name: "GatehouseLoaders", dependencies: ["GatehouseCore", "CGatehouseLinux"]),
        // The remote gatekeeper (OPA, AuthZEN over HTTP): its own module, so that an app that
        // does not ask a decision service does not link networking.
        .target(name: "GatehouseRemote", dependencies: ["GatehouseCore"]),
        // A loader over one SQLite table: the system's SQLite (the SDK's SQLite3 on Apple
        // platforms, libsqlite3 through CSQLite elsewhere), in a product of its own.
        .target(
            name: "GatehouseSQLite",
            dependencies: ["GatehouseCore", .target(name: "CSQLite", condition: .when(platforms: [.linux]))]
        ),
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        // A system call the C library does not wrap (openat2), for GatehouseLoaders; internal.
        .target(name: "CGatehouseLinux"),
        // The photo-library gate and thumbnail loader: Photos on Apple platforms; elsewhere the
        // same source compiles against PhotosShim, the Photos members it uses with Apple's
        // signatures over a simulated library (tests and the avatar-picker example set it).
        .target(
            name: "GatehousePhotos",
            dependencies: [
                "GatehouseCore", .target(name: "PhotosShim", condition: .when(platforms: shimPlatforms)),
            ]
        ),
        .target(name: "PhotosShim", dependencies: ["GatehouseCore"]),
        // Decision logs: observers that write records somewhere useful.
        .target(name: "GatehouseAudit", dependencies: ["GatehouseCore"]),
        .target(
            name: "GatehouseComposition",
            dependencies: [
                "GatehouseCore", "GatehousePolicies", "GatehouseLoaders", "GatehouseAudit", "GatehouseRemote",
            ]
        ),
        // The `gatehouse` command as a library: an app runs it with its own plugin registry.
        .target(
            name: "GatehouseCommandLine",
            dependencies: [
                "GatehouseCore", "GatehousePolicies", "GatehouseLoaders", "GatehouseComposition",
                "GatehouseSQLite",
            ]
        ),

        // Test doubles for an app's own test target (and this package's): a recording observer,
        // scripted gatekeepers, a spy loader; where there is no Photos, the photo-library simulation.
        .target(
            name: "GatehouseTesting",
            dependencies: [
                "GatehouseCore", .target(name: "PhotosShim", condition: .when(platforms: shimPlatforms)),
            ]
        ),

        // Examples.
        .executableTarget(
            name: "gatehouse",
            dependencies: ["GatehouseCommandLine", "GatehouseComposition"],
            path: "Examples/GatehouseCLI"
        ),
        .executableTarget(
            name: "avatar-picker",
            dependencies: [
                "GatehouseCore", "GatehousePhotos",
                .target(name: "PhotosShim", condition: .when(platforms: shimPlatforms)),
            ],
            path: "Examples/AvatarPicker"
        ),
        .executableTarget(
            name: "documents",
            dependencies: ["GatehouseCore", "GatehousePolicies"],
            path: "Examples/Documents"
        ),
        .executableTarget(
            name: "sqlite-documents",
            dependencies: ["GatehouseCore", "GatehousePolicies", "GatehouseSQLite"],
            path: "Examples/SQLiteDocuments"
        ),
        .executableTarget(
            name: "proxy-vs-decorator",
            dependencies: ["GatehouseCore", "GatehousePolicies", "GatehouseLoaders"],
            path: "Examples/ProxyVersusDecorator"
        ),

        // Benchmarks.
        .executableTarget(
            name: "gatehouse-bench",
            dependencies: [
                "GatehouseCore", "GatehousePolicies", "GatehouseLoaders", "GatehouseAudit", "GatehouseRemote",
                "GatehouseComposition", "GatehouseSQLite",
                // The loopback AuthZEN service of list-remote-*.
                "GatehouseTestSupport",
            ],
            path: "Benchmarks/GatehouseBench"
        ),

        // Tests.
        // Test doubles and helpers shared by the test targets (not a product); GatehouseCore only.
        .target(
            name: "GatehouseTestSupport", dependencies: ["GatehouseCore", "GatehouseTesting"],
            path: "Tests/GatehouseTestSupport",
            exclude: ["generate-canonical-equivalents.py"]),
        // GatehouseTesting as an app's test target uses it: public API only.
        .testTarget(
            name: "GatehouseTestingTests",
            dependencies: ["GatehouseCore", "GatehousePhotos", "GatehouseTesting"]
        ),
        .testTarget(
            name: "GatehouseCoreTests", dependencies: ["GatehouseCore", "GatehouseTestSupport"]),
        .testTarget(
            name: "GatehousePoliciesTests",
            dependencies: ["GatehouseCore", "GatehousePolicies", "GatehouseTestSupport"]
        ),
        .testTarget(
            name: "GatehouseLoadersTests",
            dependencies: ["GatehouseCore", "GatehouseLoaders", "GatehouseTestSupport"]
        ),
        .testTarget(
            name: "GatehousePhotosTests",
            dependencies: [
                "GatehouseCore", "GatehousePhotos", "GatehouseTestSupport",
                .target(name: "PhotosShim", condition: .when(platforms: shimPlatforms)),
            ]
        ),
        .testTarget(
            name: "GatehouseAuditTests",
            dependencies: ["GatehouseCore", "GatehouseAudit", "GatehouseTestSupport"]),
        .testTarget(
            name: "GatehouseRemoteTests",
            dependencies: ["GatehouseCore", "GatehouseRemote", "GatehousePolicies", "GatehouseTestSupport"]
        ),
        .testTarget(
            name: "GatehouseSQLiteTests",
            dependencies: ["GatehouseCore", "GatehousePolicies", "GatehouseSQLite", "GatehouseTestSupport"]
        ),
        .testTarget(
            name: "GatehouseCompositionTests",
            dependencies: [
                "GatehouseCore", "GatehousePolicies", "GatehouseLoaders", "GatehouseAudit", "GatehouseRemote",
                "GatehouseComposition", "GatehouseTestSupport",
            ]
        ),
        .testTarget(
            name: "GatehouseCommandLineTests",
            dependencies: [
                "GatehouseCore", "GatehouseComposition", "GatehouseCommandLine", "GatehouseSQLite",
                "GatehouseTestSupport",
            ]
        ),
        .testTarget(
            name: "GatehouseExamplesTests",
            dependencies: [
                "gatehouse", "avatar-picker", "proxy-vs-decorator", "documents", "sqlite-documents",
                "GatehouseCore",
                "GatehousePolicies", "GatehouseComposition", "GatehouseCommandLine", "GatehouseTestSupport",
            ]
        ),
    ]
)

// Every Swift target builds with the same strict settings, set here once.
for target in package.targets where target.type != .system && target.name != "CGatehouseLinux" {
    target.swiftSettings = (target.swiftSettings ?? []) + strictSettings
}
