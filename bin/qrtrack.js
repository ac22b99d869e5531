#!/usr/bin/env node
// Installed bin: runs the TypeScript CLI in this very process through tsx's loader (a
// dependency), so signals from a supervisor reach `qrtrack serve` itself, not a wrapper.
import { register } from 'tsx/esm/api';

register();
await import(new URL('../src/cli.ts', import.meta.url).href);
