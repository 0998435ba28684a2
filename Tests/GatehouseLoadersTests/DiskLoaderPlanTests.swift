import Foundation
import GatehouseCore
import GatehouseLoaders
import GatehouseTestSupport
import Testing

@Suite("DiskLoader lists by a plan")
struct DiskLoaderPlanTests {
    /// 20 folders of 5 files each, and one file at the root.
    static func tree() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        for folder in 0..<20 {
            let url = directory.url.appendingPathComponent("f\(folder)/deep")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            for file in 0..<5 {
                try Data().write(to: directory.url.appendingPathComponent("f\(folder)/\(file).txt"))
            }
            try Data().write(to: url.appendingPathComponent("d.txt"))
        }
        try Data().write(to: directory.url.appendingPathComponent("top.txt"))
        return directory
    }

    @Test func aWalkByAPlanOpensNoFolderThePlanRulesOut() async throws {
        let directory = try Self.tree()
        defer { directory.cleanUp() }
        let loader = DiskLoader(root: directory.url)
        let plan = AccessPlan(.anyOf([.matching("f7/*"), .matching("f1/deep/*")]))
        let walk = try loader.walk(under: "", plan: plan)
        #expect(walk.keys == ["f1/deep/d.txt"] + (0..<5).map { "f7/\($0).txt" } + ["f7/deep/d.txt"])
        // The root, f1, f1/deep, f7 and f7/deep: not the other 18 folders or their 18 subfolders.
        #expect(walk.foldersRead == 5)
        #expect(try loader.walk(under: "", plan: nil).foldersRead == 41)
    }

    @Test func aListingThroughTheProxyWalksOnlyThePermittedFolderAndListsWhatLoadAllows() async throws {
        let directory = try Self.tree()
        defer { directory.cleanUp() }
        let observer = RecordingObserver()
        let proxy = AccessProxy(
            DiskLoader(root: directory.url), gatekeepers: [PrefixPolicy(allowed: "f3/")], observer: observer)
        let listed = try await proxy.keys(under: "")
        #expect(listed == (0..<5).map { "f3/\($0).txt" } + ["f3/deep/d.txt"])
        // The folder, and each name the plan let through: not the 101 files.
        #expect(observer.records.count == 7)
    }
}

/// Allows the root folder's listing and the names under one prefix; plans exactly.
private struct PrefixPolicy: AccessPolicy {
    let name = "prefix"
    let allowed: String

    func evaluate(_ request: AccessRequest) async throws -> AccessDecision {
        request.resource.isEmpty || request.resource.hasPrefix(allowed) ? .allow : .deny(reason: "elsewhere")
    }

    func plan(_ request: AccessPlan.Request) async throws -> AccessPlan.Part {
        .exact(allowing: .anyOf([.matching(""), .matching(allowed + "*")]))
    }
}
