throw new Error("This PHP version is not installed: only @php-wasm/node-8-4 is (see the root package.json overrides).");
