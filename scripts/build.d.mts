// Types of scripts/build.mjs, for the TypeScript that imports it (test set-up, benches).
export type Part = 'server' | 'web';
export const ROOT: string;
export const DIST: string;
export function isFresh(part: Part): boolean;
export function build(options?: { parts?: Part[]; force?: boolean; log?: (line: string) => void }): Promise<Part[]>;
