// Where there is no Photos, GatehousePhotos reads a simulated photo library; an app's tests set
// it (`PhotoLibrarySimulation`, with the PhotoKit names it simulates) through this module.
#if !canImport(Photos) && !os(watchOS)
    @_exported import PhotosShim
#endif
