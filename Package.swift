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
        .library(name: "GatehouseRemote", targets: ["GatehouseRemote"]),
        .library(name: "GatehouseComposition", targets: ["GatehouseComposition"]),
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
        // System calls the C library does not wrap (openat2), for GatehouseLoaders; internal.
        .target(name: "CGatehouseLinux"),
        .target(
            name: "GatehouseComposition",
            dependencies: ["GatehouseCore", "GatehousePolicies", "GatehouseLoaders", "GatehouseRemote"],
            swiftSettings: strictSettings
        ),

        // Examples.
        .executableTarget(
            name: "gatehouse",
            dependencies: ["GatehouseCore", "GatehouseComposition"],
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
            name: "proxy-vs-decorator",
            dependencies: ["GatehouseCore", "GatehousePolicies", "GatehouseLoaders"],
            path: "Examples/ProxyVersusDecorator",
            swiftSettings: strictSettings
        ),

        // Benchmarks.
        .executableTarget(
            name: "gatehouse-bench",
            dependencies: [
                "GatehouseCore", "GatehousePolicies", "GatehouseLoaders", "GatehouseRemote",
                "GatehouseComposition",
            ],
            path: "Benchmarks/GatehouseBench",
            swiftSettings: strictSettings
        ),

        // Tests.
        .testTarget(
            name: "GatehouseCoreTests", dependencies: ["GatehouseCore"], swiftSettings: strictSettings),
        .testTarget(
            name: "GatehousePoliciesTests",
            dependencies: ["GatehouseCore", "GatehousePolicies"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GatehouseLoadersTests",
            dependencies: ["GatehouseCore", "GatehouseLoaders"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GatehouseRemoteTests",
            dependencies: ["GatehouseCore", "GatehouseRemote", "GatehousePolicies"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GatehouseCompositionTests",
            dependencies: ["GatehouseCore", "GatehousePolicies", "GatehouseLoaders", "GatehouseComposition"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GatehouseExamplesTests",
            dependencies: [
                "gatehouse", "avatar-picker", "proxy-vs-decorator", "GatehouseCore", "GatehouseComposition",
            ],
            swiftSettings: strictSettings
        ),
    ]
)
