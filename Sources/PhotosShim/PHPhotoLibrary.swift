// PhotoKit's authorization members, as Apple declares them; only the members GatehousePhotos
// uses. On Linux they read the task's `PhotoLibrarySimulation`.

/// The access level an app asks for.
/// https://developer.apple.com/documentation/photos/phaccesslevel
/// `enum PHAccessLevel : Int, @unchecked Sendable` (`addOnly = 1` is left out: unused).
public enum PHAccessLevel: Int, @unchecked Sendable {
    /// Read and write access to the library.
    /// https://developer.apple.com/documentation/photos/phaccesslevel/readwrite
    case readWrite = 2
}

/// The app's authorization to access the photo library.
/// https://developer.apple.com/documentation/photos/phauthorizationstatus
/// `enum PHAuthorizationStatus : Int, @unchecked Sendable`
public enum PHAuthorizationStatus: Int, @unchecked Sendable {
    /// https://developer.apple.com/documentation/photos/phauthorizationstatus/notdetermined
    case notDetermined = 0
    /// https://developer.apple.com/documentation/photos/phauthorizationstatus/restricted
    case restricted = 1
    /// https://developer.apple.com/documentation/photos/phauthorizationstatus/denied
    case denied = 2
    /// https://developer.apple.com/documentation/photos/phauthorizationstatus/authorized
    case authorized = 3
    /// https://developer.apple.com/documentation/photos/phauthorizationstatus/limited
    case limited = 4
}

/// The user's photo library.
/// https://developer.apple.com/documentation/photos/phphotolibrary
public class PHPhotoLibrary {
    /// The app's authorization for `accessLevel`, as it is now.
    /// https://developer.apple.com/documentation/photos/phphotolibrary/authorizationstatus(for:)
    /// `class func authorizationStatus(for accessLevel: PHAccessLevel) -> PHAuthorizationStatus`
    public class func authorizationStatus(for accessLevel: PHAccessLevel) -> PHAuthorizationStatus {
        PhotoLibrarySimulation.current?.readStatus() ?? .notDetermined
    }

    /// Prompts the user (only while the status is `notDetermined`) and calls `handler` with the
    /// status afterwards.
    /// https://developer.apple.com/documentation/photos/phphotolibrary/requestauthorization(for:handler:)
    /// `class func requestAuthorization(for accessLevel: PHAccessLevel,
    ///     handler: @escaping @Sendable (PHAuthorizationStatus) -> Void)`
    public class func requestAuthorization(
        for accessLevel: PHAccessLevel, handler: @escaping @Sendable (PHAuthorizationStatus) -> Void
    ) {
        handler(PhotoLibrarySimulation.current?.prompt() ?? .notDetermined)
    }
}
