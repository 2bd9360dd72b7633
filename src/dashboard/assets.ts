import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = join(dirname(fileURLToPath(import.meta.url)), 'assets');

export type Asset = { body: Buffer; type: string; url: string };

function load(name: string, type: string): Asset {
  const body = readFileSync(join(dir, name));
  // The URL names the content, so browsers may cache it for a year: a new release is a new URL.
  const version = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return { body, type, url: `/assets/${name}?v=${version}` };
}

/** The stylesheet and the one script (no inline script anywhere: the CSP forbids it). */
export const ASSETS: Record<string, Asset> = {
  'app.css': load('app.css', 'text/css; charset=utf-8'),
  'app.js': load('app.js', 'text/javascript; charset=utf-8'),
  'favicon.svg': load('favicon.svg', 'image/svg+xml'),
};

export const cssUrl = () => ASSETS['app.css']?.url ?? '/assets/app.css';
export const jsUrl = () => ASSETS['app.js']?.url ?? '/assets/app.js';
export const iconUrl = () => ASSETS['favicon.svg']?.url ?? '/assets/favicon.svg';
