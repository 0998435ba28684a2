// PhotoKit's asset fetching members, as Apple declares them; only the members GatehousePhotos
// uses. On Linux they read the task's `PhotoLibrarySimulation`.

/// Options for a fetch; GatehousePhotos passes `nil`.
/// https://developer.apple.com/documentation/photos/phfetchoptions
public class PHFetchOptions {}

/// An ordered list of fetched objects.
/// https://developer.apple.com/documentation/photos/phfetchresult
/// `class PHFetchResult<ObjectType> where ObjectType : AnyObject`
public class PHFetchResult<ObjectType: AnyObject> {
    private let objects: [ObjectType]

    init(_ objects: [ObjectType]) {
        self.objects = objects
    }

    /// The number of objects.
    /// https://developer.apple.com/documentation/photos/phfetchresult/count
    /// `var count: Int { get }`
    public var count: Int { objects.count }

    /// The first object, if any.
    /// https://developer.apple.com/documentation/photos/phfetchresult/firstobject
    /// `var firstObject: ObjectType? { get }`
    public var firstObject: ObjectType? { objects.first }
}

/// A photo in the library.
/// https://developer.apple.com/documentation/photos/phasset
public class PHAsset {
    /// The asset's persistent identifier.
    /// https://developer.apple.com/documentation/photos/phobject/localidentifier
    /// `var localIdentifier: String { get }`
    public let localIdentifier: String

    init(localIdentifier: String) {
        self.localIdentifier = localIdentifier
    }

    /// The assets with these identifiers that the app may see: all with full access, the shared
    /// ones with limited access, none otherwise (and, while not determined, the system prompts).
    /// https://developer.apple.com/documentation/photos/phasset/fetchassets(withlocalidentifiers:options:)
    /// `class func fetchAssets(withLocalIdentifiers identifiers: [String],
    ///     options: PHFetchOptions?) -> PHFetchResult<PHAsset>`
    public class func fetchAssets(
        withLocalIdentifiers identifiers: [String], options: PHFetchOptions?
    ) -> PHFetchResult<PHAsset> {
        let visible = PhotoLibrarySimulation.current?.fetch(identifiers) ?? []
        return PHFetchResult(visible.map { PHAsset(localIdentifier: $0) })
    }
}
