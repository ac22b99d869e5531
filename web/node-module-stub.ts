// What the browser bundle gets for Node's `module`: harfbuzzjs's Emscripten loader imports it
// (`await import("module")`) only on its Node branch, which never runs in a browser. Named here,
// Vite does not externalize it with a warning on every build.
export function createRequire(): never {
  throw new Error('node:module is not available in the browser');
}
