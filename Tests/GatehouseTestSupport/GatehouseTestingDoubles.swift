/// The test doubles of the `GatehouseTesting` product (`RecordingObserver`, `SwitchPolicy`,
/// `ThrowingPolicy` and `GateFailure`, `SpyLoader`), for every test target that imports this
/// support target: the package's tests use the doubles an app's tests use, defined once.
@_exported import GatehouseTesting
