// swift-tools-version: 6.0
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

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
        .library(name: "GatehouseComposition", targets: ["GatehouseComposition"]),
        .library(name: "GatehouseCommandLine", targets: ["GatehouseCommandLine"]),
        .executable(name: "gatehouse", targets: ["gatehouse"]),
    ],
    targets: [
        // Libraries: lower layers never import higher ones.
        .target(name: "GatehouseCore", swiftSettings: strictSettings),
        .target(name: "GatehousePolicies", dependencies: ["GatehouseCore"], swiftSettings: strictSettings),
        .target(
            name: "GatehouseLoaders", dependencies: ["GatehouseCore", "CGatehouseLinux"],
            swiftSettings: strictSettings),
        // The remote gatekeeper (OPA, AuthZEN over HTTP): its own module, so that an app that
        // does not ask a decision service does not link networking.
        .target(name: "GatehouseRemote", dependencies: ["GatehouseCore"], swiftSettings: strictSettings),
        // A system call the C library does not wrap (openat2), for GatehouseLoaders; internal.
        .target(name: "CGatehouseLinux"),
        // Decision logs: observers that write records somewhere useful.
        .target(name: "GatehouseAudit", dependencies: ["GatehouseCore"], swiftSettings: strictSettings),
        .target(
            name: "GatehouseComposition",
            dependencies: [
                "GatehouseCore", "GatehousePolicies", "GatehouseLoaders", "GatehouseAudit", "GatehouseRemote",
            ],
            swiftSettings: strictSettings
        ),
        // The `gatehouse` command as a library: an app runs it with its own plugin registry.
        .target(
            name: "GatehouseCommandLine",
            dependencies: ["GatehouseCore", "GatehouseComposition"],
            swiftSettings: strictSettings
        ),

        // Examples.
        .executableTarget(
            name: "gatehouse",
            dependencies: ["GatehouseCommandLine", "GatehouseComposition"],
            path: "Examples/GatehouseCLI",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "avatar-picker",
            dependencies: ["GatehouseCore", "GatehouseLoaders"],
            path: "Examples/AvatarPicker",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "documents",
            dependencies: ["GatehouseCore", "GatehousePolicies"],
            path: "Examples/Documents",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "proxy-vs-decorator",
            dependencies: ["GatehouseCore", "GatehousePolicies", "GatehouseLoaders"],
            path: "Examples/ProxyVersusDecorator",
            swiftSettings: strictSettings
        ),

        // Benchmarks.
        .executableTarget(
            name: "gatehouse-bench",
            dependencies: [
                "GatehouseCore", "GatehousePolicies", "GatehouseLoaders", "GatehouseAudit", "GatehouseRemote",
                "GatehouseComposition",
            ],
            path: "Benchmarks/GatehouseBench",
            swiftSettings: strictSettings
        ),

        // Tests.
        // Test doubles and helpers shared by the test targets (not a product); GatehouseCore only.
        .target(
            name: "GatehouseTestSupport", dependencies: ["GatehouseCore"], path: "Tests/GatehouseTestSupport",
            exclude: ["generate-canonical-equivalents.py"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "GatehouseCoreTests", dependencies: ["GatehouseCore", "GatehouseTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "GatehousePoliciesTests",
            dependencies: ["GatehouseCore", "GatehousePolicies", "GatehouseTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GatehouseLoadersTests",
            dependencies: ["GatehouseCore", "GatehouseLoaders", "GatehouseTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GatehouseAuditTests",
            dependencies: ["GatehouseCore", "GatehouseAudit", "GatehouseTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "GatehouseRemoteTests",
            dependencies: ["GatehouseCore", "GatehouseRemote", "GatehousePolicies", "GatehouseTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GatehouseCompositionTests",
            dependencies: [
                "GatehouseCore", "GatehousePolicies", "GatehouseLoaders", "GatehouseAudit",
                "GatehouseComposition", "GatehouseTestSupport",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GatehouseCommandLineTests",
            dependencies: ["GatehouseCore", "GatehouseComposition", "GatehouseCommandLine"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GatehouseExamplesTests",
            dependencies: [
                "gatehouse", "avatar-picker", "proxy-vs-decorator", "documents", "GatehouseCore",
                "GatehousePolicies", "GatehouseComposition", "GatehouseTestSupport",
            ],
            swiftSettings: strictSettings
        ),
    ]
)
