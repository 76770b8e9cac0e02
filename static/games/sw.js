const CACHE_VERSION = "dev";
