// GatehouseComposition: JSON configuration -> assembled proxies, and the plugin registry.
// It depends on GatehouseCore, GatehousePolicies and GatehouseLoaders; nothing but the examples
// depends on it.
