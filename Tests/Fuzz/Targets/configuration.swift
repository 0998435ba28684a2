import Foundation
import GatehouseComposition

/// The configuration decoder on arbitrary bytes: reading and assembling either succeed or throw
/// `ConfigurationError`, nothing else, and never crash. An assembled service always has at
/// least one gatekeeper, and a configuration read back from its own JSON names the same services.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzConfiguration(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let json = Data(input.rest())
    let configuration: GatehouseConfiguration
    do {
        configuration = try GatehouseConfiguration(json: json)
    } catch is ConfigurationError {
        checkAssemblyFails(json)
        return 0
    } catch {
        require(false, "GatehouseConfiguration(json:) threw \(type(of: error)): \(error)")
        return 0
    }
    require(!configuration.services.isEmpty, "a configuration with no services was accepted")
    do {
        let services = try Assembler(clock: { Date(timeIntervalSince1970: 1_767_225_600) })
            .assemble(json: json, baseDirectory: baseDirectory)
        require(
            services.services.map(\.name) == configuration.services.map(\.name),
            "assembly changed the services: \(services.services.map(\.name))")
        for service in services.services {
            require(!service.gate.gatekeepers.isEmpty, "service \(service.name) has no gatekeeper")
            require(!service.description.isEmpty, "service \(service.name) has no explanation")
        }
        _ = services.description
    } catch is ConfigurationError {
    } catch {
        require(false, "Assembler.assemble(json:) threw \(type(of: error)): \(error)")
    }
    // Written back as JSON and read again, the configuration names the same services.
    if let encoded = try? JSONEncoder().encode(configuration) {
        do {
            let again = try GatehouseConfiguration(json: encoded)
            require(
                Set(again.services.map(\.name)) == Set(configuration.services.map(\.name)),
                "re-reading changed the services")
        } catch {
            require(false, "re-reading the encoded configuration failed: \(error)")
        }
    }
    return 0
}

/// A configuration that cannot be read cannot be assembled either.
private func checkAssemblyFails(_ json: Data) {
    do {
        _ = try Assembler().assemble(json: json, baseDirectory: baseDirectory)
        require(false, "an unreadable configuration was assembled")
    } catch is ConfigurationError {
    } catch {
        require(false, "Assembler.assemble(json:) threw \(type(of: error)): \(error)")
    }
}

private let baseDirectory = URL(fileURLWithPath: "/nonexistent/gatehouse-fuzz", isDirectory: true)
